//! The formats a sorted picture is written in (`--format` of a batch): which one an input keeps
//! (its own where that loses nothing, else PNG) and encoding into each.

use super::png_encode::PngCompression;
use image::{ExtendedColorType, ImageEncoder, RgbaImage};

/// A format pictures are written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "wasm32"), derive(clap::ValueEnum))]
pub enum StillFormat {
    /// PNG, exact, alpha kept (--png-compression sets its effort).
    Png,
    /// JPEG, lossy (--quality); transparent pixels are blended over --background.
    Jpeg,
    /// WebP, lossless, alpha kept.
    Webp,
    /// BMP, exact, alpha kept.
    Bmp,
    /// TIFF, exact, alpha kept.
    Tiff,
}

/// JPEG's quality without `--quality`: ImageMagick's default, where JPEG's losses are hard to see.
pub const DEFAULT_JPEG_QUALITY: u8 = 92;

/// How pictures are encoded, whatever their format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EncodeOptions {
    /// JPEG's quality, 1 to 100.
    pub quality: u8,
    /// What transparent pixels are blended over where the format has no alpha (JPEG).
    pub background: [u8; 3],
    /// PNG's effort.
    pub png: PngCompression,
    /// Threads one PNG may use (several pictures encoded at once take one each).
    pub threads: usize,
}

impl StillFormat {
    /// The format `bytes` (a file's content) are in where it is exact (PNG, BMP, TIFF, lossless
    /// WebP), which a batch keeps; `None` for lossy or palette formats (JPEG, lossy WebP, GIF),
    /// which are written as PNG rather than lose more.
    pub fn exact_format_of(bytes: &[u8]) -> Option<StillFormat> {
        match image::guess_format(bytes).ok()? {
            image::ImageFormat::Png => Some(StillFormat::Png),
            image::ImageFormat::Bmp => Some(StillFormat::Bmp),
            image::ImageFormat::Tiff => Some(StillFormat::Tiff),
            image::ImageFormat::WebP if webp_is_lossless(bytes) => Some(StillFormat::Webp),
            _ => None,
        }
    }

    /// The usual extension of a file in this format.
    pub fn extension(self) -> &'static str {
        match self {
            StillFormat::Png => "png",
            StillFormat::Jpeg => "jpg",
            StillFormat::Webp => "webp",
            StillFormat::Bmp => "bmp",
            StillFormat::Tiff => "tif",
        }
    }

    /// Whether `ext` (any case) is one of this format's extensions.
    pub fn has_extension(self, ext: &str) -> bool {
        let ext = ext.to_ascii_lowercase();
        match self {
            StillFormat::Jpeg => ext == "jpg" || ext == "jpeg",
            StillFormat::Tiff => ext == "tif" || ext == "tiff",
            other => ext == other.extension(),
        }
    }

    /// `picture` encoded in this format, its alpha kept where the format has it and
    /// `has_alpha` says the input had one.
    pub fn encode(
        self,
        picture: &RgbaImage,
        has_alpha: bool,
        options: &EncodeOptions,
    ) -> image::ImageResult<Vec<u8>> {
        let (width, height) = picture.dimensions();
        let mut bytes = Vec::new();
        let (pixels, colour) = match self {
            StillFormat::Png => return options.png.encode_on(picture, has_alpha, options.threads),
            StillFormat::Jpeg => {
                (flattened(picture, has_alpha.then_some(options.background)), ExtendedColorType::Rgb8)
            }
            _ if has_alpha => (picture.as_raw().clone(), ExtendedColorType::Rgba8),
            _ => (flattened(picture, None), ExtendedColorType::Rgb8),
        };
        match self {
            StillFormat::Png => unreachable!("returned above"),
            StillFormat::Jpeg => {
                image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, options.quality)
                    .write_image(&pixels, width, height, colour)?
            }
            StillFormat::Webp => image::codecs::webp::WebPEncoder::new_lossless(&mut bytes)
                .write_image(&pixels, width, height, colour)?,
            StillFormat::Bmp => {
                image::codecs::bmp::BmpEncoder::new(&mut bytes).write_image(&pixels, width, height, colour)?
            }
            StillFormat::Tiff => {
                let mut cursor = std::io::Cursor::new(&mut bytes);
                image::codecs::tiff::TiffEncoder::new(&mut cursor)
                    .write_image(&pixels, width, height, colour)?
            }
        }
        Ok(bytes)
    }
}

