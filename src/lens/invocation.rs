//! Who handled a pixel of the lens's line in the last step: the workgroup and invocation of the
//! kernel that ran over it, the position it was compared with and whether the two swapped, from
//! the step's dispatch (its grid and uniform) and the line before and after the step.

use super::{LensReading, StepReading};
use crate::algorithms::kernel_view::{Dispatch, Grid};

/// What the last step did at one position of the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Handled {
    /// The kernel's entry point.
    pub entry: &'static str,
    /// The texel of the run's state the position is (line space's, along a path).
    pub texel: (u32, u32),
    /// The workgroup and the invocation in it (`None` for a fragment, which is its texel, and
    /// where the dispatch packs intervals into units the lens cannot see).
    pub invocation: Option<([u32; 3], [u32; 3])>,
    /// The position it was compared with.
    pub partner: Option<usize>,
    /// Whether the pair exchanged its pixels (`None` where several phases ran in the step and
    /// only the whole step's change shows).
    pub swapped: Option<bool>,
    /// Whether the pixel at the position changed in the step.
    pub moved: bool,
    /// Steps the dispatch ran (a bitonic dispatch may run several stages at once).
    pub steps: u32,
}

/// Workgroup and local invocation of global invocation `(x, y)` in workgroups of `size`.
fn split((x, y): (u32, u32), size: [u32; 3]) -> ([u32; 3], [u32; 3]) {
    ([x / size[0], y / size[1], 0], [x % size[0], y % size[1], 0])
}

/// The interval of position `pos`: its start and length, by the cells' interval ids.
fn interval_of(reading: &LensReading, pos: usize) -> (usize, usize) {
    let id = reading.cells[pos].interval;
    let start = (0..pos).rev().take_while(|&p| reading.cells[p].interval == id).last().unwrap_or(pos);
    let len = reading.cells[start..].iter().take_while(|c| c.interval == id).count();
    (start, len)
}

