//! The harness of the GPU tests of line spaces (lines at an angle, a path's lines): every
//! algorithm started on a picture texture, gathered into line space and scattered back by the
//! GPU, checked against the CPU model (the same algorithm on the gathered picture, scattered on
//! the CPU) after every step, in line space and in the picture; every line a permutation of its
//! pixels, the padding and fixed pixels untouched; all ending in the same picture.

use image::RgbaImage;
use shadersort::algorithms::bitonic::Bitonic;
use shadersort::algorithms::odd_even::PassKind;
use shadersort::algorithms::ping_pong::StartPicture;
use shadersort::algorithms::radix::RadixSettings;
use shadersort::algorithms::radix::plan::{RadixPlan, Sequences};
use shadersort::algorithms::request::StartRequest;
use shadersort::algorithms::{Algorithm, Pipelines, RunSettings, SortRun};
use shadersort::angle::scatter::LineScatter;
use shadersort::angle::{AngledRun, LineSpace};
use shadersort::engine::drive::Driver;
use shadersort::gpu::Gpu;
use shadersort::gpu::readback::read_texture;
use shadersort::gpu::texture::picture_texture;
use shadersort::intervals::{IntervalMap, IntervalMode, IntervalSettings, Mask};
use shadersort::keys::SortKey;
use shadersort::keys::options::{Axis, Scope, SortOptions};
use shadersort::keys::radix_key::RadixKey;
use shadersort::reference::bitonic::BitonicModel;
use shadersort::reference::radix::radix_steps_within;
use shadersort::reference::{
    fixed_pixels_stay, lines_are_permutations, odd_even_pass_within, stable_sort_within,
};
use std::sync::Arc;

/// What every test here builds once per device.
pub struct Kit {
    pub odd_even: Pipelines,
    pub bubble: Pipelines,
    pub radix: Pipelines,
    pub bitonic: Pipelines,
    /// Bitonic in blocks of 16: longer lines span blocks, so stages reach across them.
    pub bitonic_16: Pipelines,
    pub scatter: LineScatter,
}

impl Kit {
    pub fn new(gpu: &Gpu) -> Self {
        Kit {
            odd_even: Pipelines::new(gpu, Algorithm::OddEven),
            bubble: Pipelines::new(gpu, Algorithm::Bubble),
            radix: Pipelines::new(gpu, Algorithm::Radix),
            bitonic: Pipelines::new(gpu, Algorithm::Bitonic),
            bitonic_16: Pipelines::Bitonic(Bitonic::with_max_block(gpu, 16)),
            scatter: LineScatter::new(gpu),
        }
    }
}

/// One case: a picture, its line space and the map line space is sorted within.
pub struct Case {
    pub what: String,
    pub picture: RgbaImage,
    pub space: Arc<LineSpace>,
    /// The intervals in line space (`None`: whole lines).
    pub intervals: Option<IntervalMap>,
    /// What the sort runs within: the intervals, or whole lines with the padding fixed.
    pub map: IntervalMap,
    /// Line space as gathered.
    pub lines: RgbaImage,
    pub options: SortOptions,
}

impl Case {
    /// A case sorting `picture` along the lines of `space` by `key`, within the intervals
    /// `settings` and `mask` make along them (whole lines when they make none); `what` names it.
    pub fn laid(
        what: String,
        space: LineSpace,
        picture: RgbaImage,
        (key, descending): (SortKey, bool),
        settings: &IntervalSettings,
        mask: Option<&Mask>,
    ) -> Self {
        let space = Arc::new(space);
        let has_intervals = settings.mode != IntervalMode::None || mask.is_some();
        let intervals = has_intervals.then(|| space.interval_map(&picture, settings, mask).unwrap());
        let map = intervals
            .clone()
            .unwrap_or_else(|| space.interval_map(&picture, &IntervalSettings::default(), None).unwrap());
        let lines = space.gather(&picture);
        let options = SortOptions { key, descending, axis: Axis::Rows };
        Case { what, picture, space, intervals, map, lines, options }
    }

