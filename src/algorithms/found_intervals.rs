//! Intervals found on the GPU (`shaders/found_intervals.wgsl`): a picture's interval ids written
//! into an interval texture by a kernel, equal to what [`IntervalMap::compute`] makes on the CPU
//! along rows or columns for every interval rule (whole lines, threshold, edges, random lengths)
//! with or without a mask, and in line space along lines at an angle as `LineSpace::interval_map`
//! makes them, so a clip's frames need no interval map from the CPU and no upload of one.
//!
//! [`IntervalMap::compute`]: crate::intervals::IntervalMap::compute

use super::gpu_mask::GpuMask;
use super::interval_texture::{INTERVAL_ID_FORMAT, interval_id_texture};
use crate::gpu::Gpu;
use crate::gpu::bindings::{compute_buffer, storage_target, uint_texture};
use crate::gpu::kernel::{bind_group, encode_dispatch, one_kernel, uniform};
use crate::gpu::shaders::FOUND_INTERVALS_PROGRAM;
use crate::intervals::{IntervalLength, IntervalMode, IntervalSettings, Threshold, edges};
use crate::keys::SortKey;
use crate::keys::options::Axis;

/// The longest line the kernel cuts into random intervals (`START_WORDS` bits of workgroup memory
/// in the shader); longer ones take the CPU's map.
pub const MAX_RANDOM_LINE: u32 = 1024 * 32;

/// Mirrors `IntervalParams` in `shaders/found_intervals.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct IntervalParams {
    rule: u32,
    key: u32,
    lo: u32,
    span: u32,
    axis: u32,
    line_len: u32,
    line_count: u32,
    groups_x: u32,
    masked: u32,
    limit_low: u32,
    limit_high: u32,
    seed_low: u32,
    seed_high: u32,
    min_len: u32,
    len_count: u32,
    angled: u32,
}

/// How the GPU cuts each line into intervals: the interval mode with what it reads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum IntervalRule {
    /// Every line one interval (cut only by a mask).
    Whole,
    /// Intervals of the pixels whose `key` lies inside `threshold`.
    Threshold {
        /// The interval key.
        key: SortKey,
        /// The range of it that is sorted.
        threshold: Threshold,
    },
    /// Pixels on edges of `key` stronger than `level` are fixed (`intervals::edges`).
    Edges {
        /// The interval key.
        key: SortKey,
        /// The edge level, a fraction of the largest magnitude.
        level: f64,
    },
    /// Intervals of random lengths (`intervals::random`).
    Random {
        /// The seed.
        seed: u64,
        /// The range the lengths are drawn from.
        lengths: IntervalLength,
    },
}

impl IntervalRule {
    /// The rule of `settings`' mode.
    pub fn of(settings: &IntervalSettings) -> Self {
        match settings.mode {
            IntervalMode::None => IntervalRule::Whole,
            IntervalMode::Threshold => {
                IntervalRule::Threshold { key: settings.key, threshold: settings.threshold }
            }
            IntervalMode::Edges => IntervalRule::Edges { key: settings.key, level: settings.edge_level },
            IntervalMode::Random => {
                IntervalRule::Random { seed: settings.seed, lengths: settings.interval_length }
            }
        }
    }
}

/// Which intervals to find: those `rule` cuts along `axis`, the black pixels of `mask` fixed.
#[derive(Clone, Copy, Debug)]
pub struct FoundIntervals<'a> {
    /// How the lines are cut.
    pub rule: IntervalRule,
    /// The lines the intervals lie along (rows in line space).
    pub axis: Axis,
    /// The mask, already on the GPU.
    pub mask: Option<&'a GpuMask>,
    /// Lines at an angle: the intervals are found in line space, each cell read from the picture
    /// where the cell's pixel lies (padding fixed).
    pub angled: Option<LineCells<'a>>,
}

/// What finding intervals in line space reads: the picture in image space, and for each line-space
/// cell the picture pixel it holds (`angle::LineSpace::cells`, `u32::MAX` for padding).
#[derive(Clone, Copy, Debug)]
pub struct LineCells<'a> {
    /// The picture (an `Rgba8Uint` texture), in image space.
    pub picture: &'a wgpu::Texture,
    /// The cells' pixels, an `R32Uint` texture of line space's size.
    pub cells: &'a wgpu::Texture,
}

impl<'a> FoundIntervals<'a> {
    /// Intervals cut by `rule` along `axis`, without a mask.
    pub fn new(rule: IntervalRule, axis: Axis) -> Self {
        FoundIntervals { rule, axis, mask: None, angled: None }
    }

    /// Threshold intervals without a mask.
    pub fn threshold(key: SortKey, threshold: Threshold, axis: Axis) -> Self {
        FoundIntervals::new(IntervalRule::Threshold { key, threshold }, axis)
    }

    /// The most bits an interval id takes in a picture of `width` x `height`: an id grows by at
    /// most one a position, so it is below the line's length.
    pub fn interval_bits(&self, width: u32, height: u32) -> u32 {
        let len = if self.axis == Axis::Rows { width } else { height };
        u32::BITS - len.saturating_sub(1).leading_zeros()
    }

    /// Whether the kernel can cut lines of `line_len` pixels so.
    pub fn fits(&self, line_len: u32) -> bool {
        !matches!(self.rule, IntervalRule::Random { .. }) || line_len <= MAX_RANDOM_LINE
    }
}

/// The kernel that finds intervals.
pub struct IntervalsKernel {
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::ComputePipeline,
    /// Bound where there is no mask or no line space.
    stand_in: wgpu::TextureView,
}

