//! [`SegmentedSorter`]: many segments of equal length sorted at once, each on its own, stably
//! (every row of a picture, every tile of a renderer), like `torch.sort(x, dim=-1)` or CUB's
//! `DeviceSegmentedSort`. Segments up to a workgroup's keys are sorted by a merge sort in
//! workgroup memory; longer ones through the device-wide sort (`long.rs`).

mod long;

use super::job::{KeyKind, SortError, SortJob};
use super::sorter::RadixSorter;
use crate::shaders::{compute_buffer, compute_pipeline};
use wgpu::util::DeviceExt;

pub use long::SegmentScratch;

/// Invocations per workgroup of the segment kernels (`GROUP` in `shaders/segments.wgsl`).
const GROUP: u32 = 256;
/// The most keys one workgroup's merge sort takes (`MOST_BLOCK` in the shader): 16 an
/// invocation.
pub const WORKGROUP_SORT_MAX: u32 = 4096;
/// The fewest keys a workgroup takes: short segments are sorted several to a workgroup, each
/// invocation sorting a run of 4 keys in registers before the merges.
const WORKGROUP_SORT_MIN: u32 = 4 * GROUP;

/// Mirrors `SegmentParams` in `shaders/segments.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, bytemuck::Pod, bytemuck::Zeroable)]
struct SegmentParams {
    len: u32,
    segment_len: u32,
    span: u32,
    key_kind: u32,
    descending: u32,
    key_mask: u32,
    has_values: u32,
    pad: u32,
}

/// A merge sort pipeline and the keys each of its workgroups holds.
struct BlockSort {
    pipeline: wgpu::ComputePipeline,
    /// Keys per workgroup (`BLOCK`): a power of two.
    keys: u32,
    /// Invocations per workgroup (`SORT_GROUP`).
    invocations: u32,
}

/// How a workgroup sort of `keys` keys lays out its memory and invocations on a device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct BlockLayout {
    /// Whether slots are skewed to spread runs over memory banks (`SKEW`): where the memory
    /// holds a word more for every 32.
    skew: bool,
    /// Invocations (`SORT_GROUP`): enough for runs of [`RUN`] keys (of pairs in big blocks,
    /// [`BIG_PAIRS_RUN`]) where the device allows, else [`GROUP`].
    invocations: u32,
    /// Words of workgroup memory (`BLOCK_WORDS`).
    words: u32,
}

/// Keys each invocation sorts in registers and merges per round where the device allows
/// enough invocations: on an H200, runs of 8 sorted rows of 1920 and 3840 keys faster than
/// runs of 4 or 16 (numbers: BENCHMARKS.md "Segmented sort" in the repository).
const RUN: u32 = 8;
/// The run of pairs in blocks of more than [`BIG_PAIRS_ABOVE`] keys: on an H200 the
/// pairs kernel takes 81 registers an invocation with runs of 8, so one workgroup of 512 fits
/// an SM, and 47 with runs of 4, where one of 1024 does; rows of 3840 pairs sorted 4% faster.
const BIG_PAIRS_RUN: u32 = 4;
const BIG_PAIRS_ABOVE: u32 = 2048;

impl BlockLayout {
    /// The layout for `keys` keys (with values or without) within the device's limits, or none
    /// where its workgroup memory cannot hold them.
    fn for_device(keys: u32, with_values: bool, limits: &wgpu::Limits) -> Option<Self> {
        // The keys, then with values their places, two to a word.
        let words = |skew: bool| {
            let skewed = keys + if skew { keys / 32 } else { 0 };
            skewed + if with_values { skewed / 2 } else { 0 }
        };
        let fits = |skew: bool| words(skew) * 4 <= limits.max_compute_workgroup_storage_size;
        let skew = fits(true);
        let run = if with_values && keys > BIG_PAIRS_ABOVE { BIG_PAIRS_RUN } else { RUN };
        let wide = keys / run;
        let allowed = wide <= limits.max_compute_invocations_per_workgroup
            && wide <= limits.max_compute_workgroup_size_x;
        (skew || fits(false)).then(|| BlockLayout {
            skew,
            invocations: if allowed { wide.max(GROUP) } else { GROUP },
            words: words(skew),
        })
    }
}

