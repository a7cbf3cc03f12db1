//! Sorting along lines at an angle on the GPU: odd-even (compute and fragment), bubble and the
//! radix view, each gathered into line space and scattered back by the GPU, equal the CPU
//! model (the same algorithm on the gathered picture, scattered on the CPU) after every step,
//! in line space and in the picture; every line stays a permutation of its pixels with the
//! padding untouched; all end in the same picture, each line (or run) stably sorted; whole
//! lines and within a threshold, on awkward sizes, in both orders, on every backend under test.

mod common;

use common::on_every_gpu;
use image::RgbaImage;
use shadersort::algorithms::odd_even::PassKind;
use shadersort::algorithms::radix::RadixSettings;
use shadersort::algorithms::runs::RunsError;
use shadersort::algorithms::swap_reader::SwapReader;
use shadersort::algorithms::{Algorithm, Pipelines, RunSettings, SortRun, run_until};
use shadersort::angle::scatter::LineScatter;
use shadersort::angle::{Angle, AngledRun, LineSpace, Lines};
use shadersort::gpu::Gpu;
use shadersort::gpu::readback::read_texture;
use shadersort::intervals::{IntervalMode, IntervalSettings, RunMap, Threshold};
use shadersort::keys::SortKey;
use shadersort::keys::options::{Axis, Scope, SortOptions};
use shadersort::keys::radix_key::RadixKey;
use shadersort::picture::patterns::random_image;
use shadersort::reference::radix::{RadixPlan, Sequences, radix_steps_in_runs};
use shadersort::reference::{
    fixed_pixels_stay, lines_are_permutations, odd_even_pass_in_runs, stable_sort_in_runs,
};
use std::sync::Arc;

/// What every test here builds once per device.
struct Kit {
    odd_even: Pipelines,
    bubble: Pipelines,
    radix: Pipelines,
    scatter: LineScatter,
}

impl Kit {
    fn new(gpu: &Gpu) -> Self {
        Kit {
            odd_even: Pipelines::new(gpu, Algorithm::OddEven),
            bubble: Pipelines::new(gpu, Algorithm::Bubble),
            radix: Pipelines::new(gpu, Algorithm::Radix),
            scatter: LineScatter::new(gpu),
        }
    }
}

