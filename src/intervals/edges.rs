//! Edge intervals: pixels on strong edges stay fixed and split the intervals between them.
//!
//! The edge strength is the Sobel magnitude of the interval key, `sqrt(gx² + gy²)` with the
//! 3x3 kernels `[-1 0 1; -2 0 2; -1 0 1]` and its transpose, the picture's border pixels
//! repeated outward. The level is a fraction of the largest magnitude the key allows,
//! `sqrt(20) * max` (reached where three neighbours on one corner's side are at the key's
//! maximum and the other five at zero), so one level means the same for every key: a pixel
//! whose magnitude *exceeds* `level * sqrt(20) * max` is an edge pixel and is fixed. Level 1
//! fixes nothing; level 0 fixes every pixel whose neighbourhood is not flat.

use crate::keys::SortKey;
use image::RgbaImage;

/// The largest `gx² + gy²` is this times the square of the key's largest value.
pub const MAX_SQUARED_MAGNITUDE_FACTOR: u64 = 20;

/// `gx² + gy²` at `(x, y)` of a `width` x `height` field of keys (row-major), border repeated.
pub fn squared_magnitude(keys: &[u32], width: u32, height: u32, x: u32, y: u32) -> u64 {
    let at = |dx: i64, dy: i64| {
        let cx = (i64::from(x) + dx).clamp(0, i64::from(width) - 1) as usize;
        let cy = (i64::from(y) + dy).clamp(0, i64::from(height) - 1) as usize;
        i64::from(keys[cy * width as usize + cx])
    };
    let gx = (at(1, -1) + 2 * at(1, 0) + at(1, 1)) - (at(-1, -1) + 2 * at(-1, 0) + at(-1, 1));
    let gy = (at(-1, 1) + 2 * at(0, 1) + at(1, 1)) - (at(-1, -1) + 2 * at(0, -1) + at(1, -1));
    (gx * gx + gy * gy) as u64
}

/// The largest squared magnitude that is no edge at `level` of `key`: a pixel is an edge
/// pixel when its `gx² + gy²` (a whole number) exceeds this, which is exactly when it exceeds
/// `level² * 20 * max²`. The one place the level's fraction becomes a whole number, so the CPU
/// and the GPU (`shaders/found_intervals.wgsl`, in 64-bit integers) compare the same integers.
pub fn squared_limit(key: SortKey, level: f64) -> u64 {
    let max = f64::from(key.max_value());
    // A whole number exceeds a real one exactly when it exceeds its floor; the cast saturates.
    (level * level * MAX_SQUARED_MAGNITUDE_FACTOR as f64 * max * max).floor() as u64
}

/// For every pixel (row-major), whether it lies on an edge stronger than `level` (a fraction
/// of the largest possible magnitude of `key`): the fixed pixels.
pub fn edge_pixels(picture: &RgbaImage, key: SortKey, level: f64) -> Vec<bool> {
    let (width, height) = picture.dimensions();
    let keys: Vec<u32> = picture.pixels().map(|p| key.of(p.0)).collect();
    let limit = squared_limit(key, level);
    (0..height)
        .flat_map(|y| (0..width).map(move |x| (x, y)))
        .map(|(x, y)| squared_magnitude(&keys, width, height, x, y) > limit)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Over every 0/max neighbourhood (the extremes of a convex function of linear forms),
    /// the largest squared magnitude is exactly 20 max².
    #[test]
    fn the_largest_magnitude_is_sqrt_20_times_the_key_maximum() {
        let max = 255u32;
        let mut best = 0;
        for bits in 0u32..512 {
            let keys: Vec<u32> = (0..9).map(|i| (bits >> i & 1) * max).collect();
            best = best.max(squared_magnitude(&keys, 3, 3, 1, 1));
        }
        assert_eq!(best, MAX_SQUARED_MAGNITUDE_FACTOR * u64::from(max * max));
    }

    #[test]
    fn a_vertical_step_is_an_edge_two_pixels_wide() {
        // Red 0 left of x = 3, 255 from there: |gx| = 4 * 255 at x = 2 and 3, 0 elsewhere.
        let img = RgbaImage::from_fn(6, 3, |x, _| image::Rgba([if x < 3 { 0 } else { 255 }, 0, 0, 255]));
        let edges = edge_pixels(&img, SortKey::Red, 0.5);
        let row: Vec<bool> = edges[6..12].to_vec();
        assert_eq!(row, [false, false, true, true, false, false]);
        // 4 * 255 / (sqrt(20) * 255) = 0.894: a level just above lets it pass.
        assert!(edge_pixels(&img, SortKey::Red, 0.9).iter().all(|&e| !e));
        assert!(edge_pixels(&img, SortKey::Red, 0.89).iter().any(|&e| e));
        // Level 1 fixes nothing, even on the strongest edge; level 0 fixes only non-flat pixels.
        assert!(edge_pixels(&img, SortKey::Red, 1.0).iter().all(|&e| !e));
        assert_eq!(edge_pixels(&img, SortKey::Red, 0.0), edges);
        let flat = RgbaImage::from_pixel(4, 4, image::Rgba([9, 9, 9, 9]));
        assert!(edge_pixels(&flat, SortKey::Luma, 0.0).iter().all(|&e| !e));
    }

    #[test]
    fn one_pixel_pictures_have_no_edges() {
        let one = RgbaImage::from_pixel(1, 1, image::Rgba([200, 10, 30, 255]));
        assert_eq!(edge_pixels(&one, SortKey::Hue, 0.0), [false]);
    }
}
