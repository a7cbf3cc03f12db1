//! A frame sorted to the end at once: a clip's or a live source's frame is shown sorted as it
//! comes, whatever a frame's budget for steps and whether the last counts came back.

use super::lanes::{Counted, Lanes};

impl Lanes {
    /// Records every step left of every lane that their rings have room for, in one submission,
    /// whatever a frame affords and whether earlier counts came back: a clip's or a live
    /// source's frame is shown sorted to the end (a sort longer than the ring goes on as its
    /// counts come back).
    pub fn run_to_end(&mut self) {
        if self.error.is_some() {
            return;
        }
        self.take_counts();
        let mut encoder = self
            .gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("lanes::run_to_end") });
        let mut total = 0;
        for (index, lane) in self.lanes.iter_mut().enumerate() {
            let first = lane.run.steps_done();
            let room = lane.run.ledger().room(u32::MAX);
            if room == 0 {
                continue;
            }
            let steps = lane.run.record_steps(&mut encoder, room);
            let tag = Counted::Swaps { lane: index, generation: lane.generation(), first };
            let staging = self.readbacks.staging(&self.gpu, lane.run.swap_readback_size(steps), tag);
            lane.run.record_swap_readback(&mut encoder, first, steps, staging, 0);
            total += steps;
        }
        if total > 0 {
            self.submit(encoder, None, total, None);
        }
    }
}
