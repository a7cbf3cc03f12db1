//! Sorting along lines at any angle (`--angle DEG`): the direction, its lines, and how every
//! algorithm sorts them unchanged.
//!
//! The pixels of a line at an angle are just another sequence. [`LineSpace`] lays every line
//! out as one row of a *line-space picture* (gather), the algorithms sort its rows as they sort
//! any picture's rows, with the padding at the end of short rows fixed by the interval map, and one
//! GPU pass puts every pixel back where its line passes through the picture (scatter,
//! [`scatter::LineScatter`]). Gather and scatter are one permutation and its inverse, so no
//! pixel is ever lost or duplicated. [`Lines`] is what front ends hold: the rows or columns of
//! the picture itself, or lines at an angle; [`AngledRun`] is the sort of the latter.
//!
//! The angle is measured in image coordinates, y pointing down: 0° sorts rows left to right,
//! 90° columns top to bottom, 180° rows right to left, 270° columns bottom to top, 30° lines
//! falling gently to the right. Its one floating-point step is [`Angle::slope`]: the slope is
//! rounded once to a multiple of `2^-20`, and everything after it is integer arithmetic, so
//! every front end, the GPU and the CPU model agree exactly.

pub mod line_space;
pub mod lines;
pub mod path_space;
pub mod route;
pub mod run;
pub mod scatter;

pub use line_space::LineSpace;
pub use lines::{AngleError, Lines, LinesError};
pub use route::Route;
pub use run::AngledRun;

use crate::keys::options::Axis;
use std::str::FromStr;

/// A direction to sort in, in degrees, normalised to `0 <= degrees < 360`.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd, Default)]
pub struct Angle(f64);

/// The slope's denominator: slopes are multiples of `1 / SLOPE_ONE`.
pub const SLOPE_ONE: i64 = 1 << 20;

/// How the lines of an angle run, in integers: for each step along `along` (x for rows, y for
/// columns), the line moves `step / SLOPE_ONE` pixels across it, with `|step| <= SLOPE_ONE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slope {
    /// `Rows` when the lines run mostly along x (`|cos| >= |sin|`, ties included), else `Columns`.
    pub along: Axis,
    /// The change across the line per step along it, in `1 / SLOPE_ONE` pixels.
    pub step: i64,
    /// The sort runs against `along` (right to left, or bottom to top).
    pub reversed: bool,
}

impl Slope {
    /// How far across its line the pixel `m` steps along it lies from the line's pixel at
    /// `m = 0`: `round(m * step / SLOPE_ONE)`, halves rounded up, in integers. Monotone in `m`,
    /// and changing by at most one per step, so every line is a contiguous span of steps and
    /// consecutive pixels of a line are 8-neighbours.
    pub fn offset(&self, m: i64) -> i64 {
        (2 * m * self.step + SLOPE_ONE).div_euclid(2 * SLOPE_ONE)
    }
}

impl Angle {
    /// Rows, left to right.
    pub const ROWS: Angle = Angle(0.0);
    /// Columns, top to bottom.
    pub const COLUMNS: Angle = Angle(90.0);

    /// `degrees` taken modulo 360; an error unless it is a finite number.
    pub fn new(degrees: f64) -> Result<Angle, String> {
        if !degrees.is_finite() {
            return Err(format!("'{degrees}' is not an angle: give degrees as a number, like 30 or -45"));
        }
        // rem_euclid may round up to 360 itself for tiny negative angles; -0.0 + 0.0 is 0.0.
        let r = degrees.rem_euclid(360.0) + 0.0;
        Ok(Angle(if r >= 360.0 { 0.0 } else { r }))
    }

    /// The direction of `axis`: 0 for rows, 90 for columns.
    pub fn of_axis(axis: Axis) -> Angle {
        match axis {
            Axis::Rows => Angle::ROWS,
            Axis::Columns => Angle::COLUMNS,
        }
    }

    /// Degrees, `0 <= degrees < 360`.
    pub fn degrees(self) -> f64 {
        self.0
    }

    /// This angle turned by `degrees` (clockwise on screen for positive degrees).
    pub fn turned(self, degrees: f64) -> Angle {
        Angle::new(self.0 + degrees).unwrap_or(self)
    }

    /// The axis whose lines this angle's lines are, pixel for pixel, if any: rows for a slope
    /// that rounds to 0 left to right, columns for one that rounds to 0 top to bottom.
    pub fn axis(self) -> Option<Axis> {
        let slope = self.slope();
        (slope.step == 0 && !slope.reversed).then_some(slope.along)
    }

    /// The integer slope of this angle's lines. The angle is first reduced to within 45° of
    /// the axis its lines follow, so the tangent is never taken near 90°; angles exactly
    /// between two axes (45°, 135°, 225°, 315°) follow rows, with a slope of exactly ±1.
    pub fn slope(self) -> Slope {
        let d = self.0;
        let across = d % 180.0;
        let (along, reduced, reversed, sign) = if across <= 45.0 || across >= 135.0 {
            // Mostly along x: the slope is tan θ, which tan(θ - 180°) equals.
            let reduced = if d <= 45.0 {
                d
            } else if d >= 315.0 {
                d - 360.0
            } else {
                d - 180.0
            };
            (Axis::Rows, reduced, (135.0..=225.0).contains(&d), 1.0)
        } else {
            // Mostly along y: the slope is cot θ = -tan(θ - 90°) = -tan(θ - 270°).
            let reduced = if d < 180.0 { d - 90.0 } else { d - 270.0 };
            (Axis::Columns, reduced, d > 180.0, -1.0)
        };
        let step = (sign * reduced.to_radians().tan() * SLOPE_ONE as f64).round() as i64;
        Slope { along, step: step.clamp(-SLOPE_ONE, SLOPE_ONE), reversed }
    }

