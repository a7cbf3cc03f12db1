//! The kinds of recording, and the one a path asks for.

use crate::algorithms::{Algorithm, RunSettings};
use std::path::Path;

/// The kinds of recording.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordFormat {
    /// GIF: 256 colours, dithered when the picture has more.
    Gif,
    /// Animated PNG: every frame exact.
    Apng,
    /// A folder of PNG files, one per frame, exact.
    Frames,
    /// A video through ffmpeg (.mp4, .mov, .mkv, .webm), with the steps' sound if asked.
    Video,
}

impl RecordFormat {
    /// How reports name it.
    pub fn describe(self) -> &'static str {
        match self {
            RecordFormat::Gif => "GIF",
            RecordFormat::Apng => "animated PNG",
            RecordFormat::Frames => "PNG frames",
            RecordFormat::Video => "video",
        }
    }

    /// The file's media type, for a download (a zip archive for PNG frames).
    pub fn media_type(self) -> &'static str {
        match self {
            RecordFormat::Gif => "image/gif",
            RecordFormat::Apng => "image/apng",
            RecordFormat::Frames => "application/zip",
            RecordFormat::Video => "video/mp4",
        }
    }

    /// The settings a recording of `algorithm` in this format runs with: a GIF's radix view
    /// marks waiting pixels by their palette index ([`RunSettings::for_recording`]); the exact
    /// formats record the dimmed pixels themselves.
    pub fn run_settings(self, run: RunSettings, algorithm: Algorithm) -> RunSettings {
        match self {
            RecordFormat::Gif => run.for_recording(algorithm),
            RecordFormat::Apng | RecordFormat::Frames | RecordFormat::Video => run,
        }
    }

    /// The format a path asks for, or `None` when it names none: a trailing `/` asks for
    /// frames; then the extension decides (an existing folder named `x.gif` is an error later,
    /// not a folder of frames); an existing folder without one takes frames too.
    pub fn of_path(path: &Path) -> Option<RecordFormat> {
        if path.as_os_str().to_string_lossy().ends_with('/') {
            return Some(RecordFormat::Frames);
        }
        let ext = path.extension().map(|e| e.to_string_lossy().to_ascii_lowercase());
        match ext.as_deref() {
            Some("gif") => Some(RecordFormat::Gif),
            Some("png" | "apng") => Some(RecordFormat::Apng),
            Some("mp4" | "m4v" | "mov" | "mkv" | "webm") => Some(RecordFormat::Video),
            _ if path.is_dir() => Some(RecordFormat::Frames),
            _ => None,
        }
    }
}
