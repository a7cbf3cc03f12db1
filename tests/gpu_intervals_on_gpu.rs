//! Sorts that start from a picture already on the GPU and find their intervals there (a clip's
//! frames): threshold intervals and the bitonic network's plan made on the GPU equal what the CPU
//! makes from its map, and odd-even (compute and fragment), bubble and bitonic (in the device's
//! blocks and in blocks of 4) sort within them exactly as the CPU model does within the CPU's
//! map, step by step; odd-even and bubble along whole lines from a texture too. On awkward
//! sizes, both axes, both orders, every backend under test.

mod common;

use common::on_every_gpu;
use common::steps::{AWKWARD_SIZES, check_every_algorithm, every_pipeline};
use image::RgbaImage;
use shadersort::algorithms::bitonic::plan::{GpuPlan, Plan, PlanKernel, slots_per_line};
use shadersort::algorithms::found_intervals::{FoundIntervals, IntervalsKernel};
use shadersort::algorithms::interval_texture::interval_id_texture;
use shadersort::algorithms::map_source::MapSource;
use shadersort::gpu::readback::read_u32s;
use shadersort::gpu::texture::picture_texture;
use shadersort::intervals::{IntervalMap, IntervalMode, IntervalSettings, Threshold};
use shadersort::keys::SortKey;
use shadersort::keys::options::{Axis, SortOptions};
use shadersort::picture::patterns::random_image;

/// The CPU's map of the threshold intervals the GPU is asked to find.
fn cpu_map(picture: &RgbaImage, (key, threshold, axis): (SortKey, Threshold, Axis)) -> IntervalMap {
    let settings = IntervalSettings { mode: IntervalMode::Threshold, key, threshold, ..Default::default() };
    IntervalMap::compute(picture, axis, &settings, None).unwrap()
}

/// Thresholds that make many intervals, none (an empty range), every pixel one interval, and few.
fn thresholds(i: usize) -> [(SortKey, Threshold); 3] {
    [
        (SortKey::ALL[i % SortKey::ALL.len()], Threshold::new(0.3, 0.7).unwrap()),
        (SortKey::Red, Threshold::new(0.3, 0.3).unwrap()),
        (SortKey::Luma, if i.is_multiple_of(2) { Threshold::ALL } else { Threshold::new(0.1, 0.9).unwrap() }),
    ]
}

