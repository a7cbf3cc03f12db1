//! Recording into memory, for the browser: the same GIF frames as [`super::record`] (the same
//! palette, plan, changed regions, delays and early end once the picture is known sorted), but
//! each frame's steps, swap counts and picture are awaited in turn, since a page may neither
//! block nor start threads, and frames are compressed as they come.

use super::gif_writer::InlineGifWriter;
use super::{FramePlan, FrameSequence, RecordError, RecordSettings, gif_size, palette, quantize_for};
use crate::algorithms::SortRun;
use crate::algorithms::swap_reader::SwapReader;
use crate::gpu::Gpu;
use crate::gpu::readback::read_texture_async;
use image::RgbaImage;

/// A GIF made in memory, and what went into it.
#[derive(Clone, Debug, PartialEq)]
pub struct GifInMemory {
    /// The file's bytes.
    pub bytes: Vec<u8>,
    /// Frames written.
    pub frames: u32,
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

/// Records a sort of `picture` as a GIF in memory; `name` is how errors name it.
///
/// `start` starts the chosen algorithm on the picture it is given (the source with palette
/// indices in alpha); `progress` hears (frames taken, most frames expected) after each frame and
/// returns false to cancel, which fails with [`RecordError::Cancelled`].
pub async fn record_gif_in_memory(
    gpu: &Gpu,
    picture: &RgbaImage,
    start: impl FnOnce(&RgbaImage) -> Box<dyn SortRun>,
    settings: &RecordSettings,
    name: &str,
    mut progress: impl FnMut(u32, u32) -> bool,
) -> Result<GifInMemory, RecordError> {
    let (width, height) = picture.dimensions();
    let quantized = quantize_for(picture, settings);
    let mut run = start(&palette::indexed_picture(picture, &quantized.indices));
    let plan = FramePlan::new(run.total_steps(), settings)?;
    let encode_error = |source: super::EncodeError| RecordError::Encode { path: name.into(), source };
    let (gif_width, gif_height) = gif_size(width, height, settings)?;
    let writer = InlineGifWriter::new(Vec::new(), gif_width, gif_height, &quantized.palette)
        .map_err(|e| encode_error(e.into()))?;
    let mut frames = FrameSequence::starting_with(writer, quantized.indices.clone(), width, height, settings);
    let reader = SwapReader::new(gpu, run.as_ref());
    let mut sorted = run.stats().sorted_after.is_some();
    while !sorted && run.steps_done() < plan.passes {
        let mut left = plan.every.min(plan.passes - run.steps_done());
        while left > 0 {
            let room = run.ledger().room(left);
            if room == 0 {
                reader.collect_async(gpu, run.as_mut()).await?;
                continue;
            }
            let mut encoder = gpu
                .device
                .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("record::in_memory") });
            left -= run.record_steps(&mut encoder, left.min(room));
            gpu.queue.submit([encoder.finish()]);
        }
        reader.collect_async(gpu, run.as_mut()).await?;
        let indices: Vec<u8> = read_texture_async(gpu, run.state()).await?.pixels().map(|p| p[3]).collect();
        // As the file recorder does: a frame after the one that showed the picture sorted
        // would repeat it.
        let sorted_after = run.stats().sorted_after;
        if sorted_after.is_none_or(|s| frames.last_steps < s) {
            frames.push(indices, run.steps_done()).map_err(encode_error)?;
        }
        sorted = sorted_after.is_some();
        if !progress(frames.written + 1, plan.max_frames) {
            return Err(RecordError::Cancelled);
        }
    }
    let (writer, written) = frames.finish().map_err(encode_error)?;
    let bytes = writer.finish().map_err(|e| encode_error(e.into()))?;
    gpu.check()?;
    Ok(GifInMemory {
        bytes,
        frames: written,
        passes_run: run.steps_done(),
        every: plan.every,
        sorted_after: run.stats().sorted_after,
        colours: quantized.palette.colours.len(),
        exact: quantized.palette.exact,
    })
}
