//! The pipelines a sorter runs for each digit pass: reduce-then-scan's three kernels and the
//! tile kernels of OneSweep (narrow, keeping short sorts' keys in workgroup memory, or wide for
//! long sorts), and which of them a sort of a given length takes.

use super::TILE;

/// The pipelines of a digit pass for each strategy the sorter runs, and which runs when.
pub(super) struct PassPipelines {
    pub(super) reduce_then_scan: Option<ReduceThenScan>,
    pub(super) onesweep: Option<TileKernel>,
    /// The first length sorted with OneSweep (none: never).
    pub(super) onesweep_from: Option<u32>,
    /// The longest OneSweep sort that keeps its tiles' keys in workgroup memory (0:
    /// none).
    pub(super) keys_in_order_up_to: u32,
}

/// Reduce-then-scan's three kernels.
pub(super) struct ReduceThenScan {
    pub(super) count_tiles: wgpu::ComputePipeline,
    pub(super) scan_tiles: wgpu::ComputePipeline,
    pub(super) scatter: TileKernel,
}

/// A kernel that sorts tiles, built for keys-only sorts and for pairs, and (OneSweep's, on the
/// subgroup path) for short sorts of each kind that keep the tile's keys in workgroup memory
/// and for long sorts of each kind in wider workgroups.
pub(super) struct TileKernel {
    pub(super) keys: wgpu::ComputePipeline,
    pub(super) pairs: wgpu::ComputePipeline,
    /// For keys only and for pairs.
    pub(super) in_order: Option<[wgpu::ComputePipeline; 2]>,
    /// For keys only and for pairs.
    pub(super) wide: [Option<WideKernel>; 2],
}

/// A tile kernel of more than 256 invocations, for sorts of at least `from` keys.
pub(super) struct WideKernel {
    pub(super) pipeline: wgpu::ComputePipeline,
    /// Keys per tile.
    pub(super) tile: u32,
    pub(super) from: u32,
}

impl TileKernel {
    /// The pipeline for a sort of `len` keys with values or without, and the keys per tile it
    /// takes; `short`: a sort short enough to keep its keys in workgroup memory, where the
    /// kernel was built (for keys and pairs alike).
    pub(super) fn for_sort(&self, has_values: bool, len: u32, short: bool) -> (&wgpu::ComputePipeline, u32) {
        let kind = usize::from(has_values);
        match (&self.in_order, &self.wide[kind]) {
            (Some(in_order), _) if short => (&in_order[kind], TILE),
            (_, Some(wide)) if len >= wide.from => (&wide.pipeline, wide.tile),
            _ => (if has_values { &self.pairs } else { &self.keys }, TILE),
        }
    }
}
