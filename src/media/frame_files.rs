//! A clip given as picture files: a folder of frames (every PNG, JPEG, BMP, TIFF or WebP file
//! in it, in name order, numbers compared as numbers) or a printf-style pattern such as
//! `shot-%05d.png` (the files it matches, by their number). Every frame must have the size of
//! the first.

use super::error::ClipError;
use crate::picture::input::Picture;
use image::RgbaImage;
use std::path::{Path, PathBuf};

/// The picture files a folder of frames may hold.
pub const FRAME_EXTENSIONS: [&str; 7] = ["png", "jpg", "jpeg", "bmp", "tif", "tiff", "webp"];

/// Whether `path` names a clip of picture files: an existing folder, or a pattern with `%d`
/// (or `%0Nd`) in its file name that is not itself a file (`100%done.png` may be a picture).
pub fn is_frame_files(path: &Path) -> bool {
    path.is_dir()
        || !path.is_file() && path.file_name().is_some_and(|n| pattern_parts(&n.to_string_lossy()).is_some())
}

/// The frames of a folder or a pattern, read one at a time.
#[derive(Clone, Debug)]
pub struct FrameFiles {
    files: Vec<PathBuf>,
    next: usize,
    size: (u32, u32),
    has_alpha: bool,
}

impl FrameFiles {
    /// Finds the frames and reads the first one's header.
    pub fn open(path: &Path) -> Result<FrameFiles, ClipError> {
        let files = if path.is_dir() { folder_frames(path)? } else { pattern_frames(path)? };
        let first = files.first().ok_or_else(|| ClipError::NoFrameFiles { path: path.into() })?;
        let picture = Picture::load(first)?;
        let size = picture.pixels.dimensions();
        Ok(FrameFiles { files, next: 0, size, has_alpha: picture.has_alpha })
    }

    /// How many frames there are.
    pub fn len(&self) -> u64 {
        self.files.len() as u64
    }

    /// Whether there are none (never, once opened).
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The first frame's size, which every frame has.
    pub fn size(&self) -> (u32, u32) {
        self.size
    }

    /// Whether the first frame has an alpha channel.
    pub fn has_alpha(&self) -> bool {
        self.has_alpha
    }

    /// Reads on from frame `index` (counted from 0).
    pub fn skip_to(&mut self, index: u64) {
        self.next = usize::try_from(index).unwrap_or(usize::MAX).min(self.files.len());
    }

    /// The next frame, decoded; an error for a file that cannot be read or has another size.
    pub fn next_frame(&mut self) -> Option<Result<RgbaImage, ClipError>> {
        let path = self.files.get(self.next)?;
        self.next += 1;
        Some(Picture::load(path).map_err(ClipError::from).and_then(|p| {
            let (w, h) = p.pixels.dimensions();
            if (w, h) != self.size {
                return Err(ClipError::FrameSize {
                    path: path.clone(),
                    width: w,
                    height: h,
                    first: self.size,
                });
            }
            Ok(p.pixels)
        }))
    }
}

fn folder_frames(dir: &Path) -> Result<Vec<PathBuf>, ClipError> {
    let io = |source| ClipError::Read { path: dir.into(), source };
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let path = entry.map_err(io)?.path();
        let ext = super::encoding::extension(&path);
        if path.is_file() && FRAME_EXTENSIONS.contains(&ext.as_str()) {
            files.push(path);
        }
    }
    files.sort_by(|a, b| natural_order(&a.to_string_lossy(), &b.to_string_lossy()));
    Ok(files)
}

fn pattern_frames(pattern: &Path) -> Result<Vec<PathBuf>, ClipError> {
    let name = pattern.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let (prefix, digits, suffix) = pattern_parts(&name).expect("is_frame_files saw a pattern");
    let dir = match pattern.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let io = |source| ClipError::Read { path: dir.clone(), source };
    let mut numbered = Vec::new();
    for entry in std::fs::read_dir(&dir).map_err(io)? {
        let file = entry.map_err(io)?.file_name().to_string_lossy().into_owned();
        let Some(number) = file.strip_prefix(&prefix).and_then(|r| r.strip_suffix(&suffix)) else {
            continue;
        };
        let width_ok = number.len() >= digits.max(1)
            && (digits == 0 || number.len() == digits || !number.starts_with('0'));
        if width_ok
            && number.bytes().all(|b| b.is_ascii_digit())
            && let Ok(n) = number.parse::<u64>()
        {
            numbered.push((n, dir.join(&file)));
        }
    }
    numbered.sort();
    Ok(numbered.into_iter().map(|(_, p)| p).collect())
}

