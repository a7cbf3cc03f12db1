//! What the window's lines follow: an angle (the panel's degrees, its rows and columns buttons,
//! A, `[` and `]`) or a path (the panel's path, B, a Shift+click for its centre), and the lines
//! it lays through the picture.

use super::Running;
use crate::angle::{Lines, Route};
use crate::keys::options::Axis;
use web_time::Instant;

impl Running {
    /// The largest texture side, which line space must fit.
    fn max_side(&self) -> u32 {
        self.gpu.device.limits().max_texture_dimension_2d
    }

    /// Sorts along `route` from now on, starting over from the input; a line space too large
    /// for the GPU leaves the lines as they were and shows why.
    pub(super) fn lay_out(&mut self, route: Route) {
        // A key pressed during a drag wins over the route the drag left pending.
        self.session.pending_route = None;
        let size = self.session.picture.pixels.dimensions();
        match Lines::of(route, size, self.max_side()) {
            Ok(lines) => self.change(|s| s.set_lines(lines)),
            Err(e) => self.ui.error(e.to_string()),
        }
    }

    /// Lays out what the panel asked for when the throttle allows: a drag of the angle changes
    /// it every frame, and each lay-out restarts every lane, so at most one runs per 50 ms (or
    /// per twice the last one's cost); the last one asked for is always applied.
    pub(super) fn apply_pending_route(&mut self, now: Instant) {
        if self.session.pending_route.is_none() || !self.session.route_throttle.ready(now) {
            return;
        }
        if let Some(route) = self.session.pending_route.take() {
            let started = Instant::now();
            self.lay_out(route);
            self.session.route_throttle.done(started, started.elapsed());
        }
    }

    /// Lays the lines out again when the picture has changed size (a path's default centre
    /// follows the middle); when they no longer fit it, sorts rows and says why.
    pub(super) fn fit_lines_to_picture(&mut self) {
        let s = &self.session;
        let (route, size) = (s.lines.route(), s.picture.pixels.dimensions());
        if s.lines.are_of(route, size) {
            return;
        }
        let lines = Lines::of(route, size, self.max_side()).unwrap_or_else(|e| {
            self.ui.error(format!("{e}; sorting rows"));
            Lines::Axis(Axis::Rows)
        });
        self.session.set_lines(lines);
    }
}
