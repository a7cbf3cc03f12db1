//! The radix view: LSD radix sort of every line (or of the whole picture as one sequence),
//! one step per digit pass, or per stage of a pass's scatter when sub-steps are shown. Each
//! pass is the classic histogram (`count_digits`), prefix sum (`scan_counts`) and stable
//! scatter of `shaders/radix.wgsl`, moving whole pixels between two textures.
//!
//! Within intervals each pixel carries its interval id through the passes, in a second pair of
//! textures ping-ponged with the pictures, and the key is composite: the interval id above the key
//! (`RadixKey::interval_bits`), whose digits LSD sorts last.
//!
//! The whole-picture scope sorts one sequence of W x H pixels. Without sub-steps each of its
//! steps is a device-wide sort of the input by the key bits sorted so far
//! ([`super::radix_image`]): the same states, pass by pass, at the speed of `crates/wgpu-radix-sort`.
//! Shown in stages (or too large for one device sort), it runs the three kernels above with a
//! single workgroup scanning every tile's counts: correct for every size, not fast.

use super::found_intervals::{FoundIntervals, IntervalsKernel};
use super::interval_texture::{self, IntervalMapError, IntervalTexture, interval_id_texture};
use super::lens_view::{LensStep, LensView, RadixPass};
use super::map_source::MapSource;
use super::params_ring::ParamsRing;
use super::ping_pong::{PingPong, StartPicture};
use super::radix_image::{ImagePipelines, ImageSteps};
use super::swap_counters::SwapCounters;
use super::{RunStats, SortRun};
use crate::gpu::Gpu;
use crate::gpu::bindings::{compute_buffer, storage_target, uint_texture};
use crate::gpu::shaders::RADIX_PROGRAM;
use crate::gpu::texture::PICTURE_FORMAT;
use crate::intervals::IntervalMap;
use crate::keys::options::{Axis, Scope, SortOptions};
use crate::keys::radix_key::{DEFAULT_DIGIT_BITS, RadixKey, exact_bits};
use crate::reference::radix::{RadixPlan, Sequences, stage_limit};
use image::RgbaImage;
use std::sync::{Arc, OnceLock};

/// Pixels per chunk of a tile, one per invocation (`TILE_CHUNK` in `shaders/radix.wgsl`).
pub const TILE_CHUNK: u32 = 256;
/// Scatter stages per digit pass when sub-steps are shown.
pub const SUB_STEPS: u32 = 4;
/// The most per-tile digit counts a run keeps (16 MiB); longer sequences get longer tiles.
const MAX_COUNTS: u64 = 1 << 22;
/// Steps that may run between two readings of the counters.
const RING: u32 = 1024;

/// How the radix view sorts, besides key, order and axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RadixSettings {
    /// Bits per digit: 1, 2, 4 or 8.
    pub digit_bits: u32,
    /// Bits of the quantised key; `None` keeps the key exact.
    pub key_bits: Option<u32>,
    /// Each line, or the whole picture.
    pub scope: Scope,
    /// Show each pass's scatter in [`SUB_STEPS`] stages.
    pub sub_steps: bool,
    /// The picture's alpha is a recorder palette index below 128, and pixels waiting in a
    /// staged scatter take the index of their dimmed twin (index + 128).
    pub twin_indices: bool,
}

impl RadixSettings {
    /// Exact key, 4-bit digits, each line, no sub-steps.
    pub const DEFAULT: RadixSettings = RadixSettings {
        digit_bits: DEFAULT_DIGIT_BITS,
        key_bits: None,
        scope: Scope::Rows,
        sub_steps: false,
        twin_indices: false,
    };
}

impl Default for RadixSettings {
    fn default() -> Self {
        RadixSettings::DEFAULT
    }
}

impl RadixSettings {
    /// Scatter stages per digit pass.
    pub fn stages(&self) -> u32 {
        if self.sub_steps { SUB_STEPS } else { 1 }
    }

