//! The radix view equals the CPU LSD model after every digit pass and every scatter stage,
//! for every digit width, both scopes and awkward sizes; its final picture is the stable sort
//! by the quantised key (the same picture as odd-even with the exact key); on every backend
//! under test.

mod common;

use common::on_every_gpu;
use image::{Rgba, RgbaImage};
use shadersort::algorithms::SortRun;
use shadersort::algorithms::radix::{Radix, RadixRun, RadixSettings};
use shadersort::algorithms::request::StartRequest;
use shadersort::engine::drive::Driver;
use shadersort::engine::drive::run_to;
use shadersort::gpu::Gpu;
use shadersort::gpu::readback::read_texture;
use shadersort::keys::SortKey;
use shadersort::keys::options::{Axis, Scope, SortOptions};
use shadersort::keys::radix_key::DIGIT_BITS;
use shadersort::picture::patterns::random_image;
use shadersort::reference::radix::{radix_steps, sequences_are_permutations, stable_sort_by_radix_key};
use shadersort::reference::stable_sort;

/// Steps `run` one step at a time and compares every state and every step's moved pixels
/// with the CPU model; returns the final state.
fn check_every_step(gpu: &Gpu, input: &RgbaImage, mut run: RadixRun, what: &str) -> RgbaImage {
    let plan = run.plan();
    let seqs = run.sequences();
    let what = format!("{}x{} {what} {plan:?} {:?}", input.width(), input.height(), run.tiling());
    let driver = Driver::new(&run);
    let (_, model_moved) = radix_steps(input, seqs, &plan, plan.steps());
    let mut state = read_texture(gpu, run.state()).unwrap();
    assert!(state == *input, "{what}: step 0 is not the input");
    while run.steps_done() < run.total_steps() {
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        assert_eq!(run.encode_steps(&mut encoder, 1), 1);
        gpu.queue.submit([encoder.finish()]);
        driver.collect(gpu, &mut run).unwrap();
        let step = run.steps_done();
        let (model, _) = radix_steps(input, seqs, &plan, step);
        state = read_texture(gpu, run.state()).unwrap();
        assert!(state == model, "{what}: differs from the model after step {step}");
        assert_eq!(
            u64::from(run.stats().last_step_swaps.unwrap()),
            model_moved[step as usize - 1],
            "{what}: pixels moved by step {step}"
        );
        if step.is_multiple_of(plan.stages) {
            assert!(sequences_are_permutations(input, &state, seqs), "{what}: lost a pixel by step {step}");
        }
    }
    assert!(state == stable_sort_by_radix_key(input, seqs, &plan.key), "{what}: not the stable sort");
    assert!(run.stats().sorted_after.is_some(), "{what}: never reported sorted");
    state
}

const AWKWARD_SIZES: [(u32, u32); 11] =
    [(1, 1), (1, 19), (19, 1), (2, 2), (3, 5), (63, 3), (64, 3), (65, 3), (67, 2), (257, 2), (600, 2)];

#[test]
fn every_step_matches_the_model_for_every_digit_width_and_scope() {
    on_every_gpu(|gpu| {
        let radix = Radix::new(gpu);
        for (i, &(w, h)) in AWKWARD_SIZES.iter().enumerate() {
            let input = random_image(w, h, 700 + i as u64);
            for (j, &digit_bits) in DIGIT_BITS.iter().enumerate() {
                let k = i + j;
                let key = SortKey::ALL[k % SortKey::ALL.len()];
                let axis = if k % 2 == 0 { Axis::Rows } else { Axis::Columns };
                let options = SortOptions { key, descending: k % 3 == 0, axis };
                for scope in [Scope::Rows, Scope::Image] {
                    // Quantised keys keep the passes few; the exact key is covered below.
                    let settings = RadixSettings {
                        digit_bits,
                        key_bits: Some(8),
                        scope,
                        sub_steps: (i + j) % 2 == 1,
                        twin_indices: (i + j) % 4 == 3,
                        device_sorted_lines: false,
                    };
                    check_every_step(
                        gpu,
                        &input,
                        radix.start(gpu, StartRequest::new(&input, options).radix(settings)).unwrap(),
                        "",
                    );
                }
            }
        }
    });
    crate::common::ci::passed();
}

#[test]
fn tiles_of_several_chunks_carry_their_slots_from_chunk_to_chunk() {
    on_every_gpu(|gpu| {
        let radix = Radix::new(gpu);
        for (w, h, chunks) in [(600, 3, 2), (700, 2, 3), (65, 9, 2)] {
            let input = random_image(w, h, u64::from(w + chunks));
            for scope in [Scope::Rows, Scope::Image] {
                let settings = RadixSettings {
                    digit_bits: 4,
                    key_bits: Some(8),
                    scope,
                    sub_steps: true,
                    twin_indices: false,
                    device_sorted_lines: false,
                };
                let run = radix
                    .start_with_chunks(
                        gpu,
                        StartRequest::new(&input, SortOptions::default()).radix(settings),
                        chunks,
                    )
                    .unwrap();
                assert!(run.tiling().chunks >= chunks);
                check_every_step(gpu, &input, run, "chunked");
            }
        }
    });
    crate::common::ci::passed();
}

