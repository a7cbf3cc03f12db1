//! Signals that end a run: Ctrl-C (SIGINT), SIGTERM (`kill`, `timeout`, CI runners, systemd)
//! and SIGHUP (a closed terminal). The first one is noted, and long work stops at its next frame
//! or batch, so temporary files are removed on the way out and nothing half-written is left;
//! the process then exits with 128 + the signal. A second signal ends the process at once, after
//! removing the temporary files still registered ([`register_temporary`]).
#![cfg(not(target_arch = "wasm32"))]

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicI32, Ordering};

/// The first signal received, 0 while none has come.
static SIGNAL: AtomicI32 = AtomicI32::new(0);
/// Temporary files that exist now and must not outlive the process.
static TEMPORARIES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// SIGHUP's number.
pub const SIGHUP: i32 = 1;
/// SIGINT's number.
pub const SIGINT: i32 = 2;
/// SIGTERM's number.
pub const SIGTERM: i32 = 15;

/// The run was ended by a signal (or, with signal 0, cancelled by the user in the window).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}; nothing was written and any existing output file is unchanged", describe(*signal))]
pub struct Interrupted {
    /// The signal's number; 0 when the user cancelled.
    pub signal: i32,
}

impl Interrupted {
    /// The interruption as it stands now: the signal received, or a cancel (0).
    pub fn now() -> Interrupted {
        Interrupted { signal: SIGNAL.load(Ordering::SeqCst) }
    }

    /// The exit status for it: 128 + the signal, as shells report a process a signal ended.
    pub fn exit_code(&self) -> u8 {
        let signal = if self.signal == 0 { SIGINT } else { self.signal };
        128u8.saturating_add(u8::try_from(signal).unwrap_or(127))
    }
}

/// The window was closed by a signal: what it had saved stays, and a recording under way was
/// stopped and removed its temporary file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}; the window closed, and a recording under way was stopped without leaving a file", describe(.0.signal))]
pub struct WindowClosed(pub Interrupted);

/// "interrupted (Ctrl-C)", "terminated (SIGTERM)", ...
fn describe(signal: i32) -> String {
    match signal {
        0 => "cancelled".into(),
        SIGINT => "interrupted (Ctrl-C, SIGINT)".into(),
        SIGTERM => "terminated (SIGTERM)".into(),
        SIGHUP => "hung up (SIGHUP: the terminal closed)".into(),
        other => format!("ended by signal {other}"),
    }
}

/// Catches SIGINT, SIGTERM and SIGHUP from now on (on Windows, Ctrl-C).
pub fn install() {
    #[cfg(unix)]
    {
        use signal_hook::iterator::Signals;
        let signals = match Signals::new([SIGINT, SIGTERM, SIGHUP]) {
            Ok(signals) => signals,
            Err(e) => {
                log::warn!("signals will not be caught: {e}");
                return;
            }
        };
        // The handler only queues the signal; this thread, outside any handler, may then take
        // locks and remove files.
        let watcher = std::thread::Builder::new().name("signals".into()).spawn(move || {
            let mut signals = signals;
            for signal in signals.forever() {
                received(signal);
            }
        });
        if let Err(e) = watcher {
            log::warn!("signals will not be caught: {e}");
        }
    }
    #[cfg(not(unix))]
    if let Err(e) = ctrlc::set_handler(|| received(SIGINT)) {
        log::warn!("Ctrl-C will not be caught: {e}");
    }
}

/// Notes the first signal; on a second, removes the registered temporaries and exits.
fn received(signal: i32) {
    if let Err(first) = SIGNAL.compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst) {
        remove_temporaries();
        // Without the exit handlers: the drivers' threads are still at work, and tearing their
        // state down under them corrupted the heap.
        leave_without_teardown(Interrupted { signal: first }.exit_code());
    }
}

/// Ends a headless run (a still, a recording or a clip), or a run a second signal stops, at once
/// with exit status `code`. Its outputs are whole and in place (or, after an error or a second
/// signal, nothing was written) and its lines are printed. The exit handlers are skipped:
/// after an early error the GPU may still be opening on its thread, and tearing the driver down
/// under it can crash the process; after a finished run the teardown frees nothing the system
/// does not, and it took a good part of a still's run on NVIDIA's driver (BENCHMARKS.md, stills).
pub fn leave_without_teardown(code: u8) -> ! {
    use std::io::Write;
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    #[cfg(unix)]
    // SAFETY: `_exit` ends the process, every thread with it, without running exit handlers;
    // both output streams are flushed and nothing else is buffered.
    #[allow(unsafe_code, reason = "_exit skips the exit handlers; see SAFETY")]
    unsafe {
        libc::_exit(i32::from(code))
    }
    #[cfg(not(unix))]
    std::process::exit(i32::from(code))
}

/// Fails once a signal has come.
pub fn check() -> Result<(), Interrupted> {
    match SIGNAL.load(Ordering::SeqCst) {
        0 => Ok(()),
        signal => Err(Interrupted { signal }),
    }
}

/// Notes a temporary file (or folder) that a second signal must remove before the process exits.
pub fn register_temporary(path: &Path) {
    TEMPORARIES.lock().unwrap_or_else(|p| p.into_inner()).push(path.to_path_buf());
}

/// Forgets a temporary file (it was renamed into place or removed).
pub fn forget_temporary(path: &Path) {
    TEMPORARIES.lock().unwrap_or_else(|p| p.into_inner()).retain(|p| p != path);
}

fn remove_temporaries() {
    for path in TEMPORARIES.lock().unwrap_or_else(|p| p.into_inner()).drain(..) {
        // A recording's temporary folder of frames, or a temporary file.
        let _ = if path.is_dir() { std::fs::remove_dir_all(path) } else { std::fs::remove_file(path) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_and_messages_name_the_signal() {
        let term = Interrupted { signal: SIGTERM };
        assert_eq!(term.exit_code(), 143);
        assert!(term.to_string().starts_with("terminated (SIGTERM)"), "{term}");
        assert_eq!(Interrupted { signal: SIGHUP }.exit_code(), 129);
        assert_eq!(Interrupted { signal: SIGINT }.exit_code(), 130);
        assert_eq!(Interrupted { signal: 0 }.to_string().split(';').next(), Some("cancelled"));
    }
}
