//! The closing line of a live recording: how much was recorded, how much was dropped, how far
//! behind the source the sort ran, and why it ended.

use crate::picture::latency::LatencySummary;
use crate::settings::Rate;
use std::path::PathBuf;

/// What a live recording did.
#[derive(Debug)]
pub struct LiveReport {
    /// The output.
    pub path: PathBuf,
    /// The source, as named.
    pub label: String,
    /// Frames in the output: one per frame the source sent, up to the last one sorted.
    pub frames: u64,
    /// Frames the source sent.
    pub received: u64,
    /// Frames sorted.
    pub sorted: u64,
    /// Frames dropped because the sort or the encoder was busy (each is the frame before it
    /// again in the output).
    pub dropped: u64,
    /// Frame size.
    pub size: (u32, u32),
    /// The source's frame rate.
    pub rate: Rate,
    /// The algorithm.
    pub algorithm: &'static str,
    /// From a frame's arrival to its sorted frame read back.
    pub latency: Option<LatencySummary>,
    /// The adapter.
    pub adapter: String,
    /// What happened to the sound.
    pub audio: &'static str,
    /// Why the recording ended.
    pub ended: &'static str,
}

impl std::fmt::Display for LiveReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (w, h) = self.size;
        let latency = self.latency.map_or("no frame sorted".into(), |l| format!("latency {l}"));
        write!(
            f,
            "recorded {} frames of {w}x{h} at {:.3} fps ({:.2} s) from {} with {}: {} received, {} sorted, {} dropped; {latency} on {}; {}; {}; wrote {}",
            self.frames,
            self.rate.fps(),
            self.frames as f64 / self.rate.fps(),
            self.label,
            self.algorithm,
            self.received,
            self.sorted,
            self.dropped,
            self.adapter,
            self.audio,
            self.ended,
            self.path.display()
        )
    }
}
