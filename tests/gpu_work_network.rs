//! The work the bitonic network and the radix view report for each step (comparisons, swaps,
//! bytes read and written, barriers) equals what their kernels do by definition
//! (`tests/work_models`), step by step and in total: stepped one at a time and encoded all at
//! once, on awkward sizes and lines long enough for several blocks and global stages, rows and
//! columns, whole lines and within random and threshold intervals (found on the CPU, and for
//! the network on the GPU too), every radix kind; and in line space, along lines at an angle
//! and a path's rings; on every backend under test.

mod common;
#[path = "common/laid_lines.rs"]
#[allow(dead_code, reason = "the harness serves several tests; this one starts runs in line space")]
mod laid_lines;
mod work_models;

use common::on_every_gpu;
use common::steps::{AWKWARD_SIZES, every_pipeline, start};
use image::RgbaImage;
use laid_lines::{Case, Kit};
use shadersort::algorithms::bitonic::{Bitonic, BitonicTuning};
use shadersort::algorithms::found_intervals::{FoundIntervals, IntervalsKernel};
use shadersort::algorithms::interval_texture::IntervalMapError;
use shadersort::algorithms::kernel_view::{Dispatch, Grid};
use shadersort::algorithms::map_source::MapSource;
use shadersort::algorithms::radix::plan::{RadixPlan, Sequences};
use shadersort::algorithms::radix::{Radix, RadixParams, RadixSettings};
use shadersort::algorithms::request::StartRequest;
use shadersort::algorithms::work::Work;
use shadersort::algorithms::{Pipelines, RunSettings, SortRun};
use shadersort::angle::path_space::line_space;
use shadersort::angle::{Angle, AngledRun, LineSpace};
use shadersort::gpu::Gpu;
use shadersort::gpu::readback::map_and_read;
use shadersort::intervals::{IntervalLength, IntervalMap, IntervalMode, IntervalSettings, Threshold};
use shadersort::keys::SortKey;
use shadersort::keys::options::{Axis, LineLayout, Scope, SortOptions};
use shadersort::keys::radix_key::DIGIT_BITS;
use shadersort::paths::{Centre, Path, PathKind};
use shadersort::picture::patterns::random_image;
use shadersort::reference::bitonic::{BitonicModel, network};
use shadersort::reference::radix::radix_steps_within;
use std::ops::Range;
use wgpu_radix_sort::{RadixSorter, SegmentedSorter};
use work_models::bitonic::{self, Kernel, Sorted};
use work_models::radix::{self, Picture, Steps};

/// The awkward sizes, and lines long enough for several blocks, `sort_lines` and global stages.
fn sizes() -> Vec<(u32, u32)> {
    AWKWARD_SIZES.iter().copied().chain([(200, 3), (600, 2), (3, 130)]).collect()
}

/// Whole lines, random intervals short and long, and threshold intervals of `picture`.
fn maps(picture: &RgbaImage, axis: Axis, i: usize) -> Vec<(&'static str, Option<IntervalMap>)> {
    let random = |min, max| IntervalSettings {
        mode: IntervalMode::Random,
        seed: 90 + i as u64,
        interval_length: IntervalLength::new(min, max).unwrap(),
        ..Default::default()
    };
    let threshold = IntervalSettings {
        mode: IntervalMode::Threshold,
        key: SortKey::ALL[i % SortKey::ALL.len()],
        threshold: Threshold::new(0.3, 0.7).unwrap(),
        ..Default::default()
    };
    let map = |settings| Some(IntervalMap::compute(picture, axis, &settings, None).unwrap());
    vec![
        ("whole lines", None),
        ("random 2..9", map(random(2, 9))),
        ("random 5..70", map(random(5, 70))),
        ("threshold", map(threshold)),
    ]
}

/// Reads the counts of the next step alone and hands them to the run.
fn collect_one(gpu: &Gpu, run: &mut dyn SortRun) {
    let size = run.swap_readback_size(1);
    let staging = gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("test::counts"),
        size,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    run.encode_swap_copy(&mut encoder, run.steps_collected(), 1, &staging, 0);
    gpu.queue.submit([encoder.finish()]);
    let mut bytes = Vec::new();
    map_and_read(gpu, &staging, size, |data| bytes.extend_from_slice(data)).unwrap();
    run.accept_swaps(&bytes);
}

