//! What the window and the page do differently, each as one interface with two
//! implementations: the native program's (`native/`: threads, files, ffmpeg) and the page's
//! (`web/`: one thread, downloads, the browser's camera). Recordings made while the app goes
//! on (G), a take of a live source's frames, opening the camera, the steps' sound, and clips,
//! which only the native program plays. The rest of the app is written once against these traits; each
//! build compiles one implementation, and CI builds both (the page with clippy for wasm32).

#[cfg(not(target_arch = "wasm32"))]
mod native;
#[cfg(target_arch = "wasm32")]
mod web;

#[cfg(not(target_arch = "wasm32"))]
pub(super) use native::{
    BackgroundRecording, DeviceSound as Sound, OpeningCamera, OpeningClip, TakeWriter, WindowClip, open_live,
};
#[cfg(target_arch = "wasm32")]
pub(super) use web::{
    BackgroundRecording, OpeningCamera, OpeningClip, PageSound as Sound, TakeWriter, WindowClip,
};

use super::Running;
use super::dialogs::Chosen;
use super::recording_job::RecordingJob;
use crate::engine::Engine;
use crate::picture::input::Picture;
use crate::picture::live::Started;
use crate::record::RecordFormat;
use crate::record::take::Taken;
use crate::settings::RecordSettings;
use image::RgbaImage;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use web_time::Instant;

/// A recording made while the app goes on (G), with progress and cancel.
pub(super) trait Recorder: Sized {
    /// Starts recording a picture's run.
    fn start(engine: Arc<Engine>, job: RecordingJob) -> Self;
    /// Where the recording goes (natively a file, in the page a download's name).
    fn path(&self) -> &Path;
    /// Sorts many pictures with the app's settings (natively every picture and clip in the
    /// folder chosen, in the page the pictures chosen), counted in files; or why not.
    fn sort_many(running: &Running, files: Vec<Chosen>) -> Result<Self, String>;
    /// Frames (or for [`Recorder::sort_many`] files) done so far and the most expected.
    fn progress(&self) -> (u64, u64);
    /// What [`Recorder::progress`] counts: "frames" or "files".
    fn counts(&self) -> &'static str;
    /// Asks the recording to stop at its next frame; it leaves nothing (many files sorted: the
    /// files written stay, as Ctrl-C leaves them).
    fn cancel(&self);
    /// Stops the recording and waits until it has left nothing behind (the app is closing).
    fn cancel_and_wait(self);
    /// The line to show once the recording has ended, or its error.
    fn try_finish(&self) -> Option<Result<String, String>>;
}

/// Where the steps' sound is played: natively the default output device, in the page Web Audio.
pub(super) trait SoundOut: Sized {
    /// Opens the output; the error says why there is none (no device).
    fn open() -> Result<Self, String>;
    /// Samples per second it plays.
    fn rate(&self) -> u32;
    /// What it plays to, for the status: "48000 Hz, 2 channels of f32".
    fn describe(&self) -> String;
    /// Plays mono `samples` after those before, at `volume` (0 to 1).
    fn play(&mut self, samples: &[i16], volume: f32);
}

/// A take's frames written as they are shown (G while a live source is shown).
pub(super) trait TakeSink: Sized {
    /// Starts a take into `path` (in the page, a download of that name) in `format`.
    fn start(path: &Path, format: RecordFormat, settings: RecordSettings) -> Result<Self, String>;
    /// Hands over the next frame, shown at `at`.
    fn push(&mut self, frame: RgbaImage, at: Duration);
    /// Ends the take at `at`; it is finished in the background.
    fn end(&mut self, at: Duration);
    /// The take, once it is in place (or failed).
    fn finished(&mut self) -> Option<Result<Taken, String>>;
    /// Ends the take and waits until it is in place (the app is closing).
    fn end_and_wait(self, at: Duration) -> Option<Result<Taken, String>>;
    /// Frames the writer had no room for.
    fn left_out(&self) -> u64;
}

/// The camera being opened (the Camera button), shown once its first frame comes.
pub(super) trait CameraOpening: Sized {
    /// Starts opening the default camera with the app's size limit (and natively its ffmpeg).
    fn camera(running: &Running) -> Result<Self, String>;
    /// The source once its first frame is there, or why it could not be opened.
    fn poll(&mut self) -> Option<Result<Started, String>>;
}

/// A clip opened: the player, its first frame as the picture shown, and a note (downscaling).
pub(super) struct OpenedClip<C> {
    pub clip: C,
    pub first: Picture,
    pub note: Option<String>,
}

/// What a playing clip's frame brought.
#[cfg_attr(target_arch = "wasm32", expect(dead_code, reason = "the page plays no clips"))]
pub(super) enum ClipNews {
    /// Nothing new to show.
    Nothing,
    /// A new frame to show.
    Frame(Picture),
    /// The clip stopped on an error.
    Failed(String),
}

/// A clip played in the app: frames at the clip's rate, paused, stepped, sought.
pub(super) trait ClipPlayer: Sized {
    /// A clip being opened on a thread of its own.
    type Opening: ClipOpening<Clip = Self>;
    /// What the frame keys say when no clip is open.
    const NO_CLIP: &'static str;
    /// Whether `file` is a clip to play rather than a picture.
    fn is_clip(file: &Chosen) -> bool;
    /// Starts opening the clip at `path` with the app's size limit and video settings, or why not.
    fn open(running: &Running, path: PathBuf) -> Result<Self::Opening, String>;
    /// Whether the app must keep drawing frames for the clip.
    fn busy(&self) -> bool;
    /// The frame shown, counted from 0.
    fn shown(&self) -> u64;
    /// The frame shown, or the one asked for and not here yet.
    fn wanted(&self) -> u64;
    /// Frames in the clip.
    fn frames(&self) -> u64;
    /// Frames per second.
    fn fps(&self) -> f64;
    /// The clip's own frame size (frames may be shown downscaled).
    fn size(&self) -> (u32, u32);
    /// Whether frames follow each other at the clip's rate.
    fn playing(&self) -> bool;
    /// The next frame once it is due: while playing, at the clip's rate; paused, the one asked for.
    fn advance(&mut self, now: Instant) -> ClipNews;
    /// Plays or pauses (at the last frame, plays from the start).
    fn toggle(&mut self) -> Result<(), String>;
    /// Shows frame `index` (from 0, at most the last) once it is decoded.
    fn seek(&mut self, index: u64) -> Result<(), String>;
    /// Stops playing; a frame asked for is still shown when it comes.
    fn pause(&mut self);
    /// Where G writes the clip sorted, for a picture named `stem`.
    fn recording_path(&self, stem: &str) -> PathBuf;
    /// G: every frame sorted with the running app's settings into `path`, in the background.
    fn record(&self, running: &Running, path: PathBuf) -> BackgroundRecording;
}

/// A clip being opened.
pub(super) trait ClipOpening {
    /// The player it becomes.
    type Clip;
    /// The clip's path.
    fn path(&self) -> &Path;
    /// The clip once its first frame is read, or why it could not be opened.
    fn poll(&mut self) -> Option<Result<OpenedClip<Self::Clip>, String>>;
}