/// The segmented sort's pipelines for one device, and the device-wide sorter its long
/// segments go through.
pub struct SegmentedSorter {
    sorter: RadixSorter,
    layout: wgpu::BindGroupLayout,
    /// For keys alone and for pairs: a pipeline for each size from [`WORKGROUP_SORT_MIN`] keys to
    /// the most the device's workgroup memory holds (pairs take half as much again, for their
    /// places), smallest first.
    block_sorts: [Vec<BlockSort>; 2],
    long: long::LongKernels,
    /// Bound where a sort has no values, or no long-path buffers.
    placeholders: [wgpu::Buffer; 4],
    /// The longest segment sorted in workgroup memory (where a workgroup holds it).
    workgroup_up_to: u32,
    max_groups: u32,
}

impl SegmentedSorter {
    /// The segment kernels, and the device-wide sorter the device runs best.
    pub fn new(device: &wgpu::Device) -> Result<Self, SortError> {
        Self::with_sorter(device, RadixSorter::new(device))
    }

    /// The segment kernels beside `sorter`, which sorts the long segments.
    pub fn with_sorter(device: &wgpu::Device, sorter: RadixSorter) -> Result<Self, SortError> {
        Self::build(device, sorter, WORKGROUP_SORT_MAX)
    }

    /// A sorter that sorts segments of at most `len` keys in workgroup memory (the rest go through the
    /// device-wide sort): how the tests check the long path with short segments.
    #[doc(hidden)]
    pub fn with_workgroup_len(
        device: &wgpu::Device,
        sorter: RadixSorter,
        len: u32,
    ) -> Result<Self, SortError> {
        Self::build(device, sorter, len)
    }

