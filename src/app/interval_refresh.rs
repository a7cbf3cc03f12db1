//! When the window computes its interval map anew, and where the sort goes afterwards: the pure
//! rules behind the interval controls' update while a slider moves.
//!
//! The map depends on the interval settings the mode reads, the mask and the direction; the window
//! compares those ([`IntervalInputs`]) every frame, recomputes when they differ, but no more often
//! than [`RefreshThrottle`] allows while a slider is being dragged, and then restarts every
//! lane in the new intervals and carries on as [`resume_after_new_intervals`] says.

use crate::angle::Route;
use crate::intervals::IntervalSettings;
use web_time::{Duration, Instant};

/// Everything the window's interval map is computed from, besides the picture (a new picture
/// restarts the lanes and computes the map at once).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IntervalInputs {
    /// The settings, only the fields the mode reads ([`IntervalSettings::relevant`]).
    pub settings: IntervalSettings,
    /// Which mask is loaded: a number that changes with every load or clear; `None` without one.
    pub mask: Option<u64>,
    /// What the lines follow.
    pub route: Route,
}

impl IntervalInputs {
    /// The inputs of these settings, mask and lines.
    pub fn new(settings: &IntervalSettings, mask: Option<u64>, route: Route) -> Self {
        IntervalInputs { settings: settings.relevant(), mask, route }
    }

    /// Whether the sort runs within intervals at all: a mode other than none, or a mask.
    pub fn uses_interval_map(&self) -> bool {
        self.mask.is_some() || self.settings.mode != crate::intervals::IntervalMode::None
    }
}

/// Limits how often the map is recomputed while a control keeps changing: a new map is due
/// once [`RefreshThrottle::MIN_GAP`] or twice the last recompute's cost (whichever is longer)
/// has passed since the last one, so a slow picture is not recomputed every frame. The last
/// change is never dropped: it is applied when its turn comes.
#[derive(Clone, Copy, Debug, Default)]
pub struct RefreshThrottle {
    last: Option<Instant>,
    cost: Duration,
}

impl RefreshThrottle {
    /// The shortest time between two recomputes.
    pub const MIN_GAP: Duration = Duration::from_millis(50);

    /// Whether a recompute may run at `now`.
    pub fn ready(&self, now: Instant) -> bool {
        self.last.is_none_or(|last| now.saturating_duration_since(last) >= Self::MIN_GAP.max(self.cost * 2))
    }

    /// Notes a recompute that started at `started` and took `cost`.
    pub fn done(&mut self, started: Instant, cost: Duration) {
        self.last = Some(started);
        self.cost = cost;
    }
}

/// Where the player stood when the intervals changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayerPosition {
    /// Playing.
    pub playing: bool,
    /// Steps done.
    pub done: u32,
    /// The step being headed for, if any.
    pub target: Option<u32>,
    /// Steps in all (with the old intervals).
    pub total: u32,
    /// Whether the picture was known sorted.
    pub known_sorted: bool,
}

/// What the sort does after restarting in new intervals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resume {
    /// Play on from the input.
    Play,
    /// Sort to the end at once: the picture was sorted (or on its way to sorted), so the user
    /// sees the sorted result for the new intervals, as an artist moving the threshold expects.
    ToEnd,
    /// Go back to this step, as far as the new intervals have steps (0: the input).
    Step(u32),
}

