//! Sorting along lines at an angle on the GPU: odd-even (compute and fragment), bubble, the
//! radix view and the bitonic network (in the device's blocks and in blocks of 16), each
//! started from a picture texture, gathered into line space and scattered back by the GPU,
//! equal the CPU model (the same algorithm on the gathered picture, scattered on the CPU) after
//! every step, in line space and in the picture; every line stays a permutation of its pixels
//! with the padding untouched; all end in the same picture, each line (or interval) stably sorted;
//! whole lines, within a threshold, within edge intervals and under masks (whose fixed pixels are
//! checked against the picture itself), on awkward sizes, in both orders, on every backend.

mod common;

use common::on_every_gpu;
use image::RgbaImage;
use shadersort::algorithms::bitonic::Bitonic;
use shadersort::algorithms::interval_texture::IntervalMapError;
use shadersort::algorithms::odd_even::PassKind;
use shadersort::algorithms::ping_pong::StartPicture;
use shadersort::algorithms::radix::RadixSettings;
use shadersort::algorithms::request::StartRequest;
use shadersort::algorithms::swap_reader::SwapReader;
use shadersort::algorithms::{Algorithm, Pipelines, RunSettings, SortRun, run_until};
use shadersort::angle::scatter::LineScatter;
use shadersort::angle::{Angle, AngledRun, LineSpace, Lines};
use shadersort::gpu::Gpu;
use shadersort::gpu::readback::read_texture;
use shadersort::gpu::texture::picture_texture;
use shadersort::intervals::edges::edge_pixels;
use shadersort::intervals::threshold::outside;
use shadersort::intervals::{IntervalMap, IntervalMode, IntervalSettings, Mask, Threshold};
use shadersort::keys::SortKey;
use shadersort::keys::options::{Axis, Scope, SortOptions};
use shadersort::keys::radix_key::RadixKey;
use shadersort::picture::patterns::{SplitMix64, random_image};
use shadersort::reference::bitonic::BitonicModel;
use shadersort::reference::radix::{RadixPlan, Sequences, radix_steps_within};
use shadersort::reference::{
    fixed_pixels_stay, lines_are_permutations, odd_even_pass_within, stable_sort_within,
};
use std::sync::Arc;

/// What every test here builds once per device.
struct Kit {
    odd_even: Pipelines,
    bubble: Pipelines,
    radix: Pipelines,
    bitonic: Pipelines,
    /// Bitonic in blocks of 16: longer lines span blocks, so stages reach across them.
    bitonic_16: Pipelines,
    scatter: LineScatter,
}

impl Kit {
    fn new(gpu: &Gpu) -> Self {
        Kit {
            odd_even: Pipelines::new(gpu, Algorithm::OddEven),
            bubble: Pipelines::new(gpu, Algorithm::Bubble),
            radix: Pipelines::new(gpu, Algorithm::Radix),
            bitonic: Pipelines::new(gpu, Algorithm::Bitonic),
            bitonic_16: Pipelines::Bitonic(Bitonic::with_max_block(gpu, 16)),
            scatter: LineScatter::new(gpu),
        }
    }
}

/// One case: a picture, its line space and the map line space is sorted within.
struct Case {
    what: String,
    picture: RgbaImage,
    space: Arc<LineSpace>,
    /// The intervals in line space (`None`: whole lines).
    intervals: Option<IntervalMap>,
    /// What the sort runs within: the intervals, or whole lines with the padding fixed.
    map: IntervalMap,
    /// Line space as gathered.
    lines: RgbaImage,
    options: SortOptions,
}

impl Case {
    fn new(
        degrees: f64,
        (w, h): (u32, u32),
        key: SortKey,
        descending: bool,
        threshold: Option<(f64, f64)>,
    ) -> Self {
        let settings = match threshold {
            Some((lo, hi)) => IntervalSettings {
                mode: IntervalMode::Threshold,
                threshold: Threshold::new(lo, hi).unwrap(),
                ..Default::default()
            },
            None => IntervalSettings::default(),
        };
        Case::within(degrees, (w, h), key, descending, &settings, None)
    }

