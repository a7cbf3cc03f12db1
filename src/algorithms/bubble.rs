//! Single-workgroup bubble sort: each line (row or column) is loaded into one workgroup's
//! memory and sorted there by odd-even phases separated by barriers, stopping as soon as a
//! phase pair made no swap. A step is a dispatch of a budget of phases; with an unbounded
//! budget one dispatch sorts every line. Lines longer than workgroup memory holds fall back to
//! the global odd-even passes, with a notice.

use super::interval_texture::{self, IntervalMapError, IntervalTexture};
use super::lens_view::{LensStep, LensView};
use super::map_source::MapSource;
use super::odd_even::{OddEven, PassKind};
use super::params_ring::ParamsRing;
use super::ping_pong::{PingPong, StartPicture};
use super::swap_counters::SwapCounters;
use super::{RunStats, SortRun};
use crate::gpu::Gpu;
use crate::gpu::bindings::{compute_buffer, storage_target, uint_texture};
use crate::gpu::shaders::BUBBLE_PROGRAM;
use crate::gpu::texture::PICTURE_FORMAT;
use crate::intervals::IntervalMap;
use crate::keys::options::SortOptions;
use image::RgbaImage;

/// Most invocations per workgroup asked for (`WORKGROUP` in `shaders/bubble.wgsl`).
pub const MAX_BUBBLE_WORKGROUP: u32 = 1024;
/// Phases per step when none is asked for: one phase pair per frame.
pub const DEFAULT_PHASES_PER_STEP: u32 = 2;
/// Steps that may run between two readings of the counters.
const RING: u32 = 1024;
/// Workgroup memory the kernel needs besides the line: two u32 flags. WebGPU counts every
/// workgroup variable rounded up to 16 bytes (a browser refuses the pipeline otherwise), so
/// each flag takes 16.
const WORKGROUP_OVERHEAD_BYTES: u32 = 2 * 16;

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
    /// Built by the first run whose lines do not fit a workgroup.
    fallback: std::sync::OnceLock<OddEven>,
}

