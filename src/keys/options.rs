//! What a sort is asked to do: key, order and axis, shared by every algorithm and front end;
//! and where the pixels of each axis's lines sit ([`LineLayout`]).

use crate::keys::SortKey;

/// The direction pixels are sorted in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(not(target_arch = "wasm32"), derive(clap::ValueEnum))]
#[repr(u32)]
pub enum Axis {
    /// Each row is sorted left to right.
    #[default]
    Rows = 0,
    /// Each column is sorted top to bottom.
    Columns = 1,
}

impl Axis {
    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Axis::Rows => "rows",
            Axis::Columns => "columns",
        }
    }
}

/// What one sorted sequence is: each line on its own, or the whole picture (radix view only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(not(target_arch = "wasm32"), derive(clap::ValueEnum))]
#[repr(u32)]
pub enum Scope {
    /// Every line (row or column, as the axis says) is sorted on its own.
    #[default]
    Rows = 0,
    /// All pixels form one sequence in scanline order (row after row, or column after column
    /// with `--axis columns`), which turns the picture into a gradient.
    Image = 1,
}

impl Scope {
    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Scope::Rows => "rows",
            Scope::Image => "image",
        }
    }
}

/// Key, order and axis of a sort.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct SortOptions {
    /// What pixels are compared by.
    pub key: SortKey,
    /// Largest key first instead of smallest.
    pub descending: bool,
    /// Rows or columns.
    pub axis: Axis,
}

impl SortOptions {
    /// The key in sorting order, mirroring `order_key` in `shaders/sort_key.wgsl`: descending sorts
    /// compare the bitwise complement, so every algorithm swaps only when `left > right` and
    /// therefore stays stable.
    pub fn order_key(&self, pixel: [u8; 4]) -> u32 {
        let k = self.key.of(pixel);
        if self.descending { !k } else { k }
    }

    /// How many pixels one sorted line (a row or a column) holds in a `width` x `height` picture.
    pub fn line_len(&self, width: u32, height: u32) -> u32 {
        match self.axis {
            Axis::Rows => width,
            Axis::Columns => height,
        }
    }

    /// How many lines a `width` x `height` picture has along this axis.
    pub fn line_count(&self, width: u32, height: u32) -> u32 {
        match self.axis {
            Axis::Rows => height,
            Axis::Columns => width,
        }
    }
}

/// Where the pixels of each line sit in a picture's pixel array.
#[derive(Clone, Copy, Debug)]
pub struct LineLayout {
    /// Lines in the picture.
    pub count: usize,
    /// Pixels per line.
    pub len: usize,
    /// Index distance between consecutive pixels of a line.
    pub stride: usize,
    /// Index distance between the first pixels of consecutive lines.
    pub line_step: usize,
}

impl LineLayout {
    /// The layout of `axis` lines in a `width` x `height` picture.
    pub fn new(width: u32, height: u32, axis: Axis) -> Self {
        let (w, h) = (width as usize, height as usize);
        match axis {
            Axis::Rows => LineLayout { count: h, len: w, stride: 1, line_step: w },
            Axis::Columns => LineLayout { count: w, len: h, stride: w, line_step: 1 },
        }
    }

    /// Index of pixel `pos` of line `line`.
    pub fn index(&self, line: usize, pos: usize) -> usize {
        line * self.line_step + pos * self.stride
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descending_reverses_the_order_and_keeps_ties() {
        let up = SortOptions { key: SortKey::Red, ..Default::default() };
        let down = SortOptions { descending: true, ..up };
        let (a, b) = ([1, 0, 0, 0], [2, 0, 0, 0]);
        assert!(up.order_key(a) < up.order_key(b));
        assert!(down.order_key(a) > down.order_key(b));
        assert_eq!(down.order_key(a), down.order_key([1, 50, 60, 70]));
    }

    #[test]
    fn lines_follow_the_axis() {
        let rows = SortOptions::default();
        let cols = SortOptions { axis: Axis::Columns, ..rows };
        assert_eq!((rows.line_len(5, 3), rows.line_count(5, 3)), (5, 3));
        assert_eq!((cols.line_len(5, 3), cols.line_count(5, 3)), (3, 5));
    }
}
