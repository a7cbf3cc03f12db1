//! The one place a live frame waits for the sorter: a newer frame takes the place of an older one
//! still waiting (which is dropped and counted), so the sorter always takes the newest frame and
//! never falls behind the source, and memory holds one waiting frame however long it runs.

use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// Frames of type `T` from a source that may end with a reason `E`.
pub struct LatestFrame<T, E> {
    state: Mutex<State<T, E>>,
    changed: Condvar,
}

struct State<T, E> {
    /// The frame waiting, with its number among the frames received.
    waiting: Option<(u64, T)>,
    received: u64,
    dropped: u64,
    /// Frames taken so far: the next one taken is given this number.
    taken: usize,
    /// The source sent its last frame (and why it ended).
    end: Option<E>,
    /// The sorter takes no more frames.
    stopped: bool,
}

/// What [`LatestFrame::take`] found.
#[derive(Debug, PartialEq)]
pub enum Taken<T> {
    /// A frame: the `order`th taken, the `arrival`th received (counted from 0).
    Frame {
        /// Its place among the frames taken.
        order: usize,
        /// Its place among the frames received.
        arrival: u64,
        /// The frame.
        frame: T,
    },
    /// No frame came within the wait.
    Nothing,
    /// The source ended and its last frame was taken, or the sorter stopped.
    Ended,
}

/// Frames received and dropped so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Frames the source sent.
    pub received: u64,
    /// Frames replaced by a newer one before the sorter took them.
    pub dropped: u64,
}

impl<T, E> Default for LatestFrame<T, E> {
    fn default() -> Self {
        let state = State { waiting: None, received: 0, dropped: 0, taken: 0, end: None, stopped: false };
        LatestFrame { state: Mutex::new(state), changed: Condvar::new() }
    }
}

impl<T, E> LatestFrame<T, E> {
    fn state(&self) -> std::sync::MutexGuard<'_, State<T, E>> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Hands over the next frame, dropping the one still waiting; false once the sorter stopped.
    pub fn put(&self, frame: T) -> bool {
        let mut state = self.state();
        if state.stopped {
            return false;
        }
        let arrival = state.received;
        if state.waiting.replace((arrival, frame)).is_some() {
            state.dropped += 1;
        }
        state.received += 1;
        self.changed.notify_one();
        true
    }

    /// The source sent its last frame, for `why`; the frame waiting is still taken.
    pub fn end(&self, why: E) {
        let mut state = self.state();
        state.end.get_or_insert(why);
        self.changed.notify_all();
    }

    /// The sorter takes no more frames (the frame waiting is left).
    pub fn stop(&self) {
        self.state().stopped = true;
        self.changed.notify_all();
    }

    /// The frame waiting, waiting up to `wait` for one.
    pub fn take(&self, wait: Duration) -> Taken<T> {
        let mut state = self.state();
        let deadline = std::time::Instant::now() + wait;
        loop {
            if state.stopped {
                return Taken::Ended;
            }
            if let Some((arrival, frame)) = state.waiting.take() {
                let order = state.taken;
                state.taken += 1;
                return Taken::Frame { order, arrival, frame };
            }
            if state.end.is_some() {
                return Taken::Ended;
            }
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                return Taken::Nothing;
            }
            state = self.changed.wait_timeout(state, left).unwrap_or_else(|p| p.into_inner()).0;
        }
    }

    /// Frames received and dropped so far.
    pub fn counts(&self) -> Counts {
        let state = self.state();
        Counts { received: state.received, dropped: state.dropped }
    }

    /// Why the source ended, once it has (taken out).
    pub fn take_end(&self) -> Option<E> {
        self.state().end.take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NO_WAIT: Duration = Duration::ZERO;

    #[test]
    fn a_newer_frame_replaces_the_one_waiting_and_the_older_is_counted_dropped() {
        let slot = LatestFrame::<&str, ()>::default();
        assert_eq!(slot.take(NO_WAIT), Taken::Nothing);
        assert!(slot.put("a"));
        assert!(slot.put("b"));
        assert!(slot.put("c"));
        assert_eq!(slot.take(NO_WAIT), Taken::Frame { order: 0, arrival: 2, frame: "c" });
        assert!(slot.put("d"));
        assert_eq!(slot.take(NO_WAIT), Taken::Frame { order: 1, arrival: 3, frame: "d" });
        assert_eq!(slot.take(NO_WAIT), Taken::Nothing);
        assert_eq!(slot.counts(), Counts { received: 4, dropped: 2 });
    }

    #[test]
    fn the_last_frame_is_taken_after_the_end_and_a_stop_takes_nothing_more() {
        let slot = LatestFrame::<u8, &str>::default();
        slot.put(1);
        slot.end("finished");
        slot.end("ignored: the first reason stays");
        assert_eq!(slot.take(NO_WAIT), Taken::Frame { order: 0, arrival: 0, frame: 1 });
        assert_eq!(slot.take(NO_WAIT), Taken::Ended);
        assert_eq!(slot.take_end(), Some("finished"));
        let stopped = LatestFrame::<u8, ()>::default();
        stopped.put(1);
        stopped.stop();
        assert_eq!(stopped.take(NO_WAIT), Taken::Ended);
        assert!(!stopped.put(2), "a stopped sorter takes no frame");
    }

    #[test]
    fn a_waiting_taker_wakes_when_a_frame_comes_from_another_thread() {
        let slot = LatestFrame::<u32, ()>::default();
        std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(Duration::from_millis(30));
                slot.put(7);
            });
            assert_eq!(slot.take(Duration::from_secs(10)), Taken::Frame { order: 0, arrival: 0, frame: 7 });
        });
    }
}
