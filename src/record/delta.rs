//! Frames as the regions that changed: the first frame whole, later frames only the rectangle
//! that changed, with unchanged pixels inside it marked transparent where the format has a mark
//! for it, optionally scaled up. Pixels are palette indices (GIF) or RGBA (APNG).

/// A rectangle of pixels placed on the canvas.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region<P> {
    /// Left edge on the canvas.
    pub left: u32,
    /// Top edge on the canvas.
    pub top: u32,
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
    /// Pixels, scanline order.
    pub pixels: Vec<P>,
}

/// A region of GIF palette indices.
pub type FrameRegion = Region<u8>;

impl<P: Copy + PartialEq> Region<P> {
    /// A whole `width` x `height` frame.
    pub fn full(pixels: &[P], width: u32, height: u32) -> Self {
        Region { left: 0, top: 0, width, height, pixels: pixels.to_vec() }
    }

    /// The smallest rectangle holding every pixel where `current` differs from `previous`; inside
    /// it, unchanged pixels become `transparent` when the format has such a pixel (they keep
    /// showing the previous frame, and long transparent stretches compress well). A frame with no
    /// change is one transparent pixel (or one unchanged pixel when there is no such pixel).
    pub fn changed(previous: &[P], current: &[P], width: u32, height: u32, transparent: Option<P>) -> Self {
        let (w, h) = (width as usize, height as usize);
        assert_eq!((previous.len(), current.len()), (w * h, w * h));
        let row_changed = |y: usize| previous[y * w..(y + 1) * w] != current[y * w..(y + 1) * w];
        let Some(top) = (0..h).find(|&y| row_changed(y)) else {
            let pixels = vec![transparent.unwrap_or(current[0])];
            return Region { left: 0, top: 0, width: 1, height: 1, pixels };
        };
        let bottom = (top..h).rev().find(|&y| row_changed(y)).expect("row `top` changed");
        let (mut left, mut right) = (w, 0);
        for y in top..=bottom {
            let (p, c) = (&previous[y * w..(y + 1) * w], &current[y * w..(y + 1) * w]);
            if let Some(l) = (0..left).find(|&x| p[x] != c[x]) {
                left = l;
            }
            if let Some(r) = (right..w).rev().find(|&x| p[x] != c[x]) {
                right = r;
            }
        }
        let mut pixels = Vec::with_capacity((bottom - top + 1) * (right - left + 1));
        for y in top..=bottom {
            let row = y * w;
            match transparent {
                Some(t) => pixels.extend(
                    (left..=right)
                        .map(|x| if previous[row + x] == current[row + x] { t } else { current[row + x] }),
                ),
                None => pixels.extend_from_slice(&current[row + left..=row + right]),
            }
        }
        Region {
            left: left as u32,
            top: top as u32,
            width: (right - left + 1) as u32,
            height: (bottom - top + 1) as u32,
            pixels,
        }
    }

    /// The region scaled up by an integer factor, nearest neighbour.
    pub fn scaled(self, scale: u32) -> Self {
        if scale == 1 {
            return self;
        }
        let s = scale as usize;
        let mut pixels = Vec::with_capacity(self.pixels.len() * s * s);
        for row in self.pixels.chunks_exact(self.width as usize) {
            let wide: Vec<P> = row.iter().flat_map(|&i| std::iter::repeat_n(i, s)).collect();
            for _ in 0..s {
                pixels.extend_from_slice(&wide);
            }
        }
        Region {
            left: self.left * scale,
            top: self.top * scale,
            width: self.width * scale,
            height: self.height * scale,
            pixels,
        }
    }

    /// Paints the region onto a canvas (what a viewer does with "keep" disposal and a
    /// transparent mark); `transparent` pixels leave the canvas as it was.
    pub fn paint(&self, canvas: &mut [P], canvas_width: u32, transparent: Option<P>) {
        for (dy, row) in self.pixels.chunks_exact(self.width as usize).enumerate() {
            let start = (self.top as usize + dy) * canvas_width as usize + self.left as usize;
            for (dst, &i) in canvas[start..start + row.len()].iter_mut().zip(row) {
                if Some(i) != transparent {
                    *dst = i;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_changed_rectangle_is_tight_and_paints_back_the_current_frame() {
        let previous = vec![1u8; 6 * 4];
        let mut current = previous.clone();
        current[6 + 2] = 5; // (2, 1)
        current[2 * 6 + 4] = 7; // (4, 2)
        let region = FrameRegion::changed(&previous, &current, 6, 4, Some(9));
        assert_eq!((region.left, region.top, region.width, region.height), (2, 1, 3, 2));
        assert_eq!(region.pixels, [5, 9, 9, 9, 9, 7]);
        let mut canvas = previous.clone();
        region.paint(&mut canvas, 6, Some(9));
        assert_eq!(canvas, current);
    }

    #[test]
    fn without_a_free_index_unchanged_pixels_are_repeated() {
        let previous = vec![0u8, 0, 0, 0];
        let current = vec![3u8, 0, 0, 4];
        let region = FrameRegion::changed(&previous, &current, 2, 2, None);
        assert_eq!(region.pixels, current);
        let mut canvas = previous.clone();
        region.paint(&mut canvas, 2, None);
        assert_eq!(canvas, current);
    }

    #[test]
    fn an_unchanged_frame_is_one_transparent_pixel() {
        let same = vec![2u8; 9];
        let region = FrameRegion::changed(&same, &same, 3, 3, Some(200));
        assert_eq!((region.width, region.height, region.pixels.clone()), (1, 1, vec![200]));
    }

    #[test]
    fn scaling_repeats_pixels_and_moves_the_origin() {
        let region = FrameRegion { left: 1, top: 2, width: 2, height: 1, pixels: vec![4, 5] };
        let big = region.scaled(2);
        assert_eq!((big.left, big.top, big.width, big.height), (2, 4, 4, 2));
        assert_eq!(big.pixels, [4, 4, 5, 5, 4, 4, 5, 5]);
    }
}
