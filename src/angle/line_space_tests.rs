//! The line layouts of angles, checked: every pixel laid out once on 8-connected lines, the
//! axes and their reverses, a diagonal's anti-diagonals, and interval maps that take the picture
//! and fix the padding.

use super::*;
use crate::picture::patterns::random_image;
use crate::reference::lines;

/// Every 7.5° from -360 to 360, the axes and diagonals with 1e-9 either side, and a few
/// awkward ones.
fn angles() -> Vec<f64> {
    let mut angles: Vec<f64> = (-48..=48).map(|k| f64::from(k) * 7.5).collect();
    for base in [0.0, 45.0, 90.0, 135.0, 180.0, 225.0, 270.0, 315.0, 360.0] {
        angles.extend([base - 1e-9, base, base + 1e-9]);
    }
    angles.extend([89.9999, 0.0001, 1.0, 26.565051177, 63.43494882, 200.0, -33.3, 1e9]);
    angles
}

const SIZES: [(u32, u32); 14] = [
    (1, 1),
    (1, 9),
    (9, 1),
    (2, 2),
    (3, 5),
    (5, 3),
    (7, 7),
    (13, 4),
    (4, 13),
    (63, 5),
    (64, 5),
    (65, 5),
    (5, 64),
    (31, 20),
];

/// Checks everything a layout promises; `what` names it in messages.
fn check_layout(space: &LineSpace, angle: Angle, what: &str) {
    let (w, h) = space.picture_size();
    let (lw, lines) = space.size();
    assert_eq!(u64::from(lines), line_count(w, h, angle), "{what}: line count");
    // Every picture pixel sits in exactly one line-space cell, and that cell holds it.
    let mut seen = vec![false; (lw * lines) as usize];
    for (index, &place) in space.places().iter().enumerate() {
        assert!(!std::mem::replace(&mut seen[place as usize], true), "{what}: cell {place} twice");
        let (line, position) = (place / lw, place % lw);
        assert_eq!(space.pixel_at(line as usize, position as usize), Some(index), "{what}");
    }
    assert_eq!(seen.iter().filter(|s| **s).count(), (w * h) as usize, "{what}");
    let (dx, dy) = (angle.degrees().to_radians().cos(), angle.degrees().to_radians().sin());
    let mut longest = 0;
    for line in 0..lines as usize {
        // Real pixels first, then only padding: contiguous and left-aligned, none empty.
        let real: Vec<usize> = (0..lw as usize).map_while(|p| space.pixel_at(line, p)).collect();
        assert!(!real.is_empty(), "{what}: line {line} is empty");
        assert!(
            (real.len()..lw as usize).all(|p| space.pixel_at(line, p).is_none()),
            "{what}: line {line} has a gap"
        );
        longest = longest.max(real.len());
        // Consecutive pixels are 8-neighbours, each step along the sort direction.
        let xy = |i: usize| ((i % w as usize) as f64, (i / w as usize) as f64);
        for pair in real.windows(2) {
            let ((x0, y0), (x1, y1)) = (xy(pair[0]), xy(pair[1]));
            let step = (x1 - x0, y1 - y0);
            assert!(
                step.0.abs() <= 1.0 && step.1.abs() <= 1.0 && step != (0.0, 0.0),
                "{what}: line {line} jumps {step:?}"
            );
            assert!(step.0 * dx + step.1 * dy > 0.0, "{what}: line {line} steps {step:?} backwards");
        }
        // A long line as a whole points along the angle, within what rounding allows.
        if real.len() >= 8 {
            let ((x0, y0), (x1, y1)) = (xy(real[0]), xy(*real.last().unwrap()));
            let (lx, ly) = (x1 - x0, y1 - y0);
            let cos = (lx * dx + ly * dy) / (lx.hypot(ly));
            let allowed = (1.0 / (real.len() - 1) as f64).atan().cos() - 1e-9;
            assert!(cos >= allowed, "{what}: line {line} runs along {lx},{ly}");
        }
    }
    assert_eq!(longest, lw as usize, "{what}: the line-space width is the longest line");
    // Gather then scatter is the identity; gather puts padding where the layout has none.
    let picture = random_image(w, h, u64::from(w * 31 + h));
    let gathered = space.gather(&picture);
    assert!(space.scatter(&gathered) == picture, "{what}: scatter(gather) is not the identity");
    let mut before: Vec<[u8; 4]> = picture.pixels().map(|p| p.0).collect();
    let mut after: Vec<[u8; 4]> = (0..lines as usize)
        .flat_map(|l| (0..lw as usize).filter_map(move |p| space.pixel_at(l, p).map(|_| (l, p))))
        .map(|(l, p)| gathered.get_pixel(p as u32, l as u32).0)
        .collect();
    before.sort_unstable();
    after.sort_unstable();
    assert_eq!(before, after, "{what}: line space holds another multiset of pixels");
}

