//! Sorts whose length is read on the GPU ([`RadixSorter::record_indirect`]): a one-invocation
//! kernel (`shaders/indirect.wgsl`) turns the length into the sort's parameters and the
//! workgroup counts of its dispatches, which then run indirectly, so a pipeline that culls or
//! compacts on the GPU can sort what it kept without reading the count back.

use super::job::{SortError, SortJob, SortScratch};
use super::sorter::RadixSorter;
use super::{HISTOGRAM_GROUPS, PASSES};
use wgpu::util::DeviceExt;

/// Words of the indirect buffer (`indirect` in the shader): the length and tile count, then
/// four (x, y, z) workgroup counts.
pub(super) const INDIRECT_WORDS: u64 = 14;
/// Byte offsets of the workgroup counts: the histogram, its scan, each pass's tile kernels,
/// reduce-then-scan's scan of the tiles.
pub(super) const ARGS_HISTOGRAM: u64 = 2 * 4;
pub(super) const ARGS_SCAN_HISTOGRAMS: u64 = 5 * 4;
pub(super) const ARGS_TILES: u64 = 8 * 4;
pub(super) const ARGS_SCAN_TILES: u64 = 11 * 4;

/// Mirrors `SetupParams` in `shaders/indirect.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
struct SetupParams {
    capacity: u32,
    len_word: u32,
    tile: u32,
    histogram_block: u32,
    max_groups: u32,
    histogram_min: u32,
    histogram_max: u32,
    pad: u32,
}

/// Where a sort's length is: the u32 at byte `offset` of `buffer`.
#[derive(Clone, Copy, Debug)]
pub(super) struct LengthAt<'a> {
    pub(super) buffer: &'a wgpu::Buffer,
    pub(super) offset: u64,
}

impl RadixSorter {
    /// Records sorting `job` with its length read on the GPU when the sort runs: the u32 at
    /// byte `len_offset` (a multiple of 4) of `len_buffer`, a `STORAGE` buffer, of which at
    /// most `job.len` keys are sorted (a larger count sorts `job.len`). `job.len` is the
    /// capacity: the buffers, the scratch and the choice of kernels are for that many keys.
    /// Keys past the length stay as they are. Besides the sort's compute pass it records one
    /// more (a single invocation) and four 8-byte copies before it.
    pub fn record_indirect(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        job: &SortJob<'_>,
        len_buffer: &wgpu::Buffer,
        len_offset: u64,
        scratch: &SortScratch,
    ) -> Result<(), SortError> {
        let needed = len_offset + 4;
        if !len_offset.is_multiple_of(4)
            || len_buffer.size() < needed
            || !len_buffer.usage().contains(wgpu::BufferUsages::STORAGE)
        {
            return Err(SortError::BadBuffer {
                what: "length",
                needed,
                size: len_buffer.size(),
                usage: len_buffer.usage(),
            });
        }
        let at = LengthAt { buffer: len_buffer, offset: len_offset };
        self.record_dispatches(device, encoder, job, scratch, None, Some(at)).map(|_| ())
    }

    /// Records the setup kernel for a sort of up to `capacity` keys in tiles of `tile`, and the
    /// copies of its length and tile count into each pass's slot of `params`.
    pub(super) fn record_setup(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        (at, capacity, tile): (LengthAt<'_>, u32, u32),
        params: &wgpu::Buffer,
        scratch: &SortScratch,
    ) {
        let setup = SetupParams {
            capacity,
            len_word: (at.offset / 4) as u32,
            tile,
            histogram_block: self.histogram_block,
            max_groups: self.max_groups,
            histogram_min: *HISTOGRAM_GROUPS.start(),
            histogram_max: *HISTOGRAM_GROUPS.end(),
            pad: 0,
        };
        let setup = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("sort::setup_params"),
            contents: bytemuck::bytes_of(&setup),
            usage: wgpu::BufferUsages::UNIFORM,
        });
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("sort::indirect_bind_group"),
            layout: &self.indirect.layout,
            entries: &[
                wgpu::BindGroupEntry { binding: 0, resource: setup.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 1, resource: at.buffer.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 2, resource: scratch.indirect.as_entire_binding() },
            ],
        });
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("sort::indirect_setup"),
                timestamp_writes: None,
            });
            pass.set_pipeline(&self.indirect.pipeline);
            pass.set_bind_group(0, &bind_group, &[]);
            pass.dispatch_workgroups(1, 1, 1);
        }
        // The length and tile count are the first two words of every pass's parameters.
        for pass in 0..u64::from(PASSES) {
            encoder.copy_buffer_to_buffer(&scratch.indirect, 0, params, pass * scratch.params_stride, 8);
        }
    }
}
