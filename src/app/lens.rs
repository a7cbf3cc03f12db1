//! The window's row lens: which line is inspected (the line through a chosen picture pixel,
//! along each lane's direction), read back from every lane's GPU state each frame it is open,
//! so it follows every step forward and back.

use super::Running;
use crate::angle::Lines;
use crate::keys::options::Axis;
use crate::lens::{LensLine, LensReading};

/// The lens while it is open.
pub struct WindowLens {
    /// The picture pixel the inspected line runs through.
    pub point: (u32, u32),
    /// Per lane, the line as read after this frame's steps, or why it could not be read.
    pub readings: Vec<Result<LensReading, String>>,
}

impl Running {
    /// L: opens the lens on the line through the middle of the picture (or where it was), or
    /// closes it.
    pub(super) fn toggle_lens(&mut self) {
        if self.lens.take().is_some() {
            self.ui.say("lens closed");
            return;
        }
        let (w, h) = self.session.picture.pixels.dimensions();
        let point = self.lens_point.unwrap_or((w / 2, h / 2));
        self.inspect(point);
    }

    /// Opens the lens on the line through picture pixel `point`.
    pub(super) fn inspect(&mut self, point: (u32, u32)) {
        let (w, h) = self.session.picture.pixels.dimensions();
        let point = (point.0.min(w - 1), point.1.min(h - 1));
        self.lens_point = Some(point);
        self.lens = Some(WindowLens { point, readings: Vec::new() });
        self.read_lens();
        if let Some(Ok(reading)) = self.lens.as_ref().and_then(|l| l.readings.first()) {
            let line = &reading.line;
            self.ui.say(format!("lens on {} of {} ({} pixels)", line.name, line.count, line.len));
        }
    }

    /// Opens the lens on line `index` (clamped to the last) of the first lane's lines.
    pub(super) fn open_lens_on_line(&mut self, index: u32) {
        let Some(lane) = self.session.lanes.lanes.first() else { return };
        let size = self.session.picture.pixels.dimensions();
        let line = LensLine::numbered(&lane.lines, size, index);
        self.inspect(line_point(&lane.lines, &line, line.ends[0]));
    }

    /// Up and Down: the lens moves `delta` lines (along the first lane's lines).
    pub(super) fn move_lens(&mut self, delta: i64) {
        let Some(point) = self.lens.as_ref().map(|l| l.point) else {
            self.ui.say("the lens is closed: press L or click a line to open it");
            return;
        };
        let Some(lane) = self.session.lanes.lanes.first() else { return };
        let size = self.session.picture.pixels.dimensions();
        let line = LensLine::through(&lane.lines, size, point).moved(&lane.lines, size, delta);
        self.inspect(line_point(&lane.lines, &line, point));
    }

    /// Reads the inspected line of every lane from the GPU, as the lanes stand now.
    pub(super) fn read_lens(&mut self) {
        let Some(lens) = self.lens.as_mut() else { return };
        let size = self.session.picture.pixels.dimensions();
        lens.readings = self
            .session
            .lanes
            .lanes
            .iter()
            .map(|lane| {
                let line = LensLine::through(&lane.lines, size, lens.point);
                self.lens_probe.read(&self.gpu, &lane.run.lens_view(), &line).map_err(|e| e.to_string())
            })
            .collect();
    }
}

/// A pixel of `line`: for rows and columns the one across from `near`, else the line's first.
fn line_point(lines: &Lines, line: &LensLine, near: (u32, u32)) -> (u32, u32) {
    match lines {
        Lines::Axis(Axis::Rows) => (near.0, line.index),
        Lines::Axis(Axis::Columns) => (line.index, near.1),
        Lines::Angled(_) => line.ends[0],
    }
}
