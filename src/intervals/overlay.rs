//! The intervals drawn over their picture, for the window to show what will be sorted together.

use super::IntervalMap;
use image::RgbaImage;

/// The colour marking the first pixel of every interval that can move (opaque magenta).
pub const INTERVAL_START: [u8; 4] = [255, 0, 255, 255];

/// How [`marks`] darkens a fixed pixel: black at this opacity leaves about a quarter of the
/// brightness under it, as [`overlay`] does.
pub const FIXED_SHADE: [u8; 4] = [0, 0, 0, 191];

/// The intervals alone, to draw over any state of the sort (fixed pixels never move, so the marks
/// stay true while the pixels move): [`FIXED_SHADE`] on pixels that cannot move, [`INTERVAL_START`]
/// on the first pixel of every interval of two or more, transparent elsewhere. Drawn over the input
/// it looks like [`overlay`].
pub fn marks(intervals: &IntervalMap) -> RgbaImage {
    let mut out = RgbaImage::new(intervals.width(), intervals.height());
    let layout = intervals.layout();
    let pixels: &mut [[u8; 4]] = bytemuck::cast_slice_mut(out.as_mut());
    for line in 0..layout.count {
        for interval in intervals.intervals(line) {
            let first = layout.index(line, interval.start);
            pixels[first] = if interval.len() == 1 { FIXED_SHADE } else { INTERVAL_START };
        }
    }
    out
}

/// `picture` with its intervals drawn in: pixels that cannot move (intervals of one pixel: outside
/// the threshold, on an edge, black in the mask) at a quarter of their brightness, alpha kept; the
/// first pixel of every interval of two or more pixels in [`INTERVAL_START`]; the rest unchanged.
///
/// # Panics
/// When the map was made for a picture of another size.
pub fn overlay(picture: &RgbaImage, intervals: &IntervalMap) -> RgbaImage {
    assert_eq!(
        picture.dimensions(),
        (intervals.width(), intervals.height()),
        "the interval map is for another picture"
    );
    let mut out = picture.clone();
    let layout = intervals.layout();
    let pixels: &mut [[u8; 4]] = bytemuck::cast_slice_mut(out.as_mut());
    for line in 0..layout.count {
        for interval in intervals.intervals(line) {
            let first = layout.index(line, interval.start);
            if interval.len() == 1 {
                let [r, g, b, a] = pixels[first];
                pixels[first] = [r >> 2, g >> 2, b >> 2, a];
            } else {
                pixels[first] = INTERVAL_START;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::intervals::Cell;
    use crate::keys::options::Axis;

    #[test]
    fn fixed_pixels_are_dimmed_and_interval_starts_marked() {
        use Cell::{Fixed as F, Join as J, Start as S};
        let cells = [J, J, F, J, S, J, J, F];
        let picture = RgbaImage::from_pixel(8, 1, image::Rgba([200, 100, 40, 77]));
        let map = IntervalMap::build(8, 1, Axis::Rows, |_, pos, _| cells[pos]);
        let out = overlay(&picture, &map);
        let dim = [50, 25, 10, 77];
        let plain = [200, 100, 40, 77];
        let got: Vec<[u8; 4]> = out.pixels().map(|p| p.0).collect();
        // Pixel 3 joins after a fixed pixel but pixel 4 starts anew: an interval of one, so it
        // cannot move.
        assert_eq!(got, [INTERVAL_START, plain, dim, dim, INTERVAL_START, plain, plain, dim]);
    }

    #[test]
    fn marks_sit_exactly_where_the_overlay_changes_the_picture() {
        use crate::intervals::{IntervalMode, IntervalSettings, Threshold};
        // No black pixels, so dimming changes every fixed pixel.
        let picture = RgbaImage::from_fn(23, 9, |x, y| {
            image::Rgba([(x * 11 + 5) as u8, (y * 27 + 9) as u8, ((x * y) % 200 + 20) as u8, 255])
        });
        for axis in [Axis::Rows, Axis::Columns] {
            let settings = IntervalSettings {
                mode: IntervalMode::Threshold,
                threshold: Threshold::new(0.2, 0.6).unwrap(),
                ..Default::default()
            };
            let map = IntervalMap::compute(&picture, axis, &settings, None).unwrap();
            let (drawn, alone) = (overlay(&picture, &map), marks(&map));
            for ((p, o), m) in picture.pixels().zip(drawn.pixels()).zip(alone.pixels()) {
                match m.0 {
                    INTERVAL_START => assert_eq!(o.0, INTERVAL_START),
                    FIXED_SHADE => assert_eq!(o.0, [p[0] >> 2, p[1] >> 2, p[2] >> 2, p[3]]),
                    [0, 0, 0, 0] => assert_eq!(o, p),
                    other => panic!("unexpected mark {other:?}"),
                }
            }
            assert!(
                alone.pixels().any(|m| m.0 == FIXED_SHADE) && alone.pixels().any(|m| m.0 == INTERVAL_START)
            );
        }
    }

    #[test]
    fn columns_are_marked_down_each_column_and_whole_lines_only_at_their_start() {
        let picture = RgbaImage::from_pixel(2, 3, image::Rgba([8, 8, 8, 255]));
        let out = overlay(&picture, &IntervalMap::whole_lines(2, 3, Axis::Columns));
        assert_eq!((out.get_pixel(0, 0).0, out.get_pixel(1, 0).0), (INTERVAL_START, INTERVAL_START));
        assert!((1..3).all(|y| out.get_pixel(0, y).0 == [8, 8, 8, 255]));
        // A one-pixel line is an interval of one: it cannot move, so it is dimmed.
        let one = overlay(
            &RgbaImage::from_pixel(1, 1, image::Rgba([8, 8, 8, 255])),
            &IntervalMap::whole_lines(1, 1, Axis::Rows),
        );
        assert_eq!(one.get_pixel(0, 0).0, [2, 2, 2, 255]);
    }
}
