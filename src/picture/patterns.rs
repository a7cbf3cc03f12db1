//! Seeded pictures for tests and benchmarks: reproducible noise with plenty of equal keys.

use image::RgbaImage;

/// A small, fast, seeded generator (SplitMix64); the same seed gives the same picture everywhere.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator starting from `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The generator as it is after `draws` more draws (SplitMix64's state only counts up).
    pub fn advanced(mut self, draws: u64) -> Self {
        self.0 = self.0.wrapping_add(draws.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        self
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// The next 32 random bits.
    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }
}

/// Random RGBA noise. Half the pixels draw from a small palette, so equal keys are common and
/// stability is exercised; alpha is random too, since it travels with the pixel.
pub fn random_image(width: u32, height: u32, seed: u64) -> RgbaImage {
    let mut rng = SplitMix64::new(seed);
    let palette: Vec<[u8; 4]> = (0..8).map(|_| rng.next_u32().to_le_bytes()).collect();
    let mut img = RgbaImage::new(width, height);
    for px in img.pixels_mut() {
        let bits = rng.next_u32();
        px.0 = if bits & 1 == 0 {
            let mut p = palette[(bits >> 1) as usize % palette.len()];
            p[3] = (bits >> 24) as u8;
            p
        } else {
            bits.to_le_bytes()
        };
    }
    img
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_picture() {
        assert_eq!(random_image(13, 7, 42), random_image(13, 7, 42));
        assert_ne!(random_image(13, 7, 42), random_image(13, 7, 43));
    }

    #[test]
    fn pictures_contain_repeated_colours() {
        let img = random_image(64, 64, 1);
        let mut rgb: Vec<[u8; 3]> = img.pixels().map(|p| [p[0], p[1], p[2]]).collect();
        rgb.sort_unstable();
        rgb.dedup();
        assert!(rgb.len() < 64 * 64 * 3 / 4, "{} distinct colours", rgb.len());
    }
}
