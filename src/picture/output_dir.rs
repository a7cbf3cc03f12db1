//! Folders out (a recording's PNG frames): written into a temporary folder beside the target
//! and renamed into place at the end, so a failed or interrupted recording never leaves a
//! half-filled folder. A folder that holds only an earlier recording's frames is replaced; one
//! that holds anything else is refused, so no one's files are ever deleted.

use super::output::{OutputError, discard_temporary, existing_parent};
use std::path::{Path, PathBuf};

/// Why a folder cannot take a recording's frames (the other causes are [`OutputError`]'s).
#[derive(Debug, thiserror::Error)]
pub enum FolderError {
    /// The path names a file.
    #[error("cannot write frames into '{path}': it is a file; give a folder path ending in /")]
    IsFile {
        /// The target.
        path: PathBuf,
    },
    /// The folder holds files that are not frames.
    #[error(
        "cannot write frames into '{path}': the folder holds other files ('{example}'); give a new or empty folder, or one holding only frames of an earlier recording"
    )]
    InUse {
        /// The target.
        path: PathBuf,
        /// One of the files that are in the way.
        example: String,
    },
    /// Any other cause.
    #[error(transparent)]
    Output(#[from] OutputError),
}

/// Whether `path` names a folder to write into: it ends in a path separator, or is a folder.
pub fn names_folder(path: &Path) -> bool {
    let text = path.as_os_str().to_string_lossy();
    text.ends_with('/') || text.ends_with(std::path::MAIN_SEPARATOR) || path.is_dir()
}

/// Whether `name` is a frame file a recording writes (`frame-00012.png`).
pub fn is_frame_name(name: &str) -> bool {
    name.strip_prefix("frame-")
        .and_then(|rest| rest.strip_suffix(".png"))
        .is_some_and(|digits| digits.len() >= 5 && digits.bytes().all(|b| b.is_ascii_digit()))
}

/// A folder of frames being prepared: a temporary folder beside the target that becomes the
/// target only on [`OutputDir::commit`]. It is made only when writing begins and registered with
/// [`crate::interrupt`] while it exists. Dropped without committing, it is removed and the
/// target is left as it was.
pub struct OutputDir {
    path: PathBuf,
    parent: PathBuf,
    temp: Option<tempfile::TempDir>,
}

impl OutputDir {
    /// Checks the path: not a file, its parent present and writable, and the folder absent,
    /// empty, or holding only frames. Nothing is left there yet.
    pub fn prepare(path: &Path) -> Result<Self, FolderError> {
        let path = PathBuf::from(path.as_os_str().to_string_lossy().trim_end_matches('/'));
        let path = if path.as_os_str().is_empty() { PathBuf::from("/") } else { path };
        if path.exists() && !path.is_dir() {
            return Err(FolderError::IsFile { path });
        }
        if path.is_dir() {
            let io = |source| OutputError::Io { path: path.clone(), source };
            for entry in std::fs::read_dir(&path).map_err(io)? {
                let name = entry.map_err(io)?.file_name().to_string_lossy().into_owned();
                if !is_frame_name(&name) {
                    return Err(FolderError::InUse { path, example: name });
                }
            }
        }
        let parent = existing_parent(&path)?;
        let dir = OutputDir { path, parent, temp: None };
        // A probe, removed at once: the parent must take the temporary folder.
        dir.new_temporary()?;
        Ok(dir)
    }

    fn new_temporary(&self) -> Result<tempfile::TempDir, OutputError> {
        tempfile::Builder::new()
            .prefix(".shadersort-")
            .suffix(".frames.part")
            .tempdir_in(&self.parent)
            .map_err(|source| OutputError::unwritable(&self.path, &self.parent, &source))
    }

    /// The final path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The temporary folder to write into, made (and registered) when first asked for.
    pub fn folder(&mut self) -> Result<&Path, OutputError> {
        if self.temp.is_none() {
            let temp = self.new_temporary()?;
            crate::interrupt::register_temporary(temp.path());
            self.temp = Some(temp);
        }
        Ok(self.temp.as_ref().expect("made above").path())
    }

