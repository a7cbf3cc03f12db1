//! Single-workgroup bubble sort: each line (row or column) is loaded into one workgroup's
//! memory and sorted there by odd-even phases separated by barriers, stopping as soon as a
//! phase pair made no swap. A step is a dispatch of a budget of phases; with an unbounded
//! budget one dispatch sorts every line. Lines longer than workgroup memory holds fall back to
//! the global odd-even passes, with a notice.

use super::interval_texture::{self, IntervalMapError, IntervalTexture};
use super::lens_view::{LensStep, LensView};
use super::odd_even::{OddEven, PassKind};
use super::params_ring::ParamsRing;
use super::ping_pong::PingPong;
use super::request::StartRequest;
use super::step_ledger::{STEP_RING, StepLedger, ledger_in_field};
use super::swap_counters::SwapCounters;
use super::{RunSettings, SortRun};
use crate::gpu::Gpu;
use crate::gpu::bindings::{compute_buffer, storage_target, uint_texture};
use crate::gpu::kernel::{compute_pass, compute_pipeline, kernel_layouts};
use crate::gpu::shaders::{BUBBLE_PROGRAM, Compiled};
use crate::gpu::texture::PICTURE_FORMAT;
use crate::intervals::IntervalMap;
use crate::keys::options::SortOptions;

mod kernels;

/// Most invocations per workgroup asked for (`WORKGROUP` in `shaders/bubble.wgsl`).
pub const MAX_BUBBLE_WORKGROUP: u32 = 1024;
/// Phases per step when none is asked for: one phase pair per frame.
pub const DEFAULT_PHASES_PER_STEP: u32 = 2;
/// Workgroup memory the kernel needs besides the line: two u32 flags. WebGPU counts every
/// workgroup variable rounded up to 16 bytes (a browser refuses the pipeline otherwise), so
/// each flag takes 16.
const WORKGROUP_OVERHEAD_BYTES: u32 = 2 * 16;

impl StartRequest<'_> {
    /// The same request with bubble steps of `phases` phases.
    pub fn phases_per_step(self, phases: u32) -> Self {
        StartRequest { settings: RunSettings { phases_per_step: phases, ..self.settings }, ..self }
    }
}

/// Mirrors `BubbleParams` in `shaders/bubble.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct BubbleParams {
    /// `SortKey::id`.
    pub key: u32,
    /// 1 for descending order.
    pub descending: u32,
    /// `Axis` as u32.
    pub axis: u32,
    /// Global index of the dispatch's first phase.
    pub first_phase: u32,
    /// Phases to run at most.
    pub phases: u32,
    /// Phases after which every line is sorted: the longest interval's length.
    pub line_phases: u32,
    /// Padding to 32 bytes.
    pub pad: [u32; 2],
}

/// The longest line one workgroup can hold on a device with these limits.
pub fn row_capacity(limits: &wgpu::Limits) -> u32 {
    // The line's array counts rounded up to 16 bytes too.
    limits.max_compute_workgroup_storage_size.saturating_sub(WORKGROUP_OVERHEAD_BYTES) / 16 * 16 / 4
}

/// Invocations per workgroup on a device with these limits.
pub fn workgroup_size(limits: &wgpu::Limits) -> u32 {
    MAX_BUBBLE_WORKGROUP
        .min(limits.max_compute_invocations_per_workgroup)
        .min(limits.max_compute_workgroup_size_x)
}

/// The bubble pipelines, built once per device, `[whole lines, in intervals]` (the `INTERVALS`
/// override of `shaders/intervals.wgsl`), and the odd-even pipelines it falls back on.
pub struct Bubble {
    layout: wgpu::BindGroupLayout,
    pipeline: [wgpu::ComputePipeline; 2],
    capacity: u32,
    /// Invocations per workgroup.
    workgroup: u32,
    compiled: Compiled,
    /// Built by the first run whose lines do not fit a workgroup.
    fallback: std::sync::OnceLock<OddEven>,
}

