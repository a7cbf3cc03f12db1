//! Sorting within intervals on the GPU: odd-even (compute and fragment), bubble, the radix
//! view and the bitonic network (in the device's blocks and in blocks of 16) each equal the CPU
//! model after every pass, step and stage, keep every line a
//! permutation, never move a pixel that has no interval to move in, and end in the same picture,
//! each interval stably sorted; for intervals from thresholds, edges, random lengths and masks, on
//! awkward sizes, along rows and columns in both orders; on every backend under test.

mod common;

use common::on_every_gpu;
use common::steps::step_through;
use image::RgbaImage;
use shadersort::algorithms::bitonic::Bitonic;
use shadersort::algorithms::interval_texture::IntervalMapError;
use shadersort::algorithms::odd_even::PassKind;
use shadersort::algorithms::radix::RadixSettings;
use shadersort::algorithms::radix::plan::{RadixPlan, Sequences};
use shadersort::algorithms::request::StartRequest;
use shadersort::algorithms::{Algorithm, Pipelines, RunSettings, SortRun};
use shadersort::engine::drive::run_to;
use shadersort::gpu::Gpu;
use shadersort::gpu::readback::read_texture;
use shadersort::intervals::{IntervalLength, IntervalMap, IntervalMode, IntervalSettings, Mask, Threshold};
use shadersort::keys::SortKey;
use shadersort::keys::options::{Axis, Scope, SortOptions};
use shadersort::keys::radix_key::RadixKey;
use shadersort::picture::patterns::{SplitMix64, random_image};
use shadersort::reference::bitonic::BitonicModel;
use shadersort::reference::radix::radix_steps_within;
use shadersort::reference::{
    fixed_pixels_stay, lines_are_permutations, odd_even_pass_within, stable_sort, stable_sort_within,
};

/// The pipelines of every algorithm, built once per device.
struct AllPipelines {
    odd_even: Pipelines,
    bubble: Pipelines,
    radix: Pipelines,
    bitonic: Pipelines,
    /// Bitonic in blocks of 16: longer intervals span blocks, so stages reach across them.
    bitonic_16: Pipelines,
}

impl AllPipelines {
    fn new(gpu: &Gpu) -> Self {
        AllPipelines {
            odd_even: Pipelines::new(gpu, Algorithm::OddEven),
            bubble: Pipelines::new(gpu, Algorithm::Bubble),
            radix: Pipelines::new(gpu, Algorithm::Radix),
            bitonic: Pipelines::new(gpu, Algorithm::Bitonic),
            bitonic_16: Pipelines::Bitonic(Bitonic::with_max_block(gpu, 16)),
        }
    }
}

