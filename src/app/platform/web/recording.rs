//! G in the page: the run recorded in memory by the core's recorder (the same GIF or animated
//! PNG as the native file, the same PNG frames in a zip archive), its steps and frames awaited
//! on the page's one thread while the window goes on, then handed to the browser as a download.

use super::many::{DOWNLOAD, ManyJob};
use crate::app::Running;
use crate::app::dialogs::{Chosen, download};
use crate::app::platform::Recorder;
use crate::app::recording_job::RecordingJob;
use crate::engine::Engine;
use crate::record::in_memory::record_in_memory;
use image::RgbaImage;
use std::cell::{Cell, RefCell};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;

/// How a recording stands, shared with the future that makes it.
#[derive(Default)]
struct Shared {
    done: Cell<u64>,
    expected: Cell<u64>,
    cancel: Cell<bool>,
    result: RefCell<Option<Result<String, String>>>,
}

/// A recording under way.
pub(in crate::app) struct BackgroundRecording {
    /// The download's name.
    path: PathBuf,
    shared: Rc<Shared>,
    /// What the progress counts.
    counts: &'static str,
}

impl Recorder for BackgroundRecording {
    /// Starts recording a picture's run (the window draws frames while it is under way).
    fn start(engine: Arc<Engine>, job: RecordingJob) -> Self {
        let shared = Rc::new(Shared { expected: Cell::new(1), ..Shared::default() });
        let path = job.path.clone();
        let state = shared.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let name = job.path.display().to_string();
            let start = |first: &RgbaImage| job.start(&engine, first);
            let progress = |frames: u32, most: u32| {
                state.done.set(frames.into());
                state.expected.set(most.into());
                !state.cancel.get()
            };
            let recorded = record_in_memory(
                engine.gpu(),
                &job.picture,
                start,
                &job.settings,
                job.format,
                &name,
                progress,
            )
            .await;
            let outcome = recorded.map_err(|e| e.to_string()).and_then(|file| {
                download(&name, &file.bytes, file.media_type())?;
                Ok(format!(
                    "recorded {} frames ({}), {} bytes: downloaded {name}",
                    file.recorded.frames,
                    file.recorded.format.describe(),
                    file.bytes.len()
                ))
            });
            *state.result.borrow_mut() = Some(outcome);
        });
        BackgroundRecording { path, shared, counts: "frames" }
    }

    /// Sorts the pictures picked one after another (the window draws frames meanwhile), then
    /// downloads them together.
    fn sort_many(running: &Running, files: Vec<Chosen>) -> Result<Self, String> {
        let job = ManyJob::of(running);
        let engine = running.engine.clone();
        let shared = Rc::new(Shared { expected: Cell::new(files.len() as u64), ..Shared::default() });
        let state = shared.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let progress = |done: u64| {
                state.done.set(done);
                !state.cancel.get()
            };
            let sorted = job.sort_all(&engine, files, progress).await;
            let outcome = sorted.and_then(|(bytes, line)| {
                download(DOWNLOAD, &bytes, "application/zip")?;
                Ok(line)
            });
            *state.result.borrow_mut() = Some(outcome);
        });
        Ok(BackgroundRecording { path: PathBuf::from(DOWNLOAD), shared, counts: "files" })
    }

    fn path(&self) -> &Path {
        &self.path
    }

    fn counts(&self) -> &'static str {
        self.counts
    }

    /// Frames taken so far and the most expected.
    fn progress(&self) -> (u64, u64) {
        (self.shared.done.get(), self.shared.expected.get().max(1))
    }

    /// Asks the recording to stop at its next frame.
    fn cancel(&self) {
        self.shared.cancel.set(true);
    }

    /// Stops the recording; the page writes nothing before the end, so nothing is left to
    /// wait for.
    fn cancel_and_wait(self) {
        self.cancel();
    }

    /// The outcome, once the recording has ended.
    fn try_finish(&self) -> Option<Result<String, String>> {
        self.shared.result.borrow_mut().take()
    }
}