/// One case: a picture, its line space and the map line space is sorted within.
struct Case {
    what: String,
    picture: RgbaImage,
    space: Arc<LineSpace>,
    /// The interval runs in line space (`None`: whole lines).
    runs: Option<RunMap>,
    /// What the sort runs within: the runs, or whole lines with the padding fixed.
    map: RunMap,
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
        let angle = Angle::new(degrees).unwrap();
        let picture = random_image(w, h, (degrees.abs() as u64) * 1000 + u64::from(w * 7 + h));
        let space = Arc::new(LineSpace::new(w, h, angle));
        let settings = match threshold {
            Some((lo, hi)) => IntervalSettings {
                mode: IntervalMode::Threshold,
                threshold: Threshold::new(lo, hi).unwrap(),
                ..Default::default()
            },
            None => IntervalSettings::default(),
        };
        let runs = threshold.map(|_| space.run_map(&picture, &settings, None).unwrap());
        let map = runs
            .clone()
            .unwrap_or_else(|| space.run_map(&picture, &IntervalSettings::default(), None).unwrap());
        let lines = space.gather(&picture);
        let options = SortOptions { key, descending, axis: Axis::Rows };
        let what = format!("{degrees}° {w}x{h} {key:?} descending {descending} threshold {threshold:?}");
        Case { what, picture, space, runs, map, lines, options }
    }

    fn start(&self, gpu: &Gpu, kit: &Kit, pipelines: &Pipelines, settings: RunSettings) -> AngledRun {
        AngledRun::start(
            gpu,
            pipelines,
            &kit.scatter,
            self.space.clone(),
            &self.picture,
            self.options,
            settings,
            self.runs.as_ref(),
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
    let expected_lines = stable_sort_in_runs(&case.lines, &options, &case.map);
    let expected = case.space.scatter(&expected_lines);
    let passes = case.map.max_run_len();
    let mut finals = Vec::new();

    for pass_kind in [PassKind::Compute, PassKind::Fragment] {
        let run = case.start(gpu, kit, &kit.odd_even, RunSettings { pass_kind, ..Default::default() });
        assert_eq!(run.total_steps(), passes, "{}: passes are the longest run", case.what);
        case.check_state(gpu, &run, &case.lines, "odd-even start");
        let mut model = case.lines.clone();
        let run = step_through(gpu, run, |run, step, swaps| {
            let model_swaps = odd_even_pass_in_runs(&mut model, &options, Some(&case.map), step - 1);
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
            (phases..end).map(|p| odd_even_pass_in_runs(&mut model, &options, Some(&case.map), p)).sum();
        phases = end;
        case.check_state(gpu, run, &model, &format!("bubble step {step}"));
        assert_eq!(swaps, model_swaps, "{}: bubble swaps of step {step}", case.what);
    });
    finals.push(("bubble".into(), read_texture(gpu, run.state()).unwrap()));

    let radix = RadixSettings::default();
    let run = case.start(gpu, kit, &kit.radix, RunSettings { radix, ..Default::default() });
    let key = RadixKey::new(options, None).unwrap().with_run_bits(case.map.run_bits()).unwrap();
    let plan = RadixPlan { key, digit_bits: radix.digit_bits, stages: 1, twin_indices: false };
    assert_eq!(run.total_steps(), plan.steps(), "{}: digit passes", case.what);
    let (width, height) = case.lines.dimensions();
    let seqs = Sequences { width, height, axis: Axis::Rows, scope: Scope::Rows };
    let (_, model_moved) = radix_steps_in_runs(&case.lines, seqs, &plan, Some(&case.map), plan.steps());
    let run = step_through(gpu, run, |run, step, moved| {
        let (model, _) = radix_steps_in_runs(&case.lines, seqs, &plan, Some(&case.map), step);
        // Digit passes before the run id's carry pixels across runs (not out of their line);
        // the padding is a run of its own, so only the end must keep it in place.
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

/// A run restarted in a threshold's runs, then in none, sorts as a fresh run would, and the
/// padding stays fixed without interval runs too; a sort started through [`Lines`] is the
/// same sort.
#[test]
fn restarts_keep_the_padding_fixed_and_lines_start_the_same_sort() {
    let case = Case::new(30.0, (19, 11), SortKey::Luma, false, Some((0.2, 0.7)));
    let whole = Case::new(30.0, (19, 11), SortKey::Luma, false, None);
    let threshold = case.runs.clone().unwrap();
    on_every_gpu(|gpu| {
        let kit = Kit::new(gpu);
        for pipelines in [&kit.odd_even, &kit.bubble, &kit.radix] {
            let sort = |run: &mut AngledRun| {
                run_until(gpu, run, u32::MAX, |_| true).unwrap();
                read_texture(gpu, run.state()).unwrap()
            };
            let restart = |run: &mut AngledRun, runs: Option<&RunMap>| {
                let mut encoder = gpu.device.create_command_encoder(&Default::default());
                run.restart_in_runs(gpu, &mut encoder, runs).unwrap();
                gpu.queue.submit([encoder.finish()]);
                assert!(read_texture(gpu, run.state()).unwrap() == case.picture, "a restart shows the input");
            };
            let ends = |c: &Case| c.space.scatter(&stable_sort_in_runs(&c.lines, &c.options, &c.map));
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
                    &case.picture,
                    options,
                    RunSettings::default(),
                    Some(&threshold),
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
            &case.picture,
            case.options,
            image,
            None,
        )
        .err()
        .unwrap();
        assert_eq!(e, RunsError::WholePictureAtAngle);
    });
}
