//! What a sort records: the sequence of dispatches of one sort, recorded into the caller's
//! encoder, with workgroup counts known on the CPU or (`indirect.rs`) computed on the GPU.

use super::choices::SortStrategy;
use super::indirect::{ARGS_HISTOGRAM, ARGS_SCAN_HISTOGRAMS, ARGS_SCAN_TILES, ARGS_TILES, LengthAt};
use super::job::{KeyKind, SortError, SortJob, SortParams, SortScratch};
use super::sorter::RadixSorter;
use super::{HISTOGRAM_GROUPS, PASSES, RADIX, TILE};
use wgpu::util::DeviceExt;
impl RadixSorter {
    pub(super) fn record_dispatches(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        job: &SortJob<'_>,
        scratch: &SortScratch,
        profile: Option<&wgpu::QuerySet>,
        indirect: Option<LengthAt<'_>>,
    ) -> Result<Vec<&'static str>, SortError> {
        // The length, or with `indirect` the capacity: what the kernels are chosen for.
        let len = job.len;
        if len > self.max_len {
            return Err(SortError::TooLong { len, max: self.max_len });
        }
        if len > scratch.capacity || (job.values.is_some() && scratch.values.is_none()) {
            return Err(SortError::ScratchTooSmall {
                capacity: scratch.capacity,
                has_values: scratch.values.is_some(),
                len,
                needs_values: job.values.is_some(),
            });
        }
        job.check()?;
        let strategy = self.strategy_for(len);
        let scratch_tiles = match strategy {
            SortStrategy::ReduceThenScan => scratch.reduce_then_scan_tiles,
            SortStrategy::OneSweep => scratch.onesweep_tiles,
        };
        if len > 1 && len.div_ceil(TILE) > scratch_tiles {
            return Err(SortError::ScratchStrategy { strategy: strategy.name(), len });
        }
        if len <= 1 {
            return Ok(Vec::new());
        }

        let has_values = job.values.is_some();
        // OneSweep's kernel for this sort (the keys per tile it takes: `tile_len`).
        let onesweep = self.onesweep_kernel(len, has_values).map(|(pipeline, _)| pipeline);
        let tiles = len.div_ceil(self.tile_len(len, has_values));
        let transformed = job.kind != KeyKind::U32 || job.descending;
        let passes = digit_passes(job.key_bits);
        let key_mask = job.key_mask();
        let params: Vec<u8> = (0..PASSES)
            .flat_map(|pass| {
                let p = SortParams {
                    len,
                    tiles,
                    shift: pass * 8,
                    pass_index: pass,
                    transform_in: u32::from(transformed && pass == 0),
                    transform_out: u32::from(transformed && pass == passes - 1),
                    key_kind: job.kind.code(),
                    descending: u32::from(job.descending),
                    has_values: u32::from(job.values.is_some()),
                    status_half: scratch.onesweep_tiles * RADIX,
                    key_mask,
                    pad: 0,
                };
                let mut slot = bytemuck::bytes_of(&p).to_vec();
                slot.resize(scratch.params_stride as usize, 0);
                slot
            })
            .collect();
        // A buffer of its own for each sort, so sorts recorded one after another each see their
        // own, and no copy comes before the sort's one compute pass (but those of a length read
        // on the GPU).
        let copied =
            if indirect.is_some() { wgpu::BufferUsages::COPY_DST } else { wgpu::BufferUsages::empty() };
        let params = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("sort::params"),
            contents: &params,
            usage: wgpu::BufferUsages::UNIFORM | copied,
        });
        if let Some(at) = indirect {
            self.record_setup(device, encoder, (at, len, self.tile_len(len, has_values)), &params, scratch);
        }

        // Direction `d` reads buffer d and writes buffer 1 - d (0: the caller's, 1: scratch);
        // a sort without values binds two placeholders instead.
        let keys = [job.keys, &scratch.keys];
        let values = match (job.values, &scratch.values) {
            (Some(caller), Some(own)) => [caller, own],
            _ => [&scratch.no_values[0], &scratch.no_values[1]],
        };
        let bind_groups = [0usize, 1].map(|d| {
            let (values_in, values_out) = (values[d], values[1 - d]);
            device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some(&format!("sort::bind_group[{d}]")),
                layout: &self.layout,
                entries: &[
                    wgpu::BindGroupEntry {
                        binding: 0,
                        resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                            buffer: &params,
                            offset: 0,
                            size: wgpu::BufferSize::new(std::mem::size_of::<SortParams>() as u64),
                        }),
                    },
                    wgpu::BindGroupEntry { binding: 1, resource: keys[d].as_entire_binding() },
                    wgpu::BindGroupEntry { binding: 2, resource: keys[1 - d].as_entire_binding() },
                    wgpu::BindGroupEntry { binding: 3, resource: values_in.as_entire_binding() },
                    wgpu::BindGroupEntry { binding: 4, resource: values_out.as_entire_binding() },
                    wgpu::BindGroupEntry { binding: 5, resource: scratch.histograms.as_entire_binding() },
                    wgpu::BindGroupEntry { binding: 6, resource: scratch.tile_counts.as_entire_binding() },
                    wgpu::BindGroupEntry { binding: 7, resource: scratch.status.as_entire_binding() },
                ],
            })
        });

        // Workgroup counts: as computed here, or by the setup kernel into the scratch.
        let groups = |fixed: (u32, u32), args: u64| match indirect {
            Some(_) => Groups::Indirect(&scratch.indirect, args),
            None => Groups::Fixed(fixed.0, fixed.1),
        };
        let x = tiles.min(self.max_groups);
        let tile_groups = groups((x, tiles.div_ceil(x)), ARGS_TILES);
        let offset = |p: u32| (u64::from(p) * scratch.params_stride) as u32;
        let dispatch = |kernel, pipeline, direction, offset, groups| Dispatch {
            kernel,
            pipeline,
            direction,
            offset,
            groups,
        };
        let blocks = len.div_ceil(self.histogram_block);
        let mut steps = vec![
            dispatch(
                "histogram_all",
                &self.histogram_all,
                0,
                0,
                groups((histogram_groups(blocks), 1), ARGS_HISTOGRAM),
            ),
            dispatch("scan_histograms", &self.scan_histograms, 0, 0, groups((1, 1), ARGS_SCAN_HISTOGRAMS)),
        ];
        for p in 0..passes {
            let (direction, offset) = ((p % 2) as usize, offset(p));
            match (strategy, &self.passes.reduce_then_scan, onesweep) {
                (SortStrategy::ReduceThenScan, Some(rts), _) => steps.extend([
                    dispatch("count_tiles", &rts.count_tiles, direction, offset, tile_groups),
                    dispatch(
                        "scan_tiles",
                        &rts.scan_tiles,
                        direction,
                        offset,
                        groups((RADIX, 1), ARGS_SCAN_TILES),
                    ),
                    dispatch(
                        "scatter",
                        rts.scatter.for_sort(has_values, len, false).0,
                        direction,
                        offset,
                        tile_groups,
                    ),
                ]),
                (SortStrategy::OneSweep, _, Some(onesweep)) => {
                    steps.push(dispatch("onesweep", onesweep, direction, offset, tile_groups))
                }
                _ => unreachable!("strategy_for picks a strategy whose pipelines were built"),
            }
        }
        let mut kernels = Vec::new();
        let mut pass: Option<wgpu::ComputePass<'_>> = None;
        // One compute pass for the whole sort (one per dispatch when profiled).
        for d in &steps {
            let k = kernels.len() as u32;
            kernels.push(d.kernel);
            if profile.is_some() {
                drop(pass.take());
            }
            let compute = pass.get_or_insert_with(|| {
                encoder
                    .begin_compute_pass(&wgpu::ComputePassDescriptor {
                        label: Some(if profile.is_some() { d.kernel } else { "sort" }),
                        timestamp_writes: profile.map(|queries| wgpu::ComputePassTimestampWrites {
                            query_set: queries,
                            beginning_of_pass_write_index: Some(2 * k),
                            end_of_pass_write_index: Some(2 * k + 1),
                        }),
                    })
                    .forget_lifetime()
            });
            d.record(compute, &bind_groups);
        }
        Ok(kernels)
    }
}