    /// How output file names carry the angle: nothing for 0 (rows), else `-angle<degrees>`.
    pub fn file_suffix(self) -> String {
        if self == Angle::ROWS { String::new() } else { format!("-angle{}", self) }
    }
}

impl std::fmt::Display for Angle {
    /// The degrees as the command line takes them: `30`, `22.5`, `359.9`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Angle {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().trim_end_matches('°').parse::<f64>() {
            Ok(degrees) => Angle::new(degrees),
            Err(_) => Err(format!("'{s}' is not an angle: give degrees as a number, like 30 or -45")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn angles_are_taken_modulo_360() {
        for (given, expected) in [
            (0.0, 0.0),
            (360.0, 0.0),
            (-90.0, 270.0),
            (450.0, 90.0),
            (-720.0, 0.0),
            (-0.0, 0.0),
            (1e300, 1e300 % 360.0),
        ] {
            assert_eq!(Angle::new(given).unwrap().degrees(), expected, "{given}");
        }
        let tiny = Angle::new(-1e-20).unwrap().degrees();
        assert!((0.0..360.0).contains(&tiny), "{tiny}");
        assert!(Angle::new(f64::NAN).is_err() && Angle::new(f64::INFINITY).is_err());
        assert_eq!("-30".parse::<Angle>().unwrap().degrees(), 330.0);
        assert_eq!("22.5°".parse::<Angle>().unwrap().degrees(), 22.5);
        assert!("east".parse::<Angle>().unwrap_err().contains("like 30"));
        assert_eq!(Angle::new(350.0).unwrap().turned(15.0).degrees(), 5.0);
    }

    #[test]
    fn slopes_follow_the_nearer_axis_and_ties_follow_rows() {
        let slope = |d: f64| Angle::new(d).unwrap().slope();
        let s = |along, step, reversed| Slope { along, step, reversed };
        use Axis::{Columns, Rows};
        assert_eq!(slope(0.0), s(Rows, 0, false));
        assert_eq!(slope(90.0), s(Columns, 0, false));
        assert_eq!(slope(180.0), s(Rows, 0, true));
        assert_eq!(slope(270.0), s(Columns, 0, true));
        assert_eq!(slope(45.0), s(Rows, SLOPE_ONE, false));
        assert_eq!(slope(135.0), s(Rows, -SLOPE_ONE, true));
        assert_eq!(slope(225.0), s(Rows, SLOPE_ONE, true));
        assert_eq!(slope(315.0), s(Rows, -SLOPE_ONE, false));
        // Just past 45° the lines follow columns, with a slope just under 1.
        let past = slope(45.0 + 1e-9);
        assert_eq!((past.along, past.step, past.reversed), (Columns, SLOPE_ONE, false));
        // 60°: steep, falling to the right: x grows by cot 60° per row.
        let steep = slope(60.0);
        assert_eq!((steep.along, steep.reversed), (Columns, false));
        assert_eq!(steep.step, (SLOPE_ONE as f64 / 3f64.sqrt()).round() as i64);
        // 120°: steep, falling to the left.
        assert_eq!(slope(120.0).step, -steep.step);
        assert_eq!(slope(30.0).step, (SLOPE_ONE as f64 / 3f64.sqrt()).round() as i64);
        assert_eq!(slope(-30.0).step, -slope(30.0).step);
    }

    #[test]
    fn only_slopes_of_zero_are_axes() {
        assert_eq!(Angle::ROWS.axis(), Some(Axis::Rows));
        assert_eq!(Angle::COLUMNS.axis(), Some(Axis::Columns));
        assert_eq!(Angle::new(1e-9).unwrap().axis(), Some(Axis::Rows));
        assert_eq!(Angle::new(-1e-9).unwrap().axis(), Some(Axis::Rows));
        assert_eq!(Angle::new(90.0 + 1e-9).unwrap().axis(), Some(Axis::Columns));
        for d in [180.0, 270.0, 30.0, 45.0, 89.9999] {
            assert_eq!(Angle::new(d).unwrap().axis(), None, "{d}");
        }
        assert_eq!(Angle::of_axis(Axis::Columns), Angle::COLUMNS);
    }

    #[test]
    fn offsets_round_halves_up_in_integers() {
        let half = Slope { along: Axis::Rows, step: SLOPE_ONE / 2, reversed: false };
        let offsets: Vec<i64> = (0..6).map(|m| half.offset(m)).collect();
        assert_eq!(offsets, [0, 1, 1, 2, 2, 3]);
        let down = Slope { step: -SLOPE_ONE / 2, ..half };
        let offsets: Vec<i64> = (0..6).map(|m| down.offset(m)).collect();
        assert_eq!(offsets, [0, 0, -1, -1, -2, -2]);
    }

    #[test]
    fn file_names_carry_every_angle_but_rows() {
        assert_eq!(Angle::ROWS.file_suffix(), "");
        assert_eq!(Angle::COLUMNS.file_suffix(), "-angle90");
        assert_eq!(Angle::new(-30.0).unwrap().file_suffix(), "-angle330");
        assert_eq!(Angle::new(22.5).unwrap().file_suffix(), "-angle22.5");
    }
}
