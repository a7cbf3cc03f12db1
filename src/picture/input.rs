//! Pictures in: decoding any supported file to RGBA8, the built-in default, and size limits.

use image::{DynamicImage, ImageError, RgbaImage};
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

/// The picture shadersort opens when given none (CC0; see `src/picture/assets/LICENSES.md`).
pub const BUILT_IN_PNG: &[u8] = include_bytes!("assets/coffee.png");
/// How the built-in picture is named in messages and output file names.
pub const BUILT_IN_NAME: &str = "coffee";

/// File formats shadersort decodes, for messages.
pub const SUPPORTED_FORMATS: &str = "PNG, JPEG, GIF, BMP, WebP or TIFF";

/// Extensions taken as videos (anything ffmpeg reads can also be named with one of these); the
/// page, which plays no clips, tells a clip from a picture by them too.
pub const VIDEO_EXTENSIONS: [&str; 16] = [
    "mp4", "m4v", "mov", "mkv", "webm", "avi", "nut", "mpg", "mpeg", "ts", "m2ts", "mts", "flv", "wmv",
    "ogv", "y4m",
];

/// Why a picture could not be used. Every message names the file, the problem and the fix.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// The path does not exist.
    #[error("cannot open '{0}': no such file; check the path")]
    Missing(PathBuf),
    /// The path is a directory.
    #[error("cannot open '{0}': it is a directory; give a picture file")]
    Directory(PathBuf),
    /// The file exists but cannot be read.
    #[error("cannot read '{path}': {source}; check its permissions")]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// Not a format shadersort decodes.
    #[error("cannot read '{path}': {detail}; convert it to {SUPPORTED_FORMATS}")]
    Unsupported {
        /// The file.
        path: PathBuf,
        /// What the decoder said.
        detail: String,
    },
    /// Decoding it would take more memory than the decoder allows (512 MiB): a picture of more
    /// than about 134 megapixels, or a header that claims so.
    #[error(
        "cannot read '{path}': it {}, more than shadersort decodes in memory (512 MiB); shrink it first, e.g. magick '{path}' -resize 8000x8000 smaller.png",
        declared_size(*declared)
    )]
    TooLargeToDecode {
        /// The file.
        path: PathBuf,
        /// Its width and height, as its header declares them.
        declared: Option<(u32, u32)>,
    },
    /// A known format, but the data is damaged or cut short.
    #[error("cannot read '{path}': the file is truncated or corrupt ({detail}); re-export or re-download it")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What the decoder said.
        detail: String,
    },
    /// Zero width or height.
    #[error(
        "cannot use '{path}': it is {width}x{height} pixels, and there is nothing to sort; give a picture of at least 1x1"
    )]
    Empty {
        /// The file.
        path: PathBuf,
        /// Its width.
        width: u32,
        /// Its height.
        height: u32,
    },
    /// Larger than the limit, and the user asked not to downscale.
    #[error(
        "{label} is {width}x{height} pixels, more than {limit} on a side ({why}); drop --no-downscale to shrink it automatically{hint}"
    )]
    TooLarge {
        /// The picture, as [`Picture::label`] names it.
        label: String,
        /// Its width.
        width: u32,
        /// Its height.
        height: u32,
        /// The largest side allowed.
        limit: u32,
        /// Where the limit comes from.
        why: String,
        /// A further way out, if there is one.
        hint: String,
    },
}

/// Whether `path` is a pattern of file names that the shell left as it was ('*.jpg', the way
/// Windows' shells pass them): no such file, and `*`, `?` or `[` in it.
pub fn is_glob(path: &Path) -> bool {
    !path.exists() && path.as_os_str().to_string_lossy().contains(['*', '?', '['])
}

