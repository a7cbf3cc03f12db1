//! 8-bit 4:2:0 frames (ffmpeg's `yuv420p`) and the exact model of both conversions: a 4:2:0
//! clip comes through the decoder's pipe as 4:2:0 (less than half the bytes of RGBA, and no
//! conversion in ffmpeg) and is turned into RGBA here ([`to_rgba`]) or on the GPU
//! (`shaders/yuv420_to_rgba.wgsl`, equal to it); a sorted frame bound for a 4:2:0 encoder is
//! turned back into 4:2:0 on the GPU (`shaders/rgba_to_yuv420.wgsl`, equal to [`to_yuv420`])
//! and read back as such.
//!
//! Both are limited range ("tv": luma 16..=235, chroma 16..=240) with the BT.601 or BT.709
//! matrix, in 16-bit fixed point rounded to nearest. Each chroma sample covers a 2x2 block of
//! pixels (the last column or row of an odd side alone): to RGBA it is shared by the block, to
//! 4:2:0 it is the rounded mean of the block's four pixels.

use image::RgbaImage;

/// The matrix between RGB and Y'CbCr.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Matrix {
    /// ITU-R BT.601 (ffmpeg's `bt470bg` and `smpte170m`; its default for untagged video).
    Bt601,
    /// ITU-R BT.709 (HD video).
    Bt709,
}

impl Matrix {
    /// The matrix ffmpeg's `colorspace` name stands for, where it is one of these two; an
    /// unknown or unspecified one is BT.601, as ffmpeg's scaler takes it.
    pub fn from_ffmpeg_name(name: &str) -> Option<Matrix> {
        match name {
            "bt709" => Some(Matrix::Bt709),
            "bt470bg" | "smpte170m" | "unknown" | "unspecified" | "" => Some(Matrix::Bt601),
            _ => None,
        }
    }

    /// The luma weights of red and blue.
    fn kr_kb(self) -> (f64, f64) {
        match self {
            Matrix::Bt601 => (0.299, 0.114),
            Matrix::Bt709 => (0.2126, 0.0722),
        }
    }
}

/// How a clip's 4:2:0 frames are coloured: the matrix, and the colour space, primaries and
/// transfer the clip is tagged with, by ffmpeg's names (passed on to the encoder; `None` where
/// the clip leaves one unsaid, which the output leaves unsaid too).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Yuv420Colour {
    /// The matrix the conversions use.
    pub matrix: Matrix,
    /// ffmpeg's name of the clip's colour space (`bt709`), when it has one.
    pub tag: Option<String>,
    /// Its primaries' name (`bt709`, `bt470bg`), when it has one.
    pub primaries: Option<String>,
    /// Its transfer's name (`bt709`, `smpte170m`), when it has one.
    pub transfer: Option<String>,
}

impl Yuv420Colour {
    /// Untagged BT.601: what ffmpeg's scaler assumes, and what it writes RGB frames as.
    pub fn untagged() -> Yuv420Colour {
        Yuv420Colour { matrix: Matrix::Bt601, tag: None, primaries: None, transfer: None }
    }
}

/// The sides of a 4:2:0 frame's planes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Yuv420Size {
    /// Luma width (the frame's).
    pub width: u32,
    /// Luma height.
    pub height: u32,
}

impl Yuv420Size {
    /// The chroma planes' width and height: half the frame's, rounded up.
    pub fn chroma(self) -> (u32, u32) {
        (self.width.div_ceil(2), self.height.div_ceil(2))
    }

    /// Bytes of a whole frame: the luma plane, then Cb, then Cr, rows unpadded (ffmpeg's
    /// `rawvideo` layout).
    pub fn bytes(self) -> usize {
        let (cw, ch) = self.chroma();
        self.width as usize * self.height as usize + 2 * cw as usize * ch as usize
    }
}

