//! The window's frame clock: the time each frame starts, the frames of the last second (the
//! panel's frames/s), `--quit-after` (when to close, and the frame statistics it prints) and
//! whether the window is to close.

use web_time::{Duration, Instant};

/// Frame timing, for the panel and `--quit-after`, and whether to close.
pub(super) struct FrameClock {
    started: Instant,
    last: Instant,
    frames: u64,
    /// How long each frame's work took, in milliseconds (for `--quit-after`'s percentiles).
    took_ms: Vec<f32>,
    /// Milliseconds from each frame's start to the next's (everything a frame costs, waits
    /// for the screen included).
    intervals_ms: Vec<f32>,
    /// Start times of the frames of the last second.
    recent: std::collections::VecDeque<Instant>,
    /// `--quit-after`: how long the window stays open.
    quit_after: Option<Duration>,
    /// Whether the window is to close (Q, a signal, or `--quit-after`'s time is up).
    pub(super) quit: bool,
}

impl FrameClock {
    /// A clock started now; `quit_after` closes the window that long after.
    pub(super) fn new(quit_after: Option<Duration>) -> Self {
        let now = Instant::now();
        FrameClock {
            started: now,
            last: now,
            frames: 0,
            took_ms: Vec::new(),
            intervals_ms: Vec::new(),
            recent: Default::default(),
            quit_after,
            quit: false,
        }
    }

    /// A frame starts at `now`; `work_ms`: how long the last frame's work took. The seconds
    /// since the last frame (at most a quarter of a second, so a stall is not a jump).
    pub(super) fn start_frame(&mut self, now: Instant, work_ms: Option<f32>) -> f64 {
        let since_last = now.duration_since(self.last);
        self.last = now;
        // Kept only for `--quit-after`'s statistics (a window open for hours keeps none).
        if self.quit_after.is_some() {
            if self.frames > 0 {
                self.intervals_ms.push(since_last.as_secs_f32() * 1e3);
            }
            self.took_ms.extend(work_ms);
        }
        since_last.as_secs_f64().min(0.25)
    }

    /// Counts a frame that began at `started`; closes once `--quit-after`'s time is up.
    pub(super) fn end_frame(&mut self, started: Instant) {
        self.frames += 1;
        self.recent.push_back(started);
        while self.recent.front().is_some_and(|t| started.duration_since(*t) > Duration::from_secs(1)) {
            self.recent.pop_front();
        }
        if self.quit_after.is_some_and(|limit| self.started.elapsed() >= limit) {
            self.quit = true;
        }
    }

    /// Frames drawn in the last second.
    pub(super) fn fps(&self) -> f64 {
        self.recent.len() as f64
    }

    /// Whether the window closes by itself (so it keeps drawing frames until then).
    pub(super) fn timed(&self) -> bool {
        self.quit_after.is_some()
    }

    /// With `--quit-after`, the statistics it prints: frames, frames/s, the frames' work and the
    /// time between them (median, 95th percentile, slowest).
    pub(super) fn report(&self) -> Option<String> {
        self.quit_after?;
        let seconds = self.started.elapsed().as_secs_f64();
        let [work, apart] = [&self.took_ms, &self.intervals_ms].map(|ms| {
            let mut sorted = ms.clone();
            sorted.sort_by(f32::total_cmp);
            let at = |q: f64| {
                sorted.get(((sorted.len() as f64 - 1.0) * q).round() as usize).copied().unwrap_or(0.0)
            };
            format!("median {:.1} ms, 95th {:.1} ms, slowest {:.1} ms", at(0.5), at(0.95), at(1.0))
        });
        Some(format!(
            "window: {} frames in {seconds:.1} s ({:.1} frames/s), frame work {work}; frames apart {apart}",
            self.frames,
            self.frames as f64 / seconds
        ))
    }
}
