//! Where a run's map comes from: made on the CPU and uploaded, or found on the GPU from the picture
//! (and a mask already there) by the kernel of `found_intervals`; and the interval texture each
//! gives.

use super::found_intervals::{FoundIntervals, IntervalsKernel};
use super::interval_texture::IntervalTexture;
use crate::gpu::Gpu;
use crate::intervals::IntervalMap;

/// Where a run's map comes from.
#[derive(Clone, Copy)]
pub enum MapSource<'a> {
    /// Made on the CPU and uploaded (`None`: every line one interval).
    Cpu(Option<&'a IntervalMap>),
    /// Intervals found on the GPU from the picture by the kernel, under any rule.
    Gpu(&'a IntervalsKernel, FoundIntervals<'a>),
}

impl<'a> MapSource<'a> {
    /// The CPU's map, if it is one.
    pub fn cpu_map(self) -> Option<&'a IntervalMap> {
        match self {
            MapSource::Cpu(intervals) => intervals,
            MapSource::Gpu(..) => None,
        }
    }

    /// The longest interval a sort within these intervals must sort, as far as the CPU knows: the
    /// map's longest, or a whole line of `line_len` (no map, or intervals found on the GPU).
    pub fn longest_interval(self, line_len: u32) -> u32 {
        self.cpu_map().map_or(line_len, IntervalMap::max_interval_len)
    }
}

impl IntervalTexture {
    /// The interval texture of `source` for `input`, a picture on the GPU: the CPU's map uploaded
    /// (or the stand-in), or the ids the kernel finds from `input`, recorded and
    /// submitted now, before any step.
    pub fn from_source(gpu: &Gpu, source: MapSource<'_>, input: &wgpu::Texture, label: &str) -> Self {
        let MapSource::Gpu(kernel, found) = source else {
            return IntervalTexture::new(gpu, source.cpu_map(), label);
        };
        let texture = IntervalTexture::written_on_gpu(gpu, input.width(), input.height(), label);
        let mut encoder =
            gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some(label) });
        kernel.encode(gpu, &mut encoder, input, texture.texture(), found);
        gpu.queue.submit([encoder.finish()]);
        texture
    }
}
