//! A frame sorted to the end at once: a clip's or a live source's frame is shown sorted as it
//! comes, whatever a frame's budget for steps and whether the last counts came back.

use super::lanes::{Lanes, Timing};

impl Lanes {
    /// Encodes every step left of every lane that their rings have room for, in one submission,
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
        for index in 0..self.lanes.len() {
            total += self.encode_lane(index, &mut encoder, u32::MAX, Timing::Untimed);
        }
        if total > 0 {
            self.submit(encoder, None, total, None);
        }
    }
}
