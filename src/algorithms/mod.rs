//! The sorting algorithms, each behind [`SortRun`]: what the window, the recorder and the tests drive.

pub mod odd_even;
pub mod swap_counters;

use crate::gpu::{Gpu, GpuError};

/// Which algorithm sorts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, clap::ValueEnum)]
pub enum Algorithm {
    /// Odd-even transposition: one global pass per step, two textures ping-ponged.
    #[default]
    OddEven,
}

impl Algorithm {
    /// The name used on the command line and in file names.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::OddEven => "odd-even",
        }
    }
}

/// What the GPU has reported about the steps run so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunStats {
    /// Swaps made by the most recent step whose counter has been read.
    pub last_step_swaps: Option<u32>,
    /// Swaps made by all steps read so far.
    pub total_swaps: u64,
    /// The number of steps after which the picture is known to be sorted, once it is.
    pub sorted_after: Option<u32>,
}

/// One picture being sorted by one algorithm: its GPU state and how far it has got.
///
/// A step is the unit a viewer watches (one odd-even pass). Steps are recorded into a caller's
/// encoder; after submitting, the caller calls [`SortRun::collect_stats`] before recording more
/// than [`SortRun::max_uncollected_steps`] further steps.
pub trait SortRun {
    /// Steps after which the picture is sorted whatever its content.
    fn total_steps(&self) -> u32;
    /// Steps recorded so far.
    fn steps_done(&self) -> u32;
    /// Records up to `n` further steps (fewer at the end, or when stats are due); returns how many.
    fn record_steps(&mut self, encoder: &mut wgpu::CommandEncoder, n: u32) -> u32;
    /// How many steps may be recorded between two calls of [`SortRun::collect_stats`].
    fn max_uncollected_steps(&self) -> u32;
    /// Reads the swap counters of the steps submitted since the last call (waits for the GPU).
    fn collect_stats(&mut self, gpu: &Gpu) -> Result<(), GpuError>;
    /// What the collected counters say.
    fn stats(&self) -> RunStats;
    /// The texture holding the state after [`SortRun::steps_done`] steps.
    fn state(&self) -> &wgpu::Texture;
    /// Records a return to the input picture, step 0.
    fn restart(&mut self, encoder: &mut wgpu::CommandEncoder);
}

/// Runs `run` forward until `target` steps are done or the picture is known sorted, in batches
/// submitted one after another; `progress` hears the steps done after each batch.
pub fn run_until(
    gpu: &Gpu,
    run: &mut dyn SortRun,
    target: u32,
    mut progress: impl FnMut(u32),
) -> Result<(), GpuError> {
    /// Most steps per submission: enough to keep the GPU busy, few enough to stop soon after
    /// the picture becomes sorted.
    const MAX_BATCH: u32 = 64;
    let target = target.min(run.total_steps());
    while run.steps_done() < target && run.stats().sorted_after.is_none() {
        // Batches grow 2, 2, 4, 8, ...: an already sorted picture is found out after 2 steps.
        let batch = run.steps_done().clamp(2, MAX_BATCH);
        let n = batch.min(run.max_uncollected_steps()).min(target - run.steps_done());
        let mut encoder =
            gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("run_until") });
        run.record_steps(&mut encoder, n);
        gpu.queue.submit([encoder.finish()]);
        run.collect_stats(gpu)?;
        progress(run.steps_done());
    }
    gpu.wait()
}
