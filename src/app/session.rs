//! The picture's session, the app's model: what is sorted and how (the picture, the choice,
//! the lines, the intervals and the mask), the lanes started over for new settings and stepped
//! by the player. It reports through the status line and knows nothing of the views.

use super::interval_refresh::{IntervalInputs, RefreshThrottle};
use super::lanes::{LaneSync, Lanes, Pace};
use super::panel_model::Status;
use super::window_mask::WindowMask;
use crate::algorithms::Algorithm;
use crate::angle::{Lines, Route};
use crate::controls::choice::SortChoice;
use crate::controls::explain;
use crate::controls::lane_plan::lane_kinds;
use crate::controls::player::{Player, Stepper};
use crate::engine::Engine;
use crate::intervals::{IntervalMap, IntervalSettings};
use crate::keys::options::{Axis, SortOptions};
use crate::picture::input::Picture;

/// The picture and how it is being sorted.
pub(super) struct Session {
    pub(super) picture: Picture,
    /// The algorithm, key, order, route, the algorithm's settings and the side-by-side view,
    /// as the panel and the commands choose them (its route is the laid-out lines').
    pub(super) choice: SortChoice,
    /// The lines sorted along: straight lines or a path laid through the picture.
    pub(super) lines: Lines,
    pub(super) lanes: Lanes,
    pub(super) player: Player,
    /// The picture's size before it was fitted to the size limit (masks must have it).
    pub(super) source_size: (u32, u32),
    /// How the lines are cut into intervals (the panel's interval controls).
    pub(super) intervals: IntervalSettings,
    /// The loaded mask, if any.
    pub(super) mask: Option<WindowMask>,
    /// Masks loaded so far, to number the next.
    pub(super) masks_loaded: u64,
    /// The intervals the lanes sort within (`None`: whole lines), and what they were made from.
    pub(super) interval_map: Option<IntervalMap>,
    pub(super) intervals_made_from: IntervalInputs,
    /// How many interval maps have been made, so the views redraw theirs when it changes.
    pub(super) intervals_made: u64,
    pub(super) throttle: RefreshThrottle,
    /// An angle dragged in the panel and not yet laid out, and how often lay-outs may run.
    pub(super) pending_route: Option<Route>,
    pub(super) route_throttle: RefreshThrottle,
    /// Whether the intervals are drawn over the pictures.
    pub(super) show_intervals: bool,
    /// The step last written to the log.
    pub(super) reported_step: Option<u32>,
    /// The largest texture side, which line space must fit.
    pub(super) max_side: u32,
}

impl Session {
    /// Starts new lanes for the current picture and settings, at step 0, within intervals
    /// computed anew; `to_end` (a clip's or a live source's frame) sorts them to the end.
    pub(super) fn restart_lanes(&mut self, engine: &Engine, to_end: bool, status: &mut Status) {
        self.fit_lines_to_picture(status);
        self.recompute_intervals(status);
        let c = &self.choice;
        let kinds = lane_kinds(c.algorithm, c.settings, c.compare, c.sync);
        let options = self.options();
        self.lanes = Lanes::start(
            engine,
            &self.picture.pixels,
            &self.lines,
            options,
            &kinds,
            self.interval_map.as_ref(),
        );
        self.lanes.sync = self.choice.sync;
        self.player.stop();
        if to_end {
            self.lanes.run_to_end();
        }
    }

    /// Plays `seconds` more of the player within the frame's budget: when it heads for a step
    /// more than one away nothing is shown in between, so the lanes go at the GPU's speed. A GPU
    /// failure stops the player and is reported.
    pub(super) fn step(&mut self, seconds: f64, status: &mut Status) {
        let lanes = &mut self.lanes;
        lanes.take_counts();
        let jumping = self.player.target().is_some_and(|t| t > lanes.steps_done().saturating_add(1));
        lanes.pace = if jumping { Pace::Gpu } else { Pace::Frame };
        let budget = lanes.frame_budget();
        self.player.tick(seconds, budget, lanes);
        if let Some(e) = self.lanes.error.take() {
            self.player.stop();
            status.error(format!("the GPU failed: {e}"));
        }
        let done = self.lanes.steps_done();
        if self.reported_step != Some(done) {
            log::info!("{} {done}/{}", self.step_noun(), self.lanes.total_steps());
            self.reported_step = Some(done);
        }
    }