    /// A case within the intervals `settings` and `mask` make along the lines (whole lines when
    /// they make none).
    fn within(
        degrees: f64,
        (w, h): (u32, u32),
        key: SortKey,
        descending: bool,
        settings: &IntervalSettings,
        mask: Option<&Mask>,
    ) -> Self {
        let angle = Angle::new(degrees).unwrap();
        let picture = random_image(w, h, (degrees.abs() as u64) * 1000 + u64::from(w * 7 + h));
        let space = Arc::new(LineSpace::new(w, h, angle));
        let has_intervals = settings.mode != IntervalMode::None || mask.is_some();
        let intervals = has_intervals.then(|| space.interval_map(&picture, settings, mask).unwrap());
        let map = intervals
            .clone()
            .unwrap_or_else(|| space.interval_map(&picture, &IntervalSettings::default(), None).unwrap());
        let lines = space.gather(&picture);
        let options = SortOptions { key, descending, axis: Axis::Rows };
        let what = format!(
            "{degrees}° {w}x{h} {key:?} descending {descending} {:?} mask {}",
            settings.relevant(),
            mask.is_some()
        );
        Case { what, picture, space, intervals, map, lines, options }
    }

    /// Starts from the picture as a texture already on the GPU, as a clip's frame does (the
    /// runs through [`Lines`] below start from the picture on the CPU).
    fn start(&self, gpu: &Gpu, kit: &Kit, pipelines: &Pipelines, settings: RunSettings) -> AngledRun {
        let texture = picture_texture(gpu, &self.picture, "test::picture");
        AngledRun::start(
            gpu,
            pipelines,
            &kit.scatter,
            self.space.clone(),
            StartRequest::of(StartPicture::Texture(texture), self.options)
                .settings(settings)
                .within(self.intervals.as_ref()),
        )
        .unwrap()
    }

    /// Checks a state in line space against the model there, and the picture against the
    /// model scattered on the CPU.
    fn check_state(&self, gpu: &Gpu, run: &AngledRun, model: &RgbaImage, at: &str) {
        let lines = read_texture(gpu, run.line_state()).unwrap();
        assert!(lines == *model, "{} {at}: line space differs from the model", self.what);
        assert!(
            lines_are_permutations(&self.lines, &lines, Axis::Rows),
            "{} {at}: a line lost a pixel",
            self.what
        );
        assert!(
            fixed_pixels_stay(&self.lines, &lines, &self.map),
            "{} {at}: padding or a fixed pixel moved",
            self.what
        );
        let picture = read_texture(gpu, run.state()).unwrap();
        assert!(picture == self.space.scatter(model), "{} {at}: the scattered picture differs", self.what);
    }
}

/// Runs one step at a time, handing each step's count and swaps to `check`; returns the run.
fn step_through(gpu: &Gpu, mut run: AngledRun, mut check: impl FnMut(&AngledRun, u32, u64)) -> AngledRun {
    let reader = SwapReader::new(gpu, &run);
    while run.steps_done() < run.total_steps() {
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        assert_eq!(run.record_steps(&mut encoder, 1), 1);
        gpu.queue.submit([encoder.finish()]);
        reader.collect(gpu, &mut run).unwrap();
        let swaps = u64::from(run.stats().last_step_swaps.unwrap());
        check(&run, run.steps_done(), swaps);
    }
    run
}

