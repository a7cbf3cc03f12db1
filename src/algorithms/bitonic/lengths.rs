//! How many intervals of each length a run sorts, and what a stage of the network has in an
//! interval of a given length: its comparators, and the positions that are a comparator's first
//! member (its lower position). A step's work is counted from these (`BitonicRun::work`): every
//! interval takes the same stage, so the picture's counts are sums over the lengths.

use super::stage::Stage;

/// Intervals by length: (length, how many intervals have it), lengths ascending, none of 0.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IntervalLengths(Vec<(u32, u64)>);

impl IntervalLengths {
    /// `count` lines, each one interval of `len` positions.
    pub fn whole_lines(len: u32, count: u32) -> Self {
        Self::from_counts((len > 0 && count > 0).then_some((len, u64::from(count))))
    }

    /// From (length, how many) in any order, a length perhaps more than once.
    pub fn from_counts(counts: impl IntoIterator<Item = (u32, u64)>) -> Self {
        let mut all: Vec<(u32, u64)> = counts.into_iter().filter(|&(len, n)| len > 0 && n > 0).collect();
        all.sort_unstable();
        let mut merged: Vec<(u32, u64)> = Vec::with_capacity(all.len());
        for (len, n) in all {
            match merged.last_mut() {
                Some((last, sum)) if *last == len => *sum += n,
                _ => merged.push((len, n)),
            }
        }
        IntervalLengths(merged)
    }

    /// From a histogram: `counts[len]` intervals of each length `len`.
    pub fn from_histogram(counts: &[u32]) -> Self {
        Self::from_counts(counts.iter().enumerate().map(|(len, &n)| (len as u32, u64::from(n))))
    }

    /// `per_interval(len)` summed over every interval.
    pub fn sum(&self, per_interval: impl Fn(u32) -> u64) -> u64 {
        self.0.iter().map(|&(len, n)| n * per_interval(len)).sum()
    }

    /// Positions in all the intervals.
    pub fn positions(&self) -> u64 {
        self.sum(u64::from)
    }
}

/// The comparators of `stage` within an interval of `len` positions: pairs (a, b), a < b < len,
/// b the position `a` pairs with. In aligned blocks of 2^(d + 1) positions (d the top bit the
/// stage flips: its distance), the first half pairs with the second (mirrored in the flip, side
/// by side in a half-cleaner), so a whole block holds 2^d and the last, of r positions, r - 2^d.
pub fn comparators(stage: Stage, len: u32) -> u64 {
    let (half, rest) = blocks(stage, len);
    half * u64::from(len >> (stage.distance + 1)) + rest.saturating_sub(half)
}

/// The positions of an interval of `len` whose partner in `stage` lies after them (bit d clear),
/// within the interval or past its end: those that `global_stage` loads.
pub fn first_members(stage: Stage, len: u32) -> u64 {
    let (half, rest) = blocks(stage, len);
    half * u64::from(len >> (stage.distance + 1)) + rest.min(half)
}

/// 2^d, and the positions of the interval's last, partial block.
fn blocks(stage: Stage, len: u32) -> (u64, u64) {
    let block = 2u64 << stage.distance;
    (block / 2, u64::from(len) % block)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The closed forms count what pairing every position with `Stage::partner` finds.
    #[test]
    fn comparators_and_first_members_count_the_partners() {
        for index in 0..28 {
            let stage = Stage::at(index);
            for len in 0..140 {
                let pairs = (0..len).filter(|&a| stage.partner(a, len).is_some()).count() as u64;
                let top = 1 << stage.distance;
                let firsts = (0..len).filter(|a| a & top == 0).count() as u64;
                assert_eq!(comparators(stage, len), pairs, "{stage:?} {len}");
                assert_eq!(first_members(stage, len), firsts, "{stage:?} {len}");
            }
        }
    }

    #[test]
    fn lengths_merge_and_sum() {
        let lengths = IntervalLengths::from_counts([(3, 2), (1, 4), (3, 1), (0, 9), (5, 0)]);
        assert_eq!(lengths, IntervalLengths(vec![(1, 4), (3, 3)]));
        assert_eq!(lengths.positions(), 13);
        assert_eq!(IntervalLengths::from_histogram(&[7, 4, 0, 3]), lengths);
        assert_eq!(IntervalLengths::whole_lines(6, 2).positions(), 12);
        assert_eq!(IntervalLengths::whole_lines(6, 0), IntervalLengths::default());
    }
}