/// The picture's RGB, each pixel blended over `background` by its alpha when one is given (the
/// alpha dropped as it is otherwise).
fn flattened(picture: &RgbaImage, background: Option<[u8; 3]>) -> Vec<u8> {
    let blend = |c: u8, b: u8, a: u8| {
        ((u32::from(c) * u32::from(a) + u32::from(b) * (255 - u32::from(a)) + 127) / 255) as u8
    };
    picture
        .pixels()
        .flat_map(|p| {
            let [r, g, b, a] = p.0;
            match background {
                Some([br, bg, bb]) => [blend(r, br, a), blend(g, bg, a), blend(b, bb, a)],
                None => [r, g, b],
            }
        })
        .collect()
}

/// Whether a WebP file's image is lossless: a VP8L chunk and no lossy VP8 one.
fn webp_is_lossless(bytes: &[u8]) -> bool {
    let mut lossless = false;
    let mut at = 12;
    while at + 8 <= bytes.len() {
        let fourcc = &bytes[at..at + 4];
        let size = u32::from_le_bytes(bytes[at + 4..at + 8].try_into().expect("4 bytes")) as usize;
        match fourcc {
            b"VP8 " => return false,
            b"VP8L" => lossless = true,
            _ => {}
        }
        // Chunks are padded to an even size.
        at = at.saturating_add(8).saturating_add(size).saturating_add(size & 1);
    }
    lossless
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options() -> EncodeOptions {
        EncodeOptions { quality: 90, background: [255, 0, 0], png: PngCompression::Fast, threads: 1 }
    }

    #[test]
    fn exact_formats_are_kept_and_lossy_ones_become_png() {
        let picture = crate::picture::patterns::random_image(13, 7, 3);
        for format in [StillFormat::Png, StillFormat::Webp, StillFormat::Bmp, StillFormat::Tiff] {
            let bytes = format.encode(&picture, true, &options()).unwrap();
            assert_eq!(StillFormat::exact_format_of(&bytes), Some(format), "{format:?}");
            let back = image::load_from_memory(&bytes).unwrap().to_rgba8();
            assert_eq!(back, picture, "{format:?} is exact");
        }
        let jpeg = StillFormat::Jpeg.encode(&picture, false, &options()).unwrap();
        assert_eq!(StillFormat::exact_format_of(&jpeg), None);
        assert_eq!(StillFormat::exact_format_of(b"GIF89a\x01\x00\x01\x00"), None);
        // A lossy WebP: RIFF, WEBP, then a "VP8 " chunk.
        let lossy = [b"RIFF\x1a\x00\x00\x00WEBPVP8 \x0e\x00\x00\x00".as_slice(), &[0; 14]].concat();
        assert!(!webp_is_lossless(&lossy));
    }

    #[test]
    fn jpeg_blends_transparent_pixels_over_the_background() {
        let mut picture = RgbaImage::new(8, 8);
        for p in picture.pixels_mut() {
            p.0 = [0, 0, 255, 0];
        }
        let bytes = StillFormat::Jpeg.encode(&picture, true, &options()).unwrap();
        let back = image::load_from_memory(&bytes).unwrap().to_rgb8();
        let [r, g, b] = back.get_pixel(4, 4).0;
        assert!(r > 240 && g < 15 && b < 15, "{r} {g} {b}: the red background, not the blue");
        assert_eq!(flattened(&picture, None)[..3], [0, 0, 255]);
        picture.get_pixel_mut(0, 0).0 = [0, 0, 255, 128];
        assert_eq!(flattened(&picture, Some([255, 0, 0]))[..3], [127, 0, 128]);
    }

    #[test]
    fn extensions_name_their_format() {
        assert!(StillFormat::Jpeg.has_extension("JPEG") && StillFormat::Jpeg.has_extension("jpg"));
        assert!(StillFormat::Tiff.has_extension("tiff") && !StillFormat::Png.has_extension("apng"));
    }
}
