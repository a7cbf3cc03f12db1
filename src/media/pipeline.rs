//! The threads a clip's frames pass through: decoding, intervals, GPU sort, readback, encoding.

use super::ClipWatch;
use super::error::ClipError;
use super::feed::{ClipFeed, Feed, FrameTag, KeepTime};
use super::prepare::{self, FramePreparer};
use super::probe::ClipInfo;
use super::sink::{ClipSink, SortedFrame};
use super::source::FrameSource;
use super::stages::Stage;
use crate::engine::yuv420::{PendingPlanes, Yuv420Writer};
use crate::gpu::readback::{PendingRead, read_texture, start_read};
use crate::interrupt;
use crate::intervals::Mask;
use crate::intervals::threshold::ThresholdSweep;
use crate::media::Sorter;
use crate::picture::yuv;
use crate::progress::Progress;
use crate::settings::Settings;
use anyhow::Context;
use image::RgbaImage;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, mpsc};
use std::time::Instant;

/// Where the frames come from.
pub(super) enum Incoming {
    /// A clip: every frame, decoded on a thread of the pipeline's own.
    Clip(FrameSource),
    /// A live source's frames, as its feed hands them over.
    Live(Arc<dyn Feed>),
}

/// What the sorting thread hands the encoding thread.
enum ToSink {
    /// A sorted frame and its number among the frames the source sent.
    Frame(u64, SortedFrame),
    /// Every frame was sent: finish the file.
    End,
}

/// A decoded frame on the GPU within its intervals, ready to sort, and the run's notice (or an
/// error that ends the clip).
type Prepared = (FrameTag, anyhow::Result<prepare::Started>);

/// Decodes, finds intervals, sorts and encodes every frame, a few frames queued between the stages;
/// frames go to `sink` as RGBA, or as 4:2:0 of the matrix given with it. A frame the source sent
/// but the sort dropped (a live source's) is the sorted frame before it again in the sink, so
/// that the output keeps the source's time. Returns where the frames went and how many.
pub(super) fn pipeline(
    sorter: &Sorter<'_>,
    settings: &Settings,
    info: &ClipInfo,
    mask: Option<&Mask>,
    (incoming, spares): (Incoming, mpsc::Sender<Vec<u8>>),
    (mut sink, yuv420): (ClipSink, Option<yuv::Matrix>),
    watch: &ClipWatch,
) -> anyhow::Result<(PathBuf, u64)> {
    let (frames_in, decoded) = mpsc::sync_channel(2);
    let (sorted, frames_out) = mpsc::sync_channel::<ToSink>(2);
    // Workers find each frame's intervals (on the CPU that takes longer than the GPU's sort) and
    // start its run: the upload and what the algorithm prepares on the CPU, off the thread that
    // sorts. Whole lines need no intervals, so fewer workers keep up.
    let most = if settings.uses_intervals() || settings.sweep.is_some() { 8 } else { 3 };
    // A live source's frames are taken as late as they can be: one worker, which takes the
    // newest frame once the sort took the last one, so no frame waits behind others.
    let live = matches!(incoming, Incoming::Live(_));
    let workers =
        if live { 1 } else { std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(1, most) };
    // Each prepared frame holds its textures on the GPU: a few wait, not the whole clip.
    let (prepared_in, prepared) = mpsc::sync_channel::<(usize, Prepared)>(if live { 0 } else { workers });
    let run_settings = sorter.run;
    // Shared by the workers; dropped with the last of them, which ends a clip's decoder too.
    let (feed, source): (Arc<dyn Feed>, _) = match incoming {
        Incoming::Clip(source) => (Arc::new(ClipFeed::new(decoded)), Some(source)),
        Incoming::Live(feed) => (feed, None),
    };
    let sweep = settings
        .sweep
        .map(|s| ThresholdSweep::new(s.from, s.to, info.frames.clamp(2, u64::from(u32::MAX)) as u32));
    // A 4:2:0 frame whose intervals the GPU finds itself, or that has none, is converted there.
    let reader = info.yuv420.as_ref().map(|_| sorter.engine.yuv420_reader());
    let preparer = FramePreparer {
        sorter,
        settings,
        run_settings,
        sweep,
        mask,
        reader,
        stages: &watch.stages,
        converted: Mutex::new(Vec::new()),
    };
    let preparer = &preparer;
    std::thread::scope(|scope| {
        if let Some(mut source) = source {
            std::thread::Builder::new()
                .name("clip-decoder".into())
                .spawn_scoped(scope, move || {
                    while let Some(frame) = watch.stages.time(Stage::Decode, || source.next_frame()) {
                        let failed = frame.is_err();
                        if frames_in.send((Instant::now(), frame)).is_err() || failed {
                            break;
                        }
                    }
                })
                .map_err(ClipError::Thread)?;
        }
        for worker in 0..workers {
            let (feed, prepared_in, spares) = (feed.clone(), prepared_in.clone(), spares.clone());
            std::thread::Builder::new()
                .name(format!("clip-prepare-{worker}"))
                .spawn_scoped(scope, move || {
                    while let Some((order, arrived)) = feed.next() {
                        let ready = arrived
                            .frame
                            .map_err(anyhow::Error::from)
                            .and_then(|frame| preparer.prepare(order, frame, &spares));
                        let failed = ready.is_err();
                        if prepared_in.send((order, (arrived.tag, ready))).is_err() || failed {
                            break;
                        }
                    }
                })
                .map_err(ClipError::Thread)?;
        }
        drop((feed, prepared_in, spares));
        let encoder = std::thread::Builder::new()
            .name("clip-encoder".into())
            .spawn_scoped(scope, move || -> Result<Option<(PathBuf, u64)>, ClipError> {
                let mut time = KeepTime::default();
                for message in frames_out {
                    match message {
                        ToSink::Frame(arrival, frame) => watch
                            .stages
                            .time(Stage::Sink, || time.push(arrival, frame, |frame| sink.push(frame)))?,
                        // A signal during the last frames still leaves nothing.
                        ToSink::End if watch.check().is_err() => return Ok(None),
                        ToSink::End => return sink.finish().map(|path| Some((path, time.written()))),
                    }
                }
                // The sorting thread stopped early: the sink is dropped, leaving nothing.
                Ok(None)
            })
            .map_err(ClipError::Thread)?;
        let sorting = sort_frames(sorter, settings, info, (in_order(prepared), yuv420), &sorted, watch);
        if sorting.is_ok() {
            let _ = sorted.send(ToSink::End);
        }
        drop(sorted);
        let encoded = encoder.join().expect("the encoder thread does not panic");
        // The encoder's own failure explains a refused frame better than the refusal does.
        match (sorting, encoded) {
            (_, Err(e)) => Err(e.into()),
            (Err(e), Ok(_)) => Err(e),
            (Ok(()), Ok(Some(done))) => Ok(done),
            (Ok(()), Ok(None)) => Err(watch.check().err().unwrap_or_else(interrupt::Interrupted::now).into()),
        }
    })
}

