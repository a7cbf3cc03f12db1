//! The kernel each bubble step runs, for the shader panel and the step itself, and the work it
//! costs: one workgroup a line, running the step's phases from its first.

use super::{BubbleParams, BubbleRun};
use crate::algorithms::interval_texture::intervals_constant;
use crate::algorithms::kernel_view::{Dispatch, Grid};
use crate::algorithms::work::{Work, neighbour_pairs};

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

impl BubbleRun {
    /// The work of step `step` besides its swaps, from the phases its lines ran: `phases` in
    /// all, and `odd` lines that ran an odd number (each line stops early on its own). A
    /// workgroup loads its line and stores it once; a phase compares its pairs once each; a
    /// workgroup passes a barrier after loading, four for each pair of phases (after each phase,
    /// after adding the pair's swaps, and `workgroupUniformLoad`'s) and one after a lone phase.
    pub(super) fn work(&self, step: u32, (phases, odd): (u32, u32)) -> Work {
        let first = self.step_params(step).first_phase;
        let (phases, odd, lines) = (u64::from(phases), u64::from(odd), u64::from(self.line_count));
        let pairs_of_phases = (phases - odd) / 2;
        let both = neighbour_pairs(0, self.line_len) + neighbour_pairs(1, self.line_len);
        // A lone phase has the parity of the line's first (its phases before it came in pairs).
        let comparisons = pairs_of_phases * both + odd * neighbour_pairs(first, self.line_len);
        let pixels = lines * u64::from(self.line_len);
        Work::of(comparisons, (pixels, pixels), lines + 4 * pairs_of_phases + odd)
    }
}
