//! What is drawn over the lanes' pictures: the intervals (I: fixed pixels darkened, each
//! interval's first pixel marked) and, while painting, the mask's staying pixels tinted. Each
//! is an egui texture kept while shown and dropped when not, drawn anew when what it shows
//! changes in the session.

use super::Session;
use crate::angle::Lines;
use crate::intervals::{IntervalMap, Mask};

/// The tint over pixels that stay, while painting.
const STAYS_TINT: [u8; 4] = [200, 30, 30, 150];

/// The overlays' textures, while shown, and what they were drawn from.
#[derive(Default)]
pub(super) struct Overlays {
    intervals: Option<egui::TextureHandle>,
    mask: Option<egui::TextureHandle>,
    /// The session's count of interval maps when the intervals were drawn (`None`: hidden).
    intervals_drawn: Option<u64>,
    /// The mask's number and size when it was drawn (`None`: hidden).
    mask_drawn: Option<(u64, (u32, u32))>,
}

impl Overlays {
    /// Draws what the session shows now where it changed since the last frame: its intervals
    /// while they are shown, its mask while `painting`.
    pub(super) fn sync(&mut self, ctx: &egui::Context, session: &Session, painting: bool) {
        let intervals = session.show_intervals.then_some(session.intervals_made);
        if intervals != self.intervals_drawn {
            let map = session.interval_map.as_ref().filter(|_| session.show_intervals);
            self.show_intervals(ctx, &session.lines, map);
            self.intervals_drawn = intervals;
        }
        let mask = session.mask.as_ref().filter(|_| painting);
        let drawn = mask.map(|m| (m.id, m.mask().dimensions()));
        if drawn != self.mask_drawn {
            self.show_mask(ctx, mask.map(|m| m.mask()));
            self.mask_drawn = drawn;
        }
    }

    /// Draws `map` along `lines` for the intervals overlay, or drops it (`None`).
    fn show_intervals(&mut self, ctx: &egui::Context, lines: &Lines, map: Option<&IntervalMap>) {
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
    fn show_mask(&mut self, ctx: &egui::Context, mask: Option<&Mask>) {
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
