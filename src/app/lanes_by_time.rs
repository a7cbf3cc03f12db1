//! Side by side kept together by time: the first lane runs the steps asked for, and every other
//! lane as many of its own as fit the time the first takes, by the costs last measured; when a
//! submission's cost comes back, what each lane owes is corrected by how far the estimate was
//! off. Nothing waits: each lane's steps go in a submission of their own, measured by GPU
//! timestamps or by when they were seen done (`lanes.rs`).

use super::lanes::{Lanes, Timing};
use crate::gpu::GpuError;

impl Lanes {
    /// Sync by time: the first lane takes up to `n` steps; every other lane then as many of its
    /// own as fit the time the first lane's are estimated to take (what it owes carried over
    /// between frames). Until a lane's steps have been measured, it takes as many as the first.
    pub(super) fn advance_by_time(&mut self, n: u32) -> Result<(), GpuError> {
        let Some(first) = self.lanes.first() else { return Ok(()) };
        let first_per_pass = first.ms_per_pass;
        let first_steps = self.submit_lane(0, n, first_per_pass);
        if first_steps == 0 {
            return Ok(());
        }
        let first_ms = first_per_pass.map(|ms| ms * f64::from(first_steps));
        for index in 1..self.lanes.len() {
            let lane = &mut self.lanes[index];
            let (steps, per_pass) = match (first_ms, lane.ms_per_pass) {
                (Some(first_ms), Some(per_pass)) => {
                    lane.owed_ms += first_ms;
                    let steps = (lane.owed_ms / per_pass.max(1e-6)).floor().min(f64::from(u32::MAX)) as u32;
                    (steps, Some(per_pass))
                }
                _ => (first_steps, None),
            };
            let taken = self.submit_lane(index, steps, per_pass);
            let lane = &mut self.lanes[index];
            if let Some(per_pass) = lane.ms_per_pass.filter(|_| first_ms.is_some()) {
                lane.owed_ms = (lane.owed_ms - per_pass * f64::from(taken)).max(0.0);
            }
            if lane.run.steps_done() >= lane.run.total_steps() {
                lane.owed_ms = 0.0;
            }
        }
        Ok(())
    }

    /// A lane's measured cost against the estimate it ran on: the first lane's overrun is owed
    /// to every other lane; another lane's overrun is taken from what it owes.
    pub(super) fn correct_owed(&mut self, index: usize, ms: f64, estimated: Option<f64>) {
        let Some(estimated) = estimated else { return };
        let off = ms - estimated;
        if index == 0 {
            for lane in &mut self.lanes[1..] {
                lane.owed_ms = (lane.owed_ms + off).max(0.0);
            }
        } else {
            let lane = &mut self.lanes[index];
            lane.owed_ms = (lane.owed_ms - off).max(0.0);
        }
    }

    /// Encodes up to `n` of lane `index`'s steps (timed, with their swap counts) in a
    /// submission of their own, estimated at `per_pass` milliseconds each; returns how many.
    fn submit_lane(&mut self, index: usize, n: u32, per_pass: Option<f64>) -> u32 {
        let lane = &self.lanes[index];
        let steps = lane.run.ledger().room(n);
        if steps == 0 {
            return 0;
        }
        let (generation, estimated_ms) = (lane.generation(), per_pass.map(|ms| ms * f64::from(steps)));
        let mut encoder = self
            .gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("lanes::advance_lane") });
        let steps = self.encode_lane(index, &mut encoder, steps, Timing::Timed(estimated_ms));
        self.submit(encoder, Some((index, generation)), steps, estimated_ms);
        steps
    }
}
