//! The single-workgroup bubble sort equals the CPU odd-even model after every budgeted
//! dispatch and at completion, stops early exactly, and falls back for lines longer than a
//! workgroup holds; on every backend under test.

mod common;

use common::on_every_gpu;
use image::RgbaImage;
use shadersort::algorithms::SortRun;
use shadersort::algorithms::bubble::{Bubble, BubbleRun};
use shadersort::algorithms::request::StartRequest;
use shadersort::engine::drive::Driver;
use shadersort::engine::drive::run_to;
use shadersort::gpu::Gpu;
use shadersort::gpu::readback::read_texture;
use shadersort::keys::SortKey;
use shadersort::keys::options::{Axis, SortOptions};
use shadersort::picture::patterns::random_image;
use shadersort::reference::{self, lines_are_permutations, stable_sort};

/// Steps the run one budgeted dispatch at a time and compares every state, and the swaps of
/// every dispatch, with the CPU model at the same number of phases.
fn check_every_step(
    gpu: &Gpu,
    bubble: &Bubble,
    input: &RgbaImage,
    options: SortOptions,
    phases_per_step: u32,
) {
    let what = format!("{}x{} {options:?} {phases_per_step} phases per step", input.width(), input.height());
    let mut run = bubble
        .start_in_workgroups(gpu, StartRequest::new(input, options).phases_per_step(phases_per_step))
        .expect("the lines fit");
    let driver = Driver::new(&run);
    let len = options.line_len(input.width(), input.height());
    let per_step = run.phases_per_step();
    assert_eq!(run.total_steps(), len.div_ceil(per_step), "{what}");
    let mut model = input.clone();
    let mut phases = 0;
    while run.steps_done() < run.total_steps() {
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        assert_eq!(run.encode_steps(&mut encoder, 1), 1);
        gpu.queue.submit([encoder.finish()]);
        driver.collect(gpu, &mut run).unwrap();
        let end = (phases + per_step).min(len);
        let swaps: u64 = (phases..end).map(|p| reference::odd_even_pass(&mut model, &options, p)).sum();
        phases = end;
        let state = read_texture(gpu, run.state()).unwrap();
        assert!(state == model, "{what}: differs from the model after {phases} phases");
        assert!(lines_are_permutations(input, &state, options.axis), "{what}: lost a pixel");
        assert_eq!(
            u64::from(run.stats().last_step_swaps.unwrap()),
            swaps,
            "{what}: swaps up to phase {phases}"
        );
    }
    assert!(model == stable_sort(input, &options), "{what}: not the stable sort at completion");
    assert!(run.stats().sorted_after.is_some(), "{what}: never reported sorted");
}

const AWKWARD_SIZES: [(u32, u32); 10] =
    [(1, 1), (1, 19), (19, 1), (2, 2), (3, 5), (63, 3), (64, 3), (65, 3), (67, 2), (600, 2)];

#[test]
fn every_budgeted_dispatch_matches_the_model_on_awkward_sizes() {
    on_every_gpu(|gpu| {
        let bubble = Bubble::new(gpu);
        for (i, &(w, h)) in AWKWARD_SIZES.iter().enumerate() {
            let input = random_image(w, h, 300 + i as u64);
            for (j, axis) in [Axis::Rows, Axis::Columns].into_iter().enumerate() {
                let key = SortKey::ALL[(i + 2 * j) % SortKey::ALL.len()];
                let options = SortOptions { key, descending: (i + j) % 2 == 0, axis };
                for phases in [1, 2, 7, u32::MAX] {
                    check_every_step(gpu, &bubble, &input, options, phases);
                }
            }
        }
    });
    crate::common::ci::passed();
}

#[test]
fn every_key_and_order_sorts_like_odd_even() {
    let input = random_image(97, 5, 8);
    on_every_gpu(|gpu| {
        let bubble = Bubble::new(gpu);
        for key in SortKey::ALL {
            for descending in [false, true] {
                check_every_step(gpu, &bubble, &input, SortOptions { key, descending, axis: Axis::Rows }, 16);
            }
        }
    });
    crate::common::ci::passed();
}

