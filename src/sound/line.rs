//! The line a run is heard on, and what moved on it since it was last heard: the lens's line
//! (a recording's `--lens N`), or the line through the picture's middle pixel, where L opens the
//! lens.

use crate::angle::Lines;
use crate::keys::SortKey;
use crate::keys::options::Axis;
use crate::lens::LensLine;

/// What a line held when it was last heard, to tell what a step moved on it.
#[derive(Clone, Debug, Default)]
pub struct Heard {
    /// The line's pixels, in its order, as last heard (none before the first hearing).
    last: Option<Vec<[u8; 4]>>,
}

impl Heard {
    /// The keys (by `key`) of the pixels now at the positions of `now` whose pixel changed since
    /// the line was last heard, in the line's order; `now` is heard from here on. The first
    /// hearing, or one of a line of another length, moved nothing.
    pub fn moved(&mut self, now: Vec<[u8; 4]>, key: SortKey) -> Vec<u32> {
        let moved = match &self.last {
            Some(last) if last.len() == now.len() => {
                now.iter().zip(last).filter(|(p, q)| p != q).map(|(p, _)| key.of(*p)).collect()
            }
            _ => Vec::new(),
        };
        self.last = Some(now);
        moved
    }

    /// Forgets the line: the next hearing moved nothing (another picture, another line).
    pub fn forget(&mut self) {
        self.last = None;
    }

    /// Where nothing was heard yet, takes `before` (the line before the step about to be
    /// heard) as heard: a step taken just as the sound is turned on is heard too.
    pub fn unless_heard(&mut self, before: Option<Vec<[u8; 4]>>) {
        if self.last.is_none() {
            self.last = before;
        }
    }
}

/// The line a recording is heard on, as picture pixels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SoundLine {
    /// The index in the picture (`y * width + x`) of each position's pixel, in the line's order;
    /// padding of line space, which holds no picture pixel, is left out.
    pixels: Vec<usize>,
}

impl SoundLine {
    /// Line `index` along `lines` of a `size` picture (clamped to the last), or without one the
    /// line through the picture's middle pixel.
    pub fn of(lines: &Lines, size: (u32, u32), index: Option<u32>) -> SoundLine {
        let (width, height) = size;
        let middle = (width / 2, height / 2);
        let line = match index {
            Some(index) => LensLine::numbered(lines, size, index),
            None => LensLine::through(lines, size, middle),
        };
        let (w, h) = (width as usize, height as usize);
        let i = line.index as usize;
        let pixels = match lines {
            Lines::Axis(Axis::Rows) => (0..w).map(|x| i * w + x).collect(),
            Lines::Axis(Axis::Columns) => (0..h).map(|y| y * w + i).collect(),
            Lines::Laid(space) => {
                let line_width = space.size().0 as usize;
                let mut on_line: Vec<(usize, usize)> = (space.places().iter().enumerate())
                    .filter(|&(_, &cell)| cell as usize / line_width == i)
                    .map(|(pixel, &cell)| (cell as usize % line_width, pixel))
                    .collect();
                on_line.sort_unstable();
                on_line.into_iter().map(|(_, pixel)| pixel).collect()
            }
        };
        SoundLine { pixels }
    }

    /// The line's pixels in `picture` (RGBA pixels of the picture, row by row), scaled up by
    /// `scale` (nearest neighbour, as recordings scale), in the line's order.
    pub fn read(&self, picture: &[[u8; 4]], width: u32, scale: u32) -> Vec<[u8; 4]> {
        let (w, s) = (width as usize, scale.max(1) as usize);
        self.pixels.iter().map(|&p| picture[(p / w * s) * (w * s) + (p % w) * s]).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_middle_row_and_column_and_what_moved_on_them() {
        let rows = Lines::Axis(Axis::Rows);
        let picture: Vec<[u8; 4]> = (0..12).map(|i| [i as u8 * 20, 0, 0, 255]).collect();
        // 4x3: the middle row is row 1, the middle column column 2.
        let line = SoundLine::of(&rows, (4, 3), None);
        assert_eq!(line.read(&picture, 4, 1), picture[4..8].to_vec());
        let column = SoundLine::of(&Lines::Axis(Axis::Columns), (4, 3), None);
        assert_eq!(column.read(&picture, 4, 1), vec![picture[2], picture[6], picture[10]]);
        assert_eq!(SoundLine::of(&rows, (4, 3), Some(9)).read(&picture, 4, 1), picture[8..].to_vec());
        // Scaled by 2, the pixel at (x, y) is at (2x, 2y).
        let scaled: Vec<[u8; 4]> =
            (0..48).map(|i| picture[(i / 8 / 2) * 4 + (i % 8) / 2]).collect::<Vec<_>>();
        assert_eq!(line.read(&scaled, 4, 2), picture[4..8].to_vec());
        let mut heard = Heard::default();
        assert!(heard.moved(picture[4..8].to_vec(), SortKey::Red).is_empty(), "first hearing");
        let swapped = vec![picture[4], picture[6], picture[5], picture[7]];
        assert_eq!(heard.moved(swapped.clone(), SortKey::Red), [120, 100]);
        assert!(heard.moved(swapped.clone(), SortKey::Red).is_empty(), "nothing moved since");
        // A first hearing heard from the line before its step, where that is known.
        let mut first = Heard::default();
        first.unless_heard(Some(picture[4..8].to_vec()));
        first.unless_heard(None);
        assert_eq!(first.moved(swapped, SortKey::Red), [120, 100]);
    }
}
