//! What G records: the picture, its lines and intervals, the algorithm and how, and where it
//! goes; the window's recorder (natively a thread, in the page a future) takes it.

use crate::algorithms::{Algorithm, RunSettings};
use crate::angle::Lines;
use crate::intervals::IntervalMap;
use crate::keys::options::SortOptions;
use crate::record::RecordSettings;
use image::RgbaImage;
use std::path::PathBuf;

/// What is being recorded and how.
pub struct RecordingJob {
    /// The picture.
    pub picture: RgbaImage,
    /// The lines to sort along, as the window does.
    pub lines: Lines,
    /// Key, order, axis.
    pub options: SortOptions,
    /// Algorithm.
    pub algorithm: Algorithm,
    /// Pass kind, phases per step (as the format records them).
    pub run_settings: RunSettings,
    /// Frame spacing, speed, scale...
    pub settings: RecordSettings,
    /// Where the recording goes (its extension, or a trailing /, says the format); in the page
    /// the download's name.
    pub path: PathBuf,
    /// The intervals to sort within, as the window does (`None`: whole lines).
    pub intervals: Option<IntervalMap>,
}