/// Rows already sorted, reversed, and all equal, with an unbounded budget.
#[test]
fn an_already_sorted_row_costs_one_phase_pair_and_the_exit_is_exact() {
    let w = 300;
    let sorted = RgbaImage::from_fn(w, 3, |x, y| image::Rgba([(x / 2) as u8, y as u8, 0, 255]));
    let reversed = RgbaImage::from_fn(w, 3, |x, y| image::Rgba([((w - 1 - x) / 2) as u8, y as u8, 0, 255]));
    let equal = RgbaImage::from_pixel(w, 3, image::Rgba([7, 7, 7, 7]));
    let options = SortOptions { key: SortKey::Red, ..Default::default() };
    on_every_gpu(|gpu| {
        let bubble = Bubble::new(gpu);
        for (name, input, most_phases) in
            [("sorted", &sorted, 2), ("equal", &equal, 2), ("reversed", &reversed, w)]
        {
            let mut run = bubble
                .start_in_workgroups(gpu, StartRequest::new(input, options).phases_per_step(u32::MAX))
                .unwrap();
            assert_eq!(run.total_steps(), 1, "an unbounded budget is one dispatch");
            run_to(gpu, &mut run, u32::MAX, |_| true).unwrap();
            let state = read_texture(gpu, run.state()).unwrap();
            assert!(state == stable_sort(input, &options), "{name}");
            assert!(
                state == reference::odd_even_passes(input, &options, w),
                "{name}: the exit changed the result"
            );
            let phases = run.last_step_phases().unwrap();
            assert!(phases <= most_phases, "{name}: ran {phases} phases, at most {most_phases} expected");
            assert_eq!(run.stats().sorted_after, Some(1), "{name}");
        }
        check_every_step(gpu, &bubble, &reversed, options, 5);
    });
    crate::common::ci::passed();
}

#[test]
fn lines_at_and_around_the_capacity() {
    on_every_gpu(|gpu| {
        let bubble = Bubble::new(gpu);
        let capacity = bubble.capacity();
        assert_eq!(capacity, shadersort::algorithms::bubble::row_capacity(&gpu.device.limits()));
        let options = SortOptions::default();
        for width in [capacity - 1, capacity] {
            let input = random_image(width, 2, u64::from(width));
            let mut run: BubbleRun = bubble
                .start_in_workgroups(gpu, StartRequest::new(&input, options).phases_per_step(width / 2))
                .unwrap();
            let driver = Driver::new(&run);
            let mut encoder = gpu.device.create_command_encoder(&Default::default());
            run.encode_steps(&mut encoder, 1);
            gpu.queue.submit([encoder.finish()]);
            driver.collect(gpu, &mut run).unwrap();
            let half = reference::odd_even_passes(&input, &options, width / 2);
            let got = read_texture(gpu, run.state()).unwrap();
            assert!(got == half, "width {width}: after half the phases");
            run_to(gpu, &mut run, u32::MAX, |_| true).unwrap();
            assert!(
                read_texture(gpu, run.state()).unwrap() == stable_sort(&input, &options),
                "width {width}"
            );
        }
        // The whole sort of a full-capacity line in one dispatch (on llvmpipe this needs the
        // large workgroup: it ends loops after 65535 trips).
        let input = random_image(capacity, 1, 77);
        let mut run = bubble
            .start_in_workgroups(gpu, StartRequest::new(&input, options).phases_per_step(u32::MAX))
            .unwrap();
        assert_eq!(run.total_steps(), 1);
        run_to(gpu, &mut run, u32::MAX, |_| true).unwrap();
        assert!(
            read_texture(gpu, run.state()).unwrap() == stable_sort(&input, &options),
            "one dispatch at capacity"
        );
        // One pixel more: global odd-even passes instead, and the user is told.
        let input = random_image(capacity + 1, 1, 3);
        assert!(
            bubble.start_in_workgroups(gpu, StartRequest::new(&input, options).phases_per_step(2)).is_none()
        );
        let mut run = bubble.start(gpu, StartRequest::new(&input, options).phases_per_step(u32::MAX));
        assert!(run.notice().is_some_and(|n| n.contains("do not fit one workgroup")));
        run_to(gpu, run.as_mut(), u32::MAX, |_| true).unwrap();
        assert!(read_texture(gpu, run.state()).unwrap() == stable_sort(&input, &options));
    });
    crate::common::ci::passed();
}