/// Every algorithm on `input` within `intervals`, checked against the model step by step; returns
/// the common final picture.
fn check_all(
    gpu: &Gpu,
    pipes: &AllPipelines,
    input: &RgbaImage,
    options: SortOptions,
    intervals: &IntervalMap,
    what: &str,
) {
    let what = format!("{}x{} {options:?} {what}", input.width(), input.height());
    let expected = stable_sort_within(input, &options, intervals);
    let passes = intervals.max_interval_len();
    let mut finals = Vec::new();

    // Odd-even, both pass kinds: the model's pass after every pass.
    for pass_kind in [PassKind::Compute, PassKind::Fragment] {
        let settings = RunSettings { pass_kind, ..Default::default() };
        let run = pipes
            .odd_even
            .start(gpu, StartRequest::new(input, options).settings(settings).within(Some(intervals)))
            .unwrap();
        assert_eq!(run.total_steps(), passes, "{what}: passes are the longest interval");
        let mut model = input.clone();
        let run = step_through(gpu, run, |step, state, swaps| {
            let model_swaps = odd_even_pass_within(&mut model, &options, Some(intervals), step - 1);
            assert!(*state == model, "{what} {pass_kind:?}: pass {step} differs from the model");
            assert_eq!(swaps, model_swaps, "{what} {pass_kind:?}: swaps of pass {step}");
            assert!(lines_are_permutations(input, state, options.axis), "{what}: pass {step} lost a pixel");
            assert!(fixed_pixels_stay(input, state, intervals), "{what}: pass {step} moved a fixed pixel");
        });
        assert!(run.stats().sorted_after.is_some(), "{what} {pass_kind:?}");
        finals.push((format!("odd-even {pass_kind:?}"), read_texture(gpu, run.state()).unwrap()));
    }

    // Bubble, 3 phases per step: the model after as many odd-even passes.
    let settings = RunSettings { phases_per_step: 3, ..Default::default() };
    let run = pipes
        .bubble
        .start(gpu, StartRequest::new(input, options).settings(settings).within(Some(intervals)))
        .unwrap();
    assert_eq!(run.total_steps(), passes.div_ceil(3), "{what}: bubble steps");
    let mut model = input.clone();
    let mut phases = 0;
    let run = step_through(gpu, run, |step, state, swaps| {
        let end = (3 * step).min(passes);
        let model_swaps: u64 =
            (phases..end).map(|p| odd_even_pass_within(&mut model, &options, Some(intervals), p)).sum();
        phases = end;
        assert!(*state == model, "{what} bubble: step {step} differs from the model");
        assert_eq!(swaps, model_swaps, "{what} bubble: swaps of step {step}");
        assert!(
            lines_are_permutations(input, state, options.axis),
            "{what} bubble: step {step} lost a pixel"
        );
        assert!(fixed_pixels_stay(input, state, intervals), "{what} bubble: step {step} moved a fixed pixel");
    });
    assert!(run.stats().sorted_after.is_some(), "{what} bubble");
    finals.push(("bubble".into(), read_texture(gpu, run.state()).unwrap()));

    // The radix view, exact key, 4-bit digits: the model after every digit pass. Passes may carry
    // pixels across intervals (the interval id's digits come last), but never out of their line.
    let radix = RadixSettings::default();
    let run = pipes.radix.start(gpu, StartRequest::new(input, options).radix(radix).within(Some(intervals)));
    let run = run.unwrap();
    let key = RadixKey::new(options, None).unwrap().with_interval_bits(intervals.interval_bits()).unwrap();
    let plan = RadixPlan { key, digit_bits: radix.digit_bits, stages: 1, twin_indices: false };
    assert_eq!(run.total_steps(), plan.steps(), "{what}: digit passes of key and interval id");
    let seqs =
        Sequences { width: input.width(), height: input.height(), axis: options.axis, scope: Scope::Rows };
    let (_, model_moved) = radix_steps_within(input, seqs, &plan, Some(intervals), plan.steps());
    let run = step_through(gpu, run, |step, state, moved| {
        let (model, _) = radix_steps_within(input, seqs, &plan, Some(intervals), step);
        assert!(*state == model, "{what} radix: digit pass {step} differs from the model");
        assert_eq!(moved, model_moved[step as usize - 1], "{what} radix: pixels moved by pass {step}");
        assert!(lines_are_permutations(input, state, options.axis), "{what} radix: pass {step} lost a pixel");
    });
    let radix_final = read_texture(gpu, run.state()).unwrap();
    assert!(fixed_pixels_stay(input, &radix_final, intervals), "{what} radix: moved a fixed pixel");
    finals.push(("radix".into(), radix_final));

    // The bitonic network, one stage per step: the model's stage after every stage, with
    // exactly its exchanges.
    for (name, pipelines) in [("bitonic", &pipes.bitonic), ("bitonic in blocks of 16", &pipes.bitonic_16)] {
        let run = pipelines
            .start(
                gpu,
                StartRequest::new(input, options).settings(RunSettings::default()).within(Some(intervals)),
            )
            .unwrap();
        let mut model = BitonicModel::new(input, options, Some(intervals));
        assert_eq!(run.total_steps(), model.stages(), "{what}: {name} stages");
        let run = step_through(gpu, run, |step, state, swaps| {
            let exchanges = model.step();
            assert!(state == model.state(), "{what} {name}: stage {step} differs from the model");
            assert_eq!(swaps, exchanges, "{what} {name}: exchanges of stage {step}");
            assert!(
                lines_are_permutations(input, state, options.axis),
                "{what} {name}: stage {step} lost a pixel"
            );
            assert!(
                fixed_pixels_stay(input, state, intervals),
                "{what} {name}: stage {step} moved a fixed pixel"
            );
        });
        assert_eq!(run.stats().sorted_after, Some(run.total_steps()), "{what} {name}");
        finals.push((name.into(), read_texture(gpu, run.state()).unwrap()));
    }

    for (name, picture) in &finals {
        assert!(*picture == expected, "{what}: {name} does not end with every interval stably sorted");
    }
}

const AWKWARD_SIZES: [(u32, u32); 9] =
    [(1, 1), (1, 19), (19, 1), (2, 2), (3, 5), (63, 3), (64, 3), (65, 3), (17, 33)];

