//! What the bitonic network's `sort_blocks` works on within intervals, and the intervals
//! `global_stage` reads: the plan, made on the CPU from an interval map ([`Plan::new`]) or on the
//! GPU from an interval-id texture the GPU wrote itself ([`PlanKernel`],
//! `shaders/bitonic_plan.wgsl`), so that a clip's threshold intervals need nothing from the CPU.

use super::lengths::IntervalLengths;
use crate::gpu::Gpu;
use crate::gpu::bindings::{compute_buffer, uint_texture};
use crate::gpu::kernel::{bind_group, encode_dispatch, one_kernel, uniform};
use crate::gpu::shaders::BITONIC_PLAN_PROGRAM;
use crate::intervals::IntervalMap;
use crate::keys::options::Axis;

/// Units (line, first position, length, 0) and, within intervals, each position's interval.
#[doc(hidden)]
pub struct Plan {
    /// Line, first position, length, 0.
    pub units: Vec<[u32; 4]>,
    /// Per position (line-major), start << 16 | (length - 1) of its interval; empty without
    /// intervals.
    pub bounds: Vec<u32>,
    /// How many intervals have each length (every line one without intervals).
    pub lengths: IntervalLengths,
}

impl Plan {
    /// Lines of `line_len` cut into aligned blocks, or, within intervals, chunks of whole intervals
    /// of at most `block` positions and intervals longer than that cut into blocks from their
    /// start. Lines are planned on every core (natively), a share of consecutive lines each.
    pub fn new(line_len: u32, line_count: u32, intervals: Option<&IntervalMap>, block: u32) -> Self {
        let Some(map) = intervals else {
            let mut units = Vec::new();
            for line in 0..line_count {
                blocks_of(&mut units, block, line, 0, line_len);
            }
            let lengths = IntervalLengths::whole_lines(line_len, line_count);
            return Plan { units, bounds: Vec::new(), lengths };
        };
        let len = line_len as usize;
        let mut bounds = vec![0; len * line_count as usize];
        #[cfg(not(target_arch = "wasm32"))]
        let (units, lengths) = {
            // Shares of at least 64 lines: fewer are not worth a thread.
            let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
            let share = (line_count as usize).div_ceil(threads).max(64);
            std::thread::scope(|scope| {
                let planners: Vec<_> = bounds
                    .chunks_mut(share * len)
                    .enumerate()
                    .map(|(i, bounds)| scope.spawn(move || plan_lines(map, i * share, bounds, len, block)))
                    .collect();
                let (mut units, mut lengths) = (Vec::new(), Vec::new());
                for planner in planners {
                    let (share_units, share_lengths) = planner.join().expect("a planner thread panicked");
                    units.extend(share_units);
                    lengths.extend(share_lengths);
                }
                (units, lengths)
            })
        };
        #[cfg(target_arch = "wasm32")]
        let (units, lengths) = plan_lines(map, 0, &mut bounds, len, block);
        Plan { units, bounds, lengths: IntervalLengths::from_counts(lengths) }
    }
}

/// Appends the units of `len` positions of `line` from `start`, cut into blocks.
fn blocks_of(units: &mut Vec<[u32; 4]>, block: u32, line: u32, start: u32, len: u32) {
    for first in (0..len).step_by(block as usize) {
        units.push([line, start + first, block.min(len - first), 0]);
    }
}

/// Plans the lines from `first_line` whose bounds `bounds` holds (`len` a line), as
/// [`Plan::new`] describes: fills the bounds and returns the lines' units, in order, and how
/// many of their intervals have each length (a length perhaps more than once).
fn plan_lines(
    map: &IntervalMap,
    first_line: usize,
    bounds: &mut [u32],
    len: usize,
    block: u32,
) -> (Vec<[u32; 4]>, Vec<(u32, u64)>) {
    let mut units = Vec::new();
    let mut lengths = vec![0u64; len + 1];
    let mut starts = vec![0u32; len];
    let layout = map.layout();
    for (offset, bounds) in bounds.chunks_exact_mut(len).enumerate() {
        let line = first_line + offset;
        // Each position's interval, without a branch on the ids: where it starts (forwards), then
        // where it ends (backwards).
        let ids = &map.ids()[layout.index(line, 0)..];
        let id = |pos: usize| ids[pos * layout.stride];
        let mut start = 0;
        for (pos, starts) in starts.iter_mut().enumerate().skip(1) {
            start = if id(pos) == id(pos - 1) { start } else { pos as u32 };
            *starts = start;
        }
        let mut end = len as u32 - 1;
        for pos in (0..len).rev() {
            end = if pos + 1 < len && id(pos + 1) != id(pos) { pos as u32 } else { end };
            bounds[pos] = starts[pos] << 16 | (end - starts[pos]);
        }
        // The intervals in order, one step each, packed into chunks.
        let line = line as u32;
        let mut chunk: Option<(u32, u32)> = None;
        let mut pos = 0;
        while pos < len {
            let (start, len) = (pos as u32, (bounds[pos] & 0xffff) + 1);
            pos += len as usize;
            lengths[len as usize] += 1;
            match chunk {
                _ if len > block => {
                    if let Some((s, l)) = chunk.take() {
                        blocks_of(&mut units, block, line, s, l);
                    }
                    blocks_of(&mut units, block, line, start, len);
                }
                Some((s, l)) if l + len <= block => chunk = Some((s, l + len)),
                _ => {
                    if let Some((s, l)) = chunk.replace((start, len)) {
                        blocks_of(&mut units, block, line, s, l);
                    }
                }
            }
        }
        if let Some((s, l)) = chunk {
            blocks_of(&mut units, block, line, s, l);
        }
    }
    let lengths = lengths.into_iter().enumerate().filter(|&(_, n)| n > 0);
    (units, lengths.map(|(len, n)| (len as u32, n)).collect())
}

