//! What the lines of a sort follow: straight lines at an angle (the picture's rows and columns
//! among them), or a path ([`crate::paths`]); how messages and file names name it, and what the
//! keys that turn and bend the lines make of it.

use super::Angle;
use crate::keys::options::Axis;
use crate::paths::{PathChoice, PathKind};
use std::fmt;

/// Degrees `[` and `]` turn the lines by.
pub const TURN_DEGREES: f64 = 15.0;

/// What the lines of a sort follow.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Route {
    /// Straight lines at an angle.
    Angle(Angle),
    /// The lines of a path (its centre the picture's middle unless chosen).
    Path(PathChoice),
}

impl Default for Route {
    fn default() -> Self {
        Route::Angle(Angle::ROWS)
    }
}

impl Route {
    /// The angle of straight lines; `None` for a path.
    pub fn angle(self) -> Option<Angle> {
        match self {
            Route::Angle(angle) => Some(angle),
            Route::Path(_) => None,
        }
    }

    /// How messages name it: "rows", "columns", "lines at 30°", "rings around the middle".
    pub fn name(self) -> String {
        match self {
            Route::Angle(a) if a == Angle::ROWS => Axis::Rows.name().to_string(),
            Route::Angle(a) if a == Angle::COLUMNS => Axis::Columns.name().to_string(),
            Route::Angle(a) => format!("lines at {a}°"),
            Route::Path(path) => path.to_string(),
        }
    }

    /// What file names say of it: nothing for rows, `-angle30`, `-rings`...
    pub fn file_suffix(self) -> String {
        match self {
            Route::Angle(angle) => angle.file_suffix(),
            Route::Path(path) => format!("-{}", path.kind.name()),
        }
    }

    /// Where A goes: rows to columns, anything else to rows.
    pub fn toggled_axis(self) -> Route {
        Route::Angle(if self == Route::Angle(Angle::ROWS) { Angle::COLUMNS } else { Angle::ROWS })
    }

    /// Turned by `degrees` (`[` and `]`); a path turns from rows.
    pub fn turned(self, degrees: f64) -> Route {
        Route::Angle(self.angle().unwrap_or(Angle::ROWS).turned(degrees))
    }

    /// Where B goes: straight lines to rings, then rays, the spiral, the Hilbert curve, and back
    /// to rows; a path's centre and rays are kept.
    pub fn bent(self) -> Route {
        let next = |kind| match kind {
            PathKind::Rings => Some(PathKind::Rays),
            PathKind::Rays => Some(PathKind::Spiral),
            PathKind::Spiral => Some(PathKind::Hilbert),
            PathKind::Hilbert => None,
        };
        match self {
            Route::Angle(_) => Route::Path(PathChoice { kind: PathKind::Rings, centre: None, rays: None }),
            Route::Path(path) => match next(path.kind) {
                Some(kind) => Route::Path(PathChoice { kind, ..path }),
                None => Route::Angle(Angle::ROWS),
            },
        }
    }
}

impl fmt::Display for Route {
    /// As line names end: "at 30°", "of rings around the middle".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Route::Angle(angle) => write!(f, "at {angle}"),
            Route::Path(path) => write!(f, "of {path}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::paths::Centre;

    #[test]
    fn routes_are_named_turned_toggled_and_bent() {
        let at = |d: f64| Route::Angle(Angle::new(d).unwrap());
        assert_eq!(at(0.0).name(), "rows");
        assert_eq!(at(-270.0).name(), "columns");
        assert_eq!(at(22.5).name(), "lines at 22.5°");
        assert_eq!(at(0.0).toggled_axis(), at(90.0));
        assert_eq!(at(90.0).toggled_axis(), at(0.0));
        assert_eq!(at(30.0).toggled_axis(), at(0.0));
        let rings = at(30.0).bent();
        assert_eq!(rings.name(), "rings around the middle");
        assert_eq!(rings.file_suffix(), "-rings");
        assert_eq!(rings.toggled_axis(), at(0.0));
        assert_eq!(rings.turned(15.0), at(15.0));
        let centred = Route::Path(PathChoice {
            kind: PathKind::Rays,
            centre: Some(crate::paths::CentreAt::Pixels(Centre::at(3.0, 4.5).unwrap())),
            rays: Some(9),
        });
        assert_eq!(centred.name(), "9 rays around (3, 4.5)");
        let kinds: Vec<String> =
            std::iter::successors(Some(rings), |l| Some(l.bent())).take(5).map(Route::name).collect();
        assert_eq!(
            kinds,
            [
                "rings around the middle",
                "rays around the middle",
                "a spiral around the middle",
                "the Hilbert curve",
                "rows"
            ]
        );
        assert!(matches!(
            centred.bent(),
            Route::Path(PathChoice { kind: PathKind::Spiral, centre: Some(_), .. })
        ));
    }
}
