//! What a run of an algorithm can follow of the lines and intervals asked for, and why not where
//! it cannot: decided once, here, for every front end.

use crate::algorithms::interval_texture::IntervalMapError;
use crate::algorithms::radix::RadixSettings;
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

/// The algorithm, with the settings it starts with, that makes the end of `algorithm`'s sort
/// fastest, for a sort nobody watches that goes to its end (a clip's or a live source's
/// frames), and the note saying so where it is another. Every algorithm here ends in the same
/// picture, each line or interval sorted stably by the key (the CPU model's `stable_sort`), so
/// the radix view on the crate's segmented sort, which makes that end at once, takes the sort
/// wherever it follows the same lines with the key and the widest interval ids a line of
/// `size` may need (`within_intervals`) in 32 bits. Radix settings that change the picture
/// (fewer key bits, the whole picture as one sequence) only matter to the radix view, asked for.
pub fn fastest_end(
    lines: &Lines,
    (algorithm, settings): (Algorithm, RunSettings),
    options: SortOptions,
    size: (u32, u32),
    within_intervals: bool,
) -> (Algorithm, RunSettings, Option<String>) {
    let radix = RunSettings {
        radix: RadixSettings { device_sorted_lines: true, ..RadixSettings::DEFAULT },
        ..settings
    };
    let interval_bits = u32::BITS - lines.line_len(size).saturating_sub(1).leading_zeros();
    let fits = !within_intervals
        || radix.radix.key(lines.sort_options(options)).0.with_interval_bits(interval_bits).is_ok();
    if algorithm == Algorithm::Radix
        || !fits
        || lines.check(algorithm, options, &settings, None).is_err()
        || lines.check(Algorithm::Radix, options, &radix, None).is_err()
    {
        return (algorithm, settings, None);
    }
    let note = format!(
        "note: frames are sorted to their end, where every algorithm arrives at the same picture (each line sorted stably by the key); radix gets there fastest and makes them (--steps N runs {}'s own steps)",
        algorithm.name()
    );
    (Algorithm::Radix, radix, Some(note))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::angle::Route;
    use crate::keys::SortKey;
    use crate::paths::{PathChoice, PathKind};

    #[test]
    fn ends_go_to_radix_where_it_follows_the_same_lines_with_the_ids_in_32_bits() {
        let rows = Lines::Axis(Axis::Rows);
        let luma = SortOptions::default();
        let hue = SortOptions { key: SortKey::Hue, ..luma };
        let unwatched = RunSettings { phases_per_step: u32::MAX, ..RunSettings::default() };
        for algorithm in [Algorithm::OddEven, Algorithm::Bubble, Algorithm::Bitonic] {
            let (chosen, run, note) = fastest_end(&rows, (algorithm, unwatched), luma, (640, 4), true);
            assert_eq!(chosen, Algorithm::Radix, "{algorithm:?}");
            assert!(run.radix.device_sorted_lines && run.radix.key_bits.is_none());
            assert!(note.unwrap().contains(&format!("--steps N runs {}'s own steps", algorithm.name())));
            // Hue (19 bits) and the ids of lines of 2^14 pixels (14 bits) need 33 bits.
            let wide = fastest_end(&rows, (algorithm, unwatched), hue, (1 << 14, 2), true);
            assert_eq!((wide.0, wide.2), (algorithm, None), "{algorithm:?}: 33 bits");
            // Without intervals the key alone counts.
            assert_eq!(
                fastest_end(&rows, (algorithm, unwatched), hue, (1 << 14, 2), false).0,
                Algorithm::Radix
            );
        }
        // Radix as asked keeps its own settings (fewer key bits change the picture).
        let mut radix = unwatched;
        radix.radix.key_bits = Some(3);
        assert_eq!(
            fastest_end(&rows, (Algorithm::Radix, radix), luma, (64, 4), true),
            (Algorithm::Radix, radix, None)
        );
        // A spiral wrapped from row to row: only radix follows it, so odd-even stays itself.
        let spiral = PathChoice { kind: PathKind::Spiral, centre: None, rays: None };
        let wrapped = Lines::of(Route::Path(spiral), (8, 8), 16).unwrap();
        assert_eq!(
            fastest_end(&wrapped, (Algorithm::OddEven, unwatched), luma, (8, 8), false).0,
            Algorithm::OddEven
        );
    }
}
