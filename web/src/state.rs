//! What the page is showing and how: the picture, the chosen algorithm and settings, the lanes
//! and the player. Settings and commands change it between frames ([`State::apply`]); each
//! frame steps the lanes as the player says and awaits what it needs to show
//! ([`State::frame`]).

use crate::lanes::Lanes;
use image::RgbaImage;
use shadersort::algorithms::odd_even::PassKind;
use shadersort::algorithms::{Algorithm, Pipelines, RunSettings};
use shadersort::angle::scatter::LineScatter;
use shadersort::angle::{Angle, Lines};
use shadersort::controls::commands::Command;
use shadersort::controls::direction::{TURN_DEGREES, direction_name, toggled_axis};
use shadersort::controls::explain::{self, thousands};
use shadersort::controls::lane_plan::{LaneSync, lane_kinds};
use shadersort::controls::player::{Player, Stepper};
use shadersort::gpu::{Gpu, GpuError};
use shadersort::intervals::{IntervalMap, IntervalMode, IntervalSettings, Threshold};
use shadersort::keys::SortKey;
use shadersort::keys::options::{Axis, Scope, SortOptions};
use shadersort::keys::radix_key::{DIGIT_BITS, next_digit_bits};
use shadersort::picture::input::Picture;
use std::rc::Rc;

/// Most steps one frame runs, whatever the speed: keeps a frame short on a slow GPU.
const STEPS_PER_FRAME: u32 = 64;

/// A change the page asks for, applied before the next frame.
#[derive(Clone, Debug)]
pub enum Input {
    /// A command of the shared table (a key, or a button named after it).
    Command(Command),
    /// Sort this picture from now on.
    Picture(Picture),
    /// Sort by this key.
    Key(SortKey),
    /// Largest key first.
    Descending(bool),
    /// Sort along lines at this angle, in degrees.
    Angle(f64),
    /// Odd-even: compute or fragment passes.
    PassKind(PassKind),
    /// Bubble: phases per step.
    PhasesPerStep(u32),
    /// Radix: bits per digit.
    DigitBits(u32),
    /// Radix: each line, or the whole picture.
    Scope(Scope),
    /// Radix: each scatter in stages.
    SubSteps(bool),
    /// Which intervals of each line are sorted.
    IntervalMode(IntervalMode),
    /// Threshold intervals: the range of the key that is sorted.
    Threshold(f64, f64),
    /// Passes per second while playing.
    Speed(f64),
    /// Every algorithm side by side, or the chosen one.
    Compare(bool),
}

/// The page's state.
pub struct State {
    gpu: Rc<Gpu>,
    pipelines: Vec<(Algorithm, Pipelines)>,
    scatter: LineScatter,
    /// The picture sorted.
    pub picture: Picture,
    /// The chosen algorithm.
    pub algorithm: Algorithm,
    /// Pass kind, phases per step and radix settings.
    pub settings: RunSettings,
    /// Key and order (the axis follows the angle).
    pub options: SortOptions,
    /// The sort direction.
    pub angle: Angle,
    /// The lines the lanes sort along.
    pub lines: Lines,
    /// How intervals are cut.
    pub intervals: IntervalSettings,
    /// The intervals of the current picture, `None` for whole lines.
    pub interval_map: Option<IntervalMap>,
    /// Every algorithm side by side.
    pub compare: bool,
    /// What is shown.
    pub lanes: Lanes,
    /// Play state and speed.
    pub player: Player,
    /// The last thing the page should say (an error or a notice).
    pub message: String,
    /// The lanes must start again before the next frame (settings changed).
    stale: bool,
}

impl State {
    /// The state for `picture` with the default settings, every algorithm's pipelines built.
    pub fn new(gpu: Rc<Gpu>, picture: Picture) -> State {
        let pipelines = Algorithm::ALL.into_iter().map(|a| (a, Pipelines::new(&gpu, a))).collect();
        let scatter = LineScatter::new(&gpu);
        let lines = Lines::Axis(Axis::Rows);
        let lanes =
            Lanes::start(&gpu, &[], &scatter, &picture.pixels, &lines, SortOptions::default(), &[], None);
        let mut state = State {
            gpu,
            pipelines,
            scatter,
            picture,
            algorithm: Algorithm::OddEven,
            settings: RunSettings::default(),
            options: SortOptions::default(),
            angle: Angle::ROWS,
            lines,
            intervals: IntervalSettings::default(),
            interval_map: None,
            compare: false,
            lanes,
            player: Player::default(),
            message: String::new(),
            stale: true,
        };
        state.restart_lanes();
        state
    }

