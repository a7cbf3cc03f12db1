//! Which kernel a bitonic dispatch runs and with what, for the dispatch itself and the shader
//! panel: the stages from a step that stay within a block run together in `sort_lines` or
//! `sort_blocks`; a stage that reaches further runs alone in `global_stage`.

use super::{BitonicRun, GLOBAL_WORKGROUP};
use crate::algorithms::bitonic::layout::{BitonicParams, bits_of};
use crate::algorithms::bitonic::stage::Stage;
use crate::algorithms::kernel_view::{Dispatch, Grid};

/// The bitonic program's kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum UnitKernel {
    /// `sort_lines`: whole lines held in registers.
    Lines,
    /// `sort_blocks`: units of a block in workgroup memory.
    Blocks,
    /// `global_stage`: one stage over whole lines.
    Global,
}

/// One dispatch planned.
pub(super) struct Planned {
    pub(super) kernel: UnitKernel,
    pub(super) params: BitonicParams,
    pub(super) workgroups: [u32; 3],
}

impl BitonicRun {
    /// The dispatch from step `first` with room for `budget` steps: its kernel, parameters
    /// (`stages` says how many steps it runs) and workgroups.
    pub(super) fn plan_dispatch(&self, first: u32, budget: u32) -> Planned {
        let block = self.block().block;
        let stage = Stage::at(first);
        let local = stage.fits_block(block);
        let stages = if local {
            (first..first + budget).take_while(|&s| Stage::at(s).fits_block(block)).count() as u32
        } else {
            1
        };
        let groups_x = self.unit_count.clamp(1, self.max_groups);
        let params = BitonicParams {
            key: self.options.key.id(),
            descending: self.options.descending.into(),
            axis: self.options.axis as u32,
            line_len: self.line_len,
            stages,
            merge: stage.merge,
            distance: stage.distance,
            load_origins: u32::from(first > 0),
            store_origins: u32::from(first + stages < self.ledger.total()),
            has_intervals: u32::from(self.intervals.enabled()),
            origin_bits: bits_of(self.line_len.saturating_sub(1)),
            key_max: self.options.key.max_value(),
            groups_x,
            unit_count: self.unit_count,
            pad: [0; 2],
        };
        // Whole lines without intervals are one unit each: `sort_lines` takes them if it can.
        let whole_lines = !self.intervals.enabled() && block >= self.line_len;
        let (kernel, workgroups) = match (local, &self.lines) {
            (true, Some(_)) if whole_lines => {
                (UnitKernel::Lines, [groups_x, self.unit_count.div_ceil(groups_x), 1])
            }
            (true, _) => (UnitKernel::Blocks, [groups_x, self.unit_count.div_ceil(groups_x), 1]),
            (false, _) => {
                (UnitKernel::Global, [self.line_len.div_ceil(GLOBAL_WORKGROUP), self.line_count, 1])
            }
        };
        Planned { kernel, params, workgroups }
    }

    /// The dispatch that ran step `step`, or, not run yet, the one a step alone would run.
    pub(super) fn kernels(&self, step: u32) -> Vec<Dispatch> {
        let (first, stages) = self
            .dispatch_log
            .iter()
            .copied()
            .find(|&(first, stages)| (first..first + stages).contains(&step))
            .unwrap_or((step, 1));
        let planned = self.plan_dispatch(first, stages);
        let (entry, workgroup, constants) = match planned.kernel {
            UnitKernel::Lines => {
                let lines = self.lines.as_ref().expect("planned where there is one");
                ("sort_lines", lines.workgroup, lines.constants.clone())
            }
            UnitKernel::Blocks => ("sort_blocks", self.block().workgroup, self.block().constants.clone()),
            UnitKernel::Global => ("global_stage", GLOBAL_WORKGROUP, Vec::new()),
        };
        let grid = Grid::Compute { workgroups: planned.workgroups, workgroup_size: [workgroup, 1, 1] };
        let steps = first..first + planned.params.stages;
        vec![Dispatch::new(&self.compiled, entry, grid, &planned.params, constants, steps)]
    }
}
