//! The window's recordings, on a thread of their own so the window stays responsive, with
//! progress and cancel: a picture's run (GIF, APNG or PNG frames) by the same recorder as
//! `--record`, or a whole clip sorted as `CLIP --out PATH` sorts it.

use crate::app::platform::Recorder;
use crate::app::recording_job::RecordingJob;
use crate::engine::Engine;
use crate::media::ClipWatch;
use crate::media::recording::{SoundSpec, VideoRecording};
use crate::record::{RecordReport, RecordTarget, record};
use crate::settings::{EncodeChoice, Settings};
use crate::sound::line::SoundLine;
use image::RgbaImage;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, channel};

/// A recording under way.
pub(in crate::app) struct BackgroundRecording {
    /// Where the recording goes.
    path: PathBuf,
    done: Arc<AtomicU64>,
    expected: Arc<AtomicU64>,
    cancel: Arc<AtomicBool>,
    /// The line to show when it ends well, or the error.
    result: Receiver<Result<String, String>>,
}

impl BackgroundRecording {
    /// Starts sorting every frame of the clip `input` into `settings.out` on a new thread.
    pub(in crate::app) fn start_clip(settings: Settings, input: PathBuf) -> Self {
        let watch = ClipWatch { quiet: true, ..ClipWatch::default() };
        let path = settings.out.clone().unwrap_or_default();
        let shared = (watch.done.clone(), watch.total.clone(), watch.cancel.clone());
        let work = move || -> anyhow::Result<String> {
            let report = crate::media::sort_clip_watched(&settings, &input, false, &watch)?;
            Ok(format!("recorded: {report}"))
        };
        BackgroundRecording::spawn(path, shared, work)
    }

    fn spawn(
        path: PathBuf,
        (done, expected, cancel): (Arc<AtomicU64>, Arc<AtomicU64>, Arc<AtomicBool>),
        work: impl FnOnce() -> anyhow::Result<String> + Send + 'static,
    ) -> Self {
        let (tx, result) = channel();
        let spawned = std::thread::Builder::new().name("window-recording".into()).spawn(move || {
            let _ = tx.send(work().map_err(|e| format!("{e:#}")));
        });
        if let Err(e) = spawned {
            let (tx, rx) = channel();
            let _ = tx.send(Err(format!("cannot start the recording: {e}")));
            return BackgroundRecording { path, done, expected, cancel, result: rx };
        }
        BackgroundRecording { path, done, expected, cancel, result }
    }
}

impl Recorder for BackgroundRecording {
    /// Starts recording a picture's run on a new thread.
    fn start(engine: Arc<Engine>, job: RecordingJob) -> Self {
        let (done, expected, cancel) =
            (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(1)), Arc::new(AtomicBool::new(false)));
        let (d, e, c) = (done.clone(), expected.clone(), cancel.clone());
        let path = job.path.clone();
        let work = move || -> anyhow::Result<String> {
            let target = RecordTarget::prepare(&job.path)?;
            let start = |first: &RgbaImage| job.start(&engine, first);
            let progress = |frames: u32, most: u32| {
                d.store(frames.into(), Ordering::Relaxed);
                e.store(most.into(), Ordering::Relaxed);
                !c.load(Ordering::Relaxed) && crate::interrupt::check().is_ok()
            };
            let report = match target {
                RecordTarget::Video(output) => {
                    let size = job.picture.dimensions();
                    let sound = job.settings.sound.then(|| SoundSpec {
                        line: SoundLine::of(&job.lines, size, job.sound_line),
                        key: job.options.key,
                    });
                    let encode = EncodeChoice::default();
                    let video = VideoRecording {
                        settings: &job.settings,
                        encode: &encode,
                        ffmpeg: None,
                        output,
                        sound,
                    };
                    video.record(engine.gpu(), &job.picture, start, progress)?
                }
                target => record(engine.gpu(), &job.picture, start, &job.settings, target, progress)?,
            };
            Ok(describe(&report))
        };
        BackgroundRecording::spawn(path, (done, expected, cancel), work)
    }

    fn path(&self) -> &Path {
        &self.path
    }

    /// Frames taken so far and the most expected.
    fn progress(&self) -> (u64, u64) {
        (self.done.load(Ordering::Relaxed), self.expected.load(Ordering::Relaxed).max(1))
    }

    /// Asks the recording to stop; it removes its temporary file.
    fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// Stops the recording and waits until it has removed its temporary file (at most a few
    /// seconds: it stops at its next frame).
    fn cancel_and_wait(self) {
        self.cancel();
        let _ = self.result.recv_timeout(std::time::Duration::from_secs(30));
    }

    /// The outcome, once the recording has ended.
    fn try_finish(&self) -> Option<Result<String, String>> {
        match self.result.try_recv() {
            Ok(outcome) => Some(outcome),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Err("the recording thread stopped unexpectedly".into())),
        }
    }
}

/// The line a finished recording of a picture's run leaves in the status.
fn describe(report: &RecordReport) -> String {
    format!(
        "recorded {} frames ({}), {} bytes: {}",
        report.recorded.frames,
        report.recorded.format.describe(),
        report.bytes,
        report.path.display()
    )
}
