//! The CPU model of a sort along a path, straight from its geometry (no line space): each path
//! line's pixels, in the path's order, stably sorted by key and put back in that order.

use crate::keys::options::SortOptions;
use crate::paths::{Path, geometry};
use image::RgbaImage;

/// `picture` with every line of `path` stably sorted by `options` (its axis is not used).
pub fn sorted_along(picture: &RgbaImage, path: &Path, options: &SortOptions) -> RgbaImage {
    let mut out = picture.clone();
    let pixels: &mut [[u8; 4]] = bytemuck::cast_slice_mut(out.as_mut());
    for line in geometry::lines(path, picture.dimensions()) {
        let mut values: Vec<[u8; 4]> = line.iter().map(|&i| pixels[i as usize]).collect();
        values.sort_by_key(|&p| options.order_key(p));
        for (&i, value) in line.iter().zip(values) {
            pixels[i as usize] = value;
        }
    }
    out
}
