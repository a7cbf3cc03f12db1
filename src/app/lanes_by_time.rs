//! Side by side kept together by time: the first lane runs the passes asked for, and every
//! other lane as many of its own as fit the time the first took. It waits for each lane's work,
//! to time it (by pass, no frame waits: see `lanes.rs`).

use super::lanes::{Lane, Lanes};
use crate::gpu::{Gpu, GpuError};
use web_time::Instant;

impl Lanes {
    /// Sync by time: the first lane runs `n` passes; every other lane then runs as many of its
    /// own passes as fit the time the first lane took (carried over between frames). It waits
    /// for each lane's work, to time it.
    pub(super) fn advance_by_time(&mut self, n: u32) -> Result<(), GpuError> {
        let started = Instant::now();
        let Some((first, others)) = self.lanes.split_first_mut() else { return Ok(()) };
        let first_ms = run_alone(&self.gpu, first, n)?;
        for lane in others {
            lane.owed_ms += first_ms;
            // Until a lane has been timed, it runs as many passes as the first lane.
            let per_pass = lane.ms_per_pass.unwrap_or(first_ms / f64::from(n.max(1))).max(1e-6);
            let passes = (lane.owed_ms / per_pass).floor().min(f64::from(u32::MAX)) as u32;
            let took = run_alone(&self.gpu, lane, passes)?;
            lane.owed_ms = if lane.run.steps_done() >= lane.run.total_steps() {
                0.0
            } else {
                (lane.owed_ms - took).max(0.0)
            };
        }
        self.wall_ms_per_pass = Some(started.elapsed().as_secs_f64() * 1e3 / f64::from(n.max(1)));
        Ok(())
    }
}

impl Lane {
    /// Records up to `n` passes between the timer's timestamps; returns how many.
    fn record_timed(&mut self, encoder: &mut wgpu::CommandEncoder, n: u32) -> u32 {
        let want = self.run.ledger().room(n);
        if let Some(timer) = &self.timer {
            timer.start(encoder);
        }
        let steps = self.run.record_steps(encoder, want);
        if let Some(timer) = &self.timer {
            timer.stop(encoder);
        }
        steps
    }

    /// After the submission: takes the swap counts and the time per pass (GPU timestamps, or
    /// `wall_ms` when the lane ran alone and timestamps are missing or do not measure the
    /// work); returns the milliseconds.
    fn finish_timed(&mut self, gpu: &Gpu, steps: u32, wall_ms: Option<f64>) -> Result<f64, GpuError> {
        self.swaps.collect(gpu, self.run.as_mut())?;
        if steps == 0 {
            return Ok(0.0);
        }
        let gpu_ms = match &self.timer {
            Some(timer) => Some(timer.read_ms(gpu)?),
            None => None,
        };
        self.gpu_ms_per_pass = gpu_ms.map(|ms| ms / f64::from(steps));
        let timed = if self.timestamps_measure_work { gpu_ms } else { None };
        let ms = timed.or(wall_ms).unwrap_or(0.0);
        self.ms_per_pass = Some(ms / f64::from(steps));
        Ok(ms)
    }
}

/// Runs `n` passes of one lane in a submission of its own and times them.
fn run_alone(gpu: &Gpu, lane: &mut Lane, n: u32) -> Result<f64, GpuError> {
    let started = Instant::now();
    let mut encoder = gpu
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("lanes::advance_lane") });
    let steps = lane.record_timed(&mut encoder, n);
    gpu.queue.submit([encoder.finish()]);
    gpu.wait()?;
    let wall_ms = started.elapsed().as_secs_f64() * 1e3;
    lane.finish_timed(gpu, steps, Some(wall_ms))
}