    /// The device.
    pub fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    /// The pipelines of `algorithm`.
    pub fn pipelines(&self, algorithm: Algorithm) -> &Pipelines {
        &self.pipelines.iter().find(|(a, _)| *a == algorithm).expect("every algorithm").1
    }

    /// What draws lines at an angle back into the picture.
    pub fn scatter(&self) -> &LineScatter {
        &self.scatter
    }

    /// Applies one change; settings that change what is sorted start the lanes again at the
    /// next frame.
    pub fn apply(&mut self, input: Input) {
        if let Input::Command(command) = input
            && command.moves_player()
        {
            if self.stale {
                self.restart_lanes();
            }
            self.player.apply(command, &mut self.lanes);
            return;
        }
        let before = self.what_is_sorted();
        match input {
            Input::Command(command) => self.command(command),
            Input::Picture(picture) => {
                self.picture = picture;
                self.stale = true;
            }
            Input::Key(key) => self.options.key = key,
            Input::Descending(descending) => self.options.descending = descending,
            Input::Angle(degrees) => match Angle::new(degrees) {
                Ok(angle) => self.angle = angle,
                Err(e) => self.message = e,
            },
            Input::PassKind(kind) => self.settings.pass_kind = kind,
            Input::PhasesPerStep(n) => self.settings.phases_per_step = n.max(1),
            Input::DigitBits(bits) if DIGIT_BITS.contains(&bits) => self.settings.radix.digit_bits = bits,
            Input::DigitBits(bits) => self.message = format!("{bits}-bit digits: use 1, 2, 4 or 8"),
            Input::Scope(scope) => self.settings.radix.scope = scope,
            Input::SubSteps(on) => self.settings.radix.sub_steps = on,
            Input::IntervalMode(mode) => self.intervals.mode = mode,
            Input::Threshold(lo, hi) => match Threshold::new(lo, hi) {
                Ok(threshold) => self.intervals.threshold = threshold,
                Err(e) => self.message = e,
            },
            Input::Speed(passes_per_second) => self.player.set_speed(passes_per_second),
            Input::Compare(on) => self.compare = on,
        }
        if self.what_is_sorted() != before {
            self.stale = true;
        }
    }

    /// Everything a lane's start depends on but the picture.
    fn what_is_sorted(&self) -> (Algorithm, RunSettings, SortKey, bool, Angle, IntervalSettings, bool) {
        let o = self.options;
        (
            self.algorithm,
            self.settings,
            o.key,
            o.descending,
            self.angle,
            self.intervals.relevant(),
            self.compare,
        )
    }

    /// A command of the shared table that changes what is sorted; the player's come to
    /// [`State::apply`], and those the page handles itself (open, record, save, help, zoom)
    /// never come here.
    fn command(&mut self, command: Command) {
        match command {
            Command::ChooseAlgorithm(algorithm) => self.algorithm = algorithm,
            Command::CycleKey => self.options.key = self.options.key.next(),
            Command::ToggleReverse => self.options.descending = !self.options.descending,
            Command::ToggleAxis => self.angle = toggled_axis(self.angle),
            Command::TurnClockwise => self.angle = self.angle.turned(TURN_DEGREES),
            Command::TurnCounterclockwise => self.angle = self.angle.turned(-TURN_DEGREES),
            Command::TogglePassKind => self.settings.pass_kind = self.settings.pass_kind.toggled(),
            Command::CycleDigitBits => {
                self.settings.radix.digit_bits = next_digit_bits(self.settings.radix.digit_bits)
            }
            Command::ToggleScope => {
                self.settings.radix.scope = match self.settings.radix.scope {
                    Scope::Rows => Scope::Image,
                    Scope::Image => Scope::Rows,
                }
            }
            Command::ToggleSubSteps => self.settings.radix.sub_steps = !self.settings.radix.sub_steps,
            Command::CycleIntervalMode => self.intervals.mode = self.intervals.mode.next(),
            Command::ToggleCompare => self.compare = !self.compare,
            _ => {}
        }
    }