    /// The quantised key for `options`, with the key bits clamped to what the key has (the
    /// window keeps its setting when the key changes); the message says when they were.
    pub fn key(&self, options: SortOptions) -> (RadixKey, Option<String>) {
        let exact = exact_bits(options.key);
        let bits = self.key_bits.map(|b| b.clamp(1, exact));
        let key = RadixKey::new(options, bits).expect("bits within the key's range");
        let notice = (bits != self.key_bits)
            .then(|| format!("the {} key has {exact} bits: the radix view keeps {}", options.key, key.bits));
        (key, notice)
    }

    /// [`RadixSettings::key`] with the interval ids of `intervals` above it: an error when they do
    /// not fit 32 bits together, or when the scope is the whole picture (intervals are parts of
    /// lines).
    pub fn key_within(
        &self,
        options: SortOptions,
        intervals: Option<&IntervalMap>,
    ) -> Result<(RadixKey, Option<String>), IntervalMapError> {
        self.key_with_interval_bits(options, intervals.map(IntervalMap::interval_bits))
    }

    /// [`RadixSettings::key`] with interval ids of `interval_bits` above it (none without
    /// intervals).
    fn key_with_interval_bits(
        &self,
        options: SortOptions,
        interval_bits: Option<u32>,
    ) -> Result<(RadixKey, Option<String>), IntervalMapError> {
        let (key, notice) = self.key(options);
        let Some(interval_bits) = interval_bits else { return Ok((key, notice)) };
        if self.scope == Scope::Image {
            return Err(IntervalMapError::WholePicture);
        }
        let key = key.with_interval_bits(interval_bits).map_err(IntervalMapError::KeyTooWide)?;
        Ok((key, notice))
    }
}

/// Mirrors `RadixParams` in `shaders/radix.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct RadixParams {
    /// `SortKey::id`.
    pub key: u32,
    /// 1 for descending order.
    pub descending: u32,
    /// `Axis` as u32.
    pub axis: u32,
    /// `Scope` as u32.
    pub scope: u32,
    /// Low bits dropped from the sort key.
    pub key_shift: u32,
    /// 2^key_bits - 1.
    pub key_mask: u32,
    /// pass * digit_bits.
    pub digit_shift: u32,
    /// 2^digit_bits - 1.
    pub digit_mask: u32,
    /// Pixels per sequence.
    pub seq_len: u32,
    /// Tiles per sequence.
    pub tiles: u32,
    /// Sequences times tiles.
    pub all_tiles: u32,
    /// Chunks of [`TILE_CHUNK`] pixels per tile.
    pub chunks: u32,
    /// First position of each sequence this step scatters.
    pub scatter_begin: u32,
    /// Position after the last one this step scatters.
    pub scatter_end: u32,
    /// 1 when waiting pixels also take their dimmed twin's palette index.
    pub twin_indices: u32,
    /// 1 when pixels carry interval ids (the composite key), 0 without intervals.
    pub intervals: u32,
    /// Where the interval id sits in the composite key: the key's bits.
    pub interval_shift: u32,
    /// Padding to 80 bytes.
    pub pad: [u32; 3],
}

/// How the sequences are cut into tiles: `chunks` chunks of [`TILE_CHUNK`] pixels per tile,
/// doubled until the per-tile counts fit [`MAX_COUNTS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tiling {
    /// Chunks per tile.
    pub chunks: u32,
    /// Tiles per sequence.
    pub tiles: u32,
    /// Tiles of all sequences.
    pub all_tiles: u32,
}

impl Tiling {
    /// The tiling of `count` sequences of `len` pixels sorted by digits of `digit_bits` bits,
    /// with at least `min_chunks` chunks per tile.
    pub fn new(count: u32, len: u32, digit_bits: u32, min_chunks: u32) -> Self {
        let mut chunks = min_chunks.max(1);
        loop {
            let tiles = len.div_ceil(TILE_CHUNK * chunks).max(1);
            let counts = (u64::from(count) * u64::from(tiles)) << digit_bits;
            if counts <= MAX_COUNTS || tiles == 1 {
                return Tiling { chunks, tiles, all_tiles: count * tiles };
            }
            chunks *= 2;
        }
    }

