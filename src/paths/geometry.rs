//! Which path line every pixel lies on and where along it: the one definition that the CPU
//! model, the GPU's line tables and every front end share. A pixel's centre is
//! `(x + 0.5, y + 0.5)`; the centre is held in 1/256 pixel, so distances and the order by
//! angle are exact integer arithmetic (rays alone round an angle to the nearest direction).

use super::{Centre, Path, PathKind};

/// One pixel's place relative to the centre, in 1/256 pixel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Offset {
    dx: i64,
    dy: i64,
}

impl Offset {
    fn of(x: u32, y: u32, centre: Centre) -> Offset {
        Offset { dx: (2 * i64::from(x) + 1) * 128 - centre.x, dy: (2 * i64::from(y) + 1) * 128 - centre.y }
    }

    /// The squared distance, in 1/256² pixel. Offsets stay within (MAX_CENTRE + the largest
    /// texture side) x 256 < 2^29, so squares, their sums and the cross products below fit 64 bits.
    fn squared(self) -> u64 {
        (self.dx * self.dx + self.dy * self.dy) as u64
    }

    /// The ring it lies on: floor of its distance in pixels.
    fn ring(self) -> u64 {
        isqrt(self.squared()) / 256
    }

    /// 0 for angles in [0, π) from +x towards +y, 1 for [π, 2π); the centre itself is 0.
    fn half(self) -> u8 {
        u8::from(!(self.dy > 0 || self.dy == 0 && self.dx >= 0))
    }

    /// The order by angle atan2(dy, dx) from 0 to 2π, exactly; the centre first.
    fn by_angle(self, other: Offset) -> std::cmp::Ordering {
        let zero = |o: Offset| o.dx == 0 && o.dy == 0;
        match (zero(self), zero(other)) {
            (true, true) => return std::cmp::Ordering::Equal,
            (true, false) => return std::cmp::Ordering::Less,
            (false, true) => return std::cmp::Ordering::Greater,
            _ => {}
        }
        self.half().cmp(&other.half()).then_with(|| {
            // Within a half turn, a comes first when b lies counter-clockwise... in screen terms,
            // further towards +y: their cross product is positive.
            let cross = self.dx * other.dy - self.dy * other.dx;
            0.cmp(&cross)
        })
    }

    /// atan2(dy, dx) in [0, 2π).
    fn angle(self) -> f64 {
        let a = (self.dy as f64).atan2(self.dx as f64);
        if a < 0.0 { a + std::f64::consts::TAU } else { a }
    }

    /// The nearest of `n` rays at angles 2πk/n, a pixel exactly between two on the later one.
    /// Only a pixel on an axis or a diagonal through the centre can lie exactly between two
    /// rays (no other direction of integer offsets has an angle that is a rational multiple of
    /// π), and floating point can round those either way: their angle is taken in exact
    /// eighths of a turn instead.
    fn ray(self, n: u64) -> u64 {
        let (dx, dy) = (self.dx, self.dy);
        // Counter-clockwise in maths terms (+x towards +y), from +x: 0 to 7.
        let eighths =
            (dx == 0 || dy == 0 || dx.abs() == dy.abs()).then(|| match (dx.signum(), dy.signum()) {
                (1, 1) => 1,
                (0, 1) => 2,
                (-1, 1) => 3,
                (-1, 0) => 4,
                (-1, -1) => 5,
                (0, -1) => 6,
                (1, -1) => 7,
                _ => 0,
            });
        let nearest = match eighths {
            Some(e) => (e * n) / 8 + u64::from((e * n) % 8 >= 4),
            None => (self.angle() * n as f64 / std::f64::consts::TAU).round() as u64,
        };
        nearest % n
    }
}

/// The largest integer whose square is at most `n`.
fn isqrt(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let mut x = (n as f64).sqrt() as u64;
    while x * x > n {
        x -= 1;
    }
    while (x + 1) * (x + 1) <= n {
        x += 1;
    }
    x
}

