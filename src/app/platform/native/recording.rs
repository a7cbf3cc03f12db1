//! The window's recordings, on a thread of their own so the window stays responsive, with
//! progress and cancel: a picture's run (GIF, APNG or PNG frames) by the same recorder as
//! `--record`, a whole clip sorted as `CLIP --out PATH` sorts it, or a folder sorted as
//! `FOLDER --out DIR/` sorts it.

use crate::app::Running;
use crate::app::dialogs::Chosen;
use crate::app::platform::Recorder;
use crate::app::recording_job::RecordingJob;
use crate::engine::Engine;
use crate::intervals::Mask;
use crate::media::ClipWatch;
use crate::media::batch::{Batch, Outcomes, gather, in_flight, nothing_found};
use crate::media::recording::{SoundSpec, VideoRecording};
use crate::picture::still_format::DEFAULT_JPEG_QUALITY;
use crate::record::{RecordReport, RecordTarget, record};
use crate::settings::{BatchSettings, EncodeChoice, Settings};
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
    /// What `done` and `expected` count.
    counts: &'static str,
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
            return BackgroundRecording { path, done, expected, cancel, result: rx, counts: "frames" };
        }
        BackgroundRecording { path, done, expected, cancel, result, counts: "frames" }
    }

    /// Starts sorting the batch of `settings` (its inputs, into its `out` folder) on a new thread,
    /// on a GPU of its own, with `mask` stretched to each picture.
    fn start_batch(settings: Settings, mask: Option<Mask>) -> Self {
        let out_dir = settings.out.clone().unwrap_or_default();
        let (done, expected, cancel) =
            (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(1)), Arc::new(AtomicBool::new(false)));
        let (d, e, c) = (done.clone(), expected.clone(), cancel.clone());
        let out = out_dir.clone();
        let work = move || -> anyhow::Result<String> {
            let started = std::time::Instant::now();
            let batch = settings.batch.as_ref().expect("a batch's settings");
            let found =
                gather(&batch.inputs, batch.recursive, &out, batch.format).map_err(anyhow::Error::msg)?;
            anyhow::ensure!(!found.jobs.is_empty(), nothing_found(&batch.inputs, batch.recursive));
            std::fs::create_dir_all(&out)
                .map_err(|e| anyhow::anyhow!("cannot create the folder '{}': {e}", out.display()))?;
            e.store(found.jobs.len() as u64, Ordering::Relaxed);
            let mut outcomes = Outcomes::new(&found.jobs);
            let (jobs, room) = (&found.jobs, in_flight());
            let run = Batch { settings: &settings, batch, jobs, mask: mask.as_ref(), room, cancel: c };
            let open =
                || -> anyhow::Result<Engine> { Ok(Engine::new(Arc::new(crate::gpu::Gpu::headless()?))) };
            let adapter = run.run(open, |report| {
                if let Some(line) = outcomes.take(report) {
                    log::info!("{line}");
                }
                d.store(outcomes.files_done, Ordering::Relaxed);
            });
            let summary =
                outcomes.summary(&out, started.elapsed(), found.other_files, adapter.as_deref().ok(), false);
            adapter?;
            if run.cancel.load(Ordering::Relaxed) {
                anyhow::bail!("stopped: {summary}");
            }
            match outcomes.skipped().is_empty() {
                true => Ok(summary),
                false => Err(anyhow::anyhow!(summary)),
            }
        };
        BackgroundRecording {
            counts: "files",
            ..BackgroundRecording::spawn(out_dir, (done, expected, cancel), work)
        }
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

    /// Sorts every picture and clip in the folder chosen with the window's settings into the
    /// folder beside it named `<folder>-sorted`, as `FOLDER --out <folder>-sorted/` would.
    fn sort_many(running: &Running, files: Vec<Chosen>) -> Result<Self, String> {
        let folder = match files.as_slice() {
            [Chosen::Path(folder)] if folder.is_dir() => folder.clone(),
            [chosen] => {
                let shown = chosen.path().display();
                return Err(format!("'{shown}' is not a folder: choose a folder of pictures or clips"));
            }
            _ => return Err("choose one folder of pictures or clips".into()),
        };
        let mut settings =
            super::settings::command_line(running, sorted_folder(&folder), running.video.clone());
        settings.batch = Some(BatchSettings {
            inputs: vec![folder],
            recursive: false,
            format: None,
            quality: DEFAULT_JPEG_QUALITY,
            overwrite: false,
        });
        let mask = running.session.mask.as_ref().map(|m| m.mask().clone());
        Ok(BackgroundRecording::start_batch(settings, mask))
    }

    fn path(&self) -> &Path {
        &self.path
    }

    fn counts(&self) -> &'static str {
        self.counts
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

/// Where a folder's pictures go sorted: the folder beside it with `-sorted` after its name
/// (`photos/` into `photos-sorted/`).
fn sorted_folder(folder: &Path) -> PathBuf {
    let name = folder.file_name().map_or_else(|| "pictures".into(), |n| n.to_string_lossy().into_owned());
    let beside = folder.canonicalize().ok().and_then(|f| f.parent().map(Path::to_path_buf));
    beside.unwrap_or_else(|| folder.join("..")).join(format!("{name}-sorted"))
}
