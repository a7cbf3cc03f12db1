//! A ring of per-step counters on the GPU (swaps, and whatever else a kernel counts): step `i`
//! adds into slot `i % capacity`.

use crate::gpu::Gpu;

/// Counters a kernel reaches through a dynamic storage-buffer offset, one slot per step.
pub struct SwapCounters {
    buffer: wgpu::Buffer,
    /// Bytes between slots: the device's storage offset alignment.
    stride: u32,
    capacity: u32,
    /// Counters per slot.
    words: u32,
}

impl SwapCounters {
    /// A ring of `capacity` slots of `words` counters each.
    pub fn new(gpu: &Gpu, capacity: u32, words: u32, label: &str) -> Self {
        let stride = gpu.device.limits().min_storage_buffer_offset_alignment.max(4);
        let buffer = gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: u64::from(stride) * u64::from(capacity),
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        assert!(words * 4 <= stride, "a slot holds at most {} counters", stride / 4);
        SwapCounters { buffer, stride, capacity, words }
    }

    /// How many steps can be encoded before the oldest unread counter is reused.
    pub fn capacity(&self) -> u32 {
        self.capacity
    }

    /// The binding of one slot (its position comes from [`Self::dynamic_offset`]).
    pub fn binding(&self) -> wgpu::BindingResource<'_> {
        wgpu::BindingResource::Buffer(wgpu::BufferBinding {
            buffer: &self.buffer,
            offset: 0,
            size: wgpu::BufferSize::new(u64::from(self.words) * 4),
        })
    }

    /// The dynamic offset that selects step `step`'s slot.
    pub fn dynamic_offset(&self, step: u32) -> u32 {
        (step % self.capacity) * self.stride
    }

    /// The contiguous slot ranges (first slot, count) that steps `first..first + n` occupy.
    fn segments(&self, first: u32, n: u32) -> impl Iterator<Item = (u32, u32)> {
        assert!(n <= self.capacity, "{n} steps exceed the ring of {}", self.capacity);
        let start = first % self.capacity;
        let head = n.min(self.capacity - start);
        [(start, head), (0, n - head)].into_iter().filter(|&(_, count)| count > 0)
    }

    /// Encodes zeroing the slots of steps `first..first + n`.
    pub fn encode_clear(&self, encoder: &mut wgpu::CommandEncoder, first: u32, n: u32) {
        for (slot, count) in self.segments(first, n) {
            let offset = u64::from(slot) * u64::from(self.stride);
            encoder.clear_buffer(&self.buffer, offset, Some(u64::from(count) * u64::from(self.stride)));
        }
    }

    /// Encodes zeroing every slot (see [`AddedSince`]).
    pub fn encode_clear_all(&self, encoder: &mut wgpu::CommandEncoder) {
        encoder.clear_buffer(&self.buffer, 0, None);
    }

    /// Bytes a copy of `n` steps' counters takes (see [`Self::encode_copy`]).
    pub fn copy_size(&self, n: u32) -> u64 {
        u64::from(n) * u64::from(self.stride)
    }

    /// Encodes a copy of the counters of steps `first..first + n` into `dst` at `offset`, in
    /// step order; [`Self::decode`] turns the copied bytes into counts.
    pub fn encode_copy(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        first: u32,
        n: u32,
        dst: &wgpu::Buffer,
        offset: u64,
    ) {
        let mut at = offset;
        for (slot, count) in self.segments(first, n) {
            let bytes = self.copy_size(count);
            encoder.copy_buffer_to_buffer(
                &self.buffer,
                u64::from(slot) * u64::from(self.stride),
                dst,
                at,
                bytes,
            );
            at += bytes;
        }
    }

    /// The first counter of each slot in bytes copied by [`Self::encode_copy`].
    pub fn decode(&self, bytes: &[u8]) -> Vec<u32> {
        self.decode_slots(bytes).into_iter().map(|slot| slot[0]).collect()
    }

    /// Every counter of each slot in bytes copied by [`Self::encode_copy`].
    pub fn decode_slots(&self, bytes: &[u8]) -> Vec<Vec<u32>> {
        bytes
            .chunks_exact(self.stride as usize)
            .map(|slot| bytemuck::cast_slice::<u8, u32>(&slot[..self.words as usize * 4]).to_vec())
            .collect()
    }
}

/// Counts of a ring whose slots are zeroed only when a run restarts, not before every batch of
/// steps (each such clear is a fill and a barrier in front of the batch's first dispatch): what
/// the kernels added to a slot since its last reading, modulo 2^32. Only for kernels that add.
pub struct AddedSince {
    /// Each slot's value at its last reading.
    last: Vec<u32>,
}

impl AddedSince {
    /// For a ring of `capacity` slots, all zero.
    pub fn new(capacity: u32) -> Self {
        AddedSince { last: vec![0; capacity as usize] }
    }

    /// After [`SwapCounters::encode_clear_all`]: every slot zero again.
    pub fn reset(&mut self) {
        self.last.fill(0);
    }

    /// What was added to `slot` since its last reading, now that it reads `value`.
    pub fn take(&mut self, slot: u32, value: u32) -> u32 {
        let last = std::mem::replace(&mut self.last[slot as usize], value);
        value.wrapping_sub(last)
    }
}

#[cfg(test)]
mod tests {
    use super::AddedSince;

    #[test]
    fn added_since_counts_what_each_slot_gained_across_laps_and_wraps() {
        let mut added = AddedSince::new(2);
        assert_eq!(added.take(0, 5), 5);
        assert_eq!(added.take(1, 0), 0);
        assert_eq!(added.take(0, 12), 7);
        assert_eq!(added.take(0, 12), 0);
        assert_eq!(added.take(1, 3), 3);
        assert_eq!(added.take(0, 4), u32::MAX - 12 + 5);
        added.reset();
        assert_eq!(added.take(0, 9), 9);
    }
}
