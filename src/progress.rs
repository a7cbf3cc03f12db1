//! Progress of long headless work: on a terminal a bar with the rate and the time left; without
//! one (a log, a CI runner, a pipe) a line on stderr every few seconds, so a long run shows that
//! it works. And an error as the one line the user reads.
#![cfg(not(target_arch = "wasm32"))]

use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// Time between progress lines without a terminal, unless `SHADERSORT_PROGRESS_SECONDS` says.
pub const LINE_EVERY: Duration = Duration::from_secs(5);

/// [`LINE_EVERY`], or the seconds `SHADERSORT_PROGRESS_SECONDS` gives (for logs that want more
/// or fewer lines).
fn line_every() -> Duration {
    std::env::var("SHADERSORT_PROGRESS_SECONDS")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s > 0.0)
        .map_or(LINE_EVERY, Duration::from_secs_f64)
}

/// Reports `done` of `total` units of work (steps, frames) as they go.
pub struct Progress {
    what: String,
    unit: String,
    total: u64,
    started: Instant,
    bar: Option<indicatif::ProgressBar>,
    every: Duration,
    next_line: Instant,
    /// Files done and in all, where the units are their bytes ([`Progress::files`]).
    files: Option<(u64, u64)>,
}

impl Progress {
    /// Progress of `what` ("sorting"), counted in `unit`s ("steps"); a bar on a terminal, lines
    /// every [`LINE_EVERY`] otherwise.
    pub fn new(what: &str, unit: &str) -> Progress {
        let template = format!(
            "{what} {{bar:40}} {{pos}}/{{len}} {unit}, {{per_sec}}, {{elapsed}} gone, about {{eta}} left"
        );
        Progress::with_template(what, unit, &template)
    }

    /// Progress of work without a known end (a live source): a count, its rate and the time.
    pub fn open_ended(what: &str, unit: &str) -> Progress {
        Progress::with_template(what, unit, &format!("{what} {{pos}} {unit}, {{per_sec}}, {{elapsed}} gone"))
    }

    /// Progress over many files, counted in their bytes (which the time left follows), with the
    /// files done and in all beside them ([`Progress::set_files`]).
    pub fn files(what: &str) -> Progress {
        let template = format!(
            "{what} {{bar:40}} {{msg}} files, {{binary_bytes}} of {{binary_total_bytes}}, {{elapsed}} gone, about {{eta}} left"
        );
        let mut progress = Progress::with_template(what, "bytes", &template);
        progress.files = Some((0, 0));
        progress
    }

    /// `done` of `total` files are done (with [`Progress::files`]).
    pub fn set_files(&mut self, done: u64, total: u64) {
        self.files = Some((done, total));
        if let Some(bar) = &self.bar {
            bar.set_message(format!("{done}/{total}"));
        }
    }

    fn with_template(what: &str, unit: &str, template: &str) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::new(0);
            bar.set_style(indicatif::ProgressStyle::with_template(template).expect("a valid template"));
            bar
        });
        let (started, every) = (Instant::now(), line_every());
        Progress {
            what: what.into(),
            unit: unit.into(),
            total: 0,
            started,
            bar,
            every,
            next_line: started + every,
            files: None,
        }
    }

    /// Sets how many units there are in all.
    pub fn set_total(&mut self, total: u64) {
        self.total = total;
        if let Some(bar) = &self.bar {
            bar.set_length(total);
        }
    }

    /// `done` units are done.
    pub fn set_done(&mut self, done: u64) {
        if let Some(bar) = &self.bar {
            bar.set_position(done);
            return;
        }
        let now = Instant::now();
        if now >= self.next_line {
            self.next_line = now + self.every;
            eprintln!("{}", self.line(done, now - self.started));
        }
    }

    /// "sorting: 120 of 600 steps (20%), 35.2 steps/s, 14 s gone, about 56 s left".
    fn line(&self, done: u64, elapsed: Duration) -> String {
        if let Some((files, all)) = self.files {
            let bytes = |n| indicatif::BinaryBytes(n).to_string();
            let mut line = format!(
                "{}: {files} of {all} files, {} of {}, {} gone",
                self.what,
                bytes(done),
                bytes(self.total),
                duration_words(elapsed)
            );
            if let Some(left) = time_left(done, self.total, elapsed) {
                line += &format!(", about {} left", duration_words(left));
            }
            return line;
        }
        let rate = done as f64 / elapsed.as_secs_f64().max(1e-9);
        if self.total == 0 {
            let (unit, gone) = (&self.unit, duration_words(elapsed));
            return format!("{}: {done} {unit}, {rate:.1} {unit}/s, {gone} gone", self.what);
        }
        let percent = 100.0 * done as f64 / self.total as f64;
        let mut line = format!(
            "{}: {done} of {} {} ({percent:.0}%), {rate:.1} {}/s, {} gone",
            self.what,
            self.total,
            self.unit,
            self.unit,
            duration_words(elapsed)
        );
        if let Some(left) = time_left(done, self.total, elapsed) {
            line += &format!(", about {} left", duration_words(left));
        }
        line
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }

    /// Prints a line above the bar (or on its own without one).
    pub fn note(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.suspend(|| eprintln!("{line}")),
            None => eprintln!("{line}"),
        }
    }
}

