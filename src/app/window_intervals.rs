//! The window's intervals: the map computed from the session's settings and mask, the update
//! as the controls move (every lane restarted in the new intervals, the player carried on as
//! [`interval_refresh::resume_after_new_intervals`] says), masks loaded and cleared, and the
//! intervals drawn over the pictures.

use super::Running;
use super::dialogs::Chosen;
use super::interval_refresh::{self, IntervalInputs, PlayerPosition, Resume};
use super::window_mask::{FitTo, WindowMask};
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

impl Running {
    /// What the intervals would be made from now.
    fn interval_inputs(&self) -> IntervalInputs {
        let s = &self.session;
        IntervalInputs::new(&s.intervals, s.mask.as_ref().map(|m| m.id), s.lines.route())
    }

    /// Whether the controls have changed the intervals since the lanes' map was made.
    pub(super) fn intervals_pending(&self) -> bool {
        self.interval_inputs() != self.session.intervals_made_from
    }

    /// Computes the session's intervals from the current settings (no lanes restarted).
    pub(super) fn recompute_intervals(&mut self) {
        let started = Instant::now();
        let inputs = self.interval_inputs();
        let s = &self.session;
        let interval_map =
            compute_intervals(&s.lines, &s.picture.pixels, &inputs, &s.intervals, s.mask.as_ref())
                .unwrap_or_else(|e| {
                    // The mask was fitted to this picture when it was loaded; say so if not.
                    self.ui.error(e.to_string());
                    None
                });
        self.session.interval_map = interval_map;
        self.session.intervals_made_from = inputs;
        self.session.throttle.done(started, started.elapsed());
        self.update_intervals_overlay();
    }

    /// When the controls have changed the intervals and the throttle allows: computes the new map
    /// from the input picture and restarts every lane in it, then carries on playing, sorts to
    /// the end again, or returns to the step the sort was at.
    pub(super) fn refresh_intervals(&mut self, now: Instant) {
        if !self.intervals_pending() || !self.session.throttle.ready(now) {
            return;
        }
        let s = &self.session;
        let at = PlayerPosition {
            playing: s.player.playing(),
            done: s.lanes.steps_done(),
            target: s.player.target(),
            total: s.lanes.total_steps(),
            known_sorted: s.lanes.known_sorted(),
        };
        self.recompute_intervals();
        let s = &mut self.session;
        s.player.stop();
        let notices = s.lanes.restart_within(&s.lines, s.options(), s.interval_map.as_ref());
        match interval_refresh::resume_after_new_intervals(at) {
            Resume::Play => s.player.apply(super::Command::PlayPause, &mut s.lanes),
            Resume::ToEnd => {
                let end = s.lanes.total_steps();
                s.player.go_to(end, &mut s.lanes);
            }
            Resume::Step(step) => s.player.go_to(step, &mut s.lanes),
        }
        self.last_reported_pass = None;
        self.report_intervals();
        if let Some(notice) = notices.first() {
            self.ui.say(notice.clone());
        }
    }

    /// Says what the intervals are: "threshold 0.20..0.60 of luma: 812 intervals of up to 40
    /// pixels, ...".
    pub(super) fn report_intervals(&mut self) {
        let s = &self.session;
        let Some(interval_map) = &s.interval_map else {
            if s.intervals_made_from.settings.mode == IntervalMode::None && s.mask.is_none() {
                self.ui.say("whole lines: no intervals");
            }
            return;
        };
        let i = &s.intervals;
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
        let masked = if s.mask.is_some() { " within the mask" } else { "" };
        self.ui.say(format!("{mode}{masked}: {}", s.lines.summary(interval_map)));
    }

    /// Loads the mask at `path` for the current picture; an unreadable file or one of another
    /// size leaves the current mask and shows the error.
    pub(super) fn load_mask(&mut self, file: &Chosen) {
        let s = &self.session;
        let id = s.masks_loaded;
        match WindowMask::load(file, id, FitTo::of(&s.picture, s.source_size)) {
            Ok(mask) => {
                self.ui.mask_path = file.path().display().to_string();
                self.session.masks_loaded += 1;
                self.session.mask = Some(mask);
                self.update_mask_overlay();
            }
            Err(e) => self.ui.error(e),
        }
    }

    /// Sorts without the mask from now on.
    pub(super) fn clear_mask(&mut self) {
        if self.session.mask.take().is_some() {
            self.ui.say("mask cleared");
            self.update_mask_overlay();
        }
    }

    /// Shows or hides the intervals over the pictures.
    pub(super) fn toggle_intervals_overlay(&mut self) {
        self.session.show_intervals = !self.session.show_intervals;
        self.update_intervals_overlay();
        if !self.session.show_intervals {
            self.ui.say("intervals hidden");
        } else if self.session.interval_map.is_none() {
            self.ui.say(
                "intervals shown once there are some: every line is sorted whole (M chooses an interval mode)",
            );
        } else {
            self.ui.say("intervals shown: fixed pixels darkened, interval starts magenta");
        }
    }

    /// Draws the current intervals for the overlay while it is shown; drops the drawing otherwise.
    fn update_intervals_overlay(&mut self) {
        let map = self.session.interval_map.as_ref().filter(|_| self.session.show_intervals);
        self.overlays.show_intervals(&self.egui_ctx, &self.session.lines, map);
    }
}
