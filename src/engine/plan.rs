//! What a run of an algorithm can follow of the lines and intervals asked for, and why not where
//! it cannot: decided once, here, for every front end.

use crate::algorithms::interval_texture::IntervalMapError;
use crate::algorithms::{Algorithm, RunSettings, SortRun};
use crate::angle::Lines;
use crate::intervals::IntervalMap;
use crate::keys::options::{Axis, SortOptions};

/// The lines and intervals a run of `algorithm` sorts along and within: `lines` and `intervals`,
/// or the closest the algorithm can do, with the reason: `lines` without the intervals when they
/// cannot be sorted within (the radix view's whole-picture scope, or interval ids and key too wide
/// for 32 bits), and the picture's rows without intervals when it cannot sort along `lines` at all
/// (the whole-picture scope at an angle or along a path, even whole lines of line space too wide,
/// or a path's one sequence too long for any algorithm but the radix view).
pub fn plan<'a>(
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
    let along = lines.route().name();
    let notice = match e {
        IntervalMapError::WholePictureAtAngle => format!(
            "{} sorts the whole picture as one sequence, not along {along}: its whole-picture scope has no lines to follow (W sorts lines)",
            algorithm.title()
        ),
        other => format!("{} sorts the picture's rows, not along {along}: {other}", algorithm.title()),
    };
    (Lines::Axis(Axis::Rows), None, Some(notice))
}

/// "LSD radix sorts without the intervals: ...": why a run sorts whole lines.
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

/// A run started by [`super::Engine::start`], as [`plan`] plans it: along the lines and within
/// the intervals its algorithm can follow; should the start fail all the same, along the
/// picture's rows.
pub struct Started<'a> {
    /// The run.
    pub run: Box<dyn SortRun>,
    /// The lines it sorts along.
    pub lines: Lines,
    /// The intervals it sorts within (`None`: whole lines).
    pub intervals: Option<&'a IntervalMap>,
    /// Why it sorts something other than what was asked, if it does.
    pub notice: Option<String>,
}
