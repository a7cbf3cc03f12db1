//! GIF export of a sort, one frame per pass: quantized once from the source, each pixel's
//! palette index carried through the sort in the alpha byte, frames read back through a ring of
//! staging buffers and compressed on worker threads.

pub mod capture;
pub mod delta;
pub mod gif_writer;
pub mod palette;

use crate::algorithms::SortRun;
use crate::algorithms::swap_reader::SwapReader;
use crate::gpu::{Gpu, GpuError};
use crate::interrupt::Interrupted;
use crate::picture::output::{OutputError, OutputFile};
use capture::CaptureRing;
use delta::FrameRegion;
use gif_writer::{GifFrame, ParallelGifWriter};
use image::RgbaImage;
use std::path::PathBuf;

/// Frames a recording may have when neither `--every` nor `--max-frames` was given.
pub const DEFAULT_FRAME_LIMIT: u32 = 1000;
/// Slots in the capture ring: frames in flight between the GPU and the encoder.
const CAPTURE_DEPTH: usize = 3;

/// How a recording is made.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordSettings {
    /// Keep every Nth pass (the last state is always kept).
    pub every: Option<u32>,
    /// Choose `every` so that the GIF has at most this many frames (at least 2).
    pub max_frames: Option<u32>,
    /// Stop after this many passes.
    pub passes: Option<u32>,
    /// Frames per second, 1 to 50 (GIF delays are whole hundredths of a second, and viewers
    /// slow delays under 2 down).
    pub fps: u32,
    /// Integer nearest-neighbour upscale.
    pub scale: u32,
    /// Seconds the last frame stays before the loop starts again.
    pub hold_seconds: f32,
    /// Colour that transparent source pixels are blended over.
    pub background: [u8; 3],
    /// Dither when the picture has more than 256 colours.
    pub dither: bool,
    /// The run shows pixels waiting in a scatter (the radix view's sub-steps): quantize to 127
    /// colours with dimmed twins (see [`palette::quantize_with_dimmed_twins`]).
    pub dimmed_twins: bool,
}

impl Default for RecordSettings {
    fn default() -> Self {
        RecordSettings {
            every: None,
            max_frames: None,
            passes: None,
            fps: 30,
            scale: 1,
            hold_seconds: 2.0,
            background: [0, 0, 0],
            dither: true,
            dimmed_twins: false,
        }
    }
}

impl RecordSettings {
    /// The delay of every frame but the last, in hundredths of a second.
    pub fn frame_delay_cs(&self) -> u16 {
        (100.0 / self.fps.clamp(1, 50) as f32).round() as u16
    }

    /// The delay of the last frame: the hold, but never shorter than a frame.
    pub fn last_delay_cs(&self) -> u16 {
        ((self.hold_seconds.max(0.0) * 100.0).round() as u16).max(self.frame_delay_cs())
    }
}

/// Which passes become frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FramePlan {
    /// Passes to run at most.
    pub passes: u32,
    /// Passes between frames.
    pub every: u32,
    /// Frames if the sort needs every pass: the input, then one per `every` passes, then the last state.
    pub max_frames: u32,
}

impl FramePlan {
    /// Plans a recording of a run of `total_steps` passes; refuses more than
    /// [`DEFAULT_FRAME_LIMIT`] frames unless the user chose the spacing.
    pub fn new(total_steps: u32, settings: &RecordSettings) -> Result<Self, RecordError> {
        let passes = settings.passes.unwrap_or(total_steps).min(total_steps);
        let every = match (settings.every, settings.max_frames) {
            (Some(every), _) => every.max(1),
            (None, Some(max)) => passes.div_ceil(max.max(2) - 1).max(1),
            (None, None) => 1,
        };
        let max_frames = passes.div_ceil(every) + 1;
        if settings.every.is_none() && settings.max_frames.is_none() && max_frames > DEFAULT_FRAME_LIMIT {
            let every = passes.div_ceil(DEFAULT_FRAME_LIMIT - 1);
            return Err(RecordError::TooManyFrames { frames: max_frames, passes, every });
        }
        Ok(FramePlan { passes, every, max_frames })
    }
}