/// Runs every step of `run`, one at a time or encoded all at once, and reads each step's
/// counts alone: the work each step reported, whose sum the run's total must be.
fn reported(gpu: &Gpu, run: &mut dyn SortRun, at_once: bool) -> Vec<Work> {
    let total = run.total_steps();
    if at_once {
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        assert_eq!(run.encode_steps(&mut encoder, total), total);
        gpu.queue.submit([encoder.finish()]);
    }
    let works: Vec<Work> = (0..total)
        .map(|step| {
            if !at_once {
                let mut encoder = gpu.device.create_command_encoder(&Default::default());
                assert_eq!(run.encode_steps(&mut encoder, 1), 1);
                gpu.queue.submit([encoder.finish()]);
            }
            collect_one(gpu, run);
            assert_eq!(run.steps_collected(), step + 1);
            run.stats().last_step_work.expect("a step's work once its counts are read")
        })
        .collect();
    let sum = works.iter().fold(Work::default(), |sum, &work| sum + work);
    assert_eq!(run.stats().total_work, sum, "the total is the steps' sum");
    works
}

/// Asserts each step's work and names the first that differs.
fn assert_steps(reported: &[Work], expected: &[Work], what: &str) {
    assert_eq!(reported.len(), expected.len(), "{what}: steps");
    for (step, (r, e)) in reported.iter().zip(expected).enumerate() {
        assert_eq!(r, e, "{what}: work of step {step}");
    }
}

/// A pipeline constant of `dispatch`.
fn constant(dispatch: &Dispatch, name: &str) -> usize {
    let (_, value) = dispatch.constants.iter().find(|(n, _)| *n == name).expect("the constant");
    *value as usize
}

/// The kernel `dispatch` runs, with the layout its constants give.
fn kernel_of(dispatch: &Dispatch) -> Kernel {
    match dispatch.entry {
        "sort_lines" => Kernel::Lines {
            positions: 16 * constant(dispatch, "WORKGROUP"),
            subgroup: constant(dispatch, "SUBGROUP_SIZE"),
            shuffles: constant(dispatch, "SHUFFLE_REACH") > 0,
        },
        "sort_blocks" => Kernel::Blocks { block: constant(dispatch, "BLOCK") },
        "global_stage" => Kernel::Global,
        entry => panic!("no bitonic kernel {entry}"),
    }
}

/// What a bitonic run sorts: every line's intervals, the longest interval its network sorts,
/// and whether the GPU found them (and made the plan).
struct Within<'a> {
    lines: &'a [Vec<Range<usize>>],
    longest: usize,
    found: bool,
}

/// Runs every step of `run` (one at a time or all at once), `model` the CPU model of the same
/// sort, and checks every step's work against the work model.
fn check_bitonic(
    gpu: &Gpu,
    run: &mut dyn SortRun,
    model: &mut BitonicModel,
    within: Within<'_>,
    at_once: bool,
    what: &str,
) {
    let Within { lines, longest, found } = within;
    let stages = network(longest as u32);
    assert_eq!(run.total_steps() as usize, stages.len(), "{what}: steps");
    // The model's stages beyond its own network (the GPU's plan takes a line's) move nothing.
    let exchanges: Vec<u64> = stages.iter().map(|_| model.step()).collect();
    let works = reported(gpu, run, at_once);
    if stages.is_empty() {
        assert_eq!(run.stats().total_work, Work::default(), "{what}");
        return;
    }
    let first = kernel_of(&run.kernels_of_step(0)[0]);
    // `sort_lines` holds whole lines: every stage of theirs stays in its block.
    let block = match first {
        Kernel::Blocks { block } => block,
        _ => usize::MAX,
    };
    let dispatches: Vec<(Range<u32>, Kernel)> = bitonic::dispatches(&stages, block, at_once)
        .into_iter()
        .map(|steps| {
            let dispatch = &run.kernels_of_step(steps.start)[0];
            assert_eq!(dispatch.steps, steps, "{what}: the steps dispatched together");
            (steps, kernel_of(dispatch))
        })
        .collect();
    let line_len = lines[0].iter().map(Range::len).sum::<usize>();
    // A plan made on the GPU gives each line 3 x ceil(len / block) unit slots, empty ones too.
    let gpu_units = found.then(|| (lines.len() * 3 * line_len.div_ceil(block)) as u64);
    let sorted = Sorted { lines, line_len, network: &stages, gpu_units };
    assert_steps(&works, &bitonic::expected(&sorted, &dispatches, &exchanges), what);
}

