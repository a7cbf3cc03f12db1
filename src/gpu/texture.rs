//! Picture textures: `Rgba8Uint` so that sorting copies pixels bit for bit, never through floats.

use crate::gpu::Gpu;
use image::RgbaImage;

/// The texel format of every picture the sorts work on.
pub const PICTURE_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Uint;

/// A picture texture that can be sampled, stored to, rendered to, copied and read back.
pub fn create_picture_texture(gpu: &Gpu, width: u32, height: u32, label: &str) -> wgpu::Texture {
    create_texture_2d(
        gpu,
        (width, height),
        PICTURE_FORMAT,
        wgpu::TextureUsages::TEXTURE_BINDING
            | wgpu::TextureUsages::STORAGE_BINDING
            | wgpu::TextureUsages::RENDER_ATTACHMENT
            | wgpu::TextureUsages::COPY_SRC
            | wgpu::TextureUsages::COPY_DST,
        label,
    )
}

/// A plain 2-D texture (one mip level, one sample) of `format` with `usage`.
pub fn create_texture_2d(
    gpu: &Gpu,
    (width, height): (u32, u32),
    format: wgpu::TextureFormat,
    usage: wgpu::TextureUsages,
    label: &str,
) -> wgpu::Texture {
    gpu.device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage,
        view_formats: &[],
    })
}

/// Writes a picture into a texture of the same size.
pub fn upload_picture(gpu: &Gpu, texture: &wgpu::Texture, picture: &RgbaImage) {
    assert_eq!((texture.width(), texture.height()), picture.dimensions(), "upload size mismatch");
    gpu.queue.write_texture(
        wgpu::TexelCopyTextureInfo {
            texture,
            mip_level: 0,
            origin: wgpu::Origin3d::ZERO,
            aspect: wgpu::TextureAspect::All,
        },
        picture.as_raw(),
        wgpu::TexelCopyBufferLayout {
            offset: 0,
            bytes_per_row: Some(picture.width() * 4),
            rows_per_image: Some(picture.height()),
        },
        texture.size(),
    );
}

/// A new texture holding `picture`.
pub fn picture_texture(gpu: &Gpu, picture: &RgbaImage, label: &str) -> wgpu::Texture {
    let texture = create_picture_texture(gpu, picture.width(), picture.height(), label);
    upload_picture(gpu, &texture, picture);
    texture
}

/// Encodes a full copy of one picture texture into another of the same size.
pub fn copy_picture(encoder: &mut wgpu::CommandEncoder, from: &wgpu::Texture, to: &wgpu::Texture) {
    encoder.copy_texture_to_texture(from.as_image_copy(), to.as_image_copy(), from.size());
}
