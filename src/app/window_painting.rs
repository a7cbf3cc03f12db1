//! Painting the mask in the window and the page: strokes, invert, fill from the intervals in
//! use, and saving it (natively a file, in the page a download); each edit is a new mask, so the
//! intervals and every lane follow as they do for a loaded one. While painting, the pixels that
//! stay are tinted over the pictures.

use super::Running;
use super::panel_model::Brush;
use super::window_mask::WindowMask;
use crate::intervals::Mask;
use std::path::PathBuf;

impl Running {
    /// Turns painting (E) on or off.
    pub(super) fn toggle_painting(&mut self) {
        self.ui.brush = match self.ui.brush {
            Some(_) => None,
            None => Some(Brush::for_picture(self.session.picture.pixels.dimensions())),
        };
        let said = if self.ui.brush.is_some() {
            "painting the mask: drag where pixels may move, Shift+drag where they stay (E stops)"
        } else {
            "painting stopped"
        };
        self.ui.say(said);
        self.update_mask_overlay();
    }

    /// Edits the mask (a new one, every pixel free to move, when there is none) with `edit`;
    /// when it changed, it becomes a new painted mask that the intervals follow.
    fn edit_mask(&mut self, edit: impl FnOnce(&mut Mask) -> bool) {
        let s = &mut self.session;
        let (width, height) = s.picture.pixels.dimensions();
        let id = s.masks_loaded;
        let mask = s.mask.get_or_insert_with(|| WindowMask::painted(Mask::filled(width, height, true), id));
        if mask.edit(id, edit) {
            s.masks_loaded += 1;
            self.update_mask_overlay();
        }
    }

    /// A stroke of the brush from `from` to `to` (picture pixels).
    pub(super) fn paint(&mut self, from: (f32, f32), to: (f32, f32), stays: bool) {
        let size = self.session.picture.pixels.dimensions();
        let radius = self.ui.brush.unwrap_or_else(|| Brush::for_picture(size)).radius;
        self.edit_mask(|mask| mask.stroke(from, to, radius, !stays));
    }

    /// Every pixel that may move stays, and the other way round.
    pub(super) fn invert_mask(&mut self) {
        self.edit_mask(|mask| {
            mask.invert();
            true
        });
        self.ui.say("mask inverted");
    }

    /// The mask of the intervals in use: the pixels that can move there may move.
    pub(super) fn fill_mask_from_runs(&mut self) {
        let s = &self.session;
        let Some(map) = &s.interval_map else {
            return self.ui.error("no intervals to take the mask from: choose an interval mode first (M)");
        };
        let runs = Mask::of_runs(&s.lines.marks(map));
        self.edit_mask(|mask| {
            *mask = runs;
            true
        });
        self.ui.say("mask made of the intervals");
    }

    /// Saves the mask at the picture's size in its file as `<picture>-mask.png`, white where
    /// pixels may move: what `--mask` reads for that picture.
    pub(super) fn save_mask(&mut self) {
        let s = &self.session;
        let Some(mask) = &s.mask else { return self.ui.error("no mask to save: paint one first (E)") };
        let mut picture = mask.at_source_size(s.source_size).to_picture();
        let job = super::saves::SaveJob {
            path: PathBuf::from(format!("{}-mask.png", s.picture.name)),
            alpha: false,
            view: false,
        };
        match super::saves::write(&mut picture, &job) {
            Ok(path) => self.ui.say(format!("saved the mask {}", path.display())),
            Err(e) => self.ui.error(format!("the mask was not saved: {e:#}")),
        }
    }

    /// While painting, the pixels that stay tinted, to draw over the pictures; nothing otherwise.
    pub(super) fn update_mask_overlay(&mut self) {
        let mask = self.session.mask.as_ref().filter(|_| self.ui.brush.is_some());
        self.overlays.show_mask(&self.egui_ctx, mask.map(|m| m.mask()));
    }
}
