//! A 4:2:0 clip with every algorithm along rows, columns and lines at an angle, whole and
//! within a threshold, a mask, threshold with a mask, edges and random intervals: each frame
//! converted to RGBA and its intervals found (in line space at an angle) on the GPU, the CPU's
//! stages for both never running, which the clip's debug line shows exactly, and every frame
//! as the CPU model sorts the model's conversion of it, read back from `--lossless`.

use super::arg;
use super::assert_succeeds;
use super::decoded::{assert_frames_equal, rgba_as_read};
use crate::clips::{ffmpeg, frames_of, have_ffmpeg};
use image::RgbaImage;
use shadersort::angle::{Angle, LineSpace};
use shadersort::intervals::threshold::ThresholdSweep;
use shadersort::intervals::{IntervalMap, IntervalMode, IntervalSettings, Mask, Threshold};
use shadersort::keys::options::{Axis, SortOptions};
use shadersort::picture::yuv::Yuv420Size;
use shadersort::reference::{stable_sort, stable_sort_within};

/// What the clip's debug line says when no frame was converted or cut into intervals on the CPU.
const NOTHING_ON_THE_CPU: &str = "4:2:0 to RGBA 0 ns, intervals 0 ns";

/// Flags that make `algorithm` sort a clip's frames with its own steps: sorted to their end, the
/// frames of every algorithm but radix are made by radix (`engine::plan::fastest_end`), which
/// `clip.rs` checks; the steps asked for here are more than any of these frames takes.
fn own_steps(algorithm: &str) -> &'static [&'static str] {
    if algorithm == "radix" { &[] } else { &["--steps", "100000"] }
}

/// A 21x13 clip of 3 frames as FFV1 4:2:0 in `dir`, and its frames as the model converts them.
fn tiny_clip(dir: &std::path::Path) -> (std::path::PathBuf, Vec<RgbaImage>) {
    let (w, h) = (21, 13);
    let size = Yuv420Size { width: w, height: h };
    let clip = dir.join("clip.mkv");
    let source = format!("testsrc=size={w}x{h}:rate=30");
    ffmpeg(&[
        "-f",
        "lavfi",
        "-i",
        &source,
        "-frames:v",
        "3",
        "-c:v",
        "ffv1",
        "-pix_fmt",
        "yuv420p",
        arg(&clip),
    ]);
    let input: Vec<RgbaImage> = rgba_as_read(&clip, size);
    assert_eq!(input.len(), 3);
    (clip, input)
}

/// A mask of `size` white where `white` says, written as a PNG in `dir`, and the same mask.
fn mask_file(
    dir: &std::path::Path,
    (w, h): (u32, u32),
    white: impl Fn(u32, u32) -> bool,
) -> (std::path::PathBuf, Mask) {
    let path = dir.join("mask.png");
    let grey = |x, y| image::Rgba(if white(x, y) { [255; 4] } else { [0, 0, 0, 255] });
    RgbaImage::from_fn(w, h, grey).save(&path).unwrap();
    (path, Mask::from_fn(w, h, white))
}

#[test]
fn every_algorithm_takes_a_420_clip_on_the_gpu_whole_and_within_a_threshold() {
    if !have_ffmpeg() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (clip, input) = tiny_clip(dir.path());
    let (w, h) = input[0].dimensions();
    let threshold = IntervalSettings {
        mode: IntervalMode::Threshold,
        threshold: Threshold::new(0.25, 0.75).unwrap(),
        ..Default::default()
    };
    let debug = [("RUST_LOG", "shadersort=debug")];
    for axis in [Axis::Rows, Axis::Columns] {
        let options = SortOptions { axis, ..Default::default() };
        let whole: Vec<RgbaImage> = input.iter().map(|f| stable_sort(f, &options)).collect();
        let within: Vec<RgbaImage> = input
            .iter()
            .map(|f| {
                stable_sort_within(f, &options, &IntervalMap::compute(f, axis, &threshold, None).unwrap())
            })
            .collect();
        for algorithm in ["odd-even", "bubble", "radix", "bitonic"] {
            for (intervals, expected) in [(None, &whole), (Some("0.25..0.75"), &within)] {
                let what = format!("{algorithm} {axis:?} within {intervals:?}");
                let out = dir.path().join(format!("{algorithm}-{axis:?}-{}.mkv", intervals.is_some()));
                let mut args = vec![arg(&clip), "--algorithm", algorithm, "--axis", axis.name()];
                args.extend(own_steps(algorithm));
                args.extend(intervals.map(|r| ["--threshold", r]).into_iter().flatten());
                args.extend(["--lossless", "--out", arg(&out)]);
                let (_, stderr) = assert_succeeds(&args, &debug);
                assert!(stderr.contains(NOTHING_ON_THE_CPU), "{what}: CPU stages ran:\n{stderr}");
                assert_frames_equal(&frames_of(&out, (w, h)), expected, &what);
            }
        }
    }
    crate::clips::ci::passed();
}

