//! Files out (PNG pictures, GIF and APNG recordings): written to a temporary file beside the target and
//! renamed into place at the end, so a failed or interrupted run never leaves a partial file.

pub use super::png_encode::PngCompression;
use image::RgbaImage;
use std::path::{Path, PathBuf};

/// Why an output file cannot be written. Every message names the path and the fix.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// The path does not end in the format's extension.
    #[error("cannot write '{path}': {what} must be a .{ext} file; give a path ending in .{ext}")]
    WrongExtension {
        /// The target.
        path: PathBuf,
        /// What is being written.
        what: &'static str,
        /// The extension it needs.
        ext: &'static str,
    },
    /// The path is an existing directory.
    #[error("cannot write '{path}': it is a directory; give a file name ending in .{ext}")]
    IsDirectory {
        /// The target.
        path: PathBuf,
        /// The extension a file name needs.
        ext: &'static str,
    },
    /// The containing directory does not exist.
    #[error("cannot write '{path}': the directory '{dir}' does not exist; create it or choose another path")]
    NoDirectory {
        /// The target.
        path: PathBuf,
        /// Its parent.
        dir: PathBuf,
    },
    /// The folder exists but takes no new file (read-only, no permission, not a real folder).
    #[error(
        "cannot write '{path}': the folder '{dir}' takes no new files ({reason}); choose a folder you can write to"
    )]
    Unwritable {
        /// The target.
        path: PathBuf,
        /// The folder the temporary file would have been made in.
        dir: PathBuf,
        /// The operating system's reason.
        reason: String,
    },
    /// Creating, writing or renaming failed.
    #[error("cannot write '{path}': {source}; check that the directory is writable and the disk has space")]
    Io {
        /// The target.
        path: PathBuf,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// The PNG encoder failed.
    #[error("cannot write '{path}': {detail}")]
    Encode {
        /// The target.
        path: PathBuf,
        /// The encoder's reason.
        detail: String,
    },
}

impl OutputError {
    /// The temporary file (or folder) for `path` could not be made in `dir`: the operating
    /// system's reason alone, without the temporary's name, which the user never gave.
    pub(super) fn unwritable(path: &Path, dir: &Path, source: &std::io::Error) -> OutputError {
        let reason = match source.raw_os_error() {
            Some(code) => std::io::Error::from_raw_os_error(code).to_string(),
            None => source.kind().to_string(),
        };
        OutputError::Unwritable { path: path.into(), dir: dir.into(), reason }
    }
}

/// What an output file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    /// A picture (`--out`).
    Png,
    /// A GIF recording (`--record x.gif`).
    Gif,
    /// An animated PNG recording (`--record x.png` or `x.apng`).
    Apng,
}

impl OutputFormat {
    /// The extensions a path may end in; the first is the usual one.
    fn exts(self) -> &'static [&'static str] {
        match self {
            OutputFormat::Png => &["png"],
            OutputFormat::Gif => &["gif"],
            OutputFormat::Apng => &["png", "apng"],
        }
    }

    fn what(self) -> &'static str {
        match self {
            OutputFormat::Png => "a picture (--out)",
            OutputFormat::Gif => "a GIF recording (--record)",
            OutputFormat::Apng => "an animated PNG recording (--record)",
        }
    }
}

/// The folder `path` goes in (`.` for a bare name), which must exist.
pub(crate) fn existing_parent(path: &Path) -> Result<PathBuf, OutputError> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !dir.is_dir() {
        return Err(OutputError::NoDirectory { path: path.into(), dir });
    }
    Ok(dir)
}

/// Removes a temporary file or folder that was never committed, and stops Ctrl-C from looking
/// for it.
pub(crate) fn discard_temporary(temp: impl AsRef<Path>) {
    let temp_path = temp.as_ref().to_path_buf();
    drop(temp);
    crate::interrupt::forget_temporary(&temp_path);
}