#[test]
fn every_angle_lays_every_pixel_out_once_on_8_connected_lines() {
    for degrees in angles() {
        let angle = Angle::new(degrees).unwrap();
        for (w, h) in SIZES {
            let space = LineSpace::new(w, h, angle);
            check_layout(&space, angle, &format!("{degrees}° on {w}x{h}"));
        }
    }
}

#[test]
fn rows_and_columns_are_the_axes_and_their_reverses_mirror_them() {
    let picture = random_image(13, 4, 7);
    let space = |d: f64| LineSpace::new(13, 4, Angle::new(d).unwrap());
    // 0°: line space is the picture; 90°: its transpose (line x is column x).
    assert!(space(0.0).gather(&picture) == picture);
    let columns = space(90.0).gather(&picture);
    assert_eq!(lines(&columns, Axis::Rows), lines(&picture, Axis::Columns));
    // 180° and 270°: the same lines, each read backwards; no padding on any axis.
    let mirrored = |l: Vec<Vec<[u8; 4]>>| -> Vec<Vec<[u8; 4]>> {
        l.into_iter()
            .map(|mut line| {
                line.reverse();
                line
            })
            .collect()
    };
    assert_eq!(lines(&space(180.0).gather(&picture), Axis::Rows), mirrored(lines(&picture, Axis::Rows)));
    assert_eq!(lines(&space(270.0).gather(&picture), Axis::Rows), mirrored(lines(&picture, Axis::Columns)));
    for d in [0.0, 90.0, 180.0, 270.0, -90.0] {
        assert!(!space(d).has_padding(), "{d}°");
    }
    assert!(space(45.0).has_padding());
}

#[test]
fn a_diagonal_is_the_anti_diagonals_of_the_picture() {
    // 45° on 3x3: lines y - x, numbered from 0 at the top right corner.
    let space = LineSpace::new(3, 3, Angle::new(45.0).unwrap());
    assert_eq!(space.size(), (3, 5));
    let line = |l: usize| -> Vec<usize> { (0..3).filter_map(|p| space.pixel_at(l, p)).collect() };
    assert_eq!(line(0), [2]);
    assert_eq!(line(1), [1, 5]);
    assert_eq!(line(2), [0, 4, 8]);
    assert_eq!(line(4), [6]);
    // 225° runs the same lines the other way.
    let back = LineSpace::new(3, 3, Angle::new(225.0).unwrap());
    assert_eq!((0..3).filter_map(|p| back.pixel_at(2, p)).collect::<Vec<_>>(), [8, 4, 0]);
    assert_eq!(space.padding_cells(), 15 - 9);
}

#[test]
fn interval_maps_take_the_picture_and_fix_the_padding() {
    use crate::intervals::{IntervalMode, Threshold};
    let picture = random_image(17, 11, 3);
    let settings = IntervalSettings {
        mode: IntervalMode::Threshold,
        threshold: Threshold::new(0.2, 0.7).unwrap(),
        ..Default::default()
    };
    let outside = crate::intervals::threshold::outside(&picture, settings.key, settings.threshold);
    assert!(outside.iter().any(|o| *o) && !outside.iter().all(|o| *o));
    for degrees in [30.0, 100.0, 225.0] {
        let space = LineSpace::new(17, 11, Angle::new(degrees).unwrap());
        let map = space.interval_map(&picture, &settings, None).unwrap();
        assert_eq!((map.width(), map.height(), map.axis()), (space.size().0, space.size().1, Axis::Rows));
        let (lw, lines) = space.size();
        for line in 0..lines as usize {
            for position in 0..lw as usize {
                let cell = line * lw as usize + position;
                match space.pixel_at(line, position) {
                    None => assert!(!map.can_move(cell), "{degrees}°: padding can move"),
                    Some(p) if outside[p] => assert!(!map.can_move(cell), "{degrees}°: {p} is outside"),
                    Some(_) => {}
                }
            }
        }
        // Whole lines are the map of no intervals.
        assert_eq!(
            space.whole_lines(),
            Some(&space.interval_map(&picture, &IntervalSettings::default(), None).unwrap())
        );
        // The summary counts the picture's pixels only.
        let summary = space.summary(&map);
        assert_eq!(summary.fixed + moving_pixels(&map), 17 * 11, "{degrees}°");
    }
}

/// Pixels in intervals of two or more.
fn moving_pixels(map: &IntervalMap) -> u64 {
    (0..map.height() as usize)
        .flat_map(|l| map.intervals(l))
        .filter(|r| r.len() > 1)
        .map(|r| r.len() as u64)
        .sum()
}
