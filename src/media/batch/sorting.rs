//! A batch's GPU thread: opens the engine, submits each picture's sort and the copy of its
//! result without waiting for either, while a readback thread of its own waits for each copy
//! and hands the picture to the writers (so the GPU sorts the next picture meanwhile); each clip
//! goes through the clip pipeline on the same engine.

use super::inputs::Job;
use super::outcomes::{Outcome, Report};
use super::reader::{ForGpu, Started};
use super::stages::{Shared, Sorted, create_parent};
use crate::engine::Engine;
use crate::engine::drive::Driver;
use crate::gpu::Gpu;
use crate::gpu::readback::{PendingRead, read_texture, start_read};
use crate::picture::still_format::StillFormat;
use crate::settings::Settings;
use anyhow::Context;
use image::RgbaImage;
use std::sync::mpsc::{Receiver, Sender, SyncSender, channel, sync_channel};

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

/// Opens the engine with `open`, then sorts what the readers hand over; an error of the GPU
/// itself stops the batch. Returns the adapter's name.
pub(super) fn sort_all(
    shared: &Shared<'_>,
    open: impl FnOnce() -> anyhow::Result<Engine>,
    for_gpu: &Receiver<ForGpu>,
    to_writers: SyncSender<Sorted>,
    done: &Sender<Report>,
) -> anyhow::Result<String> {
    let engine = match open() {
        Ok(engine) => shared.engine.get_or_init(|| engine),
        Err(e) => {
            shared.opened.set(false);
            shared.halt();
            return Err(e);
        }
    };
    let gpu = engine.gpu();
    // Pictures of one size (a camera's) take the buffers of the runs before.
    gpu.keep_spares(true);
    shared.opened.set(true);
    let (to_reader, for_reader) = sync_channel::<Submitted>(1);
    let (spare_in, spare) = channel::<wgpu::Buffer>();
    let sorted = std::thread::scope(|scope| {
        let reader = std::thread::Builder::new()
            .name("batch-readback".into())
            .spawn_scoped(scope, move || read_back_all(shared, gpu, &for_reader, &to_writers, &spare_in))
            .expect("a thread to read pictures back");
        let submitted = submit_all(shared, engine, for_gpu, &to_reader, &spare, done);
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
    for item in for_gpu {
        if shared.stopped() {
            shared.halt();
            return Ok(());
        }
        let Started { index, has_alpha, format, mut run } = match item {
            ForGpu::Clip(index) => {
                let outcome = sort_clip(shared, engine, &shared.batch.jobs[index]);
                // A clip stopped halfway left nothing: it is left undone, not skipped.
                if !shared.stopped() {
                    let _ = done.send(Report::Done(index, outcome));
                }
                continue;
            }
            ForGpu::Still(started) => started,
        };
        let steps = shared.batch.settings.steps.unwrap_or(run.total_steps()).min(run.total_steps());
        let failed = "sorting on the GPU failed";
        Driver::new(run.as_ref()).submit_to(gpu, run.as_mut(), steps).context(failed)?;
        // The run's textures stay alive on the GPU until the copy has been made.
        let read = match start_read(gpu, run.state(), spare.try_recv().ok()) {
            Some(pending) => Readback::Pending(pending),
            None => Readback::Ready(read_texture(gpu, run.state()).context(failed)?),
        };
        if to_reader.send(Submitted { index, has_alpha, format, read }).is_err() {
            return Ok(());
        }
    }
    Ok(())
}

/// The readback thread: waits for each picture's copy and hands the picture to the writers,
/// its staging buffer back for the next copy.
fn read_back_all(
    shared: &Shared<'_>,
    gpu: &Gpu,
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
        ..shared.batch.settings.clone()
    };
    let cancel = shared.batch.cancel.clone();
    let watch = crate::media::ClipWatch { quiet: true, cancel, ..Default::default() };
    let made = create_parent(&job.output)
        .and_then(|()| crate::media::sort_clip_on(engine, &settings, &job.input, &watch));
    match made {
        Ok(_) => Outcome::Written { clip: true },
        Err(e) => Outcome::Skipped(crate::progress::error_line(&e)),
    }
}
