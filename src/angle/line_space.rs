//! The line layout of an angle: which line every pixel lies on and where along it, and the
//! line-space picture that holds one line per row (the CPU side of gather and scatter).
//!
//! With the integer [`Slope`] of the angle, pixel `(x, y)` of a picture whose lines follow rows
//! lies on line `y - offset(x)` at position `x` (`W - 1 - x` when the sort runs right to left);
//! lines that follow columns swap the roles of x and y. Lines are numbered from 0 at the
//! smallest. Since the offset is monotone, each line is a contiguous span of positions: line
//! `l` becomes row `l` of the line-space picture, its pixels left-aligned in sort order, and
//! the rest of the row, up to the longest line's length, is padding.

pub use super::route::Route;
use super::{Angle, Slope};
use crate::intervals::{Cell, IntervalError, IntervalMap, IntervalSettings, IntervalSummary, Mask};
use crate::keys::options::Axis;
use image::RgbaImage;
use std::sync::OnceLock;

/// What a padding cell of the line-space picture holds (it never moves: the interval map fixes it).
pub const PADDING: [u8; 4] = [0, 0, 0, 0];

/// Marks a line-space cell that holds no picture pixel (`NO_TEXEL` in the GPU's gather).
pub const NO_PIXEL: u32 = u32::MAX;

/// The line layout of one angle (or path) on one picture size, with what is made from it once
/// and kept for every run along it (a clip's frames, the window's restarts).
#[derive(Clone, Debug)]
pub struct LineSpace {
    route: Route,
    /// One sequence too long for a row, laid out row after row in a picture of the source's
    /// size and sorted as a whole picture.
    wrapped: bool,
    width: u32,
    height: u32,
    lines: u32,
    line_width: u32,
    /// For each picture pixel (row-major), its row-major index in line space.
    places: Vec<u32>,
    /// For each line-space cell (row-major), the picture pixel it holds, or `NO_PIXEL`.
    pixels: Vec<u32>,
    /// The map of whole lines, made on first use.
    whole_lines: OnceLock<Option<IntervalMap>>,
    /// `places` and `pixels` on the GPU, uploaded on first use (`super::scatter`).
    pub(super) tables: OnceLock<super::scatter::LineTables>,
}

/// Layouts are equal when they lay out the same lines; what is kept from them does not count.
impl PartialEq for LineSpace {
    fn eq(&self, other: &Self) -> bool {
        (self.route, self.wrapped, self.width, self.height)
            == (other.route, other.wrapped, other.width, other.height)
            && self.places == other.places
    }
}

/// How many lines an angle cuts a `width` x `height` picture into: the line-space picture's
/// height, known without laying the lines out (for size checks).
pub fn line_count(width: u32, height: u32, angle: Angle) -> u64 {
    let slope = angle.slope();
    let (along, across) = major_minor(width, height, &slope);
    u64::from(across) + slope.offset(i64::from(along) - 1).unsigned_abs()
}

/// The picture's size along and across the lines of `slope`.
fn major_minor(width: u32, height: u32, slope: &Slope) -> (u32, u32) {
    match slope.along {
        Axis::Rows => (width, height),
        Axis::Columns => (height, width),
    }
}

impl LineSpace {
    /// Lays out the lines of `angle` in a `width` x `height` picture.
    pub fn new(width: u32, height: u32, angle: Angle) -> Self {
        let slope = angle.slope();
        let (along, _) = major_minor(width, height, &slope);
        let offsets: Vec<i64> = (0..i64::from(along)).map(|m| slope.offset(m)).collect();
        // The line numbers `across - offset` start at -max(offset), which is -offset(last)
        // or 0: the offset is monotone and 0 at m = 0.
        let shift = offsets[along as usize - 1].max(0);
        let lines = line_count(width, height, angle) as usize;
        // (line, position along the sort) of each pixel, row-major.
        let line_and_position = |index: usize| {
            let (x, y) = ((index % width as usize) as i64, (index / width as usize) as i64);
            let (m, n) = match slope.along {
                Axis::Rows => (x, y),
                Axis::Columns => (y, x),
            };
            let position = if slope.reversed { i64::from(along) - 1 - m } else { m };
            ((n - offsets[m as usize] + shift) as usize, position as u32)
        };
        let count = width as usize * height as usize;
        let (mut first, mut len) = (vec![u32::MAX; lines], vec![0u32; lines]);
        for index in 0..count {
            let (line, position) = line_and_position(index);
            first[line] = first[line].min(position);
            len[line] += 1;
        }
        let line_width = len.iter().copied().max().unwrap_or(0);
        let places = (0..count)
            .map(|index| {
                let (line, position) = line_and_position(index);
                (line * line_width as usize + (position - first[line]) as usize) as u32
            })
            .collect();
        LineSpace::from_places(
            Route::Angle(angle),
            false,
            (width, height),
            (line_width, lines as u32),
            places,
        )
    }

