//! The kernel each bubble step runs, for the shader panel and the step itself: one workgroup
//! a line, running the step's phases from its first.

use super::{BubbleParams, BubbleRun};
use crate::algorithms::interval_texture::intervals_constant;
use crate::algorithms::kernel_view::{Dispatch, Grid};

impl BubbleRun {
    /// The parameters of step `step`: its phases, from `step` times the phases of a step.
    pub(super) fn step_params(&self, step: u32) -> BubbleParams {
        let first_phase = step * self.phases_per_step;
        BubbleParams {
            key: self.options.key.id(),
            descending: self.options.descending.into(),
            axis: self.options.axis as u32,
            first_phase,
            phases: self.phases_per_step.min(self.line_phases.saturating_sub(first_phase)),
            line_phases: self.line_phases,
            pad: [0; 2],
        }
    }

    /// Step `step`'s kernel.
    pub(super) fn kernels(&self, step: u32) -> Vec<Dispatch> {
        let grid =
            Grid::Compute { workgroups: [self.line_count, 1, 1], workgroup_size: [self.workgroup, 1, 1] };
        let constants = constants(self.capacity, self.workgroup, self.intervals.enabled()).to_vec();
        vec![Dispatch::new(
            &self.compiled,
            "bubble",
            grid,
            &self.step_params(step),
            constants,
            step..step + 1,
        )]
    }
}

/// The pipeline's constants: the longest line, the workgroup's size, and whether it sorts
/// within intervals.
pub(super) fn constants(capacity: u32, workgroup: u32, with_intervals: bool) -> [(&'static str, f64); 3] {
    [
        ("ROW_CAPACITY", f64::from(capacity)),
        ("WORKGROUP", f64::from(workgroup)),
        intervals_constant(with_intervals),
    ]
}
