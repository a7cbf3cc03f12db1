//! What became of each input of a batch: the progress bar over the whole batch (files, bytes,
//! time left), a line for each input skipped as it is, and the summary at the end.

use super::inputs::Job;
use crate::progress::Progress;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What became of one input.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Sorted and written (a clip when `clip`).
    Written {
        /// Whether it was a clip.
        clip: bool,
    },
    /// Its output exists and was kept (no `--overwrite`).
    Kept,
    /// It could not be read, sorted or written: why.
    Skipped(String),
}

/// What the stages of a batch tell the tally.
#[derive(Debug)]
pub enum Report {
    /// Input `.0` ended as `.1`.
    Done(usize, Outcome),
    /// A note for the user (a picture downscaled, the algorithm that made the ends), printed
    /// once however many inputs give it.
    Note(String),
    /// A picture was downscaled to fit: the first one's note is printed, the others counted.
    Downscaled(String),
}

/// The outcomes so far, and the progress bar that shows them.
pub struct Tally {
    inputs: Vec<(PathBuf, u64)>,
    notes: std::collections::BTreeSet<String>,
    downscaled: usize,
    outcomes: Vec<Option<Outcome>>,
    progress: Progress,
    files_done: u64,
    bytes_done: u64,
}

impl Tally {
    /// A tally of `jobs`, none done yet.
    pub fn new(jobs: &[Job]) -> Tally {
        let mut progress = Progress::files("sorting");
        progress.set_total(jobs.iter().map(|j| j.bytes).sum());
        progress.set_files(0, jobs.len() as u64);
        Tally {
            inputs: jobs.iter().map(|j| (j.input.clone(), j.bytes)).collect(),
            outcomes: vec![None; jobs.len()],
            notes: Default::default(),
            downscaled: 0,
            progress,
            files_done: 0,
            bytes_done: 0,
        }
    }

    /// Takes a stage's report: a note printed (the first time), an outcome recorded.
    pub fn take(&mut self, report: Report) {
        match report {
            Report::Done(index, outcome) => self.record(index, outcome),
            Report::Note(note) => {
                if self.notes.insert(note.clone()) {
                    self.progress.note(&note);
                }
            }
            Report::Downscaled(note) => {
                self.downscaled += 1;
                if self.downscaled == 1 {
                    self.progress.note(&note);
                }
            }
        }
    }

    /// Input `index` ended as `outcome` (a skip printed at once).
    fn record(&mut self, index: usize, outcome: Outcome) {
        let (input, bytes) = &self.inputs[index];
        if let Outcome::Skipped(why) = &outcome {
            self.progress.note(&format!("skipped '{}': {why}", input.display()));
        }
        if self.outcomes[index].replace(outcome).is_none() {
            self.files_done += 1;
            self.bytes_done += bytes;
        }
        self.progress.set_files(self.files_done, self.inputs.len() as u64);
        self.progress.set_done(self.bytes_done);
    }

    /// Removes the progress bar.
    pub fn finish(&self) {
        self.progress.finish();
    }

    fn count(&self, wanted: impl Fn(&Outcome) -> bool) -> usize {
        self.outcomes.iter().flatten().filter(|o| wanted(o)).count()
    }

    /// "sorted 12 of 14 inputs (10 pictures, 2 clips) into 'out/' in 3.2 s on ADAPTER; kept 1
    /// that existed (--overwrite replaces it); skipped 1 (named above)".
    pub fn summary(
        &self,
        out_dir: &Path,
        elapsed: Duration,
        other_files: usize,
        adapter: Option<&str>,
    ) -> String {
        let clips = self.count(|o| *o == Outcome::Written { clip: true });
        let pictures = self.count(|o| *o == Outcome::Written { clip: false });
        let (kept, skipped) =
            (self.count(|o| *o == Outcome::Kept), self.count(|o| matches!(o, Outcome::Skipped(_))));
        let plural = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        let mut line = format!(
            "sorted {} of {} into '{}' in {:.1} s",
            pictures + clips,
            plural(self.inputs.len(), "input", "inputs"),
            out_dir.display(),
            elapsed.as_secs_f64()
        );
        if clips > 0 {
            line += &format!(
                " ({}, {})",
                plural(pictures, "picture", "pictures"),
                plural(clips, "clip", "clips")
            );
        }
        if let Some(adapter) = adapter {
            line += &format!(" on {adapter}");
        }
        if kept > 0 {
            let them = if kept == 1 { "it" } else { "them" };
            line += &format!(
                "; kept {} that existed (--overwrite replaces {them})",
                plural(kept, "output", "outputs")
            );
        }
        if skipped > 0 {
            line += &format!("; skipped {skipped} (named above)");
        }
        let left = self.inputs.len() - self.outcomes.iter().flatten().count();
        if left > 0 {
            line += &format!("; {left} left undone");
        }
        if self.downscaled > 1 {
            line += &format!(
                "; {} downscaled to fit, as the first was (--no-downscale refuses them)",
                self.downscaled
            );
        }
        if other_files > 0 {
            line += &format!(
                "; left alone {}",
                if other_files == 1 {
                    "1 file that is neither a picture nor a clip".to_string()
                } else {
                    format!("{other_files} files that are neither pictures nor clips")
                }
            );
        }
        line
    }

    /// An error naming how many inputs were skipped, if any were.
    pub fn result(&self) -> anyhow::Result<()> {
        let skipped: Vec<&Path> = self
            .inputs
            .iter()
            .zip(&self.outcomes)
            .filter(|(_, o)| matches!(o, Some(Outcome::Skipped(_))))
            .map(|((input, _), _)| input.as_path())
            .collect();
        match skipped.as_slice() {
            [] => Ok(()),
            [one] if self.inputs.len() == 1 => {
                anyhow::bail!("'{}' could not be sorted (the reason is above)", one.display())
            }
            [one] => anyhow::bail!(
                "'{}' could not be sorted (the reason is above); the other inputs were",
                one.display()
            ),
            many => anyhow::bail!(
                "{} of {} inputs could not be sorted (each named above with its reason); the others were",
                many.len(),
                self.inputs.len()
            ),
        }
    }
}
