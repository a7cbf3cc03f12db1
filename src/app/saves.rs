//! What S saves, written without the frame waiting on the GPU: a later frame writes the PNG
//! once the texture's copy has come back ([`TextureReads`]); the window as shown comes as
//! egui's screenshot of the next frame.

use super::texture_reads::TextureReads;
use crate::gpu::{Gpu, GpuError};
use image::RgbaImage;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// A picture to save and how.
pub struct SaveJob {
    /// Where the PNG goes.
    pub path: PathBuf,
    /// Keep the alpha channel (the picture had one); otherwise it is written opaque.
    pub alpha: bool,
    /// The window as shown, rather than a lane's state.
    pub view: bool,
}

/// Screenshots of the window that have come back, with what to save them as.
type Views = Arc<Mutex<Vec<(SaveJob, Arc<egui::ColorImage>)>>>;

/// Saves under way.
#[derive(Default)]
pub struct Saves {
    copies: TextureReads<SaveJob>,
    /// The window as shown: asked for, and arrived.
    views_asked: usize,
    views: Views,
}

impl Saves {
    /// Encodes and submits copying `texture` (4 bytes a texel) for `job`.
    pub fn encode(&mut self, gpu: &Gpu, texture: &wgpu::Texture, job: SaveJob) {
        self.copies.encode(gpu, texture, job);
    }

    /// Asks for the next frame as egui draws it, to save as `job` once it comes.
    pub fn encode_view(&mut self, ctx: &egui::Context, job: SaveJob) {
        self.views_asked += 1;
        let views = self.views.clone();
        ctx.request_screenshot(move |image| {
            views.lock().unwrap_or_else(|p| p.into_inner()).push((job, image));
        });
    }

    /// Whether a save is still on its way (the window keeps drawing until it is written).
    pub fn pending(&self) -> bool {
        self.copies.pending() || self.views_asked > 0
    }

    /// Writes every save whose copy has come back; returns each with where it was written, or
    /// why the file could not be written. An error when the GPU failed.
    pub fn take(&mut self, gpu: &Gpu) -> Result<Vec<(SaveJob, anyhow::Result<PathBuf>)>, GpuError> {
        let mut done = Vec::new();
        let taken = self.copies.take(gpu, |job, mut picture| {
            let written = write(&mut picture, &job);
            done.push((job, written));
        });
        let views = std::mem::take(&mut *self.views.lock().unwrap_or_else(|p| p.into_inner()));
        for (job, image) in views {
            self.views_asked -= 1;
            let [width, height] = image.size.map(|side| side as u32);
            let bytes = image.pixels.iter().flat_map(|c| c.to_array()).collect();
            let mut picture = RgbaImage::from_raw(width, height, bytes).expect("a whole screenshot");
            let written = write(&mut picture, &job);
            done.push((job, written));
        }
        taken.map(|()| done)
    }
}

/// Writes `picture` as `job` says, whole or not at all: natively a file, in the page a
/// download.
pub(super) fn write(picture: &mut RgbaImage, job: &SaveJob) -> anyhow::Result<PathBuf> {
    if !job.alpha {
        for pixel in picture.pixels_mut() {
            pixel.0[3] = 255;
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        use crate::picture::output::{OutputFile, OutputFormat};
        Ok(OutputFile::prepare(&job.path, OutputFormat::Png)?.write_png(picture, job.alpha)?)
    }
    #[cfg(target_arch = "wasm32")]
    {
        // As natively: RGB unless the picture had alpha.
        let (raw, colour) = if job.alpha {
            (picture.as_raw().clone(), image::ExtendedColorType::Rgba8)
        } else {
            (picture.pixels().flat_map(|p| [p[0], p[1], p[2]]).collect(), image::ExtendedColorType::Rgb8)
        };
        let mut bytes = Vec::new();
        let encoder = image::codecs::png::PngEncoder::new(&mut bytes);
        image::ImageEncoder::write_image(encoder, &raw, picture.width(), picture.height(), colour)?;
        super::dialogs::download(&job.path.display().to_string(), &bytes, "image/png")
            .map_err(anyhow::Error::msg)?;
        Ok(job.path.clone())
    }
}
