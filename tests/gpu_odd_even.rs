//! The odd-even pass on the GPU equals the CPU model after every pass, for both pass kinds,
//! every key, both orders and axes, awkward sizes and a real photo, on every backend under test.

mod common;

use common::on_every_gpu;
use image::RgbaImage;
use shadersort::algorithms::SortRun;
use shadersort::algorithms::odd_even::{OddEven, PassKind};
use shadersort::algorithms::request::StartRequest;
use shadersort::engine::drive::Driver;
use shadersort::engine::drive::run_to;
use shadersort::gpu::Gpu;
use shadersort::gpu::readback::read_texture;
use shadersort::keys::SortKey;
use shadersort::keys::options::{Axis, SortOptions};
use shadersort::picture::input::Picture;
use shadersort::picture::patterns::random_image;
use shadersort::reference::{self, lines_are_permutations, stable_sort};

const KINDS: [PassKind; 2] = [PassKind::Compute, PassKind::Fragment];

/// Steps the GPU one pass at a time and compares state, swap count and "sorted" report with the
/// CPU model after every pass; returns the final state.
fn check_every_pass(
    gpu: &Gpu,
    odd_even: &OddEven,
    input: &RgbaImage,
    options: SortOptions,
    kind: PassKind,
) -> RgbaImage {
    let what = format!("{}x{} {options:?} {kind:?}", input.width(), input.height());
    let mut run = odd_even.start(gpu, StartRequest::new(input, options).pass_kind(kind));
    let swaps = Driver::new(&run);
    let total = run.total_steps();
    assert_eq!(total, options.line_len(input.width(), input.height()), "{what}");
    let mut model = input.clone();
    let mut model_swaps = Vec::new();
    for pass in 0..total {
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        assert_eq!(run.encode_steps(&mut encoder, 1), 1);
        gpu.queue.submit([encoder.finish()]);
        swaps.collect(gpu, &mut run).unwrap();
        let swaps = reference::odd_even_pass(&mut model, &options, pass);
        model_swaps.push(swaps);
        let state = read_texture(gpu, run.state()).unwrap();
        assert!(state == model, "{what}: pass {pass} differs from the CPU model");
        assert!(lines_are_permutations(input, &state, options.axis), "{what}: pass {pass} lost a pixel");
        assert_eq!(u64::from(run.stats().last_step_swaps.unwrap()), swaps, "{what}: swaps of pass {pass}");
    }
    assert_eq!(run.encode_steps(&mut gpu.device.create_command_encoder(&Default::default()), 1), 0);
    assert_eq!(model, stable_sort(input, &options), "{what}: W passes must sort every line");
    assert_eq!(run.stats().sorted_after, Some(model_sorted_after(&model_swaps)), "{what}");
    model
}

/// When the run should report the picture sorted: before two consecutive passes without a swap,
/// or after all passes.
fn model_sorted_after(swaps: &[u64]) -> u32 {
    if swaps.len() <= 1 {
        return 0;
    }
    let pair = swaps.windows(2).position(|w| w[0] == 0 && w[1] == 0);
    pair.map_or(swaps.len() as u32, |i| i as u32)
}

/// 1x1, 1xN, Nx1, 2x2, odd widths, 63/64/65 (the workgroup is 16 wide), and widths whose rows
/// are not a multiple of 256 bytes.
const AWKWARD_SIZES: [(u32, u32); 11] =
    [(1, 1), (1, 19), (19, 1), (2, 2), (3, 5), (63, 3), (64, 3), (65, 3), (67, 2), (17, 33), (100, 3)];

#[test]
fn every_pass_matches_the_model_on_awkward_sizes() {
    on_every_gpu(|gpu| {
        let odd_even = OddEven::new(gpu);
        for (i, &(w, h)) in AWKWARD_SIZES.iter().enumerate() {
            let input = random_image(w, h, 100 + i as u64);
            for (j, axis) in [Axis::Rows, Axis::Columns].into_iter().enumerate() {
                // Rotate through keys and orders so every size meets several of them.
                let key = SortKey::ALL[(i + 3 * j) % SortKey::ALL.len()];
                let options = SortOptions { key, descending: (i + j) % 2 == 1, axis };
                let results = KINDS.map(|kind| check_every_pass(gpu, &odd_even, &input, options, kind));
                assert_eq!(results[0], results[1]);
            }
        }
    });
    crate::common::ci::passed();
}

#[test]
fn every_key_and_order_matches_the_model_for_both_pass_kinds() {
    on_every_gpu(|gpu| {
        let odd_even = OddEven::new(gpu);
        let input = random_image(21, 6, 7);
        for key in SortKey::ALL {
            for descending in [false, true] {
                let options = SortOptions { key, descending, axis: Axis::Rows };
                for kind in KINDS {
                    check_every_pass(gpu, &odd_even, &input, options, kind);
                }
            }
        }
    });
    crate::common::ci::passed();
}

#[test]
fn a_photo_matches_the_model_after_every_pass() {
    let photo = Picture::built_in().pixels;
    let crop = image::imageops::crop_imm(&photo, 200, 150, 150, 100).to_image();
    on_every_gpu(|gpu| {
        let odd_even = OddEven::new(gpu);
        for kind in KINDS {
            check_every_pass(gpu, &odd_even, &crop, SortOptions::default(), kind);
        }
    });
    crate::common::ci::passed();
}

