//! A batch as a pipeline: readers decode pictures on the CPU's cores and start their sorts on
//! the GPU, one thread submits them and each clip's, writers encode and write the pictures on
//! the cores; at most the batch's room ([`in_flight`]) of pictures exist at once however many
//! inputs there are.

use super::gate::{Gate, Latch};
use super::outcomes::{Outcome, Report};
use super::stages::{Batch, Shared, Sorted, create_parent};
use crate::engine::Engine;
use crate::picture::output::OutputFile;
use crate::picture::still_format::EncodeOptions;
use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::sync::mpsc::{Receiver, Sender, channel, sync_channel};
use std::sync::{Mutex, OnceLock};

/// Pictures at most in memory at once on this machine: one being read or written on each core,
/// and two more so the GPU always has the next one ready.
pub fn in_flight() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()) + 2
}

impl Batch<'_> {
    /// Runs the batch on the engine `open` makes (called on the GPU's thread, while the first
    /// pictures are read), each report handed to `take` on this thread as it comes: returns the
    /// adapter's name, or the error that stopped the GPU (the inputs not done then are left
    /// undone).
    pub fn run(
        &self,
        open: impl FnOnce() -> anyhow::Result<Engine> + Send,
        mut take: impl FnMut(Report),
    ) -> anyhow::Result<String> {
        let jobs = self.jobs;
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let workers = cores.min(jobs.len()).max(1);
        let shared = Shared {
            batch: self,
            engine: OnceLock::new(),
            opened: Latch::default(),
            next: AtomicUsize::new(0),
            room: Gate::new(self.room.max(1)),
            stop: AtomicBool::new(false),
        };
        // One picture written per core: each PNG on one thread, unless there are fewer pictures.
        let threads = (cores / jobs.len().max(1)).max(1);
        let (done, reports) = channel::<Report>();
        let (to_gpu, for_gpu) = sync_channel(2);
        let (to_writers, for_writers) = sync_channel::<Sorted>(2);
        let for_writers = Mutex::new(for_writers);
        std::thread::scope(|scope| {
            let shared = &shared;
            for k in 0..workers {
                let (to_gpu, done) = (to_gpu.clone(), done.clone());
                std::thread::Builder::new()
                    .name(format!("batch-read-{k}"))
                    .spawn_scoped(scope, move || super::reader::read_all(shared, &to_gpu, &done))
                    .expect("a thread to read pictures");
            }
            drop(to_gpu);
            let gpu_done = done.clone();
            let gpu = std::thread::Builder::new()
                .name("batch-gpu".into())
                .spawn_scoped(scope, move || {
                    super::sorting::sort_all(shared, open, &for_gpu, to_writers, &gpu_done)
                })
                .expect("a thread to sort on the GPU");
            for k in 0..workers {
                let (for_writers, done) = (&for_writers, done.clone());
                std::thread::Builder::new()
                    .name(format!("batch-write-{k}"))
                    .spawn_scoped(scope, move || write_all(shared, for_writers, threads, &done))
                    .expect("a thread to write pictures");
            }
            drop(done);
            for report in reports {
                take(report);
                if shared.stopped() {
                    shared.halt();
                }
            }
            gpu.join().unwrap_or_else(|_| Err(anyhow::anyhow!("the GPU's thread panicked")))
        })
    }
}

/// A writer: encodes each sorted picture in its format and writes it (a temporary file renamed
/// into place), then makes room for the next picture.
fn write_all(
    shared: &Shared<'_>,
    for_writers: &Mutex<Receiver<Sorted>>,
    threads: usize,
    done: &Sender<Report>,
) {
    let (s, batch) = (shared.batch.settings, shared.batch.batch);
    let options = EncodeOptions {
        quality: batch.quality,
        background: s.record.background,
        png: s.png_compression,
        threads,
    };
    loop {
        let next = for_writers.lock().unwrap_or_else(|p| p.into_inner()).recv();
        let Ok(Sorted { index, pixels, has_alpha, format }) = next else { return };
        let output = &shared.batch.jobs[index].output;
        let encoded = format.encode(&pixels, has_alpha, &options);
        drop(pixels);
        shared.room.leave();
        // After a signal nothing more is written: the files finished stay, this one never starts.
        if shared.stopped() {
            return;
        }
        let written = create_parent(output).and_then(|()| {
            let file = OutputFile::prepare_any_extension(output)?;
            Ok(file.write_encoded(encoded)?)
        });
        let outcome = match written {
            Ok(_) => Outcome::Written { clip: false },
            Err(e) => Outcome::Skipped(crate::progress::error_line(&e)),
        };
        let _ = done.send(Report::Done(index, outcome));
    }
}
