//! Reads of a run's swap counts through one staging buffer kept for as long as the run, so
//! stepping frame after frame allocates nothing: blocking, or awaited (in the browser).

use super::SortRun;
use super::step_ledger::STEP_RING;
use crate::gpu::readback::map_and_read_async;
use crate::gpu::{Gpu, GpuError};

/// A staging buffer large enough for every count a run may have outstanding.
pub struct SwapReader {
    staging: wgpu::Buffer,
}

impl SwapReader {
    /// A reader for `run`.
    pub fn new(gpu: &Gpu, run: &dyn SortRun) -> Self {
        let size = run.swap_readback_size(STEP_RING).max(4);
        let staging = gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("swap_reader::staging"),
            size,
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        SwapReader { staging }
    }

    /// Reads the counts of every submitted step of `run` not yet taken (waits for the GPU).
    pub fn collect(&self, gpu: &Gpu, run: &mut dyn SortRun) -> Result<(), GpuError> {
        pollster::block_on(self.collect_async(gpu, run))
    }

    /// [`SwapReader::collect`] as a future (see [`map_and_read_async`]).
    pub async fn collect_async(&self, gpu: &Gpu, run: &mut dyn SortRun) -> Result<(), GpuError> {
        let (first, n) = (run.steps_collected(), run.steps_done() - run.steps_collected());
        if n == 0 {
            return Ok(());
        }
        let size = run.swap_readback_size(n);
        let mut encoder =
            gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("swap_reader") });
        run.record_swap_readback(&mut encoder, first, n, &self.staging, 0);
        gpu.queue.submit([encoder.finish()]);
        let mut bytes = Vec::with_capacity(size as usize);
        map_and_read_async(gpu, &self.staging, size, |data| bytes.extend_from_slice(data)).await?;
        run.accept_swaps(&bytes);
        Ok(())
    }
}