/// Every algorithm within a mask alone, a threshold with the mask, edges and random intervals (the
/// axis alternating): no frame converted or cut into intervals on the CPU, the mask uploaded once,
/// every frame as the model sorts it within the CPU's map.
#[test]
fn every_algorithm_takes_a_420_clip_on_the_gpu_within_masks_edges_and_random_intervals() {
    if !have_ffmpeg() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (clip, input) = tiny_clip(dir.path());
    let (w, h) = input[0].dimensions();
    let (mask_path, mask) = mask_file(dir.path(), (w, h), |x, y| !(x * 3 + y * 5).is_multiple_of(7));
    let base = IntervalSettings::default();
    let cases: [(IntervalSettings, bool, &[&str]); 4] = [
        (base, true, &[]),
        (
            IntervalSettings {
                mode: IntervalMode::Threshold,
                threshold: Threshold::new(0.2, 0.8).unwrap(),
                ..base
            },
            true,
            &["--threshold", "0.2..0.8"],
        ),
        (
            IntervalSettings { mode: IntervalMode::Edges, edge_level: 0.2, ..base },
            false,
            &["--edge-level", "0.2"],
        ),
        (
            IntervalSettings {
                mode: IntervalMode::Random,
                seed: 5,
                interval_length: "2..6".parse().unwrap(),
                ..base
            },
            false,
            &["--seed", "5", "--interval-length", "2..6"],
        ),
    ];
    let debug = [("RUST_LOG", "shadersort=debug")];
    for (i, algorithm) in ["odd-even", "bubble", "radix", "bitonic"].into_iter().enumerate() {
        for (c, (settings, masked, flags)) in cases.iter().enumerate() {
            let axis = [Axis::Rows, Axis::Columns][(i + c) % 2];
            let options = SortOptions { axis, ..Default::default() };
            let mask = masked.then_some(&mask);
            let expected: Vec<RgbaImage> = input
                .iter()
                .map(|f| {
                    stable_sort_within(f, &options, &IntervalMap::compute(f, axis, settings, mask).unwrap())
                })
                .collect();
            let what = format!("{algorithm} {axis:?} {flags:?} masked {masked}");
            let out = dir.path().join(format!("{algorithm}-{c}.mkv"));
            let mut args = vec![arg(&clip), "--algorithm", algorithm, "--axis", axis.name()];
            args.extend(own_steps(algorithm));
            args.extend(flags.iter().copied());
            if *masked {
                args.extend(["--mask", arg(&mask_path)]);
            }
            args.extend(["--lossless", "--out", arg(&out)]);
            let (_, stderr) = assert_succeeds(&args, &debug);
            assert!(stderr.contains(NOTHING_ON_THE_CPU), "{what}: CPU stages ran:\n{stderr}");
            assert_frames_equal(&frames_of(&out, (w, h)), &expected, &what);
        }
    }
    crate::clips::ci::passed();
}