    /// Starts from the picture as a texture already on the GPU, as a clip's frame does (the
    /// runs through [`Lines`] below start from the picture on the CPU).
    pub fn start(&self, gpu: &Gpu, kit: &Kit, pipelines: &Pipelines, settings: RunSettings) -> AngledRun {
        let texture = picture_texture(gpu, &self.picture, "test::picture");
        AngledRun::start(
            gpu,
            pipelines,
            &kit.scatter,
            self.space.clone(),
            StartRequest::of(StartPicture::Texture(texture), self.options)
                .settings(settings)
                .within(self.intervals.as_ref()),
        )
        .unwrap()
    }

    /// Checks a state in line space against the model there, and the picture against the
    /// model scattered on the CPU.
    pub fn check_state(&self, gpu: &Gpu, run: &AngledRun, model: &RgbaImage, at: &str) {
        let lines = read_texture(gpu, run.line_state()).unwrap();
        assert!(lines == *model, "{} {at}: line space differs from the model", self.what);
        assert!(
            lines_are_permutations(&self.lines, &lines, Axis::Rows),
            "{} {at}: a line lost a pixel",
            self.what
        );
        assert!(
            fixed_pixels_stay(&self.lines, &lines, &self.map),
            "{} {at}: padding or a fixed pixel moved",
            self.what
        );
        let picture = read_texture(gpu, run.state()).unwrap();
        assert!(picture == self.space.scatter(model), "{} {at}: the scattered picture differs", self.what);
    }
}

/// Runs one step at a time, handing each step's count and swaps to `check`; returns the run.
pub fn step_through(gpu: &Gpu, mut run: AngledRun, mut check: impl FnMut(&AngledRun, u32, u64)) -> AngledRun {
    let driver = Driver::new(&run);
    while run.steps_done() < run.total_steps() {
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        assert_eq!(run.encode_steps(&mut encoder, 1), 1);
        gpu.queue.submit([encoder.finish()]);
        driver.collect(gpu, &mut run).unwrap();
        let swaps = u64::from(run.stats().last_step_swaps.unwrap());
        check(&run, run.steps_done(), swaps);
    }
    run
}

