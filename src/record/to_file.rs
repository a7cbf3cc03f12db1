//! Recording to a file (the command line's `--record` and the window's G): frames read back
//! through the capture ring while later passes run, compressed on worker threads, written to a
//! temporary file that is put in place only when the recording is whole.

use super::capture::CaptureRing;
use super::gif_writer::ParallelGifWriter;
use super::{FramePlan, FrameSequence, RecordError, RecordSettings, palette};
use crate::algorithms::SortRun;
use crate::algorithms::swap_reader::SwapReader;
use crate::gpu::{Gpu, GpuError};
use crate::interrupt::Interrupted;
use crate::picture::output::OutputFile;
use image::RgbaImage;
use std::path::PathBuf;

/// Slots in the capture ring: frames in flight between the GPU and the encoder.
const CAPTURE_DEPTH: usize = 3;

/// The writer a file recording uses.
type FileWriter = ParallelGifWriter<std::io::BufWriter<std::fs::File>>;

/// What a recording produced.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordReport {
    /// Where the GIF went.
    pub path: PathBuf,
    /// Frames written.
    pub frames: u32,
    /// File size in bytes.
    pub bytes: u64,
    /// Passes run on the GPU.
    pub passes_run: u32,
    /// Passes between frames.
    pub every: u32,
    /// After how many passes the picture was known sorted, if it was.
    pub sorted_after: Option<u32>,
    /// Palette colours used.
    pub colours: usize,
    /// Whether the palette holds every source colour exactly.
    pub exact: bool,
}

/// Records a sort of `picture` as a GIF into `target`.
///
/// `start` starts the chosen algorithm on the picture it is given (the source with palette
/// indices in alpha); `progress` hears (frames taken, most frames expected) after each frame and
/// returns false to cancel, which fails with [`Interrupted`] and leaves no file.
pub fn record_gif(
    gpu: &Gpu,
    picture: &RgbaImage,
    start: impl FnOnce(&RgbaImage) -> Box<dyn SortRun>,
    settings: &RecordSettings,
    mut target: OutputFile,
    mut progress: impl FnMut(u32, u32) -> bool,
) -> Result<RecordReport, RecordError> {
    let (width, height) = picture.dimensions();
    let quantized = super::quantize_for(picture, settings);
    let mut run = start(&palette::indexed_picture(picture, &quantized.indices));
    let plan = FramePlan::new(run.total_steps(), settings)?;
    let max_chunk = plan.every.min(run.max_uncollected_steps());
    let max_counts_bytes = run.swap_readback_size(max_chunk);
    let slot_size = CaptureRing::slot_size(width, height, max_counts_bytes);
    if slot_size > gpu.device.limits().max_buffer_size {
        return Err(RecordError::TooLarge(format!(
            "a {width}x{height} frame does not fit this GPU's largest buffer; record a smaller picture with --max-size"
        )));
    }
    let path = target.path().to_path_buf();
    let encode_error = |source| RecordError::Encode { path: path.clone(), source };
    let writer = open_writer(&mut target, width, height, &quantized.palette, settings)?;
    let mut frames = FrameSequence::starting_with(writer, quantized.indices.clone(), width, height, settings);
    let mut ring = CaptureRing::new(gpu, width, height, max_counts_bytes, CAPTURE_DEPTH);
    // Steps whose swap counts were copied into a capture slot or read directly.
    let mut counted = 0;
    // Reads counts directly, for frames that span more steps than the counters hold.
    let mut direct: Option<SwapReader> = None;
    // Once the picture is known sorted no more frames are recorded; those in flight are taken
    // for their swap counts but not written, since they repeat the last frame.
    let mut sorted = run.stats().sorted_after.is_some();
    loop {
        let more = !sorted && run.steps_done() < plan.passes;
        if more && !ring.is_full() {
            let n = plan.every.min(plan.passes - run.steps_done());
            let mut encoder = gpu.device.create_command_encoder(&Default::default());
            let mut left = n;
            while left > 0 {
                let room = run.max_uncollected_steps() - (run.steps_done() - run.steps_collected());
                if room == 0 {
                    // A frame spans more steps than the counters hold: take the older frames,
                    // then read these counts directly.
                    gpu.queue.submit([std::mem::replace(
                        &mut encoder,
                        gpu.device.create_command_encoder(&Default::default()),
                    )
                    .finish()]);
                    while ring.in_flight() > 0 {
                        sorted |= take_frame(gpu, &mut ring, run.as_mut(), &mut frames)
                            .map_err(|e| e.into_record(&path))?;
                    }
                    direct
                        .get_or_insert_with(|| SwapReader::new(gpu, run.as_ref()))
                        .collect(gpu, run.as_mut())?;
                    counted = run.steps_done();
                    continue;
                }
                left -= run.record_steps(&mut encoder, left.min(room));
            }
            ring.record(&mut encoder, run.as_ref(), counted, run.steps_done() - counted);
            counted = run.steps_done();
            ring.submitted(gpu.queue.submit([encoder.finish()]));
        } else if ring.in_flight() > 0 {
            sorted |=
                take_frame(gpu, &mut ring, run.as_mut(), &mut frames).map_err(|e| e.into_record(&path))?;
            if !progress(frames.written + 1, plan.max_frames) {
                return Err(Interrupted::now().into());
            }
        } else {
            break;
        }
    }
    let written = finish_file(frames).map_err(encode_error)?;
    gpu.check()?;
    let path = target.commit()?;
    let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    Ok(RecordReport {
        path,
        frames: written,
        bytes,
        passes_run: run.steps_done(),
        every: plan.every,
        sorted_after: run.stats().sorted_after,
        colours: quantized.palette.colours.len(),
        exact: quantized.palette.exact,
    })
}