/// Unit slots a line needs at most in [`Plan::new`] within any intervals: of three consecutive
/// units of a line, the first is a chunk closed because the next interval did not fit, or a full
/// block of a long interval, or its last piece (then the next begins another item): in each case
/// the three hold more than a block, so a line has fewer than `3 * ceil(line_len / block)` units.
pub fn slots_per_line(line_len: u32, block: u32) -> u32 {
    3 * line_len.div_ceil(block)
}

/// Mirrors `PlanParams` in `shaders/bitonic_plan.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct PlanParams {
    axis: u32,
    line_len: u32,
    line_count: u32,
    block: u32,
    slots: u32,
    pad: [u32; 3],
}

/// The plan of one picture made on the GPU: its buffers, bound by the steps, and the unit
/// count (every line's slots, unused ones empty).
pub struct GpuPlan {
    /// Per position, its interval (as [`Plan::bounds`]).
    pub bounds: wgpu::Buffer,
    /// Per line, [`slots_per_line`] units; an unused slot has length 0.
    pub units: wgpu::Buffer,
    /// Units in all, the empty ones counted.
    pub unit_count: u32,
    /// Per length from 0 to the line's, how many intervals have it (u32 each).
    pub lengths: wgpu::Buffer,
    params: PlanParams,
}

impl GpuPlan {
    /// Buffers for the plan of `line_count` lines of `line_len` along `axis`, in units of at
    /// most `block` positions.
    pub fn new(gpu: &Gpu, axis: Axis, (line_len, line_count): (u32, u32), block: u32) -> Self {
        let slots = slots_per_line(line_len, block);
        let usage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC;
        let buffer = |label, size: u64| {
            gpu.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size,
                usage,
                mapped_at_creation: false,
            })
        };
        let positions = u64::from(line_len) * u64::from(line_count);
        let unit_count = slots * line_count;
        GpuPlan {
            bounds: buffer("bitonic_plan::bounds", positions * 4),
            units: buffer("bitonic_plan::units", u64::from(unit_count) * 16),
            unit_count,
            lengths: buffer("bitonic_plan::lengths", (u64::from(line_len) + 1) * 4),
            params: PlanParams { axis: axis as u32, line_len, line_count, block, slots, pad: [0; 3] },
        }
    }
}

/// The kernel that makes a [`GpuPlan`] from interval ids.
pub struct PlanKernel {
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::ComputePipeline,
}

impl PlanKernel {
    /// Builds the kernel on `gpu`.
    pub fn new(gpu: &Gpu) -> Self {
        let storage = wgpu::BufferBindingType::Storage { read_only: false };
        let (layout, pipeline) = one_kernel(
            gpu,
            &BITONIC_PLAN_PROGRAM,
            "bitonic_plan",
            &[
                uint_texture(0, wgpu::ShaderStages::COMPUTE),
                compute_buffer(1, wgpu::BufferBindingType::Uniform, false),
                compute_buffer(2, storage, false),
                compute_buffer(3, storage, false),
                compute_buffer(4, storage, false),
            ],
            "bitonic_plan",
            // Every workgroup word is written before it is read, and zeroing the round's starts
            // in each workgroup slows the software GPUs.
            wgpu::PipelineCompilationOptions {
                zero_initialize_workgroup_memory: false,
                ..Default::default()
            },
        );
        PlanKernel { layout, pipeline }
    }

