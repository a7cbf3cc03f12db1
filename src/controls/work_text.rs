//! The words on what the steps cost on the GPU, for the panel and `--out`: the last step's work
//! and the run's so far, beside what the algorithm's analysis says a whole sort costs.

use super::explain::thousands;
use crate::algorithms::work::{PIXEL_BYTES, Work};
use crate::algorithms::{Algorithm, RunSettings};

/// What the text is about.
#[derive(Clone, Debug, PartialEq)]
pub struct WorkFacts {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Its settings.
    pub settings: RunSettings,
    /// Steps run and in all.
    pub steps: (u32, u32),
    /// Lines sorted, and pixels in each (the longest, along paths).
    pub lines: (u32, u32),
    /// The last step's work, once counted.
    pub last: Option<Work>,
    /// Every counted step's work.
    pub total: Work,
    /// GPU milliseconds a step, where timestamps measure it.
    pub gpu_ms_per_step: Option<f64>,
}

/// The last step's cost, the run's so far and the analysis, a line each.
pub fn work_text(facts: &WorkFacts) -> String {
    let moves = facts.algorithm.moves_name();
    let (done, total) = facts.steps;
    let time =
        facts.gpu_ms_per_step.map_or_else(String::new, |ms| format!(" (GPU {:.1} µs a step)", ms * 1e3));
    let last = match facts.last {
        Some(work) if done > 0 => format!("Step {done} cost {}{time}.", describe(&work, moves)),
        _ if done > 0 => "The last step's work is not counted yet.".to_string(),
        _ => "Nothing run yet.".to_string(),
    };
    let so_far = if done > 1 {
        format!("\nIn {done} of {total} steps: {}.", describe(&facts.total, moves))
    } else {
        String::new()
    };
    format!("{last}{so_far}\n{}", analysis(facts.algorithm, &facts.settings, facts.steps.1, facts.lines))
}

/// "119,700 comparisons, 3,211 swaps, 1.9 MB read, 960 kB written, 25 barriers", with `moves`
/// naming the swaps ("swaps" or "pixels moved").
pub fn describe(work: &Work, moves: &str) -> String {
    let counted =
        |n: u64, one: &str, many: &str| format!("{} {}", thousands(n), if n == 1 { one } else { many });
    format!(
        "{}, {} {moves}, {} read, {} written, {}",
        counted(work.comparisons, "comparison", "comparisons"),
        thousands(work.swaps),
        bytes(work.bytes_read),
        bytes(work.bytes_written),
        counted(work.barriers, "barrier", "barriers")
    )
}

/// `1_930_000` as "1.9 MB" (powers of 1000, as GPU bandwidths are given).
pub fn bytes(n: u64) -> String {
    const UNITS: [&str; 5] = ["B", "kB", "MB", "GB", "TB"];
    let mut value = n as f64;
    let mut unit = 0;
    while value >= 999.5 && unit + 1 < UNITS.len() {
        value /= 1000.0;
        unit += 1;
    }
    match unit {
        0 => format!("{n} B"),
        _ if value < 9.95 => format!("{value:.1} {}", UNITS[unit]),
        _ => format!("{value:.0} {}", UNITS[unit]),
    }
}

