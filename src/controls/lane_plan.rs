//! Which lanes a viewer shows: the chosen algorithm, or every algorithm and pass kind side by
//! side, each started by the engine; how many steps each takes in a frame; and each lane's label.

use crate::algorithms::request::StartRequest;
use crate::algorithms::{Algorithm, RunSettings};
use crate::angle::Lines;
use crate::engine::{Engine, Started};
use crate::keys::options::Scope;

/// How side-by-side lanes keep together.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LaneSync {
    /// Every lane runs the same number of passes.
    #[default]
    ByStep,
    /// Every lane runs for the same time as the first: faster algorithms get further.
    ByTime,
}

impl LaneSync {
    /// The name shown in the window.
    pub fn name(self) -> &'static str {
        match self {
            LaneSync::ByStep => "by step",
            LaneSync::ByTime => "by time",
        }
    }
}

/// How many steps the lanes record in one submission.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Pace {
    /// What a frame affords by the cost last measured: each step is shown as it is taken.
    #[default]
    Frame,
    /// As many as the counters have room for: nothing is shown between the steps (End, a jump
    /// back, steps typed faster than they are shown), so they go at the GPU's speed.
    Gpu,
}

/// The lanes to show: the chosen algorithm and pass kind, or every combination side by side.
pub fn lane_kinds(
    algorithm: Algorithm,
    settings: RunSettings,
    compare: bool,
    sync: LaneSync,
) -> Vec<(Algorithm, RunSettings)> {
    if compare {
        // In step by pass, every lane's step is one pass: one phase for the bubble sort.
        let settings = match sync {
            LaneSync::ByStep => RunSettings { phases_per_step: 1, ..settings },
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

/// "Odd-even transposition (compute)", "LSD radix (4-bit digits, whole picture)".
pub fn lane_label(algorithm: Algorithm, settings: &RunSettings) -> String {
    match algorithm {
        Algorithm::OddEven => format!("{} ({})", algorithm.title(), settings.pass_kind.name()),
        Algorithm::Radix => {
            let r = settings.radix;
            let scope = if r.scope == Scope::Image { ", whole picture" } else { "" };
            format!("{} ({}-bit digits{scope})", algorithm.title(), r.digit_bits)
        }
        _ => format!("{} ({} per step)", algorithm.title(), algorithm.step_name(settings)),
    }
}

/// "odd-even compute", for headers over narrow pictures.
pub fn short_lane_label(algorithm: Algorithm, settings: &RunSettings) -> String {
    match algorithm {
        Algorithm::OddEven => format!("{} {}", algorithm.name(), settings.pass_kind.name()),
        _ => algorithm.name().to_string(),
    }
}

/// One lane per `(algorithm, settings)` of `which` (see [`lane_kinds`]), each started by the
/// engine: how the window and the page start theirs.
pub fn start_lanes<'a>(
    engine: &Engine,
    lines: &Lines,
    which: &[(Algorithm, RunSettings)],
    request: StartRequest<'a>,
) -> Vec<(Algorithm, RunSettings, Started<'a>)> {
    which
        .iter()
        .map(|&(algorithm, settings)| {
            (algorithm, settings, engine.start(lines, algorithm, request.clone().settings(settings)))
        })
        .collect()
}

/// How many steps each lane records in one frame when lanes keep together by pass: the lanes
/// behind the one furthest on catch up first, then every lane may go `n` steps beyond it, the
/// laggards first, until `budget` steps (of all lanes together) are spent. `lanes` holds each
/// lane's steps done and how many more it can record now. So a frame that cannot afford a step
/// of every lane records some of them, and the next frames bring the rest level.
pub fn plan_steps(lanes: &[(u32, u32)], n: u32, budget: u32) -> Vec<u32> {
    let lead = lanes.iter().map(|&(done, _)| done).max().unwrap_or(0);
    let goal = lead.saturating_add(n);
    let cap: Vec<u32> = lanes.iter().map(|&(done, room)| goal.saturating_sub(done).min(room)).collect();
    let mut give = vec![0u32; lanes.len()];
    let mut budget = u64::from(budget);
    while budget > 0 {
        let level = |i: usize| lanes[i].0 + give[i];
        let open: Vec<usize> = (0..lanes.len()).filter(|&i| give[i] < cap[i]).collect();
        let Some(low) = open.iter().map(|&i| level(i)).min() else { break };
        let group: Vec<usize> = open.iter().copied().filter(|&i| level(i) == low).collect();
        // Raise the lowest lanes together to the next level up (or as far as they may go).
        let most = group.iter().map(|&i| cap[i] - give[i]).min().expect("a lane at the lowest level");
        let rise = open
            .iter()
            .map(|&i| level(i))
            .filter(|&l| l > low)
            .min()
            .map_or(most, |next| (next - low).min(most));
        let count = group.len() as u64;
        if budget >= u64::from(rise) * count {
            group.iter().for_each(|&i| give[i] += rise);
            budget -= u64::from(rise) * count;
        } else {
            // Not enough for all of them: equal shares, the first lanes one more.
            let (each, extra) = (budget / count, budget % count);
            for (k, &i) in group.iter().enumerate() {
                give[i] += (each + u64::from((k as u64) < extra)) as u32;
            }
            budget = 0;
        }
    }
    give
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_level_with_each_other_step_together_when_the_budget_allows() {
        assert_eq!(plan_steps(&[(3, 100), (3, 100), (3, 100)], 4, 1000), [4, 4, 4]);
        assert_eq!(plan_steps(&[(3, 100), (3, 100), (3, 100)], 4, 6), [2, 2, 2]);
    }

    #[test]
    fn a_small_budget_steps_some_lanes_and_the_laggards_catch_up_first() {
        assert_eq!(plan_steps(&[(0, 9), (0, 9), (0, 9)], 1, 2), [1, 1, 0]);
        // Lane 2 is behind: it catches up before anyone goes further.
        assert_eq!(plan_steps(&[(1, 9), (1, 9), (0, 9)], 1, 1), [0, 0, 1]);
        assert_eq!(plan_steps(&[(5, 9), (4, 9), (4, 9)], 1, 2), [0, 1, 1]);
        assert_eq!(plan_steps(&[(5, 9), (4, 9), (4, 9)], 1, 5), [1, 2, 2]);
        // Catching up alone (no new steps asked for).
        assert_eq!(plan_steps(&[(3, 9), (1, 9)], 0, 10), [0, 2]);
    }

    #[test]
    fn a_lane_that_cannot_record_takes_nothing() {
        assert_eq!(plan_steps(&[(7, 0), (2, 9)], 3, 100), [0, 8]);
        assert_eq!(plan_steps(&[], 3, 100), Vec::<u32>::new());
        assert_eq!(plan_steps(&[(0, 9)], 3, 0), [0]);
    }
}
