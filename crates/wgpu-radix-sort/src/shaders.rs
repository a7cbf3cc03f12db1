//! The sort's WGSL (`shaders/` of this crate): the kernels and one of two rankings, joined
//! into one program, and compiled without wgpu's loop counters.

/// `shaders/radix_sort.wgsl`: histograms, scans and the digit passes.
pub const RADIX_SORT: &str = include_str!("../shaders/radix_sort.wgsl");
/// `shaders/radix_sort_portable.wgsl`: ranking a tile by comparing digits in workgroup memory.
pub const RADIX_SORT_PORTABLE: &str = include_str!("../shaders/radix_sort_portable.wgsl");
/// `shaders/radix_sort_subgroups.wgsl`: ranking a tile with subgroup ballots (the fast path).
pub const RADIX_SORT_SUBGROUPS: &str = include_str!("../shaders/radix_sort_subgroups.wgsl");

/// The whole program: the kernels and the subgroup ranking, or the portable one.
pub fn program(subgroups: bool) -> String {
    let ranking = if subgroups { RADIX_SORT_SUBGROUPS } else { RADIX_SORT_PORTABLE };
    [RADIX_SORT, ranking].join("\n")
}

/// Compiles [`program`] without the counter wgpu adds to every loop so that a loop that never
/// ends cannot hang the GPU. The counter keeps drivers from unrolling loops, so arrays indexed
/// by the loop leave registers: measured on an H100, the sort ran 1.8x slower with it. Bounds
/// checks stay.
///
/// Every loop of the sort provably ends: each counts up to a bound fixed before it starts,
/// except the look-back's, where each round either reads a status word that moves some
/// invocation's tile index down towards tile 0 (whose word ends the walk), or counts a
/// waited-on tile's keys itself, which does the same; waits are bounded by `SPINS` reads.
pub(crate) fn module(device: &wgpu::Device, subgroups: bool) -> wgpu::ShaderModule {
    let mut checks = wgpu::ShaderRuntimeChecks::checked();
    checks.force_loop_bounding = false;
    let name = if subgroups { "radix_sort_subgroups" } else { "radix_sort" };
    let descriptor = wgpu::ShaderModuleDescriptor {
        label: Some(name),
        source: wgpu::ShaderSource::Wgsl(program(subgroups).into()),
    };
    // SAFETY: wgpu requires that the shader contains no infinite loop, which holds (see above);
    // every other runtime check is kept.
    #[allow(unsafe_code)]
    unsafe {
        device.create_shader_module_trusted(descriptor, checks)
    }
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
