//! A clip's mask on the GPU: uploaded once, then read by the kernel that finds intervals
//! (`found_intervals`) for every frame. Its texels are 1 where the mask is white, exactly the
//! pixels `Mask::is_sortable` says, so the CPU's definition of white is the only one.

use super::interval_texture::interval_id_texture;
use crate::gpu::Gpu;
use crate::intervals::Mask;

/// A mask uploaded as an `r32uint` texture: 1 sortable, 0 fixed.
#[derive(Debug)]
pub struct GpuMask {
    texture: wgpu::Texture,
    view: wgpu::TextureView,
}

impl GpuMask {
    /// Uploads `mask`.
    pub fn new(gpu: &Gpu, mask: &Mask) -> Self {
        let (width, height) = mask.dimensions();
        let texture = interval_id_texture(gpu, width, height, "gpu_mask");
        let texels: Vec<u32> =
            (0..width as usize * height as usize).map(|i| u32::from(mask.is_sortable(i))).collect();
        gpu.queue.write_texture(
            texture.as_image_copy(),
            bytemuck::cast_slice(&texels),
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(width * 4),
                rows_per_image: Some(height),
            },
            texture.size(),
        );
        let view = texture.create_view(&Default::default());
        GpuMask { texture, view }
    }

    /// Width and height.
    pub fn dimensions(&self) -> (u32, u32) {
        (self.texture.width(), self.texture.height())
    }

    /// Its view, for a bind group.
    pub fn view(&self) -> &wgpu::TextureView {
        &self.view
    }
}
