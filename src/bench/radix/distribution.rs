//! Seeded key distributions for the sort's tests and benchmarks.

use crate::picture::patterns::SplitMix64;

/// How keys are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Distribution {
    /// Uniform random 32-bit keys.
    Uniform,
    /// Already ascending.
    Sorted,
    /// Descending.
    Reversed,
    /// Sixteen distinct random values: long runs of equal keys.
    FewDistinct,
    /// Uniform random keys below 2^16: the two high digits are constant.
    Narrow,
}

impl Distribution {
    /// Every distribution.
    pub const ALL: [Distribution; 5] = [
        Distribution::Uniform,
        Distribution::Sorted,
        Distribution::Reversed,
        Distribution::FewDistinct,
        Distribution::Narrow,
    ];

    /// The name used on the command line and in tables.
    pub fn name(self) -> &'static str {
        match self {
            Distribution::Uniform => "uniform",
            Distribution::Sorted => "sorted",
            Distribution::Reversed => "reversed",
            Distribution::FewDistinct => "few-distinct",
            Distribution::Narrow => "narrow",
        }
    }

    /// `n` keys drawn with `seed`.
    pub fn keys(self, n: usize, seed: u64) -> Vec<u32> {
        let mut rng = SplitMix64::new(seed);
        let mut keys: Vec<u32> = match self {
            Distribution::FewDistinct => {
                let values: Vec<u32> = (0..16).map(|_| rng.next_u32()).collect();
                (0..n).map(|_| values[(rng.next_u32() % 16) as usize]).collect()
            }
            Distribution::Narrow => (0..n).map(|_| rng.next_u32() & 0xffff).collect(),
            _ => (0..n).map(|_| rng.next_u32()).collect(),
        };
        match self {
            Distribution::Sorted => keys.sort_unstable(),
            Distribution::Reversed => keys.sort_unstable_by(|a, b| b.cmp(a)),
            _ => {}
        }
        keys
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distributions_are_what_they_say_and_reproducible() {
        assert_eq!(Distribution::Uniform.keys(100, 3), Distribution::Uniform.keys(100, 3));
        assert!(Distribution::Sorted.keys(100, 3).windows(2).all(|w| w[0] <= w[1]));
        assert!(Distribution::Reversed.keys(100, 3).windows(2).all(|w| w[0] >= w[1]));
        let mut few = Distribution::FewDistinct.keys(1000, 3);
        few.sort_unstable();
        few.dedup();
        assert!(few.len() <= 16);
        assert!(Distribution::Narrow.keys(1000, 3).iter().all(|&k| k < 1 << 16));
    }
}
