//! The sorting algorithms, each behind [`SortRun`]: what the window, the recorder and the tests drive.

pub mod bitonic;
pub mod bubble;
pub mod found_intervals;
pub mod gpu_mask;
pub mod interval_texture;
pub mod kernel_view;
pub mod lens_view;
pub mod map_source;
pub mod odd_even;
pub mod params_ring;
pub mod ping_pong;
pub mod radix;
pub mod request;
pub mod step_ledger;
pub mod swap_counters;
pub mod work;

use crate::gpu::Gpu;
use crate::intervals::IntervalMap;
use interval_texture::IntervalMapError;
use request::StartRequest;

/// Which algorithm sorts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(not(target_arch = "wasm32"), derive(clap::ValueEnum))]
pub enum Algorithm {
    /// Odd-even transposition: one global pass per step, two textures ping-ponged.
    #[default]
    OddEven,
    /// Single-workgroup bubble: each line sorted inside one workgroup's memory, a budget of
    /// phases per step (--phases-per-step), stopping when a phase pair made no swap.
    Bubble,
    /// LSD radix sort: one step per digit pass (--digit-bits), each a histogram, prefix sum
    /// and stable scatter; per line or of the whole picture (--scope).
    Radix,
    /// Bitonic network: one step per stage (merge 2^k, distance 2^j), each interval of each line
    /// sorted in workgroup memory where it fits; stable (ties keep their order).
    Bitonic,
}

impl Algorithm {
    /// Every algorithm, in the order the window numbers them (keys 1, 2, ...).
    pub const ALL: [Algorithm; 4] =
        [Algorithm::OddEven, Algorithm::Bubble, Algorithm::Radix, Algorithm::Bitonic];

    /// The algorithm when none is chosen: odd-even for a picture (the one to watch), bitonic
    /// for the frames of a clip or a live source (whose frames sorted to their end radix makes:
    /// `engine::plan::fastest_end`).
    pub fn default_for(frames: bool) -> Algorithm {
        if frames { Algorithm::Bitonic } else { Algorithm::default() }
    }

    /// The name shown in the window.
    pub fn title(self) -> &'static str {
        match self {
            Algorithm::OddEven => "Odd-even transposition",
            Algorithm::Bubble => "Single-workgroup bubble",
            Algorithm::Radix => "LSD radix",
            Algorithm::Bitonic => "Bitonic network",
        }
    }

    /// The name used on the command line and in file names.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::OddEven => "odd-even",
            Algorithm::Bubble => "bubble",
            Algorithm::Radix => "radix",
            Algorithm::Bitonic => "bitonic",
        }
    }
}

/// How a run is set up, besides key, order and axis; each algorithm uses what applies to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunSettings {
    /// Odd-even: compute or fragment passes.
    pub pass_kind: odd_even::PassKind,
    /// Bubble: phases per step (`u32::MAX`: the whole sort in one step).
    pub phases_per_step: u32,
    /// Radix: digit width, key bits, scope and sub-steps.
    pub radix: radix::RadixSettings,
}

impl Default for RunSettings {
    fn default() -> Self {
        RunSettings {
            pass_kind: odd_even::PassKind::Compute,
            phases_per_step: bubble::DEFAULT_PHASES_PER_STEP,
            radix: radix::RadixSettings::default(),
        }
    }
}

impl RunSettings {
    /// The settings a GIF recording of `algorithm` runs with: the radix view's staged scatters
    /// then mark waiting pixels by their palette index, so the recorder must quantize with
    /// dimmed twins (`RecordSettings::dimmed_twins` = `radix.twin_indices`).
    pub fn for_recording(self, algorithm: Algorithm) -> RunSettings {
        let twin_indices = algorithm == Algorithm::Radix && self.radix.sub_steps;
        RunSettings { radix: radix::RadixSettings { twin_indices, ..self.radix }, ..self }
    }
}

impl Algorithm {
    /// The pass kinds the algorithm can run with.
    pub fn pass_kinds(self) -> &'static [odd_even::PassKind] {
        match self {
            Algorithm::OddEven => &[odd_even::PassKind::Compute, odd_even::PassKind::Fragment],
            Algorithm::Bubble | Algorithm::Radix | Algorithm::Bitonic => &[odd_even::PassKind::Compute],
        }
    }

    /// What one step of the algorithm is, for labels: "pass", "4 phases".
    pub fn step_name(self, settings: &RunSettings) -> String {
        match self {
            Algorithm::OddEven => "pass".into(),
            Algorithm::Bubble if settings.phases_per_step == u32::MAX => "dispatch".into(),
            Algorithm::Bubble => format!("{} phases", settings.phases_per_step),
            Algorithm::Radix if settings.radix.sub_steps => "scatter stage".into(),
            Algorithm::Radix => "digit pass".into(),
            Algorithm::Bitonic => "stage".into(),
        }
    }

    /// Steps counted in words: "passes", "dispatches", "steps of 4 phases".
    pub fn steps_label(self, settings: &RunSettings) -> String {
        match self.step_name(settings).as_str() {
            "pass" => "passes".into(),
            "dispatch" => "dispatches".into(),
            "digit pass" => "digit passes".into(),
            "scatter stage" => "scatter stages".into(),
            "stage" => "stages".into(),
            phases => format!("steps of {phases}"),
        }
    }
}

