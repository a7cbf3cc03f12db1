//! GIF recordings within intervals and of threshold sweeps, straight and at an angle: every frame
//! is the CPU model within its intervals (or at its threshold) through the palette.

use super::gif_frames::{gif_frames, through_palette};
use super::{fails, ok, ok_on, save};
use shadersort::keys::options::SortOptions;
use shadersort::picture::patterns::random_image;
use shadersort::record::palette::{indexed_picture, quantize};

/// `--record` within threshold intervals along columns: every frame is the odd-even model within
/// the intervals at its pass, through the palette, and the last one has every interval sorted.
#[test]
fn a_recording_within_intervals_is_the_model_at_every_pass() {
    use shadersort::intervals::{IntervalMap, IntervalMode, IntervalSettings, Threshold};
    use shadersort::keys::options::Axis;
    use shadersort::reference::{odd_even_passes_within, stable_sort_within};
    let dir = tempfile::tempdir().unwrap();
    let input = random_image(13, 29, 5);
    let name = save(&input, dir.path(), "tall.png");
    let stdout =
        ok(&[&name, "--axis", "columns", "--threshold", "0.2..0.8", "--record", "t.gif"], dir.path());
    let settings = IntervalSettings {
        mode: IntervalMode::Threshold,
        threshold: Threshold::new(0.2, 0.8).unwrap(),
        ..Default::default()
    };
    let intervals = IntervalMap::compute(&input, Axis::Columns, &settings, None).unwrap();
    let options = SortOptions { axis: Axis::Columns, ..Default::default() };
    let quantized = quantize(&input, [0, 0, 0], true);
    let indexed = indexed_picture(&input, &quantized.indices);
    let frames = gif_frames(&dir.path().join("t.gif"));
    assert!(stdout.contains(&format!("recorded {} frames", frames.len())), "{stdout}");
    assert!(
        frames.len() as u32 <= intervals.max_interval_len() + 1,
        "passes are the longest interval: {}",
        frames.len()
    );
    for (k, (frame, _)) in frames.iter().enumerate() {
        let model = odd_even_passes_within(&indexed, &options, Some(&intervals), k as u32);
        assert!(*frame == through_palette(&model, &quantized.palette.colours), "frame {k}");
    }
    let sorted =
        through_palette(&stable_sort_within(&indexed, &options, &intervals), &quantized.palette.colours);
    assert!(frames.last().unwrap().0 == sorted, "the last frame has every interval sorted");
    crate::ci::passed();
}

/// `--record --sweep FROM..TO`: frame k is the picture sorted to the end within the threshold
/// 0..t, t going evenly from FROM to TO; the same GIF for every algorithm and on both backends.
#[test]
fn a_threshold_sweep_records_one_fully_sorted_frame_per_threshold() {
    use shadersort::intervals::threshold::ThresholdSweep;
    use shadersort::intervals::{IntervalMap, IntervalMode, IntervalSettings};
    use shadersort::keys::SortKey;
    use shadersort::reference::stable_sort_within;
    let dir = tempfile::tempdir().unwrap();
    let input = random_image(31, 9, 6);
    let name = save(&input, dir.path(), "noise.png");
    let args =
        ["--key", "hue", "--interval-key", "value", "--sweep", "1..0.1", "--frames", "6", "--fps", "25"];
    let run = |gif: &str, more: &[&str], backend: &str| {
        let stdout =
            ok_on(&[&[name.as_str(), "--record", gif][..], &args, more].concat(), dir.path(), Some(backend));
        assert!(stdout.contains("recorded 6 frames of the threshold sweep"), "{stdout}");
        std::fs::read(dir.path().join(gif)).unwrap()
    };
    let first = run("odd-even.gif", &[], "vulkan");
    assert!(first == run("fragment.gif", &["--pass", "fragment"], "vulkan"));
    assert!(first == run("bubble.gif", &["--algorithm", "bubble"], "vulkan"));
    assert!(first == run("radix.gif", &["--algorithm", "radix"], "gl"));
    assert!(first == run("gl.gif", &[], "gl"));

    let options = SortOptions { key: SortKey::Hue, ..Default::default() };
    let quantized = quantize(&input, [0, 0, 0], true);
    let indexed = indexed_picture(&input, &quantized.indices);
    let sweep = ThresholdSweep::new(1.0, 0.1, 6);
    let frames = gif_frames(&dir.path().join("odd-even.gif"));
    assert_eq!(frames.len(), 6);
    let mut pictures = Vec::new();
    for (k, (frame, delay)) in frames.iter().enumerate() {
        let settings = IntervalSettings {
            mode: IntervalMode::Threshold,
            key: SortKey::Value,
            threshold: sweep.threshold(k as u32),
            ..Default::default()
        };
        let intervals = IntervalMap::compute(&input, options.axis, &settings, None).unwrap();
        let want =
            through_palette(&stable_sort_within(&indexed, &options, &intervals), &quantized.palette.colours);
        assert!(
            *frame == want,
            "frame {k} (threshold 0..{}) differs from the model",
            sweep.threshold(k as u32).hi()
        );
        assert_eq!(*delay, if k == 5 { 200 } else { 4 }, "delay of frame {k}");
        pictures.push(frame.clone());
    }
    assert!(pictures[0] != pictures[5], "the sweep must change the picture for this test to mean anything");
    crate::ci::passed();
}

