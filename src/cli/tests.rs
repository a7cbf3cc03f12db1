//! The command line's parsing, checks and resolved settings.

use super::*;
use crate::intervals::threshold::ThresholdSweep;
use crate::keys::options::SortOptions;
use crate::settings::RecordSettings;
use clap::CommandFactory;

#[test]
fn the_command_line_is_consistent() {
    Cli::command().debug_assert();
}

#[test]
fn defaults_are_luma_rows_ascending_compute() {
    let cli = Cli::parse_from(["shadersort"]);
    assert_eq!(cli.sort_options(), SortOptions::default());
    assert_eq!(cli.pass_kind, PassKind::Compute);
    assert_eq!(cli.algorithm(), Algorithm::OddEven);
}

#[test]
fn every_flag_parses() {
    let cli = Cli::parse_from([
        "shadersort",
        "in.png",
        "--out",
        "o.png",
        "--steps",
        "5",
        "--algorithm",
        "odd-even",
        "--pass",
        "fragment",
        "--key",
        "hue",
        "--reverse",
        "--axis",
        "columns",
        "--max-size",
        "64",
        "--no-downscale",
    ]);
    assert_eq!(cli.sort_options(), SortOptions { key: SortKey::Hue, descending: true, axis: Axis::Columns });
    assert_eq!((cli.steps, cli.max_size, cli.no_downscale), (Some(5), Some(64), true));
}

#[test]
fn record_takes_an_optional_path_and_its_settings() {
    let cli = Cli::parse_from(["shadersort", "in.png", "--record"]);
    assert_eq!((cli.image(), cli.record.clone()), (Some(std::path::Path::new("in.png")), Some(None)));
    assert_eq!(cli.record_settings(), RecordSettings::default());
    let cli = Cli::parse_from([
        "shadersort",
        "--record",
        "a.gif",
        "--every",
        "3",
        "--fps",
        "50",
        "--scale",
        "4",
        "--hold",
        "0.5",
        "--background",
        "#ff8000",
    ]);
    assert_eq!(cli.record, Some(Some("a.gif".into())));
    let s = cli.record_settings();
    assert_eq!((s.every, s.fps, s.scale, s.hold_seconds, s.background), (Some(3), 50, 4, 0.5, [255, 128, 0]));
    assert_eq!(Cli::parse_from(["shadersort", "--quit-after", "2.5"]).quit_after, Some(2.5));
    let lens = Cli::parse_from(["shadersort", "--lens", "12"]);
    assert_eq!((lens.lens, lens.settings().lens), (Some(12), Some(12)));
}

#[test]
fn radix_flags_reach_the_settings_and_are_checked() {
    let cli = Cli::parse_from([
        "shadersort",
        "--algorithm",
        "radix",
        "--digit-bits",
        "2",
        "--key-bits",
        "12",
        "--scope",
        "image",
        "--sub-steps",
        "--out",
        "o.png",
    ]);
    let radix = cli.run_settings().radix;
    assert_eq!(
        (radix.digit_bits, radix.key_bits, radix.scope, radix.sub_steps),
        (2, Some(12), Scope::Image, true)
    );
    assert_eq!(cli.check(), Ok(()));
    let too_many = Cli::parse_from(["shadersort", "--algorithm", "radix", "--key", "red", "--key-bits", "9"]);
    assert!(too_many.check().unwrap_err().contains("1 to 8"));
    let wrong = Cli::parse_from(["shadersort", "--scope", "image", "--out", "o.png"]);
    assert!(wrong.check().unwrap_err().contains("--algorithm radix"));
    // The window may switch to the radix view later, so it takes radix flags with any algorithm.
    assert_eq!(Cli::parse_from(["shadersort", "--digit-bits", "8"]).check(), Ok(()));
}

#[test]
fn interval_flags_reach_the_settings_and_imply_their_mode() {
    let cli =
        Cli::parse_from(["shadersort", "--threshold", "0.1..0.6", "--interval-key", "hue", "--out", "o.png"]);
    assert_eq!(cli.check(), Ok(()));
    let s = cli.interval_settings();
    assert_eq!(
        (s.mode, s.key, s.threshold),
        (IntervalMode::Threshold, SortKey::Hue, Threshold::new(0.1, 0.6).unwrap())
    );
    assert!(cli.uses_intervals());
    let cli = Cli::parse_from(["shadersort", "--edge-level", "0.3", "--record"]);
    assert_eq!(
        (cli.interval_settings().mode, cli.interval_settings().edge_level),
        (IntervalMode::Edges, 0.3)
    );
    // `--run-length`, the flag's first name, is still taken.
    let cli = Cli::parse_from(["shadersort", "--seed", "9", "--run-length", "4", "--out", "o.png"]);
    let s = cli.interval_settings();
    assert_eq!(
        (s.mode, s.seed, s.interval_length),
        (IntervalMode::Random, 9, IntervalLength::new(4, 4).unwrap())
    );
    let cli = Cli::parse_from(["shadersort", "--intervals", "edges", "--out", "o.png"]);
    assert_eq!(cli.interval_settings().mode, IntervalMode::Edges);
    // A mask alone sorts whole lines around its black pixels.
    let cli = Cli::parse_from(["shadersort", "--mask", "m.png", "--out", "o.png"]);
    assert_eq!((cli.interval_settings().mode, cli.uses_intervals()), (IntervalMode::None, true));
    assert!(cli.settings().uses_intervals(), "a mask alone sorts within intervals");
    let plain = Cli::parse_from(["shadersort", "--out", "o.png"]);
    assert!(!plain.uses_intervals() && plain.threshold_sweep().is_none());
    assert!(!plain.settings().uses_intervals() && plain.settings().headless());
}