/// With the exact key the radix view ends where every comparison sort does.
#[test]
fn exact_keys_end_in_the_odd_even_picture_for_every_key_and_order() {
    let input = random_image(97, 6, 8);
    on_every_gpu(|gpu| {
        let radix = Radix::new(gpu);
        for key in SortKey::ALL {
            for descending in [false, true] {
                for axis in [Axis::Rows, Axis::Columns] {
                    let options = SortOptions { key, descending, axis };
                    let settings = RadixSettings::default();
                    let mut run =
                        radix.start(gpu, StartRequest::new(&input, options).radix(settings)).unwrap();
                    run_to(gpu, &mut run, u32::MAX, |_| true).unwrap();
                    let state = read_texture(gpu, run.state()).unwrap();
                    assert!(state == stable_sort(&input, &options), "{options:?}");
                }
            }
        }
    });
    crate::common::ci::passed();
}

#[test]
fn exact_keys_match_the_model_pass_by_pass() {
    let input = random_image(130, 4, 21);
    on_every_gpu(|gpu| {
        let radix = Radix::new(gpu);
        for (key, digit_bits) in [(SortKey::Luma, 4), (SortKey::Hue, 8), (SortKey::Saturation, 2)] {
            let options = SortOptions { key, descending: key == SortKey::Hue, axis: Axis::Rows };
            let settings = RadixSettings { digit_bits, ..Default::default() };
            check_every_step(
                gpu,
                &input,
                radix.start(gpu, StartRequest::new(&input, options).radix(settings)).unwrap(),
                "exact",
            );
        }
    });
    crate::common::ci::passed();
}

#[test]
fn one_repeated_colour_never_moves_and_distinct_keys_sort_fully() {
    on_every_gpu(|gpu| {
        let radix = Radix::new(gpu);
        let flat = RgbaImage::from_pixel(65, 3, Rgba([40, 90, 200, 255]));
        let settings = RadixSettings { digit_bits: 2, ..Default::default() };
        let mut run =
            radix.start(gpu, StartRequest::new(&flat, SortOptions::default()).radix(settings)).unwrap();
        run_to(gpu, &mut run, u32::MAX, |_| true).unwrap();
        assert_eq!(run.stats().total_swaps, 0);
        assert!(read_texture(gpu, run.state()).unwrap() == flat);

        // Every red value once per row, shuffled differently in each row.
        let mut distinct = RgbaImage::new(256, 3);
        for (x, y, p) in distinct.enumerate_pixels_mut() {
            *p = Rgba([((x * 97 + y * 31) % 256) as u8, y as u8, 7, 255]);
        }
        let options = SortOptions { key: SortKey::Red, ..Default::default() };
        for scope in [Scope::Rows, Scope::Image] {
            let settings = RadixSettings { digit_bits: 1, scope, ..Default::default() };
            check_every_step(
                gpu,
                &distinct,
                radix.start(gpu, StartRequest::new(&distinct, options).radix(settings)).unwrap(),
                "distinct",
            );
        }
    });
    crate::common::ci::passed();
}

/// Without sub-steps the whole picture is sorted by the device-wide sort, step by step: the
/// same states and moved pixels as the model, on pictures longer than one of its tiles.
#[test]
fn whole_picture_steps_on_the_device_sort_match_the_model_across_its_tiles() {
    on_every_gpu(|gpu| {
        let radix = Radix::new(gpu);
        let cases = [
            (97, 61, 8, None, SortKey::Luma, false, Axis::Rows),
            (128, 64, 4, Some(12), SortKey::Hue, true, Axis::Columns),
            (65, 127, 2, Some(6), SortKey::Value, false, Axis::Columns),
            (4097, 1, 8, None, SortKey::Saturation, true, Axis::Rows),
            (1, 4099, 1, Some(3), SortKey::Red, false, Axis::Rows),
        ];
        for (i, (w, h, digit_bits, key_bits, key, descending, axis)) in cases.into_iter().enumerate() {
            let input = random_image(w, h, 900 + i as u64);
            let options = SortOptions { key, descending, axis };
            let settings = RadixSettings { digit_bits, key_bits, scope: Scope::Image, ..Default::default() };
            let run = radix.start(gpu, StartRequest::new(&input, options).radix(settings)).unwrap();
            assert!(run.device_sorted(), "{w}x{h}: not on the device sort");
            check_every_step(gpu, &input, run, "device-sorted");
        }
        let staged = RadixSettings { scope: Scope::Image, sub_steps: true, ..Default::default() };
        let input = random_image(9, 9, 3);
        assert!(
            !radix
                .start(gpu, StartRequest::new(&input, SortOptions::default()).radix(staged))
                .unwrap()
                .device_sorted()
        );
        let lines = RadixSettings::default();
        assert!(
            !radix
                .start(gpu, StartRequest::new(&input, SortOptions::default()).radix(lines))
                .unwrap()
                .device_sorted()
        );
    });
    crate::common::ci::passed();
}