/// Every algorithm at an angle (one angle each, both orders of lines, rows- and
/// columns-following) along whole lines and within a threshold, a mask, edges and random intervals:
/// each frame converted on the GPU, gathered into line space and cut into intervals there (no CPU
/// conversion, no intervals), written through `--lossless`, every frame as the model sorts the
/// model's line space within the CPU's line-space map.
#[test]
fn every_algorithm_takes_a_420_clip_on_the_gpu_at_an_angle_in_every_mode() {
    if !have_ffmpeg() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (clip, input) = tiny_clip(dir.path());
    let (w, h) = input[0].dimensions();
    let (mask_path, mask) = mask_file(dir.path(), (w, h), |x, y| !(x * 2 + y * 3).is_multiple_of(5));
    let base = IntervalSettings::default();
    let modes: [(IntervalSettings, bool, &[&str]); 5] = [
        (base, false, &[]),
        (base, true, &[]),
        (
            IntervalSettings {
                mode: IntervalMode::Threshold,
                threshold: Threshold::new(0.2, 0.8).unwrap(),
                ..base
            },
            true,
            &["--threshold", "0.2..0.8"],
        ),
        (
            IntervalSettings { mode: IntervalMode::Edges, edge_level: 0.2, ..base },
            false,
            &["--edge-level", "0.2"],
        ),
        (
            IntervalSettings {
                mode: IntervalMode::Random,
                seed: 9,
                interval_length: "2..5".parse().unwrap(),
                ..base
            },
            false,
            &["--seed", "9", "--interval-length", "2..5"],
        ),
    ];
    let debug = [("RUST_LOG", "shadersort=debug")];
    let algorithms = ["odd-even", "bubble", "radix", "bitonic"];
    for (algorithm, degrees) in algorithms.into_iter().zip(["30", "135", "200", "290"]) {
        let space = LineSpace::new(w, h, degrees.parse::<Angle>().unwrap());
        let options = SortOptions::default();
        for (m, (settings, masked, flags)) in modes.iter().enumerate() {
            let mask = masked.then_some(&mask);
            let map = |f: &RgbaImage| space.interval_map(f, settings, mask).unwrap();
            let expected: Vec<RgbaImage> = input
                .iter()
                .map(|f| space.scatter(&stable_sort_within(&space.gather(f), &options, &map(f))))
                .collect();
            let what = format!("{algorithm} at {degrees}° {flags:?} masked {masked}");
            let out = dir.path().join(format!("{algorithm}-{m}.mkv"));
            let mut args = vec![arg(&clip), "--algorithm", algorithm, "--angle", degrees];
            args.extend(own_steps(algorithm));
            args.extend(flags.iter().copied());
            if *masked {
                args.extend(["--mask", arg(&mask_path)]);
            }
            args.extend(["--lossless", "--out", arg(&out)]);
            let (_, stderr) = assert_succeeds(&args, &debug);
            assert!(stderr.contains(NOTHING_ON_THE_CPU), "{what}: CPU stages ran:\n{stderr}");
            assert_frames_equal(&frames_of(&out, (w, h)), &expected, &what);
        }
    }
    crate::clips::ci::passed();
}

/// `--sweep` on a clip along rows and at an angle: each frame within its own threshold, its
/// intervals found on the GPU, every frame as the model sorts it within that threshold's map.
#[test]
fn a_threshold_sweep_over_a_clip_finds_each_frames_intervals_on_the_gpu() {
    if !have_ffmpeg() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (clip, input) = tiny_clip(dir.path());
    let (w, h) = input[0].dimensions();
    let sweep = ThresholdSweep::new(0.1, 0.9, input.len() as u32);
    let debug = [("RUST_LOG", "shadersort=debug")];
    let options = SortOptions::default();
    for (algorithm, degrees) in [("bitonic", "0"), ("odd-even", "30"), ("radix", "135")] {
        let space = LineSpace::new(w, h, degrees.parse::<Angle>().unwrap());
        let expected: Vec<RgbaImage> = (0..input.len())
            .map(|k| {
                let settings = IntervalSettings {
                    mode: IntervalMode::Threshold,
                    threshold: sweep.threshold(k as u32),
                    ..Default::default()
                };
                let map = space.interval_map(&input[k], &settings, None).unwrap();
                space.scatter(&stable_sort_within(&space.gather(&input[k]), &options, &map))
            })
            .collect();
        let what = format!("{algorithm} at {degrees}° sweeping 0.1..0.9");
        let out = dir.path().join(format!("sweep-{algorithm}.mkv"));
        let args = [arg(&clip), "--algorithm", algorithm, "--angle", degrees, "--sweep", "0.1..0.9"];
        let args = [&args[..], own_steps(algorithm), &["--lossless", "--out", arg(&out)]].concat();
        let (_, stderr) = assert_succeeds(&args, &debug);
        assert!(stderr.contains(NOTHING_ON_THE_CPU), "{what}: CPU stages ran:\n{stderr}");
        assert_frames_equal(&frames_of(&out, (w, h)), &expected, &what);
    }
    crate::clips::ci::passed();
}
