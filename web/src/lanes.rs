//! The runs the page shows: one lane, or one per algorithm and pass kind side by side, stepped
//! together by pass. The player ([`shadersort::controls::player`]) drives them as the window's
//! lanes; only the waiting differs: a step is recorded and submitted at once, and its swap
//! counts and the pictures shown are awaited afterwards ([`Lanes::settle`]).

use image::RgbaImage;
use shadersort::algorithms::request::StartRequest;
use shadersort::algorithms::swap_reader::SwapReader;
use shadersort::algorithms::{Algorithm, Pipelines, RunSettings, SortRun};
use shadersort::angle::Lines;
use shadersort::angle::scatter::LineScatter;
use shadersort::controls::lane_plan::{self, start_lanes};
use shadersort::controls::player::Stepper;
use shadersort::gpu::readback::read_texture_async;
use shadersort::gpu::{Gpu, GpuError};
use shadersort::intervals::IntervalMap;
use shadersort::keys::options::SortOptions;
use std::rc::Rc;

/// One algorithm sorting the picture, and the picture last read back from it.
pub struct Lane {
    /// Which algorithm.
    pub algorithm: Algorithm,
    /// Pass kind, phases per step, radix settings.
    pub settings: RunSettings,
    /// The run.
    pub run: Box<dyn SortRun>,
    /// Why the lane sorts something other than what was asked, if it does.
    pub notice: Option<String>,
    /// The state shown, read back after the last step; `None` until read.
    pub shown: Option<RgbaImage>,
    /// The step count `shown` was read at.
    shown_at: Option<u32>,
    swaps: SwapReader,
}

impl Lane {
    /// "Odd-even transposition (compute)".
    pub fn label(&self) -> String {
        lane_plan::lane_label(self.algorithm, &self.settings)
    }
}

/// Every lane shown.
pub struct Lanes {
    gpu: Rc<Gpu>,
    /// The lanes, in the order they are laid out.
    pub lanes: Vec<Lane>,
}

impl Lanes {
    /// Starts one lane per `(algorithm, settings)` of `which` on `picture`, along `lines` and
    /// within `intervals` where the algorithm can (see [`for_lane`]).
    #[allow(clippy::too_many_arguments, reason = "what a lane starts from, each of its own type, used once")]
    pub fn start(
        gpu: &Rc<Gpu>,
        pipelines: &[(Algorithm, Pipelines)],
        scatter: &LineScatter,
        picture: &RgbaImage,
        lines: &Lines,
        options: SortOptions,
        which: &[(Algorithm, RunSettings)],
        intervals: Option<&IntervalMap>,
    ) -> Lanes {
        let request = StartRequest::new(picture, options).within(intervals);
        let lanes = start_lanes(gpu, pipelines, scatter, lines, which, request)
            .into_iter()
            .map(|(algorithm, settings, start)| {
                let (run, notice) = (start.run, start.notice);
                let swaps = SwapReader::new(gpu, run.as_ref());
                Lane { algorithm, settings, run, notice, shown: None, shown_at: None, swaps }
            })
            .collect();
        Lanes { gpu: gpu.clone(), lanes }
    }

    /// Takes the swap counts of the steps submitted since the last call and reads back every
    /// lane whose state changed since it was last shown. Returns whether any picture changed.
    pub async fn settle(&mut self) -> Result<bool, GpuError> {
        let mut changed = false;
        for lane in &mut self.lanes {
            if lane.run.steps_collected() < lane.run.steps_done() {
                lane.swaps.collect_async(&self.gpu, lane.run.as_mut()).await?;
            }
            let at = lane.run.steps_done();
            if lane.shown_at != Some(at) {
                lane.shown = Some(read_texture_async(&self.gpu, lane.run.state()).await?);
                lane.shown_at = Some(at);
                changed = true;
            }
        }
        Ok(changed)
    }

    /// Marks every picture as due for reading back (after a restart to the same step count).
    fn forget_shown(&mut self) {
        for lane in &mut self.lanes {
            lane.shown_at = None;
        }
    }
}

impl Stepper for Lanes {
    fn total_steps(&self) -> u32 {
        self.lanes.iter().map(|l| l.run.total_steps()).max().unwrap_or(0)
    }

    fn steps_done(&self) -> u32 {
        self.lanes.iter().map(|l| l.run.steps_done()).max().unwrap_or(0)
    }

    /// Records up to `n` steps of every lane in one submission; fewer where a lane's swap
    /// counters are full, since their counts are only awaited in [`Lanes::settle`].
    fn advance(&mut self, n: u32) {
        if n == 0 {
            return;
        }
        let mut encoder = self
            .gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("web::lanes") });
        for lane in &mut self.lanes {
            let run = lane.run.as_mut();
            let want = run.ledger().room(n);
            if want > 0 {
                run.record_steps(&mut encoder, want);
            }
        }
        self.gpu.queue.submit([encoder.finish()]);
    }

    fn restart(&mut self) {
        let mut encoder = self
            .gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("web::lanes::restart") });
        for lane in &mut self.lanes {
            lane.run.restart(&mut encoder);
        }
        self.gpu.queue.submit([encoder.finish()]);
        self.forget_shown();
    }

    fn known_sorted(&self) -> bool {
        self.lanes.iter().all(|l| l.run.stats().sorted_after.is_some())
    }
}
