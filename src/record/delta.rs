//! GIF frames from palette indices: the first frame whole, later frames only the rectangle that
//! changed, with unchanged pixels inside it marked transparent, optionally scaled up.

/// A rectangle of palette indices placed on the GIF canvas.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameRegion {
    /// Left edge on the canvas.
    pub left: u32,
    /// Top edge on the canvas.
    pub top: u32,
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
    /// Indices, scanline order.
    pub indices: Vec<u8>,
}

impl FrameRegion {
    /// A whole `width` x `height` frame.
    pub fn full(indices: &[u8], width: u32, height: u32) -> Self {
        FrameRegion { left: 0, top: 0, width, height, indices: indices.to_vec() }
    }

    /// The smallest rectangle holding every pixel where `current` differs from `previous`; inside
    /// it, unchanged pixels become `transparent` when there is such an index (they keep showing
    /// the previous frame, and long transparent runs compress well). A frame with no change is
    /// one transparent pixel (or one unchanged pixel when no index is free).
    pub fn changed(
        previous: &[u8],
        current: &[u8],
        width: u32,
        height: u32,
        transparent: Option<u8>,
    ) -> Self {
        let (w, h) = (width as usize, height as usize);
        assert_eq!((previous.len(), current.len()), (w * h, w * h));
        let row_changed = |y: usize| previous[y * w..(y + 1) * w] != current[y * w..(y + 1) * w];
        let Some(top) = (0..h).find(|&y| row_changed(y)) else {
            let indices = vec![transparent.unwrap_or(current[0])];
            return FrameRegion { left: 0, top: 0, width: 1, height: 1, indices };
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
        let mut indices = Vec::with_capacity((bottom - top + 1) * (right - left + 1));
        for y in top..=bottom {
            for x in left..=right {
                let i = y * w + x;
                indices.push(match transparent {
                    Some(t) if previous[i] == current[i] => t,
                    _ => current[i],
                });
            }
        }
        FrameRegion {
            left: left as u32,
            top: top as u32,
            width: (right - left + 1) as u32,
            height: (bottom - top + 1) as u32,
            indices,
        }
    }

    /// The region scaled up by an integer factor, nearest neighbour.
    pub fn scaled(self, scale: u32) -> Self {
        if scale == 1 {
            return self;
        }
        let s = scale as usize;
        let mut indices = Vec::with_capacity(self.indices.len() * s * s);
        for row in self.indices.chunks_exact(self.width as usize) {
            let wide: Vec<u8> = row.iter().flat_map(|&i| std::iter::repeat_n(i, s)).collect();
            for _ in 0..s {
                indices.extend_from_slice(&wide);
            }
        }
        FrameRegion {
            left: self.left * scale,
            top: self.top * scale,
            width: self.width * scale,
            height: self.height * scale,
            indices,
        }
    }

    /// Paints the region onto a canvas of palette indices (what a GIF viewer does with
    /// "keep" disposal); `transparent` pixels leave the canvas as it was.
    pub fn paint(&self, canvas: &mut [u8], canvas_width: u32, transparent: Option<u8>) {
        for (dy, row) in self.indices.chunks_exact(self.width as usize).enumerate() {
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
        assert_eq!(region.indices, [5, 9, 9, 9, 9, 7]);
        let mut canvas = previous.clone();
        region.paint(&mut canvas, 6, Some(9));
        assert_eq!(canvas, current);
    }

    #[test]
    fn without_a_free_index_unchanged_pixels_are_repeated() {
        let previous = vec![0u8, 0, 0, 0];
        let current = vec![3u8, 0, 0, 4];
        let region = FrameRegion::changed(&previous, &current, 2, 2, None);
        assert_eq!(region.indices, current);
        let mut canvas = previous.clone();
        region.paint(&mut canvas, 2, None);
        assert_eq!(canvas, current);
    }

    #[test]
    fn an_unchanged_frame_is_one_transparent_pixel() {
        let same = vec![2u8; 9];
        let region = FrameRegion::changed(&same, &same, 3, 3, Some(200));
        assert_eq!((region.width, region.height, region.indices.clone()), (1, 1, vec![200]));
    }

    #[test]
    fn scaling_repeats_pixels_and_moves_the_origin() {
        let region = FrameRegion { left: 1, top: 2, width: 2, height: 1, indices: vec![4, 5] };
        let big = region.scaled(2);
        assert_eq!((big.left, big.top, big.width, big.height), (2, 4, 4, 2));
        assert_eq!(big.indices, [4, 4, 5, 5, 4, 4, 5, 5]);
    }
}