/// What follows a restart in new intervals: playing goes on playing; a finished sort (or one
/// heading for its end) is sorted to the end again; a sort paused part way returns to the same
/// step.
pub fn resume_after_new_intervals(at: PlayerPosition) -> Resume {
    if at.playing {
        return Resume::Play;
    }
    let heading = at.target.unwrap_or(at.done);
    let finished = at.target.is_none() && at.known_sorted && at.done > 0;
    if finished || (heading >= at.total && heading > 0) { Resume::ToEnd } else { Resume::Step(heading) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::angle::Angle;
    use crate::intervals::{IntervalMode, Threshold};
    use crate::keys::SortKey;

    const ROWS: Route = Route::Angle(Angle::ROWS);

    #[test]
    fn inputs_differ_only_when_the_intervals_would() {
        let threshold = IntervalSettings { mode: IntervalMode::Threshold, ..Default::default() };
        let a = IntervalInputs::new(&threshold, None, ROWS);
        assert_eq!(a, IntervalInputs::new(&IntervalSettings { seed: 5, ..threshold }, None, ROWS));
        let moved = IntervalSettings { threshold: Threshold::new(0.3, 0.75).unwrap(), ..threshold };
        assert_ne!(a, IntervalInputs::new(&moved, None, ROWS));
        assert_ne!(a, IntervalInputs::new(&IntervalSettings { key: SortKey::Hue, ..threshold }, None, ROWS));
        assert_ne!(a, IntervalInputs::new(&threshold, Some(1), ROWS));
        assert_ne!(
            IntervalInputs::new(&threshold, Some(1), ROWS),
            IntervalInputs::new(&threshold, Some(2), ROWS)
        );
        assert_ne!(a, IntervalInputs::new(&threshold, None, Route::Angle(Angle::COLUMNS)));
        assert_ne!(a, IntervalInputs::new(&threshold, None, Route::Angle(Angle::new(30.0).unwrap())));
        let rings = Route::Angle(Angle::ROWS).bent();
        assert_ne!(a, IntervalInputs::new(&threshold, None, rings));
        assert!(a.uses_interval_map());
        let plain = IntervalInputs::new(&IntervalSettings::default(), None, ROWS);
        assert!(!plain.uses_interval_map());
        assert!(IntervalInputs::new(&IntervalSettings::default(), Some(0), ROWS).uses_interval_map());
    }

    #[test]
    fn the_throttle_waits_the_gap_or_twice_the_cost() {
        let t0 = Instant::now();
        let mut throttle = RefreshThrottle::default();
        assert!(throttle.ready(t0), "the first recompute is due at once");
        throttle.done(t0, Duration::from_millis(5));
        assert!(!throttle.ready(t0 + Duration::from_millis(10)));
        assert!(!throttle.ready(t0 + Duration::from_millis(49)));
        assert!(throttle.ready(t0 + Duration::from_millis(50)));
        // A slow recompute spaces the next ones out further.
        throttle.done(t0, Duration::from_millis(80));
        assert!(!throttle.ready(t0 + Duration::from_millis(100)));
        assert!(throttle.ready(t0 + Duration::from_millis(160)));
        // A clock that seems to go backwards never makes it ready early.
        throttle.done(t0 + Duration::from_secs(1), Duration::ZERO);
        assert!(!throttle.ready(t0));
    }

    fn at(playing: bool, done: u32, target: Option<u32>, total: u32, known_sorted: bool) -> PlayerPosition {
        PlayerPosition { playing, done, target, total, known_sorted }
    }

    #[test]
    fn new_intervals_keep_playing_finish_a_finished_sort_and_keep_a_paused_step() {
        assert_eq!(resume_after_new_intervals(at(true, 10, None, 64, false)), Resume::Play);
        assert_eq!(resume_after_new_intervals(at(true, 0, None, 64, false)), Resume::Play);
        // Sorted to the end, or known sorted before it: sort the new intervals to the end too.
        assert_eq!(resume_after_new_intervals(at(false, 64, None, 64, true)), Resume::ToEnd);
        assert_eq!(resume_after_new_intervals(at(false, 64, None, 64, false)), Resume::ToEnd);
        assert_eq!(resume_after_new_intervals(at(false, 30, None, 64, true)), Resume::ToEnd);
        // Still on the way to the end after the previous change (a slider being dragged).
        assert_eq!(resume_after_new_intervals(at(false, 12, Some(64), 64, false)), Resume::ToEnd);
        // Paused part way, or heading for a step before the end: that step again.
        assert_eq!(resume_after_new_intervals(at(false, 20, None, 64, false)), Resume::Step(20));
        assert_eq!(resume_after_new_intervals(at(false, 3, Some(8), 64, false)), Resume::Step(8));
        assert_eq!(resume_after_new_intervals(at(false, 0, None, 64, false)), Resume::Step(0));
        // A picture with nothing to sort has no end to head for.
        assert_eq!(resume_after_new_intervals(at(false, 0, None, 0, false)), Resume::Step(0));
    }
}