/// A decoded picture ready for the GPU.
#[derive(Clone, Debug)]
pub struct Picture {
    /// The pixels, RGBA8, whatever the file held.
    pub pixels: RgbaImage,
    /// Short name for output file names (the file stem).
    pub name: String,
    /// How messages name the picture: `'path/to/file.png'` or `the built-in picture coffee.png`.
    pub label: String,
    /// Whether the source had an alpha channel (output keeps it only then).
    pub has_alpha: bool,
    /// What the user should know about how the file was read (a deeper bit depth taken to 8
    /// bits per channel), if anything.
    pub note: Option<String>,
}

impl Picture {
    /// The built-in picture.
    pub fn built_in() -> Self {
        let decoded = image::load_from_memory(BUILT_IN_PNG).expect("the built-in picture is a valid PNG");
        Picture {
            has_alpha: decoded.color().has_alpha(),
            pixels: decoded.to_rgba8(),
            name: BUILT_IN_NAME.into(),
            label: format!("the built-in picture {BUILT_IN_NAME}.png"),
            note: None,
        }
    }

    /// Decodes a file; any colour type and bit depth becomes RGBA8.
    pub fn load(path: &Path) -> Result<Self, InputError> {
        let bytes = std::fs::read(path).map_err(|source| match source.kind() {
            ErrorKind::NotFound => InputError::Missing(path.into()),
            ErrorKind::IsADirectory => InputError::Directory(path.into()),
            _ if path.is_dir() => InputError::Directory(path.into()),
            _ => InputError::Unreadable { path: path.into(), source },
        })?;
        Self::decode_file(&bytes, path)
    }

    /// Decodes the content of a file named `path` (its extension tells a damaged file from an
    /// unknown kind); what the page does with a picture opened or dropped on it.
    pub fn decode_file(bytes: &[u8], path: &Path) -> Result<Self, InputError> {
        // Some decoders refuse a zero side as a malformed header; say what is really wrong.
        if let Some((width, height)) = png_header_size(bytes).filter(|&(w, h)| w == 0 || h == 0) {
            return Err(InputError::Empty { path: path.into(), width, height });
        }
        let decoded = decode(bytes, path)?;
        let (width, height) = (decoded.width(), decoded.height());
        if width == 0 || height == 0 {
            return Err(InputError::Empty { path: path.into(), width, height });
        }
        let name = path.file_stem().map_or("picture".into(), |s| s.to_string_lossy().into_owned());
        let label = format!("'{}'", path.display());
        let colour = decoded.color();
        let bits = colour.bits_per_pixel() / u16::from(colour.channel_count());
        let note = (bits > 8).then(|| {
            format!(
                "note: {label} has {bits} bits per channel; shadersort sorts and writes it at 8 bits per channel"
            )
        });
        Ok(Picture { has_alpha: colour.has_alpha(), pixels: decoded.to_rgba8(), name, label, note })
    }

    /// The built-in input `pattern`, `size` pixels, its lines arranged for a sort by `options`
    /// (the same picture every time).
    pub fn of_pattern(
        pattern: super::teaching::Pattern,
        size: (u32, u32),
        options: &crate::keys::options::SortOptions,
    ) -> Self {
        Picture {
            pixels: pattern.picture(size, options, 1),
            name: pattern.name().into(),
            label: format!("the built-in input {} ({}x{})", pattern.name(), size.0, size.1),
            has_alpha: false,
            note: None,
        }
    }

    /// The file at `path`, or the built-in picture when there is none.
    pub fn load_or_built_in(path: Option<&Path>) -> Result<Self, InputError> {
        path.map_or_else(|| Ok(Self::built_in()), Self::load)
    }

    /// Applies a size limit: returns the picture unchanged, downscaled (with a notice for the
    /// user), or an error when downscaling is not allowed.
    pub fn fit(self, limit: &SizeLimit) -> Result<(Self, Option<String>), InputError> {
        let (width, height) = self.pixels.dimensions();
        let Some((new_width, new_height)) = limit.fit(&self.label, (width, height))? else {
            return Ok((self, None));
        };
        let pixels = image::imageops::resize(
            &self.pixels,
            new_width,
            new_height,
            image::imageops::FilterType::Triangle,
        );
        let notice = format!(
            "note: {} is {width}x{height}; downscaled to {new_width}x{new_height} to fit {} (pass --no-downscale to refuse instead)",
            self.label, limit.why
        );
        Ok((Picture { pixels, ..self }, Some(notice)))
    }
}

