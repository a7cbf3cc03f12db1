//! Threshold runs found on the GPU (`shaders/threshold_runs.wgsl`): a picture's run ids written
//! into a run texture by a kernel, equal to what [`RunMap::compute`] makes on the CPU for
//! threshold runs without a mask, so a clip's frames need no run map from the CPU and no upload
//! of one.
//!
//! [`RunMap::compute`]: crate::intervals::RunMap::compute

use crate::gpu::Gpu;
use crate::gpu::bindings::{compute_buffer, storage_target, uint_texture};
use crate::gpu::shaders::THRESHOLD_RUNS_PROGRAM;
use crate::intervals::Threshold;
use crate::keys::SortKey;
use crate::keys::options::Axis;
use wgpu::util::DeviceExt;

use super::runs::RUN_ID_FORMAT;

/// Mirrors `ThresholdParams` in `shaders/threshold_runs.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct ThresholdParams {
    key: u32,
    lo: u32,
    span: u32,
    axis: u32,
    line_len: u32,
    line_count: u32,
    groups_x: u32,
    pad: u32,
}

/// Which runs to find: those of the pixels whose `key` lies inside `threshold`, along `axis`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ThresholdRuns {
    /// The interval key.
    pub key: SortKey,
    /// The range of it that is sorted.
    pub threshold: Threshold,
    /// The lines the runs lie along.
    pub axis: Axis,
}

impl ThresholdRuns {
    /// The most bits a run id takes in a picture of `width` x `height`: an id grows by at most
    /// one a position, so it is below the line's length.
    pub fn run_bits(&self, width: u32, height: u32) -> u32 {
        let len = if self.axis == Axis::Rows { width } else { height };
        u32::BITS - len.saturating_sub(1).leading_zeros()
    }
}

/// The kernel that finds threshold runs.
pub struct ThresholdRunsKernel {
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::ComputePipeline,
}

impl ThresholdRunsKernel {
    /// Builds the kernel on `gpu`.
    pub fn new(gpu: &Gpu) -> Self {
        let device = &gpu.device;
        let module = THRESHOLD_RUNS_PROGRAM.module(device);
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("threshold_runs::layout"),
            entries: &[
                uint_texture(0, wgpu::ShaderStages::COMPUTE),
                compute_buffer(1, wgpu::BufferBindingType::Uniform, false),
                storage_target(2, RUN_ID_FORMAT),
            ],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("threshold_runs::pipeline_layout"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("threshold_runs::threshold_runs"),
            layout: Some(&pipeline_layout),
            module: &module,
            entry_point: Some("threshold_runs"),
            compilation_options: Default::default(),
            cache: gpu.pipeline_cache(),
        });
        ThresholdRunsKernel { layout, pipeline }
    }

    /// Records writing the run ids of `picture` (an `Rgba8Uint` texture) under `runs` into
    /// `ids` (a run id texture of the same size).
    pub fn record(
        &self,
        gpu: &Gpu,
        encoder: &mut wgpu::CommandEncoder,
        picture: &wgpu::Texture,
        ids: &wgpu::Texture,
        runs: ThresholdRuns,
    ) {
        let (width, height) = (picture.width(), picture.height());
        assert_eq!((ids.width(), ids.height()), (width, height), "run ids for the picture's size");
        let (line_len, line_count) = match runs.axis {
            Axis::Rows => (width, height),
            Axis::Columns => (height, width),
        };
        let inside = runs.threshold.key_values(runs.key);
        // An empty threshold: `lo` past every key, so nothing is inside.
        let (lo, span) =
            if inside.is_empty() { (u32::MAX, 0) } else { (*inside.start(), inside.end() - inside.start()) };
        let groups_x = line_count.min(gpu.device.limits().max_compute_workgroups_per_dimension);
        let params = ThresholdParams {
            key: runs.key.id(),
            lo,
            span,
            axis: runs.axis as u32,
            line_len,
            line_count,
            groups_x,
            pad: 0,
        };
        let params = gpu.device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("threshold_runs::params"),
            contents: bytemuck::bytes_of(&params),
            usage: wgpu::BufferUsages::UNIFORM,
        });
        let picture_view = picture.create_view(&Default::default());
        let ids_view = ids.create_view(&Default::default());
        let bind_group = gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("threshold_runs::bind_group"),
            layout: &self.layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(&picture_view),
                },
                wgpu::BindGroupEntry { binding: 1, resource: params.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 2, resource: wgpu::BindingResource::TextureView(&ids_view) },
            ],
        });
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("threshold_runs"),
            timestamp_writes: None,
        });
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &bind_group, &[]);
        pass.dispatch_workgroups(groups_x, line_count.div_ceil(groups_x), 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_ids_stay_below_the_line_length() {
        let runs = ThresholdRuns { key: SortKey::Luma, threshold: Threshold::DEFAULT, axis: Axis::Rows };
        assert_eq!(runs.run_bits(1920, 1080), 11);
        assert_eq!(runs.run_bits(1, 5), 0);
        assert_eq!(runs.run_bits(2049, 5), 12);
        assert_eq!(ThresholdRuns { axis: Axis::Columns, ..runs }.run_bits(1920, 1080), 11);
        assert_eq!(ThresholdRuns { axis: Axis::Columns, ..runs }.run_bits(7, 2), 1);
    }
}
