//! Where a clip's time goes: how long each stage of the pipeline was busy, summed over the
//! threads that run it, so `bench video` can say which stage sets the pace.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A stage of the clip pipeline, in the order a frame passes through them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Waiting for the next decoded frame from ffmpeg (or reading a picture file).
    Decode,
    /// Converting a 4:2:0 frame to RGBA on the CPU.
    ToRgba,
    /// Finding the frame's intervals on the CPU.
    Intervals,
    /// Writing a 4:2:0 frame's planes for the GPU and submitting their conversion to RGBA.
    Upload,
    /// Starting the frame's run: textures and bindings made, the frame uploaded (but a 4:2:0
    /// one, converted on the GPU), the algorithm's CPU plan and first submissions.
    Start,
    /// The sorting thread waiting for the next frame in clip order.
    SorterIdle,
    /// Recording and submitting the sort and the copy out.
    Submit,
    /// Waiting for the GPU and copying the sorted frame out of the staging buffer.
    ReadBack,
    /// Handing the frame to the encoder (a pipe write) or the frame writer.
    Sink,
}

impl Stage {
    /// Every stage, in order.
    pub const ALL: [Stage; 9] = [
        Stage::Decode,
        Stage::ToRgba,
        Stage::Intervals,
        Stage::Upload,
        Stage::Start,
        Stage::SorterIdle,
        Stage::Submit,
        Stage::ReadBack,
        Stage::Sink,
    ];

    /// How the report names it.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Decode => "decode",
            Stage::ToRgba => "4:2:0 to RGBA",
            Stage::Intervals => "intervals",
            Stage::Upload => "4:2:0 upload",
            Stage::Start => "run start",
            Stage::SorterIdle => "sorter idle",
            Stage::Submit => "submit",
            Stage::ReadBack => "read back",
            Stage::Sink => "sink",
        }
    }
}

/// Busy time per stage, added to from any thread.
#[derive(Debug, Default)]
pub struct StageClock {
    nanos: [AtomicU64; Stage::ALL.len()],
}

impl StageClock {
    /// Runs `work`, adding its wall time to `stage`.
    pub fn time<T>(&self, stage: Stage, work: impl FnOnce() -> T) -> T {
        let started = Instant::now();
        let result = work();
        let nanos = u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX);
        self.nanos[stage as usize].fetch_add(nanos, Ordering::Relaxed);
        result
    }

    /// The totals so far.
    pub fn times(&self) -> StageTimes {
        StageTimes(Stage::ALL.map(|s| Duration::from_nanos(self.nanos[s as usize].load(Ordering::Relaxed))))
    }
}

/// Busy time per stage of one run, summed over the stage's threads.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StageTimes([Duration; Stage::ALL.len()]);

impl StageTimes {
    /// The time of `stage`.
    pub fn of(&self, stage: Stage) -> Duration {
        self.0[stage as usize]
    }
}

impl StageTimes {
    /// `decode 2100345 ns, 4:2:0 to RGBA 0 ns, ...`: exact, so that a stage that never ran
    /// (a frame converted or its intervals found on the GPU) tells from one that was only quick.
    pub fn nanos_words(&self) -> String {
        let parts: Vec<String> =
            Stage::ALL.iter().map(|&s| format!("{} {} ns", s.name(), self.of(s).as_nanos())).collect();
        parts.join(", ")
    }
}

impl std::fmt::Display for StageTimes {
    /// `decode 2.10 s, intervals 3.02 s, ...`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts: Vec<String> =
            Stage::ALL.iter().map(|&s| format!("{} {:.2} s", s.name(), self.of(s).as_secs_f64())).collect();
        f.write_str(&parts.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_stage_adds_up_its_own_time_from_any_thread() {
        let clock = StageClock::default();
        std::thread::scope(|s| {
            for _ in 0..3 {
                s.spawn(|| clock.time(Stage::Intervals, || std::thread::sleep(Duration::from_millis(20))));
            }
        });
        let value = clock.time(Stage::Sink, || 7);
        assert_eq!(value, 7);
        let times = clock.times();
        assert!(times.of(Stage::Intervals) >= Duration::from_millis(60), "{times}");
        assert!(times.of(Stage::Sink) < Duration::from_millis(20), "{times}");
        assert_eq!(times.of(Stage::Decode), Duration::ZERO);
        assert!(
            times.to_string().starts_with("decode 0.00 s, 4:2:0 to RGBA 0.00 s, intervals 0.0"),
            "{times}"
        );
        assert!(times.nanos_words().starts_with("decode 0 ns, 4:2:0 to RGBA 0 ns, intervals "), "{times}");
        assert!(!times.nanos_words().contains("intervals 0 ns"), "{times}");
    }
}