    /// Counts kept per pass: one per digit value and tile.
    pub fn counts(&self, digit_bits: u32) -> u64 {
        u64::from(self.all_tiles) << digit_bits
    }
}

/// The radix pipelines, built once per device.
pub struct Radix {
    layout: wgpu::BindGroupLayout,
    count: wgpu::ComputePipeline,
    scan: wgpu::ComputePipeline,
    scatter: wgpu::ComputePipeline,
    dim: wgpu::ComputePipeline,
    /// The whole-picture steps' pipelines, built with the first run that uses them.
    image: OnceLock<Arc<ImagePipelines>>,
}

impl Radix {
    /// Builds the four kernels' pipelines.
    pub fn new(gpu: &Gpu) -> Self {
        let device = &gpu.device;
        let module = RADIX_PROGRAM.module(device);
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("radix::layout"),
            entries: &[
                uint_texture(0, wgpu::ShaderStages::COMPUTE),
                compute_buffer(1, wgpu::BufferBindingType::Uniform, true),
                compute_buffer(2, wgpu::BufferBindingType::Storage { read_only: false }, true),
                storage_target(3, PICTURE_FORMAT),
                compute_buffer(4, wgpu::BufferBindingType::Storage { read_only: false }, false),
                uint_texture(5, wgpu::ShaderStages::COMPUTE),
                storage_target(6, interval_texture::INTERVAL_ID_FORMAT),
            ],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("radix::pipeline_layout"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pipeline = |entry_point: &str| {
            device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(&format!("radix::{entry_point}")),
                layout: Some(&pipeline_layout),
                module: &module,
                entry_point: Some(entry_point),
                compilation_options: Default::default(),
                cache: gpu.pipeline_cache(),
            })
        };
        Radix {
            count: pipeline("count_digits"),
            scan: pipeline("scan_counts"),
            scatter: pipeline("scatter"),
            dim: pipeline("dim"),
            layout,
            image: OnceLock::new(),
        }
    }

    /// The whole-picture steps' pipelines (built on first use).
    fn image_pipelines(&self, gpu: &Gpu) -> Arc<ImagePipelines> {
        self.image.get_or_init(|| Arc::new(ImagePipelines::new(gpu))).clone()
    }

    /// Starts sorting `picture`.
    pub fn start(
        &self,
        gpu: &Gpu,
        picture: &RgbaImage,
        options: SortOptions,
        settings: RadixSettings,
    ) -> RadixRun {
        RadixRun::new(self, gpu, StartPicture::Image(picture), options, settings, 1, MapSource::Cpu(None))
            .expect("whole lines always fit")
    }

    /// Starts sorting `picture` within the intervals of `intervals` (every line whole with `None`):
    /// by the composite key, interval id above the key. Errors when they need more than 32 bits or
    /// the scope is the whole picture.
    ///
    /// # Panics
    /// When the map is for another picture size or axis (`Pipelines::start_within` checks).
    pub fn start_within(
        &self,
        gpu: &Gpu,
        picture: &RgbaImage,
        options: SortOptions,
        settings: RadixSettings,
        intervals: Option<&IntervalMap>,
    ) -> Result<RadixRun, IntervalMapError> {
        RadixRun::new(
            self,
            gpu,
            StartPicture::Image(picture),
            options,
            settings,
            1,
            MapSource::Cpu(intervals),
        )
    }

    /// [`Radix::start_within`] from a picture on the CPU or a texture already on the GPU.
    pub fn start_from(
        &self,
        gpu: &Gpu,
        picture: StartPicture<'_>,
        options: SortOptions,
        settings: RadixSettings,
        intervals: Option<&IntervalMap>,
    ) -> Result<RadixRun, IntervalMapError> {
        RadixRun::new(self, gpu, picture, options, settings, 1, MapSource::Cpu(intervals))
    }

    /// Starts sorting `picture` (on the CPU, or a texture already on the GPU) within intervals that
    /// `kernel` finds on the GPU from the picture itself, as [`Radix::start_within`] does with
    /// the CPU's map of them; the interval ids are given as many bits as any id of a line could
    /// take, so the steps may be more than with the CPU's map, and the sorted picture is the
    /// same. Errors as `start_within` does.
    pub fn start_within_found(
        &self,
        gpu: &Gpu,
        picture: StartPicture<'_>,
        options: SortOptions,
        settings: RadixSettings,
        kernel: &IntervalsKernel,
        intervals: FoundIntervals<'_>,
    ) -> Result<RadixRun, IntervalMapError> {
        assert_eq!(intervals.axis, options.axis, "intervals found along the sort's axis");
        RadixRun::new(self, gpu, picture, options, settings, 1, MapSource::Gpu(kernel, intervals))
    }

    /// Starts sorting `picture` with tiles of at least `min_chunks` chunks: longer tiles than
    /// small pictures get, so that tests reach the multi-chunk path on small inputs.
    pub fn start_with_chunks(
        &self,
        gpu: &Gpu,
        picture: &RgbaImage,
        options: SortOptions,
        settings: RadixSettings,
        min_chunks: u32,
    ) -> RadixRun {
        RadixRun::new(
            self,
            gpu,
            StartPicture::Image(picture),
            options,
            settings,
            min_chunks,
            MapSource::Cpu(None),
        )
        .expect("whole lines always fit")
    }
}

