//! Drawing a frame: the surface configured and acquired, and egui's output rendered into it
//! (the lanes' pictures among it, through `display`'s paint callbacks).

use super::Running;
use super::saves::SaveJob;
use crate::gpu::shaders::begin_cleared_pass;

impl Running {
    pub(super) fn resize(&mut self, width: u32, height: u32) {
        // A minimised window has no size: keep the old configuration until it comes back.
        if width > 0 && height > 0 {
            self.config.width = width;
            self.config.height = height;
            self.surface.configure(&self.gpu.device, &self.config);
        }
    }

    pub(super) fn render(&mut self, mut output: egui::FullOutput) {
        self.egui_state.handle_platform_output(&self.window, std::mem::take(&mut output.platform_output));
        let mut deltas = std::mem::take(&mut output.textures_delta);
        for (id, image_deltas) in deltas.set.drain() {
            for delta in &image_deltas {
                self.renderer.update_texture(&self.gpu.device, &self.gpu.queue, id, delta);
            }
        }
        // A minimised window has nothing to draw into.
        let size = self.window.inner_size();
        let frame = if size.width == 0 || size.height == 0 { None } else { self.acquire_frame() };
        if let Some(frame) = frame {
            let pixels_per_point = output.pixels_per_point;
            let primitives = self.egui_ctx.tessellate(std::mem::take(&mut output.shapes), pixels_per_point);
            let screen = egui_wgpu::ScreenDescriptor {
                size_in_pixels: [self.config.width, self.config.height],
                pixels_per_point,
            };
            let mut encoder = self
                .gpu
                .device
                .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("window::frame") });
            let extra = self.renderer.update_buffers(
                &self.gpu.device,
                &self.gpu.queue,
                &mut encoder,
                &primitives,
                &screen,
            );
            let view = frame.texture.create_view(&Default::default());
            self.draw_egui(&mut encoder, &view, "window::egui", &primitives, &screen);
            let view_copy = self.view_to_save.take().map(|path| {
                let copy = self.record_view_copy(&mut encoder, &primitives, &screen);
                (path, copy)
            });
            self.gpu.queue.submit(extra.into_iter().chain([encoder.finish()]));
            self.window.pre_present_notify();
            self.gpu.queue.present(frame);
            if let Some((path, copy)) = view_copy {
                self.save_view(&path, &copy);
            }
        }
        for id in deltas.free.drain() {
            self.renderer.free_texture(&id);
        }
    }

    /// The window's background: egui's panel colour, so the panels need not fill themselves
    /// (`ui::draw`).
    fn background(&self) -> wgpu::Color {
        let fill = self.egui_ctx.global_style().visuals.panel_fill;
        let [r, g, b] = if self.config.format.is_srgb() {
            let linear = egui::Rgba::from(fill);
            [linear.r(), linear.g(), linear.b()]
        } else {
            [fill.r(), fill.g(), fill.b()].map(|c| f32::from(c) / 255.0)
        };
        wgpu::Color { r: r.into(), g: g.into(), b: b.into(), a: 1.0 }
    }

    /// The next surface texture; a lost or outdated surface is configured again and the frame
    /// skipped.
    pub(super) fn acquire_frame(&mut self) -> Option<wgpu::SurfaceTexture> {
        match self.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(f) | wgpu::CurrentSurfaceTexture::Suboptimal(f) => Some(f),
            wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
                self.surface.configure(&self.gpu.device, &self.config);
                None
            }
            other => {
                log::warn!("no surface texture this frame: {other:?}");
                None
            }
        }
    }
}

impl Running {
    /// Records egui's drawing once more into a texture of its own, to save what the window shows.
    fn record_view_copy(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        primitives: &[egui::ClippedPrimitive],
        screen: &egui_wgpu::ScreenDescriptor,
    ) -> wgpu::Texture {
        let texture = self.gpu.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("window::view_copy"),
            size: wgpu::Extent3d {
                width: self.config.width,
                height: self.config.height,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: self.config.format,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let view = texture.create_view(&Default::default());
        self.draw_egui(encoder, &view, "window::view_copy", primitives, screen);
        texture
    }

    /// Records egui's drawing (the pictures among it) into `target`, cleared to the background
    /// first: the frame, or the copy that S saves.
    fn draw_egui(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        label: &str,
        primitives: &[egui::ClippedPrimitive],
        screen: &egui_wgpu::ScreenDescriptor,
    ) {
        let pass = begin_cleared_pass(encoder, target, label, self.background());
        self.renderer.render(&mut pass.forget_lifetime(), primitives, screen);
    }

    /// Records copying the copy of the window for a PNG at `path` that a later frame writes.
    fn save_view(&mut self, path: &std::path::Path, copy: &wgpu::Texture) {
        let bgra =
            matches!(copy.format(), wgpu::TextureFormat::Bgra8Unorm | wgpu::TextureFormat::Bgra8UnormSrgb);
        let job = SaveJob { path: path.to_path_buf(), alpha: false, bgra, view: true };
        self.saves.record(&self.gpu, copy, job);
    }
}