/// The frames as the workers prepared them, put back in clip order.
fn in_order(prepared: mpsc::Receiver<(usize, Prepared)>) -> impl Iterator<Item = Prepared> {
    let mut waiting = std::collections::BTreeMap::new();
    let mut next = 0;
    let mut arrivals = prepared.into_iter();
    std::iter::from_fn(move || {
        loop {
            if let Some(ready) = waiting.remove(&next) {
                next += 1;
                return Some(ready);
            }
            let (index, ready) = arrivals.next()?;
            waiting.insert(index, ready);
        }
    })
}

/// A sorted frame on its way back from the GPU.
enum Readback {
    /// Copied into a staging buffer, the copy not yet waited for.
    Pending(PendingRead),
    /// Converted to 4:2:0 and copied into a staging buffer, the copy not yet waited for.
    Planes(PendingPlanes),
    /// Read already (a frame too large for one staging buffer is read in bands at once).
    Ready(RgbaImage),
}

/// Sorts each prepared frame and hands it on (as 4:2:0 of the matrix given with the frames, or
/// RGBA), with progress; stops at the first error or signal. Each frame's readback is waited for
/// on a thread of its own, so the GPU sorts the next frame while the last one is copied out: two
/// frames in flight, their staging buffers used again.
fn sort_frames(
    sorter: &Sorter<'_>,
    settings: &Settings,
    info: &ClipInfo,
    (prepared, yuv420): (impl Iterator<Item = Prepared>, Option<yuv::Matrix>),
    sorted: &mpsc::SyncSender<ToSink>,
    watch: &ClipWatch,
) -> anyhow::Result<()> {
    let gpu = sorter.gpu;
    let (reads_in, reads) = mpsc::sync_channel::<(FrameTag, Readback)>(1);
    let (spare_in, spare) = mpsc::channel::<wgpu::Buffer>();
    std::thread::scope(|scope| {
        let reader = std::thread::Builder::new()
            .name("clip-readback".into())
            .spawn_scoped(scope, move || -> anyhow::Result<()> {
                for (index, (tag, read)) in reads.into_iter().enumerate() {
                    let failed = "reading the sorted frame back from the GPU failed";
                    // The sorting thread may have ended: then the buffers are not needed.
                    let frame = match read {
                        Readback::Ready(frame) => frame,
                        Readback::Pending(pending) => {
                            let (frame, staging) =
                                watch.stages.time(Stage::ReadBack, || pending.finish(gpu)).context(failed)?;
                            let _ = spare_in.send(staging);
                            frame
                        }
                        Readback::Planes(pending) => {
                            let (planes, staging) =
                                watch.stages.time(Stage::ReadBack, || pending.finish(gpu)).context(failed)?;
                            let _ = spare_in.send(staging);
                            watch.latency.add(tag.at.elapsed());
                            if sorted.send(ToSink::Frame(tag.arrival, SortedFrame::Yuv420(planes))).is_err() {
                                return Ok(());
                            }
                            watch.done.store(index as u64 + 1, Ordering::Relaxed);
                            continue;
                        }
                    };
                    // A frame too large for the GPU's conversion is converted here.
                    let frame = match yuv420 {
                        Some(matrix) => SortedFrame::Yuv420(yuv::to_yuv420(&frame, matrix)),
                        None => SortedFrame::Rgba(frame),
                    };
                    watch.latency.add(tag.at.elapsed());
                    if sorted.send(ToSink::Frame(tag.arrival, frame)).is_err() {
                        // The encoder stopped; its error is the one to report.
                        return Ok(());
                    }
                    watch.done.store(index as u64 + 1, Ordering::Relaxed);
                }
                Ok(())
            })
            .map_err(ClipError::Thread)?;
        // A live source (no frame count) counts up without an end.
        let mut bar = (!watch.quiet).then(|| match info.frames {
            0 => Progress::open_ended("recording", "frames"),
            frames => {
                let mut bar = Progress::new("sorting", "frames");
                bar.set_total(frames);
                bar
            }
        });
        let mut yuv420 = yuv420.map(|matrix| (Yuv420Writer::default(), matrix));
        let submitted =
            submit_frames(sorter, settings, (prepared, yuv420.as_mut()), &reads_in, &spare, watch, &mut bar);
        drop(reads_in);
        let read = reader.join().expect("the readback thread does not panic");
        submitted.and(read)?;
        watch.check()?;
        if let Some(bar) = &mut bar {
            bar.set_done(watch.done.load(Ordering::Relaxed));
            bar.finish();
        }
        Ok(())
    })
}

