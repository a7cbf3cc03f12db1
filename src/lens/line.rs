//! Which line the lens shows: the line through a point of the picture, along the lines a run
//! sorts (rows, columns, or lines at an angle), and where that line lies in the run's state
//! (the picture itself, or a row of line space).

use crate::angle::Lines;
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
    /// The picture pixels of the line's first and last positions, for marking it on screen.
    pub ends: [(u32, u32); 2],
    /// "row 12", "column 3", "line 40 at 30°".
    pub name: String,
}

impl LensLine {
    /// The line through picture pixel `(x, y)` (clamped into the picture) along `lines`.
    pub fn through(lines: &Lines, (width, height): (u32, u32), (x, y): (u32, u32)) -> LensLine {
        let (x, y) = (x.min(width.saturating_sub(1)), y.min(height.saturating_sub(1)));
        let index = match lines {
            Lines::Axis(Axis::Rows) => y,
            Lines::Axis(Axis::Columns) => x,
            Lines::Laid(space) => {
                let cell = space.places()[(y * width + x) as usize];
                cell / space.size().0
            }
        };
        LensLine::numbered(lines, (width, height), index)
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
                LensLine {
                    index: line,
                    count,
                    len,
                    origin: (0, line),
                    unit: (1, 0),
                    ends: [point(0), point(len - 1)],
                    name: format!("line {line} {}", space.layout()),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::angle::Angle;

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
