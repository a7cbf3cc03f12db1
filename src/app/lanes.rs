//! The runs the window shows: one lane normally, one per algorithm and pass kind side by side,
//! stepped in sync by pass or by time. No frame waits for the GPU: swap counts and timings come
//! back through read-backs a later frame takes, and what the steps cost (GPU timestamps where
//! they measure the work, else when the work was seen done) sizes the next frame's steps.

use super::display::{DisplayPipeline, LanePicture, PictureDraw};
use crate::algorithms::request::StartRequest;
use crate::algorithms::{Algorithm, RunSettings, SortRun};
use crate::angle::Lines;
use crate::controls::lane_plan::{self, start_lanes};
pub use crate::controls::lane_plan::{LaneSync, Pace};
use crate::controls::player::Stepper;
use crate::engine::Engine;
use crate::engine::plan::{plan, whole_lines_notice};
use crate::gpu::completions::Completions;
use crate::gpu::readbacks::Readbacks;
use crate::gpu::timing::GpuTimer;
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
    pub gpu_ms_per_step: Option<f64>,
    /// Milliseconds per pass as last measured (GPU time where timestamps measure the work,
    /// else the time its work took to be seen done).
    pub(super) ms_per_pass: Option<f64>,
    /// Sync by time: milliseconds this lane may still run to keep up with the first lane.
    pub(super) owed_ms: f64,
    /// What draws the run's state in the window.
    picture: LanePicture,
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
    /// How many steps a submission may hold: what a frame affords while each step is shown, or
    /// all the steps' counters have room for when nothing is shown between them (a jump).
    pub pace: Pace,
    /// Wall-clock milliseconds per pass over the last batch, all lanes together.
    pub wall_ms_per_pass: Option<f64>,
    /// The first GPU error, if any (shown in the window; the lanes stop stepping).
    pub error: Option<GpuError>,
    /// Swap counts and timings on their way back.
    pub(super) readbacks: Readbacks<Counted>,
    /// Steps submitted and not yet seen done, where timestamps do not measure the work.
    pub(super) completions: Completions<Submitted>,
    /// Whether GPU timestamps measure the steps' work: not on CPU adapters such as lavapipe,
    /// whose timestamps miss the work its threads do, nor without timestamps.
    pub(super) timestamps_measure_work: bool,
    /// When the last watched submission was seen done.
    last_done: Option<Instant>,
    /// Milliseconds one lane's step took, averaged over the last measured batch (sync by pass).
    ms_per_step: Option<f64>,
    /// When the last steps were submitted, and how many of all lanes together.
    pub(super) submitted: Option<(Instant, u32)>,
}

/// Whether a lane's steps are timed, and what sync by time estimated for them.
#[derive(Clone, Copy, Debug)]
pub(super) enum Timing {
    /// Not timed (a frame sorted to the end).
    Untimed,
    /// Timed by the lane's timer where it has one, with sync by time's estimate.
    Timed(Option<f64>),
}

/// What a read-back of the lanes holds, for which lane and which of its runs.
pub(super) enum Counted {
    /// The swap counts of the lane's steps from `first` on.
    Swaps { lane: usize, generation: u32, first: u32 },
    /// The GPU time of the lane's last `steps` steps, and what sync by time estimated for them.
    Time { lane: usize, generation: u32, steps: u32, estimated_ms: Option<f64> },
}

/// A submission of steps watched until done: one lane's (sync by time) or every lane's (sync by
/// pass, `lane` None).
pub(super) struct Submitted {
    pub(super) lane: Option<(usize, u32)>,
    pub(super) steps: u32,
    pub(super) at: Instant,
    pub(super) estimated_ms: Option<f64>,
}

/// What the lanes' steps may cost in one frame.
const STEPS_MS_PER_FRAME: f64 = 12.0;

/// The most steps the lanes may take in one frame.
const MAX_BATCH: u32 = 1 << 20;