/// What `dispatches` (the last step's, from [`crate::algorithms::SortRun::kernels_of_step`]) did at
/// position `pos` of `reading`'s line; `None` before any step or past the line's end.
pub fn handled(dispatches: &[Dispatch], reading: &LensReading, pos: usize) -> Option<Handled> {
    let cell = reading.cells.get(pos)?;
    let dispatch = dispatches.last()?;
    let line = &reading.line;
    let texel = (line.origin.0 + pos as u32 * line.unit.0, line.origin.1 + pos as u32 * line.unit.1);
    let workgroup_size = match dispatch.grid {
        Grid::Compute { workgroup_size, .. } => Some(workgroup_size),
        Grid::Fragment { .. } => None,
    };
    let moved = cell.before.is_some_and(|b| b != cell.pixel);
    let len = reading.cells.len();
    let same_interval = |a: usize, b: usize| reading.cells[a].interval == reading.cells[b].interval;
    let pair_swapped = |partner: Option<usize>| partner.map(|p| reading.exchanged(pos.min(p), pos.max(p)));
    let steps = dispatch.steps.len() as u32;
    let mut handled = Handled {
        entry: dispatch.entry,
        texel,
        invocation: None,
        partner: None,
        swapped: None,
        moved,
        steps,
    };
    match (&reading.step, dispatch.entry) {
        (StepReading::OddEven { .. }, _) => {
            // A pass of parity p: a position of that parity is the right member of the pair
            // (x - 1, x); the others are left members.
            let parity = *dispatch.uniform.get(3)? as usize;
            let partner =
                if pos % 2 == parity { pos.checked_sub(1) } else { Some(pos + 1).filter(|&p| p < len) };
            handled.partner = partner.filter(|&p| same_interval(pos, p));
            handled.swapped = pair_swapped(handled.partner).or(Some(false));
            handled.invocation = workgroup_size.map(|size| split(texel, size));
        }
        (StepReading::Bubble { first_phase, ran, budget, .. }, _) => {
            // One workgroup a line; in the line's last phase, invocation i compares the pairs
            // (l, l + 1) with l = first_left + 2i (+ 2 WORKGROUP each round).
            let size = workgroup_size?;
            let phase = (first_phase + ran).checked_sub(1).filter(|_| *ran > 0);
            if let Some(phase) = phase {
                let first_left = (1 - (phase & 1)) as usize;
                let left = if pos >= first_left && (pos - first_left).is_multiple_of(2) {
                    pos
                } else {
                    pos.wrapping_sub(1)
                };
                if left < len.saturating_sub(1) && left >= first_left && same_interval(left, left + 1) {
                    handled.partner = Some(if left == pos { pos + 1 } else { left });
                    let lid = ((left - first_left) / 2) as u32 % size[0];
                    handled.invocation = Some(([line.index, 0, 0], [lid, 0, 0]));
                }
            }
            handled.swapped = (*budget == 1).then(|| pair_swapped(handled.partner).unwrap_or(false));
        }
        (StepReading::Bitonic { .. }, entry) => {
            let (merge, distance) = (*dispatch.uniform.get(5)?, *dispatch.uniform.get(6)?);
            let one_stage = dispatch.steps.len() == 1;
            let (start, interval_len) = interval_of(reading, pos);
            let a = pos - start;
            let mask = if distance + 1 == merge { (1usize << merge) - 1 } else { 1 << distance };
            let b = a ^ mask;
            if one_stage && b < interval_len {
                handled.partner = Some(start + b);
                handled.swapped = pair_swapped(handled.partner);
            }
            let first = a.min(b);
            let size = workgroup_size?;
            let groups_x = *dispatch.uniform.get(12)?;
            let unit_at = |unit: u32| [unit % groups_x, unit / groups_x, 0];
            handled.invocation = match entry {
                // The comparator's first member writes both.
                "global_stage" => Some(split(((start + first) as u32, line.index), size)),
                // Invocation t holds positions 16t .. 16t + 15 of its line's unit.
                "sort_lines" => Some((unit_at(line.index), [pos as u32 / 16, 0, 0])),
                // Whole lines in blocks: pair p of the block's network, p = the first member
                // with bit `distance` taken out, runs on invocation p mod WORKGROUP.
                "sort_blocks" if start == 0 && interval_len == len && one_stage => {
                    let block = dispatch.constants.iter().find(|(n, _)| *n == "BLOCK")?.1 as usize;
                    let units_per_line = len.div_ceil(block);
                    let unit = line.index as usize * units_per_line + pos / block;
                    let d = distance as usize;
                    let within = first % block;
                    let pair = ((within >> (d + 1)) << d) | (within & ((1 << d) - 1));
                    Some((unit_at(unit as u32), [pair as u32 % size[0], 0, 0]))
                }
                _ => None,
            };
        }
        (StepReading::Radix { .. }, "scatter") => {
            // Tiles of `chunks` chunks of 256 pixels along each sequence; each invocation
            // takes one pixel of every chunk of its tile.
            let size = workgroup_size?;
            let tiles = *dispatch.uniform.get(9)?;
            let chunks = *dispatch.uniform.get(11)?;
            let whole_picture = *dispatch.uniform.get(3)? != 0;
            let (sequence, at) =
                if whole_picture { (0, line.index as usize * len + pos) } else { (line.index as usize, pos) };
            let tile = sequence as u32 * tiles + (at / (size[0] * chunks) as usize) as u32;
            let Grid::Compute { workgroups, .. } = dispatch.grid else { return None };
            handled.invocation =
                Some(([tile % workgroups[0], tile / workgroups[0], 0], [at as u32 % size[0], 0, 0]));
        }
        (StepReading::Radix { .. }, _) => {
            // Gather and place: one invocation a pixel of the sequence, numbered along it.
            let size = workgroup_size?;
            let Grid::Compute { workgroups, .. } = dispatch.grid else { return None };
            let j = line.index * len as u32 + pos as u32;
            let group = j / size[0];
            handled.invocation =
                Some(([group % workgroups[0], group / workgroups[0], 0], [j % size[0], 0, 0]));
        }
        (StepReading::Start, _) => return None,
    }
    Some(handled)
}

impl Handled {
    /// What the step did at position `pos` of `reading`'s line, in a sentence: who ran over it,
    /// what it was compared with and what came of it.
    pub fn sentence(&self, reading: &LensReading, pos: usize) -> String {
        let who = match self.invocation {
            Some((group, local)) => format!(
                "invocation ({}, {}, {}) of workgroup ({}, {}, {}) of {}",
                local[0], local[1], local[2], group[0], group[1], group[2], self.entry
            ),
            None if self.entry.ends_with("fragment") => {
                format!("the fragment of texel ({}, {}) of {}", self.texel.0, self.texel.1, self.entry)
            }
            None => format!("a workgroup of {}", self.entry),
        };
        let what = match (self.partner, self.swapped) {
            (Some(partner), Some(true)) => format!("compared it with pixel {partner} and swapped the two"),
            (Some(partner), Some(false)) => format!("compared it with pixel {partner}, already in order"),
            (Some(partner), None) => format!("compared it with pixel {partner} in the step's last phase"),
            (None, _) => match reading.cells[pos].slot {
                Some(slot) => format!("sent it to position {slot} by its digit"),
                None if matches!(reading.step, StepReading::Radix { .. }) => {
                    "moved it to its place by the digits sorted so far".to_string()
                }
                None if self.steps > 1 => format!("ran {} stages over it in one dispatch", self.steps),
                None => "compared it with nothing: it has no partner in its interval this step".to_string(),
            },
        };
        let moved = if self.moved { "; the pixel there changed" } else { "" };
        format!("Pixel {pos} of {}: {who} {what}{moved}.", reading.line.name)
    }
}