/// Every line's intervals under `intervals` (the whole line without).
fn line_intervals(layout: LineLayout, intervals: Option<&IntervalMap>) -> Vec<Vec<Range<usize>>> {
    (0..layout.count)
        .map(|line| {
            intervals.map_or_else(|| std::iter::once(0..layout.len).collect(), |map| map.intervals(line))
        })
        .collect()
}

#[test]
fn bitonic_steps_report_the_work_of_their_kernels() {
    on_every_gpu(|gpu| {
        let mut all: Vec<(&str, Pipelines)> =
            every_pipeline(gpu).into_iter().filter(|(name, _)| name.starts_with("bitonic")).collect();
        // `sort_lines` through workgroup memory alone, from short lines on; blocks of 64.
        let tuning = BitonicTuning { shuffles: false, shortest_held_line: 2, ..Default::default() };
        all.push(("bitonic without shuffles", Pipelines::Bitonic(Bitonic::with_tuning(gpu, tuning))));
        all.push(("bitonic in blocks of 64", Pipelines::Bitonic(Bitonic::with_max_block(gpu, 64))));
        for (i, (w, h)) in sizes().into_iter().enumerate() {
            let input = random_image(w, h, 500 + i as u64);
            for axis in [Axis::Rows, Axis::Columns] {
                let options =
                    SortOptions { key: SortKey::ALL[i % SortKey::ALL.len()], descending: i % 3 == 1, axis };
                let layout = LineLayout::new(w, h, axis);
                for (name, map) in maps(&input, axis, i) {
                    let lines = line_intervals(layout, map.as_ref());
                    let longest = lines.iter().flatten().map(Range::len).max().unwrap();
                    for (pipeline, pipelines) in &all {
                        for at_once in [false, true] {
                            let what = format!("{w}x{h} {options:?} {name} {pipeline} at once {at_once}");
                            let mut run = start(
                                gpu,
                                pipelines,
                                &input,
                                options,
                                RunSettings::default(),
                                MapSource::Cpu(map.as_ref()),
                            );
                            let mut model = BitonicModel::new(&input, options, map.as_ref());
                            let within = Within { lines: &lines, longest, found: false };
                            check_bitonic(gpu, run.as_mut(), &mut model, within, at_once, &what);
                        }
                    }
                }
            }
        }
    });
    common::ci::passed();
}

/// Within threshold intervals the GPU finds, its plan's units and the intervals' lengths come
/// from the GPU: the work is still that of the CPU's map of the same intervals.
#[test]
fn bitonic_within_intervals_found_on_the_gpu_reports_the_same_work() {
    on_every_gpu(|gpu| {
        let kernel = IntervalsKernel::new(gpu);
        let all: Vec<(&str, Pipelines)> =
            every_pipeline(gpu).into_iter().filter(|(name, _)| name.starts_with("bitonic")).collect();
        for (i, (w, h)) in sizes().into_iter().enumerate() {
            let input = random_image(w, h, 800 + i as u64);
            let axis = if i % 2 == 0 { Axis::Rows } else { Axis::Columns };
            let options = SortOptions { key: SortKey::Luma, descending: i % 3 == 0, axis };
            let (key, threshold) = (SortKey::ALL[i % SortKey::ALL.len()], Threshold::new(0.3, 0.7).unwrap());
            let settings =
                IntervalSettings { mode: IntervalMode::Threshold, key, threshold, ..Default::default() };
            let map = IntervalMap::compute(&input, axis, &settings, None).unwrap();
            let layout = LineLayout::new(w, h, axis);
            let lines = line_intervals(layout, Some(&map));
            for (pipeline, pipelines) in &all {
                for at_once in [false, true] {
                    let what = format!("{w}x{h} {options:?} found on the GPU, {pipeline} at once {at_once}");
                    let found = MapSource::Gpu(&kernel, FoundIntervals::threshold(key, threshold, axis));
                    let mut run = start(gpu, pipelines, &input, options, RunSettings::default(), found);
                    let mut model = BitonicModel::new(&input, options, Some(&map));
                    let within = Within { lines: &lines, longest: layout.len, found: true };
                    check_bitonic(gpu, run.as_mut(), &mut model, within, at_once, &what);
                }
            }
        }
    });
    common::ci::passed();
}

