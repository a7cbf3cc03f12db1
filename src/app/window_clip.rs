//! A clip in the window: its frames played at the clip's rate, each sorted to the end with the
//! panel's settings as it comes (so settings can be tuned while it plays); paused, the frame is
//! a picture whose passes the step keys walk through; the frame keys and the slider move
//! through the clip, and G sorts the whole clip into a video.

use super::Running;
use super::dialogs::Chosen;
use super::panel_model::ClipView;
pub(super) use crate::media::playback::OpeningClip;
use crate::media::playback::{ClipReader, Next, OpenedClip};
use crate::picture::input::Picture;
use crate::settings::{Settings, VideoSettings};
use image::RgbaImage;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How long the window waits for a clip's first frame when it opens.
const FIRST_FRAME_WAIT: Duration = Duration::from_secs(60);

/// The clip being played, and where it is.
pub(super) struct WindowClip {
    reader: ClipReader,
    /// The frame shown, counted from 0.
    shown: u64,
    /// Whether frames follow each other at the clip's rate.
    playing: bool,
    /// When the next frame is due while playing.
    due: Instant,
    /// A frame asked for while paused (a seek or a frame key), shown when it comes.
    awaited: Option<u64>,
    /// How the clip was read and how G writes it.
    video: VideoSettings,
}

/// Whether `file` is a clip to play rather than a picture.
pub(super) fn is_clip(file: &Chosen) -> bool {
    matches!(file, Chosen::Path(path) if crate::media::is_clip(path))
}

/// Opens the clip at `path` and reads its first frame at the size `limit` allows, as the
/// picture the window starts on; the note says when frames are downscaled.
pub(super) fn open_clip(
    reader: ClipReader,
    limit: &crate::picture::input::SizeLimit,
    video: VideoSettings,
) -> anyhow::Result<(WindowClip, Picture, Option<String>)> {
    Ok(window_clip(reader.play(limit, FIRST_FRAME_WAIT)?, video))
}

/// The clip as the window plays it, from its first frame (the picture shown).
fn window_clip(opened: OpenedClip, video: VideoSettings) -> (WindowClip, Picture, Option<String>) {
    let OpenedClip { reader, first, note } = opened;
    let picture = clip_picture(reader.path(), reader.info().has_alpha(), first);
    let clip = WindowClip { reader, shown: 0, playing: true, due: Instant::now(), awaited: None, video };
    (clip, picture, note)
}

/// A frame of the clip at `path` as the picture the window sorts.
fn clip_picture(path: &Path, has_alpha: bool, pixels: RgbaImage) -> Picture {
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().replace('%', ""))
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "clip".into());
    Picture { pixels, name, label: format!("'{}'", path.display()), has_alpha, note: None }
}

impl WindowClip {
    /// Seconds between frames.
    fn period(&self) -> Duration {
        Duration::from_secs_f64(1.0 / self.reader.info().rate.fps().max(1e-3))
    }

    /// Whether the window must keep drawing frames for the clip.
    pub(super) fn busy(&self) -> bool {
        self.playing || self.awaited.is_some()
    }

    /// The frame shown, counted from 0.
    pub(super) fn shown(&self) -> u64 {
        self.shown
    }
}

impl Running {
    /// Starts opening the clip at `path` (the open dialog or a drop) on a thread of its own: the
    /// window goes on with the current picture or clip until the new one's first frame is read.
    pub(super) fn open_clip(&mut self, path: PathBuf) {
        let video = &self.video;
        let opening = OpeningClip::start(
            path,
            video.ffmpeg.clone(),
            video.frame_rate,
            self.limit.clone(),
            FIRST_FRAME_WAIT,
        );
        match opening {
            Ok(opening) => {
                self.ui.say(format!("opening '{}' …", opening.path().display()));
                self.opening = Some(opening);
            }
            Err(e) => self.ui.error(format!("{e:#}")),
        }
    }

