//! Files in and out of the window: opening (or dropping) a picture or a clip, and saving the
//! current state as a PNG named after the picture (and frame) and settings.

use super::dialogs::Chosen;
use super::platform::{ClipPlayer, WindowClip};
use super::saves::SaveJob;
use super::window_mask::FitTo;
use super::{Running, Source};
use crate::picture::input::Picture;
use std::path::PathBuf;

impl Running {
    /// Loads another picture, or starts opening a clip to play; on failure the current one stays
    /// and the error is shown. A mask that does not fit the new picture is dropped, with the error.
    pub(super) fn open(&mut self, file: Chosen) {
        if WindowClip::is_clip(&file) {
            self.open_clip(file.path().to_path_buf());
            return;
        }
        // A picture opened while a clip is still being opened replaces both.
        self.opening = None;
        let loaded = file.picture().and_then(|p| {
            let source = p.pixels.dimensions();
            Ok((source, p.fit(&self.limit)?))
        });
        match loaded {
            Ok((source, (picture, notice))) => {
                self.set_title(&picture.name);
                let label = picture.label.clone();
                self.source = Source::Picture;
                self.input = None;
                self.show_picture(picture, source);
                match notice {
                    Some(notice) => self.ui.status.say(notice),
                    None => self.ui.status.say(format!("opened {label}")),
                }
                self.ui.zoom = None;
                self.ui.pan = egui::Vec2::ZERO;
            }
            Err(e) => self.ui.status.error(e.to_string()),
        }
    }

    /// Sorts `picture` (of `source` size before fitting) from now on: the mask is fitted to it
    /// when its size differs, and the lanes start again.
    pub(super) fn show_picture(&mut self, picture: Picture, source: (u32, u32)) {
        let same_size = picture.pixels.dimensions() == self.session.picture.pixels.dimensions()
            && source == self.session.source_size;
        if !same_size && let Some(mask) = self.session.mask.take() {
            match mask.refit(FitTo::of(&picture, source)) {
                Ok(mask) => self.session.mask = Some(mask),
                Err(e) => self.ui.status.error(format!("mask dropped: {e}")),
            }
        }
        self.session.source_size = source;
        self.session.picture = picture;
        self.restart_lanes();
    }

    /// `<picture>-<algorithm>-<key>`, then `-angle<degrees>` for any direction but rows and
    /// `-<interval mode>` (or `-mask`) within intervals, as `--record` names its files.
    pub(super) fn file_stem(&self) -> String {
        let s = &self.session;
        let intervals = crate::intervals::file_suffix(s.intervals.mode, s.mask.is_some());
        let angle = s.lines.route().file_suffix();
        format!("{}-{}-{}{angle}{intervals}", s.picture.name, s.choice.algorithm.name(), s.choice.key.name())
    }

    /// What S names its file after: the stem, and the clip's frame (counted from 1) when a
    /// clip is open.
    fn frame_stem(&self) -> String {
        match self.source.clip() {
            Some(clip) => format!("{}-frame{}", self.file_stem(), clip.shown() + 1),
            None => self.file_stem(),
        }
    }

    /// S: records copying the first lane's state for a PNG that a later frame writes (see
    /// [`Running::write_saves`]); with the lens open, the next frame's window as shown too;
    /// while painting, the mask too.
    pub(super) fn save_png(&mut self) {
        let Some(lane) = self.session.lanes.lanes.first() else { return };
        let stem = format!("{}-pass{}", self.frame_stem(), lane.run.steps_done());
        let path = PathBuf::from(format!("{stem}.png"));
        let job = SaveJob { path, alpha: self.session.picture.has_alpha, view: false };
        self.saves.encode(&self.gpu, lane.run.state(), job);
        if self.ui.brush.is_some() && self.session.mask.is_some() {
            self.session.save_mask(&mut self.ui.status);
        }
        if self.lens.is_open() {
            let path = PathBuf::from(format!("{stem}-window.png"));
            self.saves.encode_view(&self.egui_ctx, SaveJob { path, alpha: false, view: true });
        }
    }

    /// Names the picture or clip shown in the window's title.
    pub(super) fn set_title(&self, name: &str) {
        self.egui_ctx.send_viewport_cmd(egui::ViewportCommand::Title(format!("shadersort — {name}")));
    }

    /// Writes what S saved once its copies have come back, and says so.
    pub(super) fn write_saves(&mut self) {
        let written = match self.saves.take(&self.gpu) {
            Ok(written) => written,
            Err(e) => return self.ui.status.error(format!("nothing was saved: {e}")),
        };
        for (job, result) in written {
            match (result, job.view) {
                (Ok(path), false) => self.ui.status.say(format!("saved {}", path.display())),
                (Ok(path), true) => self.ui.status.say(format!(
                    "{}; the window as shown: {}",
                    self.ui.status.line,
                    path.display()
                )),
                (Err(e), false) => self.ui.status.error(format!("{e:#}")),
                (Err(e), true) => self.ui.status.error(format!("the window view was not saved: {e:#}")),
            }
        }
    }
}
