//! The panel's few sentences on what the algorithm does, with the current numbers: which pairs
//! the last pass compared, how a dispatch of phases ends, what a digit pass counts and where
//! pixels go. They change as the sort runs.

use crate::algorithms::bitonic::stage::Stage;
use crate::algorithms::odd_even::first_left;
use crate::algorithms::{Algorithm, RunSettings};
use crate::keys::options::Scope;
use crate::picture::teaching::Pattern;

/// What the text is about: the chosen algorithm's settings and where its run stands.
#[derive(Clone, Debug, PartialEq)]
pub struct Facts {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Its settings.
    pub settings: RunSettings,
    /// Steps run and in all.
    pub steps: (u32, u32),
    /// Pixels in the longest line sorted.
    pub line_len: u32,
    /// Swaps (pixels moved, for radix) of the last step, when counted.
    pub last_moves: Option<u32>,
    /// After how many steps the lines were known sorted.
    pub sorted_after: Option<u32>,
}

/// `1204` as `1,204`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// "even" or "odd".
fn parity(x: usize) -> &'static str {
    if x.is_multiple_of(2) { "even" } else { "odd" }
}

/// What the built-in input `pattern` does to `algorithm`, for "What happens".
pub fn lesson(pattern: Pattern, algorithm: Algorithm) -> &'static str {
    use Algorithm::*;
    match (pattern, algorithm) {
        (_, Radix) => "Radix costs the same on every input: one step per digit, whatever the order.",
        (_, Bitonic) => {
            "A sorting network compares the same pairs whatever the input: bitonic runs every stage, even on sorted lines."
        }
        (Pattern::Sorted, _) => "Sorted lines: the first steps swap nothing, and the sort stops at once.",
        (Pattern::Reversed, OddEven) => {
            "Reversed lines are odd-even's worst case: a pixel moves one place a pass, so it needs all W passes."
        }
        (Pattern::Reversed, Bubble) => "Reversed lines are the worst case: the bubble needs every phase.",
        (Pattern::NearlySorted, _) => {
            "Nearly sorted: 1% of the neighbouring pairs swapped; they are put right in the first steps, and the sort stops early."
        }
        (Pattern::FewDistinct, _) => {
            "Four colours: many equal keys, and a stable sort keeps equal pixels in the order they came."
        }
        (Pattern::Sawtooth, _) => {
            "Four sorted teeth: a pixel at a tooth's top travels up to three quarters of the line, one place a step."
        }
        (Pattern::Noise, _) => "Random lines: the usual case, every pixel some way from its place.",
    }
}

