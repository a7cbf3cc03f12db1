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

/// Where a path's centre was asked to be: a point in pixels of the picture as sorted, or a
/// place given as shares of its width and height (`50%,30%`), the same place on every picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CentreAt {
    /// A point in pixels.
    Pixels(Centre),
    /// Shares of the width and height, in 1/65536.
    Share {
        /// Of the width.
        x: i64,
        /// Of the height.
        y: i64,
    },
}

/// One whole in the shares of [`CentreAt::Share`].
const WHOLE_SHARE: i64 = 1 << 16;

impl CentreAt {
    /// The point on a `width` x `height` picture (a share rounded to 1/256 pixel).
    pub fn on(self, (width, height): (u32, u32)) -> Centre {
        match self {
            CentreAt::Pixels(centre) => centre,
            CentreAt::Share { x, y } => {
                let along = |side: u32, share: i64| (i64::from(side) * 256 * share).div_euclid(WHOLE_SHARE);
                Centre { x: along(width, x), y: along(height, y) }
            }
        }
    }

    /// `X,Y` as `--center` takes it: both in pixels (`120,80`, `64.5,-10`) or both in percent
    /// of the picture's width and height (`50%,30%`); an error naming what to give.
    pub fn parse(text: &str) -> Result<CentreAt, String> {
        let bad = || {
            format!(
                "--center '{text}' is not two numbers: give X,Y in pixels, like 120,80 or 64.5,-10, or in percent of the picture, like 50%,30%"
            )
        };
        let (x, y) = text.split_once(',').ok_or_else(bad)?;
        let (x, y) = (x.trim(), y.trim());
        let number = |s: &str| s.parse::<f64>().ok().filter(|v| v.is_finite());
        match (x.strip_suffix('%'), y.strip_suffix('%')) {
            (Some(x), Some(y)) => {
                let (x, y) = (number(x.trim()).ok_or_else(bad)?, number(y.trim()).ok_or_else(bad)?);
                let share = |v: f64| {
                    (v.abs() <= MAX_SHARE_PERCENT).then(|| (v / 100.0 * WHOLE_SHARE as f64).round() as i64)
                };
                match (share(x), share(y)) {
                    (Some(x), Some(y)) => Ok(CentreAt::Share { x, y }),
                    _ => Err(format!(
                        "--center {x}%,{y}% is too far out: give percents within {MAX_SHARE_PERCENT} of the picture's corner"
                    )),
                }
            }
            (None, None) => {
                let (x, y) = (number(x).ok_or_else(bad)?, number(y).ok_or_else(bad)?);
                Centre::at(x, y).map(CentreAt::Pixels)
            }
            _ => Err(format!(
                "--center '{text}' mixes pixels and percent: give both in pixels or both in percent"
            )),
        }
    }
}

/// How far outside the picture a centre in percent may lie.
const MAX_SHARE_PERCENT: f64 = 10_000.0;

impl fmt::Display for CentreAt {
    /// "(3, 4.5)" or "(50%, 30%)".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            CentreAt::Pixels(centre) => {
                let (x, y) = centre.pixels();
                write!(f, "({x}, {y})")
            }
            CentreAt::Share { x, y } => {
                let percent = |v: i64| (v as f64 * 100.0 / WHOLE_SHARE as f64 * 100.0).round() / 100.0;
                write!(f, "({}%, {}%)", percent(x), percent(y))
            }
        }
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
    pub centre: Option<CentreAt>,
    /// Rays asked for.
    pub rays: Option<u32>,
}

impl PathChoice {
    /// The path through a picture of `size`.
    pub fn on(self, size: (u32, u32)) -> Path {
        let centre = self.centre.map_or_else(|| Centre::middle(size), |at| at.on(size));
        Path { kind: self.kind, centre, rays: self.rays }
    }
}

impl From<Path> for PathChoice {
    fn from(path: Path) -> Self {
        PathChoice { kind: path.kind, centre: Some(CentreAt::Pixels(path.centre)), rays: path.rays }
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
            Some(centre) => write!(f, " around {centre}"),
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
        let pixels = |x, y| Ok(CentreAt::Pixels(Centre::at(x, y).unwrap()));
        assert_eq!(CentreAt::parse("120,80"), pixels(120.0, 80.0));
        assert_eq!(CentreAt::parse(" 64.5 , -10 "), pixels(64.5, -10.0));
        for bad in ["120", "a,b", "1,2,3", "nan,1", ",", "50%,a%"] {
            assert!(CentreAt::parse(bad).unwrap_err().contains("is not two numbers"), "{bad}");
        }
        assert!(CentreAt::parse("50%,3").unwrap_err().contains("mixes pixels and percent"));
        assert!(CentreAt::parse("2e6,0").unwrap_err().contains("too far out"));
        assert!(CentreAt::parse("20000%,0%").unwrap_err().contains("too far out"));
        let share = CentreAt::parse(" 50% , 25 %").unwrap();
        assert_eq!(share, CentreAt::Share { x: 32768, y: 16384 });
        assert_eq!(share.to_string(), "(50%, 25%)");
        assert_eq!(share.on((5, 4)), Centre { x: 640, y: 256 });
        assert_eq!(CentreAt::parse("50%,50%").unwrap().on((7, 3)), Centre::middle((7, 3)));
        assert_eq!(Centre::at(1.5, -2.25), Ok(Centre { x: 384, y: -576 }));
        assert!(Centre::at(2e6, 0.0).is_err());
        assert_eq!(Centre::middle((5, 4)), Centre { x: 640, y: 512 });
    }
}
