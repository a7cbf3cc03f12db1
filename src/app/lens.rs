//! The window's row lens: which line is inspected (the line through a chosen picture pixel,
//! along each lane's direction), read back from every lane's GPU state whenever the lanes or the
//! line change, so it follows every step forward and back. No frame waits for a reading: it
//! comes back through the read-back service and shows a frame or two later, labelled with the
//! step it was read at.

use super::Running;
use crate::angle::Lines;
use crate::gpu::readbacks::Readbacks;
use crate::keys::options::Axis;
use crate::lens::{LensLine, LensRead, LensReading};

/// The lens while it is open.
pub struct WindowLens {
    /// The picture pixel the inspected line runs through.
    pub point: (u32, u32),
    /// Per lane, the line as last read, or why it could not be read (`None` until it comes).
    pub readings: Vec<Option<Result<LensReading, String>>>,
    /// Reads on their way back, by lane.
    readbacks: Readbacks<(usize, LensRead)>,
    /// What the lanes stood at when last read (each lane's run and steps): a frame reads again
    /// only when this changes.
    read_at: Vec<(u32, u32)>,
}

impl WindowLens {
    /// Whether a reading is still on its way (the window keeps drawing until it comes).
    pub fn pending(&self) -> bool {
        self.readbacks.pending() > 0
    }
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
        self.lens = Some(WindowLens {
            point,
            readings: Vec::new(),
            readbacks: Readbacks::default(),
            read_at: Vec::new(),
        });
        self.read_lens();
        if let Some(lane) = self.session.lanes.lanes.first() {
            let line = LensLine::through(&lane.lines, (w, h), point);
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

    /// Takes the readings that came back, then, where the lanes or the line changed since the
    /// last read and no read is under way, encodes reading the inspected line of every lane as
    /// the lanes stand now, in one submission.
    pub(super) fn read_lens(&mut self) {
        let Some(lens) = self.lens.as_mut() else { return };
        let lanes = &self.session.lanes.lanes;
        lens.readings.resize(lanes.len(), None);
        let readings = &mut lens.readings;
        let taken = lens.readbacks.take_ready(&self.gpu, |(lane, read), bytes| {
            if let Some(slot) = readings.get_mut(lane) {
                *slot = Some(Ok(read.reading(bytes)));
            }
        });
        if let Err(e) = taken {
            lens.readings.iter_mut().for_each(|r| *r = Some(Err(e.to_string())));
        }
        let now: Vec<(u32, u32)> = lanes.iter().map(|l| (l.generation(), l.run.steps_done())).collect();
        if lens.pending() || lens.read_at == now {
            return;
        }
        let size = self.session.picture.pixels.dimensions();
        let mut encoder = self
            .gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("lens::read") });
        for (index, lane) in lanes.iter().enumerate() {
            let line = LensLine::through(&lane.lines, size, lens.point);
            let view = lane.run.lens_view();
            let bytes = self.lens_probe.read_bytes(&view, &line);
            let staging = lens.readbacks.staging_for(&self.gpu, bytes);
            let read = self.lens_probe.encode(&self.gpu, &mut encoder, &view, &line, &staging);
            lens.readbacks.push(staging, bytes, (index, read));
        }
        self.gpu.queue.submit([encoder.finish()]);
        lens.readbacks.submitted();
        lens.read_at = now;
    }
}

/// A pixel of `line`: for rows and columns the one across from `near`, else the line's first.
fn line_point(lines: &Lines, line: &LensLine, near: (u32, u32)) -> (u32, u32) {
    match lines {
        Lines::Axis(Axis::Rows) => (near.0, line.index),
        Lines::Axis(Axis::Columns) => (line.index, near.1),
        Lines::Laid(_) => line.ends[0],
    }
}
