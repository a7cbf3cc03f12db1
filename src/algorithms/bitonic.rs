//! Bitonic rows: each interval of each line sorted by the bitonic network, one stage per step
//! (`shaders/bitonic.wgsl`; the CPU model is `crate::reference::bitonic`).
//!
//! Steps recorded together run as few dispatches as the network allows: consecutive stages
//! whose comparators stay within blocks of workgroup memory run in one `sort_blocks` dispatch
//! (a whole line of up to a block sorts in one), and each stage that reaches further runs as a
//! `global_stage` dispatch. A stage does the same whichever dispatch runs it, so stepping
//! one stage at a time shows exactly the states the fast path passes through.

use super::bitonic_plan::{GpuPlan, Plan, PlanKernel};
use super::interval_texture::{self, IntervalMapError, IntervalTexture};
use super::lens_view::{LensStep, LensView};
use super::map_source::MapSource;
use super::params_ring::ParamsRing;
use super::ping_pong::{PingPong, StartPicture};
use super::swap_counters::{AddedSince, SwapCounters};
use super::{RunStats, SortRun};
use crate::gpu::Gpu;
use crate::gpu::bindings::{compute_buffer, storage_target, uint_texture};
use crate::gpu::shaders::{BITONIC_PROGRAM, BITONIC_SUBGROUPS_PROGRAM};
use crate::gpu::texture::PICTURE_FORMAT;
use crate::intervals::IntervalMap;
use crate::keys::options::SortOptions;
use crate::reference::bitonic::{Stage, stage_count};
use image::RgbaImage;
use wgpu::util::DeviceExt;

/// Most invocations per workgroup of `sort_blocks`.
const MAX_WORKGROUP: u32 = 1024;
/// Invocations per workgroup of `global_stage` (`@workgroup_size` there).
const GLOBAL_WORKGROUP: u32 = 64;
/// Steps that may run between two readings of the counters.
const RING: u32 = 1024;
/// Workgroup memory besides the unit's arrays: the exchange counter and the two stand-in
/// arrays of one word, each counted as 16 bytes (as WebGPU counts every workgroup variable).
const WORKGROUP_OVERHEAD_BYTES: u32 = 3 * 16;
/// `sort_lines`' workgroup memory besides its array: the words above and the shuffle check's
/// two, each counted as 16 bytes.
const LINES_OVERHEAD_BYTES: u32 = WORKGROUP_OVERHEAD_BYTES + 2 * 16;

/// Bits a rank (key and origin) may take in `sort_lines`, which tells the larger of two ranks by
/// the sign of their difference.
const LINE_RANK_BITS: u32 = 31;

/// Mirrors `BitonicParams` in `shaders/bitonic.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct BitonicParams {
    key: u32,
    descending: u32,
    axis: u32,
    line_len: u32,
    stages: u32,
    merge: u32,
    distance: u32,
    load_origins: u32,
    store_origins: u32,
    has_intervals: u32,
    origin_bits: u32,
    key_max: u32,
    groups_x: u32,
    unit_count: u32,
    pad: [u32; 2],
}

/// How a unit's pixels are ranked in workgroup memory and whether intervals are kept there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Layout {
    /// The origin takes a second word: the key's bits and the origin's do not fit one.
    wide: bool,
    /// Each position's interval is kept beside its rank.
    intervals: bool,
}

impl Layout {
    fn bytes_per_position(self) -> u32 {
        4 * (1 + u32::from(self.wide) + u32::from(self.intervals))
    }

    fn index(self) -> usize {
        usize::from(self.wide) * 2 + usize::from(self.intervals)
    }
}

/// The largest block (a power of two) of positions that workgroup memory of `limit` bytes holds
/// with `layout`, at most `max_block`.
fn block_for(limit: u32, layout: Layout, max_block: u32) -> u32 {
    let positions = limit.saturating_sub(WORKGROUP_OVERHEAD_BYTES) / layout.bytes_per_position();
    let block = if positions == 0 { 1 } else { 1 << positions.ilog2() };
    block.min(1 << max_block.max(2).ilog2()).max(2)
}

/// Bits that hold every value up to `max`.
fn bits_of(max: u32) -> u32 {
    u32::BITS - max.leading_zeros()
}

