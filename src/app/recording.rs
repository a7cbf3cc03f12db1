//! The window's recording (GIF, APNG or PNG frames): the same recorder as `--record`, on a
//! thread of its own so the window stays responsive, with progress and cancel.

use crate::algorithms::{Algorithm, Pipelines, RunSettings};
use crate::angle::Lines;
use crate::angle::scatter::LineScatter;
use crate::gpu::Gpu;
use crate::intervals::RunMap;
use crate::keys::options::SortOptions;
use crate::record::{RecordReport, RecordSettings, RecordTarget, record};
use image::RgbaImage;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, channel};

/// What is being recorded and how.
pub struct RecordingJob {
    /// The picture.
    pub picture: RgbaImage,
    /// The lines to sort along, as the window does.
    pub lines: Lines,
    /// Key, order, axis.
    pub options: SortOptions,
    /// Algorithm.
    pub algorithm: Algorithm,
    /// Pass kind, phases per step (as the format records them).
    pub run_settings: RunSettings,
    /// Frame spacing, speed, scale...
    pub settings: RecordSettings,
    /// Where the recording goes (its extension, or a trailing /, says the format).
    pub path: PathBuf,
    /// The runs to sort within, as the window does (`None`: whole lines).
    pub runs: Option<RunMap>,
}

/// A recording under way.
pub struct BackgroundRecording {
    /// Where the recording goes.
    pub path: PathBuf,
    done: Arc<AtomicU32>,
    expected: Arc<AtomicU32>,
    cancel: Arc<AtomicBool>,
    result: Receiver<Result<RecordReport, String>>,
}

impl BackgroundRecording {
    /// Starts recording on a new thread.
    pub fn start(gpu: Arc<Gpu>, job: RecordingJob) -> Self {
        let (done, expected, cancel) =
            (Arc::new(AtomicU32::new(0)), Arc::new(AtomicU32::new(1)), Arc::new(AtomicBool::new(false)));
        let (tx, result) = channel();
        let path = job.path.clone();
        let (d, e, c) = (done.clone(), expected.clone(), cancel.clone());
        let spawned = std::thread::Builder::new().name("window-recording".into()).spawn(move || {
            let outcome = (|| -> anyhow::Result<RecordReport> {
                let target = RecordTarget::prepare(&job.path)?;
                let pipelines = Pipelines::new(&gpu, job.algorithm);
                let scatter = LineScatter::new(&gpu);
                let start = |first: &RgbaImage| {
                    job.lines
                        .start(
                            &gpu,
                            &pipelines,
                            &scatter,
                            first,
                            job.options,
                            job.run_settings,
                            job.runs.as_ref(),
                        )
                        .unwrap_or_else(|_| {
                            let rows =
                                Lines::Axis(crate::keys::options::Axis::Rows).sort_options(job.options);
                            pipelines.start(&gpu, first, rows, job.run_settings)
                        })
                };
                Ok(record(&gpu, &job.picture, start, &job.settings, target, |frames, most| {
                    d.store(frames, Ordering::Relaxed);
                    e.store(most, Ordering::Relaxed);
                    !c.load(Ordering::Relaxed) && crate::interrupt::check().is_ok()
                })?)
            })();
            let _ = tx.send(outcome.map_err(|e| format!("{e:#}")));
        });
        if let Err(e) = spawned {
            let (tx, rx) = channel();
            let _ = tx.send(Err(format!("cannot start the recording: {e}")));
            return BackgroundRecording { path, done, expected, cancel, result: rx };
        }
        BackgroundRecording { path, done, expected, cancel, result }
    }

    /// Frames taken so far and the most expected.
    pub fn progress(&self) -> (u32, u32) {
        (self.done.load(Ordering::Relaxed), self.expected.load(Ordering::Relaxed).max(1))
    }

    /// Asks the recording to stop; it removes its temporary file.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// Stops the recording and waits until it has removed its temporary file (at most a few
    /// seconds: it stops at its next frame).
    pub fn cancel_and_wait(self) {
        self.cancel();
        let _ = self.result.recv_timeout(std::time::Duration::from_secs(30));
    }

    /// The outcome, once the recording has ended.
    pub fn try_finish(&self) -> Option<Result<RecordReport, String>> {
        match self.result.try_recv() {
            Ok(outcome) => Some(outcome),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Err("the recording thread stopped unexpectedly".into())),
        }
    }
}