impl IntervalsKernel {
    /// Builds the kernel on `gpu`.
    pub fn new(gpu: &Gpu) -> Self {
        let (layout, pipeline) = one_kernel(
            gpu,
            &FOUND_INTERVALS_PROGRAM,
            "found_intervals",
            &[
                uint_texture(0, wgpu::ShaderStages::COMPUTE),
                compute_buffer(1, wgpu::BufferBindingType::Uniform, false),
                storage_target(2, INTERVAL_ID_FORMAT),
                uint_texture(3, wgpu::ShaderStages::COMPUTE),
                uint_texture(4, wgpu::ShaderStages::COMPUTE),
            ],
            "find_intervals",
            // Every workgroup word is written before it is read (the random starts cleared
            // first), and zeroing them makes GL's compile slow.
            wgpu::PipelineCompilationOptions {
                zero_initialize_workgroup_memory: false,
                ..Default::default()
            },
        );
        let stand_in =
            interval_id_texture(gpu, 1, 1, "found_intervals::stand_in").create_view(&Default::default());
        IntervalsKernel { layout, pipeline, stand_in }
    }

    /// Encodes writing the interval ids of `picture` (an `Rgba8Uint` texture, the one sorted: line
    /// space at an angle, where the intervals' own picture is read instead) under `intervals` into
    /// `ids` (an interval id texture of the same size).
    pub fn encode(
        &self,
        gpu: &Gpu,
        encoder: &mut wgpu::CommandEncoder,
        picture: &wgpu::Texture,
        ids: &wgpu::Texture,
        intervals: FoundIntervals<'_>,
    ) {
        let (width, height) = (picture.width(), picture.height());
        assert_eq!((ids.width(), ids.height()), (width, height), "interval ids for the picture's size");
        let (line_len, line_count) = match intervals.axis {
            Axis::Rows => (width, height),
            Axis::Columns => (height, width),
        };
        assert!(intervals.fits(line_len), "random intervals along lines of {line_len} pixels");
        let read = match intervals.angled {
            Some(angled) => {
                assert_eq!(intervals.axis, Axis::Rows, "line space is cut along its rows");
                assert_eq!(angled.cells.size(), ids.size(), "a cell table of line space's size");
                angled.picture
            }
            None => picture,
        };
        if let Some(mask) = intervals.mask {
            assert_eq!(mask.dimensions(), (read.width(), read.height()), "a mask of the picture's size");
        }
        let groups_x = line_count.min(gpu.device.limits().max_compute_workgroups_per_dimension);
        let mut params = IntervalParams {
            axis: intervals.axis as u32,
            line_len,
            line_count,
            groups_x,
            masked: u32::from(intervals.mask.is_some()),
            angled: u32::from(intervals.angled.is_some()),
            ..bytemuck::Zeroable::zeroed()
        };
        match intervals.rule {
            IntervalRule::Whole => {}
            IntervalRule::Threshold { key, threshold } => {
                let inside = threshold.key_values(key);
                // An empty threshold: `lo` past every key, so nothing is inside.
                (params.lo, params.span) = if inside.is_empty() {
                    (u32::MAX, 0)
                } else {
                    (*inside.start(), inside.end() - inside.start())
                };
                (params.rule, params.key) = (1, key.id());
            }
            IntervalRule::Edges { key, level } => {
                let limit = edges::squared_limit(key, level);
                (params.limit_low, params.limit_high) = (limit as u32, (limit >> 32) as u32);
                (params.rule, params.key) = (2, key.id());
            }
            IntervalRule::Random { seed, lengths } => {
                (params.seed_low, params.seed_high) = (seed as u32, (seed >> 32) as u32);
                // At most u32::MAX lengths, since the shortest is at least 1.
                (params.min_len, params.len_count) = (lengths.min(), lengths.max() - lengths.min() + 1);
                params.rule = 3;
            }
        }
        let params = uniform(gpu, "found_intervals::params", &params);
        let picture_view = read.create_view(&Default::default());
        let ids_view = ids.create_view(&Default::default());
        let mask = intervals.mask.map_or(&self.stand_in, GpuMask::view);
        let cells = intervals.angled.map(|a| a.cells.create_view(&Default::default()));
        let bind_group = bind_group(
            &gpu.device,
            "found_intervals::bind_group",
            &self.layout,
            [
                wgpu::BindingResource::TextureView(&picture_view),
                params.as_entire_binding(),
                wgpu::BindingResource::TextureView(&ids_view),
                wgpu::BindingResource::TextureView(mask),
                wgpu::BindingResource::TextureView(cells.as_ref().unwrap_or(&self.stand_in)),
            ],
        );
        encode_dispatch(
            encoder,
            "found_intervals",
            &self.pipeline,
            &bind_group,
            [groups_x, line_count.div_ceil(groups_x), 1],
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interval_ids_stay_below_the_line_length() {
        let intervals = FoundIntervals::threshold(SortKey::Luma, Threshold::DEFAULT, Axis::Rows);
        assert_eq!(intervals.interval_bits(1920, 1080), 11);
        assert_eq!(intervals.interval_bits(1, 5), 0);
        assert_eq!(intervals.interval_bits(2049, 5), 12);
        assert_eq!(FoundIntervals { axis: Axis::Columns, ..intervals }.interval_bits(1920, 1080), 11);
        assert_eq!(FoundIntervals { axis: Axis::Columns, ..intervals }.interval_bits(7, 2), 1);
    }

    /// The shader's bitset of random starts holds the longest line the Rust side allows.
    #[test]
    fn the_random_starts_hold_the_longest_line_allowed() {
        let words = format!("const START_WORDS: u32 = {}u;", MAX_RANDOM_LINE / 32);
        assert!(crate::gpu::shaders::FOUND_INTERVALS.contains(&words), "{words}");
    }

    #[test]
    fn params_are_sixteen_words_as_in_the_shader() {
        assert_eq!(std::mem::size_of::<IntervalParams>(), 64);
    }
}