impl Bubble {
    /// Builds the pipeline with a line capacity taken from the device's workgroup storage.
    pub fn new(gpu: &Gpu) -> Self {
        let device = &gpu.device;
        let capacity = row_capacity(&device.limits());
        let workgroup = workgroup_size(&device.limits());
        let module = BUBBLE_PROGRAM.module(device);
        let buffer = |binding, ty| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer { ty, has_dynamic_offset: true, min_binding_size: None },
            count: None,
        };
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("bubble::layout"),
            entries: &[
                uint_texture(0, wgpu::ShaderStages::COMPUTE),
                buffer(1, wgpu::BufferBindingType::Uniform),
                buffer(2, wgpu::BufferBindingType::Storage { read_only: false }),
                storage_target(3, PICTURE_FORMAT),
                uint_texture(4, wgpu::ShaderStages::COMPUTE),
                compute_buffer(5, wgpu::BufferBindingType::Storage { read_only: false }, false),
            ],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("bubble::pipeline_layout"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pipeline = [false, true].map(|with_intervals| {
            let constants = [
                ("ROW_CAPACITY", f64::from(capacity)),
                ("WORKGROUP", f64::from(workgroup)),
                interval_texture::intervals_constant(with_intervals),
            ];
            device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(&format!("bubble::pipeline[{}]", usize::from(with_intervals))),
                layout: Some(&pipeline_layout),
                module: &module,
                entry_point: Some("bubble"),
                compilation_options: wgpu::PipelineCompilationOptions {
                    constants: &constants,
                    // The kernel writes every workgroup variable it reads before reading it, and
                    // zero-filling a large array is very slow to compile on GL.
                    zero_initialize_workgroup_memory: false,
                },
                cache: gpu.pipeline_cache(),
            })
        });
        Bubble { layout, pipeline, capacity, fallback: Default::default() }
    }

    /// The longest line sorted inside one workgroup.
    pub fn capacity(&self) -> u32 {
        self.capacity
    }

    /// Starts sorting `picture`, `phases_per_step` phases per step (at least 1; a budget as
    /// long as the line sorts it in one step). Lines longer than [`Bubble::capacity`] are
    /// sorted by global odd-even passes instead, with a notice.
    pub fn start(
        &self,
        gpu: &Gpu,
        picture: &RgbaImage,
        options: SortOptions,
        phases_per_step: u32,
    ) -> Box<dyn SortRun> {
        self.start_within(gpu, picture, options, phases_per_step, None)
    }

    /// [`Bubble::start`] sorting within the intervals of `intervals` (every line whole with
    /// `None`).
    ///
    /// # Panics
    /// When the map is for another picture size or axis (`Pipelines::start_within` checks).
    pub fn start_within(
        &self,
        gpu: &Gpu,
        picture: &RgbaImage,
        options: SortOptions,
        phases_per_step: u32,
        intervals: Option<&IntervalMap>,
    ) -> Box<dyn SortRun> {
        self.start_from(
            gpu,
            StartPicture::Image(picture),
            options,
            phases_per_step,
            MapSource::Cpu(intervals),
        )
    }

    /// [`Bubble::start_within`] from a picture on the CPU or a texture already on the GPU,
    /// within intervals from the CPU or found on the GPU from the picture (then with a budget of as
    /// many phases as a line is long: each line still leaves once it is sorted).
    pub fn start_from(
        &self,
        gpu: &Gpu,
        picture: StartPicture<'_>,
        options: SortOptions,
        phases_per_step: u32,
        source: MapSource<'_>,
    ) -> Box<dyn SortRun> {
        let (width, height) = picture.dimensions();
        let len = options.line_len(width, height);
        if len > self.capacity {
            let notice = format!(
                "lines of {len} pixels do not fit one workgroup on this GPU (at most {}); the bubble sort runs as global odd-even passes instead",
                self.capacity
            );
            return Box::new(
                self.fallback
                    .get_or_init(|| OddEven::new(gpu))
                    .start_from(gpu, picture, options, PassKind::Compute, source)
                    .with_notice(notice),
            );
        }
        Box::new(BubbleRun::new(self, gpu, picture, options, phases_per_step, source))
    }

    /// Starts sorting `picture` a line per workgroup, or `None` when its lines are longer than
    /// [`Bubble::capacity`].
    pub fn start_in_workgroups(
        &self,
        gpu: &Gpu,
        picture: &RgbaImage,
        options: SortOptions,
        phases_per_step: u32,
    ) -> Option<BubbleRun> {
        self.start_in_workgroups_within(gpu, picture, options, phases_per_step, None)
    }

    /// [`Bubble::start_in_workgroups`] sorting within the intervals of `intervals`.
    ///
    /// # Panics
    /// When the map is for another picture size or axis.
    pub fn start_in_workgroups_within(
        &self,
        gpu: &Gpu,
        picture: &RgbaImage,
        options: SortOptions,
        phases_per_step: u32,
        intervals: Option<&IntervalMap>,
    ) -> Option<BubbleRun> {
        let len = options.line_len(picture.width(), picture.height());
        (len <= self.capacity).then(|| {
            BubbleRun::new(
                self,
                gpu,
                StartPicture::Image(picture),
                options,
                phases_per_step,
                MapSource::Cpu(intervals),
            )
        })
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
    total_steps: u32,
    steps_done: u32,
    collected: u32,
    stats: RunStats,
    /// The most phases any line ran in the last step read: what the early exit saved shows here.
    last_step_phases: Option<u32>,
}

impl BubbleRun {
    fn new(
        bubble: &Bubble,
        gpu: &Gpu,
        picture: StartPicture<'_>,
        options: SortOptions,
        phases_per_step: u32,
        source: MapSource<'_>,
    ) -> Self {
        let (width, height) = picture.dimensions();
        if let Some(map) = source.cpu_map() {
            interval_texture::check_map(map, width, height, options.axis)
                .expect("an interval map for this picture");
        }
        let pictures = PingPong::start(gpu, picture, "bubble");
        let params = ParamsRing::new(gpu, std::mem::size_of::<BubbleParams>(), RING, "bubble::params");
        let counters = SwapCounters::new(gpu, RING, 3, "bubble::counters");
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
            total_steps: 0,
            steps_done: 0,
            collected: 0,
            stats: RunStats::default(),
            last_step_phases: None,
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
        self.total_steps = self.line_phases.div_ceil(self.phases_per_step);
        self.reset_stats();
    }