impl Lanes {
    /// Starts one lane per (algorithm, pass kind) on `picture`, along `lines` within `intervals`
    /// (whole lines with `None`; see `engine::plan` for a lane whose algorithm cannot sort
    /// along them within them).
    pub fn start(
        engine: &Engine,
        picture: &RgbaImage,
        lines: &Lines,
        options: SortOptions,
        which: &[(Algorithm, RunSettings)],
        intervals: Option<&IntervalMap>,
    ) -> Self {
        let request = StartRequest::new(picture, options).within(intervals);
        let gpu = engine.shared_gpu();
        let lanes = start_lanes(engine, lines, which, request)
            .into_iter()
            .map(|(algorithm, settings, start)| {
                let in_intervals = start.intervals.is_some() && start.notice.is_none();
                Lane {
                    picture: LanePicture::new(gpu),
                    algorithm,
                    settings,
                    run: start.run,
                    lines: start.lines,
                    in_intervals,
                    notice: start.notice,
                    gpu_ms_per_step: None,
                    ms_per_pass: None,
                    owed_ms: 0.0,
                    timer: GpuTimer::new(gpu),
                    generation: next_generation(),
                }
            })
            .collect::<Vec<Lane>>();
        // The lanes' own timers say whether the device has timestamps.
        let timestamps_measure_work = gpu.adapter.get_info().device_type != wgpu::DeviceType::Cpu
            && lanes.iter().all(|l| l.timer.is_some());
        Lanes {
            gpu: gpu.clone(),
            lanes,
            sync: LaneSync::default(),
            pace: Pace::default(),
            wall_ms_per_pass: None,
            error: None,
            readbacks: Readbacks::default(),
            completions: Completions::default(),
            timestamps_measure_work,
            last_done: None,
            ms_per_step: None,
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
                plan(lines, lane.algorithm, options, &lane.settings, intervals);
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

    /// Whether swap counts, timings or the steps' end are still on their way (the window
    /// keeps drawing frames until they come, and takes no steps meanwhile).
    pub fn counts_pending(&self) -> bool {
        self.readbacks.pending() > 0 || self.completions.pending() > 0
    }

    /// Steps a lane may take in the next frame (what the player asks for): by pass a lane's
    /// share of what the frame affords, at least one (the lanes behind go first, see
    /// `Lanes::affordable`); by time, the first lane's; at the GPU's pace, all there is room for.
    pub fn frame_budget(&self) -> u32 {
        if self.pace == Pace::Gpu {
            return MAX_BATCH;
        }
        match self.sync {
            LaneSync::ByStep => (self.affordable() / self.lanes.len().max(1) as u32).max(1),
            LaneSync::ByTime => self.affordable(),
        }
    }

    /// What a frame affords by the cost last measured, within its share for steps: by pass the
    /// steps of all lanes together, by time the first lane's (every lane running as long); one
    /// until a step is measured.
    fn affordable(&self) -> u32 {
        let ms = match self.sync {
            LaneSync::ByStep => self.ms_per_step,
            LaneSync::ByTime => {
                self.lanes.first().and_then(|l| l.ms_per_pass).map(|ms| ms * self.lanes.len() as f64)
            }
        };
        ms.map_or(1, |ms| (STEPS_MS_PER_FRAME / ms.max(1e-6)).clamp(1.0, f64::from(MAX_BATCH)) as u32)
    }

    /// Takes the swap counts, timings and costs that have come back, in the order they were
    /// recorded (every frame, stepping or not). Those of a run since restarted are dropped.
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
        let mut measured = Vec::new();
        self.readbacks.take_ready(&self.gpu, |counted, bytes| match counted {
            Counted::Swaps { lane, generation, first } => {
                let current = |l: &&mut Lane| l.generation == generation && l.run.steps_collected() == first;
                if let Some(lane) = lanes.get_mut(lane).filter(current) {
                    lane.run.accept_swaps(bytes);
                }
            }
            Counted::Time { lane: index, generation, steps, estimated_ms } => {
                if let Some(lane) = lanes.get_mut(index).filter(|l| l.generation == generation) {
                    let ms = lane.timer.as_ref().map(|timer| timer.ms(bytes));
                    lane.gpu_ms_per_step = ms.map(|ms| ms / f64::from(steps.max(1)));
                    measured.extend(ms.map(|ms| (Some(index), steps, ms, estimated_ms)));
                }
            }
        })?;
        if self.timestamps_measure_work {
            self.measured(measured);
        }
        // Without timestamps that measure the work, a submission took from when it was sent (or
        // the one before it was done) until it was seen done.
        let mut done = Vec::new();
        for (submitted, at) in self.completions.take() {
            let began = self.last_done.map_or(submitted.at, |last| last.max(submitted.at));
            self.last_done = Some(at);
            let ms = at.duration_since(began).as_secs_f64() * 1e3;
            let current =
                submitted.lane.filter(|&(i, g)| self.lanes.get(i).is_some_and(|l| l.generation == g));
            if submitted.lane.is_none() || current.is_some() {
                done.push((current.map(|(i, _)| i), submitted.steps, ms, submitted.estimated_ms));
            }
        }
        if !self.timestamps_measure_work {
            self.measured(done);
        }
        Ok(())
    }

    /// Takes what steps cost, each `(lane or all lanes, steps, milliseconds, sync by time's
    /// estimate)`: sync by pass averages a lane's step over the batch; sync by time corrects
    /// what each lane owes.
    fn measured(&mut self, costs: Vec<(Option<usize>, u32, f64, Option<f64>)>) {
        let (ms, steps) = costs.iter().fold((0.0, 0), |(ms, steps), c| (ms + c.2, steps + c.1));
        if steps > 0 && self.sync == LaneSync::ByStep {
            self.ms_per_step = Some(ms / f64::from(steps));
        }
        for (lane, steps, ms, estimated) in costs {
            let Some(index) = lane else { continue };
            if steps > 0 {
                self.lanes[index].ms_per_pass = Some(ms / f64::from(steps));
            }
            if self.sync == LaneSync::ByTime {
                self.correct_owed(index, ms, estimated);
            }
        }
    }

    /// Sync by pass: the lanes go up to `n` steps beyond the one furthest on, those behind
    /// first, within what the frame affords of all lanes together (see
    /// [`lane_plan::plan_steps`]), in one submission whose counts come back to a later frame.
    fn advance_by_pass(&mut self, n: u32) -> Result<(), GpuError> {
        let batch = if self.pace == Pace::Gpu { MAX_BATCH } else { self.affordable() };
        let standing: Vec<(u32, u32)> =
            self.lanes.iter().map(|l| (l.run.steps_done(), l.run.ledger().room(u32::MAX))).collect();
        let plan = lane_plan::plan_steps(&standing, n, batch);
        if plan.iter().all(|&steps| steps == 0) {
            return Ok(());
        }
        let mut encoder = self
            .gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("lanes::advance") });
        for (index, &steps) in plan.iter().enumerate() {
            self.encode_lane(index, &mut encoder, steps, Timing::Timed(None));
        }
        self.submit(encoder, None, plan.iter().sum(), None);
        Ok(())
    }

    /// Submits steps (of `lane` and its run, or of every lane) with their read-backs; where
    /// timestamps do not measure the work, watches the submission until it is done.
    pub(super) fn submit(
        &mut self,
        encoder: wgpu::CommandEncoder,
        lane: Option<(usize, u32)>,
        steps: u32,
        estimated_ms: Option<f64>,
    ) {
        self.gpu.queue.submit([encoder.finish()]);
        self.readbacks.submitted();
        let now = Instant::now();
        if !self.timestamps_measure_work {
            self.completions.watch(&self.gpu, Submitted { lane, steps, at: now, estimated_ms });
        }
        if lane.is_none_or(|(index, _)| index == 0) {
            if let Some((at, steps)) = self.submitted {
                // Wall time per pass as the lanes go: since the last submission, over a lane's
                // share of its steps (by time, the first lane's).
                let per_lane = if lane.is_some() { 1.0 } else { self.lanes.len().max(1) as f64 };
                self.wall_ms_per_pass =
                    Some(now.duration_since(at).as_secs_f64() * 1e3 * per_lane / f64::from(steps.max(1)));
            }
            self.submitted = Some((now, steps));
        }
    }
}

impl Lanes {
    /// The lanes that set the pace: all of them by pass, the first by time.
    fn pacing(&self) -> &[Lane] {
        match self.sync {
            LaneSync::ByStep => &self.lanes,
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

    /// Takes up to `n` steps in one frame's submissions, none while the last ones' counts,
    /// timings or end have not come back (the GPU is behind).
    fn advance(&mut self, n: u32) {
        if self.error.is_some() {
            return;
        }
        let advanced = self.take_ready_counts().and_then(|()| {
            if self.counts_pending() {
                return Ok(());
            }
            match self.sync {
                LaneSync::ByStep => self.advance_by_pass(n),
                LaneSync::ByTime => self.advance_by_time(n),
            }
        });
        if let Err(e) = advanced {
            self.error = Some(e);
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
