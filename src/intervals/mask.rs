//! Mask pictures: white pixels may be sorted, black ones stay where they are, in every interval
//! mode. A pixel is white when its luma is at least half (`299 R + 587 G + 114 B >= 128000`,
//! the `luma` key) and it is at least half opaque (alpha >= 128); anything else is black.

use super::IntervalError;
use crate::keys::SortKey;
use crate::picture::input::{InputError, Picture};
use image::RgbaImage;
use std::path::Path;

/// Which pixels of a picture may be sorted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mask {
    width: u32,
    height: u32,
    /// Row-major.
    sortable: Vec<bool>,
    /// How messages name the mask.
    label: String,
}

/// The smallest luma (of the `luma` key, 0..=255000) a white mask pixel has.
pub const WHITE_LUMA: u32 = 128_000;

impl Mask {
    /// Reads a mask picture (any format and colour type shadersort reads).
    pub fn load(path: &Path) -> Result<Self, InputError> {
        let picture = Picture::load(path)?;
        Ok(Self::from_picture(&picture.pixels, &picture.label))
    }

    /// The mask drawn in `picture`; `label` names it in messages.
    pub fn from_picture(picture: &RgbaImage, label: &str) -> Self {
        let white = |p: &image::Rgba<u8>| SortKey::Luma.of(p.0) >= WHITE_LUMA && p[3] >= 128;
        Mask {
            width: picture.width(),
            height: picture.height(),
            sortable: picture.pixels().map(white).collect(),
            label: label.into(),
        }
    }

    /// A mask whose pixel `(x, y)` is white when `white(x, y)`.
    pub fn from_fn(width: u32, height: u32, mut white: impl FnMut(u32, u32) -> bool) -> Self {
        let sortable =
            (0..height).flat_map(|y| (0..width).map(move |x| (x, y))).map(|(x, y)| white(x, y)).collect();
        Mask { width, height, sortable, label: "mask".into() }
    }

    /// Width and height.
    pub fn dimensions(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// Whether the pixel at row-major `index` may be sorted.
    pub fn is_sortable(&self, index: usize) -> bool {
        self.sortable[index]
    }

    /// An error naming both sizes unless the mask is `size`; `picture` names the picture.
    pub fn check_size(&self, picture: &str, size: (u32, u32)) -> Result<(), IntervalError> {
        if self.dimensions() == size {
            return Ok(());
        }
        Err(IntervalError::MaskSize {
            mask: self.label.clone(),
            mask_size: self.dimensions(),
            picture: picture.into(),
            picture_size: size,
        })
    }

    /// The mask scaled to `width` x `height` by nearest neighbour (each new pixel takes the
    /// pixel under its centre), as the picture is when it is downscaled to fit.
    pub fn resized(&self, width: u32, height: u32) -> Self {
        let source = |new: u32, old: u32, size: u32| {
            ((2 * u64::from(new) + 1) * u64::from(old) / (2 * u64::from(size))) as u32
        };
        Mask::from_fn(width, height, |x, y| {
            let (sx, sy) = (source(x, self.width, width), source(y, self.height, height));
            self.sortable[sy as usize * self.width as usize + sx as usize]
        })
        .labelled(&self.label)
    }

    /// Sets whether pixel `(x, y)` may be sorted; returns whether it changed.
    pub fn set(&mut self, x: u32, y: u32, sortable: bool) -> bool {
        let cell = &mut self.sortable[(y * self.width + x) as usize];
        std::mem::replace(cell, sortable) != sortable
    }

    fn labelled(mut self, label: &str) -> Self {
        self.label = label.into();
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn white_is_half_luma_and_half_opaque() {
        let picture = RgbaImage::from_vec(
            5,
            1,
            [
                [255, 255, 255, 255],
                [128, 128, 128, 255],
                [127, 128, 128, 255],
                [255, 255, 255, 127],
                [0, 255, 0, 255],
            ]
            .concat(),
        )
        .unwrap();
        let mask = Mask::from_picture(&picture, "'m.png'");
        let white: Vec<bool> = (0..5).map(|i| mask.is_sortable(i)).collect();
        // Green 255 alone has luma 149685: white.
        assert_eq!(white, [true, true, false, false, true]);
    }

    #[test]
    fn a_wrong_size_names_both_sizes_and_both_pictures() {
        let mask = Mask::from_picture(&RgbaImage::new(3, 2), "'m.png'");
        assert_eq!(mask.check_size("'p.png'", (3, 2)), Ok(()));
        let e = mask.check_size("'p.png'", (2, 3)).unwrap_err().to_string();
        assert!(e.contains("the mask 'm.png' is 3x2 pixels but 'p.png' is 2x3"), "{e}");
    }

    #[test]
    fn resizing_takes_the_pixel_under_each_centre() {
        let mask = Mask::from_fn(4, 2, |x, _| x < 2);
        let half = mask.resized(2, 1);
        assert_eq!((half.dimensions(), half.sortable.clone()), ((2, 1), vec![true, false]));
        let double = mask.resized(8, 4);
        assert_eq!(double.sortable[..8], [true, true, true, true, false, false, false, false]);
        assert_eq!(mask.resized(4, 2), mask);
    }
}
