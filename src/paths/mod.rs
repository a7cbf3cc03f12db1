//! Sorting along paths rather than straight lines (`--path rings|rays|spiral|hilbert`, around
//! `--center X,Y`): which path line every pixel lies on and in what order ([`geometry`]), so that
//! the path's lines can be laid out in line space (`angle::path_space`) and sorted as the lines
//! of an angle are.
//!
//! - rings: a pixel lies on ring floor(d), d its distance from the centre; along a ring, by
//!   angle atan2(dy, dx) from the +x axis towards +y (clockwise on screen), from 0 to 2π;
//! - rays: a pixel lies on the nearest of N directions 2πk/N from the centre (N about a pixel
//!   apart at the farthest corner unless `--rays N`); along a ray, by distance from the centre;
//! - spiral: the rings joined from the centre outward, as one sequence;
//! - hilbert: the Hilbert curve of the smallest power-of-two square covering the picture, from
//!   pixel (0, 0) to (n - 1, 0), cells outside the picture skipped, as one sequence.
//!
//! Ties (pixels at the same angle on a ring, or at the same distance on a ray) go by distance,
//! then angle, then row-major index, so every pixel has one place.

pub mod geometry;

use std::fmt;
use std::str::FromStr;

/// The four kinds of path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PathKind {
    /// Circles around the centre.
    Rings,
    /// Straight lines out of the centre.
    Rays,
    /// The rings joined from the centre outward: one sequence.
    Spiral,
    /// The Hilbert curve: one sequence.
    Hilbert,
}

impl PathKind {
    /// Every kind, as `--path` names them.
    pub const ALL: [PathKind; 4] = [PathKind::Rings, PathKind::Rays, PathKind::Spiral, PathKind::Hilbert];

    /// The name `--path` takes.
    pub fn name(self) -> &'static str {
        match self {
            PathKind::Rings => "rings",
            PathKind::Rays => "rays",
            PathKind::Spiral => "spiral",
            PathKind::Hilbert => "hilbert",
        }
    }

    /// Whether the whole picture is one path line.
    pub fn is_one_sequence(self) -> bool {
        matches!(self, PathKind::Spiral | PathKind::Hilbert)
    }

    /// Whether the path goes around a centre.
    pub fn has_centre(self) -> bool {
        self != PathKind::Hilbert
    }
}

impl FromStr for PathKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        PathKind::ALL.into_iter().find(|k| k.name() == s.trim().to_ascii_lowercase()).ok_or_else(|| {
            format!("unknown path '{s}': use rings, rays, spiral or hilbert (or --angle for straight lines)")
        })
    }
}

/// A centre in 1/256 pixel: exact integer arithmetic for every front end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Centre {
    /// x, in 1/256 pixel.
    pub x: i64,
    /// y, in 1/256 pixel.
    pub y: i64,
}

/// How far outside the picture a centre may lie, in pixels.
pub const MAX_CENTRE: f64 = 1_000_000.0;

impl Centre {
    /// The middle of a `width` x `height` picture: (W/2, H/2).
    pub fn middle((width, height): (u32, u32)) -> Centre {
        Centre { x: i64::from(width) * 128, y: i64::from(height) * 128 }
    }

    /// `(x, y)` in pixels, rounded to 1/256 pixel; an error unless both are finite and within
    /// [`MAX_CENTRE`].
    pub fn at(x: f64, y: f64) -> Result<Centre, String> {
        let fits = |v: f64| v.is_finite() && v.abs() <= MAX_CENTRE;
        if !(fits(x) && fits(y)) {
            return Err(format!(
                "--center {x},{y} is too far out: give X,Y in pixels within {MAX_CENTRE} of the picture's corner"
            ));
        }
        Ok(Centre { x: (x * 256.0).round() as i64, y: (y * 256.0).round() as i64 })
    }

