//! The window's row lens: which line is inspected (the line through a chosen picture pixel,
//! along each lane's direction), read back from every lane's GPU state whenever the lanes or the
//! line change, so it follows every step forward and back. No frame waits for a reading: it
//! comes back through the read-back service and shows a frame or two later, labelled with the
//! step it was read at. While the steps are heard (Shift+M) a closed lens goes on reading, unseen,
//! the line L would open it on: the sound's line.

use super::Running;
use super::lanes::Lane;
use crate::angle::Lines;
use crate::gpu::Gpu;
use crate::gpu::readbacks::Readbacks;
use crate::keys::options::Axis;
use crate::lens::{LensLine, LensProbe, LensRead, LensReading};

/// The row lens: the line inspected while it is open, where it was last, and the kernel that
/// reads lines from the lanes' GPU state.
pub(super) struct Lens {
    /// The lens while it is open.
    open: Option<OpenLens>,
    /// Where the lens last was, to open it there again.
    last_point: Option<(u32, u32)>,
    /// Reads the inspected line from the GPU.
    probe: LensProbe,
    /// Readings that have come back so far: a new one is a step to hear.
    arrivals: u64,
}

/// The lens while it is open.
struct OpenLens {
    /// Whether it is shown (else it reads only for the sound).
    shown: bool,
    /// The picture pixel the inspected line runs through.
    point: (u32, u32),
    /// Per lane, the line as last read, or why it could not be read (`None` until it comes).
    readings: Vec<Option<Result<LensReading, String>>>,
    /// Reads on their way back, by lane.
    readbacks: Readbacks<(usize, LensRead)>,
    /// What the lanes stood at when last read (each lane's run and steps): a frame reads again
    /// only when this changes.
    read_at: Vec<(u32, u32)>,
}

impl Lens {
    /// A closed lens on `gpu`.
    pub(super) fn new(gpu: &Gpu) -> Self {
        Lens { open: None, last_point: None, probe: LensProbe::new(gpu), arrivals: 0 }
    }

    /// The lens while it is shown.
    fn shown(&self) -> Option<&OpenLens> {
        self.open.as_ref().filter(|l| l.shown)
    }

    /// Whether the lens is open.
    pub(super) fn is_open(&self) -> bool {
        self.shown().is_some()
    }

    /// Whether a reading is still on its way (the window keeps drawing until it comes).
    pub(super) fn pending(&self) -> bool {
        self.open.as_ref().is_some_and(|l| l.readbacks.pending() > 0)
    }

    /// The picture pixel the open lens's line runs through.
    pub(super) fn point(&self) -> Option<(u32, u32)> {
        self.shown().map(|l| l.point)
    }

    /// Per lane, the line as last read, while the lens is open.
    pub(super) fn readings(&self) -> Option<&[Option<Result<LensReading, String>>]> {
        self.shown().map(|l| l.readings.as_slice())
    }

    /// How many readings have come back: one more is a step to hear.
    pub(super) fn arrivals(&self) -> u64 {
        self.arrivals
    }

    /// The first lane's line as last read, shown or read for the sound.
    pub(super) fn heard_reading(&self) -> Option<&LensReading> {
        self.open.as_ref()?.readings.first()?.as_ref()?.as_ref().ok()
    }

    /// Closes the lens; whether it was open (shown).
    fn close(&mut self) -> bool {
        let shown = self.is_open();
        if shown {
            self.open = None;
        }
        shown
    }

    /// The picture pixel the sound's line runs through: the lens's, shown or read unseen, else
    /// where L would open it.
    pub(super) fn heard_point(&self, size: (u32, u32)) -> (u32, u32) {
        self.open.as_ref().map_or_else(|| self.reopening_point(size), |l| l.point)
    }

    /// Where L opens the lens: where it last was, or the middle of a `size` picture.
    fn reopening_point(&self, size: (u32, u32)) -> (u32, u32) {
        self.last_point.unwrap_or((size.0 / 2, size.1 / 2))
    }