/// The radix kinds: one step a digit pass, sub-steps, lines on the segmented sort, and the
/// whole picture.
fn radix_kinds(digit_bits: u32, key_bits: Option<u32>) -> [(&'static str, RadixSettings); 4] {
    let base = RadixSettings { digit_bits, key_bits, ..RadixSettings::DEFAULT };
    [
        ("one stage a digit", base),
        ("sub-steps", RadixSettings { sub_steps: true, ..base }),
        ("device-sorted lines", RadixSettings { device_sorted_lines: true, ..base }),
        ("whole picture", RadixSettings { scope: Scope::Image, ..base }),
    ]
}

/// What a radix run sorts: `input` (line space, for a run along a line space) within `map`,
/// by `plan` over `seqs`, with `settings`.
struct RadixSort<'a> {
    input: &'a RgbaImage,
    map: Option<&'a IntervalMap>,
    plan: RadixPlan,
    seqs: Sequences,
    settings: RadixSettings,
}

/// Runs every step of `run` (one at a time or all at once) and checks every step's work
/// against the work model, the pixels each moves from the CPU model of `sort`. Returns
/// whether its steps are the crate's sorts (as its first step's kernels say).
fn check_radix(
    gpu: &Gpu,
    run: &mut dyn SortRun,
    sorter: &SegmentedSorter,
    sort: RadixSort<'_>,
    at_once: bool,
    what: &str,
) -> bool {
    let RadixSort { input, map, plan, seqs, settings } = sort;
    let picture = Picture { count: seqs.count() as u64, len: seqs.len() as u64 };
    let (_, moved) = radix_steps_within(input, seqs, &plan, map, plan.steps());
    let pixels = picture.count * picture.len;
    let segment = if settings.scope == Scope::Image { pixels } else { picture.len };
    let on_crate = !settings.sub_steps
        && (settings.scope == Scope::Image
            || (settings.device_sorted_lines && segment <= u64::from(sorter.workgroup_len(true))));
    let kernels = run.kernels_of_step(0);
    let kernel = |entry: &str| kernels.iter().find(|d| d.entry == entry).expect("the kernel");
    let workgroup = |entry: &str| {
        let Grid::Compute { workgroup_size, .. } = kernel(entry).grid else { panic!("a compute kernel") };
        u64::from(workgroup_size[0])
    };
    let placed = kernels.iter().any(|d| d.entry == "place");
    assert_eq!(placed, on_crate, "{what}: the way its steps are made");
    let how = if on_crate {
        let shape = sorter.workgroup_sort_shape(segment.min(pixels) as u32, true);
        let workgroup_sort = shape.map(|(keys, invocations)| (u64::from(keys), u64::from(invocations)));
        Steps::Crate { segment, workgroup_sort, place_group: workgroup("place") }
    } else {
        // The tiles' chunks, as the step's parameters give them.
        let params: RadixParams =
            bytemuck::pod_read_unaligned(bytemuck::cast_slice(&kernel("count_digits").uniform));
        let chunks = u64::from(params.chunks);
        Steps::Own { chunk: workgroup("count_digits"), chunks, stages: plan.stages }
    };
    let works = reported(gpu, run, at_once);
    assert_steps(&works, &radix::expected(picture, how, &moved), what);
    on_crate
}

#[test]
fn radix_steps_report_the_work_of_their_kernels() {
    on_every_gpu(|gpu| {
        let radix = Radix::new(gpu);
        let sorter = SegmentedSorter::with_sorter(&gpu.device, RadixSorter::new(&gpu.device)).unwrap();
        // A whole picture too long for a workgroup's sort goes through the device-wide one.
        for (i, (w, h)) in sizes().into_iter().chain([(70, 64)]).enumerate() {
            let input = random_image(w, h, 600 + i as u64);
            let axis = if i % 2 == 0 { Axis::Rows } else { Axis::Columns };
            let options =
                SortOptions { key: SortKey::ALL[i % SortKey::ALL.len()], descending: i % 3 == 2, axis };
            let digit_bits = DIGIT_BITS[i % DIGIT_BITS.len()];
            let key_bits = if i % 4 == 3 { None } else { Some(8) };
            for (kind, settings) in radix_kinds(digit_bits, key_bits) {
                for (name, map) in maps(&input, axis, i) {
                    if map.is_some() && settings.scope == Scope::Image {
                        continue;
                    }
                    for at_once in [false, true] {
                        let what =
                            format!("{w}x{h} {options:?} {kind} {settings:?} {name} at once {at_once}");
                        let request = StartRequest::new(&input, options).radix(settings).within(map.as_ref());
                        // Tiles of several chunks too (the view's own kernels).
                        let mut run = radix.start_with_chunks(gpu, request, 1 + i as u32 % 3).unwrap();
                        let (plan, seqs) = (run.plan(), run.sequences());
                        let sort = RadixSort { input: &input, map: map.as_ref(), plan, seqs, settings };
                        let on_crate = check_radix(gpu, &mut run, &sorter, sort, at_once, &what);
                        assert_eq!(run.device_sorted(), on_crate, "{what}: the way its steps are made");
                    }
                }
            }
        }
    });
    common::ci::passed();
}

