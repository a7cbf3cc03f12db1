//! Compute kernels built alike: their bind group and pipeline layouts, and their compute pipelines.

use super::Gpu;

/// The layout of a kernel's one bind group, of `entries`, labelled `{label}::layout`, and the
/// pipeline layout of that group alone, labelled `{label}::pipeline_layout`.
pub fn kernel_layouts(
    device: &wgpu::Device,
    label: &str,
    entries: &[wgpu::BindGroupLayoutEntry],
) -> (wgpu::BindGroupLayout, wgpu::PipelineLayout) {
    let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some(&format!("{label}::layout")),
        entries,
    });
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some(&format!("{label}::pipeline_layout")),
        bind_group_layouts: &[Some(&layout)],
        immediate_size: 0,
    });
    (layout, pipeline_layout)
}

/// The compute pipeline that runs `entry_point` of `module` on `layout`, compiled with
/// `options` through `gpu`'s pipeline cache.
pub fn compute_pipeline(
    gpu: &Gpu,
    label: &str,
    layout: &wgpu::PipelineLayout,
    module: &wgpu::ShaderModule,
    entry_point: &str,
    options: wgpu::PipelineCompilationOptions<'_>,
) -> wgpu::ComputePipeline {
    compute_pipeline_on(&gpu.device, gpu.pipeline_cache(), label, Some(layout), module, entry_point, options)
}

/// [`compute_pipeline`] where there is no [`Gpu`] at hand, only its `device` and `cache`; a
/// `layout` of `None` has wgpu derive the layout from the shader.
pub fn compute_pipeline_on(
    device: &wgpu::Device,
    cache: Option<&wgpu::PipelineCache>,
    label: &str,
    layout: Option<&wgpu::PipelineLayout>,
    module: &wgpu::ShaderModule,
    entry_point: &str,
    options: wgpu::PipelineCompilationOptions<'_>,
) -> wgpu::ComputePipeline {
    device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some(label),
        layout,
        module,
        entry_point: Some(entry_point),
        compilation_options: options,
        cache,
    })
}
