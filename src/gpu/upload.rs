//! CPU to GPU copies of many same-sized blocks (a clip's frames): written straight into buffers
//! that stay mapped between uses. `Queue::write_buffer` makes, maps and frees a staging buffer
//! for every call, whose fresh pages the CPU then faults in: for a 1080p frame's 3 MB that cost
//! more than the copy itself.

use crate::gpu::Gpu;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// Most mapped buffers kept: as many frames as a clip keeps in flight, at most.
const MOST_KEPT: usize = 16;

/// Buffers mapped for writing, of one size at a time, shared by the threads that upload.
pub struct UploadPool {
    mapped: Arc<Mutex<Mapped>>,
    /// Whether buffers written are mapped again and kept ([`Gpu::keep_spares`]).
    keep: Arc<AtomicBool>,
}

/// The buffers ready to be written, and their size.
#[derive(Default)]
struct Mapped {
    size: u64,
    buffers: Vec<wgpu::Buffer>,
}

impl UploadPool {
    /// A pool that keeps buffers while `gpu` keeps spares.
    pub fn new(gpu: &Gpu) -> Self {
        UploadPool { mapped: Arc::default(), keep: gpu.spares_switch().clone() }
    }

    /// Copies `bytes` into a mapped buffer of at least `size` bytes (a multiple of 4, at least
    /// `bytes.len()`) and encodes its copy into `to` at offset 0 (of `size` bytes: the rest is
    /// zeros). Once `encoder` is submitted, [`Written::map_again`] puts the buffer back.
    pub fn write(
        &self,
        gpu: &Gpu,
        encoder: &mut wgpu::CommandEncoder,
        bytes: &[u8],
        size: u64,
        to: &wgpu::Buffer,
    ) -> Written {
        assert!(size >= bytes.len() as u64 && size.is_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT));
        let spare = {
            let mut mapped = self.mapped.lock().unwrap_or_else(|p| p.into_inner());
            if mapped.size != size {
                *mapped = Mapped { size, buffers: Vec::new() };
            }
            mapped.buffers.pop()
        };
        let buffer = spare.unwrap_or_else(|| {
            gpu.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("upload::mapped"),
                size,
                usage: wgpu::BufferUsages::MAP_WRITE | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: true,
            })
        });
        {
            let mut view =
                buffer.get_mapped_range_mut(..).expect("made mapped, or given back once mapped again");
            view.slice(..bytes.len()).copy_from_slice(bytes);
            // A buffer used before holds the last block's bytes past this one's end.
            view.slice(bytes.len()..).fill(0);
        }
        buffer.unmap();
        encoder.copy_buffer_to_buffer(&buffer, 0, to, 0, size);
        Written { buffer, pool: self.mapped.clone(), keep: self.keep.clone() }
    }
}

/// A buffer written by [`UploadPool::write`], its copy encoded.
#[must_use = "map_again once the copy is submitted, or the buffer is let go"]
pub struct Written {
    buffer: wgpu::Buffer,
    pool: Arc<Mutex<Mapped>>,
    keep: Arc<AtomicBool>,
}

impl Written {
    /// Maps the buffer again once the GPU has copied from it, and gives it back to the pool then
    /// (while spares are kept and the pool's size is still the buffer's).
    pub fn map_again(self) {
        if !self.keep.load(Ordering::Relaxed) {
            return;
        }
        let Written { buffer, pool, .. } = self;
        let mapped = buffer.clone();
        buffer.slice(..).map_async(wgpu::MapMode::Write, move |result| {
            let mut pool = pool.lock().unwrap_or_else(|p| p.into_inner());
            if result.is_ok() && pool.size == mapped.size() && pool.buffers.len() < MOST_KEPT {
                pool.buffers.push(mapped);
            }
        });
    }
}