    /// Plays the clip being opened once it is open, in place of the picture; on failure the
    /// current picture or clip stays and the error is shown. Returns whether anything changed.
    pub(super) fn check_opening(&mut self) -> bool {
        let Some(answer) = self.opening.as_mut().and_then(OpeningClip::poll) else { return false };
        self.opening = None;
        match answer {
            Ok(opened) => {
                let (clip, picture, note) = window_clip(opened, self.video.clone());
                let info = clip.reader.info().clone();
                self.clip = Some(clip);
                self.live = None;
                self.show_picture(picture, (info.width, info.height));
                self.ui.zoom = None;
                self.ui.pan = egui::Vec2::ZERO;
                self.set_title(&self.session.picture.name.clone());
                let line = format!(
                    "opened {} — {} frames at {:.3} fps; Space pauses, , and . step frames",
                    self.session.picture.label,
                    info.frames,
                    info.rate.fps()
                );
                match note {
                    Some(note) => self.ui.say(format!("{note}; {line}")),
                    None => self.ui.say(line),
                }
                self.report_frame();
            }
            Err(e) => self.ui.error(format!("{e:#}")),
        }
        true
    }

    /// Shows the next frame when one is due: while playing, at the clip's rate (never faster;
    /// slower when sorting takes longer), or the frame asked for while paused.
    pub(super) fn advance_clip(&mut self, now: Instant) {
        let Some(clip) = self.clip.as_mut() else { return };
        if !(clip.awaited.is_some() || clip.playing && now >= clip.due) {
            return;
        }
        match clip.reader.next_frame() {
            Next::Waiting => {}
            Next::Frame(index, frame) => {
                let period = clip.period();
                clip.due = (clip.due + period).max(now);
                clip.shown = index;
                clip.awaited = None;
                let picture = clip_picture(clip.reader.path(), clip.reader.info().has_alpha(), frame);
                let size = self.session.source_size;
                self.show_picture(picture, size);
                self.report_frame();
            }
            Next::Ended if clip.playing && clip.reader.info().frames > 1 => {
                // Played to the end: round again, as a loop to tune settings against.
                if let Err(e) = clip.reader.seek(0) {
                    clip.playing = false;
                    self.ui.error(format!("{e:#}"));
                }
            }
            Next::Ended => {
                clip.playing = false;
                clip.awaited = None;
            }
            Next::Failed(e) => {
                clip.playing = false;
                clip.awaited = None;
                self.ui.error(format!("{e:#}"));
            }
        }
    }

    /// Space with a clip open: plays or pauses the clip (at the last frame, from the start).
    pub(super) fn toggle_clip(&mut self) {
        let Some(clip) = self.clip.as_mut() else { return };
        clip.playing = !clip.playing;
        clip.awaited = None;
        if clip.playing {
            clip.due = Instant::now();
            if clip.shown + 1 >= clip.reader.info().frames
                && let Err(e) = clip.reader.seek(0)
            {
                clip.playing = false;
                self.ui.error(format!("{e:#}"));
            }
        } else {
            let (frame, frames) = (clip.shown + 1, clip.reader.info().frames);
            self.ui.say(format!(
                "paused at frame {frame}/{frames}; the step keys walk through its passes, , and . step frames"
            ));
        }
    }

    /// Pauses the clip on the frame shown.
    pub(super) fn pause_clip(&mut self) {
        if let Some(clip) = self.clip.as_mut()
            && clip.playing
        {
            self.toggle_clip();
        }
    }

    /// Shows frame `index` (counted from 0) when it has been decoded, and plays on from there
    /// if the clip was playing.
    pub(super) fn seek_clip(&mut self, index: u64) {
        let Some(clip) = self.clip.as_mut() else { return };
        let last = clip.reader.info().frames.saturating_sub(1);
        let index = index.min(last);
        if index == clip.shown + 1 && clip.awaited.is_none() && clip.reader.is_reading() {
            // The reader is already on its way to the next frame.
            clip.awaited = Some(index);
            return;
        }
        match clip.reader.seek(index) {
            Ok(()) => clip.awaited = Some(index),
            Err(e) => self.ui.error(format!("{e:#}")),
        }
    }

