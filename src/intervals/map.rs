//! The interval map: every pixel's interval id along one axis, cut from per-pixel cells.

use super::{
    Cell, IntervalError, IntervalMode, IntervalSettings, IntervalSummary, Mask, edges, random, threshold,
};
use crate::keys::options::{Axis, LineLayout};
use image::RgbaImage;
use std::ops::Range;

/// The interval id of every pixel along one axis: unique per interval within its line, starting at
/// 0 and growing by one from interval to interval along the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IntervalMap {
    width: u32,
    height: u32,
    axis: Axis,
    /// Row-major, like the picture.
    ids: Vec<u32>,
    max_interval_len: u32,
    max_id: u32,
}

impl IntervalMap {
    /// The map whose pixels are what `cell(line, pos, index)` says, where `index` is the
    /// row-major index of position `pos` of line `line` along `axis`.
    pub fn build(
        width: u32,
        height: u32,
        axis: Axis,
        mut cell: impl FnMut(usize, usize, usize) -> Cell,
    ) -> Self {
        let layout = LineLayout::new(width, height, axis);
        let mut cells = vec![Cell::Join; width as usize * height as usize];
        for line in 0..layout.count {
            for pos in 0..layout.len {
                let index = layout.index(line, pos);
                cells[index] = cell(line, pos, index);
            }
        }
        Self::from_cells(width, height, axis, &cells)
    }

    /// The map of `cells`, one per pixel, row-major. One pass in memory order for either axis
    /// (columns keep one interval state per column) with no branch on the cells, so a frame of a
    /// clip is cut into intervals in a few milliseconds whatever its content.
    pub fn from_cells(width: u32, height: u32, axis: Axis, cells: &[Cell]) -> Self {
        let (w, h) = (width as usize, height as usize);
        assert_eq!(cells.len(), w * h, "one cell per pixel");
        let mut ids = vec![0; w * h];
        let (mut max_interval_len, mut max_id) = (0, 0);
        // Whether pixel `c` begins an interval rather than continue the one before it on its line
        // (`open`: that pixel is sortable), and the length of the interval it is in then.
        let begins = |c: Cell, open: bool| !(c == Cell::Join && open);
        let length = |begins: bool, before: u32| (before & u32::from(begins).wrapping_sub(1)) + 1;
        match axis {
            Axis::Rows => {
                for (row, out) in cells.chunks_exact(w).zip(ids.chunks_exact_mut(w)) {
                    let (mut id, mut open, mut interval_len) = (0u32, row[0] != Cell::Fixed, 1u32);
                    max_interval_len = max_interval_len.max(1);
                    for (&c, out) in row[1..].iter().zip(&mut out[1..]) {
                        let new = begins(c, open);
                        id += u32::from(new);
                        interval_len = length(new, interval_len);
                        max_interval_len = max_interval_len.max(interval_len);
                        *out = id;
                        open = c != Cell::Fixed;
                    }
                    max_id = max_id.max(id);
                }
            }
            Axis::Columns => {
                let mut open: Vec<bool> = cells[..w].iter().map(|&c| c != Cell::Fixed).collect();
                let mut interval_len = vec![1u32; w];
                max_interval_len = 1;
                for (y, row) in cells.chunks_exact(w).enumerate().skip(1) {
                    let (above, below) = ids.split_at_mut(y * w);
                    let lines = row.iter().zip(&above[(y - 1) * w..]).zip(&mut below[..w]);
                    for (((&c, &id_above), id), (open, interval_len)) in
                        lines.zip(open.iter_mut().zip(&mut interval_len))
                    {
                        let new = begins(c, *open);
                        *id = id_above + u32::from(new);
                        *interval_len = length(new, *interval_len);
                        max_interval_len = max_interval_len.max(*interval_len);
                        *open = c != Cell::Fixed;
                    }
                }
                max_id = ids[(h - 1) * w..].iter().copied().max().unwrap_or(0);
            }
        }
        IntervalMap { width, height, axis, ids, max_interval_len, max_id }
    }

    /// Every line one interval: the plain sort.
    pub fn whole_lines(width: u32, height: u32, axis: Axis) -> Self {
        Self::build(width, height, axis, |_, _, _| Cell::Join)
    }

