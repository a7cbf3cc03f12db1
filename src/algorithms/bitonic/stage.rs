//! The stages of the bitonic network the GPU runs (`shaders/bitonic.wgsl`), by index: which
//! merge and distance stage `k` is, whom a position pairs with, and how many stages an interval
//! needs. The CPU model (`crate::reference::bitonic`) builds its network on its own.

/// One stage of the network: merging blocks of `2^merge`, comparing at distance `2^distance`
/// (the flip stage when `distance + 1 == merge`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stage {
    /// Merges sorted halves into blocks of 2^merge (1-based).
    pub merge: u32,
    /// Compares positions 2^distance apart (the flip stage: mirrored within the block).
    pub distance: u32,
}

impl Stage {
    /// Stage `index` (0-based) of every network: for merge 1, 2, ... the distances merge - 1
    /// down to 0.
    pub fn at(index: u32) -> Stage {
        let mut merge = 1;
        let mut first = 0;
        while first + merge <= index {
            first += merge;
            merge += 1;
        }
        Stage { merge, distance: merge - 1 - (index - first) }
    }

    /// Whether this is the first stage of its merge, which mirrors each block.
    pub fn is_flip(self) -> bool {
        self.distance + 1 == self.merge
    }

    /// The position a comparator of this stage pairs with `a` (both relative to the interval's
    /// start), when `a` is the comparator's first member and its partner lies within an interval of
    /// `len` pixels.
    pub fn partner(self, a: u32, len: u32) -> Option<u32> {
        let b = a ^ self.mask();
        (b > a && b < len).then_some(b)
    }

    /// The bits a position flips to find its partner (`partner_mask` in the shader).
    pub fn mask(self) -> u32 {
        if self.is_flip() { (1 << self.merge) - 1 } else { 1 << self.distance }
    }

    /// Whether every comparator of this stage stays within aligned blocks of `block` positions
    /// (a power of two), so a workgroup holding such a block runs it in workgroup memory.
    pub fn fits_block(self, block: u32) -> bool {
        2u64 << self.distance <= u64::from(block)
    }

    /// "merge 2^3, distance 2^1": the stage in the window's words.
    pub fn describe(self) -> String {
        if self.is_flip() {
            format!("merge 2^{}, flip (distance 2^{})", self.merge, self.distance)
        } else {
            format!("merge 2^{}, distance 2^{}", self.merge, self.distance)
        }
    }
}

/// Stages of the network that sorts intervals of up to `max_len` pixels: m(m + 1)/2 where 2^m is
/// the next power of two.
pub fn stage_count(max_len: u32) -> u32 {
    let m = max_len.max(1).next_power_of_two().trailing_zeros();
    m * (m + 1) / 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stages_count_merges_then_distances() {
        let names: Vec<(u32, u32)> = (0..6).map(Stage::at).map(|s| (s.merge, s.distance)).collect();
        assert_eq!(names, [(1, 0), (2, 1), (2, 0), (3, 2), (3, 1), (3, 0)]);
        assert_eq!([1, 2, 3, 4, 5, 8, 9, 1920].map(stage_count), [0, 1, 3, 3, 6, 6, 10, 66]);
        assert!(Stage::at(0).is_flip() && !Stage::at(2).is_flip());
    }

    #[test]
    fn the_flip_mirrors_each_block_and_half_cleaners_pair_at_their_distance() {
        let flip = Stage { merge: 3, distance: 2 };
        let pairs: Vec<(u32, u32)> = (0..8).filter_map(|a| flip.partner(a, 8).map(|b| (a, b))).collect();
        assert_eq!(pairs, [(0, 7), (1, 6), (2, 5), (3, 4)]);
        let half = Stage { merge: 3, distance: 1 };
        let pairs: Vec<(u32, u32)> = (0..8).filter_map(|a| half.partner(a, 8).map(|b| (a, b))).collect();
        assert_eq!(pairs, [(0, 2), (1, 3), (4, 6), (5, 7)]);
        // Past the interval's end there is no comparator.
        assert_eq!(flip.partner(1, 6), None);
        assert!(half.fits_block(4) && !half.fits_block(2));
    }
}
