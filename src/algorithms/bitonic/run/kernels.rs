//! Which kernel a bitonic dispatch runs and with what, for the dispatch itself and the shader
//! panel, and the work each step costs: the stages from a step that stay within a block run
//! together in `sort_lines` or `sort_blocks`; a stage that reaches further runs alone in
//! `global_stage`.

use super::{BitonicRun, GLOBAL_WORKGROUP};
use crate::algorithms::bitonic::layout::{BitonicParams, bits_of};
use crate::algorithms::bitonic::lengths::{IntervalLengths, comparators, first_members};
use crate::algorithms::bitonic::pipelines::HELD;
use crate::algorithms::bitonic::stage::Stage;
use crate::algorithms::kernel_view::{Dispatch, Grid};
use crate::algorithms::work::Work;

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

    /// The first step and the stages of the dispatch that ran step `step`, or, not run yet, of
    /// the one a step alone would run.
    fn dispatch_of(&self, step: u32) -> (u32, u32) {
        self.dispatch_log
            .iter()
            .copied()
            .find(|&(first, stages)| (first..first + stages).contains(&step))
            .unwrap_or((step, 1))
    }

    /// The dispatch that ran step `step`, or, not run yet, the one a step alone would run.
    pub(super) fn kernels(&self, step: u32) -> Vec<Dispatch> {
        let (first, stages) = self.dispatch_of(step);
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

impl BitonicRun {
    /// The work of step `step` besides its swaps, for the dispatch that ran it: `swaps` its
    /// slot counted and `misfits` the `sort_lines` workgroups it counted whose subgroups could
    /// not shuffle; `lengths` the intervals' (every line one without intervals). A stage's
    /// comparisons count at its own step; a dispatch's loads, stores and barriers at its last
    /// step, where its swaps are counted, so stepping one stage at a time or many at once gives
    /// the work of the dispatches that really ran. Pixels and origins are 4 bytes each; bounds,
    /// units and parameters are not counted.
    ///
    /// - `sort_blocks`, a workgroup per unit of the plan (its positions partition the lines):
    ///   loads each position's pixel (and origin after the first stage), compares each comparator
    ///   of each stage within its interval once, then loads the pixel from its origin and stores
    ///   it (and the origin where a later dispatch reads it). Barriers: after loading, after each
    ///   stage, before adding its swaps.
    /// - `sort_lines`, a workgroup per line of N = 16 x invocations positions, the padding past
    ///   the line's end included: loads N texels (and N origins after the first stage, padding
    ///   loading the line's last), loads N pixels from their origins, stores the line's (and
    ///   origins). Compares every comparator of the padded network: one within registers once,
    ///   one across invocations on each side. Barriers: three after loading, a
    ///   `workgroupUniformLoad` where it shuffles, two around the final share and one before
    ///   adding its swaps; two per stage through workgroup memory (and per shuffle stage of a
    ///   workgroup whose subgroups could not shuffle).
    /// - `global_stage`, an invocation per position: a comparator's first member loads its pixel;
    ///   without a partner in its interval it stores it; with one it loads the partner's pixel
    ///   and both origins, compares once, stores both pixels, and both origins if they exchanged.
    ///   No barriers.
    pub(super) fn work(&self, step: u32, lengths: &IntervalLengths, (swaps, misfits): (u32, u32)) -> Work {
        let (first, stages) = self.dispatch_of(step);
        let planned = self.plan_dispatch(first, stages);
        let stage = Stage::at(step);
        let workgroups = u64::from(self.unit_count);
        // Positions a `sort_lines` workgroup holds.
        let held = u64::from(self.lines.as_ref().map_or(0, |lines| lines.block));
        let comparisons = match planned.kernel {
            UnitKernel::Lines if stage.mask() < HELD => workgroups * held / 2,
            UnitKernel::Lines => workgroups * held,
            UnitKernel::Blocks | UnitKernel::Global => lengths.sum(|len| comparators(stage, len)),
        };
        if step + 1 != first + stages {
            return Work::of(comparisons, (0, 0), 0);
        }
        let load_origins = u64::from(planned.params.load_origins);
        let store_origins = u64::from(planned.params.store_origins);
        let positions = u64::from(self.line_len) * u64::from(self.line_count);
        let stored = positions * (1 + store_origins);
        let (pixels, barriers) = match planned.kernel {
            UnitKernel::Blocks => {
                ((positions * (2 + load_origins), stored), workgroups * (u64::from(stages) + 2))
            }
            UnitKernel::Global => {
                let firsts = lengths.sum(|len| first_members(stage, len));
                ((firsts + 3 * comparisons, firsts + comparisons + 2 * u64::from(swaps)), 0)
            }
            UnitKernel::Lines => {
                let reach = self.lines_constant("SHUFFLE_REACH");
                let across = (first..first + stages).map(|s| Stage::at(s).mask()).filter(|&m| m >= HELD);
                let (shuffled, shared) = across.fold((0, 0), |(shuffled, shared), mask| {
                    if mask < reach { (shuffled + 1, shared) } else { (shuffled, shared + 1) }
                });
                let fixed = 6 + u64::from(reach > 0);
                let barriers = workgroups * (fixed + 2 * shared) + u64::from(misfits) * 2 * shuffled;
                ((workgroups * held * (2 + load_origins), stored), barriers)
            }
        };
        Work::of(comparisons, pixels, barriers)
    }

    /// The constant `name` `sort_lines` was built with (0 where it was not).
    fn lines_constant(&self, name: &str) -> u32 {
        let constants = self.lines.as_ref().map(|lines| lines.constants.as_slice()).unwrap_or_default();
        constants.iter().find(|(n, _)| *n == name).map_or(0, |&(_, value)| value as u32)
    }
}
