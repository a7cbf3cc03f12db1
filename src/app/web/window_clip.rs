//! Clips in the page: there are none. Clips are read and written through ffmpeg, which only the
//! native program runs; a clip handed to the page is refused with a line saying where it plays,
//! and the clip's keys say the same.

use super::Running;
use super::dialogs::Chosen;
use super::panel_model::ClipView;
use crate::picture::input::VIDEO_EXTENSIONS;
use std::path::PathBuf;
use web_time::Instant;

/// A clip being played: never, in the page.
pub(super) enum WindowClip {}

impl WindowClip {
    pub(super) fn busy(&self) -> bool {
        match *self {}
    }

    pub(super) fn shown(&self) -> u64 {
        match *self {}
    }
}

/// A clip being opened: never, in the page.
pub(super) enum OpeningClip {}

/// Whether `file` is named as a video.
pub(super) fn is_clip(file: &Chosen) -> bool {
    let ext = file.path().extension().map(|e| e.to_string_lossy().to_ascii_lowercase());
    ext.is_some_and(|ext| VIDEO_EXTENSIONS.contains(&ext.as_str()))
}

/// What the page says of clips.
const NATIVE_ONLY: &str = "clips play in the native program (`shadersort CLIP`), which reads them through ffmpeg; the page sorts pictures";

impl Running {
    pub(super) fn open_clip(&mut self, path: PathBuf) {
        self.ui.error(format!("{} is a clip: {NATIVE_ONLY}", path.display()));
    }

    pub(super) fn check_opening(&mut self) -> bool {
        false
    }

    pub(super) fn step_clip(&mut self, _delta: i64) {
        self.ui.say(format!("no clip is open: {NATIVE_ONLY}"));
    }

    pub(super) fn clip_view(&self) -> Option<ClipView> {
        None
    }

    // With no clip, nothing moves: these are only called while a clip is open, or do nothing
    // without one natively too.
    pub(super) fn advance_clip(&mut self, _now: Instant) {}
    pub(super) fn toggle_clip(&mut self) {}
    pub(super) fn pause_clip(&mut self) {}
    pub(super) fn seek_clip(&mut self, _index: u64) {}
    pub(super) fn report_frame(&self) {}
    pub(super) fn start_clip_recording(&mut self) {}
}