/// A random mask, about two thirds white.
fn random_mask(width: u32, height: u32, seed: u64) -> Mask {
    let mut rng = SplitMix64::new(seed);
    Mask::from_fn(width, height, |_, _| !rng.next_u32().is_multiple_of(3))
}

/// The interval sources every size meets in turn: (name, settings, mask).
fn sources(width: u32, height: u32, i: usize) -> Vec<(String, IntervalSettings, Option<Mask>)> {
    let threshold = |lo, hi| IntervalSettings {
        mode: IntervalMode::Threshold,
        key: SortKey::ALL[i % SortKey::ALL.len()],
        threshold: Threshold::new(lo, hi).unwrap(),
        ..Default::default()
    };
    let random = |min, max| IntervalSettings {
        mode: IntervalMode::Random,
        seed: 40 + i as u64,
        interval_length: IntervalLength::new(min, max).unwrap(),
        ..Default::default()
    };
    let edges = IntervalSettings { mode: IntervalMode::Edges, edge_level: 0.2, ..Default::default() };
    let none = IntervalSettings::default();
    vec![
        ("threshold 0.3..0.7".into(), threshold(0.3, 0.7), None),
        ("edges".into(), edges, None),
        ("random 2..9".into(), random(2, 9), None),
        // No pixel inside: no interval longer than one pixel (nothing may move).
        ("threshold 1..1 (no intervals)".into(), threshold(1.0, 1.0), None),
        // Every interval one pixel long.
        ("random 1..1".into(), random(1, 1), None),
        // Every pixel inside: intervals of the full line.
        ("threshold 0..1 (whole lines)".into(), threshold(0.0, 1.0), None),
        ("mask all white".into(), none, Some(Mask::from_fn(width, height, |_, _| true))),
        ("mask all black".into(), none, Some(Mask::from_fn(width, height, |_, _| false))),
        ("random mask and threshold".into(), threshold(0.2, 0.9), Some(random_mask(width, height, i as u64))),
    ]
}

#[test]
fn every_algorithm_matches_the_model_within_intervals_on_awkward_sizes() {
    on_every_gpu(|gpu| {
        let pipes = AllPipelines::new(gpu);
        for (i, &(w, h)) in AWKWARD_SIZES.iter().enumerate() {
            let input = random_image(w, h, 900 + i as u64);
            let sources = sources(w, h, i);
            // Each size meets three sources in turn, and every source meets several sizes.
            for k in 0..3 {
                let (name, settings, mask) = &sources[(3 * i + k) % sources.len()];
                let axis = if (i + k) % 2 == 0 { Axis::Rows } else { Axis::Columns };
                let key = SortKey::ALL[(i + 2 * k) % SortKey::ALL.len()];
                let options = SortOptions { key, descending: (i + k) % 3 == 1, axis };
                let intervals = IntervalMap::compute(&input, axis, settings, mask.as_ref()).unwrap();
                check_all(gpu, &pipes, &input, options, &intervals, name);
            }
        }
    });
    crate::common::ci::passed();
}

/// The special interval maps on one size, along both axes: no pixel can move, every interval one
/// pixel, whole lines (which end in the plain sort), and the masks.
#[test]
fn intervals_of_no_pixels_one_pixel_and_whole_lines_and_every_mask() {
    let input = random_image(21, 6, 31);
    on_every_gpu(|gpu| {
        let pipes = AllPipelines::new(gpu);
        for (name, settings, mask) in sources(21, 6, 3).into_iter().skip(3) {
            for axis in [Axis::Rows, Axis::Columns] {
                let options = SortOptions { key: SortKey::Luma, descending: axis == Axis::Columns, axis };
                let intervals = IntervalMap::compute(&input, axis, &settings, mask.as_ref()).unwrap();
                check_all(gpu, &pipes, &input, options, &intervals, &name);
                let end = stable_sort_within(&input, &options, &intervals);
                if intervals.max_interval_len() == 1 {
                    assert!(end == input, "{name}: intervals of one pixel leave the picture as it is");
                }
                if intervals.is_whole_lines() {
                    assert!(end == stable_sort(&input, &options), "{name}: whole lines are the plain sort");
                }
            }
        }
    });
    crate::common::ci::passed();
}