/// The plan `bitonic_plan.wgsl` makes from GPU-found interval ids equals `Plan::new` from the CPU's
/// map of the same intervals: every position's interval, and every line's units in order (its
/// unused slots empty), for blocks smaller and larger than the lines.
#[test]
fn the_bitonic_plan_made_on_the_gpu_equals_the_cpu_plan() {
    on_every_gpu(|gpu| {
        let (threshold_kernel, plan_kernel) = (IntervalsKernel::new(gpu), PlanKernel::new(gpu));
        // Lines longer than the kernel's 256 invocations too: chunks of several positions; and
        // longer than a round of its packing (2048 positions), ending within one and at one's end.
        let sizes = AWKWARD_SIZES.iter().chain(&[(700, 3), (2, 513), (1031, 1), (4500, 1), (1, 4096)]);
        for (i, &(w, h)) in sizes.enumerate() {
            let picture = random_image(w, h, 300 + i as u64);
            let texture = picture_texture(gpu, &picture, "test::picture");
            let ids = interval_id_texture(gpu, w, h, "test::interval_ids");
            for axis in [Axis::Rows, Axis::Columns] {
                let (len, lines) = if axis == Axis::Rows { (w, h) } else { (h, w) };
                for (key, threshold) in thresholds(i) {
                    let intervals = FoundIntervals::threshold(key, threshold, axis);
                    let map = cpu_map(&picture, (key, threshold, axis));
                    for block in [2, 4, 2048] {
                        let plan = GpuPlan::new(gpu, axis, (len, lines), block);
                        let mut encoder = gpu.device.create_command_encoder(&Default::default());
                        threshold_kernel.encode(gpu, &mut encoder, &texture, &ids, intervals);
                        plan_kernel.encode(gpu, &mut encoder, &ids, &plan);
                        gpu.queue.submit([encoder.finish()]);
                        let what = format!("{w}x{h} {axis:?} {key:?} {threshold:?} blocks of {block}");
                        let expected = Plan::new(len, lines, Some(&map), block);
                        let bounds = read_u32s(gpu, &plan.bounds, 0, (len * lines) as usize).unwrap();
                        assert!(bounds == expected.bounds, "{what}: intervals per position");
                        let slots = slots_per_line(len, block);
                        assert_eq!(plan.unit_count, slots * lines, "{what}");
                        let words = read_u32s(gpu, &plan.units, 0, 4 * plan.unit_count as usize).unwrap();
                        let units: Vec<[u32; 4]> =
                            words.chunks(4).map(|u| [u[0], u[1], u[2], u[3]]).collect();
                        for (line, slots) in units.chunks(slots as usize).enumerate() {
                            assert!(
                                slots.iter().all(|u| u[0] == line as u32),
                                "{what}: slots of line {line}"
                            );
                            let used = slots.iter().take_while(|u| u[2] != 0).count();
                            assert!(
                                slots[used..].iter().all(|u| u[2] == 0),
                                "{what}: a unit after an empty slot"
                            );
                            let cpu: Vec<[u32; 4]> =
                                expected.units.iter().copied().filter(|u| u[0] == line as u32).collect();
                            assert_eq!(slots[..used], cpu[..], "{what}: units of line {line}");
                        }
                    }
                }
            }
        }
    });
    crate::common::ci::passed();
}

/// Every comparison sort within threshold intervals found on the GPU from a texture sorts as the
/// model does within the CPU's map of them, step by step (the steps are a line's worth; those
/// past the longest interval change nothing), on awkward sizes, both axes and orders.
#[test]
fn every_algorithm_within_threshold_intervals_found_on_the_gpu_matches_the_model() {
    on_every_gpu(|gpu| {
        let all = every_pipeline(gpu);
        let kernel = IntervalsKernel::new(gpu);
        for (i, &(w, h)) in AWKWARD_SIZES.iter().enumerate() {
            let input = random_image(w, h, 500 + i as u64);
            for axis in [Axis::Rows, Axis::Columns] {
                let options = SortOptions {
                    key: SortKey::ALL[(i + 3) % SortKey::ALL.len()],
                    descending: i % 2 == 0,
                    axis,
                };
                let (key, threshold) = thresholds(i)[if i % 3 == 2 { 2 } else { 0 }];
                let intervals = FoundIntervals::threshold(key, threshold, axis);
                let map = cpu_map(&input, (key, threshold, axis));
                let what = format!("within {key:?} {threshold:?}");
                check_every_algorithm(
                    gpu,
                    &all,
                    &input,
                    options,
                    MapSource::Gpu(&kernel, intervals),
                    Some(&map),
                    &what,
                );
            }
        }
    });
    crate::common::ci::passed();
}

/// Odd-even and bubble start from a texture along whole lines (a clip's frame converted from
/// 4:2:0 on the GPU) as bitonic does, each step as the model's.
#[test]
fn every_algorithm_sorts_whole_lines_from_a_texture_as_the_model() {
    on_every_gpu(|gpu| {
        let all = every_pipeline(gpu);
        for (i, &(w, h)) in [(1, 1), (13, 1), (1, 13), (65, 2), (17, 9)].iter().enumerate() {
            let input = random_image(w, h, 700 + i as u64);
            for axis in [Axis::Rows, Axis::Columns] {
                let options = SortOptions { key: SortKey::ALL[i], descending: i % 2 == 1, axis };
                check_every_algorithm(gpu, &all, &input, options, MapSource::Cpu(None), None, "whole lines");
            }
        }
    });
    crate::common::ci::passed();
}
