//! A batch as a pipeline: readers decode pictures and find their lines and intervals on the
//! CPU's cores, one thread sorts them on the GPU (and each clip through the clip pipeline),
//! writers encode and write them on the cores; at most [`in_flight`] pictures exist at once
//! however many inputs there are.

use super::gate::{Gate, Latch};
use super::inputs::{Job, Kind};
use super::tally::{Outcome, Report, Tally};
use crate::angle::Lines;
use crate::engine::Engine;
use crate::engine::drive::Driver;
use crate::gpu::readback::{PendingRead, read_texture, start_read};
use crate::interrupt;
use crate::intervals::{IntervalError, IntervalMap, Mask};
use crate::media::Sorter;
use crate::picture::input::{Picture, SizeLimit};
use crate::picture::output::OutputFile;
use crate::picture::still_format::{EncodeOptions, StillFormat};
use crate::settings::{BatchSettings, Settings};
use anyhow::Context;
use image::RgbaImage;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, Sender, SyncSender, channel, sync_channel};

/// Pictures at most in memory at once: one being read or written on each core, and two more
/// so the GPU always has the next one ready.
pub fn in_flight(cores: usize) -> usize {
    cores + 2
}

/// A picture read, with its lines and intervals, for the GPU.
struct Read {
    index: usize,
    picture: Picture,
    format: StillFormat,
    lines: Lines,
    intervals: Result<Option<IntervalMap>, IntervalError>,
}

/// What the GPU's thread is handed: a picture to sort, or a clip to sort through the clip
/// pipeline (which reads and writes it itself).
enum ForGpu {
    Still(Box<Read>),
    Clip(usize),
}

/// A picture sorted, for the writers.
struct Sorted {
    index: usize,
    pixels: RgbaImage,
    has_alpha: bool,
    format: StillFormat,
}

/// What the stages share: the jobs, the settings, and the signals between them.
struct Shared<'a> {
    jobs: &'a [Job],
    settings: &'a Settings,
    batch: &'a BatchSettings,
    mask: Option<&'a Mask>,
    /// The next job a reader takes.
    next: AtomicUsize,
    /// Pictures that may still be made (taken by a reader, given back by a writer).
    room: Gate,
    /// The device's largest texture side, once open (`None`: it could not be opened).
    side: Latch<Option<u32>>,
    /// Set when the run stops early (a signal, the GPU lost): the stages finish what they hold.
    stop: AtomicBool,
}

/// Runs the batch, each input's outcome taken by `tally`: returns the adapter's name, or the
/// error that stopped the GPU (the inputs not done then are counted as left undone).
pub fn run(
    settings: &Settings,
    batch: &BatchSettings,
    jobs: &[Job],
    mask: Option<&Mask>,
    opening: super::super::opening::Opening,
    tally: &mut Tally,
) -> anyhow::Result<String> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let workers = cores.min(jobs.len()).max(1);
    let shared = Shared {
        jobs,
        settings,
        batch,
        mask,
        next: AtomicUsize::new(0),
        room: Gate::new(in_flight(cores)),
        side: Latch::default(),
        stop: AtomicBool::new(false),
    };
    // One picture written per core: each PNG on one thread, unless there are fewer pictures.
    let threads = (cores / jobs.len()).max(1);
    let (done, reports) = channel::<Report>();
    let (to_gpu, for_gpu) = sync_channel::<ForGpu>(2);
    let (to_writers, for_writers) = sync_channel::<Sorted>(2);
    let for_writers = Mutex::new(for_writers);
    std::thread::scope(|scope| {
        let shared = &shared;
        for k in 0..workers {
            let (to_gpu, done) = (to_gpu.clone(), done.clone());
            let name = format!("batch-read-{k}");
            std::thread::Builder::new()
                .name(name)
                .spawn_scoped(scope, move || read_all(shared, &to_gpu, &done))
                .expect("a thread to read pictures");
        }
        drop(to_gpu);
        let gpu_done = done.clone();
        let gpu = std::thread::Builder::new()
            .name("batch-gpu".into())
            .spawn_scoped(scope, move || sort_all(shared, opening, &for_gpu, to_writers, &gpu_done))
            .expect("a thread to sort on the GPU");
        for k in 0..workers {
            let (for_writers, done) = (&for_writers, done.clone());
            std::thread::Builder::new()
                .name(format!("batch-write-{k}"))
                .spawn_scoped(scope, move || write_all(shared, for_writers, threads, &done))
                .expect("a thread to write pictures");
        }
        drop(done);
        for report in reports {
            tally.take(report);
            if interrupt::check().is_err() {
                shared.halt();
            }
        }
        gpu.join().unwrap_or_else(|_| Err(anyhow::anyhow!("the GPU's thread panicked")))
    })
}

impl Shared<'_> {
    /// Stops every stage: readers take no more jobs, the gate and the latch let go.
    fn halt(&self) {
        self.stop.store(true, Ordering::SeqCst);
        self.room.close();
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::SeqCst) || interrupt::check().is_err()
    }
}

