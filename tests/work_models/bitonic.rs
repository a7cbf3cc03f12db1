//! What the bitonic network's kernels cost, stated from what each of them does
//! (`shaders/bitonic.wgsl`, `shaders/bitonic_lines.wgsl`), apart from `BitonicRun::work`: the
//! comparators come from the CPU model's network (`reference::bitonic`), enumerated per interval
//! or over a line's padded positions; loads, stores and barriers from each kernel's workgroups.

use shadersort::algorithms::work::Work;
use shadersort::reference::bitonic::NetworkStage;
use std::ops::Range;

/// Positions one `sort_lines` invocation holds in registers.
const HELD: usize = 16;

/// The kernel a dispatch ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// `sort_lines`, a workgroup a line holding `positions` (padding included), whose stages
    /// across invocations within a subgroup of `subgroup` run on shuffles when `shuffles`.
    Lines { positions: usize, subgroup: usize, shuffles: bool },
    /// `sort_blocks`, a workgroup a unit of at most `block` positions.
    Blocks { block: usize },
    /// `global_stage`, an invocation a position.
    Global,
}

/// What a picture is sorted as: every line's intervals, the network and its units.
pub struct Sorted<'a> {
    /// Per line, its intervals (one of the whole line without a map).
    pub lines: &'a [Vec<Range<usize>>],
    pub line_len: usize,
    /// Every stage the run steps through.
    pub network: &'a [NetworkStage],
    /// Workgroups a `sort_blocks` dispatch gives units: `None` where they are the CPU's
    /// packing, `Some(n)` for a plan made on the GPU (its fixed slots, empty ones too).
    pub gpu_units: Option<u64>,
}

/// The positions one aligned group of a stage's comparators spans: its block for the flip,
/// twice the distance for a half-cleaner.
pub fn reach(stage: &NetworkStage) -> usize {
    if stage.flip { stage.block } else { 2 * stage.distance }
}

/// The steps each dispatch runs: one stage each when stepped one at a time; encoded at once,
/// every run of stages whose comparators stay within blocks of `block` positions together, and
/// each stage reaching further alone.
pub fn dispatches(network: &[NetworkStage], block: usize, at_once: bool) -> Vec<Range<u32>> {
    let local = |k: usize| reach(&network[k]) <= block;
    let mut groups = Vec::new();
    let mut k = 0;
    while k < network.len() {
        let mut end = k + 1;
        while at_once && local(k) && end < network.len() && local(end) {
            end += 1;
        }
        groups.push(k as u32..end as u32);
        k = end;
    }
    groups
}

/// Whether the comparator's partner lies after position `a` (relative to its interval), in the
/// network of unbounded length: `a` is its first member.
fn is_first_member(stage: &NetworkStage, a: usize) -> bool {
    if stage.flip { a % stage.block < stage.block / 2 } else { a % (2 * stage.distance) < stage.distance }
}

/// Units of at most `block` positions: each line's intervals packed whole, in order, into
/// chunks, a chunk closed when the next interval does not fit; an interval longer than a block
/// cut into blocks from its start.
fn packed_units(lines: &[Vec<Range<usize>>], block: usize) -> u64 {
    let mut units = 0;
    for intervals in lines {
        let mut chunk: Option<usize> = None;
        for len in intervals.iter().map(Range::len) {
            if len > block {
                units += u64::from(chunk.take().is_some()) + len.div_ceil(block) as u64;
            } else if let Some(c) = chunk.filter(|c| c + len <= block) {
                chunk = Some(c + len);
            } else {
                units += u64::from(chunk.replace(len).is_some());
            }
        }
        units += u64::from(chunk.is_some());
    }
    units
}

/// Each comparator of `stage` over a line's `positions` padded positions with the invocation
/// pair (holding a, holding b) of each.
fn held_comparators(stage: &NetworkStage, positions: usize) -> impl Iterator<Item = (usize, usize)> {
    stage.comparators(positions).into_iter().map(|(a, b)| (a / HELD, b / HELD))
}

