//! Which lanes a viewer shows and what each sorts along: the chosen algorithm, or every algorithm
//! and pass kind side by side; the lines and intervals a lane's algorithm can follow (with the
//! reason where it falls back); and each lane's label.

use crate::algorithms::interval_texture::IntervalMapError;
use crate::algorithms::request::StartRequest;
use crate::algorithms::{Algorithm, Pipelines, RunSettings, SortRun};
use crate::angle::Lines;
use crate::angle::scatter::LineScatter;
use crate::gpu::Gpu;
use crate::intervals::IntervalMap;
use crate::keys::options::{Axis, Scope, SortOptions};

/// How side-by-side lanes keep together.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LaneSync {
    /// Every lane runs the same number of passes.
    #[default]
    ByPass,
    /// Every lane runs for the same time as the first: faster algorithms get further.
    ByTime,
}

impl LaneSync {
    /// The name shown in the window.
    pub fn name(self) -> &'static str {
        match self {
            LaneSync::ByPass => "by pass",
            LaneSync::ByTime => "by time",
        }
    }
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

/// The lines and intervals a lane of `algorithm` sorts along and within: `lines` and `intervals`,
/// or the closest the algorithm can do, with the reason: `lines` without the intervals when they
/// cannot be sorted within (the radix view's whole-picture scope, or interval ids and key too wide
/// for 32 bits), and the picture's rows without intervals when it cannot sort along `lines` at all
/// (the whole-picture scope at an angle or along a path, even whole lines of line space too wide,
/// or a path's one sequence too long for any algorithm but the radix view).
pub fn for_lane<'a>(
    lines: &Lines,
    algorithm: Algorithm,
    options: SortOptions,
    settings: &RunSettings,
    intervals: Option<&'a IntervalMap>,
) -> (Lines, Option<&'a IntervalMap>, Option<String>) {
    let Err(e) = lines.check(algorithm, options, settings, intervals) else {
        return (lines.clone(), intervals, None);
    };
    if e != IntervalMapError::WholePictureAtAngle
        && intervals.is_some()
        && lines.check(algorithm, options, settings, None).is_ok()
    {
        return (lines.clone(), None, Some(whole_lines_notice(algorithm, &e)));
    }
    let along = lines.layout().name();
    let notice = match e {
        IntervalMapError::WholePictureAtAngle => format!(
            "{} sorts the whole picture as one sequence, not along {along}: its whole-picture scope has no lines to follow (W sorts lines)",
            algorithm.title()
        ),
        other => format!("{} sorts the picture's rows, not along {along}: {other}", algorithm.title()),
    };
    (Lines::Axis(Axis::Rows), None, Some(notice))
}

/// "LSD radix sorts without the intervals: ...", in the window's words.
pub fn whole_lines_notice(algorithm: Algorithm, e: &IntervalMapError) -> String {
    let why = match e {
        IntervalMapError::WholePicture => {
            "its whole-picture scope has no lines to cut into intervals (W sorts lines within them)"
                .to_string()
        }
        other => other.to_string(),
    };
    format!("{} sorts without the intervals: {why}", algorithm.title())
}

/// A lane's run, started as [`for_lane`] plans it: along the lines and within the intervals its
/// algorithm can follow; should the start fail all the same, along the picture's rows.
pub struct LaneStart<'a> {
    /// The run.
    pub run: Box<dyn SortRun>,
    /// The lines it sorts along.
    pub lines: Lines,
    /// The intervals it sorts within (`None`: whole lines).
    pub intervals: Option<&'a IntervalMap>,
    /// Why it sorts something other than what was asked, if it does.
    pub notice: Option<String>,
}

/// Starts a lane of `algorithm` on the request's picture with its options and settings, along
/// `lines` and within the request's map, as far as the algorithm can (see [`LaneStart`]).
pub fn start_lane<'a>(
    gpu: &Gpu,
    pipelines: &Pipelines,
    scatter: &LineScatter,
    lines: &Lines,
    algorithm: Algorithm,
    request: StartRequest<'a>,
) -> LaneStart<'a> {
    let (options, settings) = (request.options, request.settings);
    let (lane_lines, intervals, notice) =
        for_lane(lines, algorithm, options, &settings, request.intervals.cpu_map());
    match lane_lines.start(gpu, pipelines, scatter, request.clone().within(intervals)) {
        Ok(run) => LaneStart { run, lines: lane_lines, intervals, notice },
        Err(e) => {
            let rows = StartRequest { options: SortOptions { axis: Axis::Rows, ..options }, ..request };
            LaneStart {
                run: pipelines.start(gpu, rows.within(None)).expect("whole lines fit"),
                lines: Lines::Axis(Axis::Rows),
                intervals: None,
                notice: Some(whole_lines_notice(algorithm, &e)),
            }
        }
    }
}

/// One lane per `(algorithm, settings)` of `which` (see [`lane_kinds`]), each started by
/// [`start_lane`] with its algorithm's pipelines from `pipelines`: how the window and the page
/// start theirs.
pub fn start_lanes<'a>(
    gpu: &Gpu,
    pipelines: &[(Algorithm, Pipelines)],
    scatter: &LineScatter,
    lines: &Lines,
    which: &[(Algorithm, RunSettings)],
    request: StartRequest<'a>,
) -> Vec<(Algorithm, RunSettings, LaneStart<'a>)> {
    which
        .iter()
        .map(|&(algorithm, settings)| {
            let pipes =
                &pipelines.iter().find(|(a, _)| *a == algorithm).expect("pipelines for every algorithm").1;
            let start = start_lane(gpu, pipes, scatter, lines, algorithm, request.clone().settings(settings));
            (algorithm, settings, start)
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
