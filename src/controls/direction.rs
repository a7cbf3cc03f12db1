//! The sort direction in a viewer's words: how far `[` and `]` turn it, what A toggles it to,
//! and how messages name it.

use crate::angle::Angle;
use crate::keys::options::Axis;

/// Degrees `[` and `]` turn the direction by.
pub const TURN_DEGREES: f64 = 15.0;

/// How messages name a direction: "rows", "columns", or "lines at 30°".
pub fn direction_name(angle: Angle) -> String {
    match angle {
        a if a == Angle::ROWS => Axis::Rows.name().to_string(),
        a if a == Angle::COLUMNS => Axis::Columns.name().to_string(),
        a => format!("lines at {a}°"),
    }
}

/// Where A goes from `angle`: rows to columns, anything else to rows.
pub fn toggled_axis(angle: Angle) -> Angle {
    if angle == Angle::ROWS { Angle::COLUMNS } else { Angle::ROWS }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directions_are_named_by_axis_or_degrees() {
        assert_eq!(direction_name(Angle::ROWS), "rows");
        assert_eq!(direction_name(Angle::new(-270.0).unwrap()), "columns");
        assert_eq!(direction_name(Angle::new(22.5).unwrap()), "lines at 22.5°");
        assert_eq!(toggled_axis(Angle::ROWS), Angle::COLUMNS);
        assert_eq!(toggled_axis(Angle::COLUMNS), Angle::ROWS);
        assert_eq!(toggled_axis(Angle::new(30.0).unwrap()), Angle::ROWS);
    }
}
