//! What each step of odd-even (compute and fragment) and the bubble cost on the GPU, held to a
//! model written from the kernels' definitions: every step's comparisons, swaps, bytes of pixels
//! read and written and workgroup barriers, and the run's totals, along rows, columns, lines at
//! an angle and a path's rings, whole lines and within intervals, on awkward sizes, on every GPU.
//! The model runs the passes and phases itself on the CPU (the bubble's lines each stop on their
//! own, as the kernel's do).

mod common;
#[path = "common/laid_lines.rs"]
#[allow(dead_code, reason = "the harness serves several tests; this one starts runs in line space")]
mod laid_lines;

use common::on_every_gpu;
use common::steps::{AWKWARD_SIZES, start};
use image::RgbaImage;
use laid_lines::{Case, Kit};
use shadersort::algorithms::map_source::MapSource;
use shadersort::algorithms::odd_even::PassKind;
use shadersort::algorithms::work::Work;
use shadersort::algorithms::{Algorithm, Pipelines, RunSettings, SortRun};
use shadersort::angle::path_space::line_space;
use shadersort::angle::{Angle, LineSpace};
use shadersort::engine::drive::Driver;
use shadersort::gpu::Gpu;
use shadersort::intervals::{IntervalMap, IntervalMode, IntervalSettings, Threshold};
use shadersort::keys::SortKey;
use shadersort::keys::options::{Axis, SortOptions};
use shadersort::paths::{Centre, Path, PathKind};
use shadersort::picture::patterns::random_image;

/// The pixels of line `line` of `picture` along `axis`, with their interval ids (all 0 without a
/// map).
fn line_of(picture: &RgbaImage, axis: Axis, map: Option<&IntervalMap>, line: u32) -> Vec<([u8; 4], u32)> {
    let (w, h) = picture.dimensions();
    let len = if axis == Axis::Rows { w } else { h };
    (0..len)
        .map(|pos| {
            let (x, y) = if axis == Axis::Rows { (pos, line) } else { (line, pos) };
            let id = map.map_or(0, |m| m.ids()[(y * w + x) as usize]);
            (picture.get_pixel(x, y).0, id)
        })
        .collect()
}

/// Lines and pixels in each.
fn extent(picture: &RgbaImage, axis: Axis) -> (u32, u32) {
    let (w, h) = picture.dimensions();
    if axis == Axis::Rows { (h, w) } else { (w, h) }
}

/// One odd-even transposition phase `p` over `line`, by the definition: the pairs `(x - 1, x)`
/// with `x` of `p`'s parity swap when the left key is greater and both lie in one interval.
/// Returns the pairs compared and the swaps.
fn phase(line: &mut [([u8; 4], u32)], options: &SortOptions, p: u32) -> (u64, u64) {
    let (mut pairs, mut swaps) = (0, 0);
    for x in (1..line.len()).filter(|x| x % 2 == p as usize % 2) {
        pairs += 1;
        let (a, b) = (line[x - 1], line[x]);
        if options.order_key(a.0) > options.order_key(b.0) && a.1 == b.1 {
            line.swap(x - 1, x);
            swaps += 1;
        }
    }
    (pairs, swaps)
}

/// Odd-even pass `step` over `state` (sorted in place): every pixel's invocation loads its pixel
/// and stores one; both pixels of a pair load each other and compare; a compute workgroup of
/// 16x16 passes one barrier.
fn odd_even_step(
    state: &mut RgbaImage,
    options: &SortOptions,
    map: Option<&IntervalMap>,
    step: u32,
    kind: PassKind,
) -> Work {
    let (lines, len) = extent(state, options.axis);
    let (mut pairs, mut swaps) = (0, 0);
    for index in 0..lines {
        let mut line = line_of(state, options.axis, map, index);
        let (p, s) = phase(&mut line, options, step);
        (pairs, swaps) = (pairs + p, swaps + s);
        put_line(state, options.axis, index, &line);
    }
    let (w, h) = state.dimensions();
    let pixels = u64::from(lines) * u64::from(len);
    let barriers = match kind {
        PassKind::Compute => u64::from(w.div_ceil(16) * h.div_ceil(16)),
        PassKind::Fragment => 0,
    };
    Work {
        comparisons: 2 * pairs,
        swaps,
        bytes_read: 4 * (pixels + 2 * pairs),
        bytes_written: 4 * pixels,
        barriers,
    }
}