    fn build(device: &wgpu::Device, sorter: RadixSorter, workgroup_up_to: u32) -> Result<Self, SortError> {
        let limit = device.limits().max_compute_workgroup_storage_size;
        // The smallest block of pairs, unskewed: its keys and their 16-bit places.
        let needed = WORKGROUP_SORT_MIN * 6;
        if limit < needed {
            return Err(SortError::WorkgroupMemory { needed, limit });
        }
        let module = crate::shaders::segments_module(device);
        let write = wgpu::BufferBindingType::Storage { read_only: false };
        let entries: Vec<_> = std::iter::once(compute_buffer(0, wgpu::BufferBindingType::Uniform, false))
            .chain((1..6).map(|binding| compute_buffer(binding, write, false)))
            .collect();
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("segments::layout"),
            entries: &entries,
        });
        let pipeline_layout = crate::shaders::pipeline_layout(device, "segments::pipeline_layout", &layout);
        let pipeline = |entry_point: &str, constants: &[(&str, f64)]| {
            compute_pipeline(device, ("segments", &pipeline_layout, &module), entry_point, constants)
        };
        let limits = device.limits();
        let block_sorts = [false, true].map(|values| {
            std::iter::successors(Some(WORKGROUP_SORT_MIN), |keys| Some(keys * 2))
                .map(|keys| (keys, BlockLayout::for_device(keys, values, &limits)))
                .take_while(|(keys, layout)| *keys <= WORKGROUP_SORT_MAX && layout.is_some())
                .map(|(keys, layout)| {
                    let BlockLayout { skew, invocations, words } = layout.expect("taken while some");
                    let constants = [
                        ("BLOCK", f64::from(keys)),
                        ("WITH_VALUES", f64::from(u8::from(values))),
                        ("SKEW", f64::from(u8::from(skew))),
                        ("SORT_GROUP", f64::from(invocations)),
                        ("BLOCK_WORDS", f64::from(words)),
                    ];
                    BlockSort { pipeline: pipeline("sort_segments", &constants), keys, invocations }
                })
                .collect()
        });
        let placeholder = |label| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: 4,
                usage: wgpu::BufferUsages::STORAGE,
                mapped_at_creation: false,
            })
        };
        Ok(SegmentedSorter {
            block_sorts,
            long: long::LongKernels::new(|entry| pipeline(entry, &[])),
            placeholders: ["values", "order_keys", "order_index", "gathered_values"].map(placeholder),
            layout,
            workgroup_up_to,
            max_groups: device.limits().max_compute_workgroups_per_dimension,
            sorter,
        })
    }

    /// The device-wide sorter that sorts long segments.
    pub fn sorter(&self) -> &RadixSorter {
        &self.sorter
    }

    /// The longest segment sorted in workgroup memory, for sorts of keys alone or of pairs
    /// (whose keys' places take half as much memory again); longer segments go through the
    /// device-wide sort.
    pub fn workgroup_len(&self, with_values: bool) -> u32 {
        let largest = self.block_sorts[usize::from(with_values)].last().map_or(0, |block| block.keys);
        largest.min(self.workgroup_up_to)
    }

    /// How [`SegmentedSorter::record`] sorts segments of `segment_len` keys (with values or
    /// without) in workgroup memory: the keys each workgroup holds and its invocations (each
    /// sorts a run of keys / invocations in registers); none where they go through the
    /// device-wide sort. For callers that count what a sort costs.
    pub fn workgroup_sort_shape(&self, segment_len: u32, with_values: bool) -> Option<(u32, u32)> {
        self.block_sort_of(with_values, segment_len).map(|block| (block.keys, block.invocations))
    }

    /// The merge sort for `job`'s segments of `segment_len` keys: the smallest that holds a
    /// segment; none where they are too long for any.
    fn block_sort_for(&self, job: &SortJob<'_>, segment_len: u32) -> Option<&BlockSort> {
        self.block_sort_of(job.values.is_some(), segment_len)
    }

    fn block_sort_of(&self, with_values: bool, segment_len: u32) -> Option<&BlockSort> {
        (segment_len <= self.workgroup_len(with_values)).then(|| {
            let block_sorts = &self.block_sorts[usize::from(with_values)];
            let span = segment_len.next_power_of_two();
            block_sorts.iter().find(|block| block.keys >= span).expect("the largest holds the segment")
        })
    }

    /// Records sorting each segment of `segment_len` keys of `job` on its own (the last one may
    /// be shorter; a `segment_len` of at least `job.len` sorts them all as one), by the job's
    /// kind, order and key bits; equal keys keep their order. The keys (and values) end sorted
    /// in the caller's buffers. Segments sorted in workgroup memory need no scratch; longer
    /// ones need one made by [`SegmentedSorter::scratch`] for them.
    pub fn record(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        job: &SortJob<'_>,
        segment_len: u32,
        scratch: &SegmentScratch,
    ) -> Result<(), SortError> {
        job.check()?;
        if segment_len == 0 {
            return Err(SortError::SegmentLen);
        }
        let len = job.len;
        if len <= 1 || segment_len == 1 {
            return Ok(());
        }
        // A segment longer than the keys is one segment of all of them.
        let segment_len = segment_len.min(len);
        let params = SegmentParams {
            len,
            segment_len,
            span: segment_len.next_power_of_two(),
            key_kind: job.kind.code(),
            descending: u32::from(job.descending),
            key_mask: job.key_mask(),
            has_values: u32::from(job.values.is_some()),
            pad: 0,
        };
        match self.block_sort_for(job, segment_len) {
            Some(block_sort) => {
                let bind_group = self.bind_group(device, job, &params, None);
                let segments = len.div_ceil(segment_len);
                let groups = segments.div_ceil(block_sort.keys / params.span);
                let mut pass = encoder.begin_compute_pass(&Default::default());
                pass.set_bind_group(0, &bind_group, &[]);
                pass.set_pipeline(&block_sort.pipeline);
                let (x, y) = self.grid(groups);
                pass.dispatch_workgroups(x, y, 1);
                Ok(())
            }
            None => self.record_long(device, encoder, job, &params, scratch),
        }
    }

    /// The bind group of a sort: the caller's keys and values, and the long path's buffers
    /// (placeholders for the workgroup sort).
    fn bind_group(
        &self,
        device: &wgpu::Device,
        job: &SortJob<'_>,
        params: &SegmentParams,
        long: Option<[&wgpu::Buffer; 3]>,
    ) -> wgpu::BindGroup {
        let params = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("segments::params"),
            contents: bytemuck::bytes_of(params),
            usage: wgpu::BufferUsages::UNIFORM,
        });
        let [_, order_keys, order_index, gathered] = &self.placeholders;
        let [order_keys, order_index, gathered] = long.unwrap_or([order_keys, order_index, gathered]);
        let buffers = [
            &params,
            job.keys,
            job.values.unwrap_or(&self.placeholders[0]),
            order_keys,
            order_index,
            gathered,
        ];
        let entries: Vec<_> = buffers
            .iter()
            .enumerate()
            .map(|(binding, buffer)| wgpu::BindGroupEntry {
                binding: binding as u32,
                resource: buffer.as_entire_binding(),
            })
            .collect();
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("segments::bind_group"),
            layout: &self.layout,
            entries: &entries,
        })
    }

    /// `groups` workgroups as a grid the device allows: rows of at most the most per
    /// dimension (the kernels number them row by row).
    fn grid(&self, groups: u32) -> (u32, u32) {
        let x = groups.clamp(1, self.max_groups);
        (x, groups.div_ceil(x))
    }
}