/// An output file being prepared: a temporary file beside the target that becomes the target
/// only on [`OutputFile::commit`]. The temporary is made only when writing begins, and is
/// registered with [`crate::interrupt`] while it exists, so that even a second signal leaves no
/// trace. Dropped without committing, it removes the temporary and leaves any existing file at
/// the target untouched.
pub struct OutputFile {
    path: PathBuf,
    dir: PathBuf,
    /// The temporary's name ends in this: `.png.part`, or `.part.mkv` for a video, whose
    /// extension tells ffmpeg the container.
    suffix: String,
    temp: Option<tempfile::NamedTempFile>,
}

impl OutputFile {
    /// Checks the path, and that its folder takes a new file, so that an unwritable target
    /// fails before any work is done; nothing is left there yet.
    pub fn prepare(path: &Path, format: OutputFormat) -> Result<Self, OutputError> {
        let ext = format.exts()[0];
        if path.is_dir() {
            return Err(OutputError::IsDirectory { path: path.into(), ext });
        }
        let known = |e: &std::ffi::OsStr| format.exts().iter().any(|x| e.eq_ignore_ascii_case(x));
        if !path.extension().is_some_and(known) {
            return Err(OutputError::WrongExtension { path: path.into(), what: format.what(), ext });
        }
        let dir = existing_parent(path)?;
        let file = OutputFile { path: path.into(), dir, suffix: format!(".{ext}.part"), temp: None };
        // A probe, removed at once: the folder must take the temporary when writing begins.
        file.new_temporary()?;
        Ok(file)
    }

    /// [`OutputFile::prepare`] for a file whose extension the caller checked (a video that
    /// ffmpeg writes, a picture of a batch), kept last in the temporary's name so that ffmpeg
    /// picks the container by it.
    pub fn prepare_any_extension(path: &Path) -> Result<Self, OutputError> {
        let ext = path.extension().map(|e| e.to_string_lossy().into_owned()).unwrap_or_default();
        if path.is_dir() {
            return Err(OutputError::IsDirectory { path: path.into(), ext: "mp4" });
        }
        let dir = existing_parent(path)?;
        let file = OutputFile { path: path.into(), dir, suffix: format!(".part.{ext}"), temp: None };
        file.new_temporary()?;
        Ok(file)
    }

    /// A new temporary file in the target's folder.
    fn new_temporary(&self) -> Result<tempfile::NamedTempFile, OutputError> {
        let mut builder = tempfile::Builder::new();
        builder.prefix(".shadersort-").suffix(&self.suffix);
        // Temporary files are private (0600) by default; the finished picture should get the
        // usual permissions of a new file (0666 less the umask), as any image editor's would.
        #[cfg(unix)]
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
        builder
            .tempfile_in(&self.dir)
            .map_err(|source| OutputError::unwritable(&self.path, &self.dir, &source))
    }

    /// The temporary file, made (and registered) when first asked for.
    fn temporary(&mut self) -> Result<&mut tempfile::NamedTempFile, OutputError> {
        if self.temp.is_none() {
            let temp = self.new_temporary()?;
            crate::interrupt::register_temporary(temp.path());
            self.temp = Some(temp);
        }
        Ok(self.temp.as_mut().expect("made above"))
    }

    /// The final path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The temporary file's path, for a writer in another process (ffmpeg); writing begins here.
    pub fn temporary_path(&mut self) -> Result<PathBuf, OutputError> {
        Ok(self.temporary()?.path().to_path_buf())
    }

    /// The temporary file, for writers that need a handle of their own; writing begins here.
    pub fn file(&mut self) -> Result<&std::fs::File, OutputError> {
        Ok(self.temporary()?.as_file())
    }

