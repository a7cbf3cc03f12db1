//! Sorting along lines at an angle on the GPU: odd-even (compute and fragment), bubble, the
//! radix view and the bitonic network (in the device's blocks and in blocks of 16), each
//! started from a picture texture, gathered into line space and scattered back by the GPU,
//! equal the CPU model (the same algorithm on the gathered picture, scattered on the CPU) after
//! every step, in line space and in the picture; every line stays a permutation of its pixels
//! with the padding untouched; all end in the same picture, each line (or interval) stably sorted;
//! whole lines, within a threshold, within edge intervals and under masks (whose fixed pixels are
//! checked against the picture itself), on awkward sizes, in both orders, on every backend.

mod common;
#[path = "common/laid_lines.rs"]
mod laid_lines;

use common::on_every_gpu;
use laid_lines::{Case, Kit, check_all};
use shadersort::algorithms::interval_texture::IntervalMapError;
use shadersort::algorithms::radix::RadixSettings;
use shadersort::algorithms::request::StartRequest;
use shadersort::algorithms::{RunSettings, SortRun};
use shadersort::angle::{Angle, AngledRun, LineSpace, Lines};
use shadersort::engine::drive::run_to;
use shadersort::gpu::readback::read_texture;
use shadersort::intervals::edges::edge_pixels;
use shadersort::intervals::threshold::outside;
use shadersort::intervals::{IntervalMap, IntervalMode, IntervalSettings, Mask, Threshold};
use shadersort::keys::SortKey;
use shadersort::keys::options::{Axis, Scope, SortOptions};
use shadersort::picture::patterns::{SplitMix64, random_image};
use shadersort::reference::stable_sort_within;

/// A case at `degrees` on seeded noise, whole lines or within a threshold.
fn at_angle(
    degrees: f64,
    (w, h): (u32, u32),
    key: SortKey,
    descending: bool,
    threshold: Option<(f64, f64)>,
) -> Case {
    let settings = match threshold {
        Some((lo, hi)) => IntervalSettings {
            mode: IntervalMode::Threshold,
            threshold: Threshold::new(lo, hi).unwrap(),
            ..Default::default()
        },
        None => IntervalSettings::default(),
    };
    at_angle_within(degrees, (w, h), key, descending, &settings, None)
}

/// A case at `degrees` within the intervals `settings` and `mask` make along the lines (whole
/// lines when they make none).
fn at_angle_within(
    degrees: f64,
    (w, h): (u32, u32),
    key: SortKey,
    descending: bool,
    settings: &IntervalSettings,
    mask: Option<&Mask>,
) -> Case {
    let angle = Angle::new(degrees).unwrap();
    let picture = random_image(w, h, (degrees.abs() as u64) * 1000 + u64::from(w * 7 + h));
    let space = LineSpace::new(w, h, angle);
    let what = format!(
        "{degrees}° {w}x{h} {key:?} descending {descending} {:?} mask {}",
        settings.relevant(),
        mask.is_some()
    );
    Case::laid(what, space, picture, (key, descending), settings, mask)
}

#[test]
fn every_algorithm_matches_the_model_at_many_angles_and_sizes() {
    let cases = [
        (30.0, (17, 9), SortKey::Luma, false, None),
        (45.0, (8, 8), SortKey::Hue, true, None),
        (135.0, (5, 12), SortKey::Red, false, Some((0.2, 0.8))),
        (200.0, (23, 6), SortKey::Saturation, false, None),
        (-60.0, (9, 14), SortKey::Luma, true, Some((0.1, 0.7))),
        (89.9, (6, 11), SortKey::Value, false, None),
        (180.0, (13, 4), SortKey::Luma, false, None),
        (270.0, (4, 9), SortKey::Blue, true, Some((0.3, 1.0))),
        (251.0, (1, 1), SortKey::Luma, false, None),
        (10.0, (7, 1), SortKey::Green, false, None),
        (100.0, (1, 7), SortKey::Luma, true, Some((0.0, 0.6))),
        (22.5, (65, 3), SortKey::Luma, false, Some((0.25, 0.75))),
    ];
    on_every_gpu(|gpu| {
        let kit = Kit::new(gpu);
        for (degrees, size, key, descending, threshold) in cases {
            check_all(gpu, &kit, &at_angle(degrees, size, key, descending, threshold));
        }
    });
    crate::common::ci::passed();
}

