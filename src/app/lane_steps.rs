//! How a lane's steps are encoded, whichever way the lanes take them (by pass, by time, a
//! frame sorted to the end): the steps, their swap counts' read-back, and the GPU timer around
//! them where asked.

use super::lanes::{Counted, Lanes, Timing};
use crate::gpu::timing::TIMESTAMP_BYTES;

impl Lanes {
    /// Encodes up to `n` of lane `index`'s steps into `encoder` with the read-back of their
    /// swap counts, timed by the lane's timer where `timing` asks and it has one; returns how
    /// many. Every way the lanes take steps encodes them through here.
    pub(super) fn encode_lane(
        &mut self,
        index: usize,
        encoder: &mut wgpu::CommandEncoder,
        n: u32,
        timing: Timing,
    ) -> u32 {
        let lane = &mut self.lanes[index];
        let (first, generation) = (lane.run.steps_done(), lane.generation());
        let timed = matches!(timing, Timing::Timed(_));
        if n == 0 || lane.run.ledger().room(n) == 0 {
            return 0;
        }
        if let Some(timer) = lane.timer.as_ref().filter(|_| timed) {
            timer.start(encoder);
        }
        let steps = lane.run.encode_steps(encoder, n);
        if let (Some(timer), Timing::Timed(estimated_ms)) = (&lane.timer, timing) {
            let tag = Counted::Time { lane: index, generation, steps, estimated_ms };
            timer.stop_into(encoder, self.readbacks.staging(&self.gpu, TIMESTAMP_BYTES, tag));
        }
        let tag = Counted::Swaps { lane: index, generation, first };
        let staging = self.readbacks.staging(&self.gpu, lane.run.swap_readback_size(steps), tag);
        lane.run.encode_swap_copy(encoder, first, steps, staging, 0);
        steps
    }
}
