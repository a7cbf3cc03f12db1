//! Clips and live sources without a window: every frame sorted into `--out` through the clip
//! pipeline ([`crate::media`]), the closing line printed.

use crate::media::ClipWatch;
use crate::media::live::record;
use crate::settings::{LiveInput, Settings};
use std::path::Path;

/// Sorts every frame of the clip at `input` into `--out`.
pub fn run_clip(settings: &Settings, input: &Path) -> anyhow::Result<()> {
    let report = crate::media::sort_clip(settings, input, false)?;
    // Shows which stages ran on the CPU at all (tests read it to know the GPU path was taken).
    log::debug!("clip stages busy: {}", report.stages.nanos_words());
    println!("{report}");
    Ok(())
}

/// Records `input` sorted into `--out`, prints the closing line, and fails (after that line) when
/// the source stopped or broke off rather than ending as asked.
pub fn run_live(settings: &Settings, input: &LiveInput) -> anyhow::Result<()> {
    let watch = ClipWatch { signals_end_input: true, ..ClipWatch::default() };
    let (report, problem) = record(settings, input, &watch)?;
    println!("{report}");
    problem.map_or(Ok(()), |e| Err(e.into()))
}