/// What the analysis says a whole sort of `lines` lines of `len` pixels costs in `steps` steps
/// (a radix step may be a stage of a digit pass), and how the kernels differ from it.
pub fn analysis(
    algorithm: Algorithm,
    settings: &RunSettings,
    steps: u32,
    (lines, len): (u32, u32),
) -> String {
    let n = u64::from(len);
    let lines = u64::from(lines);
    let line_pairs = n * n.saturating_sub(1) / 2;
    let all = |per_line: u64| thousands(per_line * lines);
    let pixels = n * lines;
    match algorithm {
        Algorithm::OddEven => format!(
            "The analysis: a line of {n} pixels takes {n} passes of {} or {} comparisons, {} a line, {} in all, and each pass reads and writes every pixel ({} each way). The kernels compare every pair in both of its pixels' invocations, so each pixel's invocation writes only its own pixel: twice the comparisons.",
            n / 2,
            n.saturating_sub(1) / 2,
            thousands(line_pairs),
            all(line_pairs),
            bytes(pixels * PIXEL_BYTES)
        ),
        Algorithm::Bubble => format!(
            "The analysis: a line of {n} pixels takes at most {n} phases of about {} comparisons, {} a line, {} in all; a line stops sooner when a pair of phases swaps nothing. The phases run in workgroup memory, so a dispatch reads and writes each pixel once whatever its phases ({} each way).",
            n / 2,
            thousands(line_pairs),
            all(line_pairs),
            bytes(pixels * PIXEL_BYTES)
        ),
        Algorithm::Bitonic => {
            let padded = n.max(1).next_power_of_two();
            let log = u64::from(padded.trailing_zeros());
            let per_line = padded / 2 * log * (log + 1) / 2;
            format!(
                "The analysis: a line padded to {padded} pixels takes {} stages of {} comparisons, n/2 · log n (log n + 1)/2 = {} a line, {} in all, whatever the order of the pixels. Stages that stay within a block run together in workgroup memory, so one dispatch's loads and stores serve all of them.",
                log * (log + 1) / 2,
                padded / 2,
                thousands(per_line),
                all(per_line)
            )
        }
        Algorithm::Radix => {
            let passes = u64::from(steps / settings.radix.stages().max(1));
            format!(
                "The analysis: radix compares no keys; {passes} digit passes each read every pixel's key and write every pixel once, passes × (read + write) = {} for {} pixels, whatever their order.",
                bytes(passes * 2 * pixels * PIXEL_BYTES),
                thousands(pixels)
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(algorithm: Algorithm, steps: (u32, u32), last: Option<Work>) -> WorkFacts {
        WorkFacts {
            algorithm,
            settings: RunSettings::default(),
            steps,
            lines: (400, 600),
            last,
            total: Work::of(3000, (20, 10), 4).with_swaps(12),
            gpu_ms_per_step: Some(0.0412),
        }
    }

    #[test]
    fn the_last_step_and_the_run_so_far_are_named_with_the_analysis() {
        let last = Work::of(1200, (1_000_000, 500_000), 25).with_swaps(7);
        let text = work_text(&facts(Algorithm::OddEven, (2, 600), Some(last)));
        assert!(text.starts_with(
            "Step 2 cost 1,200 comparisons, 7 swaps, 4.0 MB read, 2.0 MB written, 25 barriers (GPU 41.2 µs a step).\nIn 2 of 600 steps: 3,000 comparisons, 12 swaps, 80 B read, 40 B written, 4 barriers."
        ), "{text}");
        // 600 passes of 300 or 299 pairs: 179,700 a line, 400 lines.
        assert!(text.contains("179,700 a line, 71,880,000 in all"), "{text}");
        let radix = work_text(&facts(Algorithm::Radix, (0, 4), None));
        assert!(radix.starts_with("Nothing run yet.\nThe analysis: radix compares no keys"), "{radix}");
        assert!(radix.contains("4 digit passes") && radix.contains("7.7 MB for 240,000 pixels"), "{radix}");
        // In stages of a digit pass, steps are stages: 16 steps of 4 are the same 4 passes.
        let mut staged = RunSettings::default();
        staged.radix.sub_steps = true;
        let passes = analysis(Algorithm::Radix, &staged, 4 * staged.radix.stages(), (400, 600));
        assert!(passes.contains("4 digit passes") && passes.contains("7.7 MB"), "{passes}");
        let counting = work_text(&facts(Algorithm::Bubble, (3, 300), None));
        assert!(
            counting.starts_with("The last step's work is not counted yet.\nIn 3 of 300 steps"),
            "{counting}"
        );
    }

    #[test]
    fn bytes_read_in_units_of_a_thousand() {
        assert_eq!(bytes(0), "0 B");
        assert_eq!(bytes(999), "999 B");
        assert_eq!(bytes(1_930_000), "1.9 MB");
        assert_eq!(bytes(960_000), "960 kB");
        assert_eq!(bytes(12_400_000_000), "12 GB");
        let work = Work::of(10, (4, 2), 1).with_swaps(3);
        assert_eq!(describe(&work, "swaps"), "10 comparisons, 3 swaps, 16 B read, 8 B written, 1 barrier");
    }

    #[test]
    fn bitonic_pads_to_a_power_of_two() {
        // 600 pads to 1024: 55 stages of 512 comparisons.
        let text = analysis(Algorithm::Bitonic, &RunSettings::default(), 55, (2, 600));
        assert!(text.contains("55 stages of 512 comparisons"), "{text}");
        assert!(text.contains("= 28,160 a line, 56,320 in all"), "{text}");
    }
}
