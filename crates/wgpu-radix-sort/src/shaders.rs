//! The sort's WGSL (`shaders/` of this crate): the key transforms, the kernels and one of two
//! rankings joined into one program, the segmented sort's kernels into another, both compiled
//! without wgpu's loop counters and bounds checks.

/// `shaders/keys.wgsl`: keys to sorting order and back, shared by both programs.
pub const KEYS: &str = include_str!("../shaders/keys.wgsl");
/// `shaders/radix_sort.wgsl`: histograms, scans and the digit passes.
pub const RADIX_SORT: &str = include_str!("../shaders/radix_sort.wgsl");
/// `shaders/radix_sort_portable.wgsl`: ranking a tile by comparing digits in workgroup memory.
pub const RADIX_SORT_PORTABLE: &str = include_str!("../shaders/radix_sort_portable.wgsl");
/// `shaders/radix_sort_subgroups.wgsl`: ranking a tile with subgroup ballots (the fast path).
pub const RADIX_SORT_SUBGROUPS: &str = include_str!("../shaders/radix_sort_subgroups.wgsl");

/// `shaders/indirect.wgsl`: a sort's length read on the GPU, turned into its workgroup counts.
pub const INDIRECT: &str = include_str!("../shaders/indirect.wgsl");
/// `shaders/segments.wgsl`: the segmented sort's workgroup merge sort and the long path's kernels.
pub const SEGMENTS: &str = include_str!("../shaders/segments.wgsl");

/// The whole program: the kernels and the subgroup ranking, or the portable one.
pub fn program(subgroups: bool) -> String {
    let ranking = if subgroups { RADIX_SORT_SUBGROUPS } else { RADIX_SORT_PORTABLE };
    [KEYS, RADIX_SORT, ranking].join("\n")
}

/// The segmented sort's program.
pub fn segments_program() -> String {
    [KEYS, SEGMENTS].join("\n")
}

/// Compiles [`program`] without the runtime checks wgpu adds to shaders: the counter on every
/// loop that keeps a loop that never ends from hanging the GPU, and the bounds checks on array
/// indices. The counter keeps drivers from unrolling loops, so arrays indexed by the loop leave
/// registers, and the sort ran far slower with it on an H100. The bounds checks (a clamp on
/// every index of workgroup memory, and on buffers where the driver does not check them) cost a
/// few percent there too (numbers: docs/benchmarks/radix-history.md in the repository).
///
/// Every loop of the sort provably ends: each counts up to a bound fixed before it starts,
/// except the look-back's, where each round either reads a status word that moves some
/// invocation's tile index down towards tile 0 (whose word ends the walk), or counts a
/// waited-on tile's keys itself, which does the same; waits are bounded by `SPINS` steps.
///
/// Every index is in bounds:
/// - Keys and values are read at positions below the length, which the buffers hold
///   (`record_dispatches` checks their sizes; a length read on the GPU is clamped to the
///   capacity they were checked for, and one below 2 runs no kernel): each read is clamped to
///   `len - 1`, tested against `len`, or (the reorder's) the index of one of the tile's own
///   keys.
/// - Keys and values are written to their slots in the sorted order, which are below the length
///   for any keys: a slot is the count of the keys before it.
/// - Histogram words are below `HISTOGRAM_WORDS`, the buffer's size (two sets of four
///   histograms, a pass below 4 and a digit below 256, then nine words). Tile counts are below
///   256 * tiles, and status words below 2 * `status_half`, where `status_half` is 256 words for
///   each tile of 4096 keys the scratch holds: the scratch was checked to hold this length's
///   tiles of 4096, and a wide kernel's tiles are fewer.
/// - Workgroup arrays are indexed by a digit (below 256: an invocation of a wide workgroup
///   indexes them with `min(lid, 255)` or only below 256), an invocation (below `WORKGROUP`,
///   which sizes the arrays so indexed), a subgroup (below `WARPS`, set from the adapter's one
///   subgroup size and the width; `warp_totals` holds `WORKGROUP / 8`) and its lanes, or a
///   position in the tile (below TILE); private arrays by a key of the invocation (below ITEMS). The
///   subgroup ranking keeps its counts and ballots in `tile_memory` at their offsets, within
///   `TILE_MEMORY_WORDS` (`tests/shaders.rs` checks that size against `TileMemory`), which is at
///   least TILE words where the tile order holds keys (`KEYS_IN_ORDER`).
///
/// `tests/gpu_sort.rs` checks the sort against the CPU's on every key distribution and on
/// lengths around every tile boundary, on software GPUs of both kinds.
///
/// The segmented sort's program (`segments_program`) holds the same: its loops count up to
/// bounds fixed before they start (run widths double up to the segment's span, a merge path's
/// search halves its range until it is empty); it reads and writes keys and values only at
/// places below the length (tested against it); its workgroup array is indexed by slots below
/// `BLOCK` (keys: a merge reads each run at most at its last slot) and, only where
/// `WITH_VALUES` sizes it `2 * BLOCK`, `BLOCK` above them (values); its private arrays by a key of
/// the invocation's run (below `RUN`, at most `MOST_BLOCK / GROUP`: the Rust side builds `BLOCK`
/// up to `MOST_BLOCK`).
pub(crate) fn module(device: &wgpu::Device, subgroups: bool) -> wgpu::ShaderModule {
    let name = if subgroups { "radix_sort_subgroups" } else { "radix_sort" };
    trusted_module(device, name, program(subgroups))
}

