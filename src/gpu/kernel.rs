//! Compute kernels built alike: their bind group and pipeline layouts, and their compute pipelines.

use super::Gpu;
use super::shaders::Program;
use wgpu::util::DeviceExt;

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

/// A kernel family of one bind group of `entries` and one entry point of `program`: the group's
/// layout and the pipeline, labelled `{label}::layout` and `{label}::{entry_point}`.
pub fn one_kernel(
    gpu: &Gpu,
    program: &Program,
    label: &str,
    entries: &[wgpu::BindGroupLayoutEntry],
    entry_point: &str,
    options: wgpu::PipelineCompilationOptions<'_>,
) -> (wgpu::BindGroupLayout, wgpu::ComputePipeline) {
    let (layout, pipeline_layout) = kernel_layouts(&gpu.device, label, entries);
    let module = program.module(&gpu.device);
    let pipeline = compute_pipeline(
        gpu,
        &format!("{label}::{entry_point}"),
        &pipeline_layout,
        &module,
        entry_point,
        options,
    );
    (layout, pipeline)
}

/// A uniform buffer holding `params`.
pub fn uniform<T: bytemuck::Pod>(gpu: &Gpu, label: &str, params: &T) -> wgpu::Buffer {
    gpu.device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some(label),
        contents: bytemuck::bytes_of(params),
        usage: wgpu::BufferUsages::UNIFORM,
    })
}

/// A bind group of `layout` binding `resources` at 0, 1, 2, ... in order.
pub fn bind_group<'a>(
    device: &wgpu::Device,
    label: &str,
    layout: &wgpu::BindGroupLayout,
    resources: impl IntoIterator<Item = wgpu::BindingResource<'a>>,
) -> wgpu::BindGroup {
    let entries: Vec<wgpu::BindGroupEntry<'a>> =
        (0..).zip(resources).map(|(binding, resource)| wgpu::BindGroupEntry { binding, resource }).collect();
    device.create_bind_group(&wgpu::BindGroupDescriptor { label: Some(label), layout, entries: &entries })
}

/// Begins a compute pass labelled `label`, timed while the [`pass_clock`](super::pass_clock) runs.
pub fn compute_pass<'e>(encoder: &'e mut wgpu::CommandEncoder, label: &str) -> wgpu::ComputePass<'e> {
    let timed = super::pass_clock::timestamp_writes(label);
    let timestamp_writes = timed.as_ref().map(|(query_set, at)| wgpu::ComputePassTimestampWrites {
        query_set,
        beginning_of_pass_write_index: Some(*at),
        end_of_pass_write_index: Some(at + 1),
    });
    encoder.begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some(label), timestamp_writes })
}

/// Encodes one compute pass that dispatches `pipeline` over `groups` workgroups with `bind_group`.
pub fn encode_dispatch(
    encoder: &mut wgpu::CommandEncoder,
    label: &str,
    pipeline: &wgpu::ComputePipeline,
    bind_group: &wgpu::BindGroup,
    groups: [u32; 3],
) {
    encode_dispatch_at(encoder, label, pipeline, bind_group, &[], groups);
}

/// [`encode_dispatch`] with the bind group's dynamic `offsets`.
pub fn encode_dispatch_at(
    encoder: &mut wgpu::CommandEncoder,
    label: &str,
    pipeline: &wgpu::ComputePipeline,
    bind_group: &wgpu::BindGroup,
    offsets: &[u32],
    [x, y, z]: [u32; 3],
) {
    let mut pass = compute_pass(encoder, label);
    pass.set_pipeline(pipeline);
    pass.set_bind_group(0, bind_group, offsets);
    pass.dispatch_workgroups(x, y, z);
}
