//! Clips in the page: there are none. Clips are read and written through ffmpeg, which only the
//! native program runs; a clip handed to the page is refused with a line saying where it plays,
//! and the frame keys say the same. The player and its opening are types with no values, so
//! the app's clip code, written once, never reaches them here.

use super::BackgroundRecording;
use crate::app::Running;
use crate::app::dialogs::Chosen;
use crate::app::platform::{ClipNews, ClipOpening, ClipPlayer, OpenedClip};
use crate::picture::input::VIDEO_EXTENSIONS;
use std::path::{Path, PathBuf};
use web_time::Instant;

/// What the page says of clips (a macro, so that `concat!` can take it).
macro_rules! native_only {
    () => {
        "clips play in the native program (`shadersort CLIP`), which reads them through ffmpeg; the page sorts pictures"
    };
}

/// A clip being played: never, in the page.
pub(in crate::app) enum WindowClip {}

/// A clip being opened: never, in the page.
pub(in crate::app) enum OpeningClip {}

impl ClipOpening for OpeningClip {
    type Clip = WindowClip;

    fn path(&self) -> &Path {
        match *self {}
    }

    fn poll(&mut self) -> Option<Result<OpenedClip<WindowClip>, String>> {
        match *self {}
    }
}

impl ClipPlayer for WindowClip {
    type Opening = OpeningClip;
    const NO_CLIP: &'static str = concat!("no clip is open: ", native_only!());

    /// Whether `file` is named as a video.
    fn is_clip(file: &Chosen) -> bool {
        let ext = file.path().extension().map(|e| e.to_string_lossy().to_ascii_lowercase());
        ext.is_some_and(|ext| VIDEO_EXTENSIONS.contains(&ext.as_str()))
    }

    fn open(_running: &Running, path: PathBuf) -> Result<OpeningClip, String> {
        Err(format!(concat!("{} is a clip: ", native_only!()), path.display()))
    }

    fn busy(&self) -> bool {
        match *self {}
    }

    fn shown(&self) -> u64 {
        match *self {}
    }

    fn wanted(&self) -> u64 {
        match *self {}
    }

    fn frames(&self) -> u64 {
        match *self {}
    }

    fn fps(&self) -> f64 {
        match *self {}
    }

    fn size(&self) -> (u32, u32) {
        match *self {}
    }

    fn playing(&self) -> bool {
        match *self {}
    }

    fn advance(&mut self, _now: Instant) -> ClipNews {
        match *self {}
    }

    fn toggle(&mut self) -> Result<(), String> {
        match *self {}
    }

    fn seek(&mut self, _index: u64) -> Result<(), String> {
        match *self {}
    }

    fn pause(&mut self) {
        match *self {}
    }

    fn recording_path(&self, _stem: &str) -> PathBuf {
        match *self {}
    }

    fn record(&self, _running: &Running, _path: PathBuf) -> BackgroundRecording {
        match *self {}
    }
}
