//! Recording to a file or folder (the command line's `--record` and the window's G): frames
//! read back through the capture ring while later steps run, compressed on worker threads,
//! written to a temporary file or folder that is put in place only when the recording is whole.
//! GIF frames are palette indices carried through the sort; APNG and PNG frames are the sort's
//! exact RGBA.
#![cfg(not(target_arch = "wasm32"))]

use super::apng_writer::ApngWriter;
use super::capture::CaptureRing;
use super::exact::ExactWriter;
use super::gif_writer::ParallelGifWriter;
use super::png_frames::{Folder, PngFramesWriter};
use super::sequence::{FramePixel, FrameSequence, FrameSink};
use super::{EncodeError, FramePlan, PaletteUse, RecordError, is_opaque, palette, rgba_pixels};
use super::{RecordFormat, RecordTarget, Recorded};
use crate::algorithms::SortRun;
use crate::algorithms::step_ledger::STEP_RING;
use crate::engine::drive::Driver;
use crate::gpu::{Gpu, GpuError};
use crate::interrupt::Interrupted;
use crate::picture::output::OutputFile;
use crate::settings::RecordSettings;
use image::RgbaImage;
use std::path::{Path, PathBuf};

/// Slots in the capture ring: frames in flight between the GPU and the encoder.
const CAPTURE_DEPTH: usize = 3;

/// The GIF writer a file recording uses.
pub(super) type GifFileWriter = ParallelGifWriter<std::io::BufWriter<std::fs::File>>;
/// The APNG or PNG frames writer a file recording uses.
pub(super) type ExactFileWriter = ExactWriter<std::io::BufWriter<std::fs::File>, Folder>;

/// What a recording produced.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordReport {
    /// Where it went.
    pub path: PathBuf,
    /// Bytes written (all frames' files together for a folder).
    pub bytes: u64,
    /// What went into it.
    pub recorded: Recorded,
}

/// Records a sort of `picture` into `target`, in the target's format.
///
/// `start` starts the chosen algorithm on the picture it is given (for a GIF, the source with
/// palette indices in alpha); `progress` hears (frames taken, most frames expected) after each
/// frame and returns false to cancel, which fails with [`Interrupted`] and leaves no file.
pub fn record(
    gpu: &Gpu,
    picture: &RgbaImage,
    start: impl FnOnce(&RgbaImage) -> Box<dyn SortRun>,
    settings: &RecordSettings,
    mut target: RecordTarget,
    progress: impl FnMut(u32, u32) -> bool,
) -> Result<RecordReport, RecordError> {
    let (width, height) = picture.dimensions();
    let path = target.path().to_path_buf();
    let (frames, palette, run, every) = match &mut target {
        RecordTarget::Gif(file) => {
            let quantized = super::quantize_for(picture, settings);
            let mut run = start(&palette::indexed_picture(picture, &quantized.indices));
            let plan = plan_frames(gpu, run.as_ref(), settings, width, height)?;
            let writer = open_gif(file, width, height, &quantized.palette, settings)?;
            let first = quantized.indices.clone();
            let sequence = FrameSequence::starting_with(writer, first, width, height, settings);
            let frames = record_frames(gpu, run.as_mut(), &plan, sequence, &path, progress)?;
            (frames, Some(PaletteUse::of(&quantized.palette)), run, plan.every)
        }
        RecordTarget::Video(_) => {
            unreachable!("a video is recorded by media::recording, through ffmpeg")
        }
        exact => {
            let mut run = start(picture);
            let plan = plan_frames(gpu, run.as_ref(), settings, width, height)?;
            let writer = open_exact(exact, width, height, is_opaque(picture), settings)?;
            let sequence =
                FrameSequence::starting_with(writer, rgba_pixels(picture), width, height, settings);
            let frames = record_frames(gpu, run.as_mut(), &plan, sequence, &path, progress)?;
            (frames, None, run, plan.every)
        }
    };
    let format = target.format();
    let path = target.commit()?;
    Ok(RecordReport {
        bytes: bytes_at(&path),
        path,
        recorded: Recorded::of(format, frames, run.as_ref(), every, palette),
    })
}

