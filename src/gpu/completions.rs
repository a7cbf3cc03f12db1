//! When submitted work finished, without waiting for it: each watched submission is stamped
//! with the time its work was seen done, for a later frame to take. Where timestamps do not
//! measure the work (software GPUs, pages without timestamp queries), this is how long steps
//! took. Natively a thread polls the device while anything is watched (wgpu reports completions
//! only when polled); in the page the browser reports them itself.

use super::Gpu;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use web_time::Instant;

/// How often the native poller looks for finished work while any is watched.
#[cfg(not(target_arch = "wasm32"))]
const POLL_EVERY: std::time::Duration = std::time::Duration::from_millis(1);

/// What the callbacks and the poller share.
struct Shared<T> {
    /// Watched submissions seen done, with when.
    done: Mutex<Vec<(T, Instant)>>,
    /// Watched submissions not yet seen done.
    outstanding: AtomicUsize,
}

/// Submissions watched, and when those done were seen done.
pub struct Completions<T> {
    shared: Arc<Shared<T>>,
    watched: usize,
    #[cfg(not(target_arch = "wasm32"))]
    poller: Option<std::sync::mpsc::Sender<()>>,
}

impl<T> Default for Completions<T> {
    fn default() -> Self {
        Completions {
            shared: Arc::new(Shared { done: Mutex::default(), outstanding: AtomicUsize::new(0) }),
            watched: 0,
            #[cfg(not(target_arch = "wasm32"))]
            poller: None,
        }
    }
}

impl<T: Send + 'static> Completions<T> {
    /// Watches the work submitted last on `gpu`'s queue, labelled `tag`.
    pub fn watch(&mut self, gpu: &Gpu, tag: T) {
        let shared = self.shared.clone();
        shared.outstanding.fetch_add(1, Ordering::SeqCst);
        gpu.queue.on_submitted_work_done(move || {
            shared.done.lock().unwrap_or_else(|p| p.into_inner()).push((tag, Instant::now()));
            shared.outstanding.fetch_sub(1, Ordering::SeqCst);
        });
        self.watched += 1;
        #[cfg(not(target_arch = "wasm32"))]
        self.wake_poller(gpu);
    }

    /// Submissions watched and not yet taken as done.
    pub fn pending(&self) -> usize {
        self.watched
    }

    /// The watched submissions seen done since the last call, in the order they finished, with
    /// when.
    pub fn take(&mut self) -> Vec<(T, Instant)> {
        let done = std::mem::take(&mut *self.shared.done.lock().unwrap_or_else(|p| p.into_inner()));
        self.watched -= done.len();
        done
    }

    /// Natively: wakes the poller (started at the first watch), which polls the device until
    /// every watched submission is seen done.
    #[cfg(not(target_arch = "wasm32"))]
    fn wake_poller(&mut self, gpu: &Gpu) {
        if self.poller.as_ref().is_some_and(|poller| poller.send(()).is_ok()) {
            return;
        }
        let (wake, woken) = std::sync::mpsc::channel::<()>();
        let (device, shared) = (gpu.device.clone(), Arc::downgrade(&self.shared));
        let spawned = std::thread::Builder::new().name("completions".into()).spawn(move || {
            // The poller ends with its watcher (the channel closes, the shared state goes).
            while woken.recv().is_ok() {
                while shared.upgrade().is_some_and(|s| s.outstanding.load(Ordering::SeqCst) > 0) {
                    let _ = device.poll(wgpu::PollType::Poll);
                    std::thread::sleep(POLL_EVERY);
                }
            }
        });
        match spawned {
            Ok(_) => {
                let _ = wake.send(());
                self.poller = Some(wake);
            }
            // Without a thread, completions are seen when the frame polls.
            Err(e) => log::warn!("no thread to watch the GPU's progress: {e}"),
        }
    }
}
