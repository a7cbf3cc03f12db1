//! Many inputs in one run (`shadersort photos/ more.jpg --out sorted/`): every picture and clip
//! sorted with the same settings into `--out DIR/` under its own name, on the GPU opened once,
//! pictures read, sorted and written as a pipeline over the CPU's cores; an input that cannot be
//! sorted is skipped with its reason, and the run ends with a summary.

mod gate;
mod inputs;
mod pipeline;
mod tally;

use crate::intervals::Mask;
use crate::settings::{BatchSettings, Settings};
use anyhow::Context;
use std::time::Instant;
use tally::Tally;

/// Sorts every input of the batch into `--out DIR/`, printing a line for each input skipped and
/// the summary; an error (after the summary) when any was skipped.
pub fn run(settings: &Settings, batch: &BatchSettings) -> anyhow::Result<()> {
    let started = Instant::now();
    let out_dir = settings.out.as_deref().expect("checked: a batch has --out DIR/");
    let found =
        inputs::gather(&batch.inputs, batch.recursive, out_dir, batch.format).map_err(anyhow::Error::msg)?;
    if found.jobs.is_empty() {
        let deeper = !batch.recursive && batch.inputs.iter().any(|p| has_folders(p));
        anyhow::bail!(
            "{} hold no pictures or clips (PNG, JPEG, GIF, BMP, WebP, TIFF or a video){}",
            match batch.inputs.as_slice() {
                [one] => format!("'{}'", one.display()),
                many => format!("the {} inputs", many.len()),
            },
            if deeper {
                "; add --recursive to sort those in the folders under them"
            } else {
                "; give files or folders that do"
            }
        );
    }
    let mask = settings.mask.as_deref().map(Mask::load).transpose()?;
    std::fs::create_dir_all(out_dir).with_context(|| {
        format!("cannot create the folder '{}'; choose one you can write to", out_dir.display())
    })?;
    let opening = super::opening::Opening::start(settings.algorithm)?;
    let mut tally = Tally::new(&found.jobs);
    let adapter = pipeline::run(settings, batch, &found.jobs, mask.as_ref(), opening, &mut tally);
    tally.finish();
    println!("{}", tally.summary(out_dir, started.elapsed(), found.other_files, adapter.as_deref().ok()));
    crate::interrupt::check()?;
    adapter?;
    tally.result()
}

/// Whether a folder given holds folders (which `--recursive` would descend into).
fn has_folders(path: &std::path::Path) -> bool {
    std::fs::read_dir(path).is_ok_and(|entries| entries.flatten().any(|e| e.path().is_dir()))
}