/// One picture being radix sorted.
pub struct RadixRun {
    /// For writing a step's parameters when it is recorded.
    queue: wgpu::Queue,
    count: wgpu::ComputePipeline,
    scan: wgpu::ComputePipeline,
    scatter: wgpu::ComputePipeline,
    dim: wgpu::ComputePipeline,
    /// The layout of `bind_groups`, to make them again for new interval-id textures.
    layout: wgpu::BindGroupLayout,
    pictures: PingPong,
    bind_groups: [wgpu::BindGroup; 2],
    params: ParamsRing,
    counts: wgpu::Buffer,
    counters: SwapCounters,
    /// The whole-picture scope's steps on the device-wide sort, where they apply.
    image: Option<ImageSteps>,
    intervals: CarriedIntervals,
    plan: RadixPlan,
    sequences: Sequences,
    tiling: Tiling,
    /// Most workgroups along one dispatch dimension.
    max_groups: u32,
    steps_done: u32,
    collected: u32,
    stats: RunStats,
    notice: Option<String>,
}

impl RadixRun {
    fn new(
        radix: &Radix,
        gpu: &Gpu,
        picture: StartPicture<'_>,
        options: SortOptions,
        settings: RadixSettings,
        min_chunks: u32,
        source: MapSource<'_>,
    ) -> Result<Self, IntervalMapError> {
        assert!(
            crate::keys::radix_key::DIGIT_BITS.contains(&settings.digit_bits),
            "digit bits {} are not one of 1, 2, 4, 8",
            settings.digit_bits
        );
        let (width, height) = picture.dimensions();
        let intervals = match source {
            MapSource::Cpu(intervals) => intervals,
            MapSource::Gpu(..) => None,
        };
        if let Some(map) = intervals {
            interval_texture::check_map(map, width, height, options.axis)
                .expect("an interval map for this picture");
        }
        let interval_bits = match source {
            MapSource::Cpu(intervals) => intervals.map(IntervalMap::interval_bits),
            MapSource::Gpu(_, found) => Some(found.interval_bits(width, height)),
        };
        let (key, notice) = settings.key_with_interval_bits(options, interval_bits)?;
        let plan = RadixPlan {
            key,
            digit_bits: settings.digit_bits,
            stages: settings.stages(),
            twin_indices: settings.twin_indices,
        };
        let sequences = Sequences { width, height, axis: options.axis, scope: settings.scope };
        let tiling =
            Tiling::new(sequences.count() as u32, sequences.len() as u32, settings.digit_bits, min_chunks);
        let pictures = PingPong::start(gpu, picture, "radix");
        let device = &gpu.device;
        let params = ParamsRing::new(gpu, std::mem::size_of::<RadixParams>(), RING, "radix::params");
        let counters = SwapCounters::new(gpu, RING, 1, "radix::moved");
        let image = (settings.scope == Scope::Image && plan.stages == 1 && interval_bits.is_none())
            .then(|| ImageSteps::new(radix.image_pipelines(gpu), gpu, &pictures, &counters, RING))
            .flatten();
        // The view's own kernels keep their counts here (a placeholder when they do not run).
        let counts_bytes = if image.is_some() { 4 } else { tiling.counts(settings.digit_bits) * 4 };
        let counts = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("radix::counts"),
            size: counts_bytes,
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        });
        let carried = match source {
            MapSource::Cpu(intervals) => CarriedIntervals::new(gpu, intervals),
            MapSource::Gpu(_, found) => {
                let len = if found.axis == Axis::Rows { width } else { height };
                CarriedIntervals::written_on_gpu(gpu, width, height, len)
            }
        };
        let bind_groups = bind_groups(gpu, &radix.layout, &pictures, &params, &counts, &counters, &carried);
        let mut run = RadixRun {
            queue: gpu.queue.clone(),
            count: radix.count.clone(),
            scan: radix.scan.clone(),
            scatter: radix.scatter.clone(),
            dim: radix.dim.clone(),
            layout: radix.layout.clone(),
            pictures,
            bind_groups,
            params,
            counts,
            counters,
            image,
            intervals: carried,
            plan,
            sequences,
            tiling,
            max_groups: device.limits().max_compute_workgroups_per_dimension,
            steps_done: 0,
            collected: 0,
            stats: RunStats::default(),
            notice,
        };
        let mut encoder =
            device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("radix::start") });
        if let MapSource::Gpu(kernel, found) = source {
            kernel.record(gpu, &mut encoder, run.pictures.input(), run.intervals.map.texture(), found);
        }
        run.intervals.record_restart(&mut encoder);
        gpu.queue.submit([encoder.finish()]);
        run.reset_stats();
        Ok(run)
    }

    fn reset_stats(&mut self) {
        self.collected = 0;
        // A sequence (or the longest interval) of one pixel is sorted before the first pass.
        let longest = self.intervals.max_interval_len.unwrap_or(self.sequences.len() as u32);
        self.stats = RunStats { sorted_after: (longest <= 1).then_some(0), ..Default::default() };
    }

    /// The digit width, stages and key of this run.
    pub fn plan(&self) -> RadixPlan {
        self.plan
    }

    /// The sequences sorted.
    pub fn sequences(&self) -> Sequences {
        self.sequences
    }

    /// Whether each step is a device-wide sort of the whole picture ([`super::radix_image`])
    /// rather than the view's own kernels.
    pub fn device_sorted(&self) -> bool {
        self.image.is_some()
    }

    /// How the sequences are cut into tiles.
    pub fn tiling(&self) -> Tiling {
        self.tiling
    }

    fn step_params(&self, step: u32) -> RadixParams {
        let (pass, stage) = (step / self.plan.stages, step % self.plan.stages + 1);
        let options = self.plan.key.options;
        let len = self.sequences.len();
        RadixParams {
            key: options.key.id(),
            descending: options.descending.into(),
            axis: options.axis as u32,
            scope: self.sequences.scope as u32,
            key_shift: self.plan.key.shift(),
            key_mask: self.plan.key.mask(),
            digit_shift: pass * self.plan.digit_bits,
            digit_mask: (1 << self.plan.digit_bits) - 1,
            seq_len: len as u32,
            tiles: self.tiling.tiles,
            all_tiles: self.tiling.all_tiles,
            chunks: self.tiling.chunks,
            scatter_begin: stage_limit(len, stage - 1, self.plan.stages) as u32,
            scatter_end: stage_limit(len, stage, self.plan.stages) as u32,
            twin_indices: self.plan.twin_indices.into(),
            intervals: self.intervals.map.enabled().into(),
            interval_shift: self.plan.key.bits,
            pad: [0; 3],
        }
    }

    /// Workgroups for one per tile, spread over two dimensions when there are many.
    fn tile_groups(&self) -> (u32, u32) {
        let x = self.tiling.all_tiles.min(self.max_groups);
        (x, self.tiling.all_tiles.div_ceil(x))
    }
}