#[test]
fn interval_flags_that_do_not_go_together_are_refused() {
    let refused = |args: &[&str], expected: &str| {
        let cli = Cli::parse_from([&["shadersort"], args].concat());
        let e = cli.check().unwrap_err();
        assert!(e.contains(expected), "{args:?}: {e}");
    };
    refused(&["--threshold", "0..1", "--edge-level", "0.2", "--out", "o.png"], "different interval modes");
    refused(&["--intervals", "threshold", "--seed", "1", "--out", "o.png"], "(threshold and random)");
    refused(&["--intervals", "none", "--threshold", "0..1", "--out", "o.png"], "(none and threshold)");
    refused(&["--interval-key", "red", "--out", "o.png"], "--interval-key applies");
    refused(
        &["--threshold", "0..1", "--algorithm", "radix", "--scope", "image", "--out", "o.png"],
        "drop --scope image",
    );
    refused(&["--sweep", "0..1", "--out", "o.png"], "add --record");
    refused(&["--sweep", "0..1"], "add --record");
    refused(&["--sweep", "0..1", "--record", "--threshold", "0..1"], "drop --threshold");
    refused(&["--sweep", "0..1", "--record", "--out", "o.png"], "drop --out");
    refused(&["--sweep", "0..1", "--record", "--steps", "3"], "drop --steps");
    refused(&["--sweep", "0..1", "--record", "--edge-level", "0.1"], "different interval modes");
    refused(&["--frames", "5", "--record"], "add --sweep");
}

#[test]
fn the_window_takes_interval_flags_but_not_a_sweep() {
    for args in [
        &["--threshold", "0.2..0.6", "--play"][..],
        &["--intervals", "edges", "--edge-level", "0.3", "--interval-key", "hue"],
        &["--seed", "3", "--interval-length", "4..9"],
        &["--mask", "m.png"],
        // The window's radix lane sorts whole lines in image scope and says why.
        &["--threshold", "0..1", "--algorithm", "radix", "--scope", "image"],
    ] {
        let cli = Cli::parse_from([&["shadersort"], args].concat());
        assert_eq!(cli.check(), Ok(()), "{args:?}");
        assert!(cli.uses_intervals());
        assert!(cli.settings().uses_intervals() && !cli.settings().headless(), "{args:?}");
    }
    let sweep = Cli::parse_from(["shadersort", "--sweep", "0..1"]);
    assert!(sweep.check().unwrap_err().contains("add --record"));
}

#[test]
fn an_angle_is_the_direction_and_does_not_go_with_an_axis() {
    let cli = Cli::parse_from(["shadersort", "--angle", "-30", "--out", "o.png"]);
    assert_eq!((cli.direction().degrees(), cli.check()), (330.0, Ok(())));
    assert_eq!(cli.sort_options().axis, Axis::Rows);
    let cli = Cli::parse_from(["shadersort", "--angle", "450"]);
    assert_eq!((cli.direction(), cli.sort_options().axis), (Angle::COLUMNS, Axis::Columns));
    let cli = Cli::parse_from(["shadersort", "--axis", "columns"]);
    assert_eq!(cli.direction(), Angle::COLUMNS);
    assert_eq!(Cli::parse_from(["shadersort"]).direction(), Angle::ROWS);
    for axis in ["rows", "columns"] {
        let both = Cli::parse_from(["shadersort", "--angle", "30", "--axis", axis, "--out", "o.png"]);
        let e = both.check().unwrap_err();
        assert!(e.contains("--angle 30 and --axis") && e.contains("give one"), "{e}");
    }
    let whole = ["shadersort", "--angle", "30", "--algorithm", "radix", "--scope", "image"];
    let e = Cli::parse_from([&whole[..], &["--out", "o.png"]].concat()).check().unwrap_err();
    assert!(e.contains("drop --scope image or --angle"), "{e}");
    // The window takes it (its radix lane sorts the whole picture and says why), and a
    // whole picture along an axis needs no lines turned.
    assert_eq!(Cli::parse_from(whole).check(), Ok(()));
    let axis = ["shadersort", "--angle", "90", "--algorithm", "radix", "--scope", "image", "--out", "o.png"];
    assert_eq!(Cli::parse_from(axis).check(), Ok(()));
}

#[test]
fn a_sweep_takes_its_ends_and_frames() {
    let cli = Cli::parse_from([
        "shadersort",
        "--sweep",
        "1..0.2",
        "--frames",
        "12",
        "--record",
        "--interval-key",
        "value",
    ]);
    assert_eq!(cli.check(), Ok(()));
    assert_eq!(cli.threshold_sweep(), Some(ThresholdSweep::new(1.0, 0.2, 12)));
    assert_eq!(cli.interval_settings().mode, IntervalMode::Threshold);
    let default = Cli::parse_from(["shadersort", "--sweep", "0..1", "--record"]);
    assert_eq!(default.threshold_sweep().unwrap().frames, ThresholdSweep::DEFAULT_FRAMES);
}

/// Values out of range, and flags that exclude each other, are refused while parsing.
#[test]
fn the_parser_refuses_bad_values() {
    let refused: [&[&str]; 15] = [
        &["--every", "2", "--max-frames", "9"],
        &["--fps", "60"],
        &["--background", "red"],
        &["--quit-after", "-1"],
        &["--speed", "0"],
        &["--digit-bits", "3"],
        &["--lens", "-1"],
        &["--threshold", "0.9..0.1"],
        &["--edge-level", "2"],
        &["--interval-length", "0..3"],
        &["--frames", "1"],
        &["--angle", "north"],
        &["--angle", "inf"],
        &["--sweep", "0..2"],
        &["--sweep", "0.5"],
    ];
    for args in refused {
        assert!(Cli::try_parse_from([&["shadersort"], args].concat()).is_err(), "{args:?}");
    }
}