/// Writes `line` back as line `index` of `picture`.
fn put_line(picture: &mut RgbaImage, axis: Axis, index: u32, line: &[([u8; 4], u32)]) {
    for (pos, (pixel, _)) in line.iter().enumerate() {
        let (x, y) = if axis == Axis::Rows { (pos as u32, index) } else { (index, pos as u32) };
        picture.put_pixel(x, y, image::Rgba(*pixel));
    }
}

/// A bubble step over `state`: from phase `first`, at most `budget` phases a line, in pairs; a
/// line stops after a pair of phases that swapped nothing. A workgroup loads its line and stores
/// it; it passes a barrier after loading, one after each phase, and after a pair of phases one
/// more before reading the pair's swaps and one in that read.
fn bubble_step(
    state: &mut RgbaImage,
    options: &SortOptions,
    map: Option<&IntervalMap>,
    first: u32,
    budget: u32,
) -> Work {
    let (lines, len) = extent(state, options.axis);
    let mut work = Work::default();
    for index in 0..lines {
        let mut line = line_of(state, options.axis, map, index);
        let mut done = 0;
        work.barriers += 1;
        while done < budget {
            let (pairs, swaps) = phase(&mut line, options, first + done);
            let (mut compared, mut swapped) = (pairs, swaps);
            done += 1;
            work.barriers += 1;
            if done < budget {
                let (pairs, swaps) = phase(&mut line, options, first + done);
                (compared, swapped) = (compared + pairs, swapped + swaps);
                done += 1;
                work.barriers += 3;
                if swapped == 0 {
                    work.comparisons += compared;
                    break;
                }
            }
            work.comparisons += compared;
            work.swaps += swapped;
        }
        put_line(state, options.axis, index, &line);
    }
    let pixels = 4 * u64::from(lines) * u64::from(len);
    Work { bytes_read: pixels, bytes_written: pixels, ..work }
}

/// Steps `run` one at a time, each step's work held to what `model` says of step `k` (the model
/// advancing its own state), and the run's totals to their sum. Returns the totals.
fn check(gpu: &Gpu, mut run: Box<dyn SortRun>, mut model: impl FnMut(u32) -> Work, what: &str) -> Work {
    let driver = Driver::new(run.as_ref());
    let mut total = Work::default();
    while run.steps_done() < run.total_steps() {
        let step = run.steps_done();
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        assert_eq!(run.encode_steps(&mut encoder, 1), 1);
        gpu.queue.submit([encoder.finish()]);
        driver.collect(gpu, run.as_mut()).unwrap();
        let expected = model(step);
        assert_eq!(run.stats().last_step_work, Some(expected), "{what}: step {step}");
        total += expected;
    }
    assert_eq!(run.stats().total_work, total, "{what}: the totals");
    total
}

