//! The pipelines a sorter runs for each digit pass: reduce-then-scan's three kernels and the
//! tile kernels of OneSweep (narrow, keeping short sorts' keys in workgroup memory, or wide for
//! long sorts), and which of them a sort of a given length takes; and the kernel that sets up
//! a sort whose length is read on the GPU.

use super::TILE;
use crate::shaders::compute_buffer;

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

/// The kernel that sets up a sort whose length is read on the GPU (`indirect.rs`), and its
/// layout.
pub(super) struct IndirectSetup {
    pub(super) layout: wgpu::BindGroupLayout,
    pub(super) pipeline: wgpu::ComputePipeline,
}

impl IndirectSetup {
    pub(super) fn new(device: &wgpu::Device) -> Self {
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("sort::indirect_layout"),
            entries: &[
                compute_buffer(0, wgpu::BufferBindingType::Uniform, false),
                compute_buffer(1, wgpu::BufferBindingType::Storage { read_only: true }, false),
                compute_buffer(2, wgpu::BufferBindingType::Storage { read_only: false }, false),
            ],
        });
        // A checked module: one invocation, no loop, nothing to gain without the checks.
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("sort::indirect"),
            source: wgpu::ShaderSource::Wgsl(crate::shaders::INDIRECT.into()),
        });
        let pipeline_layout =
            crate::shaders::pipeline_layout(device, "sort::indirect_pipeline_layout", &layout);
        let pipeline = crate::shaders::compute_pipeline(
            device,
            ("sort", &pipeline_layout, &module),
            "indirect_setup",
            &[],
        );
        IndirectSetup { layout, pipeline }
    }
}
