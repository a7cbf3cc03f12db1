//! What G records: the picture, its lines and intervals, the algorithm and how, and where it
//! goes; the window's recorder (natively a thread, in the page a future) takes it.

use crate::algorithms::request::StartRequest;
use crate::algorithms::{Algorithm, RunSettings, SortRun};
use crate::angle::Lines;
use crate::engine::Engine;
use crate::intervals::IntervalMap;
use crate::keys::options::SortOptions;
use crate::record::RecordFormat;
use crate::settings::RecordSettings;
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
    /// GIF, animated PNG or PNG frames (natively the path says it too, and is what is read).
    #[cfg_attr(not(target_arch = "wasm32"), expect(dead_code, reason = "natively the path says the format"))]
    pub format: RecordFormat,
    /// Where the recording goes (natively its extension, or a trailing /, says the format too);
    /// in the page the download's name.
    pub path: PathBuf,
    /// The intervals to sort within, as the window does (`None`: whole lines).
    pub intervals: Option<IntervalMap>,
    /// The line a video's sound is heard on: the one the window hears (`None`: the middle
    /// line). The page records no video.
    #[cfg_attr(target_arch = "wasm32", expect(dead_code, reason = "the page records no video"))]
    pub sound_line: Option<u32>,
}

impl RecordingJob {
    /// Starts the recorded run on `first` (the picture as the recorder hands it over) along the
    /// job's lines, within its intervals, as the window's lanes start.
    pub fn start(&self, engine: &Engine, first: &RgbaImage) -> Box<dyn SortRun> {
        let request = StartRequest::new(first, self.options)
            .settings(self.run_settings)
            .within(self.intervals.as_ref());
        engine.start(&self.lines, self.algorithm, request).run
    }
}
