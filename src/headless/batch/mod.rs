//! Many inputs in one run (`shadersort photos/ more.jpg --out sorted/`): every picture and clip
//! sorted with the same settings into `--out DIR/` under its own name, on the GPU opened once,
//! pictures read, sorted and written as a pipeline over the CPU's cores; an input that cannot be
//! sorted is skipped with its reason, and the run ends with a summary.

mod tally;

use crate::algorithms::Algorithm;
use crate::intervals::Mask;
use crate::media::batch::{Batch, gather, in_flight, nothing_found};
use crate::settings::{BatchSettings, Settings};
use anyhow::Context;
use std::time::Instant;
use tally::Tally;

/// Sorts every input of the batch into `--out DIR/`, printing a line for each input skipped and
/// the summary; an error (after the summary) when any was skipped.
pub fn run(settings: &Settings, batch: &BatchSettings) -> anyhow::Result<()> {
    let started = Instant::now();
    // The GPU opens while the inputs are gathered and the first pictures read. Each picture is
    // sorted to its end by the fastest way there (`Sorter::for_frames`): radix wherever it can.
    let algorithm = if settings.steps.is_none() { Algorithm::Radix } else { settings.algorithm };
    let opening = super::opening::Opening::start(algorithm, settings.uses_intervals())?;
    let out_dir = settings.out.as_deref().expect("checked: a batch has --out DIR/");
    let found = gather(&batch.inputs, batch.recursive, out_dir, batch.format).map_err(anyhow::Error::msg)?;
    if found.jobs.is_empty() {
        anyhow::bail!(nothing_found(&batch.inputs, batch.recursive));
    }
    let mask = settings.mask.as_deref().map(Mask::load).transpose()?;
    std::fs::create_dir_all(out_dir).with_context(|| {
        format!("cannot create the folder '{}'; choose one you can write to", out_dir.display())
    })?;
    let mut tally = Tally::new(&found.jobs);
    let cancel = Default::default();
    let (jobs, room) = (&found.jobs, in_flight());
    let run = Batch { settings, batch, jobs, mask: mask.as_ref(), room, cancel };
    let adapter = run.run(move || opening.wait(), |report| tally.take(report));
    tally.finish();
    let elapsed = started.elapsed();
    let outcomes = &tally.outcomes;
    println!("{}", outcomes.summary(out_dir, elapsed, found.other_files, adapter.as_deref().ok(), true));
    crate::interrupt::check()?;
    adapter?;
    outcomes.result()
}
