//! What the user asked for, resolved from the command line into plain values: the front ends
//! (the window and the headless outputs) take these, never the parser's flags.

use crate::algorithms::{Algorithm, RunSettings};
use crate::angle::Angle;
use crate::intervals::threshold::ThresholdSweep;
use crate::intervals::{IntervalMode, IntervalSettings};
use crate::keys::options::SortOptions;
use crate::record::RecordSettings;
use std::path::PathBuf;
use std::time::Duration;

/// Everything a front end needs to know, checked and with defaults filled in.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// The picture file; `None` for the built-in photograph.
    pub image: Option<PathBuf>,
    /// A mask file: white pixels may be sorted, black ones stay.
    pub mask: Option<PathBuf>,
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Key, order, and the axis of the direction (rows for an angle, whose lines are sorted as
    /// rows of their line space).
    pub options: SortOptions,
    /// The direction lines run in.
    pub direction: Angle,
    /// Pass kind, phases per step and radix settings.
    pub run: RunSettings,
    /// Whether phases per step were asked for; otherwise a sort nobody watches step by step
    /// runs the bubble sort in one dispatch.
    pub phases_per_step_given: bool,
    /// How lines are cut into runs.
    pub intervals: IntervalSettings,
    /// A threshold sweep to record, one fully sorted frame per threshold.
    pub sweep: Option<ThresholdSweep>,
    /// Stop after this many passes instead of sorting to the end.
    pub passes: Option<u32>,
    /// How recordings are made (`--record`, and the window's G).
    pub record: RecordSettings,
    /// Largest picture side, and whether larger pictures are refused instead of shrunk.
    pub max_size: Option<u32>,
    /// Refuse pictures over the size limit instead of downscaling them.
    pub no_downscale: bool,
    /// Write the sorted picture (or the state after `passes`) to this PNG, headless.
    pub out: Option<PathBuf>,
    /// Record headless (GIF, animated PNG or PNG frames, as the path says): to this path, or
    /// (`Some(None)`) to the default GIF path.
    pub record_to: Option<Option<PathBuf>>,
    /// Window: start playing at once.
    pub play: bool,
    /// Window: the line to open the row lens on.
    pub lens: Option<u32>,
    /// Window: starting speed in passes per second.
    pub speed: Option<f64>,
    /// Window: close after this long and print frame statistics.
    pub quit_after: Option<Duration>,
}

impl Settings {
    /// Whether a headless output was asked for (`--out` or `--record`) instead of the window.
    pub fn headless(&self) -> bool {
        self.out.is_some() || self.record_to.is_some()
    }

    /// Whether the sort runs within runs: an interval mode other than none, or a mask.
    pub fn uses_intervals(&self) -> bool {
        self.mask.is_some() || self.intervals.mode != IntervalMode::None
    }

    /// The settings a whole sort that nobody watches step by step runs with: the bubble sort in
    /// one dispatch unless phases per step were asked for.
    pub fn unwatched_run(&self) -> RunSettings {
        let mut run = self.run;
        if !self.phases_per_step_given {
            run.phases_per_step = u32::MAX;
        }
        run
    }
}
