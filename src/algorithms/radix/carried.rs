//! The interval ids pixels carry through the radix view's passes within intervals.

use crate::algorithms::interval_texture::{IntervalTexture, interval_id_texture};
use crate::gpu::Gpu;
use crate::intervals::IntervalMap;

/// The interval ids the pixels carry through the passes: the map, and two textures ping-ponged
/// with the pictures (`ids[k % 2]` holds them after `k` digit passes). Without a map all three
/// are 1x1 stand-ins that the kernels never read or write; the two are stand-ins too until
/// [`CarriedIntervals::carry`], since lines on the segmented sort read the map alone.
pub(super) struct CarriedIntervals {
    pub(super) map: IntervalTexture,
    pub(super) ids: [wgpu::Texture; 2],
    pub(super) views: [wgpu::TextureView; 2],
    /// The longest interval, with a map.
    pub(super) max_interval_len: Option<u32>,
}

impl CarriedIntervals {
    pub(super) fn new(gpu: &Gpu, intervals: Option<&IntervalMap>) -> Self {
        let map = IntervalTexture::new(gpu, intervals, "radix::intervals");
        let (ids, views) = Self::textures(gpu, (1, 1));
        CarriedIntervals { map, ids, views, max_interval_len: intervals.map(IntervalMap::max_interval_len) }
    }

    /// A map of `width` x `height` that a kernel writes before the first step, whose intervals are
    /// at most `longest` long.
    pub(super) fn written_on_gpu(gpu: &Gpu, width: u32, height: u32, longest: u32) -> Self {
        let map = IntervalTexture::written_on_gpu(gpu, width, height, "radix::intervals");
        let (ids, views) = Self::textures(gpu, (1, 1));
        CarriedIntervals { map, ids, views, max_interval_len: Some(longest) }
    }

    fn textures(gpu: &Gpu, (width, height): (u32, u32)) -> ([wgpu::Texture; 2], [wgpu::TextureView; 2]) {
        let ids =
            [0, 1].map(|i| interval_id_texture(gpu, width, height, &format!("radix::interval_ids[{i}]")));
        let views = ids.each_ref().map(|t| t.create_view(&Default::default()));
        (ids, views)
    }

    /// Whether the two textures carry ids through the view's own kernels (they have the map's size).
    fn carries(&self) -> bool {
        self.ids[0].size() == self.map.texture().size()
    }

    /// Makes the two textures the map's size, for the view's own kernels; returns whether they
    /// were made anew (the bind groups holding them must be too).
    pub(super) fn carry(&mut self, gpu: &Gpu) -> bool {
        if self.carries() {
            return false;
        }
        let map = self.map.texture();
        (self.ids, self.views) = Self::textures(gpu, (map.width(), map.height()));
        true
    }

    /// Uploads `intervals` (see [`IntervalTexture::set`]); returns whether the textures were made
    /// anew.
    pub(super) fn set(&mut self, gpu: &Gpu, intervals: Option<&IntervalMap>) -> bool {
        self.max_interval_len = intervals.map(IntervalMap::max_interval_len);
        let carried = self.carries();
        let replaced = self.map.set(gpu, intervals);
        if replaced {
            let map = self.map.texture();
            let size = if carried { (map.width(), map.height()) } else { (1, 1) };
            (self.ids, self.views) = Self::textures(gpu, size);
        }
        replaced
    }

    /// Encodes copying the map into `ids[0]`, the ids at step 0, where they are carried.
    pub(super) fn encode_restart(&self, encoder: &mut wgpu::CommandEncoder) {
        if self.carries() {
            let map = self.map.texture();
            encoder.copy_texture_to_texture(map.as_image_copy(), self.ids[0].as_image_copy(), map.size());
        }
    }
}
