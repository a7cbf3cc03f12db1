//! A small ring of staging buffers, so reading frames back never stalls the GPU: each slot
//! receives one frame's picture (palette indices or RGBA, as the format takes them) and the swap
//! counts of the steps that led to it, and is mapped while later frames are already running.
#![cfg(not(target_arch = "wasm32"))]

use super::sequence::FramePixel;
use crate::algorithms::SortRun;
use crate::gpu::readback::{encode_rows_copy, padded_row_bytes};
use crate::gpu::{Gpu, GpuError};
use std::collections::VecDeque;
use std::sync::mpsc::{Receiver, channel};

/// What one slot brought back.
pub struct Capture<P> {
    /// Every pixel of the state texture as the recording's format takes it, scanline order.
    pub pixels: Vec<P>,
    /// Swap counts as [`SortRun::accept_swaps`] takes them.
    pub swap_counts: Vec<u8>,
    /// Steps done when the picture was copied.
    pub steps: u32,
}

struct Slot {
    buffer: wgpu::Buffer,
    counts_bytes: u64,
    mapped: Option<Receiver<Result<(), wgpu::BufferAsyncError>>>,
    submission: Option<wgpu::SubmissionIndex>,
    steps: u32,
}

/// Staging slots in flight, oldest first.
pub struct CaptureRing {
    slots: Vec<Slot>,
    in_flight: VecDeque<usize>,
    width: u32,
    height: u32,
    /// Where the picture starts in a slot (after room for the largest swap-count copy).
    picture_offset: u64,
}

impl CaptureRing {
    /// `depth` slots for `width` x `height` frames whose steps' counts take at most `max_counts_bytes`.
    pub fn new(gpu: &Gpu, width: u32, height: u32, max_counts_bytes: u64, depth: usize) -> Self {
        let picture_offset = max_counts_bytes.next_multiple_of(256);
        let size = picture_offset + u64::from(padded_row_bytes(width)) * u64::from(height);
        let slots = (0..depth)
            .map(|i| Slot {
                buffer: gpu.device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some(&format!("record::capture[{i}]")),
                    size,
                    usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
                    mapped_at_creation: false,
                }),
                counts_bytes: 0,
                mapped: None,
                submission: None,
                steps: 0,
            })
            .collect();
        CaptureRing { slots, in_flight: VecDeque::new(), width, height, picture_offset }
    }

    /// Bytes one slot takes: what must fit the device's `max_buffer_size`.
    pub fn slot_size(width: u32, height: u32, max_counts_bytes: u64) -> u64 {
        max_counts_bytes.next_multiple_of(256) + u64::from(padded_row_bytes(width)) * u64::from(height)
    }

    /// Frames encoded and not yet taken.
    pub fn in_flight(&self) -> usize {
        self.in_flight.len()
    }

    /// Whether every slot is in flight.
    pub fn is_full(&self) -> bool {
        self.in_flight.len() == self.slots.len()
    }

    /// Encodes copies of the run's current state and of the swap counts of steps
    /// `first..first + n` into the next free slot. Submit the encoder, then call [`Self::submitted`].
    pub fn encode(&mut self, encoder: &mut wgpu::CommandEncoder, run: &dyn SortRun, first: u32, n: u32) {
        assert!(!self.is_full(), "no free capture slot");
        let index = (0..self.slots.len()).find(|i| !self.in_flight.contains(i)).expect("a free slot");
        let slot = &mut self.slots[index];
        slot.counts_bytes = run.swap_readback_size(n);
        slot.steps = run.steps_done();
        assert!(slot.counts_bytes <= self.picture_offset, "swap counts overflow the capture slot");
        if n > 0 {
            run.encode_swap_copy(encoder, first, n, &slot.buffer, 0);
        }
        encode_rows_copy(encoder, run.state(), 0..self.height, &slot.buffer, self.picture_offset);
        self.in_flight.push_back(index);
    }

    /// Starts mapping the slot encoded last, once its commands are submitted.
    pub fn submitted(&mut self, submission: wgpu::SubmissionIndex) {
        let index = *self.in_flight.back().expect("an encoded slot");
        let slot = &mut self.slots[index];
        let (tx, rx) = channel();
        slot.buffer.map_async(wgpu::MapMode::Read, .., move |r| {
            let _ = tx.send(r);
        });
        slot.mapped = Some(rx);
        slot.submission = Some(submission);
    }

    /// Waits for the oldest slot (only as long as its own commands take) and returns its contents.
    pub fn take_oldest<P: FramePixel>(&mut self, gpu: &Gpu) -> Result<Capture<P>, GpuError> {
        let index = self.in_flight.pop_front().expect("a slot in flight");
        let slot = &mut self.slots[index];
        let wait = wgpu::PollType::Wait { submission_index: slot.submission.take(), timeout: None };
        gpu.device.poll(wait).map_err(|e| GpuError::Device(e.to_string()))?;
        gpu.check()?;
        let receiver = slot.mapped.take().expect("slot was submitted");
        receiver
            .recv()
            .map_err(|_| GpuError::Device("capture mapping was dropped".into()))?
            .map_err(|e| GpuError::Device(format!("capture mapping failed: {e}")))?;
        let capture = {
            let view = slot.buffer.get_mapped_range(..).map_err(|e| GpuError::Device(e.to_string()))?;
            let pitch = padded_row_bytes(self.width) as usize;
            let picture = &view[self.picture_offset as usize..];
            let mut pixels = Vec::with_capacity(self.width as usize * self.height as usize);
            for row in picture.chunks(pitch).take(self.height as usize) {
                P::extend_from_rgba(&row[..self.width as usize * 4], &mut pixels);
            }
            Capture { pixels, swap_counts: view[..slot.counts_bytes as usize].to_vec(), steps: slot.steps }
        };
        slot.buffer.unmap();
        Ok(capture)
    }
}