/// A run restarted with another map sorts exactly as a run started with it: the window's
/// way to change the threshold without new pictures or pipelines. Back to no map, it is the
/// plain sort again; a run started without a map takes one later.
#[test]
fn restarting_with_another_map_sorts_as_a_fresh_run_would() {
    let input = random_image(37, 5, 77);
    let options = SortOptions { key: SortKey::Hue, ..Default::default() };
    let threshold = |lo, hi| IntervalSettings {
        mode: IntervalMode::Threshold,
        threshold: Threshold::new(lo, hi).unwrap(),
        ..Default::default()
    };
    let narrow = IntervalMap::compute(&input, Axis::Rows, &threshold(0.1, 0.4), None).unwrap();
    let wide = IntervalMap::compute(&input, Axis::Rows, &threshold(0.0, 0.9), None).unwrap();
    assert_ne!(narrow.max_interval_len(), wide.max_interval_len());
    let device_sorted_lines = RadixSettings { device_sorted_lines: true, ..Default::default() };
    on_every_gpu(|gpu| {
        let pipes = AllPipelines::new(gpu);
        let lanes = [
            (&pipes.odd_even, RunSettings::default()),
            (&pipes.odd_even, RunSettings { pass_kind: PassKind::Fragment, ..Default::default() }),
            (&pipes.bubble, RunSettings::default()),
            (&pipes.radix, RunSettings::default()),
            // Lines started on the segmented sort, which a map turns to the view's kernels.
            (&pipes.radix, RunSettings { radix: device_sorted_lines, ..Default::default() }),
            (&pipes.bitonic, RunSettings::default()),
            (&pipes.bitonic_16, RunSettings::default()),
        ];
        for (i, (pipelines, settings)) in lanes.into_iter().enumerate() {
            let sort = |run: &mut Box<dyn SortRun>| {
                run_to(gpu, run.as_mut(), u32::MAX, |_| true).unwrap();
                read_texture(gpu, run.state()).unwrap()
            };
            let restart = |run: &mut Box<dyn SortRun>, intervals: Option<&IntervalMap>| {
                let mut encoder = gpu.device.create_command_encoder(&Default::default());
                run.restart_within(gpu, &mut encoder, intervals).unwrap();
                gpu.queue.submit([encoder.finish()]);
                assert_eq!(run.steps_done(), 0);
                assert!(
                    read_texture(gpu, run.state()).unwrap() == input,
                    "lane {i}: a restart shows the input"
                );
            };
            let mut run = pipelines
                .start(gpu, StartRequest::new(&input, options).settings(settings).within(Some(&narrow)))
                .unwrap();
            assert!(sort(&mut run) == stable_sort_within(&input, &options, &narrow), "lane {i}: narrow");
            let fresh_steps = pipelines
                .start(gpu, StartRequest::new(&input, options).settings(settings).within(Some(&wide)))
                .unwrap()
                .total_steps();
            restart(&mut run, Some(&wide));
            assert_eq!(run.total_steps(), fresh_steps, "lane {i}: the steps follow the map");
            assert!(sort(&mut run) == stable_sort_within(&input, &options, &wide), "lane {i}: wide");
            restart(&mut run, None);
            assert!(sort(&mut run) == stable_sort(&input, &options), "lane {i}: no map");

            let mut run =
                pipelines.start(gpu, StartRequest::new(&input, options).settings(settings)).unwrap();
            restart(&mut run, Some(&narrow));
            assert!(sort(&mut run) == stable_sort_within(&input, &options, &narrow), "lane {i}: map added");
        }
    });
    crate::common::ci::passed();
}