impl Algorithm {
    /// What a step's counter counts: swaps, or for the radix view, pixels that moved.
    pub fn moves_name(self) -> &'static str {
        match self {
            Algorithm::OddEven | Algorithm::Bubble | Algorithm::Bitonic => "swaps",
            Algorithm::Radix => "pixels moved",
        }
    }
}

/// The pipelines of one algorithm, built once per device; starts runs of it.
pub enum Pipelines {
    /// Odd-even transposition.
    OddEven(odd_even::OddEven),
    /// Single-workgroup bubble.
    Bubble(bubble::Bubble),
    /// LSD radix.
    Radix(radix::Radix),
    /// Bitonic network.
    Bitonic(bitonic::Bitonic),
}

impl Pipelines {
    /// Builds the pipelines of `algorithm`.
    pub fn new(gpu: &Gpu, algorithm: Algorithm) -> Self {
        match algorithm {
            Algorithm::OddEven => Pipelines::OddEven(odd_even::OddEven::new(gpu)),
            Algorithm::Bubble => Pipelines::Bubble(bubble::Bubble::new(gpu)),
            Algorithm::Radix => Pipelines::Radix(radix::Radix::new(gpu)),
            Algorithm::Bitonic => Pipelines::Bitonic(bitonic::Bitonic::new(gpu)),
        }
    }

    /// Starts the run `request` asks for. Every algorithm ends in the same picture: each interval
    /// stably sorted, every other pixel in place (within intervals found on the GPU the steps may
    /// be more: the CPU does not know the longest interval). [`SortRun::restart_within`] later
    /// moves the same run to another map. Errors when the map is for another picture size or
    /// axis, or the algorithm cannot sort within it.
    pub fn start(&self, gpu: &Gpu, request: StartRequest<'_>) -> Result<Box<dyn SortRun>, IntervalMapError> {
        request.check()?;
        Ok(match self {
            Pipelines::OddEven(o) => Box::new(o.start(gpu, request)),
            Pipelines::Bubble(b) => b.start(gpu, request),
            Pipelines::Radix(r) => Box::new(r.start(gpu, request)?),
            Pipelines::Bitonic(b) => Box::new(b.start(gpu, request)),
        })
    }
}