/// Every algorithm on `case`, against the model after every step; all end in the model's
/// end, which holds the picture's pixels.
pub fn check_all(gpu: &Gpu, kit: &Kit, case: &Case) {
    let options = case.options;
    let expected_lines = stable_sort_within(&case.lines, &options, &case.map);
    let expected = case.space.scatter(&expected_lines);
    let passes = case.map.max_interval_len();
    let mut finals = Vec::new();

    for pass_kind in [PassKind::Compute, PassKind::Fragment] {
        let run = case.start(gpu, kit, &kit.odd_even, RunSettings { pass_kind, ..Default::default() });
        assert_eq!(run.total_steps(), passes, "{}: passes are the longest interval", case.what);
        case.check_state(gpu, &run, &case.lines, "odd-even start");
        let mut model = case.lines.clone();
        let run = step_through(gpu, run, |run, step, swaps| {
            let model_swaps = odd_even_pass_within(&mut model, &options, Some(&case.map), step - 1);
            case.check_state(gpu, run, &model, &format!("{pass_kind:?} pass {step}"));
            assert_eq!(swaps, model_swaps, "{}: swaps of pass {step}", case.what);
        });
        finals.push((format!("odd-even {pass_kind:?}"), read_texture(gpu, run.state()).unwrap()));
    }

    let run = case.start(gpu, kit, &kit.bubble, RunSettings { phases_per_step: 3, ..Default::default() });
    let mut model = case.lines.clone();
    let mut phases = 0;
    let run = step_through(gpu, run, |run, step, swaps| {
        let end = (3 * step).min(passes);
        let model_swaps: u64 =
            (phases..end).map(|p| odd_even_pass_within(&mut model, &options, Some(&case.map), p)).sum();
        phases = end;
        case.check_state(gpu, run, &model, &format!("bubble step {step}"));
        assert_eq!(swaps, model_swaps, "{}: bubble swaps of step {step}", case.what);
    });
    finals.push(("bubble".into(), read_texture(gpu, run.state()).unwrap()));

    let radix = RadixSettings::default();
    let run = case.start(gpu, kit, &kit.radix, RunSettings { radix, ..Default::default() });
    let key = RadixKey::new(options, None).unwrap().with_interval_bits(case.map.interval_bits()).unwrap();
    let plan = RadixPlan { key, digit_bits: radix.digit_bits, stages: 1, twin_indices: false };
    assert_eq!(run.total_steps(), plan.steps(), "{}: digit passes", case.what);
    let (width, height) = case.lines.dimensions();
    let seqs = Sequences { width, height, axis: Axis::Rows, scope: Scope::Rows };
    let (_, model_moved) = radix_steps_within(&case.lines, seqs, &plan, Some(&case.map), plan.steps());
    let run = step_through(gpu, run, |run, step, moved| {
        let (model, _) = radix_steps_within(&case.lines, seqs, &plan, Some(&case.map), step);
        // Digit passes before the interval id's carry pixels across intervals (not out of their
        // line); the padding is an interval of its own, so only the end must keep it in place.
        let lines = read_texture(gpu, run.line_state()).unwrap();
        assert!(lines == model, "{}: radix pass {step} differs from the model", case.what);
        assert!(lines_are_permutations(&case.lines, &lines, Axis::Rows), "{}: radix pass {step}", case.what);
        let picture = read_texture(gpu, run.state()).unwrap();
        assert!(picture == case.space.scatter(&model), "{}: radix pass {step} scattered", case.what);
        assert_eq!(moved, model_moved[step as usize - 1], "{}: pixels moved by pass {step}", case.what);
    });
    let radix_lines = read_texture(gpu, run.line_state()).unwrap();
    assert!(fixed_pixels_stay(&case.lines, &radix_lines, &case.map), "{}: radix moved padding", case.what);
    finals.push(("radix".into(), read_texture(gpu, run.state()).unwrap()));

    // Nobody watching (a clip's frame): each line on the segmented sort, the last state made at
    // once and scattered, every step counted done.
    let radix = RadixSettings { device_sorted_lines: true, ..radix };
    let mut run = case.start(gpu, kit, &kit.radix, RunSettings { radix, ..Default::default() });
    let total = run.total_steps();
    Driver::new(&run).submit_to(gpu, &mut run, total).unwrap();
    assert_eq!(run.steps_done(), total, "{}: radix at once", case.what);
    // Made at once, no step's count is left to wait for.
    assert_eq!(run.steps_collected(), total, "{}: radix at once", case.what);
    case.check_state(gpu, &run, &expected_lines, "radix at once");

    // The bitonic network, one stage per step: the model's stage (within the same map, so the
    // padding sorts as fixed pixels) after every stage, with exactly its exchanges.
    for (name, pipelines) in [("bitonic", &kit.bitonic), ("bitonic in blocks of 16", &kit.bitonic_16)] {
        let run = case.start(gpu, kit, pipelines, RunSettings::default());
        let mut model = BitonicModel::new(&case.lines, options, Some(&case.map));
        assert_eq!(run.total_steps(), model.stages(), "{}: {name} stages", case.what);
        case.check_state(gpu, &run, &case.lines, &format!("{name} start"));
        let run = step_through(gpu, run, |run, step, swaps| {
            let exchanges = model.step();
            case.check_state(gpu, run, model.state(), &format!("{name} stage {step}"));
            assert_eq!(swaps, exchanges, "{}: {name} exchanges of stage {step}", case.what);
        });
        finals.push((name.into(), read_texture(gpu, run.state()).unwrap()));
    }

    let mut input: Vec<[u8; 4]> = case.picture.pixels().map(|p| p.0).collect();
    input.sort_unstable();
    for (name, picture) in &finals {
        assert!(*picture == expected, "{}: {name} does not end in the model's picture", case.what);
        let mut output: Vec<[u8; 4]> = picture.pixels().map(|p| p.0).collect();
        output.sort_unstable();
        assert!(output == input, "{}: {name} lost or duplicated a pixel", case.what);
    }
}