#[test]
fn a_sweep_goes_to_the_default_path_and_needs_a_recording() {
    let dir = tempfile::tempdir().unwrap();
    let name = save(&random_image(8, 3, 1), dir.path(), "tiny.png");
    let stdout = ok(&[&name, "--sweep", "0..1", "--frames", "2", "--record"], dir.path());
    assert!(stdout.contains("gifs/tiny-odd-even-luma-sweep.gif"), "{stdout}");
    assert_eq!(gif_frames(&dir.path().join("gifs/tiny-odd-even-luma-sweep.gif")).len(), 2);
    let line = fails(&[&name, "--sweep", "0..1", "--out", "x.png"], dir.path(), "--sweep");
    assert!(line.contains("add --record"), "{line}");
    assert!(!dir.path().join("x.png").exists());
    crate::ci::passed();
}

/// `--record` at an angle within threshold intervals: every frame is the odd-even model in line
/// space at its pass, scattered, through the palette; the default path carries the angle. A
/// sweep at an angle: every frame is the whole sort at its threshold along the lines.
#[test]
fn recordings_at_an_angle_are_the_model_scattered_at_every_pass() {
    use shadersort::angle::{Angle, LineSpace};
    use shadersort::intervals::threshold::ThresholdSweep;
    use shadersort::intervals::{IntervalMode, IntervalSettings, Threshold};
    use shadersort::keys::options::Axis;
    use shadersort::reference::{odd_even_passes_within, stable_sort_within};
    let dir = tempfile::tempdir().unwrap();
    let input = random_image(21, 13, 15);
    let name = save(&input, dir.path(), "tilt.png");
    let stdout = ok(&[&name, "--angle", "30", "--threshold", "0.2..0.8", "--record"], dir.path());
    let gif = dir.path().join("gifs/tilt-odd-even-luma-angle30-threshold.gif");
    assert!(stdout.contains("gifs/tilt-odd-even-luma-angle30-threshold.gif"), "{stdout}");
    let settings = |lo, hi| IntervalSettings {
        mode: IntervalMode::Threshold,
        threshold: Threshold::new(lo, hi).unwrap(),
        ..Default::default()
    };
    let rows = SortOptions { axis: Axis::Rows, ..Default::default() };
    let quantized = quantize(&input, [0, 0, 0], true);
    let indexed = indexed_picture(&input, &quantized.indices);
    let space = LineSpace::new(21, 13, Angle::new(30.0).unwrap());
    let intervals = space.interval_map(&input, &settings(0.2, 0.8), None).unwrap();
    let lines = space.gather(&indexed);
    let frames = gif_frames(&gif);
    assert!(frames.len() > 2, "{} frames", frames.len());
    for (k, (frame, _)) in frames.iter().enumerate() {
        let model = space.scatter(&odd_even_passes_within(&lines, &rows, Some(&intervals), k as u32));
        assert!(*frame == through_palette(&model, &quantized.palette.colours), "frame {k}");
    }
    let sorted = space.scatter(&stable_sort_within(&lines, &rows, &intervals));
    assert!(frames.last().unwrap().0 == through_palette(&sorted, &quantized.palette.colours));

    ok(&[&name, "--angle", "120", "--sweep", "0..1", "--frames", "3", "--record", "sweep.gif"], dir.path());
    let space = LineSpace::new(21, 13, Angle::new(120.0).unwrap());
    let lines = space.gather(&indexed);
    let sweep = ThresholdSweep::new(0.0, 1.0, 3);
    let frames = gif_frames(&dir.path().join("sweep.gif"));
    assert_eq!(frames.len(), 3);
    for (k, (frame, _)) in frames.iter().enumerate() {
        let t = sweep.threshold(k as u32);
        let intervals = space.interval_map(&input, &settings(t.lo(), t.hi()), None).unwrap();
        let model = space.scatter(&stable_sort_within(&lines, &rows, &intervals));
        assert!(*frame == through_palette(&model, &quantized.palette.colours), "sweep frame {k}");
    }
    crate::ci::passed();
}
