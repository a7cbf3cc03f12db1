//! Benchmarks: commands that measure and print tables, never timed tests.

pub mod gif;
#[cfg(feature = "peers")]
mod peers;
pub mod radix;
pub mod sorts;

use std::time::Duration;

/// Median of a list of durations (the list must not be empty).
pub fn median(mut samples: Vec<Duration>) -> Duration {
    assert!(!samples.is_empty(), "median of no samples");
    samples.sort_unstable();
    samples[samples.len() / 2]
}
