//! The one way a sort is driven toward a step: steps encoded as far as the swap counters hold
//! them, submitted, and the counts read back (blocking, or awaited in the browser) before more
//! are encoded. Stills, clips, the recorders and the benchmarks drive their runs here; the
//! window's and the page's lanes encode through [`SortRun::encode_steps`] and read the counts
//! with their own read-backs, so that no frame waits for the GPU.

use crate::algorithms::SortRun;
use crate::algorithms::step_ledger::STEP_RING;
use crate::gpu::readback::map_and_read_async;
use crate::gpu::{Gpu, GpuError};
use std::sync::OnceLock;

/// Most steps per submission of a watched run: enough to keep the GPU busy, few enough to stop
/// soon after the picture becomes sorted.
const MAX_BATCH: u32 = 64;

/// Drives one run: holds the staging buffer its swap counts are read through, made the first
/// time counts are read and kept for as long as the run, so that stepping allocates nothing.
pub struct Driver {
    size: u64,
    staging: OnceLock<wgpu::Buffer>,
}

impl Driver {
    /// A driver for `run`.
    pub fn new(run: &dyn SortRun) -> Self {
        Driver { size: run.swap_readback_size(STEP_RING).max(4), staging: OnceLock::new() }
    }

    /// Reads the counts of every submitted step of `run` not yet taken (waits for the GPU).
    pub fn collect(&self, gpu: &Gpu, run: &mut dyn SortRun) -> Result<(), GpuError> {
        pollster::block_on(self.collect_async(gpu, run))
    }

    /// [`Driver::collect`] as a future (see [`map_and_read_async`]).
    pub async fn collect_async(&self, gpu: &Gpu, run: &mut dyn SortRun) -> Result<(), GpuError> {
        let (first, n) = (run.steps_collected(), run.steps_done() - run.steps_collected());
        if n == 0 {
            return Ok(());
        }
        let staging = self.staging.get_or_init(|| {
            gpu.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("drive::staging"),
                size: self.size,
                usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
                mapped_at_creation: false,
            })
        });
        let size = run.swap_readback_size(n);
        let mut encoder = gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("drive::collect") });
        run.encode_swap_copy(&mut encoder, first, n, staging, 0);
        gpu.queue.submit([encoder.finish()]);
        let mut bytes = Vec::with_capacity(size as usize);
        map_and_read_async(gpu, staging, size, |data| bytes.extend_from_slice(data)).await?;
        run.accept_swaps(&bytes);
        Ok(())
    }

    /// Encodes `n` more of `run`'s steps (fewer at its end) into `encoder`. Whenever the swap
    /// counters are full, what is encoded so far is submitted, `before_read` is heard (a
    /// caller with read-backs of its own in flight takes them first) and the counts are read;
    /// then `encoder` goes on, fresh. Returns the steps encoded; nothing is submitted after
    /// the last of them, so the caller may add to `encoder`.
    pub async fn advance<E: From<GpuError>>(
        &self,
        gpu: &Gpu,
        run: &mut dyn SortRun,
        encoder: &mut wgpu::CommandEncoder,
        n: u32,
        mut before_read: impl FnMut(&mut dyn SortRun) -> Result<(), E>,
    ) -> Result<u32, E> {
        let first = run.steps_done();
        let target = first + n.min(run.total_steps() - first);
        while run.steps_done() < target {
            if run.encode_steps(encoder, target - run.steps_done()) > 0 {
                continue;
            }
            let full = std::mem::replace(
                encoder,
                gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
                    label: Some("drive::advance"),
                }),
            );
            gpu.queue.submit([full.finish()]);
            before_read(run)?;
            self.collect_async(gpu, run).await?;
            if run.ledger().room(1) == 0 {
                return Err(GpuError::Device("the sort encoded no step and has no counts due".into()).into());
            }
        }
        Ok(run.steps_done() - first)
    }

    /// Runs `n` more of `run`'s steps (fewer at its end): encodes and submits them and awaits
    /// their counts (a recorder then reads the frame they made).
    pub async fn run_steps(
        &self,
        gpu: &Gpu,
        run: &mut dyn SortRun,
        n: u32,
        label: &str,
    ) -> Result<(), GpuError> {
        let mut encoder =
            gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some(label) });
        self.advance(gpu, run, &mut encoder, n, |_| Ok::<(), GpuError>(())).await?;
        gpu.queue.submit([encoder.finish()]);
        self.collect_async(gpu, run).await
    }

    /// Runs `run` forward until `target` steps are done or the picture is known sorted, in
    /// batches submitted one after another, each one's counts awaited; `progress` hears the
    /// steps done after each batch and returns false to stop early.
    pub async fn run_to(
        &self,
        gpu: &Gpu,
        run: &mut dyn SortRun,
        target: u32,
        mut progress: impl FnMut(u32) -> bool,
    ) -> Result<(), GpuError> {
        let target = target.min(run.total_steps());
        while run.steps_done() < target && run.stats().sorted_after.is_none() {
            // Batches grow 2, 2, 4, 8, ...: an already sorted picture is found out after 2
            // steps. A run that cannot find that out encodes as many steps as counters hold.
            let batch =
                if run.detects_sorted_early() { run.steps_done().clamp(2, MAX_BATCH) } else { u32::MAX };
            let n = run.ledger().room(batch.min(target - run.steps_done()));
            self.run_steps(gpu, run, n, "drive::run_to").await?;
            if !progress(run.steps_done()) {
                break;
            }
        }
        Ok(())
    }

    /// Encodes and submits `run`'s steps up to `target` without waiting for the GPU, for sorts
    /// nobody watches (a clip's frames): the counts are read, and waited for, only when the
    /// counters are full, never after the last step, so the caller goes on while the GPU
    /// sorts. Every step runs (a picture found sorted early stays as it is through the rest),
    /// or, to the end of a run that can make its last state at once, only the last.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn submit_to(&self, gpu: &Gpu, run: &mut dyn SortRun, target: u32) -> Result<(), GpuError> {
        let n = target.saturating_sub(run.steps_done());
        let mut encoder = gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("drive::submit_to") });
        if !(target >= run.total_steps() && run.encode_to_end(&mut encoder)) {
            pollster::block_on(self.advance(gpu, run, &mut encoder, n, |_| Ok::<(), GpuError>(())))?;
        }
        gpu.queue.submit([encoder.finish()]);
        gpu.check()
    }
}

/// [`Driver::run_to`] for a run driven once, blocking until the GPU is done.
pub fn run_to(
    gpu: &Gpu,
    run: &mut dyn SortRun,
    target: u32,
    progress: impl FnMut(u32) -> bool,
) -> Result<(), GpuError> {
    pollster::block_on(Driver::new(run).run_to(gpu, run, target, progress))?;
    gpu.wait()
}

/// [`Driver::run_to`] for a run driven once, as a future (the browser's).
pub async fn run_to_async(
    gpu: &Gpu,
    run: &mut dyn SortRun,
    target: u32,
    progress: impl FnMut(u32) -> bool,
) -> Result<(), GpuError> {
    Driver::new(run).run_to(gpu, run, target, progress).await
}
