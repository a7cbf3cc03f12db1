//! A clip in the app, written once over [`ClipPlayer`]: opening one, playing it frame by
//! frame, the keys that pause, step and seek, the panel's view of it and G. (The page's player
//! plays none and says where clips play.)

use super::panel_model::ClipView;
use super::platform::{ClipNews, ClipOpening, ClipPlayer, OpenedClip, WindowClip};
use super::{Running, Source};
use std::path::PathBuf;
use web_time::Instant;

impl Running {
    /// Starts opening the clip at `path` (the open dialog or a drop) on a thread of its own: the
    /// app goes on with the current picture or clip until the new one's first frame is read.
    pub(super) fn open_clip(&mut self, path: PathBuf) {
        match WindowClip::open(self, path) {
            Ok(opening) => {
                self.ui.status.say(format!("opening '{}' …", opening.path().display()));
                self.opening = Some(opening);
            }
            Err(e) => self.ui.status.error(e),
        }
    }

    /// Plays the clip being opened once it is open, in place of the picture; on failure the
    /// current picture or clip stays and the error is shown. Returns whether anything changed.
    pub(super) fn check_opening(&mut self) -> bool {
        let Some(answer) = self.opening.as_mut().and_then(ClipOpening::poll) else { return false };
        self.opening = None;
        match answer {
            Ok(OpenedClip { clip, first, note }) => {
                let (frames, fps, size) = (clip.frames(), clip.fps(), clip.size());
                self.source = Source::Clip(Box::new(clip));
                self.show_picture(first, size);
                self.ui.zoom = None;
                self.ui.pan = egui::Vec2::ZERO;
                self.set_title(&self.session.picture.name.clone());
                let line = format!(
                    "opened {} — {frames} frames at {fps:.3} fps; Space pauses, , and . step frames",
                    self.session.picture.label,
                );
                match note {
                    Some(note) => self.ui.status.say(format!("{note}; {line}")),
                    None => self.ui.status.say(line),
                }
                self.report_frame();
            }
            Err(e) => self.ui.status.error(e),
        }
        true
    }

    /// Shows the clip's next frame when one is due.
    pub(super) fn advance_clip(&mut self, now: Instant) {
        let Some(clip) = self.source.clip_mut() else { return };
        match clip.advance(now) {
            ClipNews::Nothing => {}
            ClipNews::Frame(picture) => {
                let size = self.session.source_size;
                self.show_picture(picture, size);
                self.report_frame();
            }
            ClipNews::Failed(e) => self.ui.status.error(e),
        }
    }

    /// Space with a clip open: plays or pauses the clip (at the last frame, from the start).
    pub(super) fn toggle_clip(&mut self) {
        let Some(clip) = self.source.clip_mut() else { return };
        if let Err(e) = clip.toggle() {
            self.ui.status.error(e);
        } else if !clip.playing() {
            let (frame, frames) = (clip.shown() + 1, clip.frames());
            self.ui.status.say(format!(
                "paused at frame {frame}/{frames}; the step keys walk through its steps, , and . step frames"
            ));
        }
    }

    /// Pauses the clip on the frame shown.
    pub(super) fn pause_clip(&mut self) {
        if self.source.clip().is_some_and(ClipPlayer::playing) {
            self.toggle_clip();
        }
    }

    /// Shows frame `index` (counted from 0) when it has been decoded, and plays on from there
    /// if the clip was playing.
    pub(super) fn seek_clip(&mut self, index: u64) {
        if let Some(Err(e)) = self.source.clip_mut().map(|clip| clip.seek(index)) {
            self.ui.status.error(e);
        }
    }

    /// The frame after the one shown (`delta` 1) or before it (-1), paused.
    pub(super) fn step_clip(&mut self, delta: i64) {
        let Some(clip) = self.source.clip_mut() else {
            self.ui.status.say(WindowClip::NO_CLIP);
            return;
        };
        let target = clip.wanted().saturating_add_signed(delta);
        let frames = clip.frames();
        clip.pause();
        if delta > 0 && target >= frames {
            self.ui.status.say(format!("frame {frames}/{frames} is the last of the clip"));
            return;
        }
        self.seek_clip(target);
    }

    /// Logs "frame k/n" for the frame shown (the window test follows it).
    pub(super) fn report_frame(&self) {
        if let Some(clip) = self.source.clip() {
            log::info!("frame {}/{}", clip.shown() + 1, clip.frames());
        }
    }

    /// What the panel shows of the clip.
    pub(super) fn clip_view(&self) -> Option<ClipView> {
        let clip = self.source.clip()?;
        Some(ClipView {
            frame: clip.wanted() + 1,
            frames: clip.frames(),
            fps: clip.fps(),
            playing: clip.playing(),
            record_path: clip.recording_path(&self.file_stem()).display().to_string(),
        })
    }

    /// G with a clip open: every frame sorted with the current settings into a video in `gifs/`,
    /// in the background.
    pub(super) fn start_clip_recording(&mut self) {
        let Some(clip) = self.source.clip() else { return };
        let path = clip.recording_path(&self.file_stem());
        if let Err(e) = std::fs::create_dir_all("gifs") {
            self.ui.status.error(format!("cannot create the folder gifs: {e}"));
            return;
        }
        self.recording = Some(clip.record(self, path.clone()));
        self.ui.status.say(format!("recording {} ...", path.display()));
    }
}
