//! Where a recording goes, chosen by its path: a `.gif` file, an animated PNG (`.png` or
//! `.apng`), a folder of PNG frames (a path ending in `/`, or an existing folder), or a video
//! (`.mp4`, `.mov`, `.mkv`, `.webm`). Each is checked before any work is done and written
//! atomically.
#![cfg(not(target_arch = "wasm32"))]

use super::format::RecordFormat;
use crate::picture::output::{OutputError, OutputFile, OutputFormat};
use crate::picture::output_dir::{FolderError, OutputDir};
use std::path::{Path, PathBuf};

/// Why a recording's path cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum TargetError {
    /// The path names no recording format.
    #[error(
        "cannot record to '{path}': the format follows the path: .gif for a GIF, .png or .apng for an animated PNG, a folder ending in / for PNG frames, .mp4, .mov, .mkv or .webm for a video; give one of those"
    )]
    UnknownFormat {
        /// The path given.
        path: PathBuf,
    },
    /// A file target.
    #[error(transparent)]
    File(#[from] OutputError),
    /// A folder target.
    #[error(transparent)]
    Folder(#[from] FolderError),
}

/// A recording's destination, checked and not yet written.
pub enum RecordTarget {
    /// A GIF file.
    Gif(OutputFile),
    /// An animated PNG file.
    Apng(OutputFile),
    /// A folder of PNG frames.
    Frames(OutputDir),
    /// A video file, written by ffmpeg (`media::recording`).
    Video(OutputFile),
}

impl RecordTarget {
    /// Checks `path` for the format it names (see [`RecordFormat::of_path`]); nothing is written.
    pub fn prepare(path: &Path) -> Result<Self, TargetError> {
        match RecordFormat::of_path(path) {
            Some(RecordFormat::Gif) => Ok(RecordTarget::Gif(OutputFile::prepare(path, OutputFormat::Gif)?)),
            Some(RecordFormat::Apng) => {
                Ok(RecordTarget::Apng(OutputFile::prepare(path, OutputFormat::Apng)?))
            }
            Some(RecordFormat::Frames) => Ok(RecordTarget::Frames(OutputDir::prepare(path)?)),
            Some(RecordFormat::Video) => Ok(RecordTarget::Video(OutputFile::prepare_any_extension(path)?)),
            None => Err(TargetError::UnknownFormat { path: path.into() }),
        }
    }

    /// The format.
    pub fn format(&self) -> RecordFormat {
        match self {
            RecordTarget::Gif(_) => RecordFormat::Gif,
            RecordTarget::Apng(_) => RecordFormat::Apng,
            RecordTarget::Frames(_) => RecordFormat::Frames,
            RecordTarget::Video(_) => RecordFormat::Video,
        }
    }

    /// The final path.
    pub fn path(&self) -> &Path {
        match self {
            RecordTarget::Gif(file) | RecordTarget::Apng(file) | RecordTarget::Video(file) => file.path(),
            RecordTarget::Frames(dir) => dir.path(),
        }
    }

    /// Puts what was written in place (see [`OutputFile::commit`], [`OutputDir::commit`]).
    pub fn commit(self) -> Result<PathBuf, OutputError> {
        match self {
            RecordTarget::Gif(file) | RecordTarget::Apng(file) | RecordTarget::Video(file) => file.commit(),
            RecordTarget::Frames(dir) => dir.commit(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_format_follows_the_path() {
        let dir = tempfile::tempdir().unwrap();
        let at = |name: &str| dir.path().join(name);
        assert_eq!(RecordTarget::prepare(&at("a.GIF")).unwrap().format(), RecordFormat::Gif);
        assert_eq!(RecordTarget::prepare(&at("a.png")).unwrap().format(), RecordFormat::Apng);
        assert_eq!(RecordTarget::prepare(&at("a.apng")).unwrap().format(), RecordFormat::Apng);
        let frames = RecordTarget::prepare(Path::new(&format!("{}/", at("frames").display()))).unwrap();
        assert_eq!((frames.format(), frames.path()), (RecordFormat::Frames, at("frames").as_path()));
        assert_eq!(RecordTarget::prepare(dir.path()).unwrap().format(), RecordFormat::Frames);
        std::fs::create_dir(at("folder.gif")).unwrap();
        let e = RecordTarget::prepare(&at("folder.gif")).err().unwrap();
        assert!(e.to_string().contains("it is a directory"), "{e}");
        for video in ["a.mp4", "a.MKV", "a.webm", "a.mov"] {
            assert_eq!(RecordTarget::prepare(&at(video)).unwrap().format(), RecordFormat::Video);
        }
        for bad in ["a", "a.jpg", "a.avi"] {
            let e = RecordTarget::prepare(&at(bad)).err().unwrap();
            assert!(e.to_string().contains(".gif for a GIF, .png or .apng"), "{e}");
            assert!(e.to_string().contains(".mp4, .mov, .mkv or .webm for a video"), "{e}");
        }
    }
}
