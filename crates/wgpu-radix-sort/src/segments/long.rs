//! Segments longer than a workgroup holds, sorted through the device-wide sort: the keys are
//! numbered and sorted, stably, with their numbers; then the numbers are sorted, stably, by
//! the segment each came from, which puts the segments back in order with each one's keys
//! still sorted; the keys and values are then gathered by number. Two device-wide sorts, the
//! second of as many bits as number the segments, for any segment length.

use super::{SEGMENT_IDS, SegmentParams, SegmentedSorter, segment_bits};
use crate::job::{SortError, SortJob, SortScratch};

/// The long path's four kernels (`long_*` in `shaders/segments.wgsl`).
pub(super) struct LongKernels {
    start: wgpu::ComputePipeline,
    segment_ids: wgpu::ComputePipeline,
    gather: wgpu::ComputePipeline,
    finish: wgpu::ComputePipeline,
}

impl LongKernels {
    /// The kernels, each made by `pipeline` from its entry point.
    pub(super) fn new(pipeline: impl Fn(&str) -> wgpu::ComputePipeline) -> Self {
        LongKernels {
            start: pipeline("long_start"),
            segment_ids: pipeline("long_segment_ids"),
            gather: pipeline("long_gather"),
            finish: pipeline("long_finish"),
        }
    }
}

/// Buffers a segmented sort of long segments works in, made once and reused; segments the
/// workgroup sorts need none (and a scratch made for them holds none).
pub struct SegmentScratch {
    long: Option<LongScratch>,
}

/// The long path's buffers: the device-wide sort's own scratch, and for two segments or more
/// the buffers of the numbered keys.
struct LongScratch {
    capacity: u32,
    inner: SortScratch,
    /// None where the scratch was made for one segment, which the device-wide sort sorts as
    /// it is.
    numbered: Option<Numbered>,
}

/// The keys as sorted (then their segments), their numbers, and the values gathered.
struct Numbered {
    order_keys: wgpu::Buffer,
    order_index: wgpu::Buffer,
    gathered_values: Option<wgpu::Buffer>,
}

impl SegmentedSorter {
    /// Scratch for sorts of up to `capacity` keys in segments of `segment_len` (with values if
    /// `with_values`): none where workgroup memory holds such segments
    /// ([`SegmentedSorter::workgroup_len`]), else the long path's buffers: the device-wide
    /// sort's scratch, and where `segment_len` is below `capacity` (two segments or more) about
    /// three words a key more.
    pub fn scratch(
        &self,
        device: &wgpu::Device,
        capacity: u32,
        segment_len: u32,
        with_values: bool,
    ) -> Result<SegmentScratch, SortError> {
        if segment_len <= self.workgroup_len(with_values) {
            return Ok(SegmentScratch { long: None });
        }
        let buffer = |label| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: (u64::from(capacity) * 4).max(4),
                usage: wgpu::BufferUsages::STORAGE,
                mapped_at_creation: false,
            })
        };
        let several = segment_len < capacity;
        Ok(SegmentScratch {
            long: Some(LongScratch {
                capacity,
                // The numbered keys are sorted with their numbers as values.
                inner: self.sorter.scratch(device, capacity, with_values || several)?,
                numbered: several.then(|| Numbered {
                    order_keys: buffer("segments::order_keys"),
                    order_index: buffer("segments::order_index"),
                    gathered_values: with_values.then(|| buffer("segments::gathered_values")),
                }),
            }),
        })
    }

    /// Records `job`'s segments sorted through the device-wide sort, in `scratch`'s buffers
    /// (one segment: the device-wide sort of the job as it is).
    pub(super) fn record_long(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        job: &SortJob<'_>,
        params: &SegmentParams,
        scratch: &SegmentScratch,
    ) -> Result<(), SortError> {
        let len = job.len;
        let segments = len.div_ceil(params.segment_len);
        let refused =
            SortError::SegmentScratch { len, segment_len: params.segment_len, values: job.values.is_some() };
        let long = scratch.long.as_ref().filter(|long| long.capacity >= len).ok_or(refused.clone())?;
        if segments == 1 {
            return self.sorter.record(device, encoder, job, &long.inner);
        }
        let fits = |numbered: &&Numbered| job.values.is_none() || numbered.gathered_values.is_some();
        let numbered = long.numbered.as_ref().filter(fits).ok_or(refused)?;
        let gathered = numbered.gathered_values.as_ref().unwrap_or(&self.placeholders[3]);
        let buffers = [&numbered.order_keys, &numbered.order_index, gathered];
        let bind_group = self.bind_group(device, job, params, Some(buffers));
        let (x, y) = self.grid(len.div_ceil(super::GROUP));
        let run = |encoder: &mut wgpu::CommandEncoder, kernels: &[&wgpu::ComputePipeline]| {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_bind_group(0, &bind_group, &[]);
            for kernel in kernels {
                pass.set_pipeline(kernel);
                pass.dispatch_workgroups(x, y, 1);
            }
        };
        run(encoder, &[&self.long.start]);
        // The numbered keys, sorted as the job asks.
        let by_key = SortJob { keys: &numbered.order_keys, values: Some(&numbered.order_index), ..*job };
        self.sorter.record(device, encoder, &by_key, &long.inner)?;
        run(encoder, &[&self.long.segment_ids]);
        // Their numbers, by segment: stable, so each segment's stay in key order.
        let by_segment = SortJob {
            kind: SEGMENT_IDS,
            descending: false,
            key_bits: segment_bits(segments),
            ..SortJob::pairs(&numbered.order_keys, &numbered.order_index, len)
        };
        self.sorter.record(device, encoder, &by_segment, &long.inner)?;
        run(encoder, &[&self.long.gather, &self.long.finish]);
        Ok(())
    }
}