/// The rays a path of rays has: `count`, or about a pixel apart at the farthest corner:
/// ceil(2π R), R the distance from the centre to the picture's farthest corner.
pub fn ray_count(path: &Path, (width, height): (u32, u32)) -> u32 {
    if let Some(n) = path.rays {
        return n;
    }
    let far = [(0, 0), (width, 0), (0, height), (width, height)]
        .iter()
        .map(|&(x, y)| {
            let (dx, dy) = (i64::from(x) * 256 - path.centre.x, i64::from(y) * 256 - path.centre.y);
            ((dx as f64).powi(2) + (dy as f64).powi(2)).sqrt() / 256.0
        })
        .fold(0.0, f64::max);
    ((std::f64::consts::TAU * far).ceil() as u32).max(1)
}

/// The path's lines through a `width` x `height` picture: each line its pixels (row-major
/// indices) in order, empty lines left out; every pixel on exactly one line. Rings come from
/// the centre outward, rays by angle from 0; spiral and Hilbert are one line.
pub fn lines(path: &Path, (width, height): (u32, u32)) -> Vec<Vec<u32>> {
    let (pixels, w) = (width as usize * height as usize, width as usize);
    let offsets: Vec<Offset> =
        crate::cores::map(pixels, |i| Offset::of((i % w) as u32, (i / w) as u32, path.centre));
    let at = |i: &u32| offsets[*i as usize];
    match path.kind {
        PathKind::Rings | PathKind::Spiral => {
            let rings: Vec<u64> = crate::cores::map(pixels, |i| offsets[i].ring());
            // Each ring by angle, then distance, then the picture's order.
            let lines = bucketed(&rings, |line| {
                line.sort_unstable_by(|a, b| {
                    at(a).by_angle(at(b)).then(at(a).squared().cmp(&at(b).squared())).then(a.cmp(b))
                })
            });
            if path.kind == PathKind::Spiral {
                return vec![lines.concat()];
            }
            lines
        }
        PathKind::Rays => {
            let n = u64::from(ray_count(path, (width, height)));
            let rays: Vec<u64> = crate::cores::map(pixels, |i| offsets[i].ray(n));
            // Each ray outward, then by angle; the picture's order last.
            bucketed(&rays, |line| {
                line.sort_unstable_by(|a, b| {
                    at(a).squared().cmp(&at(b).squared()).then_with(|| at(a).by_angle(at(b))).then(a.cmp(b))
                })
            })
        }
        PathKind::Hilbert => {
            let side = width.max(height).next_power_of_two();
            let cells = u64::from(side) * u64::from(side);
            vec![
                (0..cells)
                    .map(|d| hilbert_cell(side, d))
                    .filter(|&(x, y)| x < width && y < height)
                    .map(|(x, y)| y * width + x)
                    .collect(),
            ]
        }
    }
}

/// The pixels grouped into lines by `keys` (one per pixel, row-major), lines in key order, each
/// line's pixels in the picture's order and then ordered by `order`: a counting sort, so the comparisons stay within lines, and
/// the lines ordered on every core.
fn bucketed(keys: &[u64], order: impl Fn(&mut [u32]) + Sync) -> Vec<Vec<u32>> {
    let (Some(&low), Some(&high)) = (keys.iter().min(), keys.iter().max()) else { return Vec::new() };
    let mut counts = vec![0u32; (high - low + 1) as usize];
    for &key in keys {
        counts[(key - low) as usize] += 1;
    }
    let mut line_of = vec![u32::MAX; counts.len()];
    let mut lines: Vec<Vec<u32>> = Vec::new();
    for (slot, &count) in counts.iter().enumerate().filter(|(_, c)| **c > 0) {
        line_of[slot] = lines.len() as u32;
        lines.push(Vec::with_capacity(count as usize));
    }
    for (pixel, &key) in keys.iter().enumerate() {
        lines[line_of[(key - low) as usize] as usize].push(pixel as u32);
    }
    crate::cores::for_each_share(&mut lines, 1 << 15, Vec::len, |_, share| {
        for line in share {
            order(line);
        }
    });
    lines
}

