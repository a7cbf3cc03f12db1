//! A clip in the native app: its frames played at the clip's rate, each sorted to the end with
//! the panel's settings as it comes (so settings can be tuned while it plays); paused, the
//! frame is a picture whose passes the step keys walk through; the frame keys and the slider
//! move through the clip, and G sorts the whole clip into a video.

use super::BackgroundRecording;
use crate::app::Running;
use crate::app::dialogs::Chosen;
use crate::app::platform::{ClipNews, ClipOpening, ClipPlayer, OpenedClip};
use crate::media::playback::{self, ClipReader, Next};
use crate::picture::input::{Picture, SizeLimit};
use crate::settings::VideoSettings;
use image::RgbaImage;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How long the app waits for a clip's first frame when it opens.
const FIRST_FRAME_WAIT: Duration = Duration::from_secs(60);

/// The clip being played, and where it is.
pub(in crate::app) struct WindowClip {
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

/// A clip being opened on a thread of its own, with the video settings it will play with.
pub(in crate::app) struct OpeningClip(playback::OpeningClip, VideoSettings);

impl WindowClip {
    /// Reads `reader`'s first frame at the size `limit` allows, as the picture the window
    /// starts on; the note says when frames are downscaled.
    pub(in crate::app) fn play(
        reader: ClipReader,
        limit: &SizeLimit,
        video: VideoSettings,
    ) -> anyhow::Result<OpenedClip<WindowClip>> {
        Ok(window_clip(reader.play(limit, FIRST_FRAME_WAIT)?, video))
    }

    /// Seconds between frames.
    fn period(&self) -> Duration {
        Duration::from_secs_f64(1.0 / self.reader.info().rate.fps().max(1e-3))
    }
}

/// The clip as the app plays it, from its first frame (the picture shown).
fn window_clip(opened: playback::OpenedClip, video: VideoSettings) -> OpenedClip<WindowClip> {
    let playback::OpenedClip { reader, first, note } = opened;
    let first = clip_picture(reader.path(), reader.info().has_alpha(), first);
    let clip = WindowClip { reader, shown: 0, playing: true, due: Instant::now(), awaited: None, video };
    OpenedClip { clip, first, note }
}

/// A frame of the clip at `path` as the picture the app sorts.
fn clip_picture(path: &Path, has_alpha: bool, pixels: RgbaImage) -> Picture {
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().replace('%', ""))
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "clip".into());
    Picture { pixels, name, label: format!("'{}'", path.display()), has_alpha, note: None }
}

impl ClipOpening for OpeningClip {
    type Clip = WindowClip;

    fn path(&self) -> &Path {
        self.0.path()
    }

    fn poll(&mut self) -> Option<Result<OpenedClip<WindowClip>, String>> {
        let answer = self.0.poll()?;
        Some(answer.map(|opened| window_clip(opened, self.1.clone())).map_err(|e| format!("{e:#}")))
    }
}

impl ClipPlayer for WindowClip {
    type Opening = OpeningClip;
    const NO_CLIP: &'static str = "no clip is open: , and . step through the frames of a video";

    fn is_clip(file: &Chosen) -> bool {
        matches!(file, Chosen::Path(path) if crate::media::is_clip(path))
    }

    fn open(running: &Running, path: PathBuf) -> Result<OpeningClip, String> {
        let video = &running.video;
        let opening = playback::OpeningClip::start(
            path,
            video.ffmpeg.clone(),
            video.frame_rate,
            running.limit.clone(),
            FIRST_FRAME_WAIT,
        );
        opening.map(|o| OpeningClip(o, video.clone())).map_err(|e| format!("{e:#}"))
    }

    fn busy(&self) -> bool {
        self.playing || self.awaited.is_some()
    }

    fn shown(&self) -> u64 {
        self.shown
    }

    fn wanted(&self) -> u64 {
        self.awaited.unwrap_or(self.shown)
    }

    fn frames(&self) -> u64 {
        self.reader.info().frames
    }

    fn fps(&self) -> f64 {
        self.reader.info().rate.fps()
    }

    fn size(&self) -> (u32, u32) {
        (self.reader.info().width, self.reader.info().height)
    }

    fn playing(&self) -> bool {
        self.playing
    }

    fn advance(&mut self, now: Instant) -> ClipNews {
        if !(self.awaited.is_some() || self.playing && now >= self.due) {
            return ClipNews::Nothing;
        }
        match self.reader.next_frame() {
            Next::Waiting => ClipNews::Nothing,
            Next::Frame(index, frame) => {
                self.due = (self.due + self.period()).max(now);
                self.shown = index;
                self.awaited = None;
                ClipNews::Frame(clip_picture(self.reader.path(), self.reader.info().has_alpha(), frame))
            }
            Next::Ended if self.playing && self.frames() > 1 => {
                // Played to the end: round again, as a loop to tune settings against.
                match self.reader.seek(0) {
                    Ok(()) => ClipNews::Nothing,
                    Err(e) => {
                        self.playing = false;
                        ClipNews::Failed(format!("{e:#}"))
                    }
                }
            }
            Next::Ended => {
                (self.playing, self.awaited) = (false, None);
                ClipNews::Nothing
            }
            Next::Failed(e) => {
                (self.playing, self.awaited) = (false, None);
                ClipNews::Failed(format!("{e:#}"))
            }
        }
    }

    fn toggle(&mut self) -> Result<(), String> {
        self.playing = !self.playing;
        self.awaited = None;
        if self.playing {
            self.due = Instant::now();
            if self.shown + 1 >= self.frames()
                && let Err(e) = self.reader.seek(0)
            {
                self.playing = false;
                return Err(format!("{e:#}"));
            }
        }
        Ok(())
    }

    fn seek(&mut self, index: u64) -> Result<(), String> {
        let index = index.min(self.frames().saturating_sub(1));
        if index == self.shown + 1 && self.awaited.is_none() && self.reader.is_reading() {
            // The reader is already on its way to the next frame.
            self.awaited = Some(index);
            return Ok(());
        }
        self.reader.seek(index).map_err(|e| format!("{e:#}"))?;
        self.awaited = Some(index);
        Ok(())
    }

    fn pause(&mut self) {
        self.playing = false;
    }

    /// `gifs/<name>.<ext>` in the clip's own container where ffmpeg writes it (a lossless one
    /// with `--lossless`), MP4 otherwise, or a folder of PNG frames for a clip given as
    /// picture files.
    fn recording_path(&self, stem: &str) -> PathBuf {
        if self.reader.is_frame_files() {
            return PathBuf::from("gifs").join(format!("{stem}-frames/"));
        }
        let own = crate::media::encoding::extension(self.reader.path());
        let ext = if self.video.encode.lossless {
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

    fn record(&self, running: &Running, path: PathBuf) -> BackgroundRecording {
        let mut settings = super::settings::command_line(running, path, self.video.clone());
        settings.image = Some(self.reader.path().to_path_buf());
        settings.clip = true;
        settings.mask = running.session.mask.as_ref().map(|m| m.path.clone());
        BackgroundRecording::start_clip(settings, self.reader.path().to_path_buf())
    }
}
