//! Seeded key distributions for the sort's tests and benchmarks: the same keys for the same
//! seed on every machine.

/// How keys are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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

    /// The distribution [`Distribution::name`] names.
    pub fn named(name: &str) -> Option<Distribution> {
        Self::ALL.into_iter().find(|d| d.name() == name)
    }

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

/// SplitMix64 (Steele, Lea and Flood 2014): small, fast, and the same everywhere.
struct SplitMix64(u64);

impl SplitMix64 {
    fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    fn next_u32(&mut self) -> u32 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) >> 32) as u32
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
        for d in Distribution::ALL {
            assert_eq!(Distribution::named(d.name()), Some(d));
        }
        assert_eq!(Distribution::named("random"), None);
        // The generator is SplitMix64: its first output for seed 0, as published.
        assert_eq!(SplitMix64::new(0).next_u32(), (0xe220_a839_7b1d_cdaf_u64 >> 32) as u32);
    }
}