/// A `sort_blocks` pipeline and the block its workgroup memory holds.
#[derive(Clone)]
struct BlockPipeline {
    pipeline: wgpu::ComputePipeline,
    block: u32,
}

/// How the pipelines are sized: how the tests take lines across blocks with small pictures,
/// and how the benchmark compares workgroup sizes.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BitonicTuning {
    /// Positions a block holds at most (rounded down to a power of two).
    pub max_block: u32,
    /// Comparators each invocation takes per stage in a full block: the workgroup has
    /// block / (2 x this) invocations, within the device's limits. By default 4 for blocks of
    /// up to 4096 positions and 1 above: the fastest on an H100 (BENCHMARKS.md).
    pub pairs_per_invocation: Option<u32>,
    /// Whether whole lines whose ranks fit one word are sorted by `sort_lines` (ranks held in
    /// registers) rather than `sort_blocks`.
    pub held_ranks: bool,
    /// The shortest line `sort_lines` takes (shorter ones go to `sort_blocks`).
    pub shortest_held_line: u32,
    /// Whether `sort_lines` runs the stages within a subgroup on shuffles, where the adapter
    /// has subgroups of one fixed size (`shaders/bitonic_shuffle.wgsl`).
    pub shuffles: bool,
    /// Whether `sort_lines` counts its exchanges (the steps' swap counts). Off only to measure
    /// what counting costs: the counts then read 0.
    pub count_exchanges: bool,
}

impl Default for BitonicTuning {
    fn default() -> Self {
        BitonicTuning {
            max_block: u32::MAX,
            pairs_per_invocation: None,
            held_ranks: true,
            shortest_held_line: MIN_HELD_LINE,
            shuffles: true,
            count_exchanges: true,
        }
    }
}

/// Positions one invocation of `sort_lines` holds (`HELD` in `shaders/bitonic_lines.wgsl`).
const HELD: u32 = 16;

/// The shortest line `sort_lines` takes by default: its smallest workgroup (32) holds 512
/// positions, and short lines sort faster in `sort_blocks` (BENCHMARKS.md).
const MIN_HELD_LINE: u32 = 129;

/// The bitonic pipelines of one device: `global_stage`, and `sort_blocks` built for each
/// rank layout and block size a run asks for (kept, so pictures of one size build them once).
pub struct Bitonic {
    device: wgpu::Device,
    /// The device's pipeline cache, for the pipelines built as runs need them.
    cache: Option<wgpu::PipelineCache>,
    layout: wgpu::BindGroupLayout,
    pipeline_layout: wgpu::PipelineLayout,
    module: wgpu::ShaderModule,
    tuning: BitonicTuning,
    global: wgpu::ComputePipeline,
    built: std::sync::Mutex<Vec<((usize, u32), BlockPipeline)>>,
    /// `sort_lines` by workgroup size.
    lines: std::sync::Mutex<Vec<(u32, wgpu::ComputePipeline)>>,
    /// The subgroup size `sort_lines` shuffles within, where it does.
    shuffle_width: Option<u32>,
    /// The kernel that plans intervals found on the GPU, built on first use.
    plan_kernel: std::sync::OnceLock<PlanKernel>,
}

/// The subgroup size of `device` where it has subgroups of one fixed size, a power of two from
/// 4 to 64, that shuffles can use. Not in the browser: its WGSL compiler wants
/// `enable subgroups;`, which naga (reading the same source natively) refuses.
fn fixed_subgroup_size(device: &wgpu::Device) -> Option<u32> {
    let info = device.adapter_info();
    let size = info.subgroup_min_size;
    (info.backend != wgpu::Backend::BrowserWebGpu
        && device.features().contains(wgpu::Features::SUBGROUP)
        && size == info.subgroup_max_size
        && size.is_power_of_two()
        && (4..=64).contains(&size))
    .then_some(size)
}

impl Bitonic {
    /// Builds `global_stage`; `sort_blocks` is built as runs need it.
    pub fn new(gpu: &Gpu) -> Self {
        Self::with_tuning(gpu, BitonicTuning::default())
    }