/// Cell `d` of the Hilbert curve filling a `side` x `side` square (a power of two): the usual
/// index-to-(x, y) conversion, from (0, 0) to (side - 1, 0).
pub fn hilbert_cell(side: u32, d: u64) -> (u32, u32) {
    let (mut x, mut y, mut t) = (0u32, 0u32, d);
    let mut s = 1u32;
    while s < side {
        let rx = (1 & (t / 2)) as u32;
        let ry = (1 & (t ^ u64::from(rx))) as u32;
        if ry == 0 {
            if rx == 1 {
                x = s - 1 - x;
                y = s - 1 - y;
            }
            std::mem::swap(&mut x, &mut y);
        }
        x += s * rx;
        y += s * ry;
        t /= 4;
        s *= 2;
    }
    (x, y)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SIZES: [(u32, u32); 9] =
        [(1, 1), (1, 9), (9, 1), (2, 2), (7, 7), (13, 4), (4, 13), (63, 5), (65, 64)];

    fn centres(size: (u32, u32)) -> Vec<Centre> {
        let (w, h) = (f64::from(size.0), f64::from(size.1));
        vec![
            Centre::middle(size),
            Centre::at(0.0, 0.0).unwrap(),
            Centre::at(w / 3.0 + 0.1, h - 0.7).unwrap(),
            Centre::at(-20.0, h * 2.0).unwrap(),
        ]
    }

    fn every_path(size: (u32, u32)) -> Vec<Path> {
        let mut paths = Vec::new();
        for centre in centres(size) {
            for kind in PathKind::ALL {
                paths.push(Path { kind, centre, rays: None });
            }
            paths.push(Path { kind: PathKind::Rays, centre, rays: Some(5) });
        }
        paths
    }

    #[test]
    fn every_pixel_lies_on_exactly_one_line() {
        for size in SIZES {
            for path in every_path(size) {
                let lines = lines(&path, size);
                let mut seen = vec![0u32; (size.0 * size.1) as usize];
                for &p in lines.iter().flatten() {
                    seen[p as usize] += 1;
                }
                assert!(seen.iter().all(|&n| n == 1), "{path} on {size:?}: {seen:?}");
                assert!(lines.iter().all(|l| !l.is_empty()), "{path} on {size:?}: an empty line");
                if path.kind.is_one_sequence() {
                    assert_eq!(lines.len(), 1, "{path} is one sequence");
                }
            }
        }
    }

    /// The geometry in floating point, as the issue states it, for pixels far from ties.
    #[test]
    fn rings_go_by_distance_then_angle_and_rays_by_angle_then_distance() {
        let size = (40, 30);
        let path = Path { kind: PathKind::Rings, centre: Centre::at(17.3, 11.8).unwrap(), rays: None };
        let (cx, cy) = path.centre.pixels();
        let polar = |p: u32| {
            let (dx, dy) = (f64::from(p % 40) + 0.5 - cx, f64::from(p / 40) + 0.5 - cy);
            let a = dy.atan2(dx);
            ((dx * dx + dy * dy).sqrt(), if a < 0.0 { a + std::f64::consts::TAU } else { a })
        };
        for (ring, line) in lines(&path, size).iter().enumerate() {
            for pair in line.windows(2) {
                let ((d0, a0), (d1, a1)) = (polar(pair[0]), polar(pair[1]));
                assert_eq!(d0.floor(), d1.floor(), "one ring");
                assert!(a0 <= a1, "ring {ring}: angles {a0} then {a1}");
            }
        }
        let rays = Path { kind: PathKind::Rays, rays: Some(12), ..path };
        let mut last_angle = -1.0;
        for line in lines(&rays, size) {
            let (_, a) = polar(line[line.len() - 1]);
            let k = (a * 12.0 / std::f64::consts::TAU).round() % 12.0;
            assert!(k * 30.0 > last_angle, "rays in angle order");
            last_angle = k * 30.0;
            for pair in line.windows(2) {
                assert!(polar(pair[0]).0 <= polar(pair[1]).0, "along a ray, outward");
            }
        }
    }

    /// The lines by one sort of every pixel with the whole order (line, then along it, then the
    /// picture's order), split where the line changes: what the counting sort must give.
    fn by_one_sort(path: &Path, (width, height): (u32, u32)) -> Vec<Vec<u32>> {
        let at = |i: u32| Offset::of(i % width, i / width, path.centre);
        let n = u64::from(ray_count(path, (width, height)));
        let ray = |i: u32| at(i).ray(n);
        let rings = path.kind == PathKind::Rings;
        let line = |i: u32| if rings { at(i).ring() } else { ray(i) };
        let mut order: Vec<u32> = (0..width * height).collect();
        order.sort_by(|&a, &b| {
            let along = if rings {
                at(a).by_angle(at(b)).then(at(a).squared().cmp(&at(b).squared()))
            } else {
                at(a).squared().cmp(&at(b).squared()).then_with(|| at(a).by_angle(at(b)))
            };
            line(a).cmp(&line(b)).then(along).then(a.cmp(&b))
        });
        let mut lines: Vec<Vec<u32>> = Vec::new();
        for i in order {
            match lines.last_mut() {
                Some(last) if line(last[0]) == line(i) => last.push(i),
                _ => lines.push(vec![i]),
            }
        }
        lines
    }

    #[test]
    fn counting_sorts_give_the_lines_one_whole_sort_gives() {
        for size in SIZES {
            for path in
                every_path(size).into_iter().filter(|p| matches!(p.kind, PathKind::Rings | PathKind::Rays))
            {
                assert_eq!(lines(&path, size), by_one_sort(&path, size), "{path} on {size:?}");
            }
        }
    }

    #[test]
    fn the_spiral_is_the_rings_joined_outward() {
        let size = (13, 9);
        let centre = Centre::at(4.0, 6.5).unwrap();
        let rings = lines(&Path { kind: PathKind::Rings, centre, rays: None }, size);
        let spiral = lines(&Path { kind: PathKind::Spiral, centre, rays: None }, size);
        assert_eq!(spiral, vec![rings.concat()]);
    }

    #[test]
    fn the_hilbert_curve_starts_at_the_corner_and_steps_to_neighbours() {
        assert_eq!(hilbert_cell(8, 0), (0, 0));
        assert_eq!(hilbert_cell(8, 63), (7, 0));
        assert_eq!((0..4).map(|d| hilbert_cell(2, d)).collect::<Vec<_>>(), [(0, 0), (0, 1), (1, 1), (1, 0)]);
        for side in [1, 2, 4, 16, 64] {
            let cells: Vec<_> =
                (0..u64::from(side) * u64::from(side)).map(|d| hilbert_cell(side, d)).collect();
            for pair in cells.windows(2) {
                let step = pair[0].0.abs_diff(pair[1].0) + pair[0].1.abs_diff(pair[1].1);
                assert_eq!(step, 1, "side {side}: {pair:?}");
            }
        }
        // A 3x2 picture: the 4x4 curve (0,0) (1,0) (1,1) (0,1), out of it and back in at (2,1),
        // (2,0), then out to its end at (3,0).
        let hilbert = lines(&Path::around_middle(PathKind::Hilbert, (3, 2)), (3, 2));
        assert_eq!(hilbert, vec![vec![0, 1, 4, 3, 5, 2]]);
    }

    #[test]
    fn rays_default_to_about_a_pixel_apart_at_the_farthest_corner() {
        let path = Path::around_middle(PathKind::Rays, (60, 80));
        // The corner is 50 pixels away: ceil(2π · 50) = 315.
        assert_eq!(ray_count(&path, (60, 80)), 315);
        assert_eq!(ray_count(&Path { rays: Some(7), ..path }, (60, 80)), 7);
    }
}