    /// The intervals of `picture` along `axis` under `settings`, with the mask's black pixels
    /// fixed.
    pub fn compute(
        picture: &RgbaImage,
        axis: Axis,
        settings: &IntervalSettings,
        mask: Option<&Mask>,
    ) -> Result<Self, IntervalError> {
        if let Some(mask) = mask {
            mask.check_size("the picture", picture.dimensions())?;
        }
        let (width, height) = picture.dimensions();
        let (w, h) = (width as usize, height as usize);
        let mut cells = match settings.mode {
            IntervalMode::Threshold => threshold::cells(picture, settings.key, settings.threshold),
            IntervalMode::Edges => edges::edge_pixels(picture, settings.key, settings.edge_level)
                .into_iter()
                .map(|edge| if edge { Cell::Fixed } else { Cell::Join })
                .collect(),
            IntervalMode::None | IntervalMode::Random => vec![Cell::Join; w * h],
        };
        if settings.mode == IntervalMode::Random {
            let layout = LineLayout::new(width, height, axis);
            let starts =
                random::interval_starts(layout.count, layout.len, settings.seed, settings.interval_length);
            for line in 0..layout.count {
                for pos in 0..layout.len {
                    if starts[line * layout.len + pos] {
                        cells[layout.index(line, pos)] = Cell::Start;
                    }
                }
            }
        }
        if let Some(mask) = mask {
            for (index, cell) in cells.iter_mut().enumerate() {
                if !mask.is_sortable(index) {
                    *cell = Cell::Fixed;
                }
            }
        }
        Ok(Self::from_cells(width, height, axis, &cells))
    }

    /// The intervals of `picture` under `settings` (the mask's black pixels fixed) in a map of
    /// `width` x `height` along `axis` whose cells need not be the picture's own: position `pos`
    /// of line `line`, at row-major `index` of the map, holds the picture pixel whose row-major
    /// index `pixel(line, pos, index)` gives, or no pixel (`None`: a cell that is fixed). So a
    /// map of lines at an angle, laid out as rows (`crate::angle`), takes the threshold, the
    /// edges and the mask from the picture itself, and random intervals along its own lines.
    pub fn compute_on(
        (width, height, axis): (u32, u32, Axis),
        picture: &RgbaImage,
        settings: &IntervalSettings,
        mask: Option<&Mask>,
        pixel: impl Fn(usize, usize, usize) -> Option<usize>,
    ) -> Result<Self, IntervalError> {
        if let Some(mask) = mask {
            mask.check_size("the picture", picture.dimensions())?;
        }
        let fixed_by_mode = match settings.mode {
            IntervalMode::Threshold => Some(threshold::outside(picture, settings.key, settings.threshold)),
            IntervalMode::Edges => Some(edges::edge_pixels(picture, settings.key, settings.edge_level)),
            IntervalMode::None | IntervalMode::Random => None,
        };
        let layout = LineLayout::new(width, height, axis);
        let starts = (settings.mode == IntervalMode::Random).then(|| {
            random::interval_starts(layout.count, layout.len, settings.seed, settings.interval_length)
        });
        Ok(Self::build(width, height, axis, |line, pos, index| {
            let Some(index) = pixel(line, pos, index) else { return Cell::Fixed };
            let fixed = fixed_by_mode.as_ref().is_some_and(|f| f[index])
                || mask.is_some_and(|m| !m.is_sortable(index));
            if fixed {
                Cell::Fixed
            } else if starts.as_ref().is_some_and(|s| s[line * layout.len + pos]) {
                Cell::Start
            } else {
                Cell::Join
            }
        }))
    }

    /// Picture width.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Picture height.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The axis the lines run along.
    pub fn axis(&self) -> Axis {
        self.axis
    }

    /// Where the lines' pixels sit.
    pub fn layout(&self) -> LineLayout {
        LineLayout::new(self.width, self.height, self.axis)
    }

    /// The interval id of every pixel, row-major (the GPU's `r32uint` texture holds exactly these).
    pub fn ids(&self) -> &[u32] {
        &self.ids
    }

    /// The interval id of the pixel at `(x, y)`.
    pub fn id(&self, x: u32, y: u32) -> u32 {
        self.ids[y as usize * self.width as usize + x as usize]
    }

    /// The longest interval: odd-even sorts every interval in this many passes.
    pub fn max_interval_len(&self) -> u32 {
        self.max_interval_len
    }

    /// The largest interval id (0 when every line is one interval).
    pub fn max_id(&self) -> u32 {
        self.max_id
    }

    /// Bits that hold every interval id (0 when every line is one interval): the radix view's extra
    /// key bits.
    pub fn interval_bits(&self) -> u32 {
        u32::BITS - self.max_id.leading_zeros()
    }

    /// Whether every line is a single interval (the map changes nothing).
    pub fn is_whole_lines(&self) -> bool {
        self.max_id == 0
    }

    /// The intervals of line `line`, as ranges of positions along it, in order.
    pub fn intervals(&self, line: usize) -> Vec<Range<usize>> {
        self.line_intervals(line).collect()
    }