impl SortRun for RadixRun {
    fn total_steps(&self) -> u32 {
        self.plan.steps()
    }

    fn steps_done(&self) -> u32 {
        self.steps_done
    }

    fn record_steps(&mut self, encoder: &mut wgpu::CommandEncoder, n: u32) -> u32 {
        let room = RING - (self.steps_done - self.collected);
        let n = n.min(self.total_steps() - self.steps_done).min(room);
        if n == 0 {
            return 0;
        }
        let first = self.steps_done;
        self.counters.record_clear(encoder, first, n);
        if let Some(image) = &self.image {
            for step in first..first + n {
                let counter = self.counters.dynamic_offset(step);
                image.record_step(encoder, &self.queue, &self.plan.key, self.plan.digit_bits, step, counter);
            }
            self.steps_done += n;
            return n;
        }
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("radix::steps"),
            timestamp_writes: None,
        });
        let (groups_x, groups_y) = self.tile_groups();
        let (width, height) = (self.sequences.width, self.sequences.height);
        for step in first..first + n {
            // Each step has a slot of its own in the ring; at most RING steps are outstanding,
            // so a slot is never rewritten before the step that reads it has run.
            let offset = self.params.write(&self.queue, step, &self.step_params(step));
            let digit_pass = step / self.plan.stages;
            let direction = (digit_pass % 2) as usize;
            pass.set_bind_group(
                0,
                &self.bind_groups[direction],
                &[offset, self.counters.dynamic_offset(step)],
            );
            if step.is_multiple_of(self.plan.stages) {
                pass.set_pipeline(&self.count);
                pass.dispatch_workgroups(groups_x, groups_y, 1);
                pass.set_pipeline(&self.scan);
                pass.dispatch_workgroups(self.sequences.count() as u32, 1, 1);
                if self.plan.stages > 1 {
                    pass.set_pipeline(&self.dim);
                    pass.dispatch_workgroups(width.div_ceil(16), height.div_ceil(16), 1);
                }
            }
            pass.set_pipeline(&self.scatter);
            pass.dispatch_workgroups(groups_x, groups_y, 1);
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
        for moved in self.counters.decode(bytes) {
            assert!(self.collected < self.steps_done, "counts of unrecorded steps");
            self.collected += 1;
            self.stats.total_swaps += u64::from(moved);
            self.stats.last_step_swaps = Some(moved);
            if self.collected == self.total_steps() && self.stats.sorted_after.is_none() {
                self.stats.sorted_after = Some(self.collected);
            }
        }
    }

    fn stats(&self) -> RunStats {
        self.stats
    }

    fn state(&self) -> &wgpu::Texture {
        self.pictures.state(self.steps_done.div_ceil(self.plan.stages))
    }

    fn lens_view(&self) -> LensView<'_> {
        // The digit pass under way or just done, and its input (the other texture).
        let pass = self.steps_done.checked_sub(1).map(|step| step / self.plan.stages);
        let intervals = self.intervals.map.enabled();
        LensView {
            state: self.state(),
            before: pass.map(|p| self.pictures.state(p)),
            axis: self.sequences.axis,
            intervals: intervals.then(|| self.intervals.map.texture()),
            options: self.plan.key.options,
            steps_done: self.steps_done,
            step: LensStep::Radix {
                pass: self.steps_done.checked_sub(1).map(|step| {
                    let p = self.step_params(step);
                    RadixPass {
                        descending: p.descending,
                        key_shift: p.key_shift,
                        key_mask: p.key_mask,
                        digit_shift: p.digit_shift,
                        digit_mask: p.digit_mask,
                        interval_shift: p.interval_shift,
                        seq_len: p.seq_len,
                        tiles: p.tiles,
                        tile_len: TILE_CHUNK * p.chunks,
                    }
                }),
                counts: self.image.is_none().then_some(&self.counts),
                input_intervals: pass.filter(|_| intervals).map(|p| &self.intervals.ids[(p % 2) as usize]),
                digit_bits: self.plan.digit_bits,
                passes: self.plan.passes(),
                stages: self.plan.stages,
                whole_picture: self.sequences.scope == Scope::Image,
            },
        }
    }

    fn restart(&mut self, encoder: &mut wgpu::CommandEncoder) {
        self.pictures.record_restart(encoder);
        self.intervals.record_restart(encoder);
        self.steps_done = 0;
        self.reset_stats();
    }

    fn restart_within(
        &mut self,
        gpu: &Gpu,
        encoder: &mut wgpu::CommandEncoder,
        intervals: Option<&IntervalMap>,
    ) -> Result<(), IntervalMapError> {
        let (width, height) = (self.sequences.width, self.sequences.height);
        if let Some(map) = intervals {
            interval_texture::check_map(map, width, height, self.sequences.axis)?;
        }
        // The key without interval bits, then with this map's (checked before anything changes).
        let key = crate::keys::radix_key::RadixKey { interval_bits: 0, ..self.plan.key };
        let key = match intervals {
            None => key,
            Some(_) if self.sequences.scope == Scope::Image => return Err(IntervalMapError::WholePicture),
            Some(map) => key.with_interval_bits(map.interval_bits()).map_err(IntervalMapError::KeyTooWide)?,
        };
        self.plan.key = key;
        if self.intervals.set(gpu, intervals) {
            self.bind_groups = bind_groups(
                gpu,
                &self.layout,
                &self.pictures,
                &self.params,
                &self.counts,
                &self.counters,
                &self.intervals,
            );
        }
        self.restart(encoder);
        Ok(())
    }

    fn notice(&self) -> Option<&str> {
        self.notice.as_deref()
    }
}