#[test]
fn maps_that_cannot_be_used_are_refused_and_leave_the_run_as_it_was() {
    let input = random_image(9, 4, 5);
    let rows = IntervalMap::whole_lines(9, 4, Axis::Rows);
    let columns = IntervalMap::whole_lines(9, 4, Axis::Columns);
    let other_size = IntervalMap::whole_lines(4, 9, Axis::Rows);
    on_every_gpu(|gpu| {
        let pipes = AllPipelines::new(gpu);
        for pipelines in [&pipes.odd_even, &pipes.bubble, &pipes.radix, &pipes.bitonic] {
            for wrong in [&columns, &other_size] {
                let e = pipelines
                    .start(
                        gpu,
                        StartRequest::new(&input, SortOptions::default())
                            .settings(RunSettings::default())
                            .within(Some(wrong)),
                    )
                    .err()
                    .expect("a map for another picture is refused");
                assert!(matches!(e, IntervalMapError::Mismatch { .. }), "{e}");
            }
            let mut run = pipelines
                .start(
                    gpu,
                    StartRequest::new(&input, SortOptions::default())
                        .settings(RunSettings::default())
                        .within(Some(&rows)),
                )
                .unwrap();
            let steps = run.total_steps();
            let mut encoder = gpu.device.create_command_encoder(&Default::default());
            assert!(run.restart_within(gpu, &mut encoder, Some(&other_size)).is_err());
            assert_eq!(run.total_steps(), steps);
        }
        let image = RunSettings {
            radix: RadixSettings { scope: Scope::Image, ..Default::default() },
            ..Default::default()
        };
        let e = pipes
            .radix
            .start(gpu, StartRequest::new(&input, SortOptions::default()).settings(image).within(Some(&rows)))
            .err()
            .unwrap();
        assert_eq!(e, IntervalMapError::WholePicture);
        assert!(e.to_string().contains("drop --scope image"), "{e}");
    });
    crate::common::ci::passed();
}

/// The radix view within intervals with its scatter shown in stages, quantised keys and every
/// digit width: every stage equals the model, and the end is each interval stably sorted by the
/// quantised key.
#[test]
fn radix_scatter_stages_and_quantised_keys_match_the_model_within_intervals() {
    use shadersort::algorithms::radix::Radix;
    use shadersort::reference::sort_intervals_by;
    let random = IntervalSettings {
        mode: IntervalMode::Random,
        seed: 5,
        interval_length: IntervalLength::new(3, 20).unwrap(),
        ..Default::default()
    };
    on_every_gpu(|gpu| {
        let radix = Radix::new(gpu);
        for (i, (w, h, axis)) in [(67, 4, Axis::Rows), (5, 33, Axis::Columns)].into_iter().enumerate() {
            let input = random_image(w, h, 50 + i as u64);
            let intervals = IntervalMap::compute(&input, axis, &random, None).unwrap();
            let options = SortOptions { key: SortKey::Saturation, descending: i == 1, axis };
            for (digit_bits, key_bits, sub_steps) in
                [(2, Some(6), true), (8, None, true), (1, Some(3), false), (4, None, false)]
            {
                let settings = RadixSettings {
                    digit_bits,
                    key_bits,
                    scope: Scope::Rows,
                    sub_steps,
                    twin_indices: sub_steps,
                    // Lines nobody watches go to the segmented sort, within intervals too.
                    device_sorted_lines: !sub_steps,
                };
                let run = radix
                    .start(gpu, StartRequest::new(&input, options).radix(settings).within(Some(&intervals)))
                    .unwrap();
                assert_eq!(run.device_sorted(), !sub_steps, "lines nobody watches on the segmented sort");
                let plan = run.plan();
                assert_eq!(plan.key.interval_bits, intervals.interval_bits());
                let seqs = run.sequences();
                let what = format!("{w}x{h} {plan:?}");
                let (_, model_moved) =
                    radix_steps_within(&input, seqs, &plan, Some(&intervals), plan.steps());
                let run = step_through(gpu, Box::new(run), |step, state, moved| {
                    let (model, _) = radix_steps_within(&input, seqs, &plan, Some(&intervals), step);
                    assert!(*state == model, "{what}: step {step} differs from the model");
                    assert_eq!(moved, model_moved[step as usize - 1], "{what}: pixels moved by step {step}");
                });
                let end = read_texture(gpu, run.state()).unwrap();
                assert!(
                    end == sort_intervals_by(&input, &intervals, |p| plan.key.of(p)),
                    "{what}: not each interval sorted"
                );
                assert!(fixed_pixels_stay(&input, &end, &intervals), "{what}: a fixed pixel moved");
            }
        }
    });
    crate::common::ci::passed();
}

