//! A batch in the terminal: the progress bar over the whole batch (files, bytes, time left), a
//! line for each input skipped as it is, and the summary at the end.

use crate::media::batch::{Job, Outcomes, Report};
use crate::progress::Progress;

/// The outcomes so far, and the progress bar that shows them.
pub struct Tally {
    /// What became of each input.
    pub outcomes: Outcomes,
    progress: Progress,
}

impl Tally {
    /// A tally of `jobs`, none done yet.
    pub fn new(jobs: &[Job]) -> Tally {
        let outcomes = Outcomes::new(jobs);
        let mut progress = Progress::files("sorting");
        progress.set_total(outcomes.bytes());
        progress.set_files(0, outcomes.files());
        Tally { outcomes, progress }
    }

    /// Takes a stage's report: its line printed, the bar moved on.
    pub fn take(&mut self, report: Report) {
        if let Some(line) = self.outcomes.take(report) {
            self.progress.note(&line);
        }
        self.progress.set_files(self.outcomes.files_done, self.outcomes.files());
        self.progress.set_done(self.outcomes.bytes_done);
    }

    /// Removes the progress bar.
    pub fn finish(&self) {
        self.progress.finish();
    }
}