/// Along lines at an angle and a path's rings the run inside sorts the rows of line space
/// within the map that fixes the padding at the end of short lines: each step costs what the
/// models say of those rows within that map (whole lines, or threshold intervals).
#[test]
fn bitonic_and_radix_steps_along_an_angle_and_rings_cost_what_the_models_say() {
    on_every_gpu(|gpu| {
        let kit = Kit::new(gpu);
        let sorter = SegmentedSorter::with_sorter(&gpu.device, RadixSorter::new(&gpu.device)).unwrap();
        let threshold = Threshold::new(0.25, 0.75).unwrap();
        let threshold = IntervalSettings { mode: IntervalMode::Threshold, threshold, ..Default::default() };
        let rings = Path { kind: PathKind::Rings, centre: Centre::middle((13, 11)), rays: None };
        let spaces = [
            ("30°", LineSpace::new(17, 9, Angle::new(30.0).unwrap()), (17, 9)),
            ("rings", line_space(rings.into(), (13, 11), 16384).unwrap(), (13, 11)),
        ];
        for (i, (name, space, (w, h))) in spaces.into_iter().enumerate() {
            for (j, settings) in [&IntervalSettings::default(), &threshold].into_iter().enumerate() {
                let (key, picture) = (SortKey::ALL[2 * i + j], random_image(w, h, u64::from(w * h)));
                let case = Case::laid(name.into(), space.clone(), picture, (key, j == 1), settings, None);
                let (options, map) = (case.options, Some(&case.map));
                let (width, height) = case.lines.dimensions();
                let lines = line_intervals(LineLayout::new(width, height, Axis::Rows), map);
                let longest = case.map.max_interval_len() as usize;
                let what = format!("{name} {w}x{h} {options:?} {:?}", settings.mode);
                // Line space is lines, not one sequence: the whole picture's scope is refused.
                let image = RadixSettings { scope: Scope::Image, ..RadixSettings::DEFAULT };
                let request = StartRequest::new(&case.picture, options).radix(image);
                let refused = AngledRun::start(gpu, &kit.radix, &kit.scatter, case.space.clone(), request);
                assert!(matches!(refused, Err(IntervalMapError::WholePictureAtAngle)), "{what}");
                let digit_bits = DIGIT_BITS[2 * i + j];
                let kinds = radix_kinds(digit_bits, (j == 1).then_some(8));
                for at_once in [false, true] {
                    for (pipeline, pipelines) in [("bitonic", &kit.bitonic), ("bitonic 16", &kit.bitonic_16)]
                    {
                        let what = format!("{what} {pipeline} at once {at_once}");
                        let mut run = case.start(gpu, &kit, pipelines, RunSettings::default());
                        let mut model = BitonicModel::new(&case.lines, options, map);
                        let within = Within { lines: &lines, longest, found: false };
                        check_bitonic(gpu, &mut run, &mut model, within, at_once, &what);
                    }
                    for (kind, radix) in kinds.into_iter().filter(|(_, s)| s.scope == Scope::Rows) {
                        let what = format!("{what} {kind} {radix:?} at once {at_once}");
                        let mut run =
                            case.start(gpu, &kit, &kit.radix, RunSettings { radix, ..Default::default() });
                        let (key, _) = radix.key_within(options, map).unwrap();
                        let plan = RadixPlan { key, digit_bits, stages: radix.stages(), twin_indices: false };
                        let seqs = Sequences { width, height, axis: Axis::Rows, scope: Scope::Rows };
                        let sort = RadixSort { input: &case.lines, map, plan, seqs, settings: radix };
                        check_radix(gpu, &mut run, &sorter, sort, at_once, &what);
                    }
                }
            }
        }
    });
    common::ci::passed();
}
