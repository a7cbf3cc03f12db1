//! The line layout of an angle: which line every pixel lies on and where along it, and the
//! line-space picture that holds one line per row (the CPU side of gather and scatter).
//!
//! With the integer [`Slope`] of the angle, pixel `(x, y)` of a picture whose lines follow rows
//! lies on line `y - offset(x)` at position `x` (`W - 1 - x` when the sort runs right to left);
//! lines that follow columns swap the roles of x and y. Lines are numbered from 0 at the
//! smallest. Since the offset is monotone, each line is a contiguous span of positions: line
//! `l` becomes row `l` of the line-space picture, its pixels left-aligned in sort order, and
//! the rest of the row, up to the longest line's length, is padding.

pub use super::layout::Layout;
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
    layout: Layout,
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
        (self.layout, self.wrapped, self.width, self.height)
            == (other.layout, other.wrapped, other.width, other.height)
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
            Layout::Angle(angle),
            false,
            (width, height),
            (line_width, lines as u32),
            places,
        )
    }

    /// The layout whose picture pixel `i` (row-major) lies in line-space cell `places[i]` of a
    /// line space of `line_width` x `lines` cells; the other cells are padding.
    pub(crate) fn from_places(
        layout: Layout,
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
            layout,
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
    pub fn layout(&self) -> Layout {
        self.layout
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
mod tests {
    use super::*;
    use crate::picture::patterns::random_image;
    use crate::reference::lines;

    /// Every 7.5° from -360 to 360, the axes and diagonals with 1e-9 either side, and a few
    /// awkward ones.
    fn angles() -> Vec<f64> {
        let mut angles: Vec<f64> = (-48..=48).map(|k| f64::from(k) * 7.5).collect();
        for base in [0.0, 45.0, 90.0, 135.0, 180.0, 225.0, 270.0, 315.0, 360.0] {
            angles.extend([base - 1e-9, base, base + 1e-9]);
        }
        angles.extend([89.9999, 0.0001, 1.0, 26.565051177, 63.43494882, 200.0, -33.3, 1e9]);
        angles
    }

    const SIZES: [(u32, u32); 14] = [
        (1, 1),
        (1, 9),
        (9, 1),
        (2, 2),
        (3, 5),
        (5, 3),
        (7, 7),
        (13, 4),
        (4, 13),
        (63, 5),
        (64, 5),
        (65, 5),
        (5, 64),
        (31, 20),
    ];

    /// Checks everything a layout promises; `what` names it in messages.
    fn check_layout(space: &LineSpace, angle: Angle, what: &str) {
        let (w, h) = space.picture_size();
        let (lw, lines) = space.size();
        assert_eq!(u64::from(lines), line_count(w, h, angle), "{what}: line count");
        // Every picture pixel sits in exactly one line-space cell, and that cell holds it.
        let mut seen = vec![false; (lw * lines) as usize];
        for (index, &place) in space.places().iter().enumerate() {
            assert!(!std::mem::replace(&mut seen[place as usize], true), "{what}: cell {place} twice");
            let (line, position) = (place / lw, place % lw);
            assert_eq!(space.pixel_at(line as usize, position as usize), Some(index), "{what}");
        }
        assert_eq!(seen.iter().filter(|s| **s).count(), (w * h) as usize, "{what}");
        let (dx, dy) = (angle.degrees().to_radians().cos(), angle.degrees().to_radians().sin());
        let mut longest = 0;
        for line in 0..lines as usize {
            // Real pixels first, then only padding: contiguous and left-aligned, none empty.
            let real: Vec<usize> = (0..lw as usize).map_while(|p| space.pixel_at(line, p)).collect();
            assert!(!real.is_empty(), "{what}: line {line} is empty");
            assert!(
                (real.len()..lw as usize).all(|p| space.pixel_at(line, p).is_none()),
                "{what}: line {line} has a gap"
            );
            longest = longest.max(real.len());
            // Consecutive pixels are 8-neighbours, each step along the sort direction.
            let xy = |i: usize| ((i % w as usize) as f64, (i / w as usize) as f64);
            for pair in real.windows(2) {
                let ((x0, y0), (x1, y1)) = (xy(pair[0]), xy(pair[1]));
                let step = (x1 - x0, y1 - y0);
                assert!(
                    step.0.abs() <= 1.0 && step.1.abs() <= 1.0 && step != (0.0, 0.0),
                    "{what}: line {line} jumps {step:?}"
                );
                assert!(step.0 * dx + step.1 * dy > 0.0, "{what}: line {line} steps {step:?} backwards");
            }
            // A long line as a whole points along the angle, within what rounding allows.
            if real.len() >= 8 {
                let ((x0, y0), (x1, y1)) = (xy(real[0]), xy(*real.last().unwrap()));
                let (lx, ly) = (x1 - x0, y1 - y0);
                let cos = (lx * dx + ly * dy) / (lx.hypot(ly));
                let allowed = (1.0 / (real.len() - 1) as f64).atan().cos() - 1e-9;
                assert!(cos >= allowed, "{what}: line {line} runs along {lx},{ly}");
            }
        }
        assert_eq!(longest, lw as usize, "{what}: the line-space width is the longest line");
        // Gather then scatter is the identity; gather puts padding where the layout has none.
        let picture = random_image(w, h, u64::from(w * 31 + h));
        let gathered = space.gather(&picture);
        assert!(space.scatter(&gathered) == picture, "{what}: scatter(gather) is not the identity");
        let mut before: Vec<[u8; 4]> = picture.pixels().map(|p| p.0).collect();
        let mut after: Vec<[u8; 4]> = (0..lines as usize)
            .flat_map(|l| (0..lw as usize).filter_map(move |p| space.pixel_at(l, p).map(|_| (l, p))))
            .map(|(l, p)| gathered.get_pixel(p as u32, l as u32).0)
            .collect();
        before.sort_unstable();
        after.sort_unstable();
        assert_eq!(before, after, "{what}: line space holds another multiset of pixels");
    }

    #[test]
    fn every_angle_lays_every_pixel_out_once_on_8_connected_lines() {
        for degrees in angles() {
            let angle = Angle::new(degrees).unwrap();
            for (w, h) in SIZES {
                let space = LineSpace::new(w, h, angle);
                check_layout(&space, angle, &format!("{degrees}° on {w}x{h}"));
            }
        }
    }

    #[test]
    fn rows_and_columns_are_the_axes_and_their_reverses_mirror_them() {
        let picture = random_image(13, 4, 7);
        let space = |d: f64| LineSpace::new(13, 4, Angle::new(d).unwrap());
        // 0°: line space is the picture; 90°: its transpose (line x is column x).
        assert!(space(0.0).gather(&picture) == picture);
        let columns = space(90.0).gather(&picture);
        assert_eq!(lines(&columns, Axis::Rows), lines(&picture, Axis::Columns));
        // 180° and 270°: the same lines, each read backwards; no padding on any axis.
        let mirrored = |l: Vec<Vec<[u8; 4]>>| -> Vec<Vec<[u8; 4]>> {
            l.into_iter()
                .map(|mut line| {
                    line.reverse();
                    line
                })
                .collect()
        };
        assert_eq!(lines(&space(180.0).gather(&picture), Axis::Rows), mirrored(lines(&picture, Axis::Rows)));
        assert_eq!(
            lines(&space(270.0).gather(&picture), Axis::Rows),
            mirrored(lines(&picture, Axis::Columns))
        );
        for d in [0.0, 90.0, 180.0, 270.0, -90.0] {
            assert!(!space(d).has_padding(), "{d}°");
        }
        assert!(space(45.0).has_padding());
    }

    #[test]
    fn a_diagonal_is_the_anti_diagonals_of_the_picture() {
        // 45° on 3x3: lines y - x, numbered from 0 at the top right corner.
        let space = LineSpace::new(3, 3, Angle::new(45.0).unwrap());
        assert_eq!(space.size(), (3, 5));
        let line = |l: usize| -> Vec<usize> { (0..3).filter_map(|p| space.pixel_at(l, p)).collect() };
        assert_eq!(line(0), [2]);
        assert_eq!(line(1), [1, 5]);
        assert_eq!(line(2), [0, 4, 8]);
        assert_eq!(line(4), [6]);
        // 225° runs the same lines the other way.
        let back = LineSpace::new(3, 3, Angle::new(225.0).unwrap());
        assert_eq!((0..3).filter_map(|p| back.pixel_at(2, p)).collect::<Vec<_>>(), [8, 4, 0]);
        assert_eq!(space.padding_cells(), 15 - 9);
    }

    #[test]
    fn interval_maps_take_the_picture_and_fix_the_padding() {
        use crate::intervals::{IntervalMode, Threshold};
        let picture = random_image(17, 11, 3);
        let settings = IntervalSettings {
            mode: IntervalMode::Threshold,
            threshold: Threshold::new(0.2, 0.7).unwrap(),
            ..Default::default()
        };
        let outside = crate::intervals::threshold::outside(&picture, settings.key, settings.threshold);
        assert!(outside.iter().any(|o| *o) && !outside.iter().all(|o| *o));
        for degrees in [30.0, 100.0, 225.0] {
            let space = LineSpace::new(17, 11, Angle::new(degrees).unwrap());
            let map = space.interval_map(&picture, &settings, None).unwrap();
            assert_eq!((map.width(), map.height(), map.axis()), (space.size().0, space.size().1, Axis::Rows));
            let (lw, lines) = space.size();
            for line in 0..lines as usize {
                for position in 0..lw as usize {
                    let cell = line * lw as usize + position;
                    match space.pixel_at(line, position) {
                        None => assert!(!map.can_move(cell), "{degrees}°: padding can move"),
                        Some(p) if outside[p] => assert!(!map.can_move(cell), "{degrees}°: {p} is outside"),
                        Some(_) => {}
                    }
                }
            }
            // Whole lines are the map of no intervals.
            assert_eq!(
                space.whole_lines(),
                Some(&space.interval_map(&picture, &IntervalSettings::default(), None).unwrap())
            );
            // The summary counts the picture's pixels only.
            let summary = space.summary(&map);
            assert_eq!(summary.fixed + moving_pixels(&map), 17 * 11, "{degrees}°");
        }
    }

    /// Pixels in intervals of two or more.
    fn moving_pixels(map: &IntervalMap) -> u64 {
        (0..map.height() as usize)
            .flat_map(|l| map.intervals(l))
            .filter(|r| r.len() > 1)
            .map(|r| r.len() as u64)
            .sum()
    }
}