/// Bits that number `segments` segments (at least 1).
fn segment_bits(segments: u32) -> u32 {
    (u32::BITS - segments.saturating_sub(1).leading_zeros()).max(1)
}

/// The kind the long path's second sort reads: segment numbers.
const SEGMENT_IDS: KeyKind = KeyKind::U32;

#[cfg(test)]
mod tests {
    use super::{BlockLayout, segment_bits};

    #[test]
    fn blocks_skew_where_memory_allows_and_widen_where_invocations_do() {
        let default = wgpu::Limits::default();
        let layout = |keys, values, limits: &wgpu::Limits| BlockLayout::for_device(keys, values, limits);
        // WebGPU's defaults (16 KiB, 256 invocations): 4096 keys unskewed, or 2048 pairs.
        assert_eq!(
            layout(4096, false, &default),
            Some(BlockLayout { skew: false, invocations: 256, words: 4096 })
        );
        assert_eq!(
            layout(2048, false, &default),
            Some(BlockLayout { skew: true, invocations: 256, words: 2112 })
        );
        assert_eq!(
            layout(2048, true, &default),
            Some(BlockLayout { skew: true, invocations: 256, words: 3168 })
        );
        assert_eq!(
            layout(2048, true, &default),
            Some(BlockLayout { skew: true, invocations: 256, words: 3168 })
        );
        assert_eq!(layout(4096, true, &default), None);
        // An H100 or H200 through Vulkan (48 KiB, 1024 invocations): runs of 8.
        let nvidia = wgpu::Limits {
            max_compute_workgroup_storage_size: 49152,
            max_compute_invocations_per_workgroup: 1024,
            max_compute_workgroup_size_x: 1024,
            ..default
        };
        assert_eq!(
            layout(4096, true, &nvidia),
            Some(BlockLayout { skew: true, invocations: 1024, words: 6336 })
        );
        assert_eq!(
            layout(1024, true, &nvidia),
            Some(BlockLayout { skew: true, invocations: 256, words: 1584 })
        );
    }

    #[test]
    fn segment_numbers_take_the_bits_of_the_last() {
        let bits: Vec<u32> = [1, 2, 3, 4, 5, 256, 257, 1080, 65536, 65537].map(segment_bits).to_vec();
        assert_eq!(bits, [1, 1, 2, 2, 3, 8, 9, 11, 16, 17]);
    }
}