/// The two step bind groups (see `PingPong::step_bind_groups`): the counts at binding 4, and
/// group `d` reads the interval ids of texture `d` (5) and writes those of `1 - d` (6).
fn bind_groups(
    gpu: &Gpu,
    layout: &wgpu::BindGroupLayout,
    pictures: &PingPong,
    params: &ParamsRing,
    counts: &wgpu::Buffer,
    counters: &SwapCounters,
    intervals: &CarriedIntervals,
) -> [wgpu::BindGroup; 2] {
    pictures.step_bind_groups(&gpu.device, layout, "radix", params.binding(), counters.binding(), |d| {
        vec![
            wgpu::BindGroupEntry { binding: 4, resource: counts.as_entire_binding() },
            wgpu::BindGroupEntry {
                binding: 5,
                resource: wgpu::BindingResource::TextureView(&intervals.views[d]),
            },
            wgpu::BindGroupEntry {
                binding: 6,
                resource: wgpu::BindingResource::TextureView(&intervals.views[1 - d]),
            },
        ]
    })
}

/// The interval ids the pixels carry through the passes: the map, and two textures ping-ponged
/// with the pictures (`ids[k % 2]` holds them after `k` digit passes). Without a map all three
/// are 1x1 stand-ins that the kernels never read or write.
struct CarriedIntervals {
    map: IntervalTexture,
    ids: [wgpu::Texture; 2],
    views: [wgpu::TextureView; 2],
    /// The longest interval, with a map.
    max_interval_len: Option<u32>,
}