/// Fractional bits of the fixed-point coefficients.
const SHIFT: u32 = 16;
/// One half, for rounding to nearest.
const HALF: i32 = 1 << (SHIFT - 1);

/// The coefficients from 4:2:0 to RGB, times 2^16: `R = cy·Y' + crv·V'`,
/// `G = cy·Y' − cgu·U' − cgv·V'`, `B = cy·Y' + cbu·U'` with `Y' = Y − 16` and `U', V'` less 128.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ToRgb {
    /// Of luma.
    pub cy: i32,
    /// Of Cr in red.
    pub crv: i32,
    /// Of Cb in green (subtracted).
    pub cgu: i32,
    /// Of Cr in green (subtracted).
    pub cgv: i32,
    /// Of Cb in blue.
    pub cbu: i32,
}

impl ToRgb {
    /// The coefficients of `matrix`.
    pub fn of(matrix: Matrix) -> ToRgb {
        let (kr, kb) = matrix.kr_kb();
        let kg = 1.0 - kr - kb;
        let chroma = 255.0 / 224.0;
        let fixed = |x: f64| (x * f64::from(1u32 << SHIFT)).round() as i32;
        ToRgb {
            cy: fixed(255.0 / 219.0),
            crv: fixed(chroma * 2.0 * (1.0 - kr)),
            cgu: fixed(chroma * 2.0 * kb * (1.0 - kb) / kg),
            cgv: fixed(chroma * 2.0 * kr * (1.0 - kr) / kg),
            cbu: fixed(chroma * 2.0 * (1.0 - kb)),
        }
    }
}

/// The coefficients from RGB to 4:2:0, times 2^16, in the order the GPU's parameters take them:
/// luma from R, G, B; Cb from R, G, B; Cr from R, G, B.
pub fn to_yuv_coefficients(matrix: Matrix) -> [i32; 9] {
    let (kr, kb) = matrix.kr_kb();
    let kg = 1.0 - kr - kb;
    let (luma, chroma) = (219.0 / 255.0, 224.0 / 255.0);
    let fixed = |x: f64| (x * f64::from(1u32 << SHIFT)).round() as i32;
    let cb = chroma / (2.0 * (1.0 - kb));
    let cr = chroma / (2.0 * (1.0 - kr));
    [
        fixed(luma * kr),
        fixed(luma * kg),
        fixed(luma * kb),
        fixed(-cb * kr),
        fixed(-cb * kg),
        fixed(cb * (1.0 - kb)),
        fixed(cr * (1.0 - kr)),
        fixed(-cr * kg),
        fixed(-cr * kb),
    ]
}

/// A fixed-point channel value as a byte: rounded (the half is in the luma term), clamped.
fn channel(value: i32) -> u8 {
    (value >> SHIFT).clamp(0, 255) as u8
}

/// Converts a 4:2:0 frame (`planes` in [`Yuv420Size::bytes`] layout) to RGBA into `rgba`
/// (resized to fit), alpha opaque. For each pixel, with `Y' = Y − 16`, `U' = Cb − 128` and
/// `V' = Cr − 128` of its block: `R = (cy·Y' + crv·V' + 2^15) >> 16`,
/// `G = (cy·Y' − cgu·U' − cgv·V' + 2^15) >> 16`, `B = (cy·Y' + cbu·U' + 2^15) >> 16`, clamped.
pub fn to_rgba(planes: &[u8], size: Yuv420Size, matrix: Matrix, rgba: &mut Vec<u8>) {
    let (w, h) = (size.width as usize, size.height as usize);
    let (cw, ch) = size.chroma();
    let (cw, ch) = (cw as usize, ch as usize);
    assert_eq!(planes.len(), size.bytes(), "a whole 4:2:0 frame");
    let (luma, chroma) = planes.split_at(w * h);
    let (cb, cr) = chroma.split_at(cw * ch);
    rgba.resize(w * h * 4, 0);
    let c = ToRgb::of(matrix);
    // Each chroma row's terms, spread over the pixels of the two luma rows that share them.
    let mut terms = ChromaTerms { red: vec![0; w], green: vec![0; w], blue: vec![0; w] };
    for (y, row) in rgba.chunks_exact_mut(w * 4).enumerate() {
        if y % 2 == 0 {
            terms.spread(&c, &cb[y / 2 * cw..][..cw], &cr[y / 2 * cw..][..cw]);
        }
        convert_row(&c, &luma[y * w..][..w], &terms, row);
    }
}