/// Threshold intervals found on the GPU (a clip's frames take them so) equal the CPU's map id for
/// id: every key, both axes, thresholds that take some, all, one value or no value of the key,
/// on lines shorter and longer than the kernel's 256 invocations and not multiples of them.
#[test]
fn threshold_intervals_found_on_the_gpu_equal_the_cpu_map() {
    use shadersort::algorithms::found_intervals::{FoundIntervals, IntervalsKernel};
    use shadersort::algorithms::interval_texture::interval_id_texture;
    use shadersort::gpu::texture::picture_texture;
    let sizes =
        [(1, 1), (1, 40), (40, 1), (63, 2), (64, 3), (65, 2), (257, 3), (600, 4), (3, 700), (1000, 2)];
    on_every_gpu(|gpu| {
        let kernel = IntervalsKernel::new(gpu);
        for (i, &(w, h)) in sizes.iter().enumerate() {
            let picture = random_image(w, h, 900 + i as u64);
            let texture = picture_texture(gpu, &picture, "test::picture");
            let ids = interval_id_texture(gpu, w, h, "test::interval_ids");
            let thresholds = [
                (SortKey::ALL[i % SortKey::ALL.len()], Threshold::DEFAULT),
                (SortKey::Luma, Threshold::ALL),
                (SortKey::Hue, Threshold::new(0.1, 0.6).unwrap()),
                // Luma 0.5 is one value; red 0.3 none (76.5 is no red value).
                (SortKey::Luma, Threshold::new(0.5, 0.5).unwrap()),
                (SortKey::Red, Threshold::new(0.3, 0.3).unwrap()),
            ];
            for axis in [Axis::Rows, Axis::Columns] {
                for (key, threshold) in thresholds {
                    let intervals = FoundIntervals::threshold(key, threshold, axis);
                    let mut encoder = gpu.device.create_command_encoder(&Default::default());
                    kernel.encode(gpu, &mut encoder, &texture, &ids, intervals);
                    gpu.queue.submit([encoder.finish()]);
                    let got: Vec<u32> =
                        read_texture(gpu, &ids).unwrap().pixels().map(|p| u32::from_le_bytes(p.0)).collect();
                    let settings = IntervalSettings {
                        mode: IntervalMode::Threshold,
                        key,
                        threshold,
                        ..Default::default()
                    };
                    let expected = IntervalMap::compute(&picture, axis, &settings, None).unwrap();
                    assert!(got == expected.ids(), "{w}x{h} {axis:?} {key:?} {threshold:?}");
                    assert!(
                        expected.interval_bits() <= intervals.interval_bits(w, h),
                        "{w}x{h} {axis:?}: interval bits"
                    );
                }
            }
        }
    });
    crate::common::ci::passed();
}

/// The radix view within threshold intervals found on the GPU ends in the same picture as within
/// the CPU's map of them (its interval ids then take as many bits as a line's could), for keys,
/// orders and both axes; and a key too wide for those bits is refused as with a map.
#[test]
fn radix_within_threshold_intervals_found_on_the_gpu_sorts_as_within_the_cpu_map() {
    use shadersort::algorithms::found_intervals::{FoundIntervals, IntervalsKernel};
    use shadersort::algorithms::radix::Radix;
    on_every_gpu(|gpu| {
        let radix = Radix::new(gpu);
        let kernel = IntervalsKernel::new(gpu);
        let threshold = Threshold::new(0.2, 0.7).unwrap();
        for (i, &(w, h)) in [(65, 3), (300, 4), (3, 70), (1, 1)].iter().enumerate() {
            let picture = random_image(w, h, 950 + i as u64);
            for axis in [Axis::Rows, Axis::Columns] {
                let options = SortOptions { key: SortKey::ALL[i], descending: i % 2 == 1, axis };
                let intervals = FoundIntervals::threshold(SortKey::Luma, threshold, axis);
                let settings = RadixSettings::default();
                let mut run = radix
                    .start(
                        gpu,
                        StartRequest::new(&picture, options).radix(settings).found(&kernel, intervals),
                    )
                    .unwrap();
                run_to(gpu, &mut run, u32::MAX, |_| true).unwrap();
                let intervals =
                    IntervalSettings { mode: IntervalMode::Threshold, threshold, ..Default::default() };
                let map = IntervalMap::compute(&picture, axis, &intervals, None).unwrap();
                let state = read_texture(gpu, run.state()).unwrap();
                assert!(state == stable_sort_within(&picture, &options, &map), "{w}x{h} {options:?}");
            }
        }
        // Hue takes 19 bits, ids of a line of 16384 take 14.
        let wide = RgbaImage::new(16384, 1);
        let options = SortOptions { key: SortKey::Hue, ..Default::default() };
        let intervals = FoundIntervals::threshold(SortKey::Luma, threshold, Axis::Rows);
        let refused = radix.start(gpu, StartRequest::new(&wide, options).found(&kernel, intervals));
        assert!(matches!(refused, Err(IntervalMapError::KeyTooWide(_))));
    });
    crate::common::ci::passed();
}