    /// In pixels.
    pub fn pixels(self) -> (f64, f64) {
        (self.x as f64 / 256.0, self.y as f64 / 256.0)
    }
}

/// `X,Y` in pixels, as `--center` takes it.
pub fn parse_centre(text: &str) -> Result<(f64, f64), String> {
    let bad = || format!("--center '{text}' is not two numbers: give X,Y in pixels, like 120,80 or 64.5,-10");
    let (x, y) = text.split_once(',').ok_or_else(bad)?;
    let number = |s: &str| s.trim().parse::<f64>().ok().filter(|v| v.is_finite());
    match (number(x), number(y)) {
        (Some(x), Some(y)) => Ok((x, y)),
        _ => Err(bad()),
    }
}

/// A path through one picture size: its kind, centre and, for rays, how many.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Path {
    /// Which path.
    pub kind: PathKind,
    /// The centre it goes around (unused by the Hilbert curve).
    pub centre: Centre,
    /// Rays asked for (`--rays N`); `None`: about a pixel apart at the farthest corner.
    pub rays: Option<u32>,
}

impl Path {
    /// `kind` around the middle of a `width` x `height` picture.
    pub fn around_middle(kind: PathKind, size: (u32, u32)) -> Path {
        Path { kind, centre: Centre::middle(size), rays: None }
    }
}

/// A path as the user chose it, before a picture's size gives the default centre.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PathChoice {
    /// Which path.
    pub kind: PathKind,
    /// The centre; `None`: the picture's middle.
    pub centre: Option<Centre>,
    /// Rays asked for.
    pub rays: Option<u32>,
}

impl PathChoice {
    /// The path through a picture of `size`.
    pub fn on(self, size: (u32, u32)) -> Path {
        Path { kind: self.kind, centre: self.centre.unwrap_or_else(|| Centre::middle(size)), rays: self.rays }
    }
}

impl From<Path> for PathChoice {
    fn from(path: Path) -> Self {
        PathChoice { kind: path.kind, centre: Some(path.centre), rays: path.rays }
    }
}

impl fmt::Display for PathChoice {
    /// "rings around the middle", "9 rays around (3, 4.5)", "a spiral ...", "the Hilbert curve".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.kind, self.rays) {
            (PathKind::Hilbert, _) => return f.write_str("the Hilbert curve"),
            (PathKind::Spiral, _) => f.write_str("a spiral")?,
            (PathKind::Rays, Some(n)) => write!(f, "{n} rays")?,
            (kind, _) => f.write_str(kind.name())?,
        }
        match self.centre {
            Some(centre) => {
                let (x, y) = centre.pixels();
                write!(f, " around ({x}, {y})")
            }
            None => f.write_str(" around the middle"),
        }
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind.name())?;
        if self.kind.has_centre() {
            let (x, y) = self.centre.pixels();
            write!(f, " around ({x}, {y})")?;
        }
        if let (PathKind::Rays, Some(n)) = (self.kind, self.rays) {
            write!(f, ", {n} rays")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_centres_parse_or_say_what_to_give() {
        for kind in PathKind::ALL {
            assert_eq!(kind.name().parse::<PathKind>(), Ok(kind));
        }
        assert!("ring".parse::<PathKind>().unwrap_err().contains("rings, rays, spiral or hilbert"));
        assert_eq!(parse_centre("120,80"), Ok((120.0, 80.0)));
        assert_eq!(parse_centre(" 64.5 , -10 "), Ok((64.5, -10.0)));
        for bad in ["120", "a,b", "1,2,3", "nan,1", ","] {
            assert!(parse_centre(bad).unwrap_err().contains("is not two numbers"), "{bad}");
        }
        assert_eq!(Centre::at(1.5, -2.25), Ok(Centre { x: 384, y: -576 }));
        assert!(Centre::at(2e6, 0.0).is_err());
        assert_eq!(Centre::middle((5, 4)), Centre { x: 640, y: 512 });
    }
}
