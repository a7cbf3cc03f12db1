//! The bitonic rows equal the CPU model of the network after every stage (stepped one at a
//! time, and recorded together so stages share dispatches), on awkward sizes, across blocks of
//! workgroup memory, within intervals, with two-word ranks, and end in the stable sort; on every
//! backend under test.

mod common;

use common::on_every_gpu;
use image::RgbaImage;
use shadersort::algorithms::SortRun;
use shadersort::algorithms::bitonic::{Bitonic, BitonicTuning};
use shadersort::algorithms::request::StartRequest;
use shadersort::engine::drive::Driver;
use shadersort::engine::drive::run_to;
use shadersort::gpu::Gpu;
use shadersort::gpu::readback::read_texture;
use shadersort::intervals::{Cell, IntervalMap};
use shadersort::keys::SortKey;
use shadersort::keys::options::{Axis, SortOptions};
use shadersort::picture::patterns::random_image;
use shadersort::reference::bitonic::{BitonicModel, network};
use shadersort::reference::{fixed_pixels_stay, lines_are_permutations, stable_sort, stable_sort_within};

/// Runs `input` to the end in batches of `batch` steps, comparing the state and the exchanges
/// with the model after every batch.
fn check_batches(
    gpu: &Gpu,
    bitonic: &Bitonic,
    input: &RgbaImage,
    options: SortOptions,
    intervals: Option<&IntervalMap>,
    batch: u32,
) {
    let what = format!(
        "{}x{} {options:?} batches of {batch} intervals: {}",
        input.width(),
        input.height(),
        intervals.is_some()
    );
    let mut run = bitonic.start(gpu, StartRequest::new(input, options).within(intervals));
    let reader = Driver::new(&run);
    let mut model = BitonicModel::new(input, options, intervals);
    assert_eq!(run.total_steps(), model.stages(), "{what}");
    while run.steps_done() < run.total_steps() {
        let counted = run.stats().total_swaps;
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        let n = run.encode_steps(&mut encoder, batch);
        gpu.queue.submit([encoder.finish()]);
        reader.collect(gpu, &mut run).unwrap();
        let exchanges: u64 = (0..n).map(|_| model.step()).sum();
        let state = read_texture(gpu, run.state()).unwrap();
        let done = run.steps_done();
        assert!(&state == model.state(), "{what}: differs from the model after {done} stages");
        assert!(lines_are_permutations(input, &state, options.axis), "{what}: lost a pixel");
        if let Some(map) = intervals {
            assert!(fixed_pixels_stay(input, &state, map), "{what}: a fixed pixel moved");
        }
        assert_eq!(run.stats().total_swaps - counted, exchanges, "{what}: exchanges by {done}");
    }
    let end = read_texture(gpu, run.state()).unwrap();
    let expected = match intervals {
        Some(map) => stable_sort_within(input, &options, map),
        None => stable_sort(input, &options),
    };
    assert!(end == expected, "{what}: not the stable sort at the end");
    assert_eq!(run.stats().sorted_after, Some(run.total_steps()), "{what}");
}

/// Intervals of random lengths: a pixel is fixed, starts an interval or joins one, from a seed.
fn random_intervals(width: u32, height: u32, axis: Axis, seed: u64) -> IntervalMap {
    let mut state = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    IntervalMap::build(width, height, axis, |_, _, _| {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        match (state >> 33) % 23 {
            0..=2 => Cell::Fixed,
            3 => Cell::Start,
            _ => Cell::Join,
        }
    })
}

const AWKWARD_SIZES: [(u32, u32); 12] = [
    (1, 1),
    (1, 19),
    (19, 1),
    (2, 2),
    (3, 5),
    (63, 3),
    (64, 3),
    (65, 3),
    (67, 2),
    (128, 1),
    (129, 2),
    (600, 2),
];

#[test]
fn every_stage_matches_the_model_on_awkward_sizes_within_and_across_blocks() {
    on_every_gpu(|gpu| {
        // The device's own blocks (whole lines by `sort_lines`, ranks held in registers, however
        // short, and by `sort_blocks`), and blocks of 16, 64 and 512 so that lines span several.
        let variants = [16, 64, 512].map(|block| Bitonic::with_max_block(gpu, block));
        let all_held = BitonicTuning { shortest_held_line: 1, ..BitonicTuning::default() };
        let blocks_only = BitonicTuning { held_ranks: false, ..BitonicTuning::default() };
        let whole_lines = [Bitonic::with_tuning(gpu, all_held), Bitonic::with_tuning(gpu, blocks_only)];
        for bitonic in whole_lines.into_iter().chain(variants) {
            for (i, &(w, h)) in AWKWARD_SIZES.iter().enumerate() {
                let input = random_image(w, h, 500 + i as u64);
                for (j, axis) in [Axis::Rows, Axis::Columns].into_iter().enumerate() {
                    let key = SortKey::ALL[(i + 3 * j) % SortKey::ALL.len()];
                    let options = SortOptions { key, descending: (i + j) % 2 == 1, axis };
                    check_batches(gpu, &bitonic, &input, options, None, 1);
                    check_batches(gpu, &bitonic, &input, options, None, 4);
                }
            }
        }
    });
    crate::common::ci::passed();
}

