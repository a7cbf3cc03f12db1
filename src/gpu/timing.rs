//! GPU time of a span of commands, from timestamp queries where the adapter has them.

use crate::gpu::readback::map_and_read;
use crate::gpu::{Gpu, GpuError};

/// Bytes of the two timestamps a timer copies out.
pub const TIMESTAMP_BYTES: u64 = 16;

/// Two timestamps around encoded work, resolved and read back.
pub struct GpuTimer {
    queries: wgpu::QuerySet,
    resolved: wgpu::Buffer,
    staging: wgpu::Buffer,
    period_ns: f64,
}

impl GpuTimer {
    /// A timer, or `None` when the device cannot write timestamps between passes (GL, some
    /// mobile GPUs).
    pub fn new(gpu: &Gpu) -> Option<Self> {
        let needed = wgpu::Features::TIMESTAMP_QUERY | wgpu::Features::TIMESTAMP_QUERY_INSIDE_ENCODERS;
        if !gpu.device.features().contains(needed) {
            return None;
        }
        let queries = gpu.device.create_query_set(&wgpu::QuerySetDescriptor {
            label: Some("timing::queries"),
            ty: wgpu::QueryType::Timestamp,
            count: 2,
        });
        let buffer = |label, usage| {
            gpu.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: TIMESTAMP_BYTES,
                usage,
                mapped_at_creation: false,
            })
        };
        Some(GpuTimer {
            queries,
            resolved: buffer(
                "timing::resolved",
                wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
            ),
            staging: buffer("timing::staging", wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ),
            period_ns: f64::from(gpu.queue.get_timestamp_period()),
        })
    }

    /// Encodes the start timestamp.
    pub fn start(&self, encoder: &mut wgpu::CommandEncoder) {
        encoder.write_timestamp(&self.queries, 0);
    }

    /// Encodes the end timestamp and the copy that [`GpuTimer::read_ms`] reads.
    pub fn stop(&self, encoder: &mut wgpu::CommandEncoder) {
        self.stop_into(encoder, &self.staging);
    }

    /// Encodes the end timestamp and a copy of both into the first [`TIMESTAMP_BYTES`] of
    /// `staging`, whose bytes [`GpuTimer::ms`] reads (a read-back no frame waits for).
    pub fn stop_into(&self, encoder: &mut wgpu::CommandEncoder, staging: &wgpu::Buffer) {
        encoder.write_timestamp(&self.queries, 1);
        encoder.resolve_query_set(&self.queries, 0..2, &self.resolved, 0);
        encoder.copy_buffer_to_buffer(&self.resolved, 0, staging, 0, TIMESTAMP_BYTES);
    }

    /// Milliseconds between the two timestamps (waits for the submitted work).
    pub fn read_ms(&self, gpu: &Gpu) -> Result<f64, GpuError> {
        let mut ms = 0.0;
        map_and_read(gpu, &self.staging, TIMESTAMP_BYTES, |bytes| ms = self.ms(bytes))?;
        Ok(ms)
    }

    /// Milliseconds between the two timestamps in `bytes`, as [`GpuTimer::stop_into`] copies them.
    pub fn ms(&self, bytes: &[u8]) -> f64 {
        let tick = |at: usize| bytemuck::pod_read_unaligned::<u64>(&bytes[at..at + 8]);
        tick(8).saturating_sub(tick(0)) as f64 * self.period_ns / 1e6
    }
}