    fn reset_stats(&mut self) {
        self.collected = 0;
        self.stats = RunStats { sorted_after: (self.line_phases <= 1).then_some(0), ..Default::default() };
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
    fn total_steps(&self) -> u32 {
        self.total_steps
    }

    fn steps_done(&self) -> u32 {
        self.steps_done
    }

    fn record_steps(&mut self, encoder: &mut wgpu::CommandEncoder, n: u32) -> u32 {
        let room = RING - (self.steps_done - self.collected);
        let n = n.min(self.total_steps - self.steps_done).min(room);
        if n == 0 {
            return 0;
        }
        let first = self.steps_done;
        self.counters.record_clear(encoder, first, n);
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("bubble::steps"),
            timestamp_writes: None,
        });
        pass.set_pipeline(&self.pipeline[usize::from(self.intervals.enabled())]);
        for step in first..first + n {
            let first_phase = step * self.phases_per_step;
            let params = BubbleParams {
                key: self.options.key.id(),
                descending: self.options.descending.into(),
                axis: self.options.axis as u32,
                first_phase,
                phases: self.phases_per_step.min(self.line_phases - first_phase),
                line_phases: self.line_phases,
                pad: [0; 2],
            };
            // Each step has a slot of its own in the ring; at most RING steps are outstanding,
            // so a slot is never rewritten before the step that reads it has run.
            let offset = self.params.write(&self.queue, step, &params);
            let direction = (step % 2) as usize;
            pass.set_bind_group(
                0,
                &self.bind_groups[direction],
                &[offset, self.counters.dynamic_offset(step)],
            );
            pass.dispatch_workgroups(self.line_count, 1, 1);
        }
        self.steps_done += n;
        n
    }

    fn counters(&self) -> &SwapCounters {
        &self.counters
    }

    fn steps_collected(&self) -> u32 {
        self.collected
    }

    fn accept_swaps(&mut self, bytes: &[u8]) {
        for slot in self.counters.decode_slots(bytes) {
            assert!(self.collected < self.steps_done, "counts of unrecorded steps");
            let (swaps, sorted_lines) = (slot[0], slot[1]);
            self.last_step_phases = Some(slot[2]);
            self.collected += 1;
            self.stats.total_swaps += u64::from(swaps);
            self.stats.last_step_swaps = Some(swaps);
            if sorted_lines == self.line_count && self.stats.sorted_after.is_none() {
                self.stats.sorted_after = Some(self.collected);
            }
        }
    }

    fn stats(&self) -> RunStats {
        self.stats
    }

    fn state(&self) -> &wgpu::Texture {
        self.pictures.state(self.steps_done)
    }

    fn lens_view(&self) -> LensView<'_> {
        let step = LensStep::Bubble {
            phases_per_step: self.phases_per_step,
            line_phases: self.line_phases,
            reports: &self.line_reports,
        };
        LensView::of_ping_pong(&self.pictures, &self.intervals, self.options, self.steps_done, step)
    }

    fn restart(&mut self, encoder: &mut wgpu::CommandEncoder) {
        self.pictures.record_restart(encoder);
        self.steps_done = 0;
        self.reset_stats();
    }

    fn restart_within(
        &mut self,
        gpu: &Gpu,
        encoder: &mut wgpu::CommandEncoder,
        intervals: Option<&IntervalMap>,
    ) -> Result<(), IntervalMapError> {
        let texture = self.pictures.state(0);
        if let Some(map) = intervals {
            interval_texture::check_map(map, texture.width(), texture.height(), self.options.axis)?;
        }
        self.use_intervals(gpu, intervals);
        self.restart(encoder);
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
