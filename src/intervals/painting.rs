//! Painting a mask by hand (the window's and the page's mask brush): strokes of a round brush
//! that let pixels move or keep them in place, inverting, clearing, filling from the intervals
//! in use, and the mask as the picture that `--mask` reads back exactly (white may move, black
//! stays).

use super::Mask;
use super::overlay::FIXED_SHADE;
use image::RgbaImage;

impl Mask {
    /// A mask of `width` x `height` where every pixel may move (`sortable`) or none may.
    pub fn filled(width: u32, height: u32, sortable: bool) -> Mask {
        Mask::from_fn(width, height, |_, _| sortable)
    }

    /// Paints a stroke of a round brush of `radius` pixels from `from` to `to` (points in
    /// pixels, (0, 0) the picture's top left corner): every pixel whose centre lies within
    /// `radius` of the segment becomes `sortable`. Returns whether any pixel changed.
    pub fn stroke(&mut self, from: (f32, f32), to: (f32, f32), radius: f32, sortable: bool) -> bool {
        let (width, height) = self.dimensions();
        let radius = radius.max(0.5);
        let span = |a: f32, b: f32, size: u32| {
            let low = (a.min(b) - radius - 0.5).floor().max(0.0) as u32;
            let high = ((a.max(b) + radius - 0.5).ceil().max(0.0) as u32).min(size.saturating_sub(1));
            low..=high
        };
        let mut changed = false;
        for y in span(from.1, to.1, height) {
            for x in span(from.0, to.0, width) {
                let centre = (x as f32 + 0.5, y as f32 + 0.5);
                if distance_to_segment(centre, from, to) <= radius {
                    changed |= self.set(x, y, sortable);
                }
            }
        }
        changed
    }

    /// Every pixel that may move stays, and the other way round.
    pub fn invert(&mut self) {
        let (width, height) = self.dimensions();
        for y in 0..height {
            for x in 0..width {
                let index = (y * width + x) as usize;
                self.set(x, y, !self.is_sortable(index));
            }
        }
    }

    /// The mask of the intervals whose marks are `marks` (as [`crate::angle::Lines::marks`]
    /// draws them over the picture): the pixels that can move there may move here.
    pub fn of_runs(marks: &RgbaImage) -> Mask {
        Mask::from_fn(marks.width(), marks.height(), |x, y| marks.get_pixel(x, y).0 != FIXED_SHADE)
    }

    /// The mask as a picture that [`Mask::from_picture`] reads back exactly: opaque white where
    /// pixels may move, black where they stay.
    pub fn to_picture(&self) -> RgbaImage {
        let (width, height) = self.dimensions();
        RgbaImage::from_fn(width, height, |x, y| {
            let v = if self.is_sortable((y * width + x) as usize) { 255 } else { 0 };
            image::Rgba([v, v, v, 255])
        })
    }
}

/// How far `point` lies from the segment `a`-`b`.
fn distance_to_segment(point: (f32, f32), a: (f32, f32), b: (f32, f32)) -> f32 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let length = dx * dx + dy * dy;
    let t = if length == 0.0 {
        0.0
    } else {
        (((point.0 - a.0) * dx + (point.1 - a.1) * dy) / length).clamp(0.0, 1.0)
    };
    let (px, py) = (a.0 + t * dx, a.1 + t * dy);
    ((point.0 - px).powi(2) + (point.1 - py).powi(2)).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(mask: &Mask) -> Vec<String> {
        let (w, h) = mask.dimensions();
        (0..h)
            .map(|y| (0..w).map(|x| if mask.is_sortable((y * w + x) as usize) { '#' } else { '.' }).collect())
            .collect()
    }

    #[test]
    fn a_stroke_paints_the_pixels_whose_centres_the_brush_covers() {
        let mut mask = Mask::filled(9, 5, false);
        assert!(mask.stroke((1.5, 2.5), (7.5, 2.5), 1.0, true));
        assert_eq!(rows(&mask), [".........", ".#######.", "#########", ".#######.", "........."]);
        // Erasing a dot: the pixel under it and its four neighbours (at distance 1).
        assert!(mask.stroke((4.5, 2.5), (4.5, 2.5), 1.0, false));
        assert_eq!(rows(&mask), [".........", ".###.###.", "###...###", ".###.###.", "........."]);
        assert!(!mask.stroke((4.5, 2.5), (4.5, 2.5), 1.0, false), "nothing changed the second time");
        // Off the picture: clipped, no panic.
        assert!(mask.stroke((-5.0, -5.0), (0.2, 0.2), 0.5, true));
        assert_eq!(rows(&mask)[0], "#........");
        assert!(!Mask::filled(3, 3, false).stroke((-9.0, 1.0), (-4.0, 1.0), 2.0, true));
    }

    #[test]
    fn invert_fill_and_a_png_round_trip_are_exact() {
        let mut mask = Mask::from_fn(13, 7, |x, y| (x * 7 + y * 3) % 5 < 2);
        let mut png = Vec::new();
        mask.to_picture().write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png).unwrap();
        let back = Mask::from_picture(&image::load_from_memory(&png).unwrap().to_rgba8(), "mask");
        assert_eq!(rows(&back), rows(&mask));
        let before = rows(&mask);
        mask.invert();
        assert!(rows(&mask).iter().zip(&before).all(|(a, b)| a.chars().zip(b.chars()).all(|(p, q)| p != q)));
        assert_eq!(rows(&Mask::filled(2, 1, true)), ["##"]);
        let mut marks = RgbaImage::new(3, 1);
        marks.put_pixel(1, 0, image::Rgba(FIXED_SHADE));
        assert_eq!(rows(&Mask::of_runs(&marks)), ["#.#"]);
    }
}
