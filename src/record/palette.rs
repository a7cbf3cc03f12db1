//! The GIF palette, computed once from the source, and the per-pixel palette index that
//! travels with each pixel through the sort in the texture's alpha byte.

use image::{RgbImage, RgbaImage};
use std::collections::HashMap;

/// The colours of every frame and the index that marks unchanged pixels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GifPalette {
    /// At most 256 colours.
    pub colours: Vec<[u8; 3]>,
    /// The index left free for "unchanged since the previous frame", when one is free.
    pub transparent: Option<u8>,
    /// True when every source colour is in the palette exactly (at most 256 colours).
    pub exact: bool,
}

impl GifPalette {
    /// The colours as the flat RGB triplets a GIF header holds.
    pub fn rgb_bytes(&self) -> Vec<u8> {
        self.colours.iter().flatten().copied().collect()
    }
}

/// A picture reduced to a palette: what the recorder starts from.
#[derive(Clone, Debug)]
pub struct Quantized {
    /// The palette.
    pub palette: GifPalette,
    /// One palette index per pixel, scanline order.
    pub indices: Vec<u8>,
}

/// Blends a pixel over the background (GIF has no partial transparency).
pub fn composite([r, g, b, a]: [u8; 4], background: [u8; 3]) -> [u8; 3] {
    let a = u32::from(a);
    let mix = |c: u8, bg: u8| ((u32::from(c) * a + u32::from(bg) * (255 - a) + 127) / 255) as u8;
    [mix(r, background[0]), mix(g, background[1]), mix(b, background[2])]
}

/// Quantizes a picture once. Pictures with at most 256 colours (after compositing over
/// `background`) get an exact palette; others get 255 colours from quantette (Wu's method in
/// Oklab, with Floyd-Steinberg dithering when `dither` is set), leaving index 255 for unchanged
/// pixels. Dithering keeps gradients smooth; without it files are smaller but colours band.
pub fn quantize(picture: &RgbaImage, background: [u8; 3], dither: bool) -> Quantized {
    let flat = flatten(picture, background);
    exact_palette(&flat, 256).unwrap_or_else(|| quantized_palette(&flat, dither, 255))
}

/// Indices at and above this one are the dimmed twins of a [`quantize_with_dimmed_twins`]
/// palette.
pub const TWIN_OFFSET: u8 = 128;

/// Quantizes like [`quantize`] but to at most 127 colours (exactly, when the picture has no
/// more), each with a twin at index + [`TWIN_OFFSET`] that is its colour at a quarter brightness:
/// the radix view's pixels still waiting in a scatter shown in stages are drawn with the twin.
/// Index 127 is left free for unchanged pixels.
pub fn quantize_with_dimmed_twins(picture: &RgbaImage, background: [u8; 3], dither: bool) -> Quantized {
    let flat = flatten(picture, background);
    let base = usize::from(TWIN_OFFSET) - 1;
    let mut q = exact_palette(&flat, base).unwrap_or_else(|| quantized_palette(&flat, dither, base as u16));
    let mut colours = q.palette.colours.clone();
    colours.resize(usize::from(TWIN_OFFSET), [0, 0, 0]);
    let twins: Vec<[u8; 3]> = colours.iter().map(|c| c.map(|v| v >> 2)).collect();
    colours.extend(twins);
    q.palette = GifPalette { colours, transparent: Some(TWIN_OFFSET - 1), exact: q.palette.exact };
    q
}

fn flatten(picture: &RgbaImage, background: [u8; 3]) -> RgbImage {
    RgbImage::from_fn(picture.width(), picture.height(), |x, y| {
        image::Rgb(composite(picture.get_pixel(x, y).0, background))
    })
}