/// Records a sort of `picture`, started by `start`, into `writer`: a format this module does not
/// write itself (a video, through ffmpeg), fed the exact RGBA of every frame as regions that
/// changed. `progress` is [`record`]'s; what went in comes back.
pub fn record_into<S: EndWriting<Pixel = [u8; 4]>>(
    gpu: &Gpu,
    picture: &RgbaImage,
    start: impl FnOnce(&RgbaImage) -> Box<dyn SortRun>,
    settings: &RecordSettings,
    (writer, path): (S, &Path),
    progress: impl FnMut(u32, u32) -> bool,
) -> Result<Recorded, RecordError> {
    let (width, height) = picture.dimensions();
    let mut run = start(picture);
    let plan = plan_frames(gpu, run.as_ref(), settings, width, height)?;
    let sequence = FrameSequence::starting_with(writer, rgba_pixels(picture), width, height, settings);
    let frames = record_frames(gpu, run.as_mut(), &plan, sequence, path, progress)?;
    Ok(Recorded::of(RecordFormat::Video, frames, run.as_ref(), plan.every, None))
}

/// The frame plan for `run`, once the frames are known to fit the GPU's buffers.
fn plan_frames(
    gpu: &Gpu,
    run: &dyn SortRun,
    settings: &RecordSettings,
    width: u32,
    height: u32,
) -> Result<FramePlan, RecordError> {
    let plan = FramePlan::new(run.total_steps(), settings)?;
    let max_counts_bytes = run.swap_readback_size(plan.every.min(STEP_RING));
    if CaptureRing::slot_size(width, height, max_counts_bytes) > gpu.device.limits().max_buffer_size {
        return Err(RecordError::TooLarge(format!(
            "a {width}x{height} frame does not fit this GPU's largest buffer; record a smaller picture with --max-size"
        )));
    }
    Ok(plan)
}

/// Runs the sort, taking a frame every `plan.every` steps into `frames` (the first frame, the
/// input, is already there), then ends the writer; returns the frames written.
fn record_frames<S: EndWriting>(
    gpu: &Gpu,
    run: &mut dyn SortRun,
    plan: &FramePlan,
    mut frames: FrameSequence<S>,
    path: &Path,
    mut progress: impl FnMut(u32, u32) -> bool,
) -> Result<u32, RecordError> {
    let (width, height) = frames.size();
    let max_counts_bytes = run.swap_readback_size(plan.every.min(STEP_RING));
    let mut ring = CaptureRing::new(gpu, width, height, max_counts_bytes, CAPTURE_DEPTH);
    // Steps whose swap counts were copied into a capture slot or read directly.
    let mut counted = 0;
    let driver = Driver::new(run);
    // Once the picture is known sorted no more frames are recorded; those in flight are taken
    // for their swap counts but not written, since they repeat the last frame.
    let mut sorted = run.stats().sorted_after.is_some();
    loop {
        let more = !sorted && run.steps_done() < plan.steps;
        if more && !ring.is_full() {
            let n = plan.every.min(plan.steps - run.steps_done());
            let mut encoder = gpu.device.create_command_encoder(&Default::default());
            // A frame that spans more steps than the counters hold: the older frames are
            // taken before the driver reads these counts directly.
            let take_older = |run: &mut dyn SortRun| -> Result<(), RecordError> {
                while ring.in_flight() > 0 {
                    sorted |=
                        take_frame(gpu, &mut ring, run, &mut frames).map_err(|e| e.into_record(path))?;
                }
                counted = run.steps_done();
                Ok(())
            };
            pollster::block_on(driver.advance(gpu, run, &mut encoder, n, take_older))?;
            ring.encode(&mut encoder, run, counted, run.steps_done() - counted);
            counted = run.steps_done();
            ring.submitted(gpu.queue.submit([encoder.finish()]));
        } else if ring.in_flight() > 0 {
            sorted |= take_frame(gpu, &mut ring, run, &mut frames).map_err(|e| e.into_record(path))?;
            if !progress(frames.written + 1, plan.max_frames) {
                return Err(Interrupted::now().into());
            }
        } else {
            break;
        }
    }
    let (writer, written) = frames.finish().map_err(|e| encode_error(path, e))?;
    writer.end().map_err(|e| encode_error(path, e))?;
    gpu.check()?;
    Ok(written)
}