    /// [`Bitonic::new`] with blocks of at most `max_block` positions.
    #[doc(hidden)]
    pub fn with_max_block(gpu: &Gpu, max_block: u32) -> Self {
        Self::with_tuning(gpu, BitonicTuning { max_block, ..BitonicTuning::default() })
    }

    /// [`Bitonic::new`] sized as `tuning` says.
    #[doc(hidden)]
    pub fn with_tuning(gpu: &Gpu, tuning: BitonicTuning) -> Self {
        let device = &gpu.device;
        // Every loop counts up to a bound fixed before it starts; without wgpu's loop counter
        // the compiler may unroll them.
        let shuffle_width = fixed_subgroup_size(device).filter(|_| tuning.shuffles);
        let program = if shuffle_width.is_some() { BITONIC_SUBGROUPS_PROGRAM } else { BITONIC_PROGRAM };
        let module = program.module_without_loop_bounding(device);
        let read_only = wgpu::BufferBindingType::Storage { read_only: true };
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("bitonic::layout"),
            entries: &[
                uint_texture(0, wgpu::ShaderStages::COMPUTE),
                compute_buffer(1, wgpu::BufferBindingType::Uniform, true),
                compute_buffer(2, wgpu::BufferBindingType::Storage { read_only: false }, true),
                storage_target(3, PICTURE_FORMAT),
                uint_texture(4, wgpu::ShaderStages::COMPUTE),
                compute_buffer(5, wgpu::BufferBindingType::Storage { read_only: false }, false),
                compute_buffer(6, read_only, false),
                compute_buffer(7, read_only, false),
            ],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("bitonic::pipeline_layout"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let global = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("bitonic::global_stage"),
            layout: Some(&pipeline_layout),
            module: &module,
            entry_point: Some("global_stage"),
            compilation_options: Default::default(),
            cache: gpu.pipeline_cache(),
        });
        Bitonic {
            device: device.clone(),
            cache: gpu.pipeline_cache().cloned(),
            layout,
            pipeline_layout,
            module,
            tuning,
            global,
            built: Default::default(),
            lines: Default::default(),
            shuffle_width,
            plan_kernel: Default::default(),
        }
    }

    /// The largest block workgroup memory holds with `layout`.
    fn device_block(&self, layout: Layout) -> u32 {
        block_for(self.device.limits().max_compute_workgroup_storage_size, layout, self.tuning.max_block)
    }

    /// `sort_blocks` for `layout` with blocks of `block` positions, built on first use.
    fn block_pipeline(&self, layout: Layout, block: u32) -> BlockPipeline {
        let mut built = self.built.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some((_, pipeline)) = built.iter().find(|(key, _)| *key == (layout.index(), block)) {
            return pipeline.clone();
        }
        let limits = self.device.limits();
        let most = MAX_WORKGROUP
            .min(limits.max_compute_invocations_per_workgroup)
            .min(limits.max_compute_workgroup_size_x);
        let pairs = self.tuning.pairs_per_invocation.unwrap_or(if block <= 4096 { 4 } else { 1 });
        let wanted = (block / (2 * pairs.max(1))).max(1).next_power_of_two();
        let workgroup = wanted.clamp(32, most);
        let per_position = |kept: bool| f64::from(if kept { block } else { 1 });
        let constants = [
            ("WORKGROUP", f64::from(workgroup)),
            ("BLOCK", f64::from(block)),
            ("WIDE_CAPACITY", per_position(layout.wide)),
            ("INTERVALS_CAPACITY", per_position(layout.intervals)),
        ];
        let pipeline = self.unit_pipeline("sort_blocks", block, &constants);
        let made = BlockPipeline { pipeline, block };
        built.push(((layout.index(), block), made.clone()));
        made
    }

    /// The pipeline of entry point `entry` (`sort_blocks` or `sort_lines`) with `constants`;
    /// `size` names it.
    fn unit_pipeline(&self, entry: &str, size: u32, constants: &[(&str, f64)]) -> wgpu::ComputePipeline {
        self.device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(&format!("bitonic::{entry}[{size}]")),
            layout: Some(&self.pipeline_layout),
            module: &self.module,
            entry_point: Some(entry),
            compilation_options: wgpu::PipelineCompilationOptions {
                constants,
                // Every workgroup variable is written before it is read.
                zero_initialize_workgroup_memory: false,
            },
            cache: self.cache.as_ref(),
        })
    }

    /// `sort_lines` for lines of `line_len` positions, built on first use; `None` where the
    /// tuning leaves it out or the device cannot hold such a line that way.
    fn lines_pipeline(&self, line_len: u32) -> Option<wgpu::ComputePipeline> {
        let limits = self.device.limits();
        let workgroup = (line_len.next_power_of_two() / HELD).max(32);
        // A row of HELD + 1 words per invocation (`line_ranks`).
        let words = (HELD + 1) * workgroup;
        let fits = workgroup
            <= limits.max_compute_invocations_per_workgroup.min(limits.max_compute_workgroup_size_x)
            && words * 4 + LINES_OVERHEAD_BYTES <= limits.max_compute_workgroup_storage_size;
        if !self.tuning.held_ranks || !fits || line_len < self.tuning.shortest_held_line {
            return None;
        }
        let mut built = self.lines.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some((_, pipeline)) = built.iter().find(|(w, _)| *w == workgroup) {
            return Some(pipeline.clone());
        }
        // Shuffles reach within a subgroup; one no wider than the workgroup is whole.
        let width = self.shuffle_width.filter(|&w| w <= workgroup);
        let constants = [
            ("WORKGROUP", f64::from(workgroup)),
            ("LINE_ROWS", f64::from(workgroup)),
            ("MERGES", f64::from((HELD * workgroup).trailing_zeros())),
            ("SUBGROUP_SIZE", f64::from(width.unwrap_or(1))),
            ("SHUFFLE_REACH", f64::from(width.map_or(0, |w| HELD * w))),
            ("COUNT_EXCHANGES", f64::from(u8::from(self.tuning.count_exchanges))),
        ];
        let pipeline = self.unit_pipeline("sort_lines", workgroup, &constants);
        built.push((workgroup, pipeline.clone()));
        Some(pipeline)
    }

    /// Starts sorting `picture` within the intervals of `intervals` (every line whole with `None`).
    ///
    /// # Panics
    /// When the map is for another picture size or axis (`Pipelines::start_within` checks).
    pub fn start_within(
        &self,
        gpu: &Gpu,
        picture: &RgbaImage,
        options: SortOptions,
        intervals: Option<&IntervalMap>,
    ) -> BitonicRun {
        BitonicRun::new(self, gpu, StartPicture::Image(picture), options, MapSource::Cpu(intervals))
    }

    /// [`Bitonic::start_within`] from a picture on the CPU or a texture already on the GPU, within
    /// intervals from the CPU or found on the GPU from the picture. Within intervals found on the
    /// GPU the plan is made there too, and the steps are those of the longest interval a line could
    /// hold (a stage beyond an interval's own network leaves it as it is): the sorted picture is
    /// the same.
    pub fn start_from(
        &self,
        gpu: &Gpu,
        picture: StartPicture<'_>,
        options: SortOptions,
        source: MapSource<'_>,
    ) -> BitonicRun {
        BitonicRun::new(self, gpu, picture, options, source)
    }
}