    /// Encodes filling `plan` from `ids` (an interval-id texture of the picture, written before
    /// this runs in `encoder`).
    pub fn encode(&self, gpu: &Gpu, encoder: &mut wgpu::CommandEncoder, ids: &wgpu::Texture, plan: &GpuPlan) {
        let p = plan.params;
        let lines = if p.axis == Axis::Rows as u32 { ids.height() } else { ids.width() };
        assert_eq!(lines, p.line_count, "interval ids for the plan's picture");
        let params = uniform(gpu, "bitonic_plan::params", &p);
        let ids_view = ids.create_view(&Default::default());
        let bind_group = bind_group(
            &gpu.device,
            "bitonic_plan::bind_group",
            &self.layout,
            [
                wgpu::BindingResource::TextureView(&ids_view),
                params.as_entire_binding(),
                plan.bounds.as_entire_binding(),
                plan.units.as_entire_binding(),
                plan.lengths.as_entire_binding(),
            ],
        );
        encode_dispatch(
            encoder,
            "bitonic_plan",
            &self.pipeline,
            &bind_group,
            // One workgroup a line.
            [p.line_count, 1, 1],
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::intervals::Cell;
    use crate::picture::patterns::SplitMix64;

    #[test]
    fn whole_lines_are_cut_into_aligned_blocks() {
        let plan = Plan::new(10, 2, None, 4);
        assert_eq!(
            plan.units,
            [[0, 0, 4, 0], [0, 4, 4, 0], [0, 8, 2, 0], [1, 0, 4, 0], [1, 4, 4, 0], [1, 8, 2, 0]]
        );
        assert!(plan.bounds.is_empty());
    }

    #[test]
    fn intervals_are_packed_whole_into_chunks_and_long_intervals_cut_from_their_start() {
        // Intervals [0, 2), [2] fixed, [3, 9) longer than a block, [9, 10).
        let cells = "JJFSJJJJJS";
        let map = IntervalMap::build(10, 1, Axis::Rows, |_, pos, _| match &cells[pos..=pos] {
            "F" => Cell::Fixed,
            "S" => Cell::Start,
            _ => Cell::Join,
        });
        let plan = Plan::new(10, 1, Some(&map), 4);
        assert_eq!(plan.units, [[0, 0, 3, 0], [0, 3, 4, 0], [0, 7, 2, 0], [0, 9, 1, 0]]);
        assert_eq!(plan.lengths, IntervalLengths::from_counts([(1, 2), (2, 1), (6, 1)]));
        assert_eq!(plan.bounds[4], 3 << 16 | 5);
        assert_eq!(plan.bounds[2], 2 << 16);
    }

    /// Units per line stay within the slots the GPU plan gives a line, for intervals of random
    /// lengths around the block's and for the worst pattern: an interval one longer than a block,
    /// then an interval of one, over and over.
    #[test]
    fn no_line_needs_more_units_than_its_slots() {
        let mut rng = SplitMix64::new(7);
        for block in [2, 3, 4, 16] {
            for len in [1, 2, 5, 17, 64, 100] {
                let worst = |pos: usize| {
                    if pos.is_multiple_of(block as usize + 2) { Cell::Start } else { Cell::Join }
                };
                let maps = (0..20)
                    .map(|k| {
                        let reach = 2 * block as u64 + 2;
                        let mut cells: Vec<Cell> = Vec::new();
                        while cells.len() < len as usize {
                            let len = 1 + rng.next_u64() % reach;
                            cells.push(if len == 1 && k % 2 == 0 { Cell::Fixed } else { Cell::Start });
                            cells.extend((1..len).map(|_| Cell::Join));
                        }
                        IntervalMap::build(len, 1, Axis::Rows, |_, pos, _| cells[pos])
                    })
                    .chain([IntervalMap::build(len, 1, Axis::Rows, |_, pos, _| worst(pos))]);
                for map in maps {
                    let units = Plan::new(len, 1, Some(&map), block).units.len() as u32;
                    assert!(
                        units <= slots_per_line(len, block),
                        "{len} positions in blocks of {block}: {units}"
                    );
                }
            }
        }
    }

    /// A plan of many lines, made in shares on several threads, is each line's own plan in
    /// line order, along rows and along columns.
    #[test]
    fn lines_planned_in_shares_are_each_lines_own_plan_in_order() {
        let mut rng = SplitMix64::new(11);
        let (len, lines) = (37u32, 1000u32);
        let cells: Vec<Cell> = (0..len * lines)
            .map(|_| match rng.next_u32() % 5 {
                0 => Cell::Fixed,
                1 => Cell::Start,
                _ => Cell::Join,
            })
            .collect();
        for axis in [Axis::Rows, Axis::Columns] {
            let (w, h) = if axis == Axis::Rows { (len, lines) } else { (lines, len) };
            let map = IntervalMap::build(w, h, axis, |line, pos, _| cells[line * len as usize + pos]);
            let plan = Plan::new(len, lines, Some(&map), 8);
            let (mut units, mut bounds, mut lengths) = (Vec::new(), Vec::new(), Vec::new());
            for line in 0..lines {
                let one =
                    IntervalMap::build(len, 1, Axis::Rows, |_, pos, _| cells[(line * len) as usize + pos]);
                let own = Plan::new(len, 1, Some(&one), 8);
                units.extend(own.units.iter().map(|u| [line, u[1], u[2], u[3]]));
                bounds.extend(own.bounds);
                lengths.extend(map.line_intervals(line as usize).map(|r| (r.len() as u32, 1)));
            }
            assert_eq!(plan.lengths, IntervalLengths::from_counts(lengths), "{axis:?}: lengths");
            assert!(plan.units == units, "{axis:?}: units");
            assert!(plan.bounds == bounds, "{axis:?}: bounds");
        }
    }
}
