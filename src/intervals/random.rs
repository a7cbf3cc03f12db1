//! Random intervals: each line is cut into consecutive intervals whose lengths are drawn uniformly
//! from a range, by a seeded generator, so the same seed gives the same intervals everywhere.
//!
//! Every line has a generator of its own, so lines can be cut independently (the GPU cuts each
//! in its own workgroup, `shaders/found_intervals.wgsl`): line `l`'s SplitMix64 is seeded with draw
//! `l` (from 0) of the SplitMix64 seeded with the seed, and each interval's length is
//! `min + draw % (max - min + 1)`.

use crate::picture::patterns::SplitMix64;
use std::str::FromStr;

/// An inclusive range of interval lengths, `1 <= min <= max`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntervalLength {
    min: u32,
    max: u32,
}

impl IntervalLength {
    /// The range used when none is given.
    pub const DEFAULT: IntervalLength = IntervalLength { min: 8, max: 64 };

    /// `min..=max`; the message says what is wrong.
    pub fn new(min: u32, max: u32) -> Result<Self, String> {
        if min == 0 || min > max {
            return Err(format!(
                "{min}..{max} is not a range of interval lengths: give MIN..MAX with 1 <= MIN <= MAX (like 8..64)"
            ));
        }
        Ok(IntervalLength { min, max })
    }

    /// The shortest interval.
    pub fn min(&self) -> u32 {
        self.min
    }

    /// The longest interval.
    pub fn max(&self) -> u32 {
        self.max
    }
}

impl FromStr for IntervalLength {
    type Err = String;

    /// `MIN..MAX`, or one number for intervals of that length.
    fn from_str(s: &str) -> Result<Self, String> {
        let number = |t: &str| t.trim().parse::<u32>().ok();
        let (min, max) = match s.split_once("..") {
            Some((a, b)) => (number(a), number(b)),
            None => (number(s), number(s)),
        };
        match (min, max) {
            (Some(min), Some(max)) => IntervalLength::new(min, max),
            _ => Err(format!("'{s}' is not a range of interval lengths like 8..64")),
        }
    }
}

/// The generator of line `line`'s interval lengths (see the module's description).
pub fn line_generator(seed: u64, line: usize) -> SplitMix64 {
    SplitMix64::new(SplitMix64::new(seed).advanced(line as u64).next_u64())
}

/// For `lines` lines of `len` pixels, whether each position (`line * len + pos`) begins a new
/// interval: every line's intervals have lengths drawn from `lengths` by the line's own generator
/// (the last interval of a line is cut short by its end).
pub fn interval_starts(lines: usize, len: usize, seed: u64, lengths: IntervalLength) -> Vec<bool> {
    let span = u64::from(lengths.max - lengths.min) + 1;
    let mut starts = vec![false; lines * len];
    for line in 0..lines {
        let mut rng = line_generator(seed, line);
        let mut pos = 0;
        while pos < len {
            starts[line * len + pos] = true;
            pos += (u64::from(lengths.min) + rng.next_u64() % span) as usize;
        }
    }
    starts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lengths_of(starts: &[bool]) -> Vec<usize> {
        let positions: Vec<usize> = (0..starts.len()).filter(|&i| starts[i]).collect();
        positions.windows(2).map(|w| w[1] - w[0]).collect()
    }

    #[test]
    fn intervals_have_lengths_in_range_and_the_seed_decides_them() {
        let lengths = IntervalLength::new(3, 7).unwrap();
        let a = interval_starts(1, 500, 42, lengths);
        assert!(a[0]);
        let seen = lengths_of(&a);
        assert!(seen.iter().all(|l| (3..=7).contains(l)), "{seen:?}");
        for l in 3..=7 {
            assert!(seen.contains(&l), "length {l} never drawn in {seen:?}");
        }
        assert_eq!(a, interval_starts(1, 500, 42, lengths));
        assert_ne!(a, interval_starts(1, 500, 43, lengths));
        // Every line starts an interval; lines differ.
        let two = interval_starts(2, 50, 1, lengths);
        assert!(two[0] && two[50]);
        assert_ne!(two[..50], two[50..]);
        // A line's intervals do not depend on the lines before it.
        let many = interval_starts(3, 50, 1, lengths);
        assert_eq!(many[..100], two[..]);
    }

    /// Line `l`'s generator starts where the seed's generator is after `l + 1` draws: the
    /// definition the GPU computes directly.
    #[test]
    fn a_line_generator_is_seeded_with_a_draw_of_the_seed_generator() {
        let mut seeds = SplitMix64::new(77);
        for line in 0..5 {
            let mut expected = SplitMix64::new(seeds.next_u64());
            assert_eq!(line_generator(77, line).next_u64(), expected.next_u64());
        }
    }

    #[test]
    fn fixed_lengths_cut_evenly_and_length_one_cuts_everywhere() {
        assert_eq!(lengths_of(&interval_starts(1, 13, 9, IntervalLength::new(4, 4).unwrap())), [4, 4, 4]);
        assert!(interval_starts(3, 5, 9, IntervalLength::new(1, 1).unwrap()).iter().all(|&s| s));
    }

    #[test]
    fn interval_lengths_parse_and_bad_ones_say_why() {
        assert_eq!("8..64".parse::<IntervalLength>().unwrap(), IntervalLength::DEFAULT);
        assert_eq!("5".parse::<IntervalLength>().unwrap(), IntervalLength::new(5, 5).unwrap());
        assert!("0..4".parse::<IntervalLength>().unwrap_err().contains("1 <= MIN <= MAX"));
        assert!("9..4".parse::<IntervalLength>().unwrap_err().contains("1 <= MIN <= MAX"));
        assert!("x".parse::<IntervalLength>().unwrap_err().contains("not a range"));
    }
}