/// One picture being sorted by the bitonic network.
pub struct BitonicRun {
    queue: wgpu::Queue,
    device: wgpu::Device,
    layout: wgpu::BindGroupLayout,
    /// `sort_blocks` without and with intervals, for this run's rank layout.
    blocks: [BlockPipeline; 2],
    /// `sort_lines` for this run's lines, where they take it (one-word ranks, and the device
    /// holds a line that way).
    lines: Option<wgpu::ComputePipeline>,
    global: wgpu::ComputePipeline,
    pictures: PingPong,
    params: ParamsRing,
    counters: SwapCounters,
    /// The counters are zeroed at a restart only: what each step added.
    added: AddedSince,
    origins: wgpu::Buffer,
    bounds: wgpu::Buffer,
    units: wgpu::Buffer,
    unit_count: u32,
    bind_groups: [wgpu::BindGroup; 2],
    intervals: IntervalTexture,
    options: SortOptions,
    line_len: u32,
    line_count: u32,
    wide: bool,
    max_groups: u32,
    total_steps: u32,
    steps_done: u32,
    /// Dispatches since the start: the state is in texture `dispatches % 2`.
    dispatches: u32,
    /// Stages the last dispatch ran.
    last_dispatch_stages: u32,
    collected: u32,
    stats: RunStats,
}

