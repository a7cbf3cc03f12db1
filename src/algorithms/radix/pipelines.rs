//! The radix view's kernels (`count_digits`, `scan_counts`, `scatter`, `dim`), built once per device.

use super::image::ImagePipelines;
use crate::algorithms::interval_texture;
use crate::gpu::Gpu;
use crate::gpu::bindings::{compute_buffer, storage_target, uint_texture};
use crate::gpu::kernel::{compute_pipeline, kernel_layouts};
use crate::gpu::shaders::RADIX_PROGRAM;
use crate::gpu::texture::PICTURE_FORMAT;
use std::sync::{Arc, OnceLock};

/// The radix pipelines, built once per device.
pub struct Radix {
    pub(super) layout: wgpu::BindGroupLayout,
    pub(super) count: wgpu::ComputePipeline,
    pub(super) scan: wgpu::ComputePipeline,
    pub(super) scatter: wgpu::ComputePipeline,
    pub(super) dim: wgpu::ComputePipeline,
    /// The program, for the shader panel.
    pub(super) compiled: crate::gpu::shaders::Compiled,
    /// The whole-picture steps' pipelines, built with the first run that uses them.
    pub(super) image: OnceLock<Arc<ImagePipelines>>,
}

impl Radix {
    /// Builds the four kernels' pipelines.
    pub fn new(gpu: &Gpu) -> Self {
        let device = &gpu.device;
        let compiled = RADIX_PROGRAM.compile(device);
        let module = &compiled.module;
        let (layout, pipeline_layout) = kernel_layouts(
            device,
            "radix",
            &[
                uint_texture(0, wgpu::ShaderStages::COMPUTE),
                compute_buffer(1, wgpu::BufferBindingType::Uniform, true),
                compute_buffer(2, wgpu::BufferBindingType::Storage { read_only: false }, true),
                storage_target(3, PICTURE_FORMAT),
                compute_buffer(4, wgpu::BufferBindingType::Storage { read_only: false }, false),
                uint_texture(5, wgpu::ShaderStages::COMPUTE),
                storage_target(6, interval_texture::INTERVAL_ID_FORMAT),
            ],
        );
        let pipeline = |entry_point: &str| {
            let label = format!("radix::{entry_point}");
            compute_pipeline(gpu, &label, &pipeline_layout, module, entry_point, Default::default())
        };
        Radix {
            count: pipeline("count_digits"),
            scan: pipeline("scan_counts"),
            scatter: pipeline("scatter"),
            dim: pipeline("dim"),
            compiled: compiled.clone(),
            layout,
            image: OnceLock::new(),
        }
    }

    /// The whole-picture steps' pipelines (built on first use).
    pub(super) fn image_pipelines(&self, gpu: &Gpu) -> Arc<ImagePipelines> {
        self.image.get_or_init(|| Arc::new(ImagePipelines::new(gpu))).clone()
    }
}