/// `shot-%05d.png` as (`shot-`, 5, `.png`); `%d` has width 0.
fn pattern_parts(name: &str) -> Option<(String, usize, String)> {
    let start = name.find('%')?;
    let rest = &name[start + 1..];
    let end = rest.find('d')?;
    let spec = &rest[..end];
    let digits = match spec {
        "" => 0,
        _ if spec.starts_with('0') && spec.len() > 1 => spec[1..].parse().ok()?,
        _ => return None,
    };
    let suffix = &rest[end + 1..];
    (!suffix.contains('%')).then(|| (name[..start].to_string(), digits, suffix.to_string()))
}

/// Name order with sequences of digits compared as numbers (`frame-2` before `frame-10`).
pub fn natural_order(a: &str, b: &str) -> std::cmp::Ordering {
    let split = |s: &str| {
        let mut parts: Vec<(bool, String)> = Vec::new();
        for c in s.chars() {
            let digit = c.is_ascii_digit();
            match parts.last_mut() {
                Some((d, part)) if *d == digit => part.push(c),
                _ => parts.push((digit, c.to_string())),
            }
        }
        parts
    };
    let key = |parts: Vec<(bool, String)>| {
        parts
            .into_iter()
            .map(|(digit, part)| {
                if digit {
                    let trimmed = part.trim_start_matches('0');
                    (format!("{:0>40}", trimmed), part)
                } else {
                    (part.clone(), part)
                }
            })
            .collect::<Vec<_>>()
    };
    key(split(a)).cmp(&key(split(b)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_split_around_their_number() {
        assert_eq!(pattern_parts("shot-%05d.png"), Some(("shot-".into(), 5, ".png".into())));
        assert_eq!(pattern_parts("%d.jpg"), Some((String::new(), 0, ".jpg".into())));
        assert_eq!(pattern_parts("plain.png"), None);
        assert_eq!(pattern_parts("100%.png"), None);
    }

    #[test]
    fn numbers_in_names_sort_as_numbers() {
        let mut names = vec!["f10.png", "f2.png", "f1.png", "e.png"];
        names.sort_by(|a, b| natural_order(a, b));
        assert_eq!(names, ["e.png", "f1.png", "f2.png", "f10.png"]);
    }

    #[test]
    fn a_folder_and_a_pattern_find_their_frames_in_order() {
        let dir = tempfile::tempdir().unwrap();
        for (name, w) in [("a-2.png", 3), ("a-10.png", 3), ("a-1.png", 3), ("notes.txt", 0)] {
            let path = dir.path().join(name);
            if w == 0 {
                std::fs::write(path, "x").unwrap();
            } else {
                RgbaImage::new(w, 2).save(path).unwrap();
            }
        }
        let folder = FrameFiles::open(dir.path()).unwrap();
        let names: Vec<_> = folder.files.iter().map(|p| p.file_name().unwrap().to_owned()).collect();
        assert_eq!(names, ["a-1.png", "a-2.png", "a-10.png"]);
        let pattern = FrameFiles::open(&dir.path().join("a-%d.png")).unwrap();
        assert_eq!((pattern.len(), pattern.size()), (3, (3, 2)));
        RgbaImage::new(4, 2).save(dir.path().join("a-11.png")).unwrap();
        let mut frames = FrameFiles::open(dir.path()).unwrap();
        let errors: Vec<_> = std::iter::from_fn(|| frames.next_frame()).filter_map(Result::err).collect();
        assert!(errors[0].to_string().contains("is 4x2, but the first frame is 3x2"), "{}", errors[0]);
        RgbaImage::new(2, 2).save(dir.path().join("100%done.png")).unwrap();
        assert!(!is_frame_files(&dir.path().join("100%done.png")), "a file is a picture, not a pattern");
        assert!(is_frame_files(&dir.path().join("a-%d.png")));
        let none = FrameFiles::open(&dir.path().join("b-%03d.png")).err().unwrap();
        assert!(none.to_string().contains("no frames"), "{none}");
    }
}
