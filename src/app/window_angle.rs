//! The window's sort direction: an angle (the panel's degrees, its rows and columns buttons,
//! A, `[` and `]`), the lines it lays through the picture, and how messages name it.

use super::Running;
use crate::angle::{Angle, Lines};
pub use crate::controls::direction::direction_name;
use crate::keys::options::Axis;
use web_time::Instant;

impl Running {
    /// The largest texture side, which line space must fit.
    fn max_side(&self) -> u32 {
        self.gpu.device.limits().max_texture_dimension_2d
    }

    /// Sorts along `angle` from now on, starting over from the input; a line space too large
    /// for the GPU leaves the direction as it was and shows why.
    pub(super) fn turn_to(&mut self, angle: Angle) {
        // A key pressed during a drag wins over the angle the drag left pending.
        self.session.pending_angle = None;
        let size = self.session.picture.pixels.dimensions();
        match Lines::new(angle, size, self.max_side()) {
            Ok(lines) => self.change(|s| s.set_lines(lines)),
            Err(e) => self.ui.error(e.to_string()),
        }
    }

    /// Turns to the angle dragged in the panel when the throttle allows: a drag changes it every
    /// frame, and each lay-out restarts every lane, so at most one runs per 50 ms (or per twice
    /// the last one's cost); the last angle of a drag is always applied.
    pub(super) fn apply_pending_angle(&mut self, now: Instant) {
        if self.session.pending_angle.is_none() || !self.session.angle_throttle.ready(now) {
            return;
        }
        if let Some(angle) = self.session.pending_angle.take() {
            let started = Instant::now();
            self.turn_to(angle);
            self.session.angle_throttle.done(started, started.elapsed());
        }
    }

    /// Lays the lines out again when the picture has changed size; when they no longer fit
    /// it, sorts rows and says why.
    pub(super) fn fit_lines_to_picture(&mut self) {
        let s = &self.session;
        let (angle, size) = (s.lines.angle(), s.picture.pixels.dimensions());
        if s.lines.are(angle, size) {
            return;
        }
        let lines = Lines::new(angle, size, self.max_side()).unwrap_or_else(|e| {
            self.ui.error(format!("{e}; sorting rows"));
            Lines::Axis(Axis::Rows)
        });
        self.session.set_lines(lines);
    }
}