/// The segmented sort's module (see [`module`] for why it runs unchecked).
pub(crate) fn segments_module(device: &wgpu::Device) -> wgpu::ShaderModule {
    trusted_module(device, "segments", segments_program())
}

/// `source` compiled without loop counters and bounds checks.
fn trusted_module(device: &wgpu::Device, name: &str, source: String) -> wgpu::ShaderModule {
    let mut checks = wgpu::ShaderRuntimeChecks::checked();
    checks.force_loop_bounding = false;
    checks.bounds_checks = false;
    let descriptor =
        wgpu::ShaderModuleDescriptor { label: Some(name), source: wgpu::ShaderSource::Wgsl(source.into()) };
    // SAFETY: wgpu requires that the shader contains no infinite loop and indexes no array or
    // buffer out of bounds; both hold (see above).
    #[allow(unsafe_code, reason = "wgpu trusts the shader to end and to index in bounds; see SAFETY")]
    unsafe {
        device.create_shader_module_trusted(descriptor, checks)
    }
}

/// The layout of pipelines that bind one group, `layout`.
pub(crate) fn pipeline_layout(
    device: &wgpu::Device,
    label: &str,
    layout: &wgpu::BindGroupLayout,
) -> wgpu::PipelineLayout {
    device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some(label),
        bind_group_layouts: &[Some(layout)],
        immediate_size: 0,
    })
}

/// The compute pipeline of `entry_point` in `module` with overrides `constants`, labelled
/// `prefix::entry_point`. Workgroup memory is not zeroed: every kernel of the crate writes its
/// workgroup memory before reading it.
pub(crate) fn compute_pipeline(
    device: &wgpu::Device,
    (prefix, layout, module): (&str, &wgpu::PipelineLayout, &wgpu::ShaderModule),
    entry_point: &str,
    constants: &[(&str, f64)],
) -> wgpu::ComputePipeline {
    device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some(&format!("{prefix}::{entry_point}")),
        layout: Some(layout),
        module,
        entry_point: Some(entry_point),
        compilation_options: wgpu::PipelineCompilationOptions {
            constants,
            zero_initialize_workgroup_memory: false,
        },
        cache: None,
    })
}

/// A compute-stage buffer binding of type `ty`.
pub(crate) fn compute_buffer(
    binding: u32,
    ty: wgpu::BufferBindingType,
    has_dynamic_offset: bool,
) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer { ty, has_dynamic_offset, min_binding_size: None },
        count: None,
    }
}