    /// What the status says after the choice changed: the algorithm, lines, key, order and
    /// view, and a lane's notice (what it sorts instead) if one has any.
    pub(super) fn describe_choice(&self) -> String {
        let c = &self.choice;
        let order = if c.descending { "largest first" } else { "smallest first" };
        let view = if c.compare {
            format!("side by side, sync {}", c.sync.name())
        } else if c.algorithm == Algorithm::Radix {
            let r = c.settings.radix;
            let stages = if r.sub_steps { ", scatter in stages" } else { "" };
            format!("{}-bit digits, scope {}{stages}", r.digit_bits, r.scope.name())
        } else {
            c.settings.pass_kind.name().to_string()
        };
        let notice = self.lanes.lanes.iter().find_map(|l| l.notice.as_deref()).map(|n| format!(". {n}"));
        format!(
            "{}, {} by {}, {order}; {view}{}",
            c.algorithm.title(),
            self.lines.route().name(),
            c.key,
            notice.unwrap_or_default()
        )
    }

    /// The lines `route` lays through the picture, or why the GPU cannot hold them.
    pub(super) fn lines_along(&self, route: Route) -> Result<Lines, crate::angle::LinesError> {
        Lines::of(route, self.picture.pixels.dimensions(), self.max_side)
    }

    /// Lays the lines out again when the picture has changed size (a path's default centre
    /// follows the middle); when they no longer fit it, sorts rows and says why.
    fn fit_lines_to_picture(&mut self, status: &mut Status) {
        let (route, size) = (self.lines.route(), self.picture.pixels.dimensions());
        if self.lines.are_of(route, size) {
            return;
        }
        let lines = self.lines_along(route).unwrap_or_else(|e| {
            status.error(format!("{e}; sorting rows"));
            Lines::Axis(Axis::Rows)
        });
        self.set_lines(lines);
    }

    /// What the counter counts: passes, the radix view's digit passes or scatter stages, or
    /// steps of several phases.
    pub(super) fn step_noun(&self) -> String {
        let c = &self.choice;
        if c.algorithm == Algorithm::OddEven || (c.compare && c.sync == LaneSync::ByStep) {
            "pass".into()
        } else if c.algorithm == Algorithm::Radix && !c.compare {
            c.algorithm.step_name(&c.settings)
        } else {
            "step".into()
        }
    }

    /// Key, order, and the axis the algorithms sort along (`lines.sorted_axis()`).
    pub(super) fn options(&self) -> SortOptions {
        let SortChoice { key, descending, .. } = self.choice;
        self.lines.sort_options(SortOptions { key, descending, ..SortOptions::default() })
    }

    /// Sorts along `lines` from now on (the lanes follow at their next start).
    pub(super) fn set_lines(&mut self, lines: Lines) {
        self.choice.route = lines.route();
        self.lines = lines;
    }

    /// Takes `choice` but its route (the lines are laid out by `Running::lay_out`, which may
    /// refuse one); the lanes follow at their next start.
    pub(super) fn choose(&mut self, choice: SortChoice) {
        self.choice = SortChoice { route: self.choice.route, ..choice };
    }

    /// The panel's sentences on what the algorithm does, with the first lane's numbers.
    pub(super) fn explanation(&self) -> String {
        let c = &self.choice;
        if c.compare {
            return format!(
                "Side by side: every algorithm and pass kind sorts the same picture, in step {}. Each picture is labelled with its algorithm, its step count and its GPU time per pass.",
                c.sync.name()
            );
        }
        let stats = self.lanes.lanes.first().map(|lane| lane.run.stats());
        explain::explain(&explain::Facts {
            algorithm: c.algorithm,
            settings: c.settings,
            steps: (self.lanes.steps_done(), self.lanes.total_steps()),
            line_len: self.lines_extent().1,
            last_moves: stats.as_ref().and_then(|s| s.last_step_swaps),
            sorted_after: stats.and_then(|s| s.sorted_after),
        })
    }

    /// What the first lane's last step and its run so far cost on the GPU, beside the analysis.
    pub(super) fn work_text(&self) -> String {
        let Some(lane) = self.lanes.lanes.first() else { return String::new() };
        let stats = lane.run.stats();
        crate::controls::work_text::work_text(&crate::controls::work_text::WorkFacts {
            algorithm: lane.algorithm,
            settings: lane.settings,
            steps: (lane.run.steps_done(), lane.run.total_steps()),
            lines: self.lines_extent(),
            last: stats.last_step_work,
            total: stats.total_work,
            gpu_ms_per_step: lane.gpu_ms_per_step,
        })
    }

    /// The lines sorted and the pixels in the longest: rows, columns, or the lines at the angle
    /// or along the path.
    fn lines_extent(&self) -> (u32, u32) {
        let (width, height) = self.picture.pixels.dimensions();
        match &self.lines {
            Lines::Axis(Axis::Rows) => (height, width),
            Lines::Axis(Axis::Columns) => (width, height),
            Lines::Laid(space) => (space.size().1, space.size().0),
        }
    }
}