/// Every algorithm on `case`, against the model after every step; all end in the model's
/// end, which holds the picture's pixels.
fn check_all(gpu: &Gpu, kit: &Kit, case: &Case) {
    let options = case.options;
    let expected_lines = stable_sort_within(&case.lines, &options, &case.map);
    let expected = case.space.scatter(&expected_lines);
    let passes = case.map.max_interval_len();
    let mut finals = Vec::new();

    for pass_kind in [PassKind::Compute, PassKind::Fragment] {
        let run = case.start(gpu, kit, &kit.odd_even, RunSettings { pass_kind, ..Default::default() });
        assert_eq!(run.total_steps(), passes, "{}: passes are the longest interval", case.what);
        case.check_state(gpu, &run, &case.lines, "odd-even start");
        let mut model = case.lines.clone();
        let run = step_through(gpu, run, |run, step, swaps| {
            let model_swaps = odd_even_pass_within(&mut model, &options, Some(&case.map), step - 1);
            case.check_state(gpu, run, &model, &format!("{pass_kind:?} pass {step}"));
            assert_eq!(swaps, model_swaps, "{}: swaps of pass {step}", case.what);
        });
        finals.push((format!("odd-even {pass_kind:?}"), read_texture(gpu, run.state()).unwrap()));
    }

    let run = case.start(gpu, kit, &kit.bubble, RunSettings { phases_per_step: 3, ..Default::default() });
    let mut model = case.lines.clone();
    let mut phases = 0;
    let run = step_through(gpu, run, |run, step, swaps| {
        let end = (3 * step).min(passes);
        let model_swaps: u64 =
            (phases..end).map(|p| odd_even_pass_within(&mut model, &options, Some(&case.map), p)).sum();
        phases = end;
        case.check_state(gpu, run, &model, &format!("bubble step {step}"));
        assert_eq!(swaps, model_swaps, "{}: bubble swaps of step {step}", case.what);
    });
    finals.push(("bubble".into(), read_texture(gpu, run.state()).unwrap()));

    let radix = RadixSettings::default();
    let run = case.start(gpu, kit, &kit.radix, RunSettings { radix, ..Default::default() });
    let key = RadixKey::new(options, None).unwrap().with_interval_bits(case.map.interval_bits()).unwrap();
    let plan = RadixPlan { key, digit_bits: radix.digit_bits, stages: 1, twin_indices: false };
    assert_eq!(run.total_steps(), plan.steps(), "{}: digit passes", case.what);
    let (width, height) = case.lines.dimensions();
    let seqs = Sequences { width, height, axis: Axis::Rows, scope: Scope::Rows };
    let (_, model_moved) = radix_steps_within(&case.lines, seqs, &plan, Some(&case.map), plan.steps());
    let run = step_through(gpu, run, |run, step, moved| {
        let (model, _) = radix_steps_within(&case.lines, seqs, &plan, Some(&case.map), step);
        // Digit passes before the interval id's carry pixels across intervals (not out of their
        // line); the padding is an interval of its own, so only the end must keep it in place.
        let lines = read_texture(gpu, run.line_state()).unwrap();
        assert!(lines == model, "{}: radix pass {step} differs from the model", case.what);
        assert!(lines_are_permutations(&case.lines, &lines, Axis::Rows), "{}: radix pass {step}", case.what);
        let picture = read_texture(gpu, run.state()).unwrap();
        assert!(picture == case.space.scatter(&model), "{}: radix pass {step} scattered", case.what);
        assert_eq!(moved, model_moved[step as usize - 1], "{}: pixels moved by pass {step}", case.what);
    });
    let radix_lines = read_texture(gpu, run.line_state()).unwrap();
    assert!(fixed_pixels_stay(&case.lines, &radix_lines, &case.map), "{}: radix moved padding", case.what);
    finals.push(("radix".into(), read_texture(gpu, run.state()).unwrap()));

    // The bitonic network, one stage per step: the model's stage (within the same map, so the
    // padding sorts as fixed pixels) after every stage, with exactly its exchanges.
    for (name, pipelines) in [("bitonic", &kit.bitonic), ("bitonic in blocks of 16", &kit.bitonic_16)] {
        let run = case.start(gpu, kit, pipelines, RunSettings::default());
        let mut model = BitonicModel::new(&case.lines, options, Some(&case.map));
        assert_eq!(run.total_steps(), model.stages(), "{}: {name} stages", case.what);
        case.check_state(gpu, &run, &case.lines, &format!("{name} start"));
        let run = step_through(gpu, run, |run, step, swaps| {
            let exchanges = model.step();
            case.check_state(gpu, run, model.state(), &format!("{name} stage {step}"));
            assert_eq!(swaps, exchanges, "{}: {name} exchanges of stage {step}", case.what);
        });
        finals.push((name.into(), read_texture(gpu, run.state()).unwrap()));
    }

    let mut input: Vec<[u8; 4]> = case.picture.pixels().map(|p| p.0).collect();
    input.sort_unstable();
    for (name, picture) in &finals {
        assert!(*picture == expected, "{}: {name} does not end in the model's picture", case.what);
        let mut output: Vec<[u8; 4]> = picture.pixels().map(|p| p.0).collect();
        output.sort_unstable();
        assert!(output == input, "{}: {name} lost or duplicated a pixel", case.what);
    }
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
            check_all(gpu, &kit, &Case::new(degrees, size, key, descending, threshold));
        }
    });
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
            let case = Case::within(degrees, size, key, descending, &settings, mask.as_ref());
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
}

/// A run restarted in a threshold's intervals, then in none, sorts as a fresh run would, and the
/// padding stays fixed without intervals too; a sort started through [`Lines`] is the
/// same sort.
#[test]
fn restarts_keep_the_padding_fixed_and_lines_start_the_same_sort() {
    let case = Case::new(30.0, (19, 11), SortKey::Luma, false, Some((0.2, 0.7)));
    let whole = Case::new(30.0, (19, 11), SortKey::Luma, false, None);
    let threshold = case.intervals.clone().unwrap();
    on_every_gpu(|gpu| {
        let kit = Kit::new(gpu);
        for pipelines in [&kit.odd_even, &kit.bubble, &kit.radix, &kit.bitonic] {
            let sort = |run: &mut AngledRun| {
                run_until(gpu, run, u32::MAX, |_| true).unwrap();
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
            run_until(gpu, run.as_mut(), u32::MAX, |_| true).unwrap();
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
}