/// The GIF writer into `target`'s temporary file for frames of `width` x `height` scaled by
/// `settings.scale`; an error when the scaled size exceeds GIF's limit.
pub(super) fn open_gif(
    target: &mut OutputFile,
    width: u32,
    height: u32,
    palette: &palette::GifPalette,
    settings: &RecordSettings,
) -> Result<GifFileWriter, RecordError> {
    let (gif_width, gif_height) = super::gif_size(width, height, settings)?;
    let out = buffered(target)?;
    ParallelGifWriter::new(out, gif_width, gif_height, palette, workers())
        .map_err(|e| encode_error(target.path(), e.into()))
}

/// The writer of an exact format (an animated PNG or PNG frames) into `target`'s temporary
/// file or folder.
pub(super) fn open_exact(
    target: &mut RecordTarget,
    width: u32,
    height: u32,
    opaque: bool,
    settings: &RecordSettings,
) -> Result<ExactFileWriter, RecordError> {
    let (w, h) = super::png_size(width, height, settings)?;
    Ok(match target {
        RecordTarget::Apng(file) => {
            ExactWriter::Apng(ApngWriter::new(buffered(file)?, w, h, opaque, workers()))
        }
        RecordTarget::Frames(dir) => ExactWriter::Frames(PngFramesWriter::new(
            Folder(dir.folder()?.to_path_buf()),
            w,
            h,
            opaque,
            workers(),
        )),
        RecordTarget::Gif(_) | RecordTarget::Video(_) => unreachable!("not an exact format"),
    })
}

/// A writer that can be ended once the last frame is in: everything written and flushed.
pub trait EndWriting: FrameSink {
    /// Writes what is left and flushes it.
    fn end(self) -> Result<(), EncodeError>;
}

impl EndWriting for GifFileWriter {
    fn end(self) -> Result<(), EncodeError> {
        Ok(std::io::Write::flush(&mut self.finish()?)?)
    }
}

impl EndWriting for ExactFileWriter {
    fn end(self) -> Result<(), EncodeError> {
        self.finish().map(drop)
    }
}

/// A large buffered writer on its own handle of `target`'s temporary file (writing begins here).
fn buffered(target: &mut OutputFile) -> Result<std::io::BufWriter<std::fs::File>, RecordError> {
    let path = target.path().to_path_buf();
    let file = target.file()?.try_clone().map_err(|e| encode_error(&path, e.into()))?;
    Ok(std::io::BufWriter::with_capacity(1 << 20, file))
}

/// Compressing threads: one per CPU thread.
fn workers() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get())
}

fn encode_error(path: &Path, source: EncodeError) -> RecordError {
    RecordError::Encode { path: path.into(), source }
}

/// A file's size, or the sum of a folder's files' sizes.
pub(super) fn bytes_at(path: &Path) -> u64 {
    match std::fs::read_dir(path) {
        Ok(entries) => entries.flatten().filter_map(|e| e.metadata().ok()).map(|m| m.len()).sum(),
        Err(_) => std::fs::metadata(path).map(|m| m.len()).unwrap_or(0),
    }
}

/// What a threshold sweep produced.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepReport {
    /// Where it went.
    pub path: PathBuf,
    /// GIF, APNG or PNG frames.
    pub format: RecordFormat,
    /// Frames written.
    pub frames: u32,
    /// Bytes written (all frames' files together for a folder).
    pub bytes: u64,
    /// Steps run on the GPU, all frames together.
    pub steps_run: u64,
    /// The GIF's palette; `None` for the exact formats.
    pub palette: Option<PaletteUse>,
}