/// Which mask a case sorts under.
#[derive(Clone, Copy, Debug)]
enum Masked {
    No,
    /// About two thirds of the pixels white, from a seed.
    Random,
    /// Every pixel black: nothing may move.
    Black,
    /// Every pixel white: the intervals are the mode's alone.
    White,
}

impl Masked {
    fn mask(self, (w, h): (u32, u32), seed: u64) -> Option<Mask> {
        let mut rng = SplitMix64::new(seed);
        match self {
            Masked::No => None,
            Masked::Random => Some(Mask::from_fn(w, h, |_, _| !rng.next_u32().is_multiple_of(3))),
            Masked::Black => Some(Mask::from_fn(w, h, |_, _| false)),
            Masked::White => Some(Mask::from_fn(w, h, |_, _| true)),
        }
    }
}

/// The map made at an angle, against the picture itself: every line-space cell whose picture pixel
/// the mode or the mask fixes (per `fixed`, row-major in the picture), and every padding cell, is
/// an interval of its own, and every other interval is a longest stretch of the cells left; so an
/// interval that crosses a fixed pixel, or stops one pixel short of it, fails here.
fn check_map_fixes_what_the_picture_says(case: &Case, fixed: &[bool]) {
    let intervals = case.intervals.as_ref().expect("a case within intervals");
    let (width, lines) = case.space.size();
    let width = width as usize;
    for line in 0..lines as usize {
        let stays = |p: usize| case.space.pixel_at(line, p).is_none_or(|i| fixed[i]);
        let mut expected = Vec::new();
        let mut p = 0;
        while p < width {
            let mut end = p + 1;
            while !stays(p) && end < width && !stays(end) {
                end += 1;
            }
            expected.push(p..end);
            p = end;
        }
        assert_eq!(intervals.intervals(line), expected, "{}: the intervals of line {line}", case.what);
    }
}

/// Edge intervals and masks at an angle (alone, together, and with a threshold): the map fixes
/// exactly the picture pixels on edges, outside the threshold or under black, every algorithm
/// matches the model within it after every step, and those pixels end where they were; on
/// awkward sizes (1x1, 1xN, Nx1, lines of 63, 64 and 65), in both orders.
#[test]
fn every_algorithm_matches_the_model_at_angles_within_edges_and_masks() {
    let edges = |edge_level| IntervalSettings { mode: IntervalMode::Edges, edge_level, ..Default::default() };
    let threshold = |lo, hi| IntervalSettings {
        mode: IntervalMode::Threshold,
        threshold: Threshold::new(lo, hi).unwrap(),
        ..Default::default()
    };
    let none = IntervalSettings::default();
    let cases = [
        (30.0, (17, 9), SortKey::Luma, false, edges(0.35), Masked::No),
        (135.0, (9, 14), SortKey::Hue, true, edges(0.3), Masked::Random),
        (-45.0, (12, 12), SortKey::Red, false, none, Masked::Random),
        (200.0, (23, 6), SortKey::Saturation, true, threshold(0.1, 0.8), Masked::Random),
        (60.0, (1, 9), SortKey::Luma, false, edges(0.35), Masked::No),
        (10.0, (9, 1), SortKey::Value, true, none, Masked::Random),
        (251.0, (1, 1), SortKey::Luma, false, edges(0.2), Masked::Random),
        (2.0, (65, 3), SortKey::Luma, false, edges(0.4), Masked::No),
        (1.0, (64, 2), SortKey::Blue, true, none, Masked::Random),
        (300.0, (7, 63), SortKey::Green, false, edges(0.35), Masked::Random),
        (75.0, (11, 8), SortKey::Luma, false, none, Masked::Black),
        (160.0, (10, 7), SortKey::Luma, true, edges(1.0), Masked::White),
    ];
    on_every_gpu(|gpu| {
        let kit = Kit::new(gpu);
        for (i, (degrees, size, key, descending, settings, masked)) in cases.into_iter().enumerate() {
            let mask = masked.mask(size, 60 + i as u64);
            let case = at_angle_within(degrees, size, key, descending, &settings, mask.as_ref());
            let picture = &case.picture;
            // What fixes a pixel, read off the picture directly.
            let mut fixed = match settings.mode {
                IntervalMode::Edges => edge_pixels(picture, settings.key, settings.edge_level),
                IntervalMode::Threshold => outside(picture, settings.key, settings.threshold),
                _ => vec![false; (size.0 * size.1) as usize],
            };
            if let Some(mask) = &mask {
                fixed.iter_mut().enumerate().for_each(|(i, f)| *f |= !mask.is_sortable(i));
            }
            check_map_fixes_what_the_picture_says(&case, &fixed);
            check_all(gpu, &kit, &case);
            let end = case.space.scatter(&stable_sort_within(&case.lines, &case.options, &case.map));
            for (i, _) in fixed.iter().enumerate().filter(|(_, f)| **f) {
                let (x, y) = (i as u32 % size.0, i as u32 / size.0);
                assert_eq!(end.get_pixel(x, y), picture.get_pixel(x, y), "{}: fixed pixel {i}", case.what);
            }
            // The cases mean something: pixels fixed and intervals to sort, except where nothing
            // can be.
            let movable = size.0 * size.1 > 1 && !matches!(masked, Masked::Black);
            assert_eq!(case.map.max_interval_len() > 1, movable, "{}: intervals to sort", case.what);
            if size.0 * size.1 > 1 {
                let fixes = !matches!(masked, Masked::White);
                assert_eq!(fixed.contains(&true), fixes, "{}: pixels fixed", case.what);
            }
        }
    });
    crate::common::ci::passed();
}

