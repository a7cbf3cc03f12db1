//! A mask in the window (`--mask`, the panel's mask field, or painted with the brush): a loaded
//! one checked against the picture's own size, then scaled with the picture as `--max-size`
//! scales it, as the headless paths do; a painted one at the size of the picture shown.

use super::dialogs::Chosen;
use crate::intervals::{IntervalError, Mask};
use crate::picture::input::{InputError, Picture};
use std::path::{Path, PathBuf};

/// A mask as read and as fitted to the window's picture, and where it came from.
#[derive(Clone, Debug)]
pub struct WindowMask {
    /// The file.
    pub path: PathBuf,
    /// A number unique to this load (or brush stroke), so the window sees a new mask even from
    /// the same file.
    pub id: u64,
    /// The mask at the picture's size in its file; `None` once painted (then `fitted` is it).
    original: Option<Mask>,
    fitted: Mask,
}

/// The picture a mask is fitted to: how messages name it, and its size as read (`source`) and
/// as sorted (`fitted`, after `--max-size`).
#[derive(Clone, Copy, Debug)]
pub struct FitTo<'a> {
    /// The picture's label.
    pub picture: &'a str,
    /// Its size in its file.
    pub source: (u32, u32),
    /// Its size in the window.
    pub fitted: (u32, u32),
}

impl<'a> FitTo<'a> {
    /// `picture` as shown, which was `source` pixels in its file.
    pub fn of(picture: &'a Picture, source: (u32, u32)) -> Self {
        FitTo { picture: &picture.label, source, fitted: picture.pixels.dimensions() }
    }
}

impl WindowMask {
    /// Reads the mask in `file` and fits it to `to`; `id` tells this load from others. The
    /// error is one line naming the file, or both sizes.
    pub fn load(file: &Chosen, id: u64, to: FitTo<'_>) -> Result<Self, String> {
        let picture = file.picture().map_err(|e: InputError| e.to_string())?;
        let mask = Mask::from_picture(&picture.pixels, &picture.label);
        Self::new(mask, file.path(), id, to).map_err(|e| e.to_string())
    }

    /// A mask already read from `path`, fitted as [`WindowMask::load`] does.
    pub fn new(mask: Mask, path: &Path, id: u64, to: FitTo<'_>) -> Result<Self, IntervalError> {
        let fitted = fit(&mask, to)?;
        Ok(WindowMask { path: path.to_path_buf(), id, original: Some(mask), fitted })
    }

    /// A mask painted at the size of the picture shown, named `painted`.
    pub fn painted(mask: Mask, id: u64) -> Self {
        WindowMask { path: PathBuf::from("painted"), id, original: None, fitted: mask }
    }

    /// Whether it was painted (or edited) in the window.
    pub fn is_painted(&self) -> bool {
        self.original.is_none()
    }

    /// The same mask fitted to another picture, or an error naming both sizes (a painted one is
    /// taken at its own size as the picture's size in its file).
    pub fn refit(&self, to: FitTo<'_>) -> Result<Self, IntervalError> {
        let original = self.original.clone().unwrap_or_else(|| self.fitted.clone());
        Self::new(original, &self.path, self.id, to)
    }

    /// The mask at the size of the picture in its file (`source`), to save: what `--mask` reads
    /// for that picture.
    pub fn at_source_size(&self, source: (u32, u32)) -> Mask {
        match &self.original {
            Some(original) => original.clone(),
            None if self.fitted.dimensions() == source => self.fitted.clone(),
            None => self.fitted.resized(source.0, source.1),
        }
    }

    /// Edits the mask with `edit` as a painted one, under a new `id`, if `edit` changed it.
    pub fn edit(&mut self, id: u64, edit: impl FnOnce(&mut Mask) -> bool) -> bool {
        let changed = edit(&mut self.fitted);
        if changed {
            self.original = None;
            self.path = PathBuf::from("painted");
            self.id = id;
        }
        changed
    }

    /// The mask at the size of the picture being sorted.
    pub fn mask(&self) -> &Mask {
        &self.fitted
    }
}

/// `mask` fitted to `to`: an error naming both sizes unless the mask is the picture's source
/// size, else the mask scaled to the fitted size.
fn fit(mask: &Mask, to: FitTo<'_>) -> Result<Mask, IntervalError> {
    mask.check_size(to.picture, to.source)?;
    Ok(if to.source == to.fitted { mask.clone() } else { mask.resized(to.fitted.0, to.fitted.1) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mask_is_checked_at_the_source_size_and_scaled_to_the_fitted_one() {
        let to = |picture, source, fitted| FitTo { picture, source, fitted };
        let original = Mask::from_fn(4, 2, |x, _| x < 2);
        let mask =
            WindowMask::new(original.clone(), Path::new("m.png"), 1, to("'p.png'", (4, 2), (4, 2))).unwrap();
        assert_eq!(mask.mask(), &original);
        let half = mask.refit(to("'p.png'", (4, 2), (2, 1))).unwrap();
        assert_eq!((half.mask().dimensions(), half.id), ((2, 1), 1));
        assert!(half.mask().is_sortable(0) && !half.mask().is_sortable(1));
        let e = mask.refit(to("'q.png'", (8, 4), (4, 2))).unwrap_err().to_string();
        assert!(e.contains("is 4x2 pixels but 'q.png' is 8x4"), "{e}");
    }

    #[test]
    fn an_unreadable_mask_is_an_error_not_a_panic() {
        let to = FitTo { picture: "'p.png'", source: (4, 2), fitted: (4, 2) };
        let file = Chosen::Path("/nonexistent/mask.png".into());
        let e = WindowMask::load(&file, 1, to).unwrap_err();
        assert!(e.contains("/nonexistent/mask.png") && !e.contains('\n'), "{e}");
    }
}