/// Starts each prepared frame's sort and readback on the GPU (converted to 4:2:0 first when a
/// writer is given and the frame fits it), in order, without waiting for them; the frames go to
/// the readback thread through `reads`.
fn submit_frames(
    sorter: &Sorter<'_>,
    settings: &Settings,
    (mut prepared, mut yuv420): (impl Iterator<Item = Prepared>, Option<&mut (Yuv420Writer, yuv::Matrix)>),
    reads: &mpsc::SyncSender<(FrameTag, Readback)>,
    spare: &mpsc::Receiver<wgpu::Buffer>,
    watch: &ClipWatch,
    bar: &mut Option<Progress>,
) -> anyhow::Result<()> {
    let gpu = sorter.gpu;
    let mut notice_given = false;
    while let Some(ready) = watch.stages.time(Stage::SorterIdle, || prepared.next()) {
        watch.check()?;
        let (tag, ready) = ready;
        let (mut run, notice) = ready?;
        if let Some(notice) = notice.filter(|_| !notice_given) {
            match bar {
                Some(bar) => bar.note(&format!("note: {notice}")),
                None => log::info!("note: {notice}"),
            }
            notice_given = true;
        }
        let steps = settings.steps.unwrap_or(run.total_steps()).min(run.total_steps());
        let read = watch.stages.time(Stage::Submit, || -> anyhow::Result<Readback> {
            crate::engine::drive::Driver::new(run.as_ref())
                .submit_to(gpu, run.as_mut(), steps)
                .context("sorting on the GPU failed")?;
            watch.check()?;
            // The run's textures stay alive on the GPU until the copy has been made.
            let state = run.state();
            if let Some((writer, matrix)) = yuv420.as_deref_mut()
                && Yuv420Writer::fits(gpu, (state.width(), state.height()))
            {
                return Ok(Readback::Planes(writer.start_read(
                    gpu,
                    sorter.engine.yuv420_kernel(),
                    state,
                    *matrix,
                    spare.try_recv().ok(),
                )));
            }
            Ok(match start_read(gpu, state, spare.try_recv().ok()) {
                Some(pending) => Readback::Pending(pending),
                None => Readback::Ready(
                    read_texture(gpu, run.state())
                        .context("reading the sorted frame back from the GPU failed")?,
                ),
            })
        })?;
        if reads.send((tag, read)).is_err() {
            // The readback thread stopped; its error is the one to report.
            return Ok(());
        }
        if let Some(bar) = bar {
            bar.set_done(watch.done.load(Ordering::Relaxed));
        }
    }
    Ok(())
}
