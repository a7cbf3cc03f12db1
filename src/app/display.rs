//! What the window shows: a lane's state converted texel for texel into an `Rgba8Unorm`
//! texture that egui draws with nearest filtering.

use crate::gpu::Gpu;
use crate::gpu::bindings::uint_texture;
use crate::gpu::shaders::{DISPLAY_PROGRAM, fullscreen_pipeline};
use crate::gpu::texture::PICTURE_FORMAT;

/// The format egui can sample.
pub const DISPLAY_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

/// The conversion pipeline, built once.
pub struct DisplayPipeline {
    pipeline: wgpu::RenderPipeline,
    layout: wgpu::BindGroupLayout,
}

impl DisplayPipeline {
    /// Builds the pipeline.
    pub fn new(gpu: &Gpu) -> Self {
        let module = DISPLAY_PROGRAM.module(&gpu.device);
        let layout = gpu.device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("display::layout"),
            entries: &[uint_texture(0, wgpu::ShaderStages::FRAGMENT)],
        });
        let pipeline_layout = gpu.device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("display::pipeline_layout"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pipeline = fullscreen_pipeline(
            &gpu.device,
            "display::pipeline",
            &pipeline_layout,
            &module,
            "to_unorm",
            DISPLAY_FORMAT,
            &[],
        );
        DisplayPipeline { pipeline, layout }
    }

    /// A display texture for pictures of this size.
    pub fn create_target(&self, gpu: &Gpu, width: u32, height: u32) -> wgpu::Texture {
        crate::gpu::texture::create_texture_2d(
            gpu,
            (width, height),
            DISPLAY_FORMAT,
            wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
            "display::target",
        )
    }

    /// The binding that reads `state` (a picture texture); keep it as long as the texture.
    pub fn bind(&self, gpu: &Gpu, state: &wgpu::Texture) -> wgpu::BindGroup {
        debug_assert_eq!(state.format(), PICTURE_FORMAT);
        let view = state.create_view(&Default::default());
        gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("display::bind_group"),
            layout: &self.layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::TextureView(&view),
            }],
        })
    }

    /// Records the conversion of the picture that `binding` reads into `target`.
    pub fn record(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        binding: &wgpu::BindGroup,
        target: &wgpu::TextureView,
    ) {
        let mut pass = crate::gpu::shaders::begin_fullscreen_pass(encoder, target, "display::pass");
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, binding, &[]);
        pass.draw(0..3, 0..1);
    }
}