/// Odd-even in both pass kinds and the bubble in steps of 3 phases and in one step, from `input`
/// within `map` (whole lines without), each against the model; `started` starts a run.
fn check_all(
    gpu: &Gpu,
    input: &RgbaImage,
    options: SortOptions,
    map: Option<&IntervalMap>,
    mut started: impl FnMut(Algorithm, RunSettings) -> Box<dyn SortRun>,
    what: &str,
) {
    let (_, len) = extent(input, options.axis);
    let line_phases = map.map_or(len, IntervalMap::max_interval_len);
    for pass_kind in [PassKind::Compute, PassKind::Fragment] {
        let run = started(Algorithm::OddEven, RunSettings { pass_kind, ..Default::default() });
        let mut state = input.clone();
        let total = check(
            gpu,
            run,
            |step| odd_even_step(&mut state, &options, map, step, pass_kind),
            &format!("{what} odd-even {pass_kind:?}"),
        );
        // A pass compares every pair twice: W passes of the line's W - 1 pairs in all, twice.
        if line_phases == len && len % 2 == 0 {
            let (lines, _) = extent(input, options.axis);
            let pairs = u64::from(lines) * u64::from(len) * u64::from(len - 1) / 2;
            assert_eq!(total.comparisons, 2 * pairs, "{what}: odd-even's comparisons, by the analysis");
        }
    }
    for phases in [3, u32::MAX] {
        let run = started(Algorithm::Bubble, RunSettings { phases_per_step: phases, ..Default::default() });
        let mut state = input.clone();
        check(
            gpu,
            run,
            |step| {
                let first = step.saturating_mul(phases);
                bubble_step(&mut state, &options, map, first, phases.min(line_phases - first))
            },
            &format!("{what} bubble, {phases} phases a step"),
        );
    }
}

#[test]
fn every_step_of_odd_even_and_the_bubble_costs_what_the_model_says() {
    on_every_gpu(|gpu| {
        let pipelines = |algorithm| Pipelines::new(gpu, algorithm);
        let (odd_even, bubble) = (pipelines(Algorithm::OddEven), pipelines(Algorithm::Bubble));
        let random = IntervalSettings { mode: IntervalMode::Random, ..Default::default() };
        let threshold = IntervalSettings {
            mode: IntervalMode::Threshold,
            threshold: Threshold::new(0.2, 0.8).unwrap(),
            ..Default::default()
        };
        let sizes = AWKWARD_SIZES.iter().copied().chain([(40, 7)]);
        for (i, (w, h)) in sizes.enumerate() {
            let input = random_image(w, h, 700 + i as u64);
            for axis in [Axis::Rows, Axis::Columns] {
                let options = SortOptions { key: SortKey::Luma, descending: axis == Axis::Columns, axis };
                let maps =
                    [&random, &threshold].map(|s| IntervalMap::compute(&input, axis, s, None).unwrap());
                for map in [None, Some(&maps[0]), Some(&maps[1])] {
                    let what = format!("{w}x{h} {axis:?} intervals {}", map.is_some());
                    let started = |algorithm, settings| {
                        let p = if algorithm == Algorithm::OddEven { &odd_even } else { &bubble };
                        start(gpu, p, &input, options, settings, MapSource::Cpu(map))
                    };
                    check_all(gpu, &input, options, map, started, &what);
                }
            }
        }
    });
    common::ci::passed();
}

#[test]
fn steps_along_an_angle_and_rings_cost_what_the_model_says_in_line_space() {
    on_every_gpu(|gpu| {
        let kit = Kit::new(gpu);
        let threshold = IntervalSettings {
            mode: IntervalMode::Threshold,
            threshold: Threshold::new(0.25, 0.75).unwrap(),
            ..Default::default()
        };
        let none = IntervalSettings::default();
        let rings = Path { kind: PathKind::Rings, centre: Centre::middle((13, 11)), rays: None };
        let spaces = [
            ("30°", LineSpace::new(17, 9, Angle::new(30.0).unwrap()), (17, 9)),
            ("rings", line_space(rings.into(), (13, 11), 16384).unwrap(), (13, 11)),
        ];
        for (name, space, (w, h)) in spaces {
            for settings in [&none, &threshold] {
                let picture = random_image(w, h, u64::from(w * h));
                let case =
                    Case::laid(name.into(), space.clone(), picture, (SortKey::Luma, false), settings, None);
                let what = format!("{name} {w}x{h} {:?}", settings.mode);
                // Line space is sorted by rows, always within the map that fixes its padding.
                let started = |algorithm, settings| {
                    let p = if algorithm == Algorithm::OddEven { &kit.odd_even } else { &kit.bubble };
                    Box::new(case.start(gpu, &kit, p, settings)) as Box<dyn SortRun>
                };
                check_all(gpu, &case.lines, case.options, Some(&case.map), started, &what);
            }
        }
    });
    common::ci::passed();
}