    /// [`IntervalMap::intervals`] without collecting them: one walk along the line.
    pub fn line_intervals(&self, line: usize) -> impl Iterator<Item = Range<usize>> + '_ {
        let layout = self.layout();
        let along = self.ids[layout.index(line, 0)..].iter().step_by(layout.stride).take(layout.len);
        let mut along = along.copied().enumerate().peekable();
        std::iter::from_fn(move || {
            let (start, id) = along.next()?;
            let mut end = start + 1;
            while along.next_if(|&(_, next)| next == id).is_some() {
                end += 1;
            }
            Some(start..end)
        })
    }

    /// How many intervals can move pixels, how long the longest is, and how many pixels are fixed.
    pub fn summary(&self) -> IntervalSummary {
        let layout = self.layout();
        let mut summary = IntervalSummary { intervals: 0, longest: self.max_interval_len, fixed: 0 };
        for line in 0..layout.count {
            for interval in self.intervals(line) {
                if interval.len() > 1 {
                    summary.intervals += 1;
                } else {
                    summary.fixed += 1;
                }
            }
        }
        summary
    }

    /// Whether the pixel at row-major `index` can move: its interval holds another pixel.
    pub fn can_move(&self, index: usize) -> bool {
        let layout = self.layout();
        let (w, i) = (self.width as usize, index);
        let (line, pos) = match self.axis {
            Axis::Rows => (i / w, i % w),
            Axis::Columns => (i % w, i / w),
        };
        let same = |p: usize| self.ids[layout.index(line, p)] == self.ids[i];
        (pos > 0 && same(pos - 1)) || (pos + 1 < layout.len && same(pos + 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::intervals::{IntervalLength, Threshold};
    use crate::picture::patterns::random_image;

    fn row(cells: &[Cell]) -> IntervalMap {
        IntervalMap::build(cells.len() as u32, 1, Axis::Rows, |_, pos, _| cells[pos])
    }

    #[test]
    fn ids_grow_by_one_per_interval_and_fixed_pixels_are_intervals_of_their_own() {
        use Cell::{Fixed as F, Join as J, Start as S};
        let map = row(&[J, J, F, J, J, S, J, F, F, J]);
        assert_eq!(map.ids(), [0, 0, 1, 2, 2, 3, 3, 4, 5, 6]);
        assert_eq!((map.max_interval_len(), map.max_id(), map.interval_bits()), (2, 6, 3));
        assert_eq!(map.intervals(0), [0..2, 2..3, 3..5, 5..7, 7..8, 8..9, 9..10]);
        assert_eq!(map.summary(), IntervalSummary { intervals: 3, longest: 2, fixed: 4 });
        assert_eq!(map.summary().to_string(), "3 intervals of up to 2 pixels, 4 pixels fixed");
        let movable: Vec<bool> = (0..10).map(|i| map.can_move(i)).collect();
        assert_eq!(movable, [true, true, false, true, true, true, true, false, false, false]);
        // A line starting fixed, and a start right after a fixed pixel, add no empty intervals.
        assert_eq!(row(&[F, S, J]).ids(), [0, 1, 1]);
        assert_eq!(row(&[S]).ids(), [0]);
    }

    /// The map as a line-by-line walk of the cells, the rule in its plainest form.
    fn walked(width: u32, height: u32, axis: Axis, cells: &[Cell]) -> Vec<u32> {
        let layout = LineLayout::new(width, height, axis);
        let mut ids = vec![0; cells.len()];
        for line in 0..layout.count {
            let (mut id, mut open) = (0, false);
            for pos in 0..layout.len {
                let c = cells[layout.index(line, pos)];
                if pos > 0 && !(c == Cell::Join && open) {
                    id += 1;
                }
                ids[layout.index(line, pos)] = id;
                open = c != Cell::Fixed;
            }
        }
        ids
    }

    #[test]
    fn maps_equal_a_line_by_line_walk_in_every_mode_axis_and_size() {
        let mask = |w, h| Mask::from_fn(w, h, |x, y| (x * 7 + y * 3) % 5 != 0);
        for (w, h) in [(1, 1), (1, 9), (9, 1), (23, 9), (64, 3), (5, 65)] {
            let img = random_image(w, h, u64::from(w * 31 + h));
            for mode in IntervalMode::ALL {
                for axis in [Axis::Rows, Axis::Columns] {
                    for masked in [false, true] {
                        let settings = IntervalSettings {
                            mode,
                            interval_length: IntervalLength::new(1, 4).unwrap(),
                            ..Default::default()
                        };
                        let m = masked.then(|| mask(w, h));
                        let map = IntervalMap::compute(&img, axis, &settings, m.as_ref()).unwrap();
                        // The cells again, pixel by pixel, from the public rules.
                        let layout = map.layout();
                        let starts =
                            random::interval_starts(layout.count, layout.len, 0, settings.interval_length);
                        let mut cells = vec![Cell::Join; (w * h) as usize];
                        for line in 0..layout.count {
                            for pos in 0..layout.len {
                                let i = layout.index(line, pos);
                                let p = img.as_raw()[i * 4..i * 4 + 4].try_into().unwrap();
                                let fixed = match mode {
                                    IntervalMode::Threshold => {
                                        !settings.threshold.contains(settings.key, settings.key.of(p))
                                    }
                                    IntervalMode::Edges => {
                                        edges::edge_pixels(&img, settings.key, settings.edge_level)[i]
                                    }
                                    _ => false,
                                } || m.as_ref().is_some_and(|m| !m.is_sortable(i));
                                let start = mode == IntervalMode::Random && starts[line * layout.len + pos];
                                cells[i] = if fixed {
                                    Cell::Fixed
                                } else if start {
                                    Cell::Start
                                } else {
                                    Cell::Join
                                };
                            }
                        }
                        let ids = walked(w, h, axis, &cells);
                        let what = format!("{w}x{h} {mode:?} {axis:?} masked {masked}");
                        assert_eq!(map.ids(), ids, "{what}");
                        assert_eq!(map.max_id(), ids.iter().copied().max().unwrap(), "{what}");
                        let longest = (0..layout.count)
                            .flat_map(|line| map.intervals(line).into_iter().map(|r| r.len() as u32))
                            .max()
                            .unwrap();
                        assert_eq!(map.max_interval_len(), longest, "{what}");
                    }
                }
            }
        }
    }

    #[test]
    fn whole_lines_are_one_interval_along_either_axis() {
        for axis in [Axis::Rows, Axis::Columns] {
            let map = IntervalMap::whole_lines(5, 3, axis);
            assert!(map.is_whole_lines());
            assert_eq!((map.max_id(), map.interval_bits()), (0, 0));
            assert_eq!(map.max_interval_len(), if axis == Axis::Rows { 5 } else { 3 });
            assert!(map.ids().iter().all(|&id| id == 0));
        }
    }

    #[test]
    fn columns_number_their_intervals_down_each_column() {
        // Column 0 fixed at y = 1, column 1 whole.
        let map = IntervalMap::build(2, 3, Axis::Columns, |line, pos, _| {
            if (line, pos) == (0, 1) { Cell::Fixed } else { Cell::Join }
        });
        assert_eq!(map.ids(), [0, 0, 1, 0, 2, 0]);
        assert_eq!(map.intervals(0), [0..1, 1..2, 2..3]);
        assert_eq!(map.intervals(1), vec![0..3]);
        assert!(!map.can_move(0) && !map.can_move(2) && map.can_move(1) && map.can_move(5));
    }

    #[test]
    fn ids_are_unique_per_interval_and_never_decrease_along_a_line() {
        let img = random_image(23, 9, 5);
        for mode in [IntervalMode::None, IntervalMode::Threshold, IntervalMode::Edges, IntervalMode::Random] {
            for axis in [Axis::Rows, Axis::Columns] {
                let settings = IntervalSettings { mode, ..Default::default() };
                let map = IntervalMap::compute(&img, axis, &settings, None).unwrap();
                let layout = map.layout();
                for line in 0..layout.count {
                    let ids: Vec<u32> = (0..layout.len).map(|p| map.ids()[layout.index(line, p)]).collect();
                    assert_eq!(ids[0], 0);
                    assert!(ids.windows(2).all(|w| w[1] == w[0] || w[1] == w[0] + 1), "{mode:?} {ids:?}");
                    let intervals = map.intervals(line);
                    assert_eq!(intervals.len() as u32, ids[layout.len - 1] + 1);
                    assert!(intervals.iter().all(|r| r.len() as u32 <= map.max_interval_len()));
                }
            }
        }
    }

    #[test]
    fn the_mask_fixes_its_black_pixels_in_every_mode() {
        let img = random_image(11, 4, 2);
        let mask = Mask::from_fn(11, 4, |x, y| (x + y) % 3 != 0);
        for mode in [IntervalMode::None, IntervalMode::Threshold, IntervalMode::Edges, IntervalMode::Random] {
            let settings = IntervalSettings { mode, threshold: Threshold::ALL, ..Default::default() };
            let map = IntervalMap::compute(&img, Axis::Rows, &settings, Some(&mask)).unwrap();
            for (i, _) in img.pixels().enumerate() {
                if !mask.is_sortable(i) {
                    assert!(!map.can_move(i), "{mode:?}: pixel {i} is black in the mask");
                }
            }
        }
        let wrong = Mask::from_fn(4, 11, |_, _| true);
        let e =
            IntervalMap::compute(&img, Axis::Rows, &IntervalSettings::default(), Some(&wrong)).unwrap_err();
        assert!(e.to_string().contains("4x11") && e.to_string().contains("11x4"), "{e}");
    }
}