    /// Puts the temporary folder in place of the target (replacing an earlier recording's
    /// frames).
    pub fn commit(mut self) -> Result<PathBuf, OutputError> {
        self.folder()?;
        let temp = self.temp.take().expect("made above");
        let temp_path = temp.path().to_path_buf();
        let result = self.put_in_place(&temp_path);
        match result {
            Ok(()) => {
                let _ = temp.keep();
            }
            Err(_) => drop(temp),
        }
        crate::interrupt::forget_temporary(&temp_path);
        result.map(|()| self.path.clone())
    }

    fn put_in_place(&self, temp: &Path) -> Result<(), OutputError> {
        let io = |source| OutputError::Io { path: self.path.clone(), source };
        if !self.path.exists() {
            return std::fs::rename(temp, &self.path).map_err(io);
        }
        // The old folder moves aside (onto an empty folder of our own), the new one takes its
        // place, and only then is the old one removed.
        let aside = tempfile::Builder::new()
            .prefix(".shadersort-")
            .suffix(".frames.old")
            .tempdir_in(&self.parent)
            .map_err(io)?;
        std::fs::rename(&self.path, aside.path()).map_err(io)?;
        if let Err(e) = std::fs::rename(temp, &self.path) {
            let _ = std::fs::rename(aside.path(), &self.path);
            return Err(io(e));
        }
        drop(aside);
        Ok(())
    }
}

impl Drop for OutputDir {
    fn drop(&mut self) {
        if let Some(temp) = self.temp.take() {
            discard_temporary(temp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_committed_folder_appears_whole_and_replaces_earlier_frames() {
        let root = tempfile::tempdir().unwrap();
        let target = root.path().join("frames");
        for round in 0..2 {
            let mut dir = OutputDir::prepare(&root.path().join("frames/")).unwrap();
            assert_eq!(entries(root.path()).len(), round, "nothing new before writing begins");
            std::fs::write(dir.folder().unwrap().join("frame-00000.png"), [round as u8]).unwrap();
            assert!(!target.join("frame-00000.png").exists() || round == 1);
            assert_eq!(dir.commit().unwrap(), target);
            assert_eq!(entries(root.path()), ["frames"], "no temporary is left");
            assert_eq!(entries(&target), ["frame-00000.png"]);
            assert_eq!(std::fs::read(target.join("frame-00000.png")).unwrap(), [round as u8]);
        }
    }

    #[test]
    fn an_abandoned_folder_leaves_nothing_and_the_old_frames_stay() {
        let root = tempfile::tempdir().unwrap();
        let target = root.path().join("frames");
        std::fs::create_dir(&target).unwrap();
        std::fs::write(target.join("frame-00000.png"), b"old").unwrap();
        let mut dir = OutputDir::prepare(&target).unwrap();
        std::fs::write(dir.folder().unwrap().join("frame-00000.png"), b"new").unwrap();
        drop(dir);
        assert_eq!(entries(root.path()), ["frames"]);
        assert_eq!(std::fs::read(target.join("frame-00000.png")).unwrap(), b"old");
    }

    #[test]
    fn files_and_folders_in_use_are_refused() {
        let root = tempfile::tempdir().unwrap();
        std::fs::write(root.path().join("file"), b"x").unwrap();
        let e = OutputDir::prepare(&root.path().join("file/")).err().unwrap();
        assert!(e.to_string().contains("it is a file"), "{e}");
        std::fs::create_dir(root.path().join("mine")).unwrap();
        std::fs::write(root.path().join("mine/notes.txt"), b"x").unwrap();
        let e = OutputDir::prepare(&root.path().join("mine")).err().unwrap();
        assert!(e.to_string().contains("holds other files ('notes.txt')"), "{e}");
        let e = OutputDir::prepare(&root.path().join("no/such/frames/")).err().unwrap();
        assert!(e.to_string().contains("does not exist"), "{e}");
        assert!(is_frame_name("frame-00001.png") && is_frame_name("frame-123456.png"));
        assert!(!is_frame_name("frame-1.png") && !is_frame_name("frame-0000a.png"));
    }
}
