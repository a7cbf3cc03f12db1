//! Recordings of a sort, one frame per pass, each frame stored as the region that changed:
//! - GIF: quantized once from the source, each pixel's palette index carried through the sort in
//!   the alpha byte;
//! - animated PNG, and a folder of PNG frames: every frame the sort's exact RGBA.
//!
//! Natively ([`to_file`]) frames are read back through a ring of staging buffers and compressed
//! on worker threads into a file or folder ([`target`] chooses by the path); in the browser
//! ([`in_memory`]) each frame is awaited and compressed in turn into a GIF in memory, the same
//! GIF as the file.

// Natively only (they need files or threads), as each says at its top: `capture`,
// `ordered_pool` (the page uses `inline_pool` in its place), `target` and `to_file`.
pub mod apng_writer;
pub mod capture;
pub mod delta;
pub mod exact;
pub mod format;
pub mod gif_writer;
pub mod in_memory;
pub mod inline_pool;
#[cfg(not(target_arch = "wasm32"))]
pub mod ordered_pool;
#[cfg(target_arch = "wasm32")]
pub use inline_pool as ordered_pool;
pub mod palette;
pub mod png_frames;
pub mod sequence;
pub mod take;
pub mod target;
pub mod to_file;
pub mod zip;

use crate::gpu::GpuError;
use crate::settings::RecordSettings;
pub use format::RecordFormat;
use sequence::FrameSequence;
#[cfg(not(target_arch = "wasm32"))]
pub use target::RecordTarget;
#[cfg(not(target_arch = "wasm32"))]
pub use to_file::{RecordReport, SweepReport, record, record_sweep};

/// A GIF's palette: how many colours it used, and whether it holds every source colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PaletteUse {
    /// Palette colours used.
    pub colours: usize,
    /// Whether the palette holds every source colour exactly.
    pub exact: bool,
}

impl PaletteUse {
    pub(crate) fn of(palette: &palette::GifPalette) -> Self {
        PaletteUse { colours: palette.colours.len(), exact: palette.exact }
    }
}

/// What went into a recording, wherever it went (a file, a folder, memory).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Recorded {
    /// GIF, APNG or PNG frames.
    pub format: RecordFormat,
    /// Frames written.
    pub frames: u32,
    /// Steps run on the GPU.
    pub steps_run: u32,
    /// Steps between frames.
    pub every: u32,
    /// After how many steps the picture was known sorted, if it was.
    pub sorted_after: Option<u32>,
    /// The GIF's palette; `None` for the exact formats.
    pub palette: Option<PaletteUse>,
}

impl Recorded {
    /// `frames` of `run` in `format`, `every` steps apart.
    pub(crate) fn of(
        format: RecordFormat,
        frames: u32,
        run: &dyn crate::algorithms::SortRun,
        every: u32,
        palette: Option<PaletteUse>,
    ) -> Self {
        let sorted_after = run.stats().sorted_after;
        Recorded { format, frames, steps_run: run.steps_done(), every, sorted_after, palette }
    }
}

/// Frames a recording may have when neither `--every` nor `--max-frames` was given.
pub const DEFAULT_FRAME_LIMIT: u32 = 1000;

/// Which passes become frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FramePlan {
    /// Steps to run at most.
    pub steps: u32,
    /// Steps between frames.
    pub every: u32,
    /// Frames if the sort needs every pass: the input, then one per `every` passes, then the last state.
    pub max_frames: u32,
}

impl FramePlan {
    /// Plans a recording of a run of `total_steps` steps; refuses more than
    /// [`DEFAULT_FRAME_LIMIT`] frames unless the user chose the spacing.
    pub fn new(total_steps: u32, settings: &RecordSettings) -> Result<Self, RecordError> {
        let steps = settings.steps.unwrap_or(total_steps).min(total_steps);
        let every = match (settings.every, settings.max_frames) {
            (Some(every), _) => every.max(1),
            (None, Some(max)) => steps.div_ceil(max.max(2) - 1).max(1),
            (None, None) => 1,
        };
        let max_frames = steps.div_ceil(every) + 1;
        if settings.every.is_none() && settings.max_frames.is_none() && max_frames > DEFAULT_FRAME_LIMIT {
            let every = steps.div_ceil(DEFAULT_FRAME_LIMIT - 1);
            return Err(RecordError::TooManyFrames { frames: max_frames, steps, every });
        }
        Ok(FramePlan { steps, every, max_frames })
    }
}