/// The chroma terms of every pixel of a row: `crv·V'`, `−cgu·U' − cgv·V'` and `cbu·U'`.
struct ChromaTerms {
    red: Vec<i32>,
    green: Vec<i32>,
    blue: Vec<i32>,
}

impl ChromaTerms {
    /// Fills the terms from a chroma row, each sample for its two pixels (an odd width's last
    /// sample for one).
    fn spread(&mut self, c: &ToRgb, cb: &[u8], cr: &[u8]) {
        let pixels = self.red.chunks_mut(2).zip(self.green.chunks_mut(2)).zip(self.blue.chunks_mut(2));
        for (((red, green), blue), (&u, &v)) in pixels.zip(cb.iter().zip(cr)) {
            let (u, v) = (i32::from(u) - 128, i32::from(v) - 128);
            red.fill(c.crv * v);
            green.fill(-c.cgu * u - c.cgv * v);
            blue.fill(c.cbu * u);
        }
    }
}

/// One row of pixels from its luma and its chroma terms.
fn convert_row(c: &ToRgb, luma: &[u8], terms: &ChromaTerms, row: &mut [u8]) {
    let sources = luma.iter().zip(&terms.red).zip(&terms.green).zip(&terms.blue);
    let pixels = sources.map(|(((&l, &red), &green), &blue)| {
        let l = c.cy * (i32::from(l) - 16) + HALF;
        let word = u32::from(channel(l + red))
            | (u32::from(channel(l + green)) << 8)
            | (u32::from(channel(l + blue)) << 16)
            | 0xff00_0000;
        word.to_le()
    });
    // Whole words where the row is aligned for them (as allocators align frames), which the
    // compiler turns into vector code; bytes otherwise.
    match bytemuck::try_cast_slice_mut::<u8, u32>(row) {
        Ok(words) => words.iter_mut().zip(pixels).for_each(|(word, pixel)| *word = pixel),
        Err(_) => {
            row.chunks_exact_mut(4).zip(pixels).for_each(|(p, pixel)| p.copy_from_slice(&pixel.to_ne_bytes()))
        }
    }
}

