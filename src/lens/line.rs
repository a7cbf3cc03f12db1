//! Which line the lens shows: the line through a point of the picture, along the lines a run
//! sorts (rows, columns, or lines at an angle), and where that line lies in the run's state
//! (the picture itself, or a row of line space).

use crate::angle::{Lines, Route};
use crate::keys::options::Axis;

/// One line of a run, as the lens reads and draws it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LensLine {
    /// The line's number: a row, a column, or a row of line space.
    pub index: u32,
    /// Lines in all.
    pub count: u32,
    /// Pixels on the line.
    pub len: u32,
    /// Texel of position 0 in the run's state (the lens view's textures), and the step to the
    /// next position.
    pub origin: (u32, u32),
    /// See `origin`.
    pub unit: (u32, u32),
    /// The picture pixels of the line's first and last positions.
    pub ends: [(u32, u32); 2],
    /// How to mark it on screen: polylines through picture pixels (the two ends of a straight
    /// line; a path's line through its pixels, broken where it jumps, as a ring does across the
    /// picture's edge).
    pub marks: Vec<Vec<(u32, u32)>>,
    /// "row 12", "column 3", "line 40 at 30°".
    pub name: String,
}

impl LensLine {
    /// The line through picture pixel `(x, y)` (clamped into the picture) along `lines`.
    pub fn through(lines: &Lines, size: (u32, u32), point: (u32, u32)) -> LensLine {
        LensLine::numbered(lines, size, LensLine::place(lines, size, point).0)
    }

    /// The line through picture pixel `point` (clamped into the picture) along `lines`, and
    /// the pixel's position on it.
    pub fn place(lines: &Lines, (width, height): (u32, u32), (x, y): (u32, u32)) -> (u32, u32) {
        let (x, y) = (x.min(width.saturating_sub(1)), y.min(height.saturating_sub(1)));
        match lines {
            Lines::Axis(Axis::Rows) => (y, x),
            Lines::Axis(Axis::Columns) => (x, y),
            Lines::Laid(space) => {
                let cell = space.places()[(y * width + x) as usize];
                (cell / space.size().0, cell % space.size().0)
            }
        }
    }

    /// Line `index` (clamped to the last) along `lines` through a `width` x `height` picture.
    pub fn numbered(lines: &Lines, (width, height): (u32, u32), index: u32) -> LensLine {
        match lines {
            Lines::Axis(axis) => {
                // A column is a row of the transposed picture: work as for rows, with every pair
                // of coordinates swapped back (`oriented`) for columns.
                let columns = *axis == Axis::Columns;
                let oriented = |(a, b): (u32, u32)| if columns { (b, a) } else { (a, b) };
                let noun = if columns { "column" } else { "row" };
                let (len, count) = oriented((width, height));
                let line = index.min(count - 1);
                LensLine {
                    index: line,
                    count,
                    len,
                    origin: oriented((0, line)),
                    unit: oriented((1, 0)),
                    ends: [oriented((0, line)), oriented((len - 1, line))],
                    marks: vec![vec![oriented((0, line)), oriented((len - 1, line))]],
                    name: format!("{noun} {line}"),
                }
            }
            Lines::Laid(space) => {
                let (line_width, count) = space.size();
                let line = index.min(count - 1);
                // Each line is left-aligned in its row of line space; padding follows it.
                let len = (0..line_width)
                    .take_while(|&p| space.pixel_at(line as usize, p as usize).is_some())
                    .count() as u32;
                let point = |p: u32| {
                    let pixel = space.pixel_at(line as usize, p as usize).expect("inside the line") as u32;
                    (pixel % width, pixel / width)
                };
                let marks = match space.route() {
                    Route::Angle(_) => vec![vec![point(0), point(len - 1)]],
                    Route::Path(_) => trace((0..len).map(point)),
                };
                LensLine {
                    index: line,
                    count,
                    len,
                    origin: (0, line),
                    unit: (1, 0),
                    ends: [point(0), point(len - 1)],
                    marks,
                    name: format!("line {line} {}", space.route()),
                }
            }
        }
    }

    /// The line `delta` lines further (clamped to the first and last).
    pub fn moved(&self, lines: &Lines, size: (u32, u32), delta: i64) -> LensLine {
        let index = (i64::from(self.index) + delta).clamp(0, i64::from(self.count) - 1) as u32;
        LensLine::numbered(lines, size, index)
    }
}

/// Most points a path's mark is drawn through; longer lines are thinned evenly.
const MAX_MARK_POINTS: usize = 4096;

