//! PNG as every output writes it, natively and in the page: the effort (`--png-compression`)
//! and the encoders, fast strips of rows (one a thread natively) or the image crate's.

use image::RgbaImage;

/// How hard a PNG picture is compressed: the same pixels either way, a smaller file for more
/// time (`--png-compression`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "wasm32"), derive(clap::ValueEnum))]
pub enum PngCompression {
    /// Quick to write, a somewhat larger file: fdeflate's fastest mode, Paeth-filtered strips of
    /// rows compressed on every core (src/picture/png_fast.rs).
    #[default]
    Fast,
    /// The smallest file the encoder makes: zlib's level 9, or fast's file where noise makes
    /// that smaller; several times slower to write.
    Best,
}

/// `pixels` (`width` x `height`, `colour`) encoded as PNG with `level`; every row picks its
/// own filter.
pub(crate) fn encode_png(
    pixels: &[u8],
    (width, height): (u32, u32),
    colour: image::ExtendedColorType,
    level: image::codecs::png::CompressionType,
) -> image::ImageResult<Vec<u8>> {
    use image::ImageEncoder;
    let mut bytes = Vec::new();
    let filter = image::codecs::png::FilterType::Adaptive;
    image::codecs::png::PngEncoder::new_with_quality(&mut bytes, level, filter)
        .write_image(pixels, width, height, colour)?;
    Ok(bytes)
}

impl PngCompression {
    /// `picture` encoded as PNG (RGB when `keep_alpha` is false) at this level, on up to
    /// `threads` threads.
    pub(crate) fn encode_on(
        self,
        picture: &RgbaImage,
        keep_alpha: bool,
        threads: usize,
    ) -> image::ImageResult<Vec<u8>> {
        use image::codecs::png::CompressionType;
        if self == PngCompression::Fast {
            // Strips of rows on each thread; the one-threaded encoder below should fdeflate's
            // stream ever take a shape the joining does not know. Paeth alone: about the size of
            // trying four filters a row (Adaptive), and quicker (BENCHMARKS.md, stills).
            let size = picture.dimensions();
            let (pixels, stride) = (picture.as_raw(), size.0 as usize * 4);
            let filters = super::png_fast::RowFilters::Paeth;
            if let Some(file) = super::png_fast::encode(pixels, size, stride, keep_alpha, filters, threads) {
                return Ok(file);
            }
        }
        let rgb;
        let (pixels, colour) = if keep_alpha {
            (picture.as_raw().as_slice(), image::ExtendedColorType::Rgba8)
        } else {
            rgb =
                picture.as_raw().chunks_exact(4).flat_map(|pixel| &pixel[..3]).copied().collect::<Vec<u8>>();
            (rgb.as_slice(), image::ExtendedColorType::Rgb8)
        };
        let encode = |level| encode_png(pixels, picture.dimensions(), colour, level);
        let fast = encode(CompressionType::Fast)?;
        if self == PngCompression::Fast {
            return Ok(fast);
        }
        let best = encode(CompressionType::Best)?;
        Ok(if best.len() <= fast.len() { best } else { fast })
    }
}