/// A reader: takes the next job until none is left, reads its picture, waits for the device's
/// limits, fits the picture to them and finds its lines and intervals.
fn read_all(shared: &Shared<'_>, to_gpu: &SyncSender<ForGpu>, done: &Sender<Report>) {
    let (settings, jobs) = (shared.settings, shared.jobs);
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
            Ok(_) if job.output.exists() && !shared.batch.overwrite => {
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
        let read = Picture::load(&job.input).map_err(|e| e.to_string()).and_then(|picture| {
            let Some(side) = shared.side.wait() else { return Err(String::new()) };
            let limit = SizeLimit::new(side, settings.max_size, !settings.no_downscale);
            let (picture, downscaled) = picture.fit(&limit).map_err(|e| e.to_string())?;
            if let Some(note) = picture.note.clone() {
                let _ = done.send(Report::Note(note));
            }
            if let Some(note) = downscaled {
                let _ = done.send(Report::Downscaled(note));
            }
            let size = picture.pixels.dimensions();
            let lines = Lines::of(settings.route(), size, side).map_err(|e| e.to_string())?;
            let mask = shared
                .mask
                .map(|m| if m.dimensions() == size { m.clone() } else { m.resized(size.0, size.1) });
            let intervals = match settings.uses_intervals() {
                true => lines.intervals(&picture.pixels, &settings.intervals, mask.as_ref()),
                false => Ok(None),
            };
            Ok(Read { index, picture, format, lines, intervals })
        });
        match read {
            Ok(read) => {
                if to_gpu.send(ForGpu::Still(Box::new(read))).is_err() {
                    shared.room.leave();
                    return;
                }
            }
            Err(why) => {
                shared.room.leave();
                if shared.side.wait().is_none() {
                    return;
                }
                let _ = done.send(Report::Done(index, Outcome::Skipped(why)));
            }
        }
    }
}

/// A picture's sort submitted, its copy to the CPU under way.
struct Submitted {
    index: usize,
    has_alpha: bool,
    format: StillFormat,
    read: Readback,
}

/// A picture on its way back: a copy under way, or (too large for one staging buffer) read.
enum Readback {
    Pending(PendingRead),
    Ready(RgbaImage),
}

/// The GPU's thread: opens the engine, then submits each picture's sort and its copy back
/// without waiting for them, while a thread of its own waits for each copy and hands the
/// picture to the writers (so the GPU sorts the next picture meanwhile); each clip goes through
/// the clip pipeline. An error of the GPU itself stops the batch.
fn sort_all(
    shared: &Shared<'_>,
    opening: super::super::opening::Opening,
    for_gpu: &Receiver<ForGpu>,
    to_writers: SyncSender<Sorted>,
    done: &Sender<Report>,
) -> anyhow::Result<String> {
    let engine = match opening.wait() {
        Ok(engine) => engine,
        Err(e) => {
            shared.side.set(None);
            shared.halt();
            return Err(e);
        }
    };
    let gpu = engine.gpu();
    shared.side.set(Some(gpu.device.limits().max_texture_dimension_2d));
    // Pictures of one size (a camera's) take the buffers of the runs before.
    gpu.keep_spares(true);
    let (to_reader, for_reader) = sync_channel::<Submitted>(1);
    let (spare_in, spare) = channel::<wgpu::Buffer>();
    let sorted = std::thread::scope(|scope| {
        let reader = std::thread::Builder::new()
            .name("batch-readback".into())
            .spawn_scoped(scope, move || read_back_all(shared, gpu, &for_reader, &to_writers, &spare_in))
            .expect("a thread to read pictures back");
        let submitted = submit_all(shared, &engine, for_gpu, &to_reader, &spare, done);
        drop(to_reader);
        let read = reader.join().unwrap_or_else(|_| Err(anyhow::anyhow!("the readback thread panicked")));
        submitted.and(read)
    });
    if sorted.is_err() {
        shared.halt();
    }
    sorted?;
    gpu.save_pipeline_cache();
    Ok(gpu.describe())
}

