//! The one note a slow comparison sort gets: once its first second shows that odd-even or
//! bubble will take over 30 s, how long, and that the radix sort needs only its digit passes.

use crate::algorithms::Algorithm;
use crate::keys::SortKey;
use std::time::Duration;

/// Runs longer than this get a note saying how long, and what is faster.
const LONG_RUN: Duration = Duration::from_secs(30);

/// The one note a slow comparison sort gets once its first batches show it will take long:
/// how long, and that the radix sort needs only its digit passes.
pub(super) struct LongRunNote {
    /// "odd-even" or "bubble"; `None` when no note applies (radix, bitonic, or already given).
    algorithm: Option<&'static str>,
    steps: u32,
    radix_passes: u32,
}

impl LongRunNote {
    pub(super) fn new(algorithm: Algorithm, key: SortKey, steps: u32) -> LongRunNote {
        let algorithm = match algorithm {
            Algorithm::Radix | Algorithm::Bitonic => None,
            other => Some(other.name()),
        };
        let radix_passes = crate::keys::radix_key::exact_bits(key)
            .div_ceil(crate::algorithms::radix::RadixSettings::DEFAULT.digit_bits);
        LongRunNote { algorithm, steps, radix_passes }
    }

    /// After `done` steps in `elapsed`: the note, the first time the rest looks longer than
    /// [`LONG_RUN`] (judged after a second's work, so a slow start does not mislead).
    pub(super) fn check(&mut self, done: u32, elapsed: Duration) -> Option<String> {
        if elapsed < Duration::from_secs(1) {
            return None;
        }
        let algorithm = self.algorithm?;
        let left = crate::progress::time_left(u64::from(done), u64::from(self.steps), elapsed)?;
        if elapsed + left < LONG_RUN {
            return None;
        }
        self.algorithm = None;
        Some(format!(
            "note: {algorithm} needs up to {} steps for this picture, about {} in all at this rate; --algorithm radix sorts it in {} digit passes",
            self.steps,
            crate::progress::duration_words(elapsed + left),
            self.radix_passes
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The note for `algorithm` after `done` of 1000 steps in `seconds`, asked twice.
    fn notes(algorithm: Algorithm, done: u32, seconds: u64) -> [Option<String>; 2] {
        let mut note = LongRunNote::new(algorithm, SortKey::Luma, 1000);
        let elapsed = Duration::from_secs(seconds);
        [note.check(done, elapsed), note.check(done, elapsed)]
    }

    #[test]
    fn odd_even_and_bubble_get_one_note_when_the_rest_looks_longer_than_30_s() {
        for algorithm in [Algorithm::OddEven, Algorithm::Bubble] {
            // 10 of 1000 steps in 2 s: 200 s in all, said once.
            let [first, again] = notes(algorithm, 10, 2);
            let first = first.unwrap_or_else(|| panic!("no note for {algorithm:?}"));
            assert!(
                first.starts_with(&format!("note: {} needs up to 1000 steps", algorithm.name())),
                "{first}"
            );
            assert_eq!(again, None, "{algorithm:?} noted twice");
            // 500 of 1000 in 2 s: 4 s in all; and nothing is judged within the first second.
            assert_eq!(notes(algorithm, 500, 2), [None, None], "{algorithm:?}");
            assert_eq!(notes(algorithm, 1, 0), [None, None], "{algorithm:?}");
        }
        for algorithm in [Algorithm::Radix, Algorithm::Bitonic] {
            assert_eq!(notes(algorithm, 10, 2), [None, None], "{algorithm:?}");
        }
    }
}
