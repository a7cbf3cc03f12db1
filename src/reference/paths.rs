//! The CPU model of a sort along a path, written from the path's definition alone (shares no
//! code with `paths::geometry`, which builds the GPU's line tables): every pixel's polar
//! coordinates in floating point around the centre, lines and their order by the rules
//! `crate::paths` documents, each line stably sorted by key and put back in that order.

use crate::keys::options::SortOptions;
use crate::paths::{Path, PathKind};
use image::RgbaImage;
use std::cmp::Ordering;
use std::f64::consts::{PI, TAU};

/// `picture` with every line of `path` stably sorted by `options` (its axis is not used).
pub fn sorted_along(picture: &RgbaImage, path: &Path, options: &SortOptions) -> RgbaImage {
    let mut out = picture.clone();
    let pixels: &mut [[u8; 4]] = bytemuck::cast_slice_mut(out.as_mut());
    for line in lines(path, picture.dimensions()) {
        let mut values: Vec<[u8; 4]> = line.iter().map(|&i| pixels[i as usize]).collect();
        values.sort_by_key(|&p| options.order_key(p));
        for (&i, value) in line.iter().zip(values) {
            pixels[i as usize] = value;
        }
    }
    out
}

/// One pixel around the centre: where it is in the picture and its polar coordinates.
#[derive(Clone, Copy, Debug)]
struct Polar {
    /// Row-major index.
    index: u32,
    /// Distance of the pixel's centre `(x + 0.5, y + 0.5)` from the path's centre, in pixels.
    distance: f64,
    /// atan2(dy, dx) in [0, 2π): from +x towards +y; the centre itself is at 0.
    angle: f64,
    /// The angle in eighths of a turn when the pixel lies exactly on an axis or a diagonal
    /// through the centre (dx or dy zero, or |dx| = |dy|): the only directions whose angles
    /// can fall exactly between two rays, so ties are decided exactly.
    eighths: Option<u32>,
}

impl Polar {
    fn of(index: u32, width: u32, path: &Path) -> Polar {
        let (cx, cy) = path.centre.pixels();
        let dx = f64::from(index % width) + 0.5 - cx;
        let dy = f64::from(index / width) + 0.5 - cy;
        let angle = match dy.atan2(dx) {
            a if a < 0.0 => a + TAU,
            a => a,
        };
        let eighths = match (dx.partial_cmp(&0.0), dy.partial_cmp(&0.0)) {
            (_, Some(Ordering::Equal)) if dx >= 0.0 => Some(0),
            (_, Some(Ordering::Equal)) => Some(4),
            (Some(Ordering::Equal), _) => Some(if dy > 0.0 { 2 } else { 6 }),
            _ if dx.abs() == dy.abs() => Some(match (dx > 0.0, dy > 0.0) {
                (true, true) => 1,
                (false, true) => 3,
                (false, false) => 5,
                (true, false) => 7,
            }),
            _ => None,
        };
        Polar { index, distance: (dx * dx + dy * dy).sqrt(), angle, eighths }
    }

    /// By angle from 0, equal angles by distance, then the picture's order.
    fn along_ring(&self, other: &Polar) -> Ordering {
        self.angle
            .total_cmp(&other.angle)
            .then(self.distance.total_cmp(&other.distance))
            .then(self.index.cmp(&other.index))
    }

    /// Outward, equal distances by angle, then the picture's order.
    fn along_ray(&self, other: &Polar) -> Ordering {
        self.distance
            .total_cmp(&other.distance)
            .then(self.angle.total_cmp(&other.angle))
            .then(self.index.cmp(&other.index))
    }

    /// The nearest of `n` rays at angles 2πk/n; a pixel exactly between two joins the later one
    /// (ray n - 1 and ray 0 are neighbours).
    fn ray(&self, n: u32) -> u32 {
        let n64 = u64::from(n);
        let nearest = match self.eighths {
            // The angle is 2π·e/8, so e·n/8 rays: rounded half up in integers, exactly.
            Some(e) => (u64::from(e) * n64 + 4) / 8,
            None => (self.angle / TAU * n as f64).round() as u64,
        };
        (nearest % n64) as u32
    }
}