/// Sorts nobody watches sort each line's steps with the segmented sort where a workgroup holds
/// a line: the same states and moved pixels as the model, at awkward sizes, along both axes,
/// every digit width; lines longer than a workgroup holds stay on the view's own kernels.
#[test]
fn unwatched_lines_on_the_segmented_sort_match_the_model() {
    on_every_gpu(|gpu| {
        let radix = Radix::new(gpu);
        let unwatched = RadixSettings { device_sorted_lines: true, ..Default::default() };
        let keys = [SortKey::Luma, SortKey::Hue, SortKey::Red, SortKey::Value];
        for (i, &(w, h)) in AWKWARD_SIZES.iter().chain(&[(4096, 2), (3, 4096)]).enumerate() {
            let input = random_image(w, h, 1300 + i as u64);
            let digit_bits = DIGIT_BITS[i % DIGIT_BITS.len()];
            let axis = if i % 2 == 0 { Axis::Rows } else { Axis::Columns };
            let options = SortOptions { key: keys[i % keys.len()], descending: i % 3 == 1, axis };
            let settings = RadixSettings { digit_bits, key_bits: (i % 4 == 2).then_some(9), ..unwatched };
            let run = radix.start(gpu, StartRequest::new(&input, options).radix(settings)).unwrap();
            assert!(run.device_sorted(), "{w}x{h} {axis:?}: not on the segmented sort");
            check_every_step(gpu, &input, run, "lines segment-sorted");
        }
        let long = random_image(4097, 2, 5);
        let run =
            radix.start(gpu, StartRequest::new(&long, SortOptions::default()).radix(unwatched)).unwrap();
        assert!(!run.device_sorted(), "lines of 4097 pixels are longer than a workgroup holds");
    });
    crate::common::ci::passed();
}

/// A sort nobody watches makes its last state at once on the segmented sort (`submit_to`, as a
/// clip's frames are sorted): within intervals from the CPU's map and found on the GPU, and
/// without, at awkward sizes along both axes, the picture is each interval stably sorted by the
/// quantised key, every step counted done; lines longer than a workgroup holds take every step.
#[test]
fn unwatched_sorts_make_their_last_state_at_once_within_intervals_or_not() {
    use shadersort::algorithms::found_intervals::{FoundIntervals, IntervalsKernel};
    use shadersort::intervals::{IntervalMap, IntervalMode, IntervalSettings, Threshold};
    use shadersort::reference::sort_intervals_by;
    on_every_gpu(|gpu| {
        let radix = Radix::new(gpu);
        let kernel = IntervalsKernel::new(gpu);
        let threshold = Threshold::new(0.2, 0.7).unwrap();
        let keys = [SortKey::Hue, SortKey::Luma, SortKey::Saturation, SortKey::Blue];
        // The last, columns of 4097 pixels, longer than a workgroup holds.
        for (i, &(w, h)) in AWKWARD_SIZES.iter().chain(&[(2, 4097)]).enumerate() {
            let input = random_image(w, h, 1700 + i as u64);
            let axis = if i % 2 == 0 { Axis::Rows } else { Axis::Columns };
            let options = SortOptions { key: keys[i % keys.len()], descending: i % 3 == 1, axis };
            let found = FoundIntervals::threshold(SortKey::Luma, threshold, axis);
            let mode = IntervalSettings { mode: IntervalMode::Threshold, threshold, ..Default::default() };
            let map = IntervalMap::compute(&input, axis, &mode, None).unwrap();
            let settings = RadixSettings {
                digit_bits: DIGIT_BITS[i % DIGIT_BITS.len()],
                device_sorted_lines: true,
                ..Default::default()
            };
            let request = || StartRequest::new(&input, options).radix(settings);
            let starts = [
                ("no intervals", radix.start(gpu, request()).unwrap(), None),
                ("the CPU's map", radix.start(gpu, request().within(Some(&map))).unwrap(), Some(&map)),
                ("found on the GPU", radix.start(gpu, request().found(&kernel, found)).unwrap(), Some(&map)),
            ];
            for (what, mut run, intervals) in starts {
                let what = format!("{w}x{h} {options:?} within {what}");
                let line = if axis == Axis::Rows { w } else { h };
                assert_eq!(run.device_sorted(), line < 4097, "{what}: on the segmented sort");
                let total = run.total_steps();
                Driver::new(&run).submit_to(gpu, &mut run, total).unwrap();
                assert_eq!(run.steps_done(), total, "{what}");
                // Made at once, no step's count is left to wait for; step by step, the last
                // batch's counts are never read.
                assert_eq!(run.steps_collected() == total, line < 4097, "{what}: made at once");
                let key = run.plan().key;
                let model = match intervals {
                    Some(map) => sort_intervals_by(&input, map, |p| key.of(p)),
                    None => stable_sort_by_radix_key(&input, run.sequences(), &key),
                };
                assert!(read_texture(gpu, run.state()).unwrap() == model, "{what}: not sorted as the model");
            }
        }
    });
    crate::common::ci::passed();
}
