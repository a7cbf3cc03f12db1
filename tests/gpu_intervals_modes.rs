//! Intervals found on the GPU in every interval mode (a mask alone, threshold with a mask, edges
//! and random lengths, with and without a mask), along rows, columns and lines at angles (in
//! line space), equal the CPU's `IntervalMap` id for id, and every comparison sort within them
//! sorts as the model does within the CPU's map, step by step. On awkward sizes, both axes,
//! several seeds, levels and masks (all black, all white, random), every backend under test.

mod common;

use common::on_every_gpu;
use common::steps::{AWKWARD_SIZES, check_every_algorithm, every_pipeline};
use image::RgbaImage;
use shadersort::algorithms::found_intervals::{FoundIntervals, IntervalRule, IntervalsKernel, LineCells};
use shadersort::algorithms::gpu_mask::GpuMask;
use shadersort::algorithms::interval_texture::interval_id_texture;
use shadersort::algorithms::map_source::MapSource;
use shadersort::angle::{Angle, LineSpace};
use shadersort::gpu::Gpu;
use shadersort::gpu::readback::read_texture;
use shadersort::gpu::texture::picture_texture;
use shadersort::intervals::{IntervalLength, IntervalMap, IntervalMode, IntervalSettings, Mask, Threshold};
use shadersort::keys::SortKey;
use shadersort::keys::options::{Axis, SortOptions};
use shadersort::picture::patterns::{SplitMix64, random_image};

/// A mask of `w` x `h`: 0 all black, 1 all white, else random with that seed.
fn mask(w: u32, h: u32, kind: u64) -> Mask {
    let mut rng = SplitMix64::new(kind);
    Mask::from_fn(w, h, |_, _| match kind {
        0 => false,
        1 => true,
        _ => !rng.next_u32().is_multiple_of(4),
    })
}

/// A picture of smooth slopes with a few steps, so that edge levels between 0 and 1 fix some
/// pixels and not others (random noise is edges everywhere).
fn slopes(w: u32, h: u32, seed: u64) -> RgbaImage {
    let s = seed as u32;
    RgbaImage::from_fn(w, h, |x, y| {
        let step = if (x + s) % 7 < 3 { 90 } else { 0 };
        image::Rgba([(x * 9 + y * 2 + s) as u8, (y * 11 + step) as u8, (x * y + s * 5) as u8, 255])
    })
}

/// The interval settings every mode is tried with (`i` varies keys, levels, seeds, lengths).
fn modes(i: usize) -> Vec<IntervalSettings> {
    let key = SortKey::ALL[i % SortKey::ALL.len()];
    let base = IntervalSettings { key, ..Default::default() };
    let lengths = [(1, 1), (3, 7), (8, 64), (5, 5), (1, u32::MAX)][i % 5];
    vec![
        IntervalSettings { mode: IntervalMode::None, ..base },
        IntervalSettings {
            mode: IntervalMode::Threshold,
            threshold: Threshold::new(0.2, 0.8).unwrap(),
            ..base
        },
        IntervalSettings { mode: IntervalMode::Edges, edge_level: [0.0, 0.1, 0.3, 1.0][i % 4], ..base },
        IntervalSettings { mode: IntervalMode::Edges, key: SortKey::Luma, edge_level: 0.05, ..base },
        IntervalSettings {
            mode: IntervalMode::Random,
            seed: 17 * i as u64 + 1,
            interval_length: IntervalLength::new(lengths.0, lengths.1).unwrap(),
            ..base
        },
        IntervalSettings { mode: IntervalMode::Random, seed: u64::MAX - i as u64, ..base },
    ]
}

/// The interval ids the kernel finds in `picture` under `settings` and `mask`.
fn found_ids(
    gpu: &Gpu,
    kernel: &IntervalsKernel,
    picture: &RgbaImage,
    axis: Axis,
    settings: &IntervalSettings,
    mask: Option<&GpuMask>,
) -> Vec<u32> {
    let (w, h) = picture.dimensions();
    let texture = picture_texture(gpu, picture, "test::picture");
    let ids = interval_id_texture(gpu, w, h, "test::interval_ids");
    let intervals = FoundIntervals { mask, ..FoundIntervals::new(IntervalRule::of(settings), axis) };
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    kernel.encode(gpu, &mut encoder, &texture, &ids, intervals);
    gpu.queue.submit([encoder.finish()]);
    read_texture(gpu, &ids).unwrap().pixels().map(|p| u32::from_le_bytes(p.0)).collect()
}

