//! `--pattern`: each built-in input written as it starts has its defining property, judged by the
//! CPU model for the sort asked for; every algorithm ends it in the model's stable sort, and the
//! steps each takes on it are the model's (odd-even's passes to sorted, the bubble stopping a
//! phase pair after them, radix and bitonic the same on every input).

use super::{arg, assert_succeeds};
use image::RgbaImage;
use shadersort::keys::SortKey;
use shadersort::keys::options::{Axis, SortOptions};
use shadersort::reference::{is_sorted, lines, odd_even_pass, stable_sort};

const PATTERNS: [&str; 6] = ["noise", "sorted", "reversed", "few-distinct", "nearly-sorted", "sawtooth"];

/// The number in `text` right after `before`.
fn number_after(text: &str, before: &str) -> u32 {
    let at = text.find(before).unwrap_or_else(|| panic!("no '{before}' in {text}")) + before.len();
    text[at..].split(|c: char| !c.is_ascii_digit()).next().unwrap().parse().unwrap()
}

/// Runs `args` with `--out`, returning the picture written and the run's line.
fn sorted(dir: &std::path::Path, name: &str, args: &[&str]) -> (RgbaImage, String) {
    let out = dir.join(format!("{name}.png"));
    let (stdout, _) = assert_succeeds(&[args, &["--out", arg(&out)]].concat(), &[]);
    (image::open(&out).unwrap().to_rgba8(), stdout)
}

/// The adjacent pairs of each line out of the sort's order.
fn descents(picture: &RgbaImage, options: &SortOptions) -> Vec<usize> {
    let key = |p: [u8; 4]| options.order_key(p);
    lines(picture, options.axis)
        .iter()
        .map(|l| l.windows(2).filter(|w| key(w[0]) > key(w[1])).count())
        .collect()
}

/// Odd-even passes the model makes before every line is sorted.
fn passes_to_sorted(input: &RgbaImage, options: &SortOptions) -> u32 {
    let mut state = input.clone();
    let mut passes = 0;
    while !is_sorted(&state, options) {
        odd_even_pass(&mut state, options, passes);
        passes += 1;
    }
    passes
}

#[test]
fn each_pattern_has_its_property_and_each_algorithm_the_models_steps_on_it() {
    let dir = tempfile::tempdir().unwrap();
    let (w, h) = (64, 9);
    let size = format!("{w}x{h}");
    let options = SortOptions::default();
    for pattern in PATTERNS {
        let base = ["--pattern", pattern, "--pattern-size", size.as_str()];
        let (input, _) = sorted(dir.path(), pattern, &[&base[..], &["--steps", "0"]].concat());
        assert_eq!(input.dimensions(), (w, h), "{pattern}");
        let down = descents(&input, &options);
        let distinct: std::collections::HashSet<_> = input.pixels().collect();
        match pattern {
            "noise" => assert!(down.iter().all(|&d| d > 10), "{pattern}: {down:?}"),
            "sorted" => assert!(is_sorted(&input, &options), "{pattern}"),
            "reversed" => {
                let up = descents(&input, &SortOptions { descending: true, ..options });
                assert!(up.iter().all(|&u| u == 0) && down.iter().all(|&d| d > 40), "{pattern}: {down:?}");
            }
            "few-distinct" => assert!(distinct.len() <= 4 && !is_sorted(&input, &options), "{pattern}"),
            // 63 pairs a line: 1% of them, one swapped pair.
            "nearly-sorted" => assert!(down.iter().all(|&d| d == 1), "{pattern}: {down:?}"),
            // Four sorted teeth: three steps down.
            "sawtooth" => assert!(down.iter().all(|&d| d == 3), "{pattern}: {down:?}"),
            _ => unreachable!(),
        }
        let expected = stable_sort(&input, &options);
        let passes = passes_to_sorted(&input, &options);
        if pattern == "reversed" {
            assert_eq!(passes, w, "odd-even needs every pass on reversed lines");
        }
        for algorithm in ["odd-even", "bubble", "radix", "bitonic"] {
            let args = [&base[..], &["--algorithm", algorithm, "--phases-per-step", "2"]].concat();
            let (end, line) = sorted(dir.path(), &format!("{pattern}-{algorithm}"), &args);
            assert!(end == expected, "{pattern} by {algorithm}: not the model's stable sort");
            let what = format!("{pattern} by {algorithm}: {line}");
            match algorithm {
                "odd-even" => assert_eq!(number_after(&line, "sorted after "), passes, "{what}"),
                // The bubble's phases are odd-even's passes; it knows it is sorted after the
                // first step of two phases that swaps nothing, or at its last step.
                "bubble" => {
                    let steps = (passes.div_ceil(2) + 1).min(w.div_ceil(2));
                    assert_eq!(number_after(&line, "sorted after "), steps, "{what}")
                }
                // 18 bits of luma in 4-bit digits; 64 = 2^6 cells: 6 x 7 / 2 stages.
                "radix" => assert_eq!(number_after(&line, "ran "), 5, "{what}"),
                _ => assert_eq!(number_after(&line, "ran "), 21, "{what}"),
            }
        }
    }
    // The lines follow the sort asked for: columns, by hue, descending.
    let hue = SortOptions { key: SortKey::Hue, descending: true, axis: Axis::Columns };
    let args =
        ["--pattern", "sorted", "--pattern-size", "7x30", "--key", "hue", "--reverse", "--axis", "columns"];
    let (input, _) = sorted(dir.path(), "columns", &[&args[..], &["--steps", "0"]].concat());
    assert!(is_sorted(&input, &hue) && !is_sorted(&input, &options));
    crate::clips::ci::passed();
}