#[test]
fn the_whole_photo_sorts_in_batches_to_the_stable_sort() {
    let photo = Picture::built_in().pixels;
    on_every_gpu(|gpu| {
        let odd_even = OddEven::new(gpu);
        for (kind, axis) in [(PassKind::Compute, Axis::Rows), (PassKind::Fragment, Axis::Columns)] {
            let options = SortOptions { axis, ..Default::default() };
            let mut run = odd_even.start(gpu, StartRequest::new(&photo, options).pass_kind(kind));
            run_to(gpu, &mut run, u32::MAX, |_| true).unwrap();
            let state = read_texture(gpu, run.state()).unwrap();
            assert!(state == stable_sort(&photo, &options), "{kind:?} {axis:?}");
            assert!(run.stats().sorted_after.is_some());
        }
    });
    crate::common::ci::passed();
}

#[test]
fn batches_stop_where_asked_and_restart_returns_to_the_input() {
    let input = random_image(40, 9, 3);
    let options = SortOptions::default();
    on_every_gpu(|gpu| {
        let odd_even = OddEven::new(gpu);
        for kind in KINDS {
            let mut run = odd_even.start(gpu, StartRequest::new(&input, options).pass_kind(kind));
            run_to(gpu, &mut run, 13, |_| true).unwrap();
            assert_eq!(run.steps_done(), 13);
            assert!(
                read_texture(gpu, run.state()).unwrap() == reference::odd_even_passes(&input, &options, 13)
            );
            let mut encoder = gpu.device.create_command_encoder(&Default::default());
            run.restart(&mut encoder);
            gpu.queue.submit([encoder.finish()]);
            assert_eq!(run.steps_done(), 0);
            assert!(read_texture(gpu, run.state()).unwrap() == input);
            run_to(gpu, &mut run, 5, |_| true).unwrap();
            assert!(
                read_texture(gpu, run.state()).unwrap() == reference::odd_even_passes(&input, &options, 5)
            );
        }
    });
    crate::common::ci::passed();
}

#[test]
fn a_reversed_row_needs_all_w_passes_and_a_sorted_row_stops_at_once() {
    let width = 37;
    let mut reversed = RgbaImage::new(width, 2);
    for (x, _, p) in reversed.enumerate_pixels_mut() {
        p.0 = [(width - x) as u8 * 5, 0, 0, 255];
    }
    let sorted = stable_sort(&reversed, &SortOptions::default());
    on_every_gpu(|gpu| {
        let odd_even = OddEven::new(gpu);
        let mut run = odd_even
            .start(gpu, StartRequest::new(&reversed, SortOptions::default()).pass_kind(PassKind::Compute));
        run_to(gpu, &mut run, width - 1, |_| true).unwrap();
        assert!(read_texture(gpu, run.state()).unwrap() != sorted, "W - 1 passes must not suffice");
        run_to(gpu, &mut run, width, |_| true).unwrap();
        assert!(read_texture(gpu, run.state()).unwrap() == sorted);
        assert_eq!(run.stats().sorted_after, Some(width));

        let mut run = odd_even
            .start(gpu, StartRequest::new(&sorted, SortOptions::default()).pass_kind(PassKind::Fragment));
        run_to(gpu, &mut run, u32::MAX, |_| true).unwrap();
        assert_eq!(run.stats().sorted_after, Some(0), "two passes without a swap prove it sorted");
        assert!(run.steps_done() < width, "the run stops early once sorted");
        assert!(read_texture(gpu, run.state()).unwrap() == sorted);
    });
    crate::common::ci::passed();
}

#[test]
fn rows_longer_than_the_swap_counter_ring_are_counted_correctly() {
    // 1100 passes wrap the ring of 1024 counters.
    let input = random_image(1100, 2, 9);
    let options = SortOptions { key: SortKey::Red, ..Default::default() };
    let mut model = input.clone();
    let total: u64 = (0..1100).map(|i| reference::odd_even_pass(&mut model, &options, i)).sum();
    on_every_gpu(|gpu| {
        let odd_even = OddEven::new(gpu);
        let mut run = odd_even.start(gpu, StartRequest::new(&input, options).pass_kind(PassKind::Compute));
        run_to(gpu, &mut run, u32::MAX, |_| true).unwrap();
        let state = read_texture(gpu, run.state()).unwrap();
        assert!(state == model);
        // Passes after the sorted point swap nothing, so the totals agree however early it stopped.
        assert_eq!(run.stats().total_swaps, total);
        assert!(run.steps_done() > 1024, "the ring must have wrapped for this test to mean anything");
    });
    crate::common::ci::passed();
}

/// Both software GPUs can write storage from fragment shaders, so the fragment tests above run
/// real fragment passes, not the compute stand-in that adapters without it get.
#[test]
fn the_software_gpus_run_real_fragment_passes() {
    on_every_gpu(|gpu| {
        assert!(shadersort::algorithms::odd_even::fragment_pass_supported(gpu), "{}", gpu.describe());
        let run = OddEven::new(gpu).start(
            gpu,
            StartRequest::new(&random_image(5, 3, 1), SortOptions::default()).pass_kind(PassKind::Fragment),
        );
        assert_eq!(run.notice(), None);
    });
    crate::common::ci::passed();
}
