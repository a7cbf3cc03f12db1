//! GPU to CPU copies: textures (256-byte row padding handled here, once) and buffers.

use crate::gpu::{Gpu, GpuError};
use image::RgbaImage;

/// Bytes per texel of every picture texture (`Rgba8Uint`).
const TEXEL_BYTES: u32 = 4;

/// Row pitch of a texture-to-buffer copy: `width * 4` rounded up to 256 bytes.
pub fn padded_row_bytes(width: u32) -> u32 {
    (width * TEXEL_BYTES).next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT)
}

/// A buffer the GPU copies into and the CPU maps to read.
fn staging_buffer(gpu: &Gpu, size: u64, label: &str) -> wgpu::Buffer {
    gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size,
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    })
}

/// Appends the rows of a texture copy (each [`padded_row_bytes`] long) to `out` without their
/// padding.
pub fn unpad_rows(data: &[u8], width: u32, out: &mut Vec<u8>) {
    for row in data.chunks_exact(padded_row_bytes(width) as usize) {
        out.extend_from_slice(&row[..(width * TEXEL_BYTES) as usize]);
    }
}

/// Reads a 4-byte-per-texel 2-D texture into a picture. Large textures are copied in bands of
/// rows so that no staging buffer exceeds the device's `max_buffer_size`.
pub fn read_texture(gpu: &Gpu, texture: &wgpu::Texture) -> Result<RgbaImage, GpuError> {
    pollster::block_on(read_texture_async(gpu, texture))
}

/// [`read_texture`] as a future (see [`map_and_read_async`]).
pub async fn read_texture_async(gpu: &Gpu, texture: &wgpu::Texture) -> Result<RgbaImage, GpuError> {
    let (width, height) = (texture.width(), texture.height());
    let pitch = padded_row_bytes(width);
    let max_rows = (gpu.device.limits().max_buffer_size / u64::from(pitch)).max(1);
    let band_rows = u32::try_from(max_rows).unwrap_or(u32::MAX).min(height);
    let staging = staging_buffer(gpu, u64::from(pitch) * u64::from(band_rows), "readback::texture_staging");
    let mut out = Vec::with_capacity((width * TEXEL_BYTES) as usize * height as usize);
    let mut y = 0;
    while y < height {
        let rows = band_rows.min(height - y);
        let mut encoder = gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("readback::texture") });
        encode_rows_copy(&mut encoder, texture, y..y + rows, &staging, 0);
        gpu.queue.submit([encoder.finish()]);
        let bytes = u64::from(pitch) * u64::from(rows);
        map_and_read_async(gpu, &staging, bytes, |data| unpad_rows(data, width, &mut out)).await?;
        y += rows;
    }
    Ok(RgbaImage::from_raw(width, height, out).expect("rows of width * 4 bytes"))
}

/// A copy into a staging buffer on its way to the CPU: submitted, with its mapping asked for.
/// [`PendingMap::finish`], on any thread, waits for that submission alone, so the GPU and the
/// caller may go on with the next frame meanwhile.
#[cfg(not(target_arch = "wasm32"))]
pub struct PendingMap {
    staging: wgpu::Buffer,
    bytes: u64,
    submission: wgpu::SubmissionIndex,
    mapped: std::sync::mpsc::Receiver<Result<(), wgpu::BufferAsyncError>>,
}

#[cfg(not(target_arch = "wasm32"))]
impl PendingMap {
    /// Submits `encoder` (which copies into `staging`) and asks for the first `bytes` of
    /// `staging` to be mapped once the copy is done.
    pub fn submit(gpu: &Gpu, encoder: wgpu::CommandEncoder, staging: wgpu::Buffer, bytes: u64) -> PendingMap {
        let submission = gpu.queue.submit([encoder.finish()]);
        let (tx, mapped) = std::sync::mpsc::channel();
        staging.map_async(wgpu::MapMode::Read, ..bytes, move |r| {
            // Nobody may be waiting any more (an error ended the clip): the result is not needed.
            let _ = tx.send(r);
        });
        PendingMap { staging, bytes, submission, mapped }
    }

    /// Waits for the copy, hands the mapped bytes to `read`, and returns the staging buffer for
    /// the next read.
    pub fn finish(self, gpu: &Gpu, read: impl FnOnce(&[u8])) -> Result<wgpu::Buffer, GpuError> {
        let wait = wgpu::PollType::Wait { submission_index: Some(self.submission), timeout: None };
        gpu.device.poll(wait).map_err(|e| GpuError::Device(e.to_string()))?;
        self.mapped
            .recv()
            .map_err(|_| GpuError::Device("buffer mapping was dropped".into()))?
            .map_err(|e| GpuError::Device(format!("buffer mapping failed: {e}")))?;
        gpu.check()?;
        {
            let view =
                self.staging.get_mapped_range(..self.bytes).map_err(|e| GpuError::Device(e.to_string()))?;
            read(&view);
        }
        self.staging.unmap();
        Ok(self.staging)
    }
}

/// The staging buffer given, or a new one where it is missing or smaller than `bytes`.
pub fn staging_at_least(gpu: &Gpu, staging: Option<wgpu::Buffer>, bytes: u64, label: &str) -> wgpu::Buffer {
    staging.filter(|b| b.size() >= bytes).unwrap_or_else(|| staging_buffer(gpu, bytes, label))
}

/// A texture's copy on its way to the CPU ([`start_read`]).
#[cfg(not(target_arch = "wasm32"))]
pub struct PendingRead {
    map: PendingMap,
    size: (u32, u32),
}

