//! A batch's readers: each takes the next input, decodes it, fits it to the device, finds its
//! lines and starts its sort (the upload, and the intervals found on the GPU where it can find
//! them, else on the CPU here), so the GPU's own thread only submits.

use super::inputs::Kind;
use super::outcomes::{Outcome, Report};
use super::stages::Shared;
use crate::algorithms::SortRun;
use crate::algorithms::ping_pong::StartPicture;
use crate::angle::Lines;
use crate::media::Sorter;
use crate::picture::input::{Picture, SizeLimit};
use crate::picture::still_format::StillFormat;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{Sender, SyncSender};

/// A picture's sort, started on the GPU.
pub(super) struct Started {
    pub(super) index: usize,
    pub(super) has_alpha: bool,
    pub(super) format: StillFormat,
    pub(super) run: Box<dyn SortRun>,
}

/// What the GPU's thread is handed: a picture's sort to submit, or a clip to sort through the
/// clip pipeline (which reads and writes it itself).
pub(super) enum ForGpu {
    Still(Started),
    Clip(usize),
}

/// A reader: takes the next job until none is left, and hands the GPU its picture's sort (or
/// its clip); an input that cannot be read or started is reported skipped.
pub(super) fn read_all(shared: &Shared<'_>, to_gpu: &SyncSender<ForGpu>, done: &Sender<Report>) {
    let (batch, jobs) = (shared.batch, shared.batch.jobs);
    loop {
        let index = shared.next.fetch_add(1, Ordering::SeqCst);
        let Some(job) = jobs.get(index) else { return };
        if shared.stopped() {
            return;
        }
        let format = match &job.kind {
            Err(why) => {
                let _ = done.send(Report::Done(index, Outcome::Skipped(why.clone())));
                continue;
            }
            Ok(_) if job.output.exists() && !batch.batch.overwrite => {
                let _ = done.send(Report::Done(index, Outcome::Kept));
                continue;
            }
            Ok(Kind::Clip) => {
                if to_gpu.send(ForGpu::Clip(index)).is_err() {
                    return;
                }
                continue;
            }
            Ok(Kind::Still(format)) => *format,
        };
        if !shared.room.enter() {
            return;
        }
        match start(shared, index, format, done) {
            Ok(started) => {
                if to_gpu.send(ForGpu::Still(started)).is_err() {
                    shared.room.leave();
                    return;
                }
            }
            Err(why) => {
                shared.room.leave();
                // No GPU: the batch stops, and the inputs left are left undone.
                if shared.engine().is_none() {
                    return;
                }
                let _ = done.send(Report::Done(index, Outcome::Skipped(why)));
            }
        }
    }
}

/// Reads input `index`, fits it to the device and starts its sort; notes go to `done`.
fn start(
    shared: &Shared<'_>,
    index: usize,
    format: StillFormat,
    done: &Sender<Report>,
) -> Result<Started, String> {
    let batch = shared.batch;
    let settings = batch.settings;
    let note = |report: Report| {
        let _ = done.send(report);
    };
    let picture = Picture::load(&batch.jobs[index].input).map_err(|e| e.to_string())?;
    let Some(engine) = shared.engine() else { return Err(String::new()) };
    let side = engine.gpu().device.limits().max_texture_dimension_2d;
    let limit = SizeLimit::new(side, settings.max_size, !settings.no_downscale);
    let (picture, downscaled) = picture.fit(&limit).map_err(|e| e.to_string())?;
    picture.note.clone().map(Report::Note).map(note);
    downscaled.map(Report::Downscaled).map(note);
    let size = picture.pixels.dimensions();
    let lines = Lines::of(settings.route(), size, side).map_err(|e| e.to_string())?;
    let (sorter, end_note) = Sorter::for_frames(engine, settings, lines, size);
    end_note.map(Report::Note).map(note);
    let mask = batch.mask.map(|m| if m.dimensions() == size { m.clone() } else { m.resized(size.0, size.1) });
    let found = match settings.uses_intervals() {
        true => sorter.gpu_intervals(&settings.intervals, mask.as_ref(), size),
        false => None,
    };
    let (run, notice) = match found {
        // The GPU finds the intervals from the picture it sorts.
        Some(found) => sorter.start_on_gpu(StartPicture::Image(&picture.pixels), sorter.run, Some(found)),
        None => {
            let intervals = sorter
                .interval_map(&picture.pixels, mask.as_ref())
                .map_err(|e| crate::progress::error_line(&e))?;
            sorter.start(&picture.pixels, sorter.run, intervals.as_ref())
        }
    };
    notice.map(|n| Report::Note(format!("note: {n}"))).map(note);
    Ok(Started { index, has_alpha: picture.has_alpha, format, run })
}