impl CarriedIntervals {
    fn new(gpu: &Gpu, intervals: Option<&IntervalMap>) -> Self {
        let map = IntervalTexture::new(gpu, intervals, "radix::intervals");
        let (ids, views) = Self::textures(gpu, map.texture());
        CarriedIntervals { map, ids, views, max_interval_len: intervals.map(IntervalMap::max_interval_len) }
    }

    /// A map of `width` x `height` that a kernel writes before the first step, whose intervals are
    /// at most `longest` long.
    fn written_on_gpu(gpu: &Gpu, width: u32, height: u32, longest: u32) -> Self {
        let map = IntervalTexture::written_on_gpu(gpu, width, height, "radix::intervals");
        let (ids, views) = Self::textures(gpu, map.texture());
        CarriedIntervals { map, ids, views, max_interval_len: Some(longest) }
    }

    fn textures(gpu: &Gpu, map: &wgpu::Texture) -> ([wgpu::Texture; 2], [wgpu::TextureView; 2]) {
        let ids = [0, 1].map(|i| {
            interval_id_texture(gpu, map.width(), map.height(), &format!("radix::interval_ids[{i}]"))
        });
        let views = ids.each_ref().map(|t| t.create_view(&Default::default()));
        (ids, views)
    }

    /// Uploads `intervals` (see [`IntervalTexture::set`]); returns whether the textures were made
    /// anew.
    fn set(&mut self, gpu: &Gpu, intervals: Option<&IntervalMap>) -> bool {
        self.max_interval_len = intervals.map(IntervalMap::max_interval_len);
        let replaced = self.map.set(gpu, intervals);
        if replaced {
            (self.ids, self.views) = Self::textures(gpu, self.map.texture());
        }
        replaced
    }

