//! A sorter's scratch buffers: its own copies of the keys and values between passes, the
//! histograms, and the per-tile words of each strategy, sized for the longest sort they serve.

use super::indirect::INDIRECT_WORDS;
use super::job::{SortError, SortParams, SortScratch};
use super::sorter::RadixSorter;
use super::{HISTOGRAM_WORDS, RADIX, TILE};

impl RadixSorter {
    /// Scratch buffers for sorts of up to `capacity` keys (with values if `with_values`).
    pub fn scratch(
        &self,
        device: &wgpu::Device,
        capacity: u32,
        with_values: bool,
    ) -> Result<SortScratch, SortError> {
        if capacity > self.max_len {
            return Err(SortError::TooLong { len: capacity, max: self.max_len });
        }
        let buffer = |label: &str, bytes: u64, usage: wgpu::BufferUsages| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: bytes.max(4),
                usage,
                mapped_at_creation: false,
            })
        };
        let storage = wgpu::BufferUsages::STORAGE;
        let keys_bytes = u64::from(capacity) * 4;
        // Per-tile words for the longest sort each strategy runs within the capacity.
        let tiles_for = |len: u32| len.div_ceil(TILE);
        let (reduce_then_scan_tiles, onesweep_tiles) = match self.passes.onesweep_from {
            None => (tiles_for(capacity), 0),
            Some(from) if capacity >= from => (tiles_for(from.saturating_sub(1)), tiles_for(capacity)),
            Some(_) => (tiles_for(capacity), 0),
        };
        let per_tile_bytes = |tiles: u32| u64::from(tiles) * u64::from(RADIX) * 4;
        let params_stride = (std::mem::size_of::<SortParams>() as u64)
            .next_multiple_of(u64::from(device.limits().min_uniform_buffer_offset_alignment));
        Ok(SortScratch {
            capacity,
            reduce_then_scan_tiles,
            onesweep_tiles,
            keys: buffer("sort::keys", keys_bytes, storage),
            values: with_values.then(|| buffer("sort::values", keys_bytes, storage)),
            no_values: [buffer("sort::no_values_in", 4, storage), buffer("sort::no_values_out", 4, storage)],
            histograms: buffer(
                "sort::histograms",
                u64::from(HISTOGRAM_WORDS) * 4,
                storage | wgpu::BufferUsages::COPY_SRC,
            ),
            tile_counts: buffer("sort::tile_counts", per_tile_bytes(reduce_then_scan_tiles), storage),
            // Two halves: even passes use the first, odd passes the second.
            status: buffer(
                "sort::status",
                2 * per_tile_bytes(onesweep_tiles),
                storage | wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC,
            ),
            params_stride,
            indirect: buffer(
                "sort::indirect",
                INDIRECT_WORDS * 4,
                storage | wgpu::BufferUsages::INDIRECT | wgpu::BufferUsages::COPY_SRC,
            ),
        })
    }
}