#[test]
fn intervals_sort_as_segments_stage_by_stage() {
    on_every_gpu(|gpu| {
        for bitonic in [Bitonic::new(gpu), Bitonic::with_max_block(gpu, 16)] {
            for (i, &(w, h)) in [(1, 1), (40, 3), (65, 4), (3, 70), (200, 2)].iter().enumerate() {
                let input = random_image(w, h, 700 + i as u64);
                for axis in [Axis::Rows, Axis::Columns] {
                    let intervals = random_intervals(w, h, axis, 800 + i as u64);
                    let options = SortOptions { key: SortKey::ALL[i], descending: i % 2 == 0, axis };
                    check_batches(gpu, &bitonic, &input, options, Some(&intervals), 1);
                    check_batches(gpu, &bitonic, &input, options, Some(&intervals), u32::MAX);
                }
            }
        }
    });
    crate::common::ci::passed();
}

#[test]
fn every_key_order_and_axis_ends_in_the_stable_sort_at_once() {
    // Rows of 301: lines of 512 positions in `sort_lines`, whose whole network then runs as one
    // dispatch (`whole_network`); columns of 37 in `sort_blocks`.
    let input = random_image(301, 37, 9);
    on_every_gpu(|gpu| {
        let bitonic = Bitonic::new(gpu);
        for key in SortKey::ALL {
            for descending in [false, true] {
                for axis in [Axis::Rows, Axis::Columns] {
                    let options = SortOptions { key, descending, axis };
                    check_batches(gpu, &bitonic, &input, options, None, u32::MAX);
                }
            }
        }
    });
    crate::common::ci::passed();
}

#[test]
fn ranks_of_31_and_32_bits_sort_and_count_exactly() {
    // Hue keys take 19 bits: with lines of 4000 the rank takes 31 (`sort_lines`, whose padding
    // ranks then sit just above the largest pixel's), with lines of 5000 it takes 32, too many
    // for `sort_lines`, which tells ranks apart by the sign of their difference (a line of 5000
    // would fit its workgroup memory on an NVIDIA GPU, not on the software GPUs).
    on_every_gpu(|gpu| {
        let bitonic = Bitonic::new(gpu);
        for (width, seed) in [(4000, 13), (5000, 14)] {
            let input = random_image(width, 2, seed);
            for descending in [false, true] {
                let options = SortOptions { key: SortKey::Hue, descending, axis: Axis::Rows };
                check_batches(gpu, &bitonic, &input, options, None, u32::MAX);
            }
        }
    });
    crate::common::ci::passed();
}

#[test]
fn a_restarted_run_counts_only_its_own_exchanges() {
    // The counters are zeroed at a restart, not before each batch: what steps recorded before
    // it added, read or not, must not reach the counts after it.
    let input = random_image(301, 6, 12);
    let options = SortOptions::default();
    let mut model = BitonicModel::new(&input, options, None);
    let exchanges: u64 = (0..model.stages()).map(|_| model.step()).sum();
    on_every_gpu(|gpu| {
        let bitonic = Bitonic::new(gpu);
        let mut run = bitonic.start(gpu, StartRequest::new(&input, options).within(None));
        let reader = Driver::new(&run);
        for (read_before_restart, batch) in [(true, 1), (false, 5), (true, u32::MAX), (false, u32::MAX)] {
            let mut encoder = gpu.device.create_command_encoder(&Default::default());
            run.encode_steps(&mut encoder, batch);
            gpu.queue.submit([encoder.finish()]);
            if read_before_restart {
                reader.collect(gpu, &mut run).unwrap();
            }
            let mut encoder = gpu.device.create_command_encoder(&Default::default());
            run.restart(&mut encoder);
            gpu.queue.submit([encoder.finish()]);
            run_to(gpu, &mut run, u32::MAX, |_| true).unwrap();
            let what = format!("steps of {batch} before the restart, read: {read_before_restart}");
            assert_eq!(run.stats().total_swaps, exchanges, "{what}");
            assert!(read_texture(gpu, run.state()).unwrap() == *model.state(), "{what}");
        }
    });
    crate::common::ci::passed();
}

#[test]
fn ranks_take_two_words_where_the_key_and_the_origin_do_not_fit_one() {
    // Hue keys take 19 bits; positions in a line of 8200 take 14.
    let input = random_image(8200, 2, 10);
    on_every_gpu(|gpu| {
        let bitonic = Bitonic::new(gpu);
        let options = SortOptions { key: SortKey::Hue, descending: true, axis: Axis::Rows };
        let run = bitonic.start(gpu, StartRequest::new(&input, options).within(None));
        assert!(run.wide());
        assert_eq!(run.total_steps(), network(8200).len() as u32);
        check_batches(gpu, &bitonic, &input, options, None, 7);
    });
    crate::common::ci::passed();
}

#[test]
fn restarting_returns_to_the_input_and_new_intervals_take_effect() {
    let input = random_image(90, 6, 11);
    on_every_gpu(|gpu| {
        let bitonic = Bitonic::with_max_block(gpu, 32);
        let options = SortOptions { key: SortKey::Luma, descending: false, axis: Axis::Rows };
        let mut run = bitonic.start(gpu, StartRequest::new(&input, options).within(None));
        run_to(gpu, &mut run, 5, |_| true).unwrap();
        let intervals = random_intervals(90, 6, Axis::Rows, 12);
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        run.restart_within(gpu, &mut encoder, Some(&intervals)).unwrap();
        gpu.queue.submit([encoder.finish()]);
        assert_eq!(run.steps_done(), 0);
        assert!(read_texture(gpu, run.state()).unwrap() == input);
        assert_eq!(run.total_steps(), network(intervals.max_interval_len()).len() as u32);
        run_to(gpu, &mut run, u32::MAX, |_| true).unwrap();
        assert!(read_texture(gpu, run.state()).unwrap() == stable_sort_within(&input, &options, &intervals));
    });
    crate::common::ci::passed();
}