    /// Flushes the temporary file to disk and renames it into place.
    pub fn commit(mut self) -> Result<PathBuf, OutputError> {
        let path = self.path.clone();
        self.temporary()?;
        let temp = self.temp.take().expect("made above");
        let temp_path = temp.path().to_path_buf();
        let result = temp
            .as_file()
            .sync_all()
            .map_err(|source| OutputError::Io { path: path.clone(), source })
            .and_then(|()| {
                temp.persist(&path).map_err(|e| OutputError::Io { path: path.clone(), source: e.error })
            });
        crate::interrupt::forget_temporary(&temp_path);
        result.map(|_| path)
    }

    /// Encodes the picture as PNG (RGB when `keep_alpha` is false) with fast compression, then
    /// commits.
    pub fn write_png(self, picture: &RgbaImage, keep_alpha: bool) -> Result<PathBuf, OutputError> {
        self.write_png_with(picture, keep_alpha, PngCompression::default())
    }

    /// [`OutputFile::write_png`] compressed as `compression` says.
    pub fn write_png_with(
        self,
        picture: &RgbaImage,
        keep_alpha: bool,
        compression: PngCompression,
    ) -> Result<PathBuf, OutputError> {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let encoded = compression.encode_on(picture, keep_alpha, threads);
        self.write_encoded(encoded)
    }

    /// Writes a file's whole content as an encoder made it (or says why the encoder could not),
    /// then commits.
    pub fn write_encoded(mut self, encoded: image::ImageResult<Vec<u8>>) -> Result<PathBuf, OutputError> {
        let path = self.path.clone();
        let encoded = encoded.map_err(|e| match e {
            image::ImageError::IoError(source) => OutputError::Io { path: path.clone(), source },
            other => OutputError::Encode { path: path.clone(), detail: other.to_string() },
        })?;
        std::io::Write::write_all(self.temporary()?.as_file_mut(), &encoded)
            .map_err(|source| OutputError::Io { path, source })?;
        self.commit()
    }
}

impl Drop for OutputFile {
    fn drop(&mut self) {
        if let Some(temp) = self.temp.take() {
            discard_temporary(temp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_committed_file_replaces_the_target_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.png");
        std::fs::write(&path, b"old").unwrap();
        let target = OutputFile::prepare(&path, OutputFormat::Png).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"old", "the old file stays until commit");
        target.write_png(&RgbaImage::new(3, 2), false).unwrap();
        assert_eq!(image::open(&path).unwrap().dimensions_tuple(), (3, 2));
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn a_committed_file_gets_ordinary_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.png");
        OutputFile::prepare(&path, OutputFormat::Png)
            .unwrap()
            .write_png(&RgbaImage::new(1, 1), true)
            .unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_ne!(mode & 0o044, 0, "group/others cannot read the picture: {mode:o}");
    }

    #[test]
    fn an_abandoned_target_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.png");
        let mut target = OutputFile::prepare(&path, OutputFormat::Png).unwrap();
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "no temporary before writing begins");
        std::io::Write::write_all(&mut target.file().unwrap(), b"half a picture").unwrap();
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        drop(target);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn bad_paths_are_refused_before_anything_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let png = |p: &Path| OutputFile::prepare(p, OutputFormat::Png).err().unwrap();
        assert!(matches!(png(dir.path()), OutputError::IsDirectory { .. }));
        assert!(matches!(png(&dir.path().join("x.jpg")), OutputError::WrongExtension { .. }));
        assert!(matches!(png(&dir.path().join("no/such/dir/x.png")), OutputError::NoDirectory { .. }));
        let gif = OutputFile::prepare(&dir.path().join("x.png"), OutputFormat::Gif).err().unwrap();
        assert!(gif.to_string().contains("a GIF recording (--record) must be a .gif file"), "{gif}");
        for name in ["x.png", "x.APNG"] {
            assert!(OutputFile::prepare(&dir.path().join(name), OutputFormat::Apng).is_ok(), "{name}");
        }
    }

    trait Dims {
        fn dimensions_tuple(&self) -> (u32, u32);
    }
    impl Dims for image::DynamicImage {
        fn dimensions_tuple(&self) -> (u32, u32) {
            (self.width(), self.height())
        }
    }
}