/// The rays of a path of rays: the count asked for, or enough to be a pixel apart at the
/// picture's farthest corner from the centre: ceil(2πR).
fn ray_count(path: &Path, (width, height): (u32, u32)) -> u32 {
    if let Some(n) = path.rays {
        return n;
    }
    let (cx, cy) = path.centre.pixels();
    let corner = |x: u32, y: u32| (f64::from(x) - cx).hypot(f64::from(y) - cy);
    let far = corner(0, 0).max(corner(width, 0)).max(corner(0, height)).max(corner(width, height));
    ((2.0 * PI * far).ceil() as u32).max(1)
}

/// The path's lines through a `width` x `height` picture, from the definition: each line its
/// pixels (row-major indices) in the path's order, empty lines left out. Rings go from the
/// centre outward (ring r holds the distances in [r, r + 1)), each by angle; rays by angle from
/// 0, each outward; the spiral is the rings joined; the Hilbert curve is one line.
pub fn lines(path: &Path, (width, height): (u32, u32)) -> Vec<Vec<u32>> {
    let polar: Vec<Polar> = (0..width * height).map(|i| Polar::of(i, width, path)).collect();
    // Each pixel's line, and the lines in order of that number.
    let grouped = |line_of: &dyn Fn(&Polar) -> u64, order: fn(&Polar, &Polar) -> Ordering| {
        let mut sorted = polar.clone();
        sorted.sort_by(|a, b| line_of(a).cmp(&line_of(b)).then(order(a, b)));
        let mut lines: Vec<Vec<u32>> = Vec::new();
        let mut last = None;
        for p in sorted {
            if last != Some(line_of(&p)) {
                lines.push(Vec::new());
                last = Some(line_of(&p));
            }
            lines.last_mut().expect("pushed").push(p.index);
        }
        lines
    };
    match path.kind {
        PathKind::Rings => grouped(&|p| p.distance.floor() as u64, Polar::along_ring),
        PathKind::Spiral => vec![grouped(&|p| p.distance.floor() as u64, Polar::along_ring).concat()],
        PathKind::Rays => {
            let n = ray_count(path, (width, height));
            grouped(&|p| u64::from(p.ray(n)), Polar::along_ray)
        }
        PathKind::Hilbert => {
            let side = width.max(height).max(1).next_power_of_two();
            let mut line = Vec::new();
            hilbert(side, &mut |x, y| {
                if x < width && y < height {
                    line.push(y * width + x);
                }
            });
            vec![line]
        }
    }
}

