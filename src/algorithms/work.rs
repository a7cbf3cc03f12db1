//! The work a step cost on the GPU, as its kernels do it: the key comparisons they evaluate, the
//! swaps the GPU counted, the bytes of pixels and keys they load and store in GPU memory, and the
//! workgroup barriers they pass; and, beside it, what the algorithm's analysis says a whole sort
//! costs.
//!
//! Counted from each step's dispatches and the GPU's own counts (never timed or sampled), so the
//! same run gives the same numbers on every adapter. Bytes count every load and store a kernel
//! makes of the picture's pixels and the keys made of them, however a cache serves it; interval
//! ids, parameters, counters and histograms are bookkeeping and not counted.

use std::ops::{Add, AddAssign};

/// The work of one step, or of several summed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Work {
    /// Key comparisons the kernels evaluated (a pair compared by both its pixels' invocations
    /// counts twice; a pair refused by the interval rule after its comparison counts too).
    pub comparisons: u64,
    /// Pixels swapped (moved, for the radix view), as the GPU counted them.
    pub swaps: u64,
    /// Bytes of pixels and keys loaded from GPU memory.
    pub bytes_read: u64,
    /// Bytes of pixels and keys stored to GPU memory.
    pub bytes_written: u64,
    /// Workgroup barriers, once for every workgroup that passed each.
    pub barriers: u64,
}

impl Add for Work {
    type Output = Work;

    fn add(self, other: Work) -> Work {
        Work {
            comparisons: self.comparisons + other.comparisons,
            swaps: self.swaps + other.swaps,
            bytes_read: self.bytes_read + other.bytes_read,
            bytes_written: self.bytes_written + other.bytes_written,
            barriers: self.barriers + other.barriers,
        }
    }
}

impl AddAssign for Work {
    fn add_assign(&mut self, other: Work) {
        *self = *self + other;
    }
}

/// Bytes of one pixel, an rgba8 texel or a packed word.
pub const PIXEL_BYTES: u64 = 4;

impl Work {
    /// `comparisons` comparisons, `pixels_read` and `pixels_written` pixels of 4 bytes, and
    /// `barriers` barriers; no swaps (the GPU's count is added later).
    pub fn of(comparisons: u64, (pixels_read, pixels_written): (u64, u64), barriers: u64) -> Work {
        Work {
            comparisons,
            swaps: 0,
            bytes_read: pixels_read * PIXEL_BYTES,
            bytes_written: pixels_written * PIXEL_BYTES,
            barriers,
        }
    }

    /// The same work with the GPU's count of swaps.
    pub fn with_swaps(self, swaps: u64) -> Work {
        Work { swaps, ..self }
    }
}

/// Neighbour pairs `(x - 1, x)` with `x` of `parity` in a line of `len` pixels: the pairs an
/// odd-even pass or phase of that parity compares.
pub fn neighbour_pairs(parity: u32, len: u32) -> u64 {
    let len = u64::from(len);
    if parity.is_multiple_of(2) { len.saturating_sub(1) / 2 } else { len / 2 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_of_both_parities_cover_every_neighbour_once() {
        for len in 0..40 {
            assert_eq!(
                neighbour_pairs(0, len) + neighbour_pairs(1, len),
                u64::from(len.saturating_sub(1)),
                "{len}"
            );
        }
        // Pairs (1, 2), (3, 4) with x even; (0, 1), (2, 3), (4, 5) with x odd.
        assert_eq!((neighbour_pairs(0, 6), neighbour_pairs(1, 6)), (2, 3));
        assert_eq!((neighbour_pairs(2, 1), neighbour_pairs(3, 1)), (0, 0));
    }

    #[test]
    fn work_adds_field_by_field() {
        let a = Work::of(10, (4, 2), 1).with_swaps(3);
        let mut b = Work::of(5, (1, 1), 0);
        b += a;
        assert_eq!(b, Work { comparisons: 15, swaps: 3, bytes_read: 20, bytes_written: 12, barriers: 1 });
    }
}
