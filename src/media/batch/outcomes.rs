//! What became of each input of a batch, as its stages report it, and the summary of the whole:
//! kept by the terminal's progress bar and by the window's batch alike.

use super::inputs::Job;
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

/// What the stages of a batch report as they go.
#[derive(Debug)]
pub enum Report {
    /// Input `.0` ended as `.1`.
    Done(usize, Outcome),
    /// A note for the user (a picture downscaled, the algorithm that made the ends), shown once
    /// however many inputs give it.
    Note(String),
    /// A picture was downscaled to fit: the first one's note is shown, the others counted.
    Downscaled(String),
}

/// The outcomes so far: each input's, the notes given, and the files and bytes done.
pub struct Outcomes {
    inputs: Vec<(PathBuf, u64)>,
    outcomes: Vec<Option<Outcome>>,
    notes: std::collections::BTreeSet<String>,
    downscaled: usize,
    /// Inputs ended, whatever their outcome.
    pub files_done: u64,
    /// Bytes of the inputs ended.
    pub bytes_done: u64,
}

impl Outcomes {
    /// The outcomes of `jobs`, none ended yet.
    pub fn new(jobs: &[Job]) -> Outcomes {
        Outcomes {
            inputs: jobs.iter().map(|j| (j.input.clone(), j.bytes)).collect(),
            outcomes: vec![None; jobs.len()],
            notes: Default::default(),
            downscaled: 0,
            files_done: 0,
            bytes_done: 0,
        }
    }

    /// Inputs in the batch.
    pub fn files(&self) -> u64 {
        self.inputs.len() as u64
    }

    /// Bytes of every input.
    pub fn bytes(&self) -> u64 {
        self.inputs.iter().map(|(_, bytes)| bytes).sum()
    }

    /// Takes a stage's report; returns the line to show now, if any: a note the first time it
    /// is given, the first downscale's note, an input skipped with its reason.
    pub fn take(&mut self, report: Report) -> Option<String> {
        match report {
            Report::Done(index, outcome) => {
                let (input, bytes) = &self.inputs[index];
                let line = match &outcome {
                    Outcome::Skipped(why) => Some(format!("skipped '{}': {why}", input.display())),
                    _ => None,
                };
                if self.outcomes[index].replace(outcome).is_none() {
                    self.files_done += 1;
                    self.bytes_done += bytes;
                }
                line
            }
            Report::Note(note) => self.notes.insert(note.clone()).then_some(note),
            Report::Downscaled(note) => {
                self.downscaled += 1;
                (self.downscaled == 1).then_some(note)
            }
        }
    }

    fn count(&self, wanted: impl Fn(&Outcome) -> bool) -> usize {
        self.outcomes.iter().flatten().filter(|o| wanted(o)).count()
    }

    /// The inputs skipped, each with its reason, in order.
    pub fn skipped(&self) -> Vec<(&Path, &str)> {
        let skipped = self.inputs.iter().zip(&self.outcomes);
        skipped
            .filter_map(|((input, _), o)| match o {
                Some(Outcome::Skipped(why)) => Some((input.as_path(), why.as_str())),
                _ => None,
            })
            .collect()
    }

    /// "sorted 12 of 14 inputs (10 pictures, 2 clips) into 'out/' in 3.2 s on ADAPTER; kept 1
    /// that existed (--overwrite replaces it); skipped 1 (named above)": `named_above` when each
    /// skip was shown as it came, else the first skip's reason is given.
    pub fn summary(
        &self,
        out_dir: &Path,
        elapsed: Duration,
        other_files: usize,
        adapter: Option<&str>,
        named_above: bool,
    ) -> String {
        let clips = self.count(|o| *o == Outcome::Written { clip: true });
        let pictures = self.count(|o| *o == Outcome::Written { clip: false });
        let kept = self.count(|o| *o == Outcome::Kept);
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
        match self.skipped().as_slice() {
            [] => {}
            skipped if named_above => line += &format!("; skipped {} (named above)", skipped.len()),
            [(input, why), rest @ ..] => {
                line += &format!("; skipped {}: '{}': {why}", skipped_count(rest.len()), input.display())
            }
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
        match self.skipped().as_slice() {
            [] => Ok(()),
            [(one, _)] if self.inputs.len() == 1 => {
                anyhow::bail!("'{}' could not be sorted (the reason is above)", one.display())
            }
            [(one, _)] => anyhow::bail!(
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

/// "1" or "3, the first" before the first skip's name and reason.
fn skipped_count(others: usize) -> String {
    match others {
        0 => "1".into(),
        n => format!("{}, the first", n + 1),
    }
}