impl Bubble {
    /// Builds the pipeline with a line capacity taken from the device's workgroup storage.
    pub fn new(gpu: &Gpu) -> Self {
        let device = &gpu.device;
        let capacity = row_capacity(&device.limits());
        let workgroup = workgroup_size(&device.limits());
        let compiled = BUBBLE_PROGRAM.compile(device);
        let module = &compiled.module;
        let buffer = |binding, ty| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer { ty, has_dynamic_offset: true, min_binding_size: None },
            count: None,
        };
        let (layout, pipeline_layout) = kernel_layouts(
            device,
            "bubble",
            &[
                uint_texture(0, wgpu::ShaderStages::COMPUTE),
                buffer(1, wgpu::BufferBindingType::Uniform),
                buffer(2, wgpu::BufferBindingType::Storage { read_only: false }),
                storage_target(3, PICTURE_FORMAT),
                uint_texture(4, wgpu::ShaderStages::COMPUTE),
                compute_buffer(5, wgpu::BufferBindingType::Storage { read_only: false }, false),
            ],
        );
        let pipeline = [false, true].map(|with_intervals| {
            let constants = kernels::constants(capacity, workgroup, with_intervals);
            let label = format!("bubble::pipeline[{}]", usize::from(with_intervals));
            let options = wgpu::PipelineCompilationOptions {
                constants: &constants,
                // The kernel writes every workgroup variable it reads before reading it, and
                // zero-filling a large array is very slow to compile on GL.
                zero_initialize_workgroup_memory: false,
            };
            compute_pipeline(gpu, &label, &pipeline_layout, module, "bubble", options)
        });
        Bubble { layout, pipeline, capacity, workgroup, compiled, fallback: Default::default() }
    }

    /// The longest line sorted inside one workgroup.
    pub fn capacity(&self) -> u32 {
        self.capacity
    }

    /// Starts sorting the request's picture, its settings' phases per step at a time (at least
    /// 1; a budget as long as the line sorts it in one step; within intervals found on the GPU,
    /// each line still leaves once it is sorted). Lines longer than [`Bubble::capacity`] are
    /// sorted by global odd-even passes instead, with a notice.
    ///
    /// # Panics
    /// When the map is for another picture size or axis (`Pipelines::start` checks).
    pub fn start(&self, gpu: &Gpu, request: StartRequest<'_>) -> Box<dyn SortRun> {
        let (width, height) = request.picture.dimensions();
        let len = request.options.line_len(width, height);
        if len > self.capacity {
            let notice = format!(
                "lines of {len} pixels do not fit one workgroup on this GPU (at most {}); the bubble sort runs as global odd-even passes instead",
                self.capacity
            );
            let settings = RunSettings { pass_kind: PassKind::Compute, ..request.settings };
            let request = request.settings(settings);
            return Box::new(
                self.fallback.get_or_init(|| OddEven::new(gpu)).start(gpu, request).with_notice(notice),
            );
        }
        Box::new(BubbleRun::new(self, gpu, request))
    }

    /// Starts sorting the request's picture a line per workgroup, or `None` when its lines are
    /// longer than [`Bubble::capacity`].
    ///
    /// # Panics
    /// When the map is for another picture size or axis.
    pub fn start_in_workgroups(&self, gpu: &Gpu, request: StartRequest<'_>) -> Option<BubbleRun> {
        let (width, height) = request.picture.dimensions();
        let len = request.options.line_len(width, height);
        (len <= self.capacity).then(|| BubbleRun::new(self, gpu, request))
    }
}

/// One picture being sorted a line per workgroup.
pub struct BubbleRun {
    /// For writing a dispatch's parameters when it is recorded.
    queue: wgpu::Queue,
    /// Without and with an interval map.
    pipeline: [wgpu::ComputePipeline; 2],
    /// The layout of `bind_groups`, to make them again for a new interval-map texture.
    layout: wgpu::BindGroupLayout,
    pictures: PingPong,
    bind_groups: [wgpu::BindGroup; 2],
    params: ParamsRing,
    counters: SwapCounters,
    /// Per line, the phases the last dispatch ran and whether it left early (the lens reads it).
    line_reports: wgpu::Buffer,
    intervals: IntervalTexture,
    options: SortOptions,
    line_len: u32,
    line_count: u32,
    /// Phases after which every line is sorted: the longest interval's length.
    line_phases: u32,
    /// Phases per step as asked for; `phases_per_step` is it within 1..=line_phases.
    asked_phases_per_step: u32,
    phases_per_step: u32,
    ledger: StepLedger,
    /// The most phases any line ran in the last step read: what the early exit saved shows here.
    last_step_phases: Option<u32>,
    /// The program, and its line capacity and workgroup size, for the shader panel.
    compiled: Compiled,
    capacity: u32,
    workgroup: u32,
}

impl BubbleRun {
    fn new(bubble: &Bubble, gpu: &Gpu, request: StartRequest<'_>) -> Self {
        request.check().expect("an interval map for this picture");
        let StartRequest { picture, options, settings, intervals: source } = request;
        let phases_per_step = settings.phases_per_step;
        let (width, height) = picture.dimensions();
        let pictures = PingPong::start(gpu, picture, "bubble");
        let params = ParamsRing::new(gpu, std::mem::size_of::<BubbleParams>(), STEP_RING, "bubble::params");
        let counters = SwapCounters::new(gpu, STEP_RING, 5, "bubble::counters");
        let interval_texture =
            IntervalTexture::from_source(gpu, source, pictures.input(), "bubble::intervals");
        let line_count = options.line_count(width, height);
        let line_reports = gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("bubble::line_reports"),
            size: u64::from(line_count.max(1)) * 8,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let bind_groups =
            bind_groups(gpu, &bubble.layout, &pictures, &params, &counters, &line_reports, &interval_texture);
        let line_len = options.line_len(width, height);
        let mut run = BubbleRun {
            queue: gpu.queue.clone(),
            pipeline: bubble.pipeline.clone(),
            layout: bubble.layout.clone(),
            pictures,
            bind_groups,
            params,
            counters,
            line_reports,
            intervals: interval_texture,
            options,
            line_len,
            line_count,
            line_phases: line_len,
            asked_phases_per_step: phases_per_step,
            phases_per_step,
            ledger: StepLedger::default(),
            last_step_phases: None,
            compiled: bubble.compiled.clone(),
            capacity: bubble.capacity,
            workgroup: bubble.workgroup,
        };
        run.set_line_phases(source.longest_interval(line_len));
        run
    }

