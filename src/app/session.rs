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
use crate::keys::options::Axis;

impl Running {
    /// Starts new lanes for the current picture and settings, at pass 0 (a clip's frame: sorted
    /// to the end), within intervals computed anew.
    pub(super) fn restart_lanes(&mut self) {
        self.fit_lines_to_picture();
        self.recompute_intervals();
        let s = &self.session;
        let kinds = lane_kinds(s.algorithm, s.run, s.compare, s.sync);
        self.session.lanes = Lanes::start(
            &self.engine,
            &s.picture.pixels,
            &s.lines,
            s.options,
            &kinds,
            s.interval_map.as_ref(),
        );
        self.session.lanes.sync = self.session.sync;
        self.session.player.stop();
        self.sort_frame_to_end();
    }
}

impl Session {
    /// What the counter counts: passes, the radix view's digit passes or scatter stages, or
    /// steps of several phases.
    pub(super) fn step_noun(&self) -> String {
        if self.algorithm == Algorithm::OddEven || (self.compare && self.sync == LaneSync::ByStep) {
            "pass".into()
        } else if self.algorithm == Algorithm::Radix && !self.compare {
            self.algorithm.step_name(&self.run)
        } else {
            "step".into()
        }
    }

    /// Sorts along `lines` from now on (the lanes follow at their next start).
    pub(super) fn set_lines(&mut self, lines: Lines) {
        self.options = lines.sort_options(self.options);
        self.lines = lines;
    }

    /// What is sorted and how, as the commands that change it see it.
    pub(super) fn choice(&self) -> SortChoice {
        SortChoice {
            algorithm: self.algorithm,
            key: self.options.key,
            descending: self.options.descending,
            route: self.lines.route(),
            settings: self.run,
            compare: self.compare,
            sync: self.sync,
        }
    }

    /// Takes `choice` but its route (the lines are laid out by `Running::lay_out`, which may
    /// refuse one); the lanes follow at their next start.
    pub(super) fn choose(&mut self, choice: SortChoice) {
        self.algorithm = choice.algorithm;
        self.options.key = choice.key;
        self.options.descending = choice.descending;
        self.run = choice.settings;
        self.compare = choice.compare;
        self.sync = choice.sync;
    }

    /// The panel's sentences on what the algorithm does, with the first lane's numbers.
    pub(super) fn explanation(&self) -> String {
        if self.compare {
            return format!(
                "Side by side: every algorithm and pass kind sorts the same picture, in step {}. Each picture is labelled with its algorithm, its step count and its GPU time per pass.",
                self.sync.name()
            );
        }
        let stats = self.lanes.lanes.first().map(|lane| lane.run.stats());
        explain::explain(&explain::Facts {
            algorithm: self.algorithm,
            settings: self.run,
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