/// Why a recording failed.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// Too many frames for a GIF anyone would want, unless asked for.
    #[error(
        "a frame per pass would make {frames} frames ({passes} passes), more than {DEFAULT_FRAME_LIMIT}; pass --max-frames {DEFAULT_FRAME_LIMIT} or --every {every} (or any other spacing) to record it"
    )]
    TooManyFrames {
        /// Frames it would have.
        frames: u32,
        /// Passes of the sort.
        passes: u32,
        /// A spacing that fits the limit.
        every: u32,
    },
    /// Frames too large for the GPU's buffers or for GIF.
    #[error("{0}")]
    TooLarge(String),
    /// The GPU failed.
    #[error(transparent)]
    Gpu(#[from] GpuError),
    /// Writing the file failed.
    #[error("cannot write '{path}': {source}")]
    Encode {
        /// The target.
        path: PathBuf,
        /// The encoder's reason.
        source: gif::EncodingError,
    },
    /// The file could not be put in place.
    #[error(transparent)]
    Output(#[from] OutputError),
    /// A frame's runs cannot be sorted by this algorithm.
    #[error(transparent)]
    Runs(#[from] crate::algorithms::runs::RunsError),
    /// Ctrl-C.
    #[error(transparent)]
    Interrupted(#[from] Interrupted),
}

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
    target: OutputFile,
    mut progress: impl FnMut(u32, u32) -> bool,
) -> Result<RecordReport, RecordError> {
    let (width, height) = picture.dimensions();
    let quantized = if settings.dimmed_twins {
        palette::quantize_with_dimmed_twins(picture, settings.background, settings.dither)
    } else {
        palette::quantize(picture, settings.background, settings.dither)
    };
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
    let writer = open_writer(&target, width, height, &quantized.palette, settings)?;
    let mut frames = FrameSequence {
        writer,
        previous: quantized.indices.clone(),
        pending: Some(FrameRegion::full(&quantized.indices, width, height).scaled(settings.scale)),
        written: 0,
        last_steps: 0,
        width,
        height,
        settings,
    };
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
                return Err(Interrupted.into());
            }
        } else {
            break;
        }
    }
    let written = frames.finish().map_err(encode_error)?;
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
    target: &OutputFile,
    width: u32,
    height: u32,
    palette: &palette::GifPalette,
    settings: &RecordSettings,
) -> Result<ParallelGifWriter<std::io::BufWriter<std::fs::File>>, RecordError> {
    let scaled = |side: u32| side.checked_mul(settings.scale).filter(|&s| s <= u32::from(u16::MAX));
    let (Some(gif_width), Some(gif_height)) = (scaled(width), scaled(height)) else {
        return Err(RecordError::TooLarge(format!(
            "{width}x{height} scaled by {} exceeds GIF's 65535-pixel limit; use a smaller --scale",
            settings.scale
        )));
    };
    let encode_error = |source| RecordError::Encode { path: target.path().to_path_buf(), source };
    let file = target.file().try_clone().map_err(|e| encode_error(gif::EncodingError::Io(e)))?;
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
    target: OutputFile,
    mut progress: impl FnMut(u32, u32) -> bool,
) -> Result<SweepReport, RecordError> {
    let frames = frame_runs.len() as u32;
    let (width, height) = picture.dimensions();
    let quantized = palette::quantize(picture, settings.background, settings.dither);
    let mut run = start(&palette::indexed_picture(picture, &quantized.indices));
    let writer = open_writer(&target, width, height, &quantized.palette, settings)?;
    let path = target.path().to_path_buf();
    let encode_error = |source| RecordError::Encode { path: path.clone(), source };
    let mut sequence: Option<FrameSequence<'_>> = None;
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
                sequence = Some(FrameSequence {
                    writer: writer.take().expect("the writer until the first frame"),
                    pending: Some(FrameRegion::full(&indices, width, height).scaled(settings.scale)),
                    previous: indices,
                    written: 0,
                    last_steps: 0,
                    width,
                    height,
                    settings,
                })
            }
            Some(sequence) => sequence.push(indices, 0).map_err(encode_error)?,
        }
        if !progress(k + 1, frames) {
            return Err(Interrupted.into());
        }
    }
    let written = sequence.expect("at least one frame").finish().map_err(encode_error)?;
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
    frames: &mut FrameSequence<'_>,
) -> Result<bool, TakeError> {
    let capture = ring.take_oldest(gpu).map_err(TakeError::Gpu)?;
    run.accept_swaps(&capture.swap_counts);
    let sorted_after = run.stats().sorted_after;
    if sorted_after.is_none_or(|s| frames.last_steps < s) {
        frames.push(capture.indices, capture.steps).map_err(TakeError::Encode)?;
    }
    Ok(sorted_after.is_some())
}

