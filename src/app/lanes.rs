//! The runs the window shows: one lane normally, one per algorithm and pass kind side by side,
//! stepped in sync by pass (no frame waits for the GPU: swap counts and timings come back
//! through read-backs a later frame takes) or by time.

use super::display::{DisplayPipeline, LanePicture, PictureDraw};
use crate::algorithms::request::StartRequest;
use crate::algorithms::swap_reader::SwapReader;
use crate::algorithms::{Algorithm, Pipelines, RunSettings, SortRun};
use crate::angle::Lines;
use crate::angle::scatter::LineScatter;
pub use crate::controls::lane_plan::LaneSync;
use crate::controls::lane_plan::{self, for_lane, start_lanes, whole_lines_notice};
use crate::controls::player::Stepper;
use crate::gpu::readbacks::Readbacks;
use crate::gpu::timing::{GpuTimer, TIMESTAMP_BYTES};
use crate::gpu::{Gpu, GpuError};
use crate::intervals::IntervalMap;
use crate::keys::options::SortOptions;
use image::RgbaImage;
use std::sync::Arc;
use web_time::Instant;

/// One algorithm sorting the picture, with what the window needs to show it.
pub struct Lane {
    /// Which algorithm.
    pub algorithm: Algorithm,
    /// Pass kind and phases per step.
    pub settings: RunSettings,
    /// The run.
    pub run: Box<dyn SortRun>,
    /// The lines it sorts along (the window's, or rows where it cannot follow them).
    pub lines: Lines,
    /// Whether the run sorts within the window's intervals (false: without them).
    pub in_intervals: bool,
    /// Why the lane sorts without the window's intervals, if it does.
    pub notice: Option<String>,
    /// GPU milliseconds per pass, from timestamps, averaged over the last batch.
    pub gpu_ms_per_pass: Option<f64>,
    /// Milliseconds per pass as timed for sync by time (GPU time where there are timestamps).
    pub(super) ms_per_pass: Option<f64>,
    /// Sync by time: milliseconds this lane may still run to keep up with the first lane.
    pub(super) owed_ms: f64,
    pub(super) swaps: SwapReader,
    /// What draws the run's state in the window.
    picture: LanePicture,
    /// Whether timestamps measure the work (not on CPU adapters such as lavapipe, whose
    /// timestamps miss the work its threads do); otherwise sync by time uses wall time.
    pub(super) timestamps_measure_work: bool,
    pub(super) timer: Option<GpuTimer>,
    /// Names the run the lane shows, unique in the process: a restart begins another, and
    /// read-backs of an earlier one are dropped.
    generation: u32,
}

