//! The session's intervals: the map computed from its settings and mask, the update as the
//! controls move (every lane restarted in the new intervals, the player carried on as
//! [`interval_refresh::resume_after_new_intervals`] says), and what the status says of them.

use super::Session;
use super::interval_refresh::{self, IntervalInputs, PlayerPosition, Resume};
use super::panel_model::Status;
use super::window_mask::WindowMask;
use crate::angle::Lines;
use crate::controls::player::Stepper;
use crate::intervals::{IntervalMap, IntervalMode, IntervalSettings};
use image::RgbaImage;
use web_time::Instant;

/// The intervals of `picture` along `lines` for `inputs` (made from `settings` and `mask`), or
/// `None` when every line is sorted whole.
pub(super) fn compute_intervals(
    lines: &Lines,
    picture: &RgbaImage,
    inputs: &IntervalInputs,
    settings: &IntervalSettings,
    mask: Option<&WindowMask>,
) -> Result<Option<IntervalMap>, crate::intervals::IntervalError> {
    if !inputs.uses_interval_map() {
        return Ok(None);
    }
    lines.intervals(picture, settings, mask.map(WindowMask::mask))
}

impl Session {
    /// What the intervals would be made from now.
    fn interval_inputs(&self) -> IntervalInputs {
        IntervalInputs::new(&self.intervals, self.mask.as_ref().map(|m| m.id), self.lines.route())
    }

    /// Whether the controls have changed the intervals since the lanes' map was made.
    pub(super) fn intervals_pending(&self) -> bool {
        self.interval_inputs() != self.intervals_made_from
    }

    /// Computes the intervals from the current settings (no lanes restarted).
    pub(super) fn recompute_intervals(&mut self, status: &mut Status) {
        let started = Instant::now();
        let inputs = self.interval_inputs();
        let map = compute_intervals(
            &self.lines,
            &self.picture.pixels,
            &inputs,
            &self.intervals,
            self.mask.as_ref(),
        )
        .unwrap_or_else(|e| {
            // The mask was fitted to this picture when it was loaded; say so if not.
            status.error(e.to_string());
            None
        });
        self.interval_map = map;
        self.intervals_made_from = inputs;
        self.intervals_made += 1;
        self.throttle.done(started, started.elapsed());
    }

    /// When the controls have changed the intervals and the throttle allows: computes the new map
    /// from the input picture and restarts every lane in it, then carries on playing, sorts to
    /// the end again, or returns to the step the sort was at.
    pub(super) fn refresh_intervals(&mut self, now: Instant, status: &mut Status) {
        if !self.intervals_pending() || !self.throttle.ready(now) {
            return;
        }
        let at = PlayerPosition {
            playing: self.player.playing(),
            done: self.lanes.steps_done(),
            target: self.player.target(),
            total: self.lanes.total_steps(),
            known_sorted: self.lanes.known_sorted(),
        };
        self.recompute_intervals(status);
        self.player.stop();
        let options = self.options();
        let notices = self.lanes.restart_within(&self.lines, options, self.interval_map.as_ref());
        match interval_refresh::resume_after_new_intervals(at) {
            Resume::Play => self.player.apply(super::Command::PlayPause, &mut self.lanes),
            Resume::ToEnd => {
                let end = self.lanes.total_steps();
                self.player.go_to(end, &mut self.lanes);
            }
            Resume::Step(step) => self.player.go_to(step, &mut self.lanes),
        }
        self.reported_step = None;
        self.report_intervals(status);
        if let Some(notice) = notices.first() {
            status.say(notice.clone());
        }
    }

    /// Says what the intervals are: "threshold 0.20..0.60 of luma: 812 intervals of up to 40
    /// pixels, ...".
    pub(super) fn report_intervals(&self, status: &mut Status) {
        let Some(interval_map) = &self.interval_map else {
            if self.intervals_made_from.settings.mode == IntervalMode::None && self.mask.is_none() {
                status.say("whole lines: no intervals");
            }
            return;
        };
        let i = &self.intervals;
        let mode = match i.mode {
            IntervalMode::None => "whole lines".to_string(),
            IntervalMode::Threshold => {
                format!("threshold {:.2}..{:.2} of {}", i.threshold.lo(), i.threshold.hi(), i.key)
            }
            IntervalMode::Edges => format!("edges above {:.2} of {}", i.edge_level, i.key),
            IntervalMode::Random => {
                format!(
                    "random intervals of {}..{}, seed {}",
                    i.interval_length.min(),
                    i.interval_length.max(),
                    i.seed
                )
            }
        };
        let masked = if self.mask.is_some() { " within the mask" } else { "" };
        status.say(format!("{mode}{masked}: {}", self.lines.summary(interval_map)));
    }

    /// Shows or hides the intervals over the pictures, and says what is shown.
    pub(super) fn toggle_intervals_overlay(&mut self, status: &mut Status) {
        self.show_intervals = !self.show_intervals;
        if !self.show_intervals {
            status.say("intervals hidden");
        } else if self.interval_map.is_none() {
            status.say(
                "intervals shown once there are some: every line is sorted whole (M chooses an interval mode)",
            );
        } else {
            status.say("intervals shown: fixed pixels darkened, interval starts magenta");
        }
    }
}