/// Converts an RGBA frame with even sides to 4:2:0 ([`Yuv420Size::bytes`] layout); alpha is
/// dropped. The model of `shaders/rgba_to_yuv420.wgsl`.
///
/// # Panics
/// When a side is odd (odd-sided frames go to the encoder as RGBA: padded to even sides for
/// H.264, as they are for VP9).
pub fn to_yuv420(frame: &RgbaImage, matrix: Matrix) -> Vec<u8> {
    let (w, h) = frame.dimensions();
    assert!(w % 2 == 0 && h % 2 == 0, "4:2:0 from RGBA takes even sides, not {w}x{h}");
    let size = Yuv420Size { width: w, height: h };
    let (cw, ch) = size.chroma();
    let k = to_yuv_coefficients(matrix);
    let mut out = vec![0u8; size.bytes()];
    let (luma, chroma) = out.split_at_mut((w * h) as usize);
    let (cb, cr) = chroma.split_at_mut((cw * ch) as usize);
    let weigh = |p: [i32; 3], first: usize| k[first] * p[0] + k[first + 1] * p[1] + k[first + 2] * p[2];
    let rgb = |x: u32, y: u32| {
        let p = frame.get_pixel(x, y).0;
        [i32::from(p[0]), i32::from(p[1]), i32::from(p[2])]
    };
    for y in 0..h {
        for x in 0..w {
            let value = (weigh(rgb(x, y), 0) + (16 << SHIFT) + HALF) >> SHIFT;
            luma[(y * w + x) as usize] = value.clamp(0, 255) as u8;
        }
    }
    // The mean of four pixels: their sum weighed, divided by 4 · 2^16.
    let block_half = 1 << (SHIFT + 1);
    for cy in 0..ch {
        for cx in 0..cw {
            let mut sum = [0i32; 3];
            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                let p = rgb(2 * cx + dx, 2 * cy + dy);
                (0..3).for_each(|i| sum[i] += p[i]);
            }
            let at = (cy * cw + cx) as usize;
            let mean = |first: usize| {
                ((weigh(sum, first) + (128 << (SHIFT + 2)) + block_half) >> (SHIFT + 2)).clamp(0, 255) as u8
            };
            cb[at] = mean(3);
            cr[at] = mean(6);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 4:2:0 frame of one colour.
    fn flat(size: Yuv420Size, (y, u, v): (u8, u8, u8)) -> Vec<u8> {
        let (cw, ch) = size.chroma();
        let chroma = (cw * ch) as usize;
        let mut planes = vec![y; (size.width * size.height) as usize];
        planes.extend(std::iter::repeat_n(u, chroma));
        planes.extend(std::iter::repeat_n(v, chroma));
        planes
    }

    /// The conversion to RGBA pixel by pixel, as its documentation states it.
    fn to_rgba_by_the_formula(planes: &[u8], size: Yuv420Size, matrix: Matrix) -> Vec<u8> {
        let (w, h) = (size.width as usize, size.height as usize);
        let cw = size.chroma().0 as usize;
        let c = ToRgb::of(matrix);
        let mut out = Vec::new();
        for y in 0..h {
            for x in 0..w {
                let chroma = |plane: usize| {
                    i32::from(planes[w * h + plane * cw * size.chroma().1 as usize + y / 2 * cw + x / 2])
                        - 128
                };
                let (u, v) = (chroma(0), chroma(1));
                let l = c.cy * (i32::from(planes[y * w + x]) - 16) + HALF;
                out.extend([
                    channel(l + c.crv * v),
                    channel(l - c.cgu * u - c.cgv * v),
                    channel(l + c.cbu * u),
                    255,
                ]);
            }
        }
        out
    }

    #[test]
    fn the_tables_give_what_the_formula_gives() {
        let mut seed = 7u32;
        for (w, h) in [(1, 1), (1, 5), (6, 1), (5, 3), (64, 2), (37, 23)] {
            let size = Yuv420Size { width: w, height: h };
            let planes: Vec<u8> = (0..size.bytes())
                .map(|_| {
                    seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                    (seed >> 24) as u8
                })
                .collect();
            for matrix in [Matrix::Bt601, Matrix::Bt709] {
                let mut rgba = Vec::new();
                to_rgba(&planes, size, matrix, &mut rgba);
                assert_eq!(rgba, to_rgba_by_the_formula(&planes, size, matrix), "{w}x{h} {matrix:?}");
            }
        }
    }

    #[test]
    fn odd_sides_round_the_chroma_planes_up() {
        let size = Yuv420Size { width: 5, height: 3 };
        assert_eq!(size.chroma(), (3, 2));
        assert_eq!(size.bytes(), 15 + 2 * 6);
        assert_eq!(Yuv420Size { width: 1, height: 1 }.bytes(), 3);
    }

    #[test]
    fn black_white_and_the_primaries_land_where_the_standards_put_them() {
        let size = Yuv420Size { width: 3, height: 1 };
        let mut rgba = Vec::new();
        for matrix in [Matrix::Bt601, Matrix::Bt709] {
            to_rgba(&flat(size, (16, 128, 128)), size, matrix, &mut rgba);
            assert_eq!(rgba[..4], [0, 0, 0, 255]);
            to_rgba(&flat(size, (235, 128, 128)), size, matrix, &mut rgba);
            assert_eq!(rgba[..4], [255, 255, 255, 255]);
            for (colour, expected) in [([255, 0, 0], 0), ([0, 255, 0], 1), ([0, 0, 255], 2)] {
                let frame = RgbaImage::from_pixel(2, 2, image::Rgba([colour[0], colour[1], colour[2], 255]));
                let planes = to_yuv420(&frame, matrix);
                let size = Yuv420Size { width: 2, height: 2 };
                to_rgba(&planes, size, matrix, &mut rgba);
                // A primary comes back within the rounding of 8-bit Y'CbCr.
                for (i, &c) in rgba[..3].iter().enumerate() {
                    let want = if i == expected { 255 } else { 0 };
                    assert!(c.abs_diff(want) <= 3, "{matrix:?} {colour:?}: {:?}", &rgba[..4]);
                }
            }
        }
        // BT.601 red: the textbook Y'CbCr (81, 90, 240).
        let red = RgbaImage::from_pixel(2, 2, image::Rgba([255, 0, 0, 255]));
        assert_eq!(to_yuv420(&red, Matrix::Bt601), [81, 81, 81, 81, 90, 240]);
        // BT.709 red: (63, 102, 240).
        assert_eq!(to_yuv420(&red, Matrix::Bt709), [63, 63, 63, 63, 102, 240]);
    }

    #[test]
    fn each_chroma_sample_is_shared_by_its_block_and_odd_edges_take_their_own() {
        let size = Yuv420Size { width: 3, height: 3 };
        let mut planes = vec![128u8; 9];
        // Cb: blue-ish at block (0, 0) only; the rest neutral.
        planes.extend([200, 128, 128, 128]);
        planes.extend([128, 128, 128, 128]);
        let mut rgba = Vec::new();
        to_rgba(&planes, size, Matrix::Bt601, &mut rgba);
        let blue = |x: usize, y: usize| rgba[(y * 3 + x) * 4 + 2];
        let grey = rgba[0];
        for (x, y) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            assert!(blue(x, y) > grey + 50, "({x}, {y}) takes the block's chroma");
        }
        for (x, y) in [(2, 0), (2, 2), (0, 2), (1, 2)] {
            assert_eq!(blue(x, y), grey, "({x}, {y}) is in another block");
        }
    }

    #[test]
    fn a_round_trip_keeps_a_frame_within_rounding() {
        let mut frame = RgbaImage::new(6, 4);
        for (x, y, p) in frame.enumerate_pixels_mut() {
            // Flat 2x2 blocks, so that chroma loses nothing to subsampling.
            let (bx, by) = (x / 2, y / 2);
            *p = image::Rgba([(40 * bx + 30) as u8, (90 * by + 20) as u8, (bx * by * 50 + 60) as u8, 255]);
        }
        for matrix in [Matrix::Bt601, Matrix::Bt709] {
            let planes = to_yuv420(&frame, matrix);
            let mut back = Vec::new();
            to_rgba(&planes, Yuv420Size { width: 6, height: 4 }, matrix, &mut back);
            for (a, b) in frame.as_raw().iter().zip(&back) {
                assert!(a.abs_diff(*b) <= 2, "{matrix:?}: {a} came back as {b}");
            }
        }
    }

    #[test]
    fn the_names_ffmpeg_gives_pick_the_matrix() {
        assert_eq!(Matrix::from_ffmpeg_name("bt709"), Some(Matrix::Bt709));
        assert_eq!(Matrix::from_ffmpeg_name("smpte170m"), Some(Matrix::Bt601));
        assert_eq!(Matrix::from_ffmpeg_name(""), Some(Matrix::Bt601));
        assert_eq!(Matrix::from_ffmpeg_name("bt2020nc"), None);
    }
}