/// Why a recording failed.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// Too many frames for a GIF anyone would want, unless asked for.
    #[error(
        "a frame per step would make {frames} frames ({steps} steps), more than {DEFAULT_FRAME_LIMIT}; pass --max-frames {DEFAULT_FRAME_LIMIT} or --every {every} (or any other spacing) to record it"
    )]
    TooManyFrames {
        /// Frames it would have.
        frames: u32,
        /// Steps of the sort.
        steps: u32,
        /// A spacing that fits the limit.
        every: u32,
    },
    /// Frames too large for the GPU's buffers or for GIF.
    #[error("{0}")]
    TooLarge(String),
    /// A format this recording is not made in, and what to do instead.
    #[error("{0}")]
    Format(&'static str),
    /// The GPU failed.
    #[error(transparent)]
    Gpu(#[from] GpuError),
    /// Writing the file failed.
    #[error("cannot write '{path}': {source}")]
    Encode {
        /// The target.
        path: std::path::PathBuf,
        /// The encoder's reason.
        source: EncodeError,
    },
    /// The file could not be put in place.
    #[cfg(not(target_arch = "wasm32"))]
    #[error(transparent)]
    Output(#[from] crate::picture::output::OutputError),
    /// A frame's intervals cannot be sorted by this algorithm.
    #[error(transparent)]
    Intervals(#[from] crate::algorithms::interval_texture::IntervalMapError),
    /// Ctrl-C.
    #[cfg(not(target_arch = "wasm32"))]
    #[error(transparent)]
    Interrupted(#[from] crate::interrupt::Interrupted),
    /// The caller's progress callback asked to stop (an in-memory recording).
    #[error("the recording was cancelled")]
    Cancelled,
}

/// Why an encoder failed.
#[derive(Debug, thiserror::Error)]
pub enum EncodeError {
    /// The GIF encoder's reason.
    #[error(transparent)]
    Gif(#[from] gif::EncodingError),
    /// The PNG encoder's reason.
    #[error(transparent)]
    Png(#[from] png::EncodingError),
    /// Writing failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// ffmpeg failed to write a video, for this reason.
    #[error("{0}")]
    Video(String),
}

/// The palette and indices a recording of `picture` uses, as `settings` ask (with dimmed twins
/// for the radix view's staged scatters).
fn quantize_for(picture: &image::RgbaImage, settings: &RecordSettings) -> palette::Quantized {
    if settings.dimmed_twins {
        palette::quantize_with_dimmed_twins(picture, settings.background, settings.dither)
    } else {
        palette::quantize(picture, settings.background, settings.dither)
    }
}

/// The GIF's size: `width` x `height` scaled by `settings.scale`, or an error past GIF's limit.
fn gif_size(width: u32, height: u32, settings: &RecordSettings) -> Result<(u32, u32), RecordError> {
    let scaled = |side: u32| side.checked_mul(settings.scale).filter(|&s| s <= u32::from(u16::MAX));
    match (scaled(width), scaled(height)) {
        (Some(w), Some(h)) => Ok((w, h)),
        _ => Err(RecordError::TooLarge(format!(
            "{width}x{height} scaled by {} exceeds GIF's 65535-pixel limit; use a smaller --scale",
            settings.scale
        ))),
    }
}

/// Whether every pixel is opaque (then every frame is, since sorting only moves pixels).
pub(crate) fn is_opaque(picture: &image::RgbaImage) -> bool {
    picture.pixels().all(|p| p[3] == 255)
}

fn rgba_pixels(picture: &image::RgbaImage) -> Vec<apng_writer::Rgba> {
    picture.pixels().map(|p| p.0).collect()
}

/// Most pixels a scaled-up PNG frame may have (a frame is held whole in memory several times).
const MAX_SCALED_PNG_PIXELS: u64 = 1 << 26;

/// A PNG recording's frame size: `width` x `height` scaled by `settings.scale`, or an error when
/// scaling up makes frames of more than [`MAX_SCALED_PNG_PIXELS`].
fn png_size(width: u32, height: u32, settings: &RecordSettings) -> Result<(u32, u32), RecordError> {
    let (w, h) =
        (u64::from(width) * u64::from(settings.scale), u64::from(height) * u64::from(settings.scale));
    if settings.scale > 1 && w * h > MAX_SCALED_PNG_PIXELS {
        return Err(RecordError::TooLarge(format!(
            "{width}x{height} scaled by {} makes {w}x{h} frames, more than {} million pixels each; use a smaller --scale",
            settings.scale,
            MAX_SCALED_PNG_PIXELS >> 20
        )));
    }
    Ok((w as u32, h as u32))
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
        let short = RecordSettings { steps: Some(10), ..settings(None, None) };
        assert_eq!(FramePlan::new(600, &short).unwrap().max_frames, 11);
    }

    #[test]
    fn long_recordings_need_to_be_asked_for() {
        let e = FramePlan::new(4000, &settings(None, None)).unwrap_err();
        assert!(e.to_string().contains("4001 frames"), "{e}");
        assert!(FramePlan::new(4000, &settings(Some(1), None)).is_ok());
        assert!(FramePlan::new(4000, &settings(None, Some(5000))).is_ok());
    }
}