/// A name for a run of a lane, unique in the process.
fn next_generation() -> u32 {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl Lane {
    /// Names the run the lane shows now (see [`Lane::generation`]'s field): it changes when the
    /// lane restarts or is made anew.
    pub fn generation(&self) -> u32 {
        self.generation
    }

    /// "Odd-even transposition (compute)".
    pub fn label(&self) -> String {
        lane_plan::lane_label(self.algorithm, &self.settings)
    }

    /// "odd-even compute", for headers over narrow pictures.
    pub fn short_label(&self) -> String {
        lane_plan::short_lane_label(self.algorithm, &self.settings)
    }
}

/// Every lane shown, and the settings they were started with.
pub struct Lanes {
    pub(super) gpu: Arc<Gpu>,
    /// The lanes, left to right.
    pub lanes: Vec<Lane>,
    /// How the lanes keep together.
    pub sync: LaneSync,
    /// Wall-clock milliseconds per pass over the last batch, all lanes together.
    pub wall_ms_per_pass: Option<f64>,
    /// The first GPU error, if any (shown in the window; the lanes stop stepping).
    pub error: Option<GpuError>,
    /// Swap counts and timings on their way back (sync by pass).
    readbacks: Readbacks<Counted>,
    /// Steps the lanes may take in the next frame, all together (sync by pass): doubled while
    /// the frames stay quick and the GPU finishes a frame's steps before the next frame, halved
    /// when it has not or when a frame that recorded steps was slow.
    batch: u32,
    /// How long the last frame's work took, and whether it recorded steps (sync by pass).
    last_frame: (f64, bool),
    /// How long the recent frames' work took (sync by pass).
    recent_ms: std::collections::VecDeque<f64>,
    /// When the last steps were submitted, and how many of all lanes together (sync by pass).
    submitted: Option<(Instant, u32)>,
}

/// What a read-back of the lanes holds, for which lane and which of its runs.
enum Counted {
    /// The swap counts of the lane's steps from `first` on.
    Swaps { lane: usize, generation: u32, first: u32 },
    /// The GPU time of the lane's last `steps` steps.
    Time { lane: usize, generation: u32, steps: u32 },
}

/// The steps a lane may take in the first frame of sync by pass.
const FIRST_BATCH: u32 = 1;
/// A frame that recorded steps and whose work took this much longer than the quickest recent
/// frame halves the batch: on a software GPU the frame's presentation waits for the steps it
/// recorded, so the time beyond drawing shows their cost.
const STEPS_MS: f64 = 6.0;
/// Frames whose quickest stands for the cost of drawing alone.
const RECENT_FRAMES: usize = 30;
/// The most steps a lane may take in one frame.
const MAX_BATCH: u32 = 1 << 20;

impl Lanes {
    /// Starts one lane per (algorithm, pass kind) on `picture`, along `lines` within `intervals`
    /// (whole lines with `None`; see `for_lane` for a lane whose algorithm cannot sort
    /// along them within them).
    #[allow(clippy::too_many_arguments, reason = "what a lane starts from, each of its own type, used once")]
    pub fn start(
        gpu: &Arc<Gpu>,
        pipelines: &[(Algorithm, Pipelines)],
        scatter: &LineScatter,
        picture: &RgbaImage,
        lines: &Lines,
        options: SortOptions,
        which: &[(Algorithm, RunSettings)],
        intervals: Option<&IntervalMap>,
    ) -> Self {
        let request = StartRequest::new(picture, options).within(intervals);
        let lanes = start_lanes(gpu, pipelines, scatter, lines, which, request)
            .into_iter()
            .map(|(algorithm, settings, start)| {
                let in_intervals = start.intervals.is_some() && start.notice.is_none();
                let swaps = SwapReader::new(gpu, start.run.as_ref());
                Lane {
                    swaps,
                    picture: LanePicture::new(gpu),
                    algorithm,
                    settings,
                    run: start.run,
                    lines: start.lines,
                    in_intervals,
                    notice: start.notice,
                    gpu_ms_per_pass: None,
                    ms_per_pass: None,
                    owed_ms: 0.0,
                    timestamps_measure_work: gpu.adapter.get_info().device_type != wgpu::DeviceType::Cpu,
                    timer: GpuTimer::new(gpu),
                    generation: next_generation(),
                }
            })
            .collect();
        Lanes {
            gpu: gpu.clone(),
            lanes,
            sync: LaneSync::default(),
            wall_ms_per_pass: None,
            error: None,
            readbacks: Readbacks::default(),
            batch: FIRST_BATCH,
            last_frame: (0.0, false),
            recent_ms: Default::default(),
            submitted: None,
        }
    }

    /// Returns every lane to the input, sorting within `intervals` (of the `lines` the lanes were
    /// started along) from now on (whole lines with `None`, or where a lane's algorithm cannot
    /// sort within them): one upload of the map per lane, no new pipelines. Returns the lanes'
    /// notices.
    pub fn restart_within(
        &mut self,
        lines: &Lines,
        options: SortOptions,
        intervals: Option<&IntervalMap>,
    ) -> Vec<String> {
        let mut encoder = self
            .gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("lanes::restart_within") });
        for lane in &mut self.lanes {
            // A lane's lines depend on its algorithm and settings alone, so they are the ones
            // it was started along.
            let (_, lane_intervals, mut notice) =
                for_lane(lines, lane.algorithm, options, &lane.settings, intervals);
            if let Err(e) = lane.run.restart_within(&self.gpu, &mut encoder, lane_intervals) {
                notice = Some(whole_lines_notice(lane.algorithm, &e));
                // Whole lines always fit.
                let _ = lane.run.restart_within(&self.gpu, &mut encoder, None);
            }
            lane.in_intervals = lane_intervals.is_some() && notice.is_none();
            lane.notice = notice;
            lane.owed_ms = 0.0;
            lane.generation = next_generation();
        }
        self.gpu.queue.submit([encoder.finish()]);
        self.lanes.iter().filter_map(|l| l.notice.clone()).collect()
    }

    /// What draws each lane's current state in this frame.
    pub fn pictures(&mut self, display: &DisplayPipeline) -> Vec<PictureDraw> {
        let gpu = &self.gpu;
        self.lanes.iter_mut().map(|lane| lane.picture.draw(gpu, display, lane.run.state())).collect()
    }

    /// Whether swap counts or timings are still on their way back (the window keeps drawing
    /// frames until they come).
    pub fn counts_pending(&self) -> bool {
        self.readbacks.pending() > 0
    }

    /// Notes how long a frame's work took (sync by pass sizes its batch by it).
    pub fn frame_took(&mut self, ms: f64) {
        self.last_frame.0 = ms;
        if self.recent_ms.len() == RECENT_FRAMES {
            self.recent_ms.pop_front();
        }
        self.recent_ms.push_back(ms);
    }

    /// Steps a lane may take in the next frame: sync by pass shares its batch, which follows
    /// what the GPU finishes
    /// between frames; sync by time waits for its lanes, so `waited` (what fits a frame's
    /// time, as timed) holds there.
    pub fn frame_budget(&self, waited: u32) -> u32 {
        match self.sync {
            LaneSync::ByPass => (self.batch / self.lanes.len().max(1) as u32).max(1),
            LaneSync::ByTime => waited,
        }
    }

    /// Takes the swap counts and timings that have come back, in the order they were recorded
    /// (every frame, stepping or not). Those of a run since restarted, or already taken (sync
    /// by time reads its own), are dropped.
    pub fn take_counts(&mut self) {
        if self.error.is_some() {
            return;
        }
        if let Err(e) = self.take_ready_counts() {
            self.error = Some(e);
        }
    }

    fn take_ready_counts(&mut self) -> Result<(), GpuError> {
        let lanes = &mut self.lanes;
        self.readbacks.take_ready(&self.gpu, |counted, bytes| match counted {
            Counted::Swaps { lane, generation, first } => {
                let current = |l: &&mut Lane| l.generation == generation && l.run.steps_collected() == first;
                if let Some(lane) = lanes.get_mut(lane).filter(current) {
                    lane.run.accept_swaps(bytes);
                }
            }
            Counted::Time { lane, generation, steps } => {
                if let Some(lane) = lanes.get_mut(lane).filter(|l| l.generation == generation) {
                    let ms = lane.timer.as_ref().map(|timer| timer.ms(bytes));
                    lane.gpu_ms_per_pass = ms.map(|ms| ms / f64::from(steps.max(1)));
                }
            }
        })
    }

    /// Sync by pass: the lanes go up to `n` steps beyond the one furthest on, those behind
    /// first, within the batch (steps of all lanes together; see [`lane_plan::plan_steps`]), in
    /// one submission whose counts come back to a later frame. None while the last frame's have
    /// not come (the GPU is behind: the batch halves).
    fn advance_by_pass(&mut self, n: u32) -> Result<(), GpuError> {
        self.take_ready_counts()?;
        let (frame_ms, stepped) = std::mem::replace(&mut self.last_frame, (0.0, false));
        if self.readbacks.pending() > 0 {
            if n > 0 {
                self.batch = (self.batch / 2).max(1);
            }
            return Ok(());
        }
        let quickest = self.recent_ms.iter().copied().fold(f64::INFINITY, f64::min);
        if stepped && frame_ms > quickest + STEPS_MS {
            self.batch = (self.batch / 2).max(1);
        } else if self.submitted.is_some_and(|(_, steps)| steps >= self.batch) {
            self.batch = self.batch.saturating_mul(2).min(MAX_BATCH);
        }
        let standing: Vec<(u32, u32)> =
            self.lanes.iter().map(|l| (l.run.steps_done(), l.run.ledger().room(u32::MAX))).collect();
        let plan = lane_plan::plan_steps(&standing, n, self.batch);
        if plan.iter().all(|&steps| steps == 0) {
            return Ok(());
        }
        let mut encoder = self
            .gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("lanes::advance") });
        for ((index, lane), &steps) in self.lanes.iter_mut().enumerate().zip(&plan) {
            let first = lane.run.steps_done();
            if steps == 0 {
                continue;
            }
            if let Some(timer) = &lane.timer {
                timer.start(&mut encoder);
            }
            lane.run.record_steps(&mut encoder, steps);
            let generation = lane.generation;
            if let Some(timer) = &lane.timer {
                let tag = Counted::Time { lane: index, generation, steps };
                timer.stop_into(&mut encoder, self.readbacks.staging(&self.gpu, TIMESTAMP_BYTES, tag));
            }
            let tag = Counted::Swaps { lane: index, generation, first };
            let staging = self.readbacks.staging(&self.gpu, lane.run.swap_readback_size(steps), tag);
            lane.run.record_swap_readback(&mut encoder, first, steps, staging, 0);
        }
        self.gpu.queue.submit([encoder.finish()]);
        self.readbacks.submitted();
        if let Some((at, steps)) = self.submitted {
            // Wall time per pass as the lanes go: since the last submission, over a lane's share
            // of its steps.
            let per_lane = f64::from(steps) / self.lanes.len().max(1) as f64;
            self.wall_ms_per_pass = Some(at.elapsed().as_secs_f64() * 1e3 / per_lane);
        }
        self.submitted = Some((Instant::now(), plan.iter().sum()));
        self.last_frame.1 = true;
        Ok(())
    }
}