/// Visits the cells of the Hilbert curve of a `side` x `side` square (a power of two) in
/// order, from (0, 0) to (side - 1, 0), built by its recursive definition: the four quadrants
/// in the order (low x, low y), (low x, high y), (high x, high y), (high x, low y), the first
/// the half-size curve transposed (so it ends at (0, half - 1)), the middle two as they are,
/// the last mirrored across its anti-diagonal (so it runs from (side - 1, half - 1) down to
/// (side - 1, 0)).
fn hilbert(side: u32, visit: &mut dyn FnMut(u32, u32)) {
    if side == 1 {
        visit(0, 0);
        return;
    }
    let half = side / 2;
    hilbert(half, &mut |x, y| visit(y, x));
    hilbert(half, &mut |x, y| visit(x, y + half));
    hilbert(half, &mut |x, y| visit(x + half, y + half));
    hilbert(half, &mut |x, y| visit(half - 1 - y + half, half - 1 - x));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::paths::{Centre, geometry};

    /// Sizes: single pixels, single rows and columns, odd and even, around 63/64/65.
    const SIZES: [(u32, u32); 12] = [
        (1, 1),
        (1, 17),
        (17, 1),
        (2, 2),
        (7, 7),
        (8, 6),
        (13, 4),
        (4, 13),
        (21, 21),
        (63, 5),
        (5, 64),
        (65, 33),
    ];

    /// Centres for a size: the middle, pixel corners (the picture's corner, and one inside),
    /// a pixel's centre, an arbitrary point, points outside the picture on each side.
    fn centres((w, h): (u32, u32)) -> Vec<Centre> {
        let (w, h) = (f64::from(w), f64::from(h));
        [
            (w / 2.0, h / 2.0),
            (0.0, 0.0),
            ((w / 2.0).floor(), (h / 3.0).floor()),
            ((w / 3.0).floor() + 0.5, (h / 2.0).floor() + 0.5),
            (w / 3.0 + 0.1, h - 0.7),
            (-20.0, h * 2.0),
            (w + 3.25, -4.5),
        ]
        .into_iter()
        .map(|(x, y)| Centre::at(x, y).unwrap())
        .collect()
    }

    /// Every kind, and rays of counts whose midpoints fall exactly on axes and diagonals
    /// (2: vertical; 4: diagonals; 6: vertical; 12: diagonals) and an odd count.
    fn every_path(centre: Centre) -> Vec<Path> {
        let mut paths: Vec<Path> =
            PathKind::ALL.into_iter().map(|kind| Path { kind, centre, rays: None }).collect();
        for n in [1, 2, 4, 5, 6, 12] {
            paths.push(Path { kind: PathKind::Rays, centre, rays: Some(n) });
        }
        paths
    }

    #[test]
    fn the_gpu_line_tables_follow_the_definition() {
        let mut checked = 0;
        for size in SIZES {
            for centre in centres(size) {
                for path in every_path(centre) {
                    assert_eq!(geometry::lines(&path, size), lines(&path, size), "{path} on {size:?}");
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, SIZES.len() * 7 * 10);
    }

    /// A picture large enough that the lines are laid out on several cores, where there are.
    #[test]
    fn lines_laid_out_on_every_core_follow_the_definition() {
        let size = (521, 300);
        let centre = Centre::at(150.3, 170.8).unwrap();
        for kind in [PathKind::Rings, PathKind::Rays] {
            let path = Path { kind, centre, rays: None };
            assert_eq!(geometry::lines(&path, size), lines(&path, size), "{path} on {size:?}");
        }
    }

    #[test]
    fn ties_follow_the_documented_rules() {
        // 4 rays around the middle of a 4x4 picture (a pixel corner): (3, 3) lies on the
        // diagonal, exactly between ray 0 (+x) and ray 1 (+y), and joins ray 1; (0, 3) joins
        // ray 2, (0, 0) ray 3 and (3, 0), between ray 3 and ray 0, joins ray 0.
        let size = (4, 4);
        let rays = Path { kind: PathKind::Rays, centre: Centre::middle(size), rays: Some(4) };
        let model = lines(&rays, size);
        let on = |p: u32| model.iter().position(|l| l.contains(&p)).unwrap();
        assert_eq!(model.len(), 4);
        assert_eq!((on(15), on(12), on(0), on(3)), (1, 2, 3, 0));
        // Ray 1 outward: (2, 2); then (2, 3) and (1, 3) at the same distance, by angle; then
        // (3, 3).
        assert_eq!(model[1], vec![10, 14, 13, 15]);
        // Rings around a pixel's centre: the centre alone is ring 0; ring 1 by angle from +x,
        // clockwise on screen.
        let rings = Path { kind: PathKind::Rings, centre: Centre::at(1.5, 1.5).unwrap(), rays: None };
        assert_eq!(lines(&rings, (3, 3)), vec![vec![4], vec![5, 8, 7, 6, 3, 0, 1, 2]]);
    }

    #[test]
    fn the_hilbert_curve_is_the_usual_one() {
        let mut cells = Vec::new();
        hilbert(4, &mut |x, y| cells.push((x, y)));
        #[rustfmt::skip]
        let usual = [
            (0, 0), (1, 0), (1, 1), (0, 1), (0, 2), (0, 3), (1, 3), (1, 2),
            (2, 2), (2, 3), (3, 3), (3, 2), (3, 1), (2, 1), (2, 0), (3, 0),
        ];
        assert_eq!(cells, usual);
    }
}
