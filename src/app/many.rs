//! Shift+G: many pictures sorted with the window's settings in the background (natively every
//! picture and clip in a folder, into the folder beside it; in the page the pictures picked,
//! downloaded together), its progress and cancel where a recording's are.

use super::Running;
use super::dialogs::{Chosen, Purpose};
use super::platform::{BackgroundRecording, Recorder};

impl Running {
    /// Asks for what to sort: natively a folder, in the page pictures.
    pub(super) fn pick_many(&mut self) {
        if self.recording.is_some() || self.take.is_some() {
            self.ui.status.say("a recording is already under way");
            return;
        }
        self.dialogs.pick(Purpose::Many, &self.egui_ctx);
    }

    /// Starts sorting `files` (what [`Running::pick_many`]'s dialog gave) with the settings.
    pub(super) fn sort_many(&mut self, files: Vec<Chosen>) {
        if self.recording.is_some() || self.take.is_some() {
            self.ui.status.say("a recording is already under way");
            return;
        }
        match BackgroundRecording::sort_many(self, files) {
            Ok(job) => {
                self.ui.status.say(format!("sorting into {}...", job.path().display()));
                self.recording = Some(job);
            }
            Err(e) => self.ui.status.error(e),
        }
    }
}