/// Records one frame per interval map of `frame_intervals` into `target`, each the picture fully
/// sorted within those intervals: one run, started by `start` on the picture it is given (for a
/// GIF, the source with palette indices in alpha) and restarted in each frame's intervals
/// ([`SortRun::restart_within`]), each time run to the end. `progress` hears (frames done, frames)
/// and returns false to cancel, which fails with [`Interrupted`] and leaves no file.
pub fn record_sweep(
    gpu: &Gpu,
    picture: &RgbaImage,
    start: impl FnOnce(&RgbaImage) -> Box<dyn SortRun>,
    frame_intervals: impl ExactSizeIterator<Item = crate::intervals::IntervalMap>,
    settings: &RecordSettings,
    mut target: RecordTarget,
    progress: impl FnMut(u32, u32) -> bool,
) -> Result<SweepReport, RecordError> {
    let (width, height) = picture.dimensions();
    let path = target.path().to_path_buf();
    let (frames, steps_run, palette) = match &mut target {
        RecordTarget::Gif(file) => {
            let quantized = palette::quantize(picture, settings.background, settings.dither);
            let run = start(&palette::indexed_picture(picture, &quantized.indices));
            let writer = open_gif(file, width, height, &quantized.palette, settings)?;
            let (frames, steps) = sweep_frames(gpu, run, frame_intervals, settings, writer, &path, progress)?;
            (frames, steps, Some(PaletteUse::of(&quantized.palette)))
        }
        exact => {
            let writer = open_exact(exact, width, height, is_opaque(picture), settings)?;
            let (frames, steps) =
                sweep_frames(gpu, start(picture), frame_intervals, settings, writer, &path, progress)?;
            (frames, steps, None)
        }
    };
    let format = target.format();
    let path = target.commit()?;
    Ok(SweepReport { bytes: bytes_at(&path), path, format, frames, steps_run, palette })
}

/// The sweep's frames into `writer`: `run` restarted in each frame's intervals and sorted to the
/// end; then the writer is ended. Returns the frames written and the steps run.
fn sweep_frames<S: EndWriting>(
    gpu: &Gpu,
    mut run: Box<dyn SortRun>,
    frame_intervals: impl ExactSizeIterator<Item = crate::intervals::IntervalMap>,
    settings: &RecordSettings,
    writer: S,
    path: &Path,
    mut progress: impl FnMut(u32, u32) -> bool,
) -> Result<(u32, u64), RecordError> {
    let frames = frame_intervals.len() as u32;
    // The state is the picture, sorted along its lines.
    let wgpu::Extent3d { width, height, .. } = run.state().size();
    let mut sequence: Option<FrameSequence<S>> = None;
    let mut writer = Some(writer);
    let mut steps_run = 0;
    for (k, intervals) in (0..).zip(frame_intervals) {
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        run.restart_within(gpu, &mut encoder, Some(&intervals))?;
        gpu.queue.submit([encoder.finish()]);
        crate::engine::drive::run_to(gpu, run.as_mut(), u32::MAX, |_| true)?;
        steps_run += u64::from(run.steps_done());
        let state = crate::gpu::readback::read_texture(gpu, run.state())?;
        let mut pixels = Vec::with_capacity(width as usize * height as usize);
        S::Pixel::extend_from_rgba(state.as_raw(), &mut pixels);
        match &mut sequence {
            None => {
                let writer = writer.take().expect("the writer until the first frame");
                sequence = Some(FrameSequence::starting_with(writer, pixels, width, height, settings));
            }
            Some(sequence) => sequence.push(pixels, 0).map_err(|e| encode_error(path, e))?,
        }
        if !progress(k + 1, frames) {
            return Err(Interrupted::now().into());
        }
    }
    let sequence = sequence.expect("at least one frame");
    let (writer, written) = sequence.finish().map_err(|e| encode_error(path, e))?;
    writer.end().map_err(|e| encode_error(path, e))?;
    gpu.check()?;
    Ok((written, steps_run))
}

/// Errors while taking a frame: the GPU's, or the writer's.
enum TakeError {
    Gpu(GpuError),
    Encode(EncodeError),
}

impl TakeError {
    fn into_record(self, path: &Path) -> RecordError {
        match self {
            TakeError::Gpu(e) => RecordError::Gpu(e),
            TakeError::Encode(source) => encode_error(path, source),
        }
    }
}

/// Takes the oldest capture: feeds its swap counts to the run and writes it as a frame, unless
/// the picture is known to have been sorted already at the last frame written (then this frame
/// would repeat it). Returns whether the picture is now known sorted.
fn take_frame<S: FrameSink>(
    gpu: &Gpu,
    ring: &mut CaptureRing,
    run: &mut dyn SortRun,
    frames: &mut FrameSequence<S>,
) -> Result<bool, TakeError> {
    let capture = ring.take_oldest::<S::Pixel>(gpu).map_err(TakeError::Gpu)?;
    run.accept_swaps(&capture.swap_counts);
    let sorted_after = run.stats().sorted_after;
    if sorted_after.is_none_or(|s| frames.last_steps < s) {
        frames.push(capture.pixels, capture.steps).map_err(TakeError::Encode)?;
    }
    Ok(sorted_after.is_some())
}