/// The GIF writer into `target`'s temporary file for frames of `width` x `height` scaled by
/// `settings.scale`; an error when the scaled size exceeds GIF's limit.
fn open_writer(
    target: &mut OutputFile,
    width: u32,
    height: u32,
    palette: &palette::GifPalette,
    settings: &RecordSettings,
) -> Result<FileWriter, RecordError> {
    let (gif_width, gif_height) = super::gif_size(width, height, settings)?;
    let path = target.path().to_path_buf();
    let encode_error = |source| RecordError::Encode { path: path.clone(), source };
    let file = target.file()?.try_clone().map_err(|e| encode_error(gif::EncodingError::Io(e)))?;
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    ParallelGifWriter::new(
        std::io::BufWriter::with_capacity(1 << 20, file),
        gif_width,
        gif_height,
        palette,
        workers,
    )
    .map_err(encode_error)
}

/// What a threshold sweep produced.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepReport {
    /// Where the GIF went.
    pub path: PathBuf,
    /// Frames written.
    pub frames: u32,
    /// File size in bytes.
    pub bytes: u64,
    /// Steps run on the GPU, all frames together.
    pub steps_run: u64,
    /// Palette colours used.
    pub colours: usize,
    /// Whether the palette holds every source colour exactly.
    pub exact: bool,
}

/// Records one frame per run map of `frame_runs` into `target`, each the picture fully sorted
/// within those runs: one run, started by `start` on the picture it is given (the source with
/// palette indices in alpha) and restarted in each frame's runs
/// ([`SortRun::restart_in_runs`]), each time run to the end. `progress` hears (frames done,
/// frames) and returns false to cancel, which fails with [`Interrupted`] and leaves no file.
pub fn record_sweep(
    gpu: &Gpu,
    picture: &RgbaImage,
    start: impl FnOnce(&RgbaImage) -> Box<dyn SortRun>,
    frame_runs: impl ExactSizeIterator<Item = crate::intervals::RunMap>,
    settings: &RecordSettings,
    mut target: OutputFile,
    mut progress: impl FnMut(u32, u32) -> bool,
) -> Result<SweepReport, RecordError> {
    let frames = frame_runs.len() as u32;
    let (width, height) = picture.dimensions();
    let quantized = palette::quantize(picture, settings.background, settings.dither);
    let mut run = start(&palette::indexed_picture(picture, &quantized.indices));
    let writer = open_writer(&mut target, width, height, &quantized.palette, settings)?;
    let path = target.path().to_path_buf();
    let encode_error = |source| RecordError::Encode { path: path.clone(), source };
    let mut sequence: Option<FrameSequence<'_, FileWriter>> = None;
    let mut writer = Some(writer);
    let mut steps_run = 0;
    for (k, runs) in (0..).zip(frame_runs) {
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        run.restart_in_runs(gpu, &mut encoder, Some(&runs))?;
        gpu.queue.submit([encoder.finish()]);
        crate::algorithms::run_until(gpu, run.as_mut(), u32::MAX, |_| true)?;
        steps_run += u64::from(run.steps_done());
        let indices: Vec<u8> =
            crate::gpu::readback::read_texture(gpu, run.state())?.pixels().map(|p| p[3]).collect();
        match &mut sequence {
            None => {
                sequence = Some(FrameSequence::starting_with(
                    writer.take().expect("the writer until the first frame"),
                    indices,
                    width,
                    height,
                    settings,
                ))
            }
            Some(sequence) => sequence.push(indices, 0).map_err(encode_error)?,
        }
        if !progress(k + 1, frames) {
            return Err(Interrupted::now().into());
        }
    }
    let written = finish_file(sequence.expect("at least one frame")).map_err(encode_error)?;
    gpu.check()?;
    let path = target.commit()?;
    let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    Ok(SweepReport {
        path,
        frames: written,
        bytes,
        steps_run,
        colours: quantized.palette.colours.len(),
        exact: quantized.palette.exact,
    })
}

/// Errors while taking a frame: the GPU's, or the writer's.
enum TakeError {
    Gpu(GpuError),
    Encode(gif::EncodingError),
}

impl TakeError {
    fn into_record(self, path: &std::path::Path) -> RecordError {
        match self {
            TakeError::Gpu(e) => RecordError::Gpu(e),
            TakeError::Encode(source) => RecordError::Encode { path: path.into(), source },
        }
    }
}

/// Takes the oldest capture: feeds its swap counts to the run and writes it as a frame, unless
/// the picture is known to have been sorted already at the last frame written (then this frame
/// would repeat it). Returns whether the picture is now known sorted.
fn take_frame(
    gpu: &Gpu,
    ring: &mut CaptureRing,
    run: &mut dyn SortRun,
    frames: &mut FrameSequence<'_, FileWriter>,
) -> Result<bool, TakeError> {
    let capture = ring.take_oldest(gpu).map_err(TakeError::Gpu)?;
    run.accept_swaps(&capture.swap_counts);
    let sorted_after = run.stats().sorted_after;
    if sorted_after.is_none_or(|s| frames.last_steps < s) {
        frames.push(capture.indices, capture.steps).map_err(TakeError::Encode)?;
    }
    Ok(sorted_after.is_some())
}

/// Writes the last frame, ends the GIF and flushes the file; returns the frames written.
fn finish_file(frames: FrameSequence<'_, FileWriter>) -> Result<u32, gif::EncodingError> {
    let (writer, written) = frames.finish()?;
    let mut out = writer.finish()?;
    std::io::Write::flush(&mut out)?;
    Ok(written)
}
