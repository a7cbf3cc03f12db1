//! Recording into memory, for the browser: the same files as [`super::record`] (a GIF with the
//! same palette, plan, changed regions, delays and early end once the picture is known sorted;
//! an animated PNG; PNG frames, here in a zip archive), but each frame's steps, swap counts and
//! picture are awaited in turn, since a page may neither block nor start threads, and frames
//! are compressed as they come.

use super::apng_writer::ApngWriter;
use super::exact::{ExactOutput, ExactWriter};
use super::gif_writer::InlineGifWriter;
use super::png_frames::PngFramesWriter;
use super::sequence::{FramePixel, FrameSink};
use super::zip::ZipFiles;
use super::{EncodeError, FramePlan, FrameSequence, PaletteUse, RecordError, RecordFormat, Recorded};
use super::{gif_size, is_opaque, palette, png_size, quantize_for, rgba_pixels};
use crate::algorithms::SortRun;
use crate::engine::drive::Driver;
use crate::gpu::Gpu;
use crate::gpu::readback::read_texture_async;
use crate::settings::RecordSettings;
use image::RgbaImage;

/// A recording made in memory, and what went into it.
#[derive(Clone, Debug, PartialEq)]
pub struct InMemory {
    /// The file's bytes: a GIF, an animated PNG, or a zip archive of PNG frames.
    pub bytes: Vec<u8>,
    /// What went into it.
    pub recorded: Recorded,
}

impl InMemory {
    /// The file's media type, for a download.
    pub fn media_type(&self) -> &'static str {
        self.recorded.format.media_type()
    }
}

/// Records a sort of `picture` in `format` into memory; `name` is how errors name it, and the
/// stem of the folder that a zip of PNG frames holds them in.
///
/// `start` starts the chosen algorithm on the picture it is given (for a GIF, the source with
/// palette indices in alpha); `progress` hears (frames taken, most frames expected) after each
/// frame and returns false to cancel, which fails with [`RecordError::Cancelled`].
pub async fn record_in_memory(
    gpu: &Gpu,
    picture: &RgbaImage,
    start: impl FnOnce(&RgbaImage) -> Box<dyn SortRun>,
    settings: &RecordSettings,
    format: RecordFormat,
    name: &str,
    progress: impl FnMut(u32, u32) -> bool,
) -> Result<InMemory, RecordError> {
    let (width, height) = picture.dimensions();
    let encode_error = |source: EncodeError| RecordError::Encode { path: name.into(), source };
    let (bytes, frames, run, every, palette) = if format == RecordFormat::Gif {
        let quantized = quantize_for(picture, settings);
        let mut run = start(&palette::indexed_picture(picture, &quantized.indices));
        let plan = FramePlan::new(run.total_steps(), settings)?;
        let (gif_width, gif_height) = gif_size(width, height, settings)?;
        let writer = InlineGifWriter::new(Vec::new(), gif_width, gif_height, &quantized.palette)
            .map_err(|e| encode_error(e.into()))?;
        let first = quantized.indices.clone();
        let sequence = FrameSequence::starting_with(writer, first, width, height, settings);
        let (writer, frames) = record_frames(gpu, run.as_mut(), &plan, sequence, name, progress).await?;
        let bytes = writer.finish().map_err(|e| encode_error(e.into()))?;
        (bytes, frames, run, plan.every, Some(PaletteUse::of(&quantized.palette)))
    } else {
        let mut run = start(picture);
        let plan = FramePlan::new(run.total_steps(), settings)?;
        let (w, h) = png_size(width, height, settings)?;
        let opaque = is_opaque(picture);
        let writer = match format {
            RecordFormat::Apng => {
                ExactWriter::Apng(ApngWriter::new(std::io::Cursor::new(Vec::new()), w, h, opaque, 1))
            }
            _ => ExactWriter::Frames(PngFramesWriter::new(
                ZipFiles::new(&folder_of(name), now()),
                w,
                h,
                opaque,
                1,
            )),
        };
        let sequence = FrameSequence::starting_with(writer, rgba_pixels(picture), width, height, settings);
        let (writer, frames) = record_frames(gpu, run.as_mut(), &plan, sequence, name, progress).await?;
        let bytes = match writer.finish().map_err(encode_error)? {
            ExactOutput::Apng(out) => out.into_inner(),
            ExactOutput::Frames(zip, _) => zip.finish().map_err(encode_error)?,
        };
        (bytes, frames, run, plan.every, None)
    };
    gpu.check()?;
    Ok(InMemory { bytes, recorded: Recorded::of(format, frames, run.as_ref(), every, palette) })
}

/// Runs the sort, taking a frame every `plan.every` steps into `frames` (the first frame, the
/// input, is already there); returns the writer, every frame in it, and the frames written.
async fn record_frames<S: FrameSink>(
    gpu: &Gpu,
    run: &mut dyn SortRun,
    plan: &FramePlan,
    mut frames: FrameSequence<S>,
    name: &str,
    mut progress: impl FnMut(u32, u32) -> bool,
) -> Result<(S, u32), RecordError> {
    let encode_error = |source: EncodeError| RecordError::Encode { path: name.into(), source };
    let driver = Driver::new(run);
    let mut sorted = run.stats().sorted_after.is_some();
    while !sorted && run.steps_done() < plan.steps {
        let n = plan.every.min(plan.steps - run.steps_done());
        driver.run_steps(gpu, run, n, "record::in_memory").await?;
        let state = read_texture_async(gpu, run.state()).await?;
        let mut picture = Vec::with_capacity(state.width() as usize * state.height() as usize);
        S::Pixel::extend_from_rgba(state.as_raw(), &mut picture);
        // As the file recorder does: a frame after the one that showed the picture sorted
        // would repeat it.
        let sorted_after = run.stats().sorted_after;
        if sorted_after.is_none_or(|s| frames.last_steps < s) {
            frames.push(picture, run.steps_done()).map_err(encode_error)?;
        }
        sorted = sorted_after.is_some();
        if !progress(frames.written + 1, plan.max_frames) {
            return Err(RecordError::Cancelled);
        }
    }
    frames.finish().map_err(encode_error)
}

/// The folder a zip of frames named `name` unpacks into: its name without the extension.
pub(super) fn folder_of(name: &str) -> String {
    let file = name.rsplit('/').next().unwrap_or(name);
    file.strip_suffix(".zip").unwrap_or(file).to_owned()
}

/// Seconds since 1970, by the page's clock in the browser.
pub(super) fn now() -> u64 {
    web_time::SystemTime::now().duration_since(web_time::UNIX_EPOCH).map_or(0, |d| d.as_secs())
}
