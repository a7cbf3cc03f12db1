//! A ring of per-step swap counters on the GPU: step `i` adds into slot `i % capacity`.

use crate::gpu::{Gpu, GpuError};
use crate::readback::read_u32s;

/// Counters a kernel reaches through a dynamic storage-buffer offset, one slot per step.
pub struct SwapCounters {
    buffer: wgpu::Buffer,
    /// Bytes between slots: the device's storage offset alignment.
    stride: u32,
    capacity: u32,
}

impl SwapCounters {
    /// A ring of `capacity` counters.
    pub fn new(gpu: &Gpu, capacity: u32, label: &str) -> Self {
        let stride = gpu.device.limits().min_storage_buffer_offset_alignment.max(4);
        let buffer = gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: u64::from(stride) * u64::from(capacity),
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        SwapCounters { buffer, stride, capacity }
    }

    /// How many steps can be recorded before the oldest unread counter is reused.
    pub fn capacity(&self) -> u32 {
        self.capacity
    }

    /// The binding of one slot (its position comes from [`Self::dynamic_offset`]).
    pub fn binding(&self) -> wgpu::BindingResource<'_> {
        wgpu::BindingResource::Buffer(wgpu::BufferBinding {
            buffer: &self.buffer,
            offset: 0,
            size: wgpu::BufferSize::new(4),
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

    /// Records zeroing the slots of steps `first..first + n`.
    pub fn record_clear(&self, encoder: &mut wgpu::CommandEncoder, first: u32, n: u32) {
        for (slot, count) in self.segments(first, n) {
            let offset = u64::from(slot) * u64::from(self.stride);
            encoder.clear_buffer(&self.buffer, offset, Some(u64::from(count) * u64::from(self.stride)));
        }
    }

    /// Reads the swaps of steps `first..first + n` (after they have been submitted).
    pub fn read(&self, gpu: &Gpu, first: u32, n: u32) -> Result<Vec<u32>, GpuError> {
        let words_per_slot = (self.stride / 4) as usize;
        let mut out = Vec::with_capacity(n as usize);
        for (slot, count) in self.segments(first, n) {
            let offset = u64::from(slot) * u64::from(self.stride);
            let words = read_u32s(gpu, &self.buffer, offset, count as usize * words_per_slot)?;
            out.extend(words.into_iter().step_by(words_per_slot));
        }
        Ok(out)
    }
}
