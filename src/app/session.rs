//! The picture's session: what is sorted and how (the lanes, their kinds, what the counter
//! counts), and the lanes started over for new settings.

use super::lanes::{LaneSync, Lanes};
use super::{Running, Session};
use crate::algorithms::{Algorithm, RunSettings};
use crate::angle::Lines;

impl Running {
    /// Starts new lanes for the current picture and settings, at pass 0, within runs computed
    /// anew.
    pub(super) fn restart_lanes(&mut self) {
        self.free_lane_textures();
        self.fit_lines_to_picture();
        self.recompute_runs();
        let s = &self.session;
        let kinds = lane_kinds(s.algorithm, s.settings(), s.compare, s.sync);
        self.session.lanes = Lanes::start(
            &self.gpu,
            &self.pipelines,
            &self.scatter,
            &self.display,
            &s.picture.pixels,
            &s.lines,
            s.options,
            &kinds,
            s.runs.as_ref(),
        );
        self.session.lanes.sync = self.session.sync;
        self.session.player.stop();
        self.register_lane_textures();
    }
}

/// The lanes to show: the chosen algorithm and pass kind, or every combination side by side.
pub(super) fn lane_kinds(
    algorithm: Algorithm,
    settings: RunSettings,
    compare: bool,
    sync: LaneSync,
) -> Vec<(Algorithm, RunSettings)> {
    if compare {
        // In step by pass, every lane's step is one pass: one phase for the bubble sort.
        let settings = match sync {
            LaneSync::ByPass => RunSettings { phases_per_step: 1, ..settings },
            LaneSync::ByTime => settings,
        };
        Algorithm::ALL
            .into_iter()
            .flat_map(|a| {
                a.pass_kinds().iter().map(move |&pass_kind| (a, RunSettings { pass_kind, ..settings }))
            })
            .collect()
    } else {
        vec![(algorithm, settings)]
    }
}

impl Session {
    /// What the counter counts: passes, the radix view's digit passes or scatter stages, or
    /// steps of several phases.
    pub(super) fn step_noun(&self) -> String {
        if self.algorithm == Algorithm::OddEven || (self.compare && self.sync == LaneSync::ByPass) {
            "pass".into()
        } else if self.algorithm == Algorithm::Radix && !self.compare {
            self.algorithm.step_name(&self.settings())
        } else {
            "step".into()
        }
    }

    /// Sorts along `lines` from now on (the lanes follow at their next start).
    pub(super) fn set_lines(&mut self, lines: Lines) {
        self.options = lines.sort_options(self.options);
        self.lines = lines;
    }

    /// Pass kind, phases per step and radix settings.
    pub(super) fn settings(&self) -> RunSettings {
        RunSettings { pass_kind: self.pass_kind, phases_per_step: self.phases_per_step, radix: self.radix }
    }
}