    /// The frame after the one shown (`delta` 1) or before it (-1), paused.
    pub(super) fn step_clip(&mut self, delta: i64) {
        let Some(clip) = self.clip.as_ref() else {
            self.ui.say("no clip is open: , and . step through the frames of a video");
            return;
        };
        let target = clip.awaited.unwrap_or(clip.shown).saturating_add_signed(delta);
        let frames = clip.reader.info().frames;
        self.clip.as_mut().expect("checked above").playing = false;
        if delta > 0 && target >= frames {
            self.ui.say(format!("frame {frames}/{frames} is the last of the clip"));
            return;
        }
        self.seek_clip(target);
    }

    /// Logs "frame k/n" for the frame shown (the window test follows it).
    pub(super) fn report_frame(&self) {
        if let Some(clip) = &self.clip {
            log::info!("frame {}/{}", clip.shown + 1, clip.reader.info().frames);
        }
    }

    /// What the panel shows of the clip.
    pub(super) fn clip_view(&self) -> Option<ClipView> {
        let clip = self.clip.as_ref()?;
        Some(ClipView {
            frame: clip.awaited.unwrap_or(clip.shown) + 1,
            frames: clip.reader.info().frames,
            fps: clip.reader.info().rate.fps(),
            playing: clip.playing,
            record_path: self.clip_recording_path().display().to_string(),
        })
    }

    /// G with a clip open: every frame sorted with the current settings into a video in `gifs/`,
    /// in the background.
    pub(super) fn start_clip_recording(&mut self) {
        let Some(clip) = &self.clip else { return };
        let path = self.clip_recording_path();
        if let Err(e) = std::fs::create_dir_all("gifs") {
            self.ui.error(format!("cannot create the folder gifs: {e}"));
            return;
        }
        let s = &self.session;
        let settings = Settings {
            image: Some(clip.reader.path().to_path_buf()),
            mask: s.mask.as_ref().map(|m| m.path.clone()),
            algorithm: s.algorithm,
            options: s.options,
            direction: s.lines.layout().angle().unwrap_or_default(),
            path: match s.lines.layout() {
                crate::angle::Layout::Path(path) => Some(path),
                crate::angle::Layout::Angle(_) => None,
            },
            run: s.run,
            phases_per_step_given: false,
            intervals: s.intervals,
            sweep: None,
            passes: None,
            record: self.record_settings.clone(),
            max_size: self.options_max_size,
            no_downscale: !self.limit.downscale,
            out: Some(path.clone()),
            png_compression: Default::default(),
            record_to: None,
            play: false,
            lens: None,
            speed: None,
            quit_after: None,
            clip: true,
            video: clip.video.clone(),
        };
        let input = clip.reader.path().to_path_buf();
        self.recording = Some(super::recording::BackgroundRecording::start_clip(settings, input));
        self.ui.say(format!("recording {} ...", path.display()));
    }

    /// Where G writes the sorted clip: `gifs/<name>.<ext>` in the clip's own container where
    /// ffmpeg writes it (a lossless one with `--lossless`), MP4 otherwise, or a folder of PNG
    /// frames for a clip given as picture files.
    fn clip_recording_path(&self) -> PathBuf {
        let Some(clip) = &self.clip else { return PathBuf::new() };
        let stem = self.file_stem();
        if clip.reader.is_frame_files() {
            return PathBuf::from("gifs").join(format!("{stem}-frames/"));
        }
        let own = crate::media::encoding::extension(clip.reader.path());
        let ext = if clip.video.encode.lossless {
            match own.as_str() {
                "mkv" | "avi" | "nut" | "mov" => own.as_str(),
                _ => "mkv",
            }
        } else {
            match own.as_str() {
                "mp4" | "m4v" | "mov" | "mkv" | "avi" | "webm" | "gif" => own.as_str(),
                _ => "mp4",
            }
        };
        PathBuf::from("gifs").join(format!("{stem}.{ext}"))
    }
}