    /// Sorts within `intervals` from now on: uploads the map and sets the phases to the longest
    /// interval's length.
    fn use_intervals(&mut self, gpu: &Gpu, intervals: Option<&IntervalMap>) {
        if self.intervals.set(gpu, intervals) {
            self.bind_groups = bind_groups(
                gpu,
                &self.layout,
                &self.pictures,
                &self.params,
                &self.counters,
                &self.line_reports,
                &self.intervals,
            );
        }
        self.set_line_phases(intervals.map_or(self.line_len, IntervalMap::max_interval_len));
    }

    /// Sorts every line in `line_phases` phases from now on (the longest interval's length), in
    /// steps of the phases asked for.
    fn set_line_phases(&mut self, line_phases: u32) {
        self.line_phases = line_phases;
        self.phases_per_step = self.asked_phases_per_step.clamp(1, self.line_phases.max(1));
        self.restart_ledger();
    }

    /// Step 0: a line (or the longest interval) of one pixel is sorted before any phase.
    fn restart_ledger(&mut self) {
        let total = self.line_phases.div_ceil(self.phases_per_step);
        self.ledger.restart(total, self.line_phases <= 1);
    }

    /// Phases per step.
    pub fn phases_per_step(&self) -> u32 {
        self.phases_per_step
    }

    /// The most phases any line ran in the last step whose counters were read.
    pub fn last_step_phases(&self) -> Option<u32> {
        self.last_step_phases
    }
}

impl SortRun for BubbleRun {
    ledger_in_field!();

    fn encode_from(&mut self, encoder: &mut wgpu::CommandEncoder, first: u32, n: u32) {
        self.counters.encode_clear(encoder, first, n);
        let mut pass = compute_pass(encoder, "bubble::steps");
        pass.set_pipeline(&self.pipeline[usize::from(self.intervals.enabled())]);
        for step in first..first + n {
            let params = self.step_params(step);
            // Each step has a slot of its own in the ring (see `STEP_RING`).
            let offset = self.params.write(&self.queue, step, &params);
            let direction = (step % 2) as usize;
            pass.set_bind_group(
                0,
                &self.bind_groups[direction],
                &[offset, self.counters.dynamic_offset(step)],
            );
            pass.dispatch_workgroups(self.line_count, 1, 1);
        }
    }

    fn counters(&self) -> &SwapCounters {
        &self.counters
    }

    fn kernels_of_step(&self, step: u32) -> Vec<super::kernel_view::Dispatch> {
        self.kernels(step)
    }

    fn accept_swaps(&mut self, bytes: &[u8]) {
        for slot in self.counters.decode_slots(bytes) {
            let (swaps, sorted_lines) = (slot[0], slot[1]);
            let work = self.work(self.ledger.next_to_take(), (slot[3], slot[4]));
            let step = self.ledger.take(swaps, work);
            self.last_step_phases = Some(slot[2]);
            if sorted_lines == self.line_count {
                self.ledger.sorted_after(step + 1);
            }
        }
    }

    fn state(&self) -> &wgpu::Texture {
        self.pictures.state(self.ledger.done())
    }

    fn lens_view(&self) -> LensView<'_> {
        let step = LensStep::Bubble {
            phases_per_step: self.phases_per_step,
            line_phases: self.line_phases,
            reports: &self.line_reports,
        };
        LensView::of_ping_pong(&self.pictures, &self.intervals, self.options, self.ledger.done(), step)
    }

    fn restart(&mut self, encoder: &mut wgpu::CommandEncoder) {
        self.pictures.encode_restart(encoder);
        self.restart_ledger();
    }

    fn set_intervals(&mut self, gpu: &Gpu, intervals: Option<&IntervalMap>) -> Result<(), IntervalMapError> {
        interval_texture::check_map(intervals, self.pictures.size(), self.options.axis)?;
        self.use_intervals(gpu, intervals);
        Ok(())
    }
}

/// The two step bind groups (see `PingPong::step_bind_groups`), with the interval map at binding 4
/// and the line reports at 5.
fn bind_groups(
    gpu: &Gpu,
    layout: &wgpu::BindGroupLayout,
    pictures: &PingPong,
    params: &ParamsRing,
    counters: &SwapCounters,
    line_reports: &wgpu::Buffer,
    intervals: &IntervalTexture,
) -> [wgpu::BindGroup; 2] {
    pictures.step_bind_groups(&gpu.device, layout, "bubble", params.binding(), counters.binding(), |_| {
        vec![
            wgpu::BindGroupEntry {
                binding: 4,
                resource: wgpu::BindingResource::TextureView(intervals.view()),
            },
            wgpu::BindGroupEntry { binding: 5, resource: line_reports.as_entire_binding() },
        ]
    })
}