    /// Starts the lanes again for the current picture and settings, at step 0.
    fn restart_lanes(&mut self) {
        let size = self.picture.pixels.dimensions();
        if !self.lines.are(self.angle, size) {
            let max_side = self.gpu.device.limits().max_texture_dimension_2d;
            self.lines = Lines::new(self.angle, size, max_side).unwrap_or_else(|e| {
                self.message = format!("{e}; sorting rows");
                Lines::Axis(Axis::Rows)
            });
        }
        self.options = self.lines.sort_options(self.options);
        self.interval_map =
            self.lines.intervals(&self.picture.pixels, &self.intervals, None).unwrap_or_else(|e| {
                self.message = e.to_string();
                None
            });
        let kinds = lane_kinds(self.algorithm, self.settings, self.compare, LaneSync::ByPass);
        self.lanes = Lanes::start(
            &self.gpu,
            &self.pipelines,
            &self.scatter,
            &self.picture.pixels,
            &self.lines,
            self.options,
            &kinds,
            self.interval_map.as_ref(),
        );
        if let Some(notice) = self.lanes.lanes.iter().find_map(|l| l.notice.clone()) {
            self.message = notice;
        }
        self.player.stop();
        self.stale = false;
    }

    /// One frame `seconds` after the last: starts the lanes again if settings changed, steps
    /// them as the player says, takes their swap counts and reads back the pictures that
    /// changed. Returns whether a picture changed.
    pub async fn frame(&mut self, seconds: f64) -> Result<bool, GpuError> {
        let restarted = self.stale;
        if self.stale {
            self.restart_lanes();
        }
        self.player.tick(seconds, STEPS_PER_FRAME, &mut self.lanes);
        let changed = self.lanes.settle().await?;
        Ok(changed || restarted)
    }

    /// Whether the next frame has work: the lanes to start again, or steps due.
    pub fn busy(&self) -> bool {
        self.stale || self.player.busy()
    }

    /// The status block: step k of n, the last step's swaps, the sorted mark.
    pub fn status(&self) -> String {
        let noun = if self.compare { "pass".to_string() } else { self.algorithm.step_name(&self.settings) };
        let (done, total) = (self.lanes.steps_done(), self.lanes.total_steps());
        let mut status = format!("{noun} {done} of {total}");
        if let Some(first) = self.lanes.lanes.first() {
            let stats = first.run.stats();
            if let Some(n) = stats.last_step_swaps {
                status += &format!(
                    " · {} {} in the last step",
                    thousands(u64::from(n)),
                    self.algorithm.moves_name()
                );
            }
            if let Some(k) = stats.sorted_after {
                status += &format!(" · sorted after {k}");
            }
        }
        let play = if self.player.playing() { "playing" } else { "paused" };
        status + &format!(" · {play} at {} per second", self.player.speed())
    }

    /// The sentences on what the algorithm does, with the current numbers.
    pub fn explanation(&self) -> String {
        if self.compare {
            return "Side by side: every algorithm and pass kind sorts the same picture, one pass each per step."
                .into();
        }
        let stats = self.lanes.lanes.first().map(|lane| lane.run.stats());
        let (width, height) = self.picture.pixels.dimensions();
        let line_len = match &self.lines {
            Lines::Axis(Axis::Rows) => width,
            Lines::Axis(Axis::Columns) => height,
            Lines::Angled(space) => space.size().0,
        };
        explain::explain(&explain::Facts {
            algorithm: self.algorithm,
            settings: self.settings,
            steps: (self.lanes.steps_done(), self.lanes.total_steps()),
            line_len,
            last_moves: stats.as_ref().and_then(|s| s.last_step_swaps),
            sorted_after: stats.and_then(|s| s.sorted_after),
        })
    }

    /// The settings as the panel shows them, one `name=value` per line.
    pub fn settings_text(&self) -> String {
        let r = self.settings.radix;
        [
            format!("algorithm={}", self.algorithm.name()),
            format!("key={}", self.options.key.name()),
            format!("descending={}", self.options.descending),
            format!("angle={}", self.angle.degrees()),
            format!("direction={}", direction_name(self.angle)),
            format!("pass_kind={}", self.settings.pass_kind.name()),
            format!("phases_per_step={}", self.settings.phases_per_step),
            format!("digit_bits={}", r.digit_bits),
            format!("scope={}", if r.scope == Scope::Image { "image" } else { "rows" }),
            format!("sub_steps={}", r.sub_steps),
            format!("intervals={}", self.intervals.mode.name()),
            format!("threshold={}..{}", self.intervals.threshold.lo(), self.intervals.threshold.hi()),
            format!("compare={}", self.compare),
            format!("speed={}", self.player.speed()),
        ]
        .join("\n")
    }

    /// The sorted picture's state of lane `i` as last read back.
    pub fn lane_picture(&self, i: usize) -> Option<&RgbaImage> {
        self.lanes.lanes.get(i).and_then(|l| l.shown.as_ref())
    }
}