/// A run restarted in a threshold's intervals, then in none, sorts as a fresh run would, and the
/// padding stays fixed without intervals too; a sort started through [`Lines`] is the
/// same sort.
#[test]
fn restarts_keep_the_padding_fixed_and_lines_start_the_same_sort() {
    let case = at_angle(30.0, (19, 11), SortKey::Luma, false, Some((0.2, 0.7)));
    let whole = at_angle(30.0, (19, 11), SortKey::Luma, false, None);
    let threshold = case.intervals.clone().unwrap();
    on_every_gpu(|gpu| {
        let kit = Kit::new(gpu);
        for pipelines in [&kit.odd_even, &kit.bubble, &kit.radix, &kit.bitonic] {
            let sort = |run: &mut AngledRun| {
                run_to(gpu, run, u32::MAX, |_| true).unwrap();
                read_texture(gpu, run.state()).unwrap()
            };
            let restart = |run: &mut AngledRun, intervals: Option<&IntervalMap>| {
                let mut encoder = gpu.device.create_command_encoder(&Default::default());
                run.restart_within(gpu, &mut encoder, intervals).unwrap();
                gpu.queue.submit([encoder.finish()]);
                assert!(read_texture(gpu, run.state()).unwrap() == case.picture, "a restart shows the input");
            };
            let ends = |c: &Case| c.space.scatter(&stable_sort_within(&c.lines, &c.options, &c.map));
            let mut run = whole.start(gpu, &kit, pipelines, RunSettings::default());
            assert!(sort(&mut run) == ends(&whole), "whole lines");
            restart(&mut run, Some(&threshold));
            assert!(sort(&mut run) == ends(&case), "within the threshold");
            restart(&mut run, None);
            assert!(sort(&mut run) == ends(&whole), "whole lines again: the padding stayed fixed");
            let mut encoder = gpu.device.create_command_encoder(&Default::default());
            run.restart(&mut encoder);
            gpu.queue.submit([encoder.finish()]);
            assert!(read_texture(gpu, run.state()).unwrap() == case.picture, "restart shows the input");

            let lines = Lines::new(Angle::new(30.0).unwrap(), (19, 11), 16384).unwrap();
            let options = SortOptions { axis: Axis::Columns, ..case.options };
            let mut run = lines
                .start(
                    gpu,
                    pipelines,
                    &kit.scatter,
                    StartRequest::new(&case.picture, options).within(Some(&threshold)),
                )
                .unwrap();
            run_to(gpu, run.as_mut(), u32::MAX, |_| true).unwrap();
            assert!(read_texture(gpu, run.state()).unwrap() == ends(&case), "through Lines");
        }
        let image = RunSettings {
            radix: RadixSettings { scope: Scope::Image, ..Default::default() },
            ..Default::default()
        };
        let e = AngledRun::start(
            gpu,
            &kit.radix,
            &kit.scatter,
            case.space.clone(),
            StartRequest::new(&case.picture, case.options).settings(image),
        )
        .err()
        .unwrap();
        assert_eq!(e, IntervalMapError::WholePictureAtAngle);
    });
    crate::common::ci::passed();
}