/// The picture's own colours when it has at most `most` of them.
fn exact_palette(flat: &RgbImage, most: usize) -> Option<Quantized> {
    let mut seen: HashMap<[u8; 3], u8> = HashMap::new();
    let mut colours = Vec::new();
    let mut indices = Vec::with_capacity(flat.len() / 3);
    for p in flat.pixels() {
        let next = colours.len();
        let index = *seen.entry(p.0).or_insert_with(|| {
            colours.push(p.0);
            next as u8
        });
        if colours.len() > most {
            return None;
        }
        indices.push(index);
    }
    let transparent = (colours.len() < 256).then_some(colours.len() as u8);
    Some(Quantized { palette: GifPalette { colours, transparent, exact: true }, indices })
}

/// `size` colours from quantette, leaving the next index free.
fn quantized_palette(flat: &RgbImage, dither: bool, size: u16) -> Quantized {
    let image =
        quantette::ImageRef::try_from(flat).expect("a picture within the GPU's limits fits quantette");
    let size = quantette::PaletteSize::try_from(size).expect("a palette size of at most 255");
    let pipeline = quantette::Pipeline::new()
        .palette_size(size)
        .ditherer(dither.then(quantette::dither::FloydSteinberg::new));
    // The browser has no threads (quantette's `threads` feature is native only).
    #[cfg(not(target_arch = "wasm32"))]
    let pipeline = pipeline.parallel(true);
    let indexed = pipeline.input_image(image).output_srgb8_indexed_image();
    let (palette, indices) = indexed.into_parts();
    let colours: Vec<[u8; 3]> = palette.iter().map(|c| [c.red, c.green, c.blue]).collect();
    let transparent = Some(colours.len() as u8);
    Quantized { palette: GifPalette { colours, transparent, exact: false }, indices }
}

/// The picture with each pixel's alpha replaced by its palette index. Keys ignore alpha, so
/// this sorts exactly like the picture itself, and every readback carries its frame's indices.
pub fn indexed_picture(picture: &RgbaImage, indices: &[u8]) -> RgbaImage {
    assert_eq!(picture.len() / 4, indices.len());
    let mut out = picture.clone();
    for (p, &i) in out.pixels_mut().zip(indices) {
        p.0[3] = i;
    }
    out
}

/// A fixed palette's nearest colour for any colour, looked up in a cube of 32 levels a channel
/// (each cell's centre matched once): how a take's later frames, whose colours the first
/// frame's palette was not made from, become palette indices quickly.
pub struct PaletteCube {
    cells: Vec<u8>,
    background: [u8; 3],
}

impl PaletteCube {
    /// The cube of `palette` (not empty); pixels are composited over `background` first.
    pub fn new(palette: &GifPalette, background: [u8; 3]) -> PaletteCube {
        let centre = |level: usize| (level * 8 + 4) as i32;
        let cells = (0..32 * 32 * 32)
            .map(|cell| {
                let c = [centre(cell >> 10), centre((cell >> 5) & 31), centre(cell & 31)];
                let distance = |p: &[u8; 3]| (0..3).map(|i| (i32::from(p[i]) - c[i]).pow(2)).sum::<i32>();
                let nearest = palette.colours.iter().enumerate().min_by_key(|(_, p)| distance(p));
                nearest.map_or(0, |(index, _)| index as u8)
            })
            .collect();
        PaletteCube { cells, background }
    }