/// The largest picture side the sorts accept, and what to do with larger pictures.
#[derive(Clone, Debug)]
pub struct SizeLimit {
    /// Largest width or height.
    pub max_side: u32,
    /// The device's own limit (the most `--max-size` can raise `max_side` to).
    pub device_max_side: u32,
    /// Where `max_side` comes from, for messages.
    pub why: String,
    /// Shrink larger pictures (true) or refuse them (false).
    pub downscale: bool,
}

impl SizeLimit {
    /// The smaller of the device's texture limit and the user's `--max-size`.
    pub fn new(device_max_side: u32, user_max_side: Option<u32>, downscale: bool) -> Self {
        match user_max_side {
            Some(user) if user < device_max_side => {
                SizeLimit { max_side: user, device_max_side, why: format!("--max-size {user}"), downscale }
            }
            _ => SizeLimit {
                max_side: device_max_side,
                device_max_side,
                why: format!("this GPU's texture limit of {device_max_side}"),
                downscale,
            },
        }
    }
}

impl SizeLimit {
    /// The size `label`, of `size`, is sorted at: `None` when it is within the limit, the
    /// downscaled size when it is over it, or an error when downscaling is refused.
    pub fn fit(&self, label: &str, size: (u32, u32)) -> Result<Option<(u32, u32)>, InputError> {
        let (width, height) = size;
        if width.max(height) <= self.max_side {
            return Ok(None);
        }
        if !self.downscale {
            let hint = if self.max_side < self.device_max_side {
                format!(" or raise --max-size (this GPU allows up to {})", self.device_max_side)
            } else {
                String::new()
            };
            return Err(InputError::TooLarge {
                label: label.into(),
                width,
                height,
                limit: self.max_side,
                why: self.why.clone(),
                hint,
            });
        }
        Ok(Some(scaled_size(width, height, self.max_side)))
    }
}

/// `width` x `height` scaled so that the longer side is `max_side`, keeping the aspect ratio.
pub fn scaled_size(width: u32, height: u32, max_side: u32) -> (u32, u32) {
    let longest = u64::from(width.max(height));
    let scale = |side: u32| ((u64::from(side) * u64::from(max_side) + longest / 2) / longest).max(1) as u32;
    (scale(width), scale(height))
}

/// "declares 100000x100000 pixels", or "is too large" where its header does not say.
fn declared_size(declared: Option<(u32, u32)>) -> String {
    match declared {
        Some((width, height)) => format!("declares {width}x{height} pixels"),
        None => "is too large".into(),
    }
}

fn decode(bytes: &[u8], path: &Path) -> Result<DynamicImage, InputError> {
    let reader = image::ImageReader::new(std::io::Cursor::new(bytes))
        .with_guessed_format()
        .expect("reading from memory cannot fail");
    match (reader.format(), image::ImageFormat::from_path(path)) {
        (Some(_), _) => reader.decode().map_err(|e| match e {
            ImageError::Limits(_) => {
                let header = image::ImageReader::new(std::io::Cursor::new(bytes)).with_guessed_format();
                let declared = header.ok().and_then(|reader| reader.into_dimensions().ok());
                InputError::TooLargeToDecode { path: path.into(), declared }
            }
            e => classify(e, path),
        }),
        // Content not recognised, but the extension names a format we read: the file is
        // damaged (or misnamed) rather than of an unknown kind.
        (None, Ok(format)) if format.reading_enabled() => {
            let name = format.extensions_str().first().copied().unwrap_or("picture").to_uppercase();
            Err(InputError::Corrupt { path: path.into(), detail: format!("its content is not {name} data") })
        }
        (None, _) => Err(InputError::Unsupported {
            path: path.into(),
            detail: "its content is not a picture format shadersort recognises".into(),
        }),
    }
}

