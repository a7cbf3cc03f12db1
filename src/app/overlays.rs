//! What is drawn over the lanes' pictures: the intervals (I: fixed pixels darkened, each
//! interval's first pixel marked) and, while painting, the mask's staying pixels tinted. Each
//! is an egui texture kept while shown and dropped when not.

use crate::angle::Lines;
use crate::intervals::{IntervalMap, Mask};

/// The tint over pixels that stay, while painting.
const STAYS_TINT: [u8; 4] = [200, 30, 30, 150];

/// The overlays' textures, while shown.
#[derive(Default)]
pub(super) struct Overlays {
    intervals: Option<egui::TextureHandle>,
    mask: Option<egui::TextureHandle>,
}

impl Overlays {
    /// Draws `map` along `lines` for the intervals overlay, or drops it (`None`).
    pub(super) fn show_intervals(&mut self, ctx: &egui::Context, lines: &Lines, map: Option<&IntervalMap>) {
        let Some(map) = map else {
            self.intervals = None;
            return;
        };
        let marks = lines.marks(map);
        let size = [marks.width() as usize, marks.height() as usize];
        let image = egui::ColorImage::from_rgba_unmultiplied(size, marks.as_raw());
        let options = egui::TextureOptions::NEAREST;
        match &mut self.intervals {
            Some(handle) => handle.set(image, options),
            None => self.intervals = Some(ctx.load_texture("intervals_overlay", image, options)),
        }
    }

    /// Tints the pixels of `mask` that stay, or drops the mask overlay (`None`).
    pub(super) fn show_mask(&mut self, ctx: &egui::Context, mask: Option<&Mask>) {
        let Some(mask) = mask else {
            self.mask = None;
            return;
        };
        let (width, height) = mask.dimensions();
        let pixels: Vec<egui::Color32> = (0..(width * height) as usize)
            .map(|i| {
                let [r, g, b, a] = STAYS_TINT;
                if mask.is_sortable(i) {
                    egui::Color32::TRANSPARENT
                } else {
                    egui::Color32::from_rgba_unmultiplied(r, g, b, a)
                }
            })
            .collect();
        let image = egui::ColorImage {
            size: [width as usize, height as usize],
            pixels,
            source_size: egui::vec2(width as f32, height as f32),
        };
        self.mask = Some(ctx.load_texture("mask", image, egui::TextureOptions::NEAREST));
    }

    /// The intervals overlay's texture, while shown.
    pub(super) fn intervals(&self) -> Option<egui::TextureId> {
        self.intervals.as_ref().map(egui::TextureHandle::id)
    }

    /// The mask overlay's texture, while shown.
    pub(super) fn mask(&self) -> Option<egui::TextureId> {
        self.mask.as_ref().map(egui::TextureHandle::id)
    }
}
