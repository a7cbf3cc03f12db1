//! Intervals on the GPU: the interval map as an `R32Uint` texture the sorts bind, and why an
//! interval map cannot be used.
//!
//! A run without a map binds a 1x1 stand-in and runs the kernels built without interval checks
//! (odd-even and bubble; the `INTERVALS` override of `shaders/intervals.wgsl`), or tells them
//! through a flag (the radix view), so the plain sort reads no interval ids at all. A new map is
//! one texture upload ([`IntervalTexture::set`]); the texture is only made anew when the picture's
//! size needs it.

use crate::gpu::Gpu;
use crate::gpu::recycle::Recycled;
use crate::intervals::IntervalMap;
use crate::keys::options::Axis;

/// The texel format of interval ids.
pub const INTERVAL_ID_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::R32Uint;

/// Why a sort cannot run within an interval map.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum IntervalMapError {
    /// The map was made for another picture size or axis.
    #[error(
        "the interval map is {}x{} along {}, but the picture is {}x{} sorted along {}; compute the map from the picture being sorted",
        map.0, map.1, map.2.name(), picture.0, picture.1, picture.2.name()
    )]
    Mismatch {
        /// The map's width, height and axis.
        map: (u32, u32, Axis),
        /// The picture's width, height and the sort's axis.
        picture: (u32, u32, Axis),
    },
    /// The radix view's interval ids and key do not fit 32 bits.
    #[error("{0}")]
    KeyTooWide(String),
    /// Intervals are parts of lines; the radix view's whole-picture scope has no lines.
    #[error(
        "--scope image sorts the whole picture as one sequence, but intervals (--intervals, --threshold, --mask) are parts of lines; drop --scope image or the interval flags"
    )]
    WholePicture,
    /// Lines at an angle or along a path are lines; the radix view's whole-picture scope has none.
    #[error(
        "--scope image sorts the whole picture as one sequence in scanline order, which has no lines to turn to an angle or bend along a path; drop --scope image or --angle (or --path: its spiral and Hilbert curve are one sequence already)"
    )]
    WholePictureAtAngle,
    /// A path's one sequence too long for a texture row: only the radix view sorts it, whole.
    #[error(
        "this path is one sequence of {length} pixels, longer than this GPU's texture rows: only the radix view sorts it, as one whole sequence without intervals; use --algorithm radix without interval flags, --path rings or rays, or a smaller picture (--max-size)"
    )]
    LongSequence {
        /// The sequence's length.
        length: u64,
    },
}

/// The pipeline constant that builds a comparison kernel (odd-even, bubble) with or without the
/// interval check: `INTERVALS` in `shaders/intervals.wgsl`. Their pipelines come in pairs indexed
/// by `usize::from(with_intervals)`.
pub fn intervals_constant(with_intervals: bool) -> (&'static str, f64) {
    ("INTERVALS", if with_intervals { 1.0 } else { 0.0 })
}

/// Checks that `intervals` (if any: whole lines fit every picture) was made for a `width` x
/// `height` picture sorted along `axis`.
pub fn check_map(
    intervals: Option<&IntervalMap>,
    (width, height): (u32, u32),
    axis: Axis,
) -> Result<(), IntervalMapError> {
    let Some(intervals) = intervals else { return Ok(()) };
    let map = (intervals.width(), intervals.height(), intervals.axis());
    if map == (width, height, axis) {
        Ok(())
    } else {
        Err(IntervalMapError::Mismatch { map, picture: (width, height, axis) })
    }
}

/// A texture of interval ids (`width` x `height`, [`INTERVAL_ID_FORMAT`]) that kernels can load,
/// store to, and copies can fill. It can be rendered to as well, only so that wgpu clears it
/// before its first use in one render pass rather than in copies of half a megabyte.
pub fn interval_id_texture(gpu: &Gpu, width: u32, height: u32, label: &str) -> wgpu::Texture {
    crate::gpu::texture::create_texture_2d(
        gpu,
        (width, height),
        INTERVAL_ID_FORMAT,
        wgpu::TextureUsages::TEXTURE_BINDING
            | wgpu::TextureUsages::STORAGE_BINDING
            | wgpu::TextureUsages::RENDER_ATTACHMENT
            | wgpu::TextureUsages::COPY_SRC
            | wgpu::TextureUsages::COPY_DST,
        label,
    )
}

/// The interval map of a sort on the GPU, or a 1x1 stand-in while it has none.
pub struct IntervalTexture {
    texture: wgpu::Texture,
    view: wgpu::TextureView,
    enabled: bool,
    label: String,
    /// Where the texture came from the last runs' (a map written on the GPU), held until it
    /// is replaced or the map dropped, then given back.
    spare: Option<Recycled<(u32, u32), wgpu::Texture>>,
}

impl IntervalTexture {
    /// Uploads `intervals`, or makes the stand-in; `label` names the texture.
    pub fn new(gpu: &Gpu, intervals: Option<&IntervalMap>, label: &str) -> Self {
        let (width, height) = intervals.map_or((1, 1), |r| (r.width(), r.height()));
        let texture = interval_id_texture(gpu, width, height, label);
        let view = texture.create_view(&Default::default());
        let mut interval_texture =
            IntervalTexture { texture, view, enabled: false, label: label.into(), spare: None };
        interval_texture.set(gpu, intervals);
        interval_texture
    }

    /// A map of `width` x `height` whose ids a kernel writes (`found_intervals`, every texel)
    /// before any step reads them, so the last runs' texture of that size will do.
    pub fn written_on_gpu(gpu: &Gpu, width: u32, height: u32, label: &str) -> Self {
        let make = || Some(interval_id_texture(gpu, width, height, label));
        let spare = gpu.interval_spares.take((width, height), make).expect("made where there is no spare");
        let texture = (*spare).clone();
        let view = texture.create_view(&Default::default());
        IntervalTexture { texture, view, enabled: true, label: label.into(), spare: Some(spare) }
    }

    /// Makes `intervals` the map (`None`: none, every line one interval), uploading it into the
    /// texture, which is made anew only when its size differs; returns whether it was (then bind
    /// groups holding the old view must be made again). The upload reaches every step submitted
    /// after.
    pub fn set(&mut self, gpu: &Gpu, intervals: Option<&IntervalMap>) -> bool {
        self.enabled = intervals.is_some();
        let Some(intervals) = intervals else { return false };
        let replaced =
            (self.texture.width(), self.texture.height()) != (intervals.width(), intervals.height());
        if replaced {
            self.spare = None;
            self.texture = interval_id_texture(gpu, intervals.width(), intervals.height(), &self.label);
            self.view = self.texture.create_view(&Default::default());
        }
        gpu.queue.write_texture(
            self.texture.as_image_copy(),
            bytemuck::cast_slice(intervals.ids()),
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(intervals.width() * 4),
                rows_per_image: Some(intervals.height()),
            },
            self.texture.size(),
        );
        replaced
    }

    /// The texture (the map, or the stand-in).
    pub fn texture(&self) -> &wgpu::Texture {
        &self.texture
    }

    /// Its view.
    pub fn view(&self) -> &wgpu::TextureView {
        &self.view
    }

    /// Whether there is a map (else the stand-in).
    pub fn enabled(&self) -> bool {
        self.enabled
    }
}