fn classify(error: ImageError, path: &Path) -> InputError {
    let path = path.to_path_buf();
    let detail = one_line(&error.to_string());
    match error {
        ImageError::Unsupported(_) => InputError::Unsupported { path, detail },
        ImageError::Limits(_) => InputError::TooLargeToDecode { path, declared: None },
        ImageError::IoError(e) if e.kind() == ErrorKind::UnexpectedEof => {
            InputError::Corrupt { path, detail: "the file ends early".into() }
        }
        _ => InputError::Corrupt { path, detail },
    }
}

/// Folds a multi-line decoder message into one line, without a closing full stop.
fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ").trim_end_matches('.').to_string()
}

/// Width and height from a PNG's IHDR chunk, if `bytes` starts like a PNG.
fn png_header_size(bytes: &[u8]) -> Option<(u32, u32)> {
    const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
    if bytes.len() < 24 || &bytes[..8] != SIGNATURE || &bytes[12..16] != b"IHDR" {
        return None;
    }
    let word = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
    Some((word(16), word(20)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_picture_decodes() {
        let p = Picture::built_in();
        assert_eq!(p.pixels.dimensions(), (600, 400));
        assert_eq!(p.name, "coffee");
    }

    #[test]
    fn scaling_keeps_the_aspect_ratio_and_at_least_one_pixel() {
        assert_eq!(scaled_size(20000, 10000, 16384), (16384, 8192));
        assert_eq!(scaled_size(600, 400, 300), (300, 200));
        assert_eq!(scaled_size(100000, 1, 1000), (1000, 1));
    }

    #[test]
    fn the_user_limit_applies_only_below_the_device_limit() {
        assert_eq!(SizeLimit::new(16384, Some(512), true).max_side, 512);
        assert_eq!(SizeLimit::new(16384, Some(99999), true).max_side, 16384);
        assert_eq!(SizeLimit::new(16384, None, true).max_side, 16384);
    }

    #[test]
    fn a_deeper_picture_says_it_is_read_at_8_bits() {
        let mut png = Vec::new();
        let deep = image::ImageBuffer::<image::Rgb<u16>, _>::from_fn(3, 2, |x, y| {
            image::Rgb([x as u16 * 9000, y as u16 * 30000, 65535])
        });
        image::DynamicImage::ImageRgb16(deep)
            .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
            .unwrap();
        let picture = Picture::decode_file(&png, Path::new("deep.png")).unwrap();
        let note = picture.note.expect("a note for 16 bits");
        assert!(
            note.contains("'deep.png' has 16 bits per channel") && note.contains("8 bits per channel"),
            "{note}"
        );
        let mut png = Vec::new();
        image::DynamicImage::ImageRgb8(image::RgbImage::new(3, 2))
            .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
            .unwrap();
        assert_eq!(Picture::decode_file(&png, Path::new("flat.png")).unwrap().note, None);
    }

    #[test]
    fn fitting_downscales_or_refuses() {
        let big = Picture {
            pixels: RgbaImage::new(40, 20),
            name: "big".into(),
            label: "'big.png'".into(),
            has_alpha: false,
            note: None,
        };
        let (small, notice) = big.clone().fit(&SizeLimit::new(16384, Some(10), true)).unwrap();
        assert_eq!(small.pixels.dimensions(), (10, 5));
        assert!(notice.unwrap().contains("'big.png' is 40x20; downscaled to 10x5"));
        let refused = big.fit(&SizeLimit::new(16384, Some(10), false)).unwrap_err();
        assert!(
            refused.to_string().starts_with("'big.png' is 40x20 pixels, more than 10 on a side"),
            "{refused}"
        );
    }

    #[test]
    fn png_headers_give_the_size_before_decoding() {
        let mut png = Vec::new();
        image::RgbaImage::new(7, 3)
            .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
            .unwrap();
        assert_eq!(png_header_size(&png), Some((7, 3)));
        assert_eq!(png_header_size(b"GIF89a"), None);
    }
}
