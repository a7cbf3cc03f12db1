//! A ring of uniform parameter slots, one per recorded step, each chosen by a dynamic offset:
//! steps recorded together each read their own parameters.

use crate::gpu::Gpu;

/// Uniform slots of one parameter struct.
pub struct ParamsRing {
    buffer: wgpu::Buffer,
    /// Bytes between slots: the struct's size rounded up to the uniform offset alignment.
    stride: u32,
    slots: u32,
    size: u64,
}

impl ParamsRing {
    /// `slots` slots for a struct of `size` bytes.
    pub fn new(gpu: &Gpu, size: usize, slots: u32, label: &str) -> Self {
        let alignment = gpu.device.limits().min_uniform_buffer_offset_alignment;
        let stride = (size as u32).next_multiple_of(alignment);
        let buffer = gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: u64::from(stride) * u64::from(slots),
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        ParamsRing { buffer, stride, slots, size: size as u64 }
    }

    /// The binding of one slot (which one comes from the offset [`ParamsRing::write`] returns).
    pub fn binding(&self) -> wgpu::BindingResource<'_> {
        wgpu::BindingResource::Buffer(wgpu::BufferBinding {
            buffer: &self.buffer,
            offset: 0,
            size: wgpu::BufferSize::new(self.size),
        })
    }

    /// Writes `params` into the slot of `step` and returns its dynamic offset. A slot is
    /// reused `slots` steps later, so at most that many steps may be outstanding.
    pub fn write<T: bytemuck::Pod>(&self, queue: &wgpu::Queue, step: u32, params: &T) -> u32 {
        let offset = (step % self.slots) * self.stride;
        queue.write_buffer(&self.buffer, u64::from(offset), bytemuck::bytes_of(params));
        offset
    }
}
