//! Animated GIFs decoded as a viewer shows them, for comparing with the CPU model: shared by the
//! recordings' tests (tests/record), the clips' (tests/cli) and the window's G (tests/window), so
//! all read GIFs one way, and compare a recording's frames with the model through its palette.

use image::codecs::gif::GifDecoder;
use image::{AnimationDecoder, RgbaImage};
use std::path::Path;

/// Every frame of a GIF as a whole RGBA canvas (each frame's region drawn over the ones before),
/// with its delay in hundredths of a second, as GIF stores it.
pub fn gif_frames(path: &Path) -> Vec<(RgbaImage, u32)> {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let decoder = GifDecoder::new(std::io::BufReader::new(file))
        .unwrap_or_else(|e| panic!("{} is not a GIF: {e}", path.display()));
    let frames = decoder.into_frames().collect_frames().unwrap();
    frames
        .into_iter()
        .map(|f| {
            let (num, den) = f.delay().numer_denom_ms();
            (f.into_buffer(), num / den / 10)
        })
        .collect()
}

/// The picture a recorded GIF should show for a state of the palette-indexed picture the
/// recorder sorts (the palette index in alpha): each pixel's palette colour, opaque.
#[allow(dead_code, reason = "the clips' tests have no palette-indexed recordings")]
pub fn through_palette(state: &RgbaImage, colours: &[[u8; 3]]) -> RgbaImage {
    RgbaImage::from_fn(state.width(), state.height(), |x, y| {
        let [r, g, b] = colours[state.get_pixel(x, y)[3] as usize];
        image::Rgba([r, g, b, 255])
    })
}