impl BitonicRun {
    fn new(
        bitonic: &Bitonic,
        gpu: &Gpu,
        picture: StartPicture<'_>,
        options: SortOptions,
        source: MapSource<'_>,
    ) -> Self {
        let (width, height) = picture.dimensions();
        let intervals = source.cpu_map();
        if let Some(map) = intervals {
            interval_texture::check_map(map, width, height, options.axis)
                .expect("an interval map for this picture");
        }
        let line_len = options.line_len(width, height);
        let line_count = options.line_count(width, height);
        let wide = bits_of(options.key.max_value()) + bits_of(line_len.saturating_sub(1)) > 32;
        // Whole lines take blocks no larger than the line (less workgroup memory, more
        // workgroups at once); units within intervals pack whole intervals into the largest block.
        let whole = Layout { wide, intervals: false };
        let within_intervals = Layout { wide, intervals: true };
        let line_block = bitonic.device_block(whole).min(line_len.max(2).next_power_of_two());
        let blocks = [
            bitonic.block_pipeline(whole, line_block),
            bitonic.block_pipeline(within_intervals, bitonic.device_block(within_intervals)),
        ];
        let rank_bits = bits_of(options.key.max_value()) + bits_of(line_len.saturating_sub(1));
        let lines = if rank_bits > LINE_RANK_BITS { None } else { bitonic.lines_pipeline(line_len) };
        let device = &gpu.device;
        let origins = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("bitonic::origins"),
            size: u64::from(line_len) * u64::from(line_count) * 4,
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        });
        let pictures = PingPong::start(gpu, picture, "bitonic");
        let params = ParamsRing::new(gpu, std::mem::size_of::<BitonicParams>(), RING, "bitonic::params");
        let counters = SwapCounters::new(gpu, RING, 1, "bitonic::counters");
        let placeholder = |label| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: 16,
                usage: wgpu::BufferUsages::STORAGE,
                mapped_at_creation: false,
            })
        };
        let (bounds, units) = (placeholder("bitonic::bounds"), placeholder("bitonic::units"));
        let bind_groups =
            bind_groups(device, &bitonic.layout, &pictures, &params, &counters, [&origins, &bounds, &units]);
        let mut run = BitonicRun {
            queue: gpu.queue.clone(),
            device: device.clone(),
            layout: bitonic.layout.clone(),
            blocks,
            lines,
            global: bitonic.global.clone(),
            pictures,
            params,
            counters,
            added: AddedSince::new(RING),
            origins,
            bounds,
            units,
            unit_count: 0,
            bind_groups,
            intervals: IntervalTexture::new(gpu, None, "bitonic::intervals"),
            options,
            line_len,
            line_count,
            wide,
            max_groups: device.limits().max_compute_workgroups_per_dimension,
            total_steps: 0,
            steps_done: 0,
            dispatches: 0,
            last_dispatch_stages: 0,
            collected: 0,
            stats: RunStats::default(),
        };
        match source {
            MapSource::Cpu(intervals) => run.use_intervals(gpu, intervals),
            MapSource::Gpu(kernel, found) => {
                assert_eq!(found.axis, options.axis, "intervals found along the sort's axis");
                let plan_kernel = bitonic.plan_kernel.get_or_init(|| PlanKernel::new(gpu));
                run.use_gpu_intervals(gpu, |encoder, input, ids, plan| {
                    kernel.record(gpu, encoder, input, ids, found);
                    plan_kernel.record(gpu, encoder, ids, plan);
                });
            }
        }
        run
    }

    /// Sorts within intervals that `find` records finding on the GPU (from the input picture into
    /// the interval-id texture, then the plan from those): the map and the plan never leave the
    /// GPU, and the steps are those of an interval as long as a line.
    fn use_gpu_intervals(
        &mut self,
        gpu: &Gpu,
        find: impl FnOnce(&mut wgpu::CommandEncoder, &wgpu::Texture, &wgpu::Texture, &GpuPlan),
    ) {
        let (width, height) = (self.pictures.input().width(), self.pictures.input().height());
        self.intervals = IntervalTexture::written_on_gpu(gpu, width, height, "bitonic::intervals");
        let block = self.block().block;
        let plan = GpuPlan::new(gpu, self.options.axis, (self.line_len, self.line_count), block);
        let mut encoder = gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("bitonic::gpu_intervals"),
        });
        find(&mut encoder, self.pictures.input(), self.intervals.texture(), &plan);
        gpu.queue.submit([encoder.finish()]);
        self.unit_count = plan.unit_count;
        self.set_plan_buffers(plan.bounds, plan.units);
        self.total_steps = stage_count(self.line_len);
        self.reset_stats();
    }

    /// Sorts within `intervals` from now on: uploads the map, the intervals per position and the
    /// units.
    fn use_intervals(&mut self, gpu: &Gpu, intervals: Option<&IntervalMap>) {
        self.intervals.set(gpu, intervals);
        let block = self.block().block;
        let plan = Plan::new(self.line_len, self.line_count, intervals, block);
        let storage = |label, contents: &[u8]| {
            gpu.device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: if contents.is_empty() { &[0; 16] } else { contents },
                usage: wgpu::BufferUsages::STORAGE,
            })
        };
        self.unit_count = plan.units.len() as u32;
        self.set_plan_buffers(
            storage("bitonic::bounds", bytemuck::cast_slice(&plan.bounds)),
            storage("bitonic::units", bytemuck::cast_slice(&plan.units)),
        );
        let longest = intervals.map_or(self.line_len, IntervalMap::max_interval_len);
        self.total_steps = stage_count(longest);
        self.reset_stats();
    }

    /// Binds the plan's `bounds` and `units` from now on.
    fn set_plan_buffers(&mut self, bounds: wgpu::Buffer, units: wgpu::Buffer) {
        (self.bounds, self.units) = (bounds, units);
        self.bind_groups = bind_groups(
            &self.device,
            &self.layout,
            &self.pictures,
            &self.params,
            &self.counters,
            [&self.origins, &self.bounds, &self.units],
        );
    }

    fn block(&self) -> &BlockPipeline {
        &self.blocks[usize::from(self.intervals.enabled())]
    }

    fn reset_stats(&mut self) {
        self.collected = 0;
        self.stats = RunStats { sorted_after: (self.total_steps == 0).then_some(0), ..Default::default() };
    }

    /// Whether each rank takes two words in workgroup memory (the key's bits and the origin's
    /// do not fit one).
    pub fn wide(&self) -> bool {
        self.wide
    }

    /// Records one dispatch from step `first`: the stages from there that stay within a block
    /// (at most `budget`), or the one stage that does not. Returns the stages it ran.
    fn record_dispatch(&mut self, pass: &mut wgpu::ComputePass<'_>, first: u32, budget: u32) -> u32 {
        let block = self.block().block;
        let stage = Stage::at(first);
        let local = stage.fits_block(block);
        let stages = if local {
            (first..first + budget).take_while(|&s| Stage::at(s).fits_block(block)).count() as u32
        } else {
            1
        };
        let groups_x = self.unit_count.clamp(1, self.max_groups);
        let params = BitonicParams {
            key: self.options.key.id(),
            descending: self.options.descending.into(),
            axis: self.options.axis as u32,
            line_len: self.line_len,
            stages,
            merge: stage.merge,
            distance: stage.distance,
            load_origins: u32::from(first > 0),
            store_origins: u32::from(first + stages < self.total_steps),
            has_intervals: u32::from(self.intervals.enabled()),
            origin_bits: bits_of(self.line_len.saturating_sub(1)),
            key_max: self.options.key.max_value(),
            groups_x,
            unit_count: self.unit_count,
            pad: [0; 2],
        };
        let offset = self.params.write(&self.queue, first, &params);
        let counter = self.counters.dynamic_offset(first + stages - 1);
        pass.set_bind_group(0, &self.bind_groups[(self.dispatches % 2) as usize], &[offset, counter]);
        if local {
            // Whole lines without intervals are one unit each: `sort_lines` takes them if it can.
            let whole_lines = !self.intervals.enabled() && self.block().block >= self.line_len;
            match &self.lines {
                Some(lines) if whole_lines => pass.set_pipeline(lines),
                _ => pass.set_pipeline(&self.block().pipeline),
            }
            pass.dispatch_workgroups(groups_x, self.unit_count.div_ceil(groups_x), 1);
        } else {
            pass.set_pipeline(&self.global);
            pass.dispatch_workgroups(self.line_len.div_ceil(GLOBAL_WORKGROUP), self.line_count, 1);
        }
        self.dispatches += 1;
        self.last_dispatch_stages = stages;
        stages
    }
}