    /// Records copying the map into `ids[0]`, the ids at step 0.
    fn record_restart(&self, encoder: &mut wgpu::CommandEncoder) {
        let map = self.map.texture();
        encoder.copy_texture_to_texture(map.as_image_copy(), self.ids[0].as_image_copy(), map.size());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_grow_until_the_counts_fit() {
        assert_eq!(Tiling::new(600, 400, 4, 1), Tiling { chunks: 1, tiles: 2, all_tiles: 1200 });
        assert_eq!(Tiling::new(1, 1, 8, 1), Tiling { chunks: 1, tiles: 1, all_tiles: 1 });
        assert_eq!(Tiling::new(2, 600, 4, 3), Tiling { chunks: 3, tiles: 1, all_tiles: 2 });
        let whole = Tiling::new(1, 4096 * 4096, 8, 1);
        assert_eq!((whole.chunks, whole.tiles), (4, 16384));
        assert!(whole.counts(8) <= MAX_COUNTS);
        let rows = Tiling::new(8192, 8192, 8, 1);
        assert!(rows.counts(8) <= MAX_COUNTS && rows.tiles * rows.chunks * TILE_CHUNK >= 8192);
    }

    #[test]
    fn interval_ids_and_the_key_must_fit_32_bits_and_intervals_need_lines() {
        use crate::intervals::Cell;
        use crate::keys::options::Axis;
        let options = SortOptions { key: crate::keys::SortKey::Hue, ..Default::default() };
        // 16384 fixed pixels: interval ids up to 16383 (14 bits) above 19 bits of hue.
        let fixed = IntervalMap::build(16384, 1, Axis::Rows, |_, _, _| Cell::Fixed);
        let e = RadixSettings::default().key_within(options, Some(&fixed)).unwrap_err();
        assert!(
            matches!(e, IntervalMapError::KeyTooWide(_)) && e.to_string().contains("--key-bits 18"),
            "{e}"
        );
        let fewer = RadixSettings { key_bits: Some(18), ..Default::default() };
        assert_eq!(fewer.key_within(options, Some(&fixed)).unwrap().0.interval_bits, 14);
        let image = RadixSettings { scope: Scope::Image, ..Default::default() };
        let lines = IntervalMap::whole_lines(3, 3, Axis::Rows);
        assert_eq!(image.key_within(options, Some(&lines)).unwrap_err(), IntervalMapError::WholePicture);
        assert_eq!(image.key_within(options, None).unwrap().0.interval_bits, 0);
    }

    #[test]
    fn key_bits_beyond_the_key_are_clamped_with_a_notice() {
        let options = SortOptions { key: crate::keys::SortKey::Red, ..Default::default() };
        let settings = RadixSettings { key_bits: Some(16), ..Default::default() };
        let (key, notice) = settings.key(options);
        assert_eq!(key.bits, 8);
        assert!(notice.unwrap().contains("8 bits"));
        assert_eq!(RadixSettings::default().key(options).1, None);
    }
}
