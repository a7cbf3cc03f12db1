//! The closing line of a clip's sort: what was sorted, how fast, and where it went.

use super::stages::StageTimes;
use crate::settings::Rate;
use std::path::PathBuf;
use std::time::Duration;

/// What a clip's sort did, for the closing line.
#[derive(Debug)]
pub struct ClipReport {
    /// Where the frames went.
    pub path: PathBuf,
    /// Frames sorted.
    pub frames: u64,
    /// The algorithm they were sorted with.
    pub algorithm: &'static str,
    /// Frame size.
    pub size: (u32, u32),
    /// The even size the video was padded to, when its encoder needs even sides and a side is
    /// odd (the frames are `size`, the padding repeats their edge).
    pub padded: Option<(u32, u32)>,
    /// Frames per second of the clip.
    pub rate: Rate,
    /// Wall time of the whole run.
    pub elapsed: Duration,
    /// Of that, the time before the first frame was decoded: finding ffmpeg, counting the
    /// clip's frames, opening the GPU and building its pipelines.
    pub setup: Duration,
    /// The adapter used.
    pub adapter: String,
    /// How long each stage of the pipeline was busy (summed over its threads).
    pub stages: StageTimes,
    /// What happened to the sound.
    pub audio: &'static str,
    /// Every compute pass's GPU time, where the watch asked for it and the GPU has timestamps.
    pub passes: Option<Vec<crate::gpu::pass_clock::TimedPass>>,
}

impl std::fmt::Display for ClipReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (w, h) = self.size;
        let padded =
            self.padded.map(|(pw, ph)| format!(" (padded to {pw}x{ph} in the video)")).unwrap_or_default();
        let seconds = self.elapsed.as_secs_f64();
        write!(
            f,
            "sorted {} frames of {w}x{h}{padded} at {:.3} fps ({:.2} s of video) with {} in {seconds:.2} s, {:.1} frames/s on {}; {}; wrote {}",
            self.frames,
            self.rate.fps(),
            self.frames as f64 / self.rate.fps(),
            self.algorithm,
            self.frames as f64 / seconds.max(1e-9),
            self.adapter,
            self.audio,
            self.path.display()
        )
    }
}
