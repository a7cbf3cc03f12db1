//! Ctrl-C: long runs stop at the next frame or batch, so temporary files are removed and
//! nothing half-written is left behind.

use std::sync::atomic::{AtomicBool, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The user pressed Ctrl-C.
#[derive(Debug, thiserror::Error)]
#[error("interrupted; nothing was written and any existing output file is unchanged")]
pub struct Interrupted;

/// Catches Ctrl-C (SIGINT) from now on; a second Ctrl-C exits at once.
pub fn install() {
    let installed = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    if let Err(e) = installed {
        log::warn!("Ctrl-C will not be caught: {e}");
    }
}

/// Fails once Ctrl-C has been pressed.
pub fn check() -> Result<(), Interrupted> {
    if INTERRUPTED.load(Ordering::SeqCst) { Err(Interrupted) } else { Ok(()) }
}
