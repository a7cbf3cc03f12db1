//! How long a live source's frames took from arriving to being sorted (read back into a file, or
//! drawn in the window): counted in buckets of a tenth of a millisecond, so an hour of a live
//! source takes no more memory than a second of it.

use std::sync::Mutex;
use std::time::Duration;

/// Bucket width.
const BUCKET: Duration = Duration::from_micros(100);
/// Buckets: up to 5 s; a slower frame counts in the last.
const BUCKETS: usize = 50_000;

/// Latencies of frames, added from any thread.
#[derive(Debug)]
pub struct Latencies {
    counts: Mutex<(Vec<u32>, Duration)>,
}

impl Default for Latencies {
    fn default() -> Self {
        Latencies { counts: Mutex::new((vec![0; BUCKETS], Duration::ZERO)) }
    }
}

/// The middle, the 95th percentile and the slowest of the latencies counted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LatencySummary {
    /// Frames counted.
    pub frames: u64,
    /// Half the frames took at most this long.
    pub median: Duration,
    /// 95 in 100 frames took at most this long.
    pub p95: Duration,
    /// The slowest frame.
    pub slowest: Duration,
}

impl Latencies {
    /// Counts one frame that took `latency`.
    pub fn add(&self, latency: Duration) {
        let bucket = ((latency.as_micros() / BUCKET.as_micros()) as usize).min(BUCKETS - 1);
        let mut counts = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        counts.0[bucket] = counts.0[bucket].saturating_add(1);
        counts.1 = counts.1.max(latency);
    }

    /// The summary, `None` before any frame; a percentile is the upper edge of its bucket.
    pub fn summary(&self) -> Option<LatencySummary> {
        let counts = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        let frames: u64 = counts.0.iter().map(|&c| u64::from(c)).sum();
        if frames == 0 {
            return None;
        }
        let at = |fraction: f64| {
            let rank = ((frames as f64 * fraction).ceil() as u64).max(1);
            let mut seen = 0;
            let bucket = counts.0.iter().position(|&c| {
                seen += u64::from(c);
                seen >= rank
            });
            let edge = BUCKET * (bucket.unwrap_or(BUCKETS - 1) as u32 + 1);
            edge.min(counts.1)
        };
        Some(LatencySummary { frames, median: at(0.5), p95: at(0.95), slowest: counts.1 })
    }
}

impl std::fmt::Display for LatencySummary {
    /// `median 8.1 ms, 95th 12.3 ms, slowest 30.0 ms`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        write!(
            f,
            "median {:.1} ms, 95th {:.1} ms, slowest {:.1} ms",
            ms(self.median),
            ms(self.p95),
            ms(self.slowest)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_come_from_the_buckets_and_the_slowest_is_exact() {
        let latencies = Latencies::default();
        assert_eq!(latencies.summary(), None);
        for ms in 1..=100u64 {
            latencies.add(Duration::from_micros(ms * 1000 - 50));
        }
        latencies.add(Duration::from_secs(9));
        let summary = latencies.summary().expect("frames were counted");
        assert_eq!(summary.frames, 101);
        assert_eq!(summary.median, Duration::from_millis(51));
        assert_eq!(summary.p95, Duration::from_millis(96));
        assert_eq!(summary.slowest, Duration::from_secs(9));
        assert_eq!(summary.to_string(), "median 51.0 ms, 95th 96.0 ms, slowest 9000.0 ms");
    }
}