    /// The layout whose picture pixel `i` (row-major) lies in line-space cell `places[i]` of a
    /// line space of `line_width` x `lines` cells; the other cells are padding.
    pub(crate) fn from_places(
        route: Route,
        wrapped: bool,
        (width, height): (u32, u32),
        (line_width, lines): (u32, u32),
        places: Vec<u32>,
    ) -> Self {
        let mut pixels = vec![NO_PIXEL; lines as usize * line_width as usize];
        for (index, &place) in places.iter().enumerate() {
            pixels[place as usize] = index as u32;
        }
        LineSpace {
            route,
            wrapped,
            width,
            height,
            lines,
            line_width,
            places,
            pixels,
            whole_lines: OnceLock::new(),
            tables: OnceLock::new(),
        }
    }

    /// What the lines follow.
    pub fn route(&self) -> Route {
        self.route
    }

    /// Whether line space is one sequence wrapped from row to row (sorted as a whole picture).
    pub fn is_wrapped(&self) -> bool {
        self.wrapped
    }

    /// The picture's size.
    pub fn picture_size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// The line-space picture's size: the longest line by the number of lines.
    pub fn size(&self) -> (u32, u32) {
        (self.line_width, self.lines)
    }

    /// Whether some line is shorter than the longest (false for multiples of 90°).
    pub fn has_padding(&self) -> bool {
        self.pixels.len() != self.places.len()
    }

    /// Cells of padding in line space.
    pub fn padding_cells(&self) -> usize {
        self.pixels.len() - self.places.len()
    }

    /// For each picture pixel (row-major), its row-major index in line space: what the GPU
    /// scatter reads.
    pub fn places(&self) -> &[u32] {
        &self.places
    }

    /// For each line-space cell (row-major), the picture pixel (row-major) it holds, or
    /// [`NO_PIXEL`] for padding: what the GPU gather reads.
    pub fn cells(&self) -> &[u32] {
        &self.pixels
    }

    /// The picture pixel (row-major index) that line-space cell `(position, line)` holds, or
    /// `None` for padding.
    pub fn pixel_at(&self, line: usize, position: usize) -> Option<usize> {
        let p = self.pixels[line * self.line_width as usize + position];
        (p != NO_PIXEL).then_some(p as usize)
    }

    /// The line-space picture of `picture`: each line left-aligned in its row, in sort order,
    /// the rest [`PADDING`].
    ///
    /// # Panics
    /// When the picture is not of the layout's size.
    pub fn gather(&self, picture: &RgbaImage) -> RgbaImage {
        assert_eq!(picture.dimensions(), (self.width, self.height), "gather: another picture size");
        let from: &[[u8; 4]] = bytemuck::cast_slice(picture.as_raw());
        let mut out = RgbaImage::new(self.line_width, self.lines);
        let to: &mut [[u8; 4]] = bytemuck::cast_slice_mut(out.as_mut());
        for (cell, &p) in to.iter_mut().zip(&self.pixels) {
            *cell = if p == NO_PIXEL { PADDING } else { from[p as usize] };
        }
        out
    }

    /// The picture whose line-space picture is `lines`: every pixel back where its line passes
    /// (padding dropped). The CPU twin of the GPU scatter.
    ///
    /// # Panics
    /// When `lines` is not of the line space's size.
    pub fn scatter(&self, lines: &RgbaImage) -> RgbaImage {
        assert_eq!(lines.dimensions(), self.size(), "scatter: another line-space size");
        let from: &[[u8; 4]] = bytemuck::cast_slice(lines.as_raw());
        let mut out = RgbaImage::new(self.width, self.height);
        let to: &mut [[u8; 4]] = bytemuck::cast_slice_mut(out.as_mut());
        for (pixel, &place) in to.iter_mut().zip(&self.places) {
            *pixel = from[place as usize];
        }
        out
    }

    /// The intervals of `picture` under `settings` in line space: the threshold, the edges and the
    /// mask taken from the picture itself, random intervals along the lines, padding fixed.
    pub fn interval_map(
        &self,
        picture: &RgbaImage,
        settings: &IntervalSettings,
        mask: Option<&Mask>,
    ) -> Result<IntervalMap, IntervalError> {
        IntervalMap::compute_on(
            (self.line_width, self.lines, Axis::Rows),
            picture,
            settings,
            mask,
            |line, position, _| self.pixel_at(line, position),
        )
    }

    /// The map of whole lines: each line one interval, each padding cell fixed; `None` when no
    /// line is padded (then whole lines need no map at all). Made once.
    pub fn whole_lines(&self) -> Option<&IntervalMap> {
        let map = self.whole_lines.get_or_init(|| {
            self.has_padding().then(|| {
                IntervalMap::build(self.line_width, self.lines, Axis::Rows, |line, position, _| {
                    match self.pixel_at(line, position) {
                        Some(_) => Cell::Join,
                        None => Cell::Fixed,
                    }
                })
            })
        });
        map.as_ref()
    }

    /// The intervals of a line-space map in numbers, padding left out (each padding cell is a
    /// fixed interval of its own).
    pub fn summary(&self, intervals: &IntervalMap) -> IntervalSummary {
        let summary = intervals.summary();
        IntervalSummary { fixed: summary.fixed - self.padding_cells() as u64, ..summary }
    }
}

#[cfg(test)]
#[path = "line_space_tests.rs"]
mod tests;