/// Polylines through `pixels`, in order, broken where two consecutive pixels are not
/// neighbours, and closed where the last pixel neighbours the first (a ring); thinned evenly to
/// about [`MAX_MARK_POINTS`] points, each piece keeping its ends.
fn trace(pixels: impl ExactSizeIterator<Item = (u32, u32)>) -> Vec<Vec<(u32, u32)>> {
    let step = pixels.len().div_ceil(MAX_MARK_POINTS).max(1);
    let mut pieces: Vec<Vec<(u32, u32)>> = Vec::new();
    for p in pixels {
        match pieces.last_mut() {
            Some(piece) if piece.last().is_some_and(|q| p.0.abs_diff(q.0) <= 1 && p.1.abs_diff(q.1) <= 1) => {
                piece.push(p)
            }
            _ => pieces.push(vec![p]),
        }
    }
    let first = pieces.first().map(|piece| piece[0]);
    if let (Some(first), Some(piece)) = (first, pieces.last_mut()) {
        let last = *piece.last().expect("pieces are never empty");
        if last != first && last.0.abs_diff(first.0) <= 1 && last.1.abs_diff(first.1) <= 1 {
            piece.push(first);
        }
    }
    for piece in &mut pieces {
        let last = *piece.last().expect("pieces are never empty");
        let mut thinned: Vec<(u32, u32)> = piece.iter().copied().step_by(step).collect();
        if thinned.last() != Some(&last) {
            thinned.push(last);
        }
        *piece = thinned;
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::angle::Angle;

    #[test]
    fn a_path_line_is_marked_through_its_pixels_broken_where_it_jumps() {
        let lines = Lines::of(Route::Angle(Angle::ROWS).bent(), (9, 7), 4096).unwrap();
        // Ring 4 around (4.5, 3.5) reaches past the 9x7 picture's top and bottom: an arc on the
        // left, and one on the right drawn as the ring's end closing on its start at 0°.
        let line = LensLine::through(&lines, (9, 7), (8, 3));
        assert_eq!(line.name, "line 4 of rings around the middle");
        assert_eq!(line.marks.len(), 3, "{:?}", line.marks);
        assert_eq!(line.marks.iter().map(Vec::len).sum::<usize>(), line.len as usize + 1);
        assert_eq!(line.marks[2].last(), Some(&line.ends[0]), "the end closes on the start");
        for pair in line.marks.iter().flat_map(|m| m.windows(2)) {
            assert!(pair[0].0.abs_diff(pair[1].0) <= 1 && pair[0].1.abs_diff(pair[1].1) <= 1, "{pair:?}");
        }
        // A long line is thinned, its ends kept.
        let long = trace((0..10_000).map(|x| (x, 0)));
        assert_eq!(long.len(), 1);
        assert!(long[0].len() <= MAX_MARK_POINTS + 1 && long[0].len() > MAX_MARK_POINTS / 2);
        assert_eq!((long[0][0], *long[0].last().unwrap()), ((0, 0), (9_999, 0)));
    }

    #[test]
    fn rows_and_columns_run_through_the_point() {
        let rows = LensLine::through(&Lines::Axis(Axis::Rows), (5, 3), (4, 2));
        assert_eq!((rows.index, rows.len, rows.origin, rows.unit, rows.count), (2, 5, (0, 2), (1, 0), 3));
        assert_eq!(rows.ends, [(0, 2), (4, 2)]);
        let columns = LensLine::through(&Lines::Axis(Axis::Columns), (5, 3), (9, 9));
        assert_eq!((columns.index, columns.len, columns.origin, columns.unit), (4, 3, (4, 0), (0, 1)));
        assert_eq!(columns.moved(&Lines::Axis(Axis::Columns), (5, 3), -10).index, 0);
    }

    #[test]
    fn lines_at_an_angle_are_rows_of_line_space_without_their_padding() {
        let lines = Lines::new(Angle::new(45.0).unwrap(), (4, 3), 4096).unwrap();
        let Lines::Laid(space) = &lines else { panic!("45° is not an axis") };
        for (x, y) in [(0, 0), (3, 2), (1, 2)] {
            let line = LensLine::through(&lines, (4, 3), (x, y));
            // The point lies on its line, and every position of the line is a picture pixel.
            let on_line: Vec<usize> =
                (0..line.len).map(|p| space.pixel_at(line.index as usize, p as usize).unwrap()).collect();
            assert!(on_line.contains(&((y * 4 + x) as usize)), "{line:?}");
            assert_eq!(line.len as usize, on_line.len());
            assert!(
                line.len == space.size().0
                    || space.pixel_at(line.index as usize, line.len as usize).is_none()
            );
        }
    }
}