impl Algorithm {
    /// Whether a run of this algorithm can sort within `intervals`, as
    /// [`Pipelines::start`] would find (so a caller can refuse before any GPU work).
    pub fn check_intervals(
        self,
        options: crate::keys::options::SortOptions,
        settings: &RunSettings,
        intervals: &IntervalMap,
    ) -> Result<(), IntervalMapError> {
        match self {
            Algorithm::OddEven | Algorithm::Bubble | Algorithm::Bitonic => Ok(()),
            Algorithm::Radix => settings.radix.key_within(options, Some(intervals)).map(|_| ()),
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
    /// The work of the most recent step whose counter has been read.
    pub last_step_work: Option<work::Work>,
    /// The work of all steps read so far.
    pub total_work: work::Work,
}

/// `Send` natively, so a run can be started on one thread and sorted on another (a clip's
/// frames are prepared on several); nothing in the browser, where GPU objects stay on the
/// page's thread.
#[cfg(not(target_arch = "wasm32"))]
pub trait MaybeSend: Send {}
#[cfg(not(target_arch = "wasm32"))]
impl<T: Send> MaybeSend for T {}
/// See the native [`MaybeSend`].
#[cfg(target_arch = "wasm32")]
pub trait MaybeSend {}
#[cfg(target_arch = "wasm32")]
impl<T> MaybeSend for T {}

/// One picture being sorted by one algorithm: its GPU state and how far it has got.
///
/// A step is the unit a viewer watches (one odd-even pass). Steps are encoded into a caller's
/// encoder. The GPU counts each step's swaps; those counts come back either blocking, through
/// a [`crate::engine::drive::Driver`], or without a stall, by encoding [`SortRun::encode_swap_copy`]
/// with the steps and handing the mapped bytes to [`SortRun::accept_swaps`] later. The run's
/// [`step_ledger::StepLedger`] keeps the count of steps encoded and read, and how many more
/// may be encoded before counts are taken.
pub trait SortRun: MaybeSend {
    /// The steps encoded and read, and what their counts say.
    fn ledger(&self) -> &step_ledger::StepLedger;
    /// [`SortRun::ledger`], to count steps encoded and read.
    fn ledger_mut(&mut self) -> &mut step_ledger::StepLedger;
    /// Steps after which the picture is sorted whatever its content.
    fn total_steps(&self) -> u32 {
        self.ledger().total()
    }
    /// Steps recorded so far.
    fn steps_done(&self) -> u32 {
        self.ledger().done()
    }
    /// Steps whose swap counts have been taken.
    fn steps_collected(&self) -> u32 {
        self.ledger().collected()
    }
    /// What the counts taken so far say.
    fn stats(&self) -> RunStats {
        self.ledger().stats()
    }
    /// Encodes up to `n` further steps (fewer at the end, or when counts are due); returns how many.
    fn encode_steps(&mut self, encoder: &mut wgpu::CommandEncoder, n: u32) -> u32 {
        let n = self.ledger().room(n);
        if n > 0 {
            let first = self.ledger_mut().count_encoded(n);
            self.encode_from(encoder, first, n);
        }
        n
    }
    /// Encodes steps `first..first + n`, already counted as encoded (see [`SortRun::encode_steps`]).
    fn encode_from(&mut self, encoder: &mut wgpu::CommandEncoder, first: u32, n: u32);
    /// Encodes the state after the last step at once, where the run can make it without the
    /// steps before it (the radix view's steps on the crate's sorts each sort the input anew):
    /// every step then counts as done, the counts of those skipped unknown, so only a sort
    /// that reads no counts asks ([`Driver::submit_to`](crate::engine::drive::Driver::submit_to)).
    /// Returns whether it could.
    fn encode_to_end(&mut self, _encoder: &mut wgpu::CommandEncoder) -> bool {
        false
    }
    /// The ring of per-step counters the GPU counts swaps (or moves) into.
    fn counters(&self) -> &swap_counters::SwapCounters;
    /// Bytes that [`SortRun::encode_swap_copy`] writes for `n` steps.
    fn swap_readback_size(&self, n: u32) -> u64 {
        self.counters().copy_size(n)
    }
    /// Encodes a copy of the swap counts of steps `first..first + n` into `staging` at `offset`.
    fn encode_swap_copy(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        first: u32,
        n: u32,
        staging: &wgpu::Buffer,
        offset: u64,
    ) {
        self.counters().encode_copy(encoder, first, n, staging, offset);
    }
    /// Takes the counts of the steps that follow [`SortRun::steps_collected`], as copied by
    /// [`SortRun::encode_swap_copy`].
    fn accept_swaps(&mut self, bytes: &[u8]);
    /// Whether the counts can show the picture sorted before [`SortRun::total_steps`] (a
    /// step without a swap); a sorting network cannot, so its steps are best recorded at once.
    fn detects_sorted_early(&self) -> bool {
        true
    }
    /// The texture holding the state after [`SortRun::steps_done`] steps.
    fn state(&self) -> &wgpu::Texture;
    /// Encodes a return to the input picture, step 0.
    fn restart(&mut self, encoder: &mut wgpu::CommandEncoder);
    /// Encodes a return to the input picture, step 0, sorting within `intervals` from now on
    /// (every line whole with `None`): one upload of the map, no new pipelines or pictures, so
    /// a new threshold is cheap. [`SortRun::total_steps`] follows the map. The map reaches
    /// every step submitted after this call; on an error the run is left as it was.
    fn restart_within(
        &mut self,
        gpu: &Gpu,
        encoder: &mut wgpu::CommandEncoder,
        intervals: Option<&IntervalMap>,
    ) -> Result<(), IntervalMapError> {
        self.set_intervals(gpu, intervals)?;
        self.restart(encoder);
        Ok(())
    }
    /// The part of [`SortRun::restart_within`] before the restart: checks `intervals` and sorts
    /// within them after it (only `restart_within` calls it).
    fn set_intervals(&mut self, gpu: &Gpu, intervals: Option<&IntervalMap>) -> Result<(), IntervalMapError>;
    /// Something the user should know about this run (for example that it stands in for
    /// another algorithm), if anything.
    fn notice(&self) -> Option<&str> {
        None
    }
    /// The GPU state the row lens reads (`src/lens/`): the run's own textures and buffers.
    fn lens_view(&self) -> lens_view::LensView<'_>;
    /// The kernels that step `step` (counting from 0) runs or ran, in order, with their
    /// uniforms; empty where the run cannot say (the crate's own sorts are named by the
    /// dispatches around them).
    fn kernels_of_step(&self, _step: u32) -> Vec<kernel_view::Dispatch> {
        Vec::new()
    }
}
