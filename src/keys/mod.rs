//! What pixels are sorted by and along. Here: sort keys (luma, hue, ...), the Rust mirror of
//! `shaders/sort_key.wgsl` that the CPU model uses. [`options`]: key, order and axis as every
//! algorithm takes them, and where each line's pixels sit; [`extract`] computes keys on the GPU;
//! [`radix_key`] quantises them into radix digits.

pub mod extract;
pub mod options;
pub mod radix_key;

use std::fmt;

/// One sixth of the hue circle in hue-key units (`HUE_SECTOR` in `shaders/sort_key.wgsl`).
pub const HUE_SECTOR: u32 = 65536;
/// Largest saturation key (`SATURATION_MAX` in `shaders/sort_key.wgsl`).
pub const SATURATION_MAX: u32 = 65535;

/// What a pixel is sorted by. The discriminants are the `KEY_*` ids of `shaders/sort_key.wgsl`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(not(target_arch = "wasm32"), derive(clap::ValueEnum))]
#[repr(u32)]
pub enum SortKey {
    /// Rec. 601 luma of the stored (gamma-encoded) values: 299 R + 587 G + 114 B (0..=255000).
    #[default]
    Luma = 0,
    /// HSV hue: greys first (0), then 1 + the angle from red through yellow, green, cyan,
    /// blue and magenta, in 1/393216 of a turn.
    Hue = 1,
    /// HSV saturation, (max - min) * 65535 / max; black is 0.
    Saturation = 2,
    /// HSV value, max(R, G, B).
    Value = 3,
    /// The red channel.
    Red = 4,
    /// The green channel.
    Green = 5,
    /// The blue channel.
    Blue = 6,
}

impl SortKey {
    /// Every key, in id order.
    pub const ALL: [SortKey; 7] = [
        SortKey::Luma,
        SortKey::Hue,
        SortKey::Saturation,
        SortKey::Value,
        SortKey::Red,
        SortKey::Green,
        SortKey::Blue,
    ];

    /// The id the shaders use for this key.
    pub fn id(self) -> u32 {
        self as u32
    }

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            SortKey::Luma => "luma",
            SortKey::Hue => "hue",
            SortKey::Saturation => "saturation",
            SortKey::Value => "value",
            SortKey::Red => "red",
            SortKey::Green => "green",
            SortKey::Blue => "blue",
        }
    }

    /// The key after this one, wrapping around (the window's "cycle key" command).
    pub fn next(self) -> SortKey {
        Self::ALL[(self.id() as usize + 1) % Self::ALL.len()]
    }

    /// The largest value `of` can return for this key.
    pub fn max_value(self) -> u32 {
        match self {
            SortKey::Luma => 255_000,
            SortKey::Hue => 6 * HUE_SECTOR,
            SortKey::Saturation => SATURATION_MAX,
            SortKey::Value | SortKey::Red | SortKey::Green | SortKey::Blue => 255,
        }
    }

    /// The key of one RGBA pixel; alpha never takes part. Mirrors `sort_key` in WGSL.
    /// Inlined, so a loop over a picture with a fixed key keeps only that key's formula.
    #[inline]
    pub fn of(self, [r, g, b, _]: [u8; 4]) -> u32 {
        let (r, g, b) = (u32::from(r), u32::from(g), u32::from(b));
        match self {
            SortKey::Luma => 299 * r + 587 * g + 114 * b,
            SortKey::Hue => hue(r, g, b),
            SortKey::Saturation => {
                let (hi, lo) = (r.max(g).max(b), r.min(g).min(b));
                // Black (max 0) has saturation 0, as in WGSL.
                ((hi - lo) * SATURATION_MAX).checked_div(hi).unwrap_or(0)
            }
            SortKey::Value => r.max(g).max(b),
            SortKey::Red => r,
            SortKey::Green => g,
            SortKey::Blue => b,
        }
    }
}

impl fmt::Display for SortKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Mirrors `hue_key` in WGSL, branch for branch.
fn hue(r: u32, g: u32, b: u32) -> u32 {
    let (hi, lo) = (r.max(g).max(b), r.min(g).min(b));
    let d = hi - lo;
    if d == 0 {
        return 0;
    }
    let s = HUE_SECTOR;
    let h = if hi == r {
        if g >= b { (g - b) * s / d } else { 6 * s - (b - g) * s / d }
    } else if hi == g {
        if b >= r { 2 * s + (b - r) * s / d } else { 2 * s - (r - b) * s / d }
    } else if r >= g {
        4 * s + (r - g) * s / d
    } else {
        4 * s - (g - r) * s / d
    };
    h + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_stay_within_their_maximum() {
        for key in SortKey::ALL {
            let mut seen_max = 0;
            for r in (0..=255u8).step_by(3) {
                for g in (0..=255u8).step_by(5) {
                    for b in 0..=255u8 {
                        seen_max = seen_max.max(key.of([r, g, b, 0]));
                    }
                }
            }
            assert!(seen_max <= key.max_value(), "{key}: {seen_max}");
        }
    }

    #[test]
    fn named_colours_have_the_expected_keys() {
        assert_eq!(SortKey::Luma.of([255, 255, 255, 0]), 255_000);
        assert_eq!(SortKey::Hue.of([128, 128, 128, 255]), 0, "grey has hue 0");
        assert_eq!(SortKey::Hue.of([255, 0, 0, 255]), 1, "red starts the circle");
        assert_eq!(SortKey::Hue.of([255, 255, 0, 255]), HUE_SECTOR + 1);
        assert_eq!(SortKey::Hue.of([0, 255, 0, 255]), 2 * HUE_SECTOR + 1);
        assert_eq!(SortKey::Hue.of([0, 0, 255, 255]), 4 * HUE_SECTOR + 1);
        assert_eq!(SortKey::Hue.of([255, 0, 1, 255]), 6 * HUE_SECTOR - HUE_SECTOR / 255 + 1);
        assert_eq!(SortKey::Saturation.of([0, 0, 0, 0]), 0);
        assert_eq!(SortKey::Saturation.of([10, 0, 0, 0]), SATURATION_MAX);
        assert_eq!(SortKey::Value.of([3, 9, 7, 0]), 9);
        assert_eq!(SortKey::Blue.of([3, 9, 7, 0]), 7);
    }

    #[test]
    fn hue_increases_around_the_circle() {
        // Walk the rim of the colour cube: red, yellow, green, cyan, blue, magenta.
        let mut rim = Vec::new();
        for t in 0..=255u8 {
            rim.push([255, t, 0, 0]);
        }
        for t in (0..255u8).rev() {
            rim.push([t, 255, 0, 0]);
        }
        for t in 1..=255u8 {
            rim.push([0, 255, t, 0]);
        }
        for t in (0..255u8).rev() {
            rim.push([0, t, 255, 0]);
        }
        for t in 1..=255u8 {
            rim.push([t, 0, 255, 0]);
        }
        for t in (1..255u8).rev() {
            rim.push([255, 0, t, 0]);
        }
        let hues: Vec<u32> = rim.iter().map(|&p| SortKey::Hue.of(p)).collect();
        assert!(hues.windows(2).all(|w| w[0] < w[1]), "hue is not monotone");
    }

    #[test]
    fn next_cycles_through_every_key() {
        let mut k = SortKey::Luma;
        for expected in SortKey::ALL.iter().cycle().skip(1).take(7) {
            k = k.next();
            assert_eq!(k, *expected);
        }
    }
}
