//! Whole textures read back without the frame waiting on the GPU: a texture is copied into
//! staging buffers in bands of rows (no buffer past the device's limit), and a later frame gets
//! the picture once its last band has come back. What S saves and what a take records.

use crate::gpu::readback::{encode_rows_copy, padded_row_bytes, unpad_rows};
use crate::gpu::readbacks::Readbacks;
use crate::gpu::{Gpu, GpuError};
use image::RgbaImage;

/// One band of rows of a texture's copy; the last carries the copy's label.
struct Band<T> {
    width: u32,
    height: u32,
    last: Option<T>,
}

/// Copies of textures on their way back, each labelled with a `T`.
pub struct TextureReads<T> {
    readbacks: Readbacks<Band<T>>,
    /// The rows of the picture being put together, unpadded.
    rows: Vec<u8>,
}

impl<T> Default for TextureReads<T> {
    fn default() -> Self {
        TextureReads { readbacks: Readbacks::default(), rows: Vec::new() }
    }
}

impl<T> TextureReads<T> {
    /// Encodes and submits copying `texture` (4 bytes a texel), labelled `tag`.
    pub fn encode(&mut self, gpu: &Gpu, texture: &wgpu::Texture, tag: T) {
        let (width, height) = (texture.width(), texture.height());
        let pitch = u64::from(padded_row_bytes(width));
        let band_rows =
            (gpu.device.limits().max_buffer_size / pitch).clamp(1, u64::from(height.max(1))) as u32;
        let mut encoder = gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("texture_reads::copy") });
        let mut tag = Some(tag);
        let mut y = 0;
        while y < height {
            let rows = band_rows.min(height - y);
            let last = if y + rows == height { tag.take() } else { None };
            let staging = self.readbacks.staging(gpu, pitch * u64::from(rows), Band { width, height, last });
            encode_rows_copy(&mut encoder, texture, y..y + rows, staging, 0);
            y += rows;
        }
        gpu.queue.submit([encoder.finish()]);
        self.readbacks.submitted();
    }

    /// Copies encoded and not yet taken.
    pub fn pending(&self) -> bool {
        self.readbacks.pending() > 0
    }

    /// Hands each texture whose every band has come back to `done`, with its label, in the
    /// order they were encoded. An error when the GPU failed.
    pub fn take(&mut self, gpu: &Gpu, mut done: impl FnMut(T, RgbaImage)) -> Result<(), GpuError> {
        let rows = &mut self.rows;
        let taken = self.readbacks.take_ready(gpu, |band, bytes| {
            unpad_rows(bytes, band.width, rows);
            if let Some(tag) = band.last {
                let picture = RgbaImage::from_raw(band.width, band.height, std::mem::take(rows))
                    .expect("every band of rows came back");
                done(tag, picture);
            }
        });
        if taken.is_err() {
            self.rows.clear();
        }
        taken
    }
}
