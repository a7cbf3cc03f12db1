//! The picture state of a run: the input, and two textures that passes read from and write to
//! in turn (the state after `k` steps lives in texture `k % 2`).

use crate::gpu::Gpu;
use crate::gpu::recycle::Recycled;
use crate::gpu::texture::{copy_picture, create_picture_texture, picture_texture};
use image::RgbaImage;
use std::sync::Arc;

/// The picture a run starts from.
#[derive(Clone)]
pub enum StartPicture<'a> {
    /// A picture on the CPU, uploaded.
    Image(&'a RgbaImage),
    /// A picture texture already on the GPU (see [`create_picture_texture`]), taken as the run's
    /// input.
    Texture(wgpu::Texture),
    /// One taken from the spares (a clip's frame), given back when the last run holding it
    /// ends.
    Spare(Arc<Recycled<(u32, u32), wgpu::Texture>>),
}

impl StartPicture<'_> {
    /// Width and height.
    pub fn dimensions(&self) -> (u32, u32) {
        match self {
            StartPicture::Image(picture) => picture.dimensions(),
            StartPicture::Texture(texture) => (texture.width(), texture.height()),
            StartPicture::Spare(texture) => (texture.width(), texture.height()),
        }
    }

    /// The picture as a texture, uploaded first if on the CPU (`label` names the upload).
    pub fn into_texture(self, gpu: &Gpu, label: &str) -> InputTexture {
        match self {
            StartPicture::Image(picture) => InputTexture::Own(picture_texture(gpu, picture, label)),
            StartPicture::Texture(texture) => InputTexture::Own(texture),
            StartPicture::Spare(texture) => InputTexture::Spare(texture),
        }
    }
}

/// A run's input texture: its own, or a spare it gives back when dropped. Held until the run
/// ends, after every pass that reads it was submitted, so a later frame never writes it early.
pub enum InputTexture {
    /// Made or handed to the run.
    Own(wgpu::Texture),
    /// Taken from the spares.
    Spare(Arc<Recycled<(u32, u32), wgpu::Texture>>),
}

impl std::ops::Deref for InputTexture {
    type Target = wgpu::Texture;

    fn deref(&self) -> &wgpu::Texture {
        match self {
            InputTexture::Own(texture) => texture,
            InputTexture::Spare(texture) => texture,
        }
    }
}

/// Input and ping-pong textures of one run.
pub struct PingPong {
    input: InputTexture,
    /// The states, taken from the last runs' of this size where there are (the input is copied
    /// into the first and every step writes all of the other).
    textures: [Recycled<(u32, u32), wgpu::Texture>; 2],
    views: [wgpu::TextureView; 2],
}

impl PingPong {
    /// Uploads `picture` and copies it into texture 0; `label` names the textures.
    pub fn new(gpu: &Gpu, picture: &RgbaImage, label: &str) -> Self {
        PingPong::start(gpu, StartPicture::Image(picture), label)
    }

    /// Takes `picture` as the input (uploaded first if on the CPU) and copies it into texture 0;
    /// `label` names the textures.
    pub fn start(gpu: &Gpu, picture: StartPicture<'_>, label: &str) -> Self {
        let (width, height) = picture.dimensions();
        let input = picture.into_texture(gpu, &format!("{label}::input"));
        let textures = [0, 1].map(|i| {
            let make = || Some(create_picture_texture(gpu, width, height, &format!("{label}::state[{i}]")));
            gpu.picture_spares.take((width, height), make).expect("made where there is no spare")
        });
        let views = textures.each_ref().map(|t| t.create_view(&Default::default()));
        let ping_pong = PingPong { input, textures, views };
        let mut encoder = gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("ping_pong::start") });
        ping_pong.encode_restart(&mut encoder);
        gpu.queue.submit([encoder.finish()]);
        ping_pong
    }

    /// Width and height of the picture.
    pub fn size(&self) -> (u32, u32) {
        (self.input.width(), self.input.height())
    }

    /// The input picture (never written by a step).
    pub fn input(&self) -> &wgpu::Texture {
        &self.input
    }

    /// The view of texture `i` (0 or 1).
    pub fn view(&self, i: usize) -> &wgpu::TextureView {
        &self.views[i]
    }

    /// The texture holding the state after `steps_done` steps.
    pub fn state(&self, steps_done: u32) -> &wgpu::Texture {
        &self.textures[(steps_done % 2) as usize]
    }

    /// The two bind groups of a step kernel: group `d` reads texture `d` (binding 0) and writes
    /// texture `1 - d` (binding 3); `params` (1) and `counters` (2) are shared, and `extra(d)`
    /// gives the rest of group `d`.
    pub fn step_bind_groups<'a>(
        &'a self,
        device: &wgpu::Device,
        layout: &wgpu::BindGroupLayout,
        label: &str,
        params: wgpu::BindingResource<'a>,
        counters: wgpu::BindingResource<'a>,
        extra: impl Fn(usize) -> Vec<wgpu::BindGroupEntry<'a>>,
    ) -> [wgpu::BindGroup; 2] {
        [0usize, 1].map(|d| {
            let mut entries = vec![
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(self.view(d)),
                },
                wgpu::BindGroupEntry { binding: 1, resource: params.clone() },
                wgpu::BindGroupEntry { binding: 2, resource: counters.clone() },
                wgpu::BindGroupEntry {
                    binding: 3,
                    resource: wgpu::BindingResource::TextureView(self.view(1 - d)),
                },
            ];
            entries.extend(extra(d));
            device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some(&format!("{label}::bind_group[{d}]")),
                layout,
                entries: &entries,
            })
        })
    }

    /// Encodes copying the input back into texture 0 (the state at step 0).
    pub fn encode_restart(&self, encoder: &mut wgpu::CommandEncoder) {
        copy_picture(encoder, &self.input, &self.textures[0]);
    }
}