impl SortRun for BitonicRun {
    fn total_steps(&self) -> u32 {
        self.total_steps
    }

    fn steps_done(&self) -> u32 {
        self.steps_done
    }

    /// Steps recorded together share dispatches where their stages fit one block; the
    /// exchanges of a shared dispatch are counted at its last step.
    fn record_steps(&mut self, encoder: &mut wgpu::CommandEncoder, n: u32) -> u32 {
        let room = RING - (self.steps_done - self.collected);
        let n = n.min(self.total_steps - self.steps_done).min(room);
        if n == 0 {
            return 0;
        }
        let first = self.steps_done;
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("bitonic::steps"),
            timestamp_writes: None,
        });
        let mut done = first;
        while done < first + n {
            done += self.record_dispatch(&mut pass, done, first + n - done);
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
        for value in self.counters.decode(bytes) {
            assert!(self.collected < self.steps_done, "counts of unrecorded steps");
            let swaps = self.added.take(self.collected % RING, value);
            self.collected += 1;
            self.stats.total_swaps += u64::from(swaps);
            self.stats.last_step_swaps = Some(swaps);
            if self.collected == self.total_steps {
                self.stats.sorted_after = Some(self.collected);
            }
        }
    }

    fn stats(&self) -> RunStats {
        self.stats
    }

    fn detects_sorted_early(&self) -> bool {
        false
    }

    fn state(&self) -> &wgpu::Texture {
        self.pictures.state(self.dispatches)
    }

    fn lens_view(&self) -> LensView<'_> {
        let one_stage = self.dispatches > 0 && self.last_dispatch_stages == 1;
        LensView {
            state: self.pictures.state(self.dispatches),
            before: one_stage.then(|| self.pictures.state(self.dispatches - 1)),
            axis: self.options.axis,
            intervals: self.intervals.enabled().then(|| self.intervals.texture()),
            options: self.options,
            steps_done: self.steps_done,
            step: LensStep::Bitonic { stages: self.total_steps },
        }
    }

    fn restart(&mut self, encoder: &mut wgpu::CommandEncoder) {
        self.pictures.record_restart(encoder);
        self.counters.record_clear_all(encoder);
        self.added.reset();
        self.steps_done = 0;
        self.dispatches = 0;
        self.last_dispatch_stages = 0;
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

/// The two step bind groups (see `PingPong::step_bind_groups`), with the input picture at
/// binding 4 and the origins, intervals and units at 5, 6 and 7.
fn bind_groups(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    pictures: &PingPong,
    params: &ParamsRing,
    counters: &SwapCounters,
    [origins, bounds, units]: [&wgpu::Buffer; 3],
) -> [wgpu::BindGroup; 2] {
    let input = pictures.input().create_view(&Default::default());
    pictures.step_bind_groups(device, layout, "bitonic", params.binding(), counters.binding(), |_| {
        vec![
            wgpu::BindGroupEntry { binding: 4, resource: wgpu::BindingResource::TextureView(&input) },
            wgpu::BindGroupEntry { binding: 5, resource: origins.as_entire_binding() },
            wgpu::BindGroupEntry { binding: 6, resource: bounds.as_entire_binding() },
            wgpu::BindGroupEntry { binding: 7, resource: units.as_entire_binding() },
        ]
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_powers_of_two_that_fit_workgroup_memory() {
        let narrow = Layout { wide: false, intervals: false };
        assert_eq!(block_for(16384, narrow, u32::MAX), 2048);
        assert_eq!(block_for(49152, narrow, u32::MAX), 8192);
        assert_eq!(block_for(49152, Layout { wide: true, intervals: true }, u32::MAX), 2048);
        assert_eq!(block_for(49152, narrow, 100), 64);
    }
}