    /// The palette index of each RGBA pixel of `rgba`.
    pub fn indices(&self, rgba: &[u8]) -> Vec<u8> {
        rgba.chunks_exact(4)
            .map(|p| {
                let [r, g, b] =
                    composite([p[0], p[1], p[2], p[3]], self.background).map(|v| usize::from(v >> 3));
                self.cells[(r << 10) | (g << 5) | b]
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::picture::patterns::random_image;

    #[test]
    fn the_cube_gives_each_colour_its_nearest_palette_entry() {
        let colours = vec![[0, 0, 0], [250, 10, 10], [10, 250, 10], [128, 128, 128]];
        let palette = GifPalette { colours: colours.clone(), transparent: Some(4), exact: true };
        let cube = PaletteCube::new(&palette, [0, 0, 0]);
        let picture = random_image(37, 29, 5);
        let indices = cube.indices(picture.as_raw());
        for (p, &index) in picture.pixels().zip(&indices) {
            let cell = composite(p.0, [0, 0, 0]).map(|v| i32::from(v >> 3) * 8 + 4);
            let distance = |c: &[u8; 3]| (0..3).map(|i| (i32::from(c[i]) - cell[i]).pow(2)).sum::<i32>();
            let best = colours.iter().map(distance).min().unwrap();
            assert_eq!(distance(&colours[usize::from(index)]), best, "{:?} -> {index}", p.0);
        }
        assert_eq!(cube.indices(&[250, 12, 9, 255, 1, 2, 3, 0]), vec![1, 0], "alpha 0 is the background");
    }

    #[test]
    fn few_colours_are_kept_exactly_with_a_free_index() {
        let mut img = RgbaImage::new(4, 2);
        for (i, p) in img.pixels_mut().enumerate() {
            p.0 = [(i % 3) as u8 * 100, 7, 9, 255];
        }
        let q = quantize(&img, [0, 0, 0], true);
        assert!(q.palette.exact);
        assert_eq!(q.palette.colours.len(), 3);
        assert_eq!(q.palette.transparent, Some(3));
        for (p, &i) in img.pixels().zip(&q.indices) {
            assert_eq!(q.palette.colours[i as usize], [p[0], p[1], p[2]]);
        }
    }

    #[test]
    fn exactly_256_colours_are_exact_without_a_transparent_index() {
        let img = RgbaImage::from_fn(16, 16, |x, y| image::Rgba([(y * 16 + x) as u8, 0, 0, 255]));
        let q = quantize(&img, [0, 0, 0], true);
        assert!(q.palette.exact);
        assert_eq!((q.palette.colours.len(), q.palette.transparent), (256, None));
    }

    #[test]
    fn many_colours_get_255_and_a_transparent_index() {
        let img = random_image(64, 64, 5);
        let q = quantize(&img, [0, 0, 0], true);
        assert!(!q.palette.exact);
        assert!(q.palette.colours.len() <= 255);
        assert_eq!(q.palette.transparent, Some(q.palette.colours.len() as u8));
        assert!(q.indices.iter().all(|&i| (i as usize) < q.palette.colours.len()));
    }

    #[test]
    fn alpha_is_composited_over_the_background() {
        assert_eq!(composite([200, 100, 0, 255], [9, 9, 9]), [200, 100, 0]);
        assert_eq!(composite([200, 100, 0, 0], [9, 8, 7]), [9, 8, 7]);
        assert_eq!(composite([255, 255, 255, 128], [0, 0, 0]), [128, 128, 128]);
    }

    #[test]
    fn the_index_rides_in_alpha_and_rgb_is_untouched() {
        let img = random_image(5, 3, 1);
        let indices: Vec<u8> = (0..15).collect();
        let out = indexed_picture(&img, &indices);
        for ((a, b), &i) in img.pixels().zip(out.pixels()).zip(&indices) {
            assert_eq!((&a.0[..3], b.0[3]), (&b.0[..3], i));
        }
    }

    #[test]
    fn dimmed_twins_sit_128_above_their_colour() {
        let few = RgbaImage::from_fn(5, 1, |x, _| image::Rgba([x as u8 * 40, 200, 8, 255]));
        let q = quantize_with_dimmed_twins(&few, [0, 0, 0], true);
        assert!(q.palette.exact && q.palette.colours.len() == 256);
        assert_eq!(q.palette.transparent, Some(127));
        assert_eq!(q.palette.colours[1], [40, 200, 8]);
        assert_eq!(q.palette.colours[128 + 1], [10, 50, 2]);
        let many = random_image(40, 40, 5);
        let q = quantize_with_dimmed_twins(&many, [0, 0, 0], true);
        assert!(!q.palette.exact && q.indices.iter().all(|&i| i < 127));
        for i in 0..128 {
            assert_eq!(q.palette.colours[128 + i], q.palette.colours[i].map(|v| v >> 2));
        }
    }
}
