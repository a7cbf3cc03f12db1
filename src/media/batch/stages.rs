//! What a batch's stages share: the batch itself, the engine once the GPU is open, the bound
//! on pictures at once, and the signals that stop them.

use super::gate::{Gate, Latch};
use super::inputs::Job;
use crate::engine::Engine;
use crate::interrupt;
use crate::intervals::Mask;
use crate::picture::still_format::StillFormat;
use crate::settings::{BatchSettings, Settings};
use image::RgbaImage;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// A batch to sort: every job with the same settings.
pub struct Batch<'a> {
    /// The settings every input is sorted with.
    pub settings: &'a Settings,
    /// How the batch's outputs are written.
    pub batch: &'a BatchSettings,
    /// The inputs and their outputs.
    pub jobs: &'a [Job],
    /// The mask, stretched to each picture.
    pub mask: Option<&'a Mask>,
    /// Pictures that may be in memory at once ([`in_flight`](super::in_flight) for this machine).
    pub room: usize,
    /// Set to stop the batch (as Ctrl-C does): the files finished stay, nothing more is written.
    pub cancel: std::sync::Arc<AtomicBool>,
}

/// A picture sorted, for the writers.
pub(super) struct Sorted {
    pub(super) index: usize,
    pub(super) pixels: RgbaImage,
    pub(super) has_alpha: bool,
    pub(super) format: StillFormat,
}

/// What the stages share: the batch, the engine once open, and the signals between them.
pub(super) struct Shared<'a> {
    pub(super) batch: &'a Batch<'a>,
    /// The engine, once the GPU is open.
    pub(super) engine: OnceLock<Engine>,
    /// Whether the GPU opened, once it tried.
    pub(super) opened: Latch<bool>,
    /// The next job a reader takes.
    pub(super) next: AtomicUsize,
    /// Pictures that may still be made (taken by a reader, given back by a writer).
    pub(super) room: Gate,
    /// Set when the run stops early (a signal, the GPU lost): the stages finish what they hold.
    pub(super) stop: AtomicBool,
}

impl Shared<'_> {
    /// Stops every stage: readers take no more jobs, the gate lets go.
    pub(super) fn halt(&self) {
        self.stop.store(true, Ordering::SeqCst);
        self.room.close();
    }

    /// Whether the batch was stopped: halted, cancelled or interrupted.
    pub(super) fn stopped(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
            || self.batch.cancel.load(Ordering::SeqCst)
            || interrupt::check().is_err()
    }

    /// The engine, once the GPU is open (`None`: it could not be opened).
    pub(super) fn engine(&self) -> Option<&Engine> {
        if self.opened.wait() { self.engine.get() } else { None }
    }
}

/// Makes the folders an output goes in (a batch's `--recursive` keeps its inputs' folders).
pub(super) fn create_parent(output: &std::path::Path) -> anyhow::Result<()> {
    let Some(parent) = output.parent() else { return Ok(()) };
    std::fs::create_dir_all(parent).map_err(|e| {
        anyhow::anyhow!(
            "cannot create the folder '{}': {e}; check that --out's folder is writable",
            parent.display()
        )
    })
}