impl Lanes {
    /// The lanes that set the pace: all of them by pass, the first by time.
    fn pacing(&self) -> &[Lane] {
        match self.sync {
            LaneSync::ByPass => &self.lanes,
            LaneSync::ByTime => &self.lanes[..self.lanes.len().min(1)],
        }
    }
}

impl Stepper for Lanes {
    fn total_steps(&self) -> u32 {
        self.pacing().iter().map(|l| l.run.total_steps()).max().unwrap_or(0)
    }

    fn steps_done(&self) -> u32 {
        self.pacing().iter().map(|l| l.run.steps_done()).max().unwrap_or(0)
    }

    fn advance(&mut self, n: u32) {
        if self.error.is_some() {
            return;
        }
        if self.sync == LaneSync::ByPass {
            if let Err(e) = self.advance_by_pass(n) {
                self.error = Some(e);
            }
            return;
        }
        let mut left = n;
        while left > 0 && self.steps_done() < self.total_steps() {
            let before = self.steps_done();
            if let Err(e) = self.advance_by_time(left) {
                self.error = Some(e);
                return;
            }
            let moved = self.steps_done() - before;
            if moved == 0 {
                return;
            }
            left = left.saturating_sub(moved);
        }
    }

    fn restart(&mut self) {
        let mut encoder = self
            .gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("lanes::restart") });
        for lane in &mut self.lanes {
            lane.run.restart(&mut encoder);
            lane.owed_ms = 0.0;
            lane.generation = next_generation();
        }
        self.gpu.queue.submit([encoder.finish()]);
    }

    fn known_sorted(&self) -> bool {
        self.pacing().iter().all(|l| l.run.stats().sorted_after.is_some())
    }
}
