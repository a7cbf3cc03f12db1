//! Read-backs no frame waits for: a copy encoded among a frame's commands lands in a staging
//! buffer whose mapping is asked for once the commands are submitted, and a later frame picks
//! the bytes up. One service for what the window and the page read back; staging buffers are
//! kept and reused.

use super::{Gpu, GpuError};
use futures_channel::oneshot;

/// Spare staging buffers kept for reuse; more are dropped.
const MAX_SPARE: usize = 16;

/// Whether a staging buffer's mapping has arrived.
type Mapped = oneshot::Receiver<Result<(), wgpu::BufferAsyncError>>;

/// A copy on its way to the CPU.
struct InFlight<T> {
    tag: T,
    staging: wgpu::Buffer,
    bytes: u64,
    /// `None` until the commands holding the copy are submitted ([`Readbacks::submitted`]).
    mapped: Option<Mapped>,
}

/// Read-backs under way, each labelled with a `T` that says what it holds (a lane's swap counts
/// of some steps, a timing, a lens line, a picture to save).
pub struct Readbacks<T> {
    in_flight: Vec<InFlight<T>>,
    spare: Vec<wgpu::Buffer>,
    /// Staging buffers made so far.
    made: usize,
}

impl<T> Default for Readbacks<T> {
    fn default() -> Self {
        Readbacks { in_flight: Vec::new(), spare: Vec::new(), made: 0 }
    }
}

impl<T> Readbacks<T> {
    /// A staging buffer of at least `bytes` bytes for a copy encoded now. Its first `bytes`
    /// come back from [`Readbacks::take_ready`], labelled `tag`, once the commands holding the
    /// copy are submitted (then call [`Readbacks::submitted`]) and the GPU has run them.
    pub fn staging(&mut self, gpu: &Gpu, bytes: u64, tag: T) -> &wgpu::Buffer {
        let staging = self.staging_for(gpu, bytes);
        self.push(staging, bytes, tag);
        &self.in_flight.last().expect("pushed above").staging
    }

    /// A staging buffer of at least `bytes` bytes, for a copy whose label is known only once it
    /// is encoded; [`Readbacks::push`] then hands it back with the label.
    pub fn staging_for(&mut self, gpu: &Gpu, bytes: u64) -> wgpu::Buffer {
        let bytes = bytes.max(wgpu::COPY_BUFFER_ALIGNMENT);
        match self.spare.iter().position(|b| b.size() >= bytes) {
            Some(at) => self.spare.swap_remove(at),
            None => {
                self.made += 1;
                gpu.device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("readbacks::staging"),
                    size: bytes.next_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT),
                    usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
                    mapped_at_creation: false,
                })
            }
        }
    }

    /// Counts a copy of `bytes` bytes recorded into `staging` (from [`Readbacks::staging_for`])
    /// as under way, labelled `tag`.
    pub fn push(&mut self, staging: wgpu::Buffer, bytes: u64, tag: T) {
        let bytes = bytes.max(wgpu::COPY_BUFFER_ALIGNMENT);
        self.in_flight.push(InFlight { tag, staging, bytes, mapped: None });
    }

    /// Asks for the mappings of the copies encoded since the last call; call it once the
    /// commands holding every one of them are submitted.
    pub fn submitted(&mut self) {
        for read in self.in_flight.iter_mut().filter(|r| r.mapped.is_none()) {
            let (tx, rx) = oneshot::channel();
            read.staging.map_async(wgpu::MapMode::Read, ..read.bytes, move |result| {
                // The receiver goes only with the service; then nobody wants the bytes.
                let _ = tx.send(result);
            });
            read.mapped = Some(rx);
        }
    }

    /// Staging buffers made so far (the rest were reused).
    pub fn buffers_made(&self) -> usize {
        self.made
    }

    /// Read-backs encoded and not yet taken.
    pub fn pending(&self) -> usize {
        self.in_flight.len()
    }

    /// Hands every read-back whose bytes have arrived to `read`, in the order they were
    /// recorded, up to the first still under way. Never waits: natively the device is polled
    /// once without blocking; in the browser its event loop delivers the mappings.
    pub fn take_ready(&mut self, gpu: &Gpu, mut read: impl FnMut(T, &[u8])) -> Result<(), GpuError> {
        #[cfg(not(target_arch = "wasm32"))]
        gpu.device.poll(wgpu::PollType::Poll).map_err(|e| GpuError::Device(e.to_string()))?;
        while let Some(first) = self.in_flight.first_mut() {
            let Some(mapped) = &mut first.mapped else { break };
            let arrived = match mapped.try_recv() {
                Ok(None) => break,
                Ok(Some(result)) => result.map_err(|e| format!("buffer mapping failed: {e}")),
                Err(oneshot::Canceled) => Err("buffer mapping was dropped".to_string()),
            };
            let done = self.in_flight.remove(0);
            arrived.map_err(GpuError::Device)?;
            {
                let view = done
                    .staging
                    .get_mapped_range(..done.bytes)
                    .map_err(|e| GpuError::Device(e.to_string()))?;
                read(done.tag, &view);
            }
            done.staging.unmap();
            if self.spare.len() < MAX_SPARE {
                self.spare.push(done.staging);
            }
        }
        gpu.check()
    }
}
