//! A mask loaded in the window (`--mask` or the panel's mask field): checked against the
//! picture's own size, then scaled with the picture as `--max-size` scales it, as the headless
//! paths do.

use crate::intervals::{IntervalError, Mask};
use crate::picture::input::InputError;
use std::path::{Path, PathBuf};

/// A mask as read and as fitted to the window's picture, and where it came from.
#[derive(Clone, Debug)]
pub struct WindowMask {
    /// The file.
    pub path: PathBuf,
    /// A number unique to this load, so the window sees a new mask even from the same file.
    pub id: u64,
    original: Mask,
    fitted: Mask,
}

impl WindowMask {
    /// Reads the mask at `path` and fits it to a picture that was `source` pixels before it
    /// was fitted to `fitted` (`picture` names it in messages); `id` tells this load from
    /// others. The error is one line naming the file, or both sizes.
    pub fn load(
        path: &Path,
        id: u64,
        picture: &str,
        source: (u32, u32),
        fitted: (u32, u32),
    ) -> Result<Self, String> {
        let mask = Mask::load(path).map_err(|e: InputError| e.to_string())?;
        Self::new(mask, path, id, picture, source, fitted).map_err(|e| e.to_string())
    }

    /// A mask already read from `path`, fitted as [`WindowMask::load`] does.
    pub fn new(
        mask: Mask,
        path: &Path,
        id: u64,
        picture: &str,
        source: (u32, u32),
        fitted: (u32, u32),
    ) -> Result<Self, IntervalError> {
        let fitted = fit(&mask, picture, source, fitted)?;
        Ok(WindowMask { path: path.to_path_buf(), id, original: mask, fitted })
    }

    /// The same mask fitted to another picture, or an error naming both sizes.
    pub fn refit(
        &self,
        picture: &str,
        source: (u32, u32),
        fitted: (u32, u32),
    ) -> Result<Self, IntervalError> {
        Self::new(self.original.clone(), &self.path, self.id, picture, source, fitted)
    }

    /// The mask at the size of the picture being sorted.
    pub fn mask(&self) -> &Mask {
        &self.fitted
    }
}

/// `mask` for a picture that was `source` pixels before it was fitted to `fitted`: an error
/// naming both sizes unless the mask is `source`, else the mask scaled to `fitted`.
fn fit(mask: &Mask, picture: &str, source: (u32, u32), fitted: (u32, u32)) -> Result<Mask, IntervalError> {
    mask.check_size(picture, source)?;
    Ok(if source == fitted { mask.clone() } else { mask.resized(fitted.0, fitted.1) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mask_is_checked_at_the_source_size_and_scaled_to_the_fitted_one() {
        let original = Mask::from_fn(4, 2, |x, _| x < 2);
        let mask =
            WindowMask::new(original.clone(), Path::new("m.png"), 1, "'p.png'", (4, 2), (4, 2)).unwrap();
        assert_eq!(mask.mask(), &original);
        let half = mask.refit("'p.png'", (4, 2), (2, 1)).unwrap();
        assert_eq!((half.mask().dimensions(), half.id), ((2, 1), 1));
        assert!(half.mask().is_sortable(0) && !half.mask().is_sortable(1));
        let e = mask.refit("'q.png'", (8, 4), (4, 2)).unwrap_err().to_string();
        assert!(e.contains("is 4x2 pixels but 'q.png' is 8x4"), "{e}");
    }

    #[test]
    fn an_unreadable_mask_is_an_error_not_a_panic() {
        let e =
            WindowMask::load(Path::new("/nonexistent/mask.png"), 1, "'p.png'", (4, 2), (4, 2)).unwrap_err();
        assert!(e.contains("/nonexistent/mask.png") && !e.contains('\n'), "{e}");
    }
}