/// Turns successive index pictures into GIF frames; holds one back so the last gets the hold delay.
struct FrameSequence<'a> {
    writer: ParallelGifWriter<std::io::BufWriter<std::fs::File>>,
    previous: Vec<u8>,
    pending: Option<FrameRegion>,
    written: u32,
    /// The step count of the newest frame.
    last_steps: u32,
    width: u32,
    height: u32,
    settings: &'a RecordSettings,
}

impl FrameSequence<'_> {
    fn push(&mut self, indices: Vec<u8>, steps: u32) -> Result<(), gif::EncodingError> {
        self.last_steps = steps;
        let transparent = self.writer.transparent();
        let region = FrameRegion::changed(&self.previous, &indices, self.width, self.height, transparent)
            .scaled(self.settings.scale);
        self.previous = indices;
        if let Some(ready) = self.pending.replace(region) {
            self.writer.push(GifFrame { region: ready, delay_cs: self.settings.frame_delay_cs() })?;
            self.written += 1;
        }
        Ok(())
    }

    fn finish(mut self) -> Result<u32, gif::EncodingError> {
        if let Some(last) = self.pending.take() {
            self.writer.push(GifFrame { region: last, delay_cs: self.settings.last_delay_cs() })?;
            self.written += 1;
        }
        let mut out = self.writer.finish()?;
        std::io::Write::flush(&mut out)?;
        Ok(self.written)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(every: Option<u32>, max_frames: Option<u32>) -> RecordSettings {
        RecordSettings { every, max_frames, ..Default::default() }
    }

    #[test]
    fn a_plan_keeps_every_nth_pass_and_the_last() {
        assert_eq!(FramePlan::new(600, &settings(None, None)).unwrap().max_frames, 601);
        let plan = FramePlan::new(600, &settings(Some(7), None)).unwrap();
        assert_eq!((plan.every, plan.max_frames), (7, 87));
        let plan = FramePlan::new(600, &settings(None, Some(50))).unwrap();
        assert!(plan.max_frames <= 50, "{plan:?}");
        assert_eq!(plan.every, 13);
        let short = RecordSettings { passes: Some(10), ..settings(None, None) };
        assert_eq!(FramePlan::new(600, &short).unwrap().max_frames, 11);
    }

    #[test]
    fn long_recordings_need_to_be_asked_for() {
        let e = FramePlan::new(4000, &settings(None, None)).unwrap_err();
        assert!(e.to_string().contains("4001 frames"), "{e}");
        assert!(FramePlan::new(4000, &settings(Some(1), None)).is_ok());
        assert!(FramePlan::new(4000, &settings(None, Some(5000))).is_ok());
    }

    #[test]
    fn delays_are_whole_hundredths() {
        let s = RecordSettings { fps: 30, hold_seconds: 1.5, ..Default::default() };
        assert_eq!((s.frame_delay_cs(), s.last_delay_cs()), (3, 150));
        let s = RecordSettings { fps: 50, hold_seconds: 0.0, ..Default::default() };
        assert_eq!((s.frame_delay_cs(), s.last_delay_cs()), (2, 2));
    }
}