/// Workgroups of the histogram kernel for `blocks` blocks of keys (each takes every
/// this-many-th block).
fn histogram_groups(blocks: u32) -> u32 {
    (blocks / 4).clamp(*HISTOGRAM_GROUPS.start(), *HISTOGRAM_GROUPS.end()).min(blocks)
}

/// Digit passes a sort of the low `key_bits` bits runs: one per 8 bits, rounded up to an even
/// count so that the keys end in the caller's buffer (the extra pass's digit is the same for
/// every key, so it only copies).
fn digit_passes(key_bits: u32) -> u32 {
    key_bits.div_ceil(8).next_multiple_of(2)
}

/// Dispatches a sort records at most: 2, then 3 per digit pass (reduce-then-scan; OneSweep
/// records 1 per pass).
pub const DISPATCHES: u32 = 2 + 3 * PASSES;

/// One dispatch of a sort.
pub(super) struct Dispatch<'a> {
    pub(super) kernel: &'static str,
    pub(super) pipeline: &'a wgpu::ComputePipeline,
    /// Which bind group: 0 reads the caller's buffers, 1 the scratch.
    pub(super) direction: usize,
    /// The parameters' dynamic offset.
    pub(super) offset: u32,
    pub(super) groups: Groups<'a>,
}

/// A dispatch's workgroup counts.
#[derive(Clone, Copy)]
pub(super) enum Groups<'a> {
    /// (x, y), known when the sort is recorded.
    Fixed(u32, u32),
    /// Read from this buffer at this byte offset when the sort runs.
    Indirect(&'a wgpu::Buffer, u64),
}

impl Dispatch<'_> {
    pub(super) fn record(&self, pass: &mut wgpu::ComputePass<'_>, bind_groups: &[wgpu::BindGroup; 2]) {
        pass.set_bind_group(0, &bind_groups[self.direction], &[self.offset]);
        pass.set_pipeline(self.pipeline);
        match self.groups {
            Groups::Fixed(x, y) => pass.dispatch_workgroups(x, y, 1),
            Groups::Indirect(buffer, offset) => pass.dispatch_workgroups_indirect(buffer, offset),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{digit_passes, histogram_groups};

    #[test]
    fn digit_passes_are_whole_bytes_in_pairs() {
        let passes: Vec<u32> = [1, 8, 9, 16, 17, 24, 25, 32].map(digit_passes).to_vec();
        assert_eq!(passes, [2, 2, 2, 2, 4, 4, 4, 4]);
    }

    #[test]
    fn the_histogram_takes_a_quarter_of_the_tiles_within_its_bounds() {
        let groups: Vec<u32> = [1, 200, 256, 1024, 2048, 4096, 16384].map(histogram_groups).to_vec();
        assert_eq!(groups, [1, 200, 256, 256, 512, 1024, 1024]);
    }
}
