//! Benchmarks: commands that measure and print tables, never timed tests.
#![cfg(not(target_arch = "wasm32"))]

pub mod batch;
pub mod gif;
pub mod pass;
pub mod png;
pub mod radix;
pub mod sorts;
pub mod video;

use anyhow::Context;
use std::time::Duration;

/// A picture size written WIDTHxHEIGHT.
pub(crate) fn parse_size(s: &str) -> anyhow::Result<(u32, u32)> {
    let (w, h) = s.split_once('x').with_context(|| format!("'{s}' is not a size like 1024x1024"))?;
    Ok((w.trim().parse()?, h.trim().parse()?))
}

/// Median of a list of durations (the list must not be empty).
pub fn median(mut samples: Vec<Duration>) -> Duration {
    assert!(!samples.is_empty(), "median of no samples");
    samples.sort_unstable();
    samples[samples.len() / 2]
}

/// Warm-up runs before every measurement, at least.
pub(crate) const WARM_UP_RUNS: u32 = 3;
/// Seconds of warm-up before every measurement, at least: the GPU idles while inputs are made
/// and results checked on the CPU, and its clocks must climb back before timing starts.
pub(crate) const WARM_UP_SECONDS: f64 = 0.5;

/// Runs `sort` until both warm-up minimums are met.
pub(crate) fn warm_up(mut sort: impl FnMut() -> anyhow::Result<()>) -> anyhow::Result<()> {
    let started = std::time::Instant::now();
    let mut runs = 0;
    while runs < WARM_UP_RUNS || started.elapsed().as_secs_f64() < WARM_UP_SECONDS {
        sort()?;
        runs += 1;
    }
    Ok(())
}
