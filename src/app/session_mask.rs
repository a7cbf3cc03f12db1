//! The session's mask: loaded from a file, cleared, painted (strokes, invert, fill from the
//! intervals in use) and saved (natively a file, in the page a download). Each edit is a new
//! mask, so the intervals and every lane follow as they do for a loaded one.

use super::Session;
use super::dialogs::Chosen;
use super::panel_model::Status;
use super::window_mask::{FitTo, WindowMask};
use crate::intervals::Mask;
use std::path::PathBuf;

impl Session {
    /// Loads the mask in `file` for the current picture; an unreadable file or one of another
    /// size leaves the current mask and shows the error. Whether it was loaded.
    pub(super) fn load_mask(&mut self, file: &Chosen, status: &mut Status) -> bool {
        match WindowMask::load(file, self.masks_loaded, FitTo::of(&self.picture, self.source_size)) {
            Ok(mask) => {
                self.masks_loaded += 1;
                self.mask = Some(mask);
                true
            }
            Err(e) => {
                status.error(e);
                false
            }
        }
    }

    /// Sorts without the mask from now on.
    pub(super) fn clear_mask(&mut self, status: &mut Status) {
        if self.mask.take().is_some() {
            status.say("mask cleared");
        }
    }

    /// Edits the mask (a new one, every pixel free to move, when there is none) with `edit`;
    /// when it changed, it becomes a new painted mask that the intervals follow.
    fn edit_mask(&mut self, edit: impl FnOnce(&mut Mask) -> bool) {
        let (width, height) = self.picture.pixels.dimensions();
        let id = self.masks_loaded;
        let mask =
            self.mask.get_or_insert_with(|| WindowMask::painted(Mask::filled(width, height, true), id));
        if mask.edit(id, edit) {
            self.masks_loaded += 1;
        }
    }

    /// A stroke of a brush of `radius` from `from` to `to` (picture pixels): where pixels stay,
    /// or where they may move.
    pub(super) fn paint(&mut self, from: (f32, f32), to: (f32, f32), radius: f32, stays: bool) {
        self.edit_mask(|mask| mask.stroke(from, to, radius, !stays));
    }

    /// Every pixel that may move stays, and the other way round.
    pub(super) fn invert_mask(&mut self, status: &mut Status) {
        self.edit_mask(|mask| {
            mask.invert();
            true
        });
        status.say("mask inverted");
    }

    /// The mask of the intervals in use: the pixels that can move there may move.
    pub(super) fn fill_mask_from_runs(&mut self, status: &mut Status) {
        let Some(map) = &self.interval_map else {
            return status.error("no intervals to take the mask from: choose an interval mode first (M)");
        };
        let runs = Mask::of_runs(&self.lines.marks(map));
        self.edit_mask(|mask| {
            *mask = runs;
            true
        });
        status.say("mask made of the intervals");
    }

    /// Saves the mask at the picture's size in its file as `<picture>-mask.png`, white where
    /// pixels may move: what `--mask` reads for that picture.
    pub(super) fn save_mask(&self, status: &mut Status) {
        let Some(mask) = &self.mask else { return status.error("no mask to save: paint one first (E)") };
        let mut picture = mask.at_source_size(self.source_size).to_picture();
        let job = super::saves::SaveJob {
            path: PathBuf::from(format!("{}-mask.png", self.picture.name)),
            alpha: false,
            view: false,
        };
        match super::saves::write(&mut picture, &job) {
            Ok(path) => status.say(format!("saved the mask {}", path.display())),
            Err(e) => status.error(format!("the mask was not saved: {e:#}")),
        }
    }
}