/// The time the rest of the work takes at the rate so far, once any is done.
pub fn time_left(done: u64, total: u64, elapsed: Duration) -> Option<Duration> {
    (done > 0).then(|| elapsed.mul_f64(total.saturating_sub(done) as f64 / done as f64))
}

/// "45 s", "4 min 10 s", "2 h 5 min".
pub fn duration_words(d: Duration) -> String {
    let s = d.as_secs_f64().round() as u64;
    match s {
        0..=59 => format!("{s} s"),
        60..=3599 => format!("{} min {} s", s / 60, s % 60),
        _ => format!("{} h {} min", s / 3600, s % 3600 / 60),
    }
}

/// The error and its causes on one line, each cause named once: a message that already quotes
/// its cause (as "cannot write 'x.gif': No space left on device" does) is not followed by it
/// again.
pub fn error_line(e: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in e.chain() {
        let text = cause.to_string().replace('\n', " ");
        if line.contains(&text) {
            continue;
        }
        if !line.is_empty() {
            line.push_str(": ");
        }
        line.push_str(&text);
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_left_follows_the_rate_so_far() {
        assert_eq!(time_left(0, 600, Duration::from_secs(3)), None);
        assert_eq!(time_left(100, 600, Duration::from_secs(10)), Some(Duration::from_secs(50)));
        assert_eq!(time_left(600, 600, Duration::from_secs(10)), Some(Duration::ZERO));
    }

    #[test]
    fn durations_read_as_words() {
        assert_eq!(duration_words(Duration::from_secs(45)), "45 s");
        assert_eq!(duration_words(Duration::from_secs(250)), "4 min 10 s");
        assert_eq!(duration_words(Duration::from_secs(7500)), "2 h 5 min");
    }

    #[test]
    fn a_line_names_the_rate_and_the_time_left() {
        let mut p = Progress::new("sorting", "steps");
        p.bar = None;
        p.set_total(600);
        let line = p.line(120, Duration::from_secs(10));
        assert_eq!(line, "sorting: 120 of 600 steps (20%), 12.0 steps/s, 10 s gone, about 40 s left");
    }

    #[test]
    fn a_line_of_files_names_them_and_their_bytes() {
        let mut p = Progress::files("sorting");
        p.bar = None;
        p.set_total(4 << 20);
        p.set_files(3, 12);
        let line = p.line(1 << 20, Duration::from_secs(10));
        assert_eq!(line, "sorting: 3 of 12 files, 1.00 MiB of 4.00 MiB, 10 s gone, about 30 s left");
    }

    #[test]
    fn an_error_line_names_each_cause_once() {
        let full = std::io::Error::from_raw_os_error(28);
        let cause = full.to_string();
        let error = crate::record::RecordError::Encode {
            path: "x.gif".into(),
            source: gif::EncodingError::Io(std::io::Error::from_raw_os_error(28)).into(),
        };
        let line = error_line(&anyhow::Error::from(error));
        assert_eq!(line.matches(&cause).count(), 1, "{line}");
        assert!(line.starts_with("cannot write 'x.gif': "), "{line}");
        // A context over a different cause keeps both.
        let wrapped =
            anyhow::Error::from(std::io::Error::other("the disk went away")).context("sorting failed");
        assert_eq!(error_line(&wrapped), "sorting failed: the disk went away");
    }
}