/// Two or three sentences on the algorithm, with the numbers of `facts`.
pub fn explain(facts: &Facts) -> String {
    let (done, total) = facts.steps;
    let w = facts.line_len;
    let moved = |noun: &str| match facts.last_moves {
        Some(n) => format!("{} {noun}", thousands(u64::from(n))),
        None => format!("{noun} not counted yet"),
    };
    let sorted = match facts.sorted_after {
        Some(k) => format!(" The lines were sorted after {k}."),
        None => String::new(),
    };
    match facts.algorithm {
        Algorithm::OddEven => {
            let rule = format!(
                "Each pass compares neighbours (x, x+1) in every line at once and swaps them when they are out of order; passes alternate between pairs starting at even and at odd x, so a line of {w} pixels is sorted after at most {w} passes."
            );
            let now = if done == 0 {
                format!("Pass 1 will compare pairs starting at {} x.", parity(first_left(0)))
            } else {
                format!(
                    "Pass {done} compared pairs starting at {} x: {}.",
                    parity(first_left(done - 1)),
                    moved("swaps")
                )
            };
            format!("{now} {rule}{sorted}")
        }
        Algorithm::Bubble => {
            let phases = facts.settings.phases_per_step;
            let per_step = if phases == u32::MAX {
                "the whole sort in one dispatch".to_string()
            } else {
                format!("{phases} odd-even phases per dispatch")
            };
            let now = if done == 0 {
                format!("Nothing run yet: step 1 of {total} is one dispatch.")
            } else {
                format!("Step {done} of {total}: {}.", moved("swaps"))
            };
            format!(
                "{now} One workgroup per line holds the line in workgroup memory and runs {per_step}, with a barrier between phases that every invocation reaches (uniform control flow). A line stops early once a pair of phases swaps nothing; {w} phases sort a line of {w} pixels.{sorted}"
            )
        }
        Algorithm::Radix => {
            let r = facts.settings.radix;
            let stages = r.stages();
            let passes = (total / stages).max(1);
            let stage_note = |step: u32| {
                if r.sub_steps {
                    format!(" (scatter stage {} of {stages})", (step - 1) % stages + 1)
                } else {
                    String::new()
                }
            };
            let sequence =
                if r.scope == Scope::Image { "the whole picture, as one sequence," } else { "each line" };
            let buckets = 1u64 << r.digit_bits;
            let now = if done == 0 {
                format!(
                    "Digit pass 1 of {passes} will sort by bits 0..{} of the key.",
                    r.digit_bits.saturating_sub(1)
                )
            } else {
                let pass = (done - 1) / stages + 1;
                let low = (pass - 1) * r.digit_bits;
                format!(
                    "Digit pass {pass} of {passes}{} sorted by bits {low}..{} of the key: {}.",
                    stage_note(done),
                    low + r.digit_bits - 1,
                    moved("pixels moved")
                )
            };
            format!(
                "{now} A pass counts {sequence} into {buckets} buckets by its current digit; the exclusive prefix sums of the counts are each bucket's first slot, and every pixel goes to the next slot of its bucket in order, so equal digits keep their order. After {passes} passes the order is the whole key's.{sorted}"
            )
        }
        Algorithm::Bitonic => {
            let now = if done == 0 {
                format!("Stage 1 of {total} will be {}.", Stage::at(0).describe())
            } else {
                format!("Stage {done} of {total}, {}: {}.", Stage::at(done - 1).describe(), moved("swaps"))
            };
            format!(
                "{now} A stage compares fixed pairs in every line at once and puts the smaller first: merging blocks of 2^k starts by comparing each block's ends inwards (the flip), then pairs 2^(k-2), ..., 1 apart, so sorted halves become sorted blocks. The pairs never depend on the pixels, and each line is held in workgroup memory where it fits; {total} stages sort a line of {w} pixels (padded to a power of two with pixels that sort last), ties kept in order.{sorted}"
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(algorithm: Algorithm, steps: (u32, u32)) -> Facts {
        Facts {
            algorithm,
            settings: RunSettings::default(),
            steps,
            line_len: 640,
            last_moves: Some(1204),
            sorted_after: None,
        }
    }

    /// Checks that what the panel says for `facts` starts with `start` and holds each of `holds`.
    fn says(facts: &Facts, start: &str, holds: &[&str]) {
        let text = explain(facts);
        assert!(text.starts_with(start), "{text}");
        for part in holds {
            assert!(text.contains(part), "{part:?} missing from: {text}");
        }
    }

    #[test]
    fn odd_even_names_the_last_pass_parity_and_the_bound() {
        says(
            &facts(Algorithm::OddEven, (37, 640)),
            "Pass 37 compared pairs starting at odd x: 1,204 swaps.",
            &["a line of 640 pixels is sorted after at most 640 passes"],
        );
        says(&facts(Algorithm::OddEven, (38, 640)), "Pass 38 compared pairs starting at even x", &[]);
        says(&facts(Algorithm::OddEven, (0, 640)), "Pass 1 will compare pairs starting at odd x", &[]);
    }

    #[test]
    fn bubble_and_radix_say_what_a_step_does() {
        says(
            &facts(Algorithm::Bubble, (3, 320)),
            "Step 3 of 320: 1,204 swaps.",
            &["2 odd-even phases per dispatch"],
        );
        says(
            &facts(Algorithm::Radix, (2, 5)),
            "Digit pass 2 of 5 sorted by bits 4..7 of the key: 1,204 pixels moved.",
            &["16 buckets"],
        );
        let mut staged = facts(Algorithm::Radix, (6, 20));
        staged.settings.radix.sub_steps = true;
        says(&staged, "Digit pass 2 of 5 (scatter stage 2 of 4)", &[]);
    }

    #[test]
    fn bitonic_names_the_stage() {
        says(
            &facts(Algorithm::Bitonic, (2, 55)),
            "Stage 2 of 55, merge 2^2, flip (distance 2^1): 1,204 swaps.",
            &[],
        );
        says(
            &facts(Algorithm::Bitonic, (0, 55)),
            "Stage 1 of 55 will be merge 2^1, flip (distance 2^0).",
            &[],
        );
    }

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1204), "1,204");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
