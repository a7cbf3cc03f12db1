//! The kit of the tests that sort from a picture on the GPU within intervals found there: awkward
//! sizes, every comparison sort's pipelines, and a check of each step against the CPU model.

#![allow(dead_code, reason = "each test binary uses part of this module")]

use image::RgbaImage;
use shadersort::algorithms::bitonic::Bitonic;
use shadersort::algorithms::map_source::MapSource;
use shadersort::algorithms::odd_even::PassKind;
use shadersort::algorithms::ping_pong::StartPicture;
use shadersort::algorithms::request::StartRequest;
use shadersort::algorithms::{Algorithm, Pipelines, RunSettings, SortRun};
use shadersort::engine::drive::Driver;
use shadersort::gpu::Gpu;
use shadersort::gpu::readback::read_texture;
use shadersort::gpu::texture::picture_texture;
use shadersort::intervals::IntervalMap;
use shadersort::keys::options::SortOptions;
use shadersort::reference::bitonic::BitonicModel;
use shadersort::reference::{lines_are_permutations, odd_even_pass_within, stable_sort, stable_sort_within};

/// 1x1, one row, one column, odd sides, 63/64/65 and widths whose rows are no multiple of 256
/// bytes.
pub const AWKWARD_SIZES: [(u32, u32); 8] =
    [(1, 1), (1, 13), (13, 1), (3, 5), (63, 2), (64, 3), (65, 2), (17, 9)];

/// Runs one step at a time and hands each state (with the step count and the step's swaps)
/// to `check`; returns the run.
pub fn step_through(
    gpu: &Gpu,
    mut run: Box<dyn SortRun>,
    mut check: impl FnMut(u32, &RgbaImage, u64),
) -> Box<dyn SortRun> {
    let driver = Driver::new(run.as_ref());
    while run.steps_done() < run.total_steps() {
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        assert_eq!(run.encode_steps(&mut encoder, 1), 1);
        gpu.queue.submit([encoder.finish()]);
        driver.collect(gpu, run.as_mut()).unwrap();
        let state = read_texture(gpu, run.state()).unwrap();
        check(run.steps_done(), &state, u64::from(run.stats().last_step_swaps.unwrap()));
    }
    run
}

/// `pipelines` started on `input` as a texture within `source`.
pub fn start(
    gpu: &Gpu,
    pipelines: &Pipelines,
    input: &RgbaImage,
    options: SortOptions,
    settings: RunSettings,
    source: MapSource<'_>,
) -> Box<dyn SortRun> {
    let texture = picture_texture(gpu, input, "test::frame");
    pipelines
        .start(
            gpu,
            StartRequest::of(StartPicture::Texture(texture), options).settings(settings).intervals(source),
        )
        .unwrap()
}

/// Odd-even (both pass kinds), bubble (3 phases a step) and bitonic (the device's blocks and blocks
/// of 4) from `input` as a texture within the intervals `source` gives (`intervals`, the CPU's map
/// of them, for the model; `None`: whole lines): the model's state and swaps after every step,
/// every line a permutation, and each interval stably sorted at the end.
pub fn check_every_algorithm(
    gpu: &Gpu,
    all: &[(&str, Pipelines)],
    input: &RgbaImage,
    options: SortOptions,
    source: MapSource<'_>,
    intervals: Option<&IntervalMap>,
    what: &str,
) {
    let what = format!("{}x{} {options:?} {what}", input.width(), input.height());
    let expected =
        intervals.map_or_else(|| stable_sort(input, &options), |r| stable_sort_within(input, &options, r));
    for (name, pipelines) in all {
        let (pass_kind, phases) = match *name {
            "odd-even fragment" => (PassKind::Fragment, 1),
            "bubble" => (PassKind::Compute, 3),
            _ => (PassKind::Compute, 1),
        };
        let settings = RunSettings { pass_kind, phases_per_step: phases, ..Default::default() };
        let run = start(gpu, pipelines, input, options, settings, source);
        let run = if name.starts_with("bitonic") {
            let mut model = BitonicModel::new(input, options, intervals);
            step_through(gpu, run, |step, state, swaps| {
                let exchanges = model.step();
                assert!(state == model.state(), "{what} {name}: stage {step} differs from the model");
                assert_eq!(swaps, exchanges, "{what} {name}: exchanges of stage {step}");
            })
        } else {
            let mut model = input.clone();
            step_through(gpu, run, |step, state, swaps| {
                let passes = (step - 1) * phases..step * phases;
                let model_swaps: u64 =
                    passes.map(|p| odd_even_pass_within(&mut model, &options, intervals, p)).sum();
                assert!(*state == model, "{what} {name}: step {step} differs from the model");
                assert_eq!(swaps, model_swaps, "{what} {name}: swaps of step {step}");
                assert!(lines_are_permutations(input, state, options.axis), "{what} {name}: step {step}");
            })
        };
        let state = read_texture(gpu, run.state()).unwrap();
        assert!(state == expected, "{what}: {name} does not end with every interval stably sorted");
    }
}

pub fn every_pipeline(gpu: &Gpu) -> Vec<(&'static str, Pipelines)> {
    vec![
        ("odd-even", Pipelines::new(gpu, Algorithm::OddEven)),
        ("odd-even fragment", Pipelines::new(gpu, Algorithm::OddEven)),
        ("bubble", Pipelines::new(gpu, Algorithm::Bubble)),
        ("bitonic", Pipelines::new(gpu, Algorithm::Bitonic)),
        // Intervals longer than a block: stages reach across blocks through `global_stage`.
        ("bitonic in blocks of 4", Pipelines::Bitonic(Bitonic::with_max_block(gpu, 4))),
    ]
}
