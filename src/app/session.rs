//! The picture's session: what is sorted and how (the lanes, their kinds, what the counter
//! counts), and the lanes started over for new settings.

use super::lanes::{LaneSync, Lanes};
use super::{Running, Session};
use crate::algorithms::Algorithm;
use crate::angle::Lines;
use crate::controls::choice::SortChoice;
use crate::controls::explain;
use crate::controls::lane_plan::lane_kinds;
use crate::controls::player::Stepper;
use crate::keys::options::{Axis, SortOptions};

impl Running {
    /// Starts new lanes for the current picture and settings, at pass 0 (a clip's frame: sorted
    /// to the end), within intervals computed anew.
    pub(super) fn restart_lanes(&mut self) {
        self.fit_lines_to_picture();
        self.recompute_intervals();
        let s = &self.session;
        let kinds = lane_kinds(s.choice.algorithm, s.choice.settings, s.choice.compare, s.choice.sync);
        self.session.lanes = Lanes::start(
            &self.engine,
            &s.picture.pixels,
            &s.lines,
            s.options(),
            &kinds,
            s.interval_map.as_ref(),
        );
        self.session.lanes.sync = self.session.choice.sync;
        self.session.player.stop();
        self.sort_frame_to_end();
    }
}

impl Session {
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
            line_len: self.longest_line(),
            last_moves: stats.as_ref().and_then(|s| s.last_step_swaps),
            sorted_after: stats.and_then(|s| s.sorted_after),
        })
    }

    /// Pixels in the longest line sorted: a row, a column, or the longest line at the angle.
    fn longest_line(&self) -> u32 {
        let (width, height) = self.picture.pixels.dimensions();
        match &self.lines {
            Lines::Axis(Axis::Rows) => width,
            Lines::Axis(Axis::Columns) => height,
            Lines::Laid(space) => space.size().0,
        }
    }
}
