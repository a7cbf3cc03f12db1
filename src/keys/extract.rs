//! The GPU side of sort keys: a kernel that writes every texel's key into a buffer.

use crate::gpu::kernel::{bind_group, compute_pipeline_on, encode_dispatch, uniform};
use crate::gpu::readback::read_u32s;
use crate::gpu::shaders::KEY_BUFFER_PROGRAM;
use crate::gpu::{Gpu, GpuError};
use crate::keys::options::SortOptions;

/// Mirrors `KeyParams` in `shaders/key_buffer.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
pub struct KeyParams {
    /// `SortKey::id`.
    pub key: u32,
    /// 1 for descending order.
    pub descending: u32,
    /// Padding to 16 bytes.
    pub pad: [u32; 2],
}

/// The key extraction pipeline, built once per device.
pub struct KeyExtractor {
    pipeline: wgpu::ComputePipeline,
}

impl KeyExtractor {
    /// Builds the pipeline.
    pub fn new(gpu: &Gpu) -> Self {
        let module = KEY_BUFFER_PROGRAM.module(&gpu.device);
        // No layout: wgpu derives it from the shader, and `record` binds through it.
        let pipeline = compute_pipeline_on(
            &gpu.device,
            gpu.pipeline_cache(),
            "key_extract::pipeline",
            None,
            &module,
            "extract_keys",
            Default::default(),
        );
        KeyExtractor { pipeline }
    }

    /// Encodes the kernel: the order key of each texel of `picture` goes to `keys`, scanline order.
    pub fn encode(
        &self,
        gpu: &Gpu,
        encoder: &mut wgpu::CommandEncoder,
        picture: &wgpu::Texture,
        options: &SortOptions,
        keys: &wgpu::Buffer,
    ) {
        let params = KeyParams { key: options.key.id(), descending: options.descending.into(), pad: [0; 2] };
        let params = uniform(gpu, "key_extract::params", &params);
        let view = picture.create_view(&Default::default());
        let bind_group = bind_group(
            &gpu.device,
            "key_extract::bind_group",
            &self.pipeline.get_bind_group_layout(0),
            [wgpu::BindingResource::TextureView(&view), params.as_entire_binding(), keys.as_entire_binding()],
        );
        encode_dispatch(
            encoder,
            "key_extract::pass",
            &self.pipeline,
            &bind_group,
            [picture.width().div_ceil(16), picture.height().div_ceil(16), 1],
        );
    }

    /// The order keys of every texel, read back (scanline order).
    pub fn keys(
        &self,
        gpu: &Gpu,
        picture: &wgpu::Texture,
        options: &SortOptions,
    ) -> Result<Vec<u32>, GpuError> {
        let count = picture.width() as usize * picture.height() as usize;
        let keys = gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("key_extract::keys"),
            size: (count as u64 * 4).max(4),
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let mut encoder = gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("key_extract::encoder") });
        self.encode(gpu, &mut encoder, picture, options, &keys);
        gpu.queue.submit([encoder.finish()]);
        read_u32s(gpu, &keys, 0, count)
    }
}