/// Starts reading a 4-byte-per-texel texture back into `staging` (made, or made larger, when
/// it is missing or too small); `None` when the texture is too large for one buffer (then
/// [`read_texture`] reads it in bands).
#[cfg(not(target_arch = "wasm32"))]
pub fn start_read(gpu: &Gpu, texture: &wgpu::Texture, staging: Option<wgpu::Buffer>) -> Option<PendingRead> {
    let (width, height) = (texture.width(), texture.height());
    let bytes = u64::from(padded_row_bytes(width)) * u64::from(height);
    if bytes > gpu.device.limits().max_buffer_size {
        return None;
    }
    let staging = staging_at_least(gpu, staging, bytes, "readback::pending_staging");
    let mut encoder = gpu
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("readback::pending") });
    encode_rows_copy(&mut encoder, texture, 0..height, &staging, 0);
    Some(PendingRead { map: PendingMap::submit(gpu, encoder, staging, bytes), size: (width, height) })
}

#[cfg(not(target_arch = "wasm32"))]
impl PendingRead {
    /// Waits for the copy and returns the picture, with the staging buffer for the next read.
    pub fn finish(self, gpu: &Gpu) -> Result<(RgbaImage, wgpu::Buffer), GpuError> {
        let (width, height) = self.size;
        let mut out = Vec::with_capacity((width * TEXEL_BYTES) as usize * height as usize);
        let staging = self.map.finish(gpu, |data| unpad_rows(data, width, &mut out))?;
        let picture = RgbaImage::from_raw(width, height, out).expect("rows of width * 4 bytes");
        Ok((picture, staging))
    }
}

/// Encodes a copy of rows `rows` of a 4-byte-per-texel texture into `buffer` at `offset`, each
/// row [`padded_row_bytes`] apart.
pub fn encode_rows_copy(
    encoder: &mut wgpu::CommandEncoder,
    texture: &wgpu::Texture,
    rows: std::ops::Range<u32>,
    buffer: &wgpu::Buffer,
    offset: u64,
) {
    let width = texture.width();
    encoder.copy_texture_to_buffer(
        wgpu::TexelCopyTextureInfo {
            texture,
            mip_level: 0,
            origin: wgpu::Origin3d { x: 0, y: rows.start, z: 0 },
            aspect: wgpu::TextureAspect::All,
        },
        wgpu::TexelCopyBufferInfo {
            buffer,
            layout: wgpu::TexelCopyBufferLayout {
                offset,
                bytes_per_row: Some(padded_row_bytes(width)),
                rows_per_image: Some(rows.len() as u32),
            },
        },
        wgpu::Extent3d { width, height: rows.len() as u32, depth_or_array_layers: 1 },
    );
}

/// Reads `count` u32 values from a buffer with `COPY_SRC` usage, starting at byte `offset`.
pub fn read_u32s(gpu: &Gpu, buffer: &wgpu::Buffer, offset: u64, count: usize) -> Result<Vec<u32>, GpuError> {
    let bytes = count as u64 * 4;
    if bytes == 0 {
        return Ok(Vec::new());
    }
    let staging = staging_buffer(gpu, bytes, "readback::buffer_staging");
    let mut encoder = gpu
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("readback::buffer") });
    encoder.copy_buffer_to_buffer(buffer, offset, &staging, 0, bytes);
    gpu.queue.submit([encoder.finish()]);
    let mut out = Vec::with_capacity(count);
    map_and_read(gpu, &staging, bytes, |data| out.extend_from_slice(bytemuck::cast_slice(data)))?;
    Ok(out)
}

/// Maps the first `bytes` of a `MAP_READ` buffer, waits for it, hands the bytes to `read`, unmaps.
pub fn map_and_read(
    gpu: &Gpu,
    staging: &wgpu::Buffer,
    bytes: u64,
    read: impl FnOnce(&[u8]),
) -> Result<(), GpuError> {
    pollster::block_on(map_and_read_async(gpu, staging, bytes, read))
}

/// [`map_and_read`] as a future. Natively the device is polled to completion here, so the future
/// is ready when first polled; in the browser (where nothing may block) the page's event loop
/// delivers the mapping while the future waits.
pub async fn map_and_read_async(
    gpu: &Gpu,
    staging: &wgpu::Buffer,
    bytes: u64,
    read: impl FnOnce(&[u8]),
) -> Result<(), GpuError> {
    let (tx, rx) = futures_channel::oneshot::channel();
    staging.map_async(wgpu::MapMode::Read, ..bytes, move |r| {
        // The receiver is awaited just below; should it be gone, nobody wants the result.
        let _ = tx.send(r);
    });
    #[cfg(not(target_arch = "wasm32"))]
    gpu.wait()?;
    rx.await
        .map_err(|_| GpuError::Device("buffer mapping was dropped".into()))?
        .map_err(|e| GpuError::Device(format!("buffer mapping failed: {e}")))?;
    gpu.check()?;
    {
        let view = staging.get_mapped_range(..bytes).map_err(|e| GpuError::Device(e.to_string()))?;
        read(&view);
    }
    staging.unmap();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_padded_to_256_bytes() {
        assert_eq!(padded_row_bytes(1), 256);
        assert_eq!(padded_row_bytes(64), 256);
        assert_eq!(padded_row_bytes(65), 512);
        assert_eq!(padded_row_bytes(600), 2560);
    }
}