/// Submits each picture's sort and the copy of its result, and sorts each clip.
fn submit_all(
    shared: &Shared<'_>,
    engine: &Engine,
    for_gpu: &Receiver<ForGpu>,
    to_reader: &SyncSender<Submitted>,
    spare: &Receiver<wgpu::Buffer>,
    done: &Sender<Report>,
) -> anyhow::Result<()> {
    let gpu = engine.gpu();
    let note = |text: Option<String>| {
        if let Some(text) = text {
            let _ = done.send(Report::Note(text));
        }
    };
    for item in for_gpu {
        if shared.stopped() {
            shared.halt();
            return Ok(());
        }
        let Read { index, picture, format, lines, intervals } = match item {
            ForGpu::Clip(index) => {
                let outcome = sort_clip(shared, engine, &shared.jobs[index]);
                let _ = done.send(Report::Done(index, outcome));
                continue;
            }
            ForGpu::Still(read) => *read,
        };
        let size = picture.pixels.dimensions();
        let (sorter, end_note) = Sorter::for_frames(engine, shared.settings, lines, size);
        note(end_note);
        let intervals = match intervals.map_err(anyhow::Error::from).and_then(|i| sorter.checked(i)) {
            Ok(intervals) => intervals,
            Err(e) => {
                shared.room.leave();
                let _ = done.send(Report::Done(index, Outcome::Skipped(crate::progress::error_line(&e))));
                continue;
            }
        };
        let (mut run, notice) = sorter.start(&picture.pixels, sorter.run, intervals.as_ref());
        note(notice.map(|n| format!("note: {n}")));
        let steps = shared.settings.steps.unwrap_or(run.total_steps()).min(run.total_steps());
        let failed = "sorting on the GPU failed";
        Driver::new(run.as_ref()).submit_to(gpu, run.as_mut(), steps).context(failed)?;
        // The run's textures stay alive on the GPU until the copy has been made.
        let read = match start_read(gpu, run.state(), spare.try_recv().ok()) {
            Some(pending) => Readback::Pending(pending),
            None => Readback::Ready(read_texture(gpu, run.state()).context(failed)?),
        };
        if to_reader.send(Submitted { index, has_alpha: picture.has_alpha, format, read }).is_err() {
            return Ok(());
        }
    }
    Ok(())
}

/// The readback thread: waits for each picture's copy and hands the picture to the writers,
/// its staging buffer back for the next copy.
fn read_back_all(
    shared: &Shared<'_>,
    gpu: &crate::gpu::Gpu,
    for_reader: &Receiver<Submitted>,
    to_writers: &SyncSender<Sorted>,
    spare_in: &Sender<wgpu::Buffer>,
) -> anyhow::Result<()> {
    for Submitted { index, has_alpha, format, read } in for_reader {
        let pixels = match read {
            Readback::Ready(pixels) => pixels,
            Readback::Pending(pending) => {
                let (pixels, staging) =
                    pending.finish(gpu).context("reading the sorted picture back from the GPU failed")?;
                let _ = spare_in.send(staging);
                pixels
            }
        };
        if shared.stopped() || to_writers.send(Sorted { index, pixels, has_alpha, format }).is_err() {
            return Ok(());
        }
    }
    Ok(())
}

/// A clip of the batch sorted into its output on the engine, through the clip pipeline.
fn sort_clip(shared: &Shared<'_>, engine: &Engine, job: &Job) -> Outcome {
    let settings = Settings {
        image: Some(job.input.clone()),
        out: Some(job.output.clone()),
        clip: true,
        batch: None,
        ..shared.settings.clone()
    };
    let watch = crate::media::ClipWatch { quiet: true, ..Default::default() };
    let made = create_parent(&job.output)
        .and_then(|()| crate::media::sort_clip_on(engine, &settings, &job.input, &watch));
    match made {
        Ok(_) => Outcome::Written { clip: true },
        Err(e) => Outcome::Skipped(crate::progress::error_line(&e)),
    }
}

/// A writer: encodes each sorted picture in its format and writes it (a temporary file renamed
/// into place), then makes room for the next picture.
fn write_all(
    shared: &Shared<'_>,
    for_writers: &Mutex<Receiver<Sorted>>,
    threads: usize,
    done: &Sender<Report>,
) {
    let s = shared.settings;
    let options = EncodeOptions {
        quality: shared.batch.quality,
        background: s.record.background,
        png: s.png_compression,
        threads,
    };
    loop {
        let next = for_writers.lock().unwrap_or_else(|p| p.into_inner()).recv();
        let Ok(Sorted { index, pixels, has_alpha, format }) = next else { return };
        let output = &shared.jobs[index].output;
        let encoded = format.encode(&pixels, has_alpha, &options);
        drop(pixels);
        shared.room.leave();
        // After a signal nothing more is written: the files finished stay, this one never starts.
        if shared.stopped() {
            return;
        }
        let written = create_parent(output).and_then(|()| {
            let file = OutputFile::prepare_any_extension(output)?;
            Ok(file.write_encoded(encoded)?)
        });
        let outcome = match written {
            Ok(_) => Outcome::Written { clip: false },
            Err(e) => Outcome::Skipped(crate::progress::error_line(&e)),
        };
        let _ = done.send(Report::Done(index, outcome));
    }
}

/// Makes the folders an output goes in (a batch's `--recursive` keeps its inputs' folders).
fn create_parent(output: &std::path::Path) -> anyhow::Result<()> {
    let Some(parent) = output.parent() else { return Ok(()) };
    std::fs::create_dir_all(parent).map_err(|e| {
        anyhow::anyhow!(
            "cannot create the folder '{}': {e}; check that --out's folder is writable",
            parent.display()
        )
    })
}