/// Every mode, with no mask and with black, white and random masks, on noise and on slopes:
/// the GPU's ids are the CPU's map's, on lines shorter and longer than a workgroup.
#[test]
fn intervals_found_on_the_gpu_equal_the_cpu_map_in_every_mode() {
    let sizes = AWKWARD_SIZES.iter().copied().chain([(300, 3), (2, 270)]);
    on_every_gpu(|gpu| {
        let kernel = IntervalsKernel::new(gpu);
        for (i, (w, h)) in sizes.clone().enumerate() {
            let pictures = [random_image(w, h, 40 + i as u64), slopes(w, h, i as u64)];
            let masks = [None, Some(mask(w, h, 0)), Some(mask(w, h, 1)), Some(mask(w, h, 60 + i as u64))];
            for (m, mask) in masks.iter().enumerate() {
                let on_gpu = mask.as_ref().map(|m| GpuMask::new(gpu, m));
                for (p, picture) in pictures.iter().enumerate() {
                    for axis in [Axis::Rows, Axis::Columns] {
                        for settings in modes(i + m + p) {
                            if settings.mode == IntervalMode::None && mask.is_none() {
                                continue;
                            }
                            let got = found_ids(gpu, &kernel, picture, axis, &settings, on_gpu.as_ref());
                            let expected =
                                IntervalMap::compute(picture, axis, &settings, mask.as_ref()).unwrap();
                            assert!(
                                got == expected.ids(),
                                "{w}x{h} picture {p} mask {m} {axis:?} {settings:?}:\n got {got:?}\nwant {:?}",
                                expected.ids()
                            );
                        }
                    }
                }
            }
        }
    });
    crate::common::ci::passed();
}

