//! What S saves, written without the frame waiting on the GPU: the texture is copied into
//! staging buffers in bands of rows (no buffer past the device's limit), and a later frame
//! writes the PNG once the last band has come back; the window as shown comes as egui's
//! screenshot of the next frame.

use crate::gpu::readback::{padded_row_bytes, record_rows_copy, unpad_rows};
use crate::gpu::readbacks::Readbacks;
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

/// One band of rows of a texture's copy; the last carries the job.
struct Band {
    width: u32,
    height: u32,
    last: Option<SaveJob>,
}

/// Screenshots of the window that have come back, with what to save them as.
type Views = Arc<Mutex<Vec<(SaveJob, Arc<egui::ColorImage>)>>>;

/// Saves under way.
#[derive(Default)]
pub struct Saves {
    readbacks: Readbacks<Band>,
    /// The rows of the save being put together, unpadded.
    rows: Vec<u8>,
    /// The window as shown: asked for, and arrived.
    views_asked: usize,
    views: Views,
}

impl Saves {
    /// Records and submits copying `texture` (4 bytes a texel) for `job`.
    pub fn record(&mut self, gpu: &Gpu, texture: &wgpu::Texture, job: SaveJob) {
        let (width, height) = (texture.width(), texture.height());
        let pitch = u64::from(padded_row_bytes(width));
        let band_rows =
            (gpu.device.limits().max_buffer_size / pitch).clamp(1, u64::from(height.max(1))) as u32;
        let mut encoder =
            gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("saves::copy") });
        let mut job = Some(job);
        let mut y = 0;
        while y < height {
            let rows = band_rows.min(height - y);
            let last = if y + rows == height { job.take() } else { None };
            let staging = self.readbacks.staging(gpu, pitch * u64::from(rows), Band { width, height, last });
            record_rows_copy(&mut encoder, texture, y..y + rows, staging, 0);
            y += rows;
        }
        gpu.queue.submit([encoder.finish()]);
        self.readbacks.submitted();
    }

    /// Asks for the next frame as egui draws it, to save as `job` once it comes.
    pub fn record_view(&mut self, ctx: &egui::Context, job: SaveJob) {
        self.views_asked += 1;
        let views = self.views.clone();
        ctx.request_screenshot(move |image| {
            views.lock().unwrap_or_else(|p| p.into_inner()).push((job, image));
        });
    }

    /// Whether a save is still on its way (the window keeps drawing until it is written).
    pub fn pending(&self) -> bool {
        self.readbacks.pending() > 0 || self.views_asked > 0
    }

    /// Writes every save whose copy has come back; returns each with where it was written, or
    /// why the file could not be written. An error when the GPU failed.
    pub fn take(&mut self, gpu: &Gpu) -> Result<Vec<(SaveJob, anyhow::Result<PathBuf>)>, GpuError> {
        let mut done = Vec::new();
        let rows = &mut self.rows;
        let taken = self.readbacks.take_ready(gpu, |band, bytes| {
            unpad_rows(bytes, band.width, rows);
            if let Some(job) = band.last {
                let mut picture = RgbaImage::from_raw(band.width, band.height, std::mem::take(rows))
                    .expect("every band of rows came back");
                let written = write(&mut picture, &job);
                done.push((job, written));
            }
        });
        if taken.is_err() {
            self.rows.clear();
        }
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
