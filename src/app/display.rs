//! What the window shows of a lane: its state texture (rgba8uint, what the sorts work on) drawn
//! straight into egui's render pass by a paint callback, texel for texel at the shared zoom.
//! No conversion pass runs per frame and egui's sampler is not involved, which on a software
//! GPU saves a full-picture pass and a blended quad every frame.

use crate::gpu::Gpu;
use crate::gpu::bindings::{buffer, uint_texture};
use crate::gpu::shaders::{DISPLAY_PROGRAM, fullscreen_pipeline};
use crate::gpu::texture::PICTURE_FORMAT;

/// Mirrors `PictureParams` in `shaders/display.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct PictureParams {
    /// The picture's top-left corner on the target, in pixels.
    pub origin: [f32; 2],
    /// Picture pixels per target pixel along x and y.
    pub texels_per_pixel: [f32; 2],
}

/// The drawing pipeline, built once for the window's surface format.
pub struct DisplayPipeline {
    pipeline: wgpu::RenderPipeline,
    layout: wgpu::BindGroupLayout,
}

impl DisplayPipeline {
    /// Builds the pipeline for targets of `format` (the surface's, which the saved view
    /// shares).
    pub fn new(gpu: &Gpu, format: wgpu::TextureFormat) -> Self {
        let module = DISPLAY_PROGRAM.module(&gpu.device);
        let layout = gpu.device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("display::layout"),
            entries: &[
                uint_texture(0, wgpu::ShaderStages::FRAGMENT),
                buffer(1, wgpu::ShaderStages::FRAGMENT, wgpu::BufferBindingType::Uniform, false),
            ],
        });
        let pipeline_layout = gpu.device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("display::pipeline_layout"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let srgb = if format.is_srgb() { 1.0 } else { 0.0 };
        let pipeline = fullscreen_pipeline(
            gpu,
            "display::pipeline",
            &pipeline_layout,
            &module,
            "draw_picture",
            // Straight alpha over the window's background.
            wgpu::ColorTargetState {
                format,
                blend: Some(wgpu::BlendState::ALPHA_BLENDING),
                write_mask: wgpu::ColorWrites::ALL,
            },
            &[("SRGB_TARGET", srgb)],
        );
        DisplayPipeline { pipeline, layout }
    }
}

/// A lane's drawing resources: its parameters' uniform buffer and a bind group per state
/// texture the run has shown (a ping-pong run has two), made once each.
pub struct LanePicture {
    uniform: wgpu::Buffer,
    bindings: Vec<(wgpu::Texture, wgpu::BindGroup)>,
}

impl LanePicture {
    /// Resources for one lane.
    pub fn new(gpu: &Gpu) -> Self {
        let uniform = gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("display::params"),
            size: std::mem::size_of::<PictureParams>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        LanePicture { uniform, bindings: Vec::new() }
    }

    /// What draws `state` (the lane's current state texture) this frame.
    pub fn draw(&mut self, gpu: &Gpu, display: &DisplayPipeline, state: &wgpu::Texture) -> PictureDraw {
        debug_assert_eq!(state.format(), PICTURE_FORMAT);
        let bind_group = match self.bindings.iter().find(|(t, _)| t == state) {
            Some((_, b)) => b.clone(),
            None => {
                let view = state.create_view(&Default::default());
                let b = gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("display::bind_group"),
                    layout: &display.layout,
                    entries: &[
                        wgpu::BindGroupEntry {
                            binding: 0,
                            resource: wgpu::BindingResource::TextureView(&view),
                        },
                        wgpu::BindGroupEntry { binding: 1, resource: self.uniform.as_entire_binding() },
                    ],
                });
                self.bindings.push((state.clone(), b.clone()));
                b
            }
        };
        PictureDraw { pipeline: display.pipeline.clone(), bind_group, uniform: self.uniform.clone() }
    }
}

/// Everything a frame needs to draw one lane's picture (handles, cheap to clone).
#[derive(Clone)]
pub struct PictureDraw {
    pipeline: wgpu::RenderPipeline,
    bind_group: wgpu::BindGroup,
    uniform: wgpu::Buffer,
}

impl PictureDraw {
    /// egui's paint callback that draws the picture of `size` pixels into `rect` (points, with
    /// `pixels_per_point`), clipped by the painter it is added to.
    pub fn callback(&self, rect: egui::Rect, size: (u32, u32), pixels_per_point: f32) -> egui::PaintCallback {
        let params = PictureParams {
            origin: [rect.min.x * pixels_per_point, rect.min.y * pixels_per_point],
            texels_per_pixel: [
                size.0 as f32 / (rect.width() * pixels_per_point),
                size.1 as f32 / (rect.height() * pixels_per_point),
            ],
        };
        egui_wgpu::Callback::new_paint_callback(rect, PictureCallback { draw: self.clone(), params })
    }
}

/// One lane's picture in one frame.
struct PictureCallback {
    draw: PictureDraw,
    params: PictureParams,
}

impl egui_wgpu::CallbackTrait for PictureCallback {
    fn prepare(
        &self,
        _device: &wgpu::Device,
        queue: &wgpu::Queue,
        _screen: &egui_wgpu::ScreenDescriptor,
        _encoder: &mut wgpu::CommandEncoder,
        _resources: &mut egui_wgpu::CallbackResources,
    ) -> Vec<wgpu::CommandBuffer> {
        queue.write_buffer(&self.draw.uniform, 0, bytemuck::bytes_of(&self.params));
        Vec::new()
    }

    fn paint(
        &self,
        _info: egui::PaintCallbackInfo,
        pass: &mut wgpu::RenderPass<'static>,
        _resources: &egui_wgpu::CallbackResources,
    ) {
        pass.set_pipeline(&self.draw.pipeline);
        pass.set_bind_group(0, &self.draw.bind_group, &[]);
        pass.draw(0..3, 0..1);
    }
}