/// Every comparison sort within intervals found on the GPU in each mode (a mask alone, threshold
/// with a mask, edges, random, random with a mask) sorts as the model does within the CPU's
/// map of them, step by step, on awkward sizes and both axes.
#[test]
fn every_algorithm_within_intervals_found_in_every_mode_matches_the_model() {
    on_every_gpu(|gpu| {
        let all = every_pipeline(gpu);
        let kernel = IntervalsKernel::new(gpu);
        let sizes = [(1, 1), (13, 1), (1, 13), (65, 2), (17, 9), (3, 5)];
        let cases = [
            (IntervalMode::None, true),
            (IntervalMode::Threshold, true),
            (IntervalMode::Edges, false),
            (IntervalMode::Edges, true),
            (IntervalMode::Random, false),
            (IntervalMode::Random, true),
        ];
        for (i, &(mode, masked)) in cases.iter().enumerate() {
            let (w, h) = sizes[i];
            let input = if mode == IntervalMode::Edges {
                slopes(w, h, i as u64)
            } else {
                random_image(w, h, 80 + i as u64)
            };
            let mask = masked.then(|| mask(w, h, 90 + i as u64));
            let on_gpu = mask.as_ref().map(|m| GpuMask::new(gpu, m));
            let settings = modes(i).into_iter().find(|s| s.mode == mode).unwrap();
            for axis in [Axis::Rows, Axis::Columns] {
                let options = SortOptions { key: SortKey::ALL[i], descending: i % 2 == 0, axis };
                let map = IntervalMap::compute(&input, axis, &settings, mask.as_ref()).unwrap();
                let intervals = FoundIntervals {
                    mask: on_gpu.as_ref(),
                    ..FoundIntervals::new(IntervalRule::of(&settings), axis)
                };
                let what = format!("within {settings:?}, masked {masked}");
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

/// The ids the kernel finds in line space for `picture` along `space`'s lines.
fn found_ids_at_angle(
    gpu: &Gpu,
    kernel: &IntervalsKernel,
    picture: &RgbaImage,
    space: &LineSpace,
    settings: &IntervalSettings,
    mask: Option<&GpuMask>,
) -> Vec<u32> {
    let (lw, lines) = space.size();
    let texture = picture_texture(gpu, picture, "test::picture");
    let line_space = picture_texture(gpu, &space.gather(picture), "test::line_space");
    let ids = interval_id_texture(gpu, lw, lines, "test::interval_ids");
    let tables = space.tables(gpu);
    let angled = Some(LineCells { picture: &texture, cells: &tables.cells });
    let intervals =
        FoundIntervals { mask, angled, ..FoundIntervals::new(IntervalRule::of(settings), Axis::Rows) };
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    kernel.encode(gpu, &mut encoder, &line_space, &ids, intervals);
    gpu.queue.submit([encoder.finish()]);
    read_texture(gpu, &ids).unwrap().pixels().map(|p| u32::from_le_bytes(p.0)).collect()
}

/// Angles off the axes, both ways along rows and columns, and one whose lines have no padding.
const ANGLES: [f64; 6] = [30.0, 135.0, 200.0, 290.0, 63.43494882, 180.0];

/// At angles, in line space: every mode (whole lines too, the padding fixed), with and without
/// black, white and random masks, on noise and on slopes: the GPU's ids are those of the
/// CPU's line-space map (`LineSpace::interval_map`), on awkward sizes.
#[test]
fn intervals_found_on_the_gpu_at_angles_equal_the_cpu_map_in_line_space() {
    let sizes = AWKWARD_SIZES.iter().copied().chain([(300, 3), (2, 270)]);
    on_every_gpu(|gpu| {
        let kernel = IntervalsKernel::new(gpu);
        for (i, (w, h)) in sizes.clone().enumerate() {
            let pictures = [random_image(w, h, 140 + i as u64), slopes(w, h, i as u64 + 3)];
            let masks = [None, Some(mask(w, h, 0)), Some(mask(w, h, 1)), Some(mask(w, h, 160 + i as u64))];
            for (m, mask) in masks.iter().enumerate() {
                let on_gpu = mask.as_ref().map(|m| GpuMask::new(gpu, m));
                for (p, picture) in pictures.iter().enumerate() {
                    let degrees = ANGLES[(i + m + p) % ANGLES.len()];
                    let space = LineSpace::new(w, h, Angle::new(degrees).unwrap());
                    for settings in modes(i + m + p) {
                        let got =
                            found_ids_at_angle(gpu, &kernel, picture, &space, &settings, on_gpu.as_ref());
                        let expected = space.interval_map(picture, &settings, mask.as_ref()).unwrap();
                        assert!(
                            got == expected.ids(),
                            "{w}x{h} at {degrees}° picture {p} mask {m} {settings:?}:\n got {got:?}\nwant {:?}",
                            expected.ids()
                        );
                    }
                }
            }
        }
    });
    crate::common::ci::passed();
}

/// Every algorithm sorting line space within intervals found on the GPU at an angle (whole lines,
/// a mask alone, threshold with a mask, edges, random) sorts as the model does within the
/// CPU's line-space map, step by step; the padding never moves.
#[test]
fn every_algorithm_within_intervals_found_at_angles_matches_the_model() {
    on_every_gpu(|gpu| {
        let all = every_pipeline(gpu);
        let kernel = IntervalsKernel::new(gpu);
        let sizes = [(1, 1), (13, 2), (2, 13), (17, 9), (9, 5), (6, 7)];
        let cases = [
            (IntervalMode::None, false),
            (IntervalMode::None, true),
            (IntervalMode::Threshold, true),
            (IntervalMode::Edges, false),
            (IntervalMode::Random, false),
            (IntervalMode::Random, true),
        ];
        for (i, &(mode, masked)) in cases.iter().enumerate() {
            let (w, h) = sizes[i];
            let degrees = ANGLES[i];
            let space = LineSpace::new(w, h, Angle::new(degrees).unwrap());
            let input = if mode == IntervalMode::Edges {
                slopes(w, h, i as u64)
            } else {
                random_image(w, h, 180 + i as u64)
            };
            let mask = masked.then(|| mask(w, h, 190 + i as u64));
            let on_gpu = mask.as_ref().map(|m| GpuMask::new(gpu, m));
            let settings = modes(i).into_iter().find(|s| s.mode == mode).unwrap();
            let map = space.interval_map(&input, &settings, mask.as_ref()).unwrap();
            let texture = picture_texture(gpu, &input, "test::picture");
            let tables = space.tables(gpu);
            let angled = Some(LineCells { picture: &texture, cells: &tables.cells });
            let intervals = FoundIntervals {
                mask: on_gpu.as_ref(),
                angled,
                ..FoundIntervals::new(IntervalRule::of(&settings), Axis::Rows)
            };
            let options = SortOptions { key: SortKey::ALL[i], descending: i % 2 == 1, axis: Axis::Rows };
            let what = format!("at {degrees}° within {settings:?}, masked {masked}");
            let source = MapSource::Gpu(&kernel, intervals);
            check_every_algorithm(gpu, &all, &space.gather(&input), options, source, Some(&map), &what);
        }
    });
    crate::common::ci::passed();
}
