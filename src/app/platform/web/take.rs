//! A take's frames written in the page: on its one thread, each frame compressed as it comes
//! (the page has no threads to hand it to), the file downloaded when the take ends.

use crate::app::dialogs::download;
use crate::app::platform::TakeSink;
use crate::record::RecordFormat;
use crate::record::take::{NO_FRAME, Take, TakeOutput, Taken, take_in_memory};
use crate::settings::RecordSettings;
use image::RgbaImage;
use std::path::Path;
use std::time::Duration;

/// The writer of a take under way.
pub(in crate::app) struct TakeWriter {
    take: Option<Box<dyn Take>>,
    format: RecordFormat,
    /// The download's name.
    name: String,
    settings: RecordSettings,
    result: Option<Result<Taken, String>>,
    /// Frames left out: none in the page, where each frame is written as it comes.
    left_out: u64,
}

impl TakeSink for TakeWriter {
    /// Starts a take in `format`, downloaded as `path`.
    fn start(path: &Path, format: RecordFormat, settings: RecordSettings) -> Result<TakeWriter, String> {
        let name = path.display().to_string();
        Ok(TakeWriter { take: None, format, name, settings, result: None, left_out: 0 })
    }

    /// Writes the next frame, shown at `at`.
    fn push(&mut self, frame: RgbaImage, at: Duration) {
        if self.result.is_some() {
            return;
        }
        let pushed = match &mut self.take {
            Some(take) => take.push(&frame, at),
            None => take_in_memory(self.format, &self.name, &frame, at, &self.settings)
                .map(|t| self.take = Some(t)),
        };
        if let Err(e) = pushed {
            self.take = None;
            self.result = Some(Err(e.to_string()));
        }
    }

    /// Ends the take at `at` and downloads it.
    fn end(&mut self, at: Duration) {
        if self.result.is_some() {
            return;
        }
        let Some(take) = self.take.take() else {
            self.result = Some(Err(NO_FRAME.into()));
            return;
        };
        let taken = take.finish(at).map_err(|e| e.to_string()).and_then(|taken| {
            if let TakeOutput::Memory(bytes) = &taken.output {
                download(&self.name, bytes, taken.format.media_type())?;
            }
            Ok(taken)
        });
        self.result = Some(taken);
    }

    /// The take, once it has ended.
    fn finished(&mut self) -> Option<Result<Taken, String>> {
        self.result.take()
    }

    /// Ends the take (the page is going).
    fn end_and_wait(mut self, at: Duration) -> Option<Result<Taken, String>> {
        self.end(at);
        self.finished()
    }

    fn left_out(&self) -> u64 {
        self.left_out
    }
}
