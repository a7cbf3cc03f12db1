//! Inputs that teach (`--pattern NAME`): built-in pictures whose every line is random, already
//! sorted, reversed, of few distinct colours, nearly sorted or a sawtooth *for the sort asked
//! for* (its key, order and axis), so that each algorithm's best and worst cases can be seen.
//!
//! Each line holds its own seeded draw of colours from a ramp whose luma rises from dark violet
//! through teal to yellow, readable at a distance; the pattern only arranges them along the line.

use super::patterns::SplitMix64;
use crate::keys::options::{LineLayout, SortOptions};
use image::RgbaImage;

/// The built-in inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(not(target_arch = "wasm32"), derive(clap::ValueEnum))]
pub enum Pattern {
    /// Every line in random order.
    Noise,
    /// Every line already in the sort's order.
    Sorted,
    /// Every line in the opposite order.
    Reversed,
    /// Four colours in random order: many equal keys.
    FewDistinct,
    /// Sorted, then 1% of the neighbouring pairs swapped.
    NearlySorted,
    /// Four sorted runs one after another, each over the whole range.
    Sawtooth,
}

/// The ramp's stops (viridis' ends and three points between): luma rises from each to the next.
const RAMP: [[u8; 3]; 5] = [[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]];

/// Distinct colours of [`Pattern::FewDistinct`], and teeth of [`Pattern::Sawtooth`].
pub const FEW: usize = 4;

impl Pattern {
    /// Every pattern, in the order the panel lists them.
    pub const ALL: [Pattern; 6] = [
        Pattern::Noise,
        Pattern::Sorted,
        Pattern::Reversed,
        Pattern::FewDistinct,
        Pattern::NearlySorted,
        Pattern::Sawtooth,
    ];

    /// The name `--pattern` takes and output files carry.
    pub fn name(self) -> &'static str {
        match self {
            Pattern::Noise => "noise",
            Pattern::Sorted => "sorted",
            Pattern::Reversed => "reversed",
            Pattern::FewDistinct => "few-distinct",
            Pattern::NearlySorted => "nearly-sorted",
            Pattern::Sawtooth => "sawtooth",
        }
    }

    /// How the panel and messages name it.
    pub fn title(self) -> &'static str {
        match self {
            Pattern::Noise => "random noise",
            Pattern::Sorted => "sorted",
            Pattern::Reversed => "reversed",
            Pattern::FewDistinct => "few distinct values",
            Pattern::NearlySorted => "nearly sorted",
            Pattern::Sawtooth => "sawtooth",
        }
    }

    /// Neighbouring pairs [`Pattern::NearlySorted`] swaps in a line of `len` pixels: 1% of the
    /// pairs, at least one where there is a pair.
    pub fn swapped_pairs(len: usize) -> usize {
        if len < 2 { 0 } else { (len - 1).div_ceil(100) }
    }

    /// A `width` x `height` picture of this pattern for a sort by `options`, from `seed`.
    pub fn picture(self, (width, height): (u32, u32), options: &SortOptions, seed: u64) -> RgbaImage {
        let layout = LineLayout::new(width, height, options.axis);
        let mut picture = RgbaImage::new(width, height);
        let mut rng = SplitMix64::new(seed);
        for line in 0..layout.count {
            let pixels = self.line(layout.len, options, &mut rng);
            for (pos, pixel) in pixels.into_iter().enumerate() {
                let i = layout.index(line, pos);
                let (x, y) = ((i % width as usize) as u32, (i / width as usize) as u32);
                picture.put_pixel(x, y, image::Rgba(pixel));
            }
        }
        picture
    }

    /// One line of `len` pixels.
    fn line(self, len: usize, options: &SortOptions, rng: &mut SplitMix64) -> Vec<[u8; 4]> {
        let levels: Vec<u32> = (0..FEW as u32).map(|k| k * 255 / (FEW as u32 - 1)).collect();
        let mut line: Vec<[u8; 4]> = (0..len)
            .map(|_| match self {
                Pattern::FewDistinct => ramp(levels[(rng.next_u32() as usize) % FEW]),
                _ => ramp(rng.next_u32() >> 24),
            })
            .collect();
        let key = |p: &[u8; 4]| options.order_key(*p);
        match self {
            Pattern::Noise | Pattern::FewDistinct => {}
            Pattern::Sorted => line.sort_by_key(key),
            Pattern::Reversed => {
                line.sort_by_key(key);
                line.reverse();
            }
            Pattern::NearlySorted => {
                line.sort_by_key(key);
                // Pairs that differ, none sharing a pixel: each swap is one step out of order.
                let mut free: Vec<usize> =
                    (0..len.saturating_sub(1)).filter(|&i| key(&line[i]) != key(&line[i + 1])).collect();
                for _ in 0..Self::swapped_pairs(len) {
                    if free.is_empty() {
                        break;
                    }
                    let i = free.swap_remove(rng.next_u32() as usize % free.len());
                    line.swap(i, i + 1);
                    free.retain(|&j| j + 1 < i || j > i + 1);
                }
            }
            Pattern::Sawtooth => {
                line.sort_by_key(key);
                let teeth = FEW.min(len.max(1));
                line = (0..teeth)
                    .flat_map(|t| line.iter().skip(t).step_by(teeth).copied().collect::<Vec<_>>())
                    .collect();
            }
        }
        line
    }
}

/// The ramp's colour at `level` (0 to 255), opaque.
fn ramp(level: u32) -> [u8; 4] {
    let at = level.min(255) * (RAMP.len() as u32 - 1);
    let (stop, t) = ((at / 255) as usize, at % 255);
    let next = (stop + 1).min(RAMP.len() - 1);
    let mix =
        |c: usize| ((u32::from(RAMP[stop][c]) * (255 - t) + u32::from(RAMP[next][c]) * t + 127) / 255) as u8;
    [mix(0), mix(1), mix(2), 255]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keys::SortKey;

    #[test]
    fn the_ramp_rises_in_luma_and_names_parse() {
        let luma = |level| SortKey::Luma.of(ramp(level));
        assert!((0..255).all(|l| luma(l) <= luma(l + 1)));
        assert_eq!((ramp(0), ramp(255)), ([68, 1, 84, 255], [253, 231, 37, 255]));
        for pattern in Pattern::ALL {
            assert_eq!(<Pattern as clap::ValueEnum>::from_str(pattern.name(), false), Ok(pattern));
        }
        assert_eq!(
            (Pattern::swapped_pairs(1), Pattern::swapped_pairs(2), Pattern::swapped_pairs(202)),
            (0, 1, 3)
        );
    }
}
