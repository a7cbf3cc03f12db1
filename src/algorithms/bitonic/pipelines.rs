//! The bitonic network's kernels: `global_stage`, and `sort_blocks` and `sort_lines` built for
//! each rank layout, block and line length that runs ask for.

use super::layout::{LINES_OVERHEAD_BYTES, RankWords, block_for};
use super::plan::PlanKernel;
use crate::gpu::Gpu;
use crate::gpu::bindings::{compute_buffer, storage_target, uint_texture};
use crate::gpu::kernel::{compute_pipeline, compute_pipeline_on, kernel_layouts};
use crate::gpu::shaders::{BITONIC_PROGRAM, BITONIC_SUBGROUPS_PROGRAM};
use crate::gpu::texture::PICTURE_FORMAT;

/// Most invocations per workgroup of `sort_blocks`.
const MAX_WORKGROUP: u32 = 1024;
/// Invocations per workgroup of `global_stage` (`@workgroup_size` there).
pub(super) const GLOBAL_WORKGROUP: u32 = 64;
/// A `sort_blocks` pipeline and the block its workgroup memory holds.
#[derive(Clone)]
pub(super) struct BlockPipeline {
    pub(super) pipeline: wgpu::ComputePipeline,
    pub(super) block: u32,
    /// Invocations per workgroup.
    pub(super) workgroup: u32,
    /// The constants it was built with (the shader panel shows them).
    pub(super) constants: Vec<(&'static str, f64)>,
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
pub(super) const HELD: u32 = 16;

/// The shortest line `sort_lines` takes by default: its smallest workgroup (32) holds 512
/// positions, and short lines sort faster in `sort_blocks` (BENCHMARKS.md).
const MIN_HELD_LINE: u32 = 129;

/// The bitonic pipelines of one device: `global_stage`, and `sort_blocks` built for each
/// rank layout and block size a run asks for (kept, so pictures of one size build them once).
pub struct Bitonic {
    pub(super) device: wgpu::Device,
    /// The device's pipeline cache, for the pipelines built as runs need them.
    pub(super) cache: Option<wgpu::PipelineCache>,
    pub(super) layout: wgpu::BindGroupLayout,
    pub(super) pipeline_layout: wgpu::PipelineLayout,
    /// The program as compiled (its module, and its text for the shader panel).
    pub(super) compiled: crate::gpu::shaders::Compiled,
    pub(super) tuning: BitonicTuning,
    pub(super) global: wgpu::ComputePipeline,
    pub(super) built: std::sync::Mutex<Vec<((usize, u32), BlockPipeline)>>,
    /// `sort_lines` by workgroup size.
    pub(super) lines: std::sync::Mutex<Vec<(u32, BlockPipeline)>>,
    /// The subgroup size `sort_lines` shuffles within, where it does.
    pub(super) shuffle_width: Option<u32>,
    /// The kernel that plans intervals found on the GPU, built on first use.
    pub(super) plan_kernel: std::sync::OnceLock<PlanKernel>,
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
        let compiled = program.compile_without_loop_bounding(device);
        let module = &compiled.module;
        let read_only = wgpu::BufferBindingType::Storage { read_only: true };
        let (layout, pipeline_layout) = kernel_layouts(
            device,
            "bitonic",
            &[
                uint_texture(0, wgpu::ShaderStages::COMPUTE),
                compute_buffer(1, wgpu::BufferBindingType::Uniform, true),
                compute_buffer(2, wgpu::BufferBindingType::Storage { read_only: false }, true),
                storage_target(3, PICTURE_FORMAT),
                uint_texture(4, wgpu::ShaderStages::COMPUTE),
                compute_buffer(5, wgpu::BufferBindingType::Storage { read_only: false }, false),
                compute_buffer(6, read_only, false),
                compute_buffer(7, read_only, false),
            ],
        );
        let global = compute_pipeline(
            gpu,
            "bitonic::global_stage",
            &pipeline_layout,
            module,
            "global_stage",
            Default::default(),
        );
        Bitonic {
            device: device.clone(),
            cache: gpu.pipeline_cache().cloned(),
            layout,
            pipeline_layout,
            compiled,
            tuning,
            global,
            built: Default::default(),
            lines: Default::default(),
            shuffle_width,
            plan_kernel: Default::default(),
        }
    }

    /// The largest block workgroup memory holds with `layout`.
    pub(super) fn device_block(&self, layout: RankWords) -> u32 {
        block_for(self.device.limits().max_compute_workgroup_storage_size, layout, self.tuning.max_block)
    }

    /// `sort_blocks` for `layout` with blocks of `block` positions, built on first use.
    pub(super) fn block_pipeline(&self, layout: RankWords, block: u32) -> BlockPipeline {
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
        let made = BlockPipeline { pipeline, block, workgroup, constants: constants.to_vec() };
        built.push(((layout.index(), block), made.clone()));
        made
    }

    /// The pipeline of entry point `entry` (`sort_blocks` or `sort_lines`) with `constants`;
    /// `size` names it.
    pub(super) fn unit_pipeline(
        &self,
        entry: &str,
        size: u32,
        constants: &[(&str, f64)],
    ) -> wgpu::ComputePipeline {
        let options = wgpu::PipelineCompilationOptions {
            constants,
            // Every workgroup variable is written before it is read.
            zero_initialize_workgroup_memory: false,
        };
        let label = format!("bitonic::{entry}[{size}]");
        compute_pipeline_on(
            &self.device,
            self.cache.as_ref(),
            &label,
            Some(&self.pipeline_layout),
            &self.compiled.module,
            entry,
            options,
        )
    }

    /// `sort_lines` for lines of `line_len` positions, built on first use; `None` where the
    /// tuning leaves it out or the device cannot hold such a line that way.
    pub(super) fn lines_pipeline(&self, line_len: u32) -> Option<BlockPipeline> {
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
        let made =
            BlockPipeline { pipeline, block: HELD * workgroup, workgroup, constants: constants.to_vec() };
        built.push((workgroup, made.clone()));
        Some(made)
    }
}