/// The work of every step, dispatched as `dispatches` say (each with its kernel), the model's
/// exchanges of each stage in `exchanges`. A stage's comparisons count at its own step; a
/// dispatch's loads, stores, barriers and exchanges at its last.
pub fn expected(sorted: &Sorted<'_>, dispatches: &[(Range<u32>, Kernel)], exchanges: &[u64]) -> Vec<Work> {
    let lines = sorted.lines.len() as u64;
    let positions = lines * sorted.line_len as u64;
    let total = sorted.network.len() as u32;
    let each_interval = |f: &dyn Fn(usize) -> u64| -> u64 {
        sorted.lines.iter().flatten().map(|interval| f(interval.len())).sum()
    };
    let mut works = Vec::new();
    for (steps, kernel) in dispatches {
        for k in steps.clone() {
            let stage = &sorted.network[k as usize];
            // Within intervals each comparator once (by its first member, or one invocation);
            // `sort_lines` every comparator of the padded line, across invocations on each side.
            let comparisons = match *kernel {
                Kernel::Lines { positions: held, .. } => {
                    let sides = held_comparators(stage, held).map(|(i, j)| if i == j { 1 } else { 2 });
                    lines * sides.sum::<u64>()
                }
                _ => each_interval(&|len| stage.comparators(len).len() as u64),
            };
            works.push(Work { comparisons, ..Work::default() });
        }
        let last = steps.end as usize - 1;
        let stage = &sorted.network[last];
        let swaps: u64 = exchanges[steps.start as usize..steps.end as usize].iter().sum();
        // After the first stage the origins are loaded; before the last they are stored.
        let (loads_origins, stores_origins) = (u64::from(steps.start > 0), u64::from(steps.end < total));
        let stored = positions * (1 + stores_origins);
        let (read, written, barriers) = match *kernel {
            Kernel::Blocks { block } => {
                let units = sorted.gpu_units.unwrap_or_else(|| packed_units(sorted.lines, block));
                // Pixel (and origin) in, pixel gathered from its origin, pixel (and origin) out;
                // a barrier after loading, after each stage and before adding the exchanges.
                (positions * (2 + loads_origins), stored, units * (steps.len() as u64 + 2))
            }
            Kernel::Global => {
                let firsts =
                    each_interval(&|len| (0..len).filter(|&a| is_first_member(stage, a)).count() as u64);
                let pairs = each_interval(&|len| stage.comparators(len).len() as u64);
                // A first member loads its pixel; without a partner stores it; with one loads
                // the partner's and both origins, stores both pixels and, exchanged, both origins.
                (firsts + 3 * pairs, (firsts - pairs) + 2 * pairs + 2 * swaps, 0)
            }
            Kernel::Lines { positions: held, subgroup, shuffles } => {
                // Barriers: after the loads, after clearing the counts, after the shuffle
                // check, its uniform load (with shuffles), two around sharing the result,
                // one before adding the exchanges; two per stage across invocations that
                // does not run on shuffles.
                let mut barriers = 6 + u64::from(shuffles);
                for k in steps.clone() {
                    let stage = &sorted.network[k as usize];
                    let across = held_comparators(stage, held).any(|(i, j)| i != j);
                    let in_subgroups =
                        held_comparators(stage, held).all(|(i, j)| i / subgroup == j / subgroup);
                    if across && !(shuffles && in_subgroups) {
                        barriers += 2;
                    }
                }
                // Every padded position's texel (and origin) loaded, and its pixel gathered.
                (lines * held as u64 * (2 + loads_origins), stored, lines * barriers)
            }
        };
        works[last].swaps = swaps;
        works[last].bytes_read = 4 * read;
        works[last].bytes_written = 4 * written;
        works[last].barriers = barriers;
    }
    works
}