    /// Opens the lens on the line through pixel `point` (clamped to a `size` picture) of
    /// `lanes`, reads it, and says which line it is.
    fn open_at(&mut self, gpu: &Gpu, lanes: &[Lane], size: (u32, u32), point: (u32, u32)) -> Option<String> {
        let point = (point.0.min(size.0 - 1), point.1.min(size.1 - 1));
        self.last_point = Some(point);
        self.open = Some(OpenLens {
            shown: true,
            point,
            readings: Vec::new(),
            readbacks: Readbacks::default(),
            read_at: Vec::new(),
        });
        self.read(gpu, lanes, size, false);
        let lane = lanes.first()?;
        let line = LensLine::through(&lane.lines, size, point);
        Some(format!("lens on {} of {} ({} pixels)", line.name, line.count, line.len))
    }

    /// Takes the readings that came back, then, where the lanes or the line changed since the
    /// last read and no read is under way, encodes reading the inspected line of every lane as
    /// the lanes stand now, in one submission. `listening`: a closed lens reads its line unseen
    /// (the sound's), and stops once it is not.
    pub(super) fn read(&mut self, gpu: &Gpu, lanes: &[Lane], size: (u32, u32), listening: bool) {
        match &self.open {
            None if listening => {
                let point = self.reopening_point(size);
                let point = (point.0.min(size.0 - 1), point.1.min(size.1 - 1));
                self.open = Some(OpenLens {
                    shown: false,
                    point,
                    readings: Vec::new(),
                    readbacks: Readbacks::default(),
                    read_at: Vec::new(),
                });
            }
            Some(lens) if !lens.shown && !listening => self.open = None,
            _ => {}
        }
        let Some(lens) = self.open.as_mut() else { return };
        lens.readings.resize(lanes.len(), None);
        let readings = &mut lens.readings;
        let arrivals = &mut self.arrivals;
        let taken = lens.readbacks.take_ready(gpu, |(lane, read), bytes| {
            if let Some(slot) = readings.get_mut(lane) {
                *slot = Some(Ok(read.reading(bytes)));
                *arrivals += u64::from(lane == 0);
            }
        });
        if let Err(e) = taken {
            lens.readings.iter_mut().for_each(|r| *r = Some(Err(e.to_string())));
        }
        let now: Vec<(u32, u32)> = lanes.iter().map(|l| (l.generation(), l.run.steps_done())).collect();
        if lens.readbacks.pending() > 0 || lens.read_at == now {
            return;
        }
        let mut encoder =
            gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("lens::read") });
        for (index, lane) in lanes.iter().enumerate() {
            let line = LensLine::through(&lane.lines, size, lens.point);
            let view = lane.run.lens_view();
            let bytes = self.probe.read_bytes(&view, &line);
            let staging = lens.readbacks.staging_for(gpu, bytes);
            let read = self.probe.encode(gpu, &mut encoder, &view, &line, &staging);
            lens.readbacks.push(staging, bytes, (index, read));
        }
        gpu.queue.submit([encoder.finish()]);
        lens.readbacks.submitted();
        lens.read_at = now;
    }
}

impl Running {
    /// L: opens the lens on the line through the middle of the picture (or where it was), or
    /// closes it.
    pub(super) fn toggle_lens(&mut self) {
        if self.lens.close() {
            self.ui.status.say("lens closed");
        } else {
            self.inspect(self.lens.reopening_point(self.session.picture.pixels.dimensions()));
        }
    }

    /// Opens the lens on the line through picture pixel `point`.
    pub(super) fn inspect(&mut self, point: (u32, u32)) {
        let size = self.session.picture.pixels.dimensions();
        if let Some(line) = self.lens.open_at(&self.gpu, &self.session.lanes.lanes, size, point) {
            self.ui.status.say(line);
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
        let Some(point) = self.lens.point() else {
            self.ui.status.say("the lens is closed: press L or click a line to open it");
            return;
        };
        let Some(lane) = self.session.lanes.lanes.first() else { return };
        let size = self.session.picture.pixels.dimensions();
        let line = LensLine::through(&lane.lines, size, point).moved(&lane.lines, size, delta);
        self.inspect(line_point(&lane.lines, &line, point));
    }

    /// The lens's reading of this frame's lanes.
    pub(super) fn read_lens(&mut self) {
        let size = self.session.picture.pixels.dimensions();
        self.lens.read(&self.gpu, &self.session.lanes.lanes, size, self.sound.on());
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
