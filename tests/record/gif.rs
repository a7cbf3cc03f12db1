//! GIF recordings: the written GIF, decoded by the `image` crate, holds one frame per kept
//! pass, each equal to the CPU model at that pass mapped through the palette, with the delays
//! asked for.

use super::{fails, ok, ok_on, save};
use image::codecs::gif::GifDecoder;
use image::{AnimationDecoder, RgbaImage};
use shadersort::keys::options::SortOptions;
use shadersort::picture::patterns::random_image;
use shadersort::record::palette::{composite, indexed_picture, quantize};
use shadersort::reference::{is_sorted, odd_even_passes, stable_sort};
use std::path::Path;
use std::process::Command;

/// Frames as RGBA canvases and their delays in hundredths of a second.
fn decode(path: &Path) -> Vec<(RgbaImage, u32)> {
    let file = std::io::BufReader::new(std::fs::File::open(path).unwrap());
    let frames = GifDecoder::new(file).unwrap().into_frames().collect_frames().unwrap();
    frames
        .into_iter()
        .map(|f| {
            let (num, den) = f.delay().numer_denom_ms();
            (f.into_buffer(), num / den / 10)
        })
        .collect()
}

/// The picture the GIF should show for a state of the indexed picture: each pixel's palette
/// colour, opaque.
fn through_palette(state: &RgbaImage, colours: &[[u8; 3]]) -> RgbaImage {
    RgbaImage::from_fn(state.width(), state.height(), |x, y| {
        let [r, g, b] = colours[state.get_pixel(x, y)[3] as usize];
        image::Rgba([r, g, b, 255])
    })
}

/// Checks every frame against the CPU model (frames `every` passes apart, none after `passes`)
/// and the delays; the last frame must be the sorted picture. Returns the frame count.
fn check_frames(
    gif: &Path,
    input: &RgbaImage,
    options: &SortOptions,
    every: u32,
    passes: u32,
    fps_cs: u32,
) -> usize {
    check_frames_dithered(gif, input, options, (every, passes, fps_cs), true)
}

/// [`check_frames`] with the dithering choice; `plan` is (every, passes, frame delay).
fn check_frames_dithered(
    gif: &Path,
    input: &RgbaImage,
    options: &SortOptions,
    plan: (u32, u32, u32),
    dither: bool,
) -> usize {
    let (every, passes, fps_cs) = plan;
    let quantized = quantize(input, [0, 0, 0], dither);
    let indexed = indexed_picture(input, &quantized.indices);
    let frames = decode(gif);
    assert!(frames.len() as u32 <= passes.div_ceil(every) + 1, "{} frames", frames.len());
    for (k, (frame, delay)) in frames.iter().enumerate() {
        let pass = (k as u32 * every).min(passes);
        let want = through_palette(&odd_even_passes(&indexed, options, pass), &quantized.palette.colours);
        assert!(*frame == want, "frame {k} (pass {pass}) differs from the model");
        let last = k + 1 == frames.len();
        assert_eq!(*delay, if last { 200 } else { fps_cs }, "delay of frame {k}");
    }
    let sorted = through_palette(&stable_sort(&indexed, options), &quantized.palette.colours);
    assert!(frames.last().unwrap().0 == sorted, "the last frame is not the sorted picture");
    frames.len()
}

#[test]
fn every_frame_is_the_model_at_its_pass_for_a_photo_like_picture() {
    let dir = tempfile::tempdir().unwrap();
    // A reversed gradient needs all of its passes, so no frame is skipped by early stopping.
    let input = RgbaImage::from_fn(41, 7, |x, y| {
        image::Rgba([(255 - x * 6) as u8, (y * 30) as u8, (x * y) as u8, 255])
    });
    let name = save(&input, dir.path(), "grad.png");
    let stdout = ok(&[&name, "--record", "g.gif"], dir.path());
    assert!(stdout.contains("recorded 42 frames"), "{stdout}");
    assert_eq!(check_frames(&dir.path().join("g.gif"), &input, &SortOptions::default(), 1, 41, 3), 42);
}

#[test]
fn few_colours_are_recorded_losslessly_and_many_through_one_palette() {
    let dir = tempfile::tempdir().unwrap();
    let mut few = random_image(33, 5, 4);
    for p in few.pixels_mut() {
        p.0 = [p[0] & 0xc0, p[1] & 0x80, 0x40, 255];
    }
    let name = save(&few, dir.path(), "few.png");
    ok(&[&name, "--record", "few.gif", "--every", "4", "--fps", "50", "--key", "hue"], dir.path());
    let options = SortOptions { key: shadersort::keys::SortKey::Hue, ..Default::default() };
    let frames = decode(&dir.path().join("few.gif"));
    for (k, (frame, _)) in frames.iter().enumerate() {
        let pass = (k as u32 * 4).min(33);
        let model = odd_even_passes(&few, &options, pass);
        assert!(*frame == model, "lossless frame {k} differs from the model");
    }
    assert!(is_sorted(&frames.last().unwrap().0, &options), "lossless frames keep the key order");

    let many = random_image(40, 16, 9);
    assert!(!quantize(&many, [0; 3], true).palette.exact, "this picture must need quantizing");
    let name = save(&many, dir.path(), "many.png");
    ok(&[&name, "--record", "many.gif", "--every", "4", "--fps", "50"], dir.path());
    check_frames(&dir.path().join("many.gif"), &many, &SortOptions::default(), 4, 40, 2);
    ok(&[&name, "--record", "plain.gif", "--every", "4", "--fps", "50", "--no-dither"], dir.path());
    check_frames_dithered(&dir.path().join("plain.gif"), &many, &SortOptions::default(), (4, 40, 2), false);
    let (dithered, plain) = (quantize(&many, [0; 3], true), quantize(&many, [0; 3], false));
    assert_ne!(dithered.indices, plain.indices, "--no-dither must change the indices");
}

#[test]
fn columns_reverse_and_fragment_passes_record_the_same_frames_on_both_backends() {
    let dir = tempfile::tempdir().unwrap();
    let input = random_image(9, 23, 12);
    let name = save(&input, dir.path(), "tall.png");
    let args = ["--axis", "columns", "--reverse", "--fps", "25"];
    ok_on(&[&[name.as_str(), "--record", "c.gif"][..], &args].concat(), dir.path(), Some("vulkan"));
    ok_on(
        &[&[name.as_str(), "--record", "f.gif", "--pass", "fragment"][..], &args].concat(),
        dir.path(),
        Some("vulkan"),
    );
    ok_on(&[&[name.as_str(), "--record", "gl.gif"][..], &args].concat(), dir.path(), Some("gl"));
    ok_on(
        &[&[name.as_str(), "--record", "glf.gif", "--pass", "fragment"][..], &args].concat(),
        dir.path(),
        Some("gl"),
    );
    for other in ["gl.gif", "glf.gif"] {
        assert_eq!(
            std::fs::read(dir.path().join("c.gif")).unwrap(),
            std::fs::read(dir.path().join(other)).unwrap()
        );
    }
    let options = SortOptions {
        descending: true,
        axis: shadersort::keys::options::Axis::Columns,
        ..Default::default()
    };
    let frames = decode(&dir.path().join("c.gif"));
    assert_eq!(
        std::fs::read(dir.path().join("c.gif")).unwrap(),
        std::fs::read(dir.path().join("f.gif")).unwrap()
    );
    assert_eq!(check_frames(&dir.path().join("c.gif"), &input, &options, 1, 23, 4), frames.len());
}

#[test]
fn frames_may_span_more_passes_than_the_swap_counters_hold() {
    let dir = tempfile::tempdir().unwrap();
    // Distinct keys in reverse order: every one of the 1200 passes is needed.
    let input = RgbaImage::from_fn(1200, 1, |x, _| {
        let v = 1199 - x;
        image::Rgba([(v / 5) as u8, (v % 5 * 50) as u8, 0, 255])
    });
    let name = save(&input, dir.path(), "long.png");
    ok(&[&name, "--record", "long.gif", "--every", "1100"], dir.path());
    assert_eq!(check_frames(&dir.path().join("long.gif"), &input, &SortOptions::default(), 1100, 1200, 3), 3);
}

#[test]
fn scale_enlarges_pixels_and_transparency_is_blended_over_the_background() {
    let dir = tempfile::tempdir().unwrap();
    let input =
        RgbaImage::from_fn(5, 2, |x, _| image::Rgba([200, 40 * x as u8, 0, if x == 0 { 0 } else { 255 }]));
    let name = save(&input, dir.path(), "alpha.png");
    ok(&[&name, "--record", "s.gif", "--scale", "3", "--background", "0000ff"], dir.path());
    let frames = decode(&dir.path().join("s.gif"));
    let first = &frames[0].0;
    assert_eq!(first.dimensions(), (15, 6));
    for (x, y, p) in first.enumerate_pixels() {
        let src = input.get_pixel(x / 3, y / 3).0;
        let [r, g, b] = composite(src, [0, 0, 255]);
        assert_eq!(p.0, [r, g, b, 255], "pixel ({x}, {y})");
    }
}

#[test]
fn a_sorted_picture_stops_at_once_and_the_default_path_is_under_gifs() {
    let dir = tempfile::tempdir().unwrap();
    let sorted = RgbaImage::from_fn(50, 3, |x, _| image::Rgba([x as u8 * 5, 0, 0, 255]));
    let name = save(&sorted, dir.path(), "done.png");
    let stdout = ok(&[&name, "--record"], dir.path());
    let path = dir.path().join("gifs/done-odd-even-luma.gif");
    assert!(stdout.contains("gifs/done-odd-even-luma.gif"), "{stdout}");
    let frames = decode(&path);
    assert!(frames.len() <= 2, "{} frames for a picture that was already sorted", frames.len());
    assert!(frames.iter().all(|(f, _)| *f == sorted));
}

#[test]
fn bad_recordings_are_refused_and_leave_existing_files_alone() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("keep.gif"), b"an older recording").unwrap();
    let wide = random_image(1001, 1, 3);
    let name = save(&wide, dir.path(), "wide.png");
    let line = fails(&[&name, "--record", "keep.gif"], dir.path(), "1002 frames");
    assert!(line.contains("--max-frames") && line.contains("--every"), "{line}");
    fails(&["--record", "x.mp4"], dir.path(), "the format follows the path");
    fails(&["--record", "nowhere/x.gif"], dir.path(), "does not exist");
    std::fs::create_dir(dir.path().join("folder.gif")).unwrap();
    fails(&["--record", "folder.gif"], dir.path(), "is a directory");
    std::fs::remove_dir(dir.path().join("folder.gif")).unwrap();
    assert_eq!(std::fs::read(dir.path().join("keep.gif")).unwrap(), b"an older recording");
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names.len(), 2, "no temporary files may be left: {names:?}");
    // The spacing can be chosen instead.
    let stdout = ok(&[&name, "--record", "keep.gif", "--max-frames", "20"], dir.path());
    assert!(stdout.contains("recorded"), "{stdout}");
    assert!(decode(&dir.path().join("keep.gif")).len() <= 20);
}

#[cfg(unix)]
#[test]
fn ctrl_c_leaves_the_old_file_and_no_temporary() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("old.gif"), b"previous").unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_shadersort"))
        .args(["--record", "old.gif", "--scale", "3"])
        .current_dir(dir.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until the recording is under way (its temporary file exists), then interrupt it.
    let started = std::time::Instant::now();
    while std::fs::read_dir(dir.path()).unwrap().count() < 2 {
        assert!(started.elapsed().as_secs() < 60, "the recording never started");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    let killed = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("interrupted"), "{stderr}");
    assert_eq!(std::fs::read(dir.path().join("old.gif")).unwrap(), b"previous");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "the temporary file must be gone");
}

#[test]
fn bubble_frames_are_the_model_every_phase_budget() {
    let dir = tempfile::tempdir().unwrap();
    let input = RgbaImage::from_fn(41, 7, |x, y| {
        image::Rgba([(255 - x * 6) as u8, (y * 30) as u8, (x * y) as u8, 255])
    });
    let name = save(&input, dir.path(), "grad.png");
    let stdout = ok(&[&name, "--algorithm", "bubble", "--record", "b.gif"], dir.path());
    // Two phases per step by default: 21 steps for 41 phases, plus the input.
    assert!(stdout.contains("recorded 22 frames"), "{stdout}");
    assert_eq!(check_frames(&dir.path().join("b.gif"), &input, &SortOptions::default(), 2, 41, 3), 22);
    ok(&[&name, "--algorithm", "bubble", "--phases-per-step", "5", "--record", "b5.gif"], dir.path());
    assert_eq!(check_frames(&dir.path().join("b5.gif"), &input, &SortOptions::default(), 5, 41, 3), 10);
}

/// The bitonic network records one frame per stage, each the CPU model's state after that stage
/// through the palette, the last the stable sort.
#[test]
fn bitonic_frames_are_the_model_after_every_stage() {
    let dir = tempfile::tempdir().unwrap();
    let input = RgbaImage::from_fn(41, 7, |x, y| {
        image::Rgba([(255 - x * 6) as u8, (y * 30) as u8, (x * y) as u8, 255])
    });
    let name = save(&input, dir.path(), "grad.png");
    let stdout = ok(&[&name, "--algorithm", "bitonic", "--record", "t.gif"], dir.path());
    // 41 pixels take the network of 64: 6 merges, 21 stages, plus the input.
    assert!(stdout.contains("recorded 22 frames"), "{stdout}");
    let options = SortOptions::default();
    let quantized = quantize(&input, [0, 0, 0], true);
    let indexed = indexed_picture(&input, &quantized.indices);
    let mut model = shadersort::reference::bitonic::BitonicModel::new(&indexed, options, None);
    let frames = decode(&dir.path().join("t.gif"));
    assert_eq!(frames.len(), 22);
    for (k, (frame, _)) in frames.iter().enumerate() {
        if k > 0 {
            model.step();
        }
        assert!(
            *frame == through_palette(model.state(), &quantized.palette.colours),
            "frame {k} (stage {k})"
        );
    }
    assert!(model.state() == &stable_sort(&indexed, &options), "the last frame is not the stable sort");
}

/// The radix view records one frame per digit pass, or per scatter stage with `--sub-steps`,
/// where pixels still waiting are drawn with their palette colour's dimmed twin; every frame is
/// the CPU model's state through the palette.
#[test]
fn radix_records_every_digit_pass_and_scatter_stage_as_the_model_says() {
    use shadersort::keys::options::{Axis, Scope};
    use shadersort::keys::radix_key::RadixKey;
    use shadersort::record::palette::quantize_with_dimmed_twins;
    use shadersort::reference::radix::{RadixPlan, Sequences, radix_steps};
    let dir = tempfile::tempdir().unwrap();
    let input = random_image(37, 6, 44);
    let name = save(&input, dir.path(), "noise.png");
    for (sub_steps, scope) in [(false, Scope::Rows), (true, Scope::Rows), (true, Scope::Image)] {
        let gif = format!("radix-{sub_steps}-{}.gif", scope.name());
        let mut args = vec![name.as_str(), "--algorithm", "radix", "--key", "red", "--digit-bits", "2"];
        args.extend(["--scope", scope.name(), "--record", &gif]);
        if sub_steps {
            args.push("--sub-steps");
        }
        let stdout = ok(&args, dir.path());
        let stages = if sub_steps { 4 } else { 1 };
        // 8-bit red keys in 2-bit digits: 4 passes.
        assert!(stdout.contains(&format!("recorded {} frames", 4 * stages + 1)), "{stdout}");

        let quantized = if sub_steps {
            quantize_with_dimmed_twins(&input, [0, 0, 0], true)
        } else {
            shadersort::record::palette::quantize(&input, [0, 0, 0], true)
        };
        let indexed = indexed_picture(&input, &quantized.indices);
        let options = SortOptions { key: shadersort::keys::SortKey::Red, ..Default::default() };
        let key = RadixKey::new(options, None).unwrap();
        let plan = RadixPlan { key, digit_bits: 2, stages, twin_indices: sub_steps };
        let seqs = Sequences { width: 37, height: 6, axis: Axis::Rows, scope };
        let frames = decode(&dir.path().join(&gif));
        assert_eq!(frames.len() as u32, plan.steps() + 1);
        let mut saw_dimmed = false;
        for (k, (frame, _)) in frames.iter().enumerate() {
            let (state, _) = radix_steps(&indexed, seqs, &plan, k as u32);
            saw_dimmed |= state.pixels().any(|p| p[3] >= 128);
            let want = through_palette(&state, &quantized.palette.colours);
            assert!(*frame == want, "{gif}: frame {k} differs from the model");
        }
        // (Without stages the palette has up to 255 colours, so indices above 127 are not twins.)
        assert!(saw_dimmed || !sub_steps, "{gif}: a staged scatter shows waiting pixels dimmed");
    }
}

/// `--record` within threshold runs along columns: every frame is the odd-even model within
/// the runs at its pass, through the palette, and the last one has every run sorted.
#[test]
fn a_recording_within_runs_is_the_model_at_every_pass() {
    use shadersort::intervals::{IntervalMode, IntervalSettings, RunMap, Threshold};
    use shadersort::keys::options::Axis;
    use shadersort::reference::{odd_even_passes_in_runs, stable_sort_in_runs};
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
    let runs = RunMap::compute(&input, Axis::Columns, &settings, None).unwrap();
    let options = SortOptions { axis: Axis::Columns, ..Default::default() };
    let quantized = quantize(&input, [0, 0, 0], true);
    let indexed = indexed_picture(&input, &quantized.indices);
    let frames = decode(&dir.path().join("t.gif"));
    assert!(stdout.contains(&format!("recorded {} frames", frames.len())), "{stdout}");
    assert!(frames.len() as u32 <= runs.max_run_len() + 1, "passes are the longest run: {}", frames.len());
    for (k, (frame, _)) in frames.iter().enumerate() {
        let model = odd_even_passes_in_runs(&indexed, &options, Some(&runs), k as u32);
        assert!(*frame == through_palette(&model, &quantized.palette.colours), "frame {k}");
    }
    let sorted = through_palette(&stable_sort_in_runs(&indexed, &options, &runs), &quantized.palette.colours);
    assert!(frames.last().unwrap().0 == sorted, "the last frame has every run sorted");
}

/// `--record --sweep FROM..TO`: frame k is the picture sorted to the end within the threshold
/// 0..t, t going evenly from FROM to TO; the same GIF for every algorithm and on both backends.
#[test]
fn a_threshold_sweep_records_one_fully_sorted_frame_per_threshold() {
    use shadersort::intervals::threshold::ThresholdSweep;
    use shadersort::intervals::{IntervalMode, IntervalSettings, RunMap};
    use shadersort::keys::SortKey;
    use shadersort::reference::stable_sort_in_runs;
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
    let frames = decode(&dir.path().join("odd-even.gif"));
    assert_eq!(frames.len(), 6);
    let mut pictures = Vec::new();
    for (k, (frame, delay)) in frames.iter().enumerate() {
        let settings = IntervalSettings {
            mode: IntervalMode::Threshold,
            key: SortKey::Value,
            threshold: sweep.threshold(k as u32),
            ..Default::default()
        };
        let runs = RunMap::compute(&input, options.axis, &settings, None).unwrap();
        let want =
            through_palette(&stable_sort_in_runs(&indexed, &options, &runs), &quantized.palette.colours);
        assert!(
            *frame == want,
            "frame {k} (threshold 0..{}) differs from the model",
            sweep.threshold(k as u32).hi()
        );
        assert_eq!(*delay, if k == 5 { 200 } else { 4 }, "delay of frame {k}");
        pictures.push(frame.clone());
    }
    assert!(pictures[0] != pictures[5], "the sweep must change the picture for this test to mean anything");
}

#[test]
fn a_sweep_goes_to_the_default_path_and_needs_a_recording() {
    let dir = tempfile::tempdir().unwrap();
    let name = save(&random_image(8, 3, 1), dir.path(), "tiny.png");
    let stdout = ok(&[&name, "--sweep", "0..1", "--frames", "2", "--record"], dir.path());
    assert!(stdout.contains("gifs/tiny-odd-even-luma-sweep.gif"), "{stdout}");
    assert_eq!(decode(&dir.path().join("gifs/tiny-odd-even-luma-sweep.gif")).len(), 2);
    let line = fails(&[&name, "--sweep", "0..1", "--out", "x.png"], dir.path(), "--sweep");
    assert!(line.contains("add --record"), "{line}");
    assert!(!dir.path().join("x.png").exists());
}

/// `--record` at an angle within threshold runs: every frame is the odd-even model in line
/// space at its pass, scattered, through the palette; the default path carries the angle. A
/// sweep at an angle: every frame is the whole sort at its threshold along the lines.
#[test]
fn recordings_at_an_angle_are_the_model_scattered_at_every_pass() {
    use shadersort::angle::{Angle, LineSpace};
    use shadersort::intervals::threshold::ThresholdSweep;
    use shadersort::intervals::{IntervalMode, IntervalSettings, Threshold};
    use shadersort::keys::options::Axis;
    use shadersort::reference::{odd_even_passes_in_runs, stable_sort_in_runs};
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
    let runs = space.run_map(&input, &settings(0.2, 0.8), None).unwrap();
    let lines = space.gather(&indexed);
    let frames = decode(&gif);
    assert!(frames.len() > 2, "{} frames", frames.len());
    for (k, (frame, _)) in frames.iter().enumerate() {
        let model = space.scatter(&odd_even_passes_in_runs(&lines, &rows, Some(&runs), k as u32));
        assert!(*frame == through_palette(&model, &quantized.palette.colours), "frame {k}");
    }
    let sorted = space.scatter(&stable_sort_in_runs(&lines, &rows, &runs));
    assert!(frames.last().unwrap().0 == through_palette(&sorted, &quantized.palette.colours));

    ok(&[&name, "--angle", "120", "--sweep", "0..1", "--frames", "3", "--record", "sweep.gif"], dir.path());
    let space = LineSpace::new(21, 13, Angle::new(120.0).unwrap());
    let lines = space.gather(&indexed);
    let sweep = ThresholdSweep::new(0.0, 1.0, 3);
    let frames = decode(&dir.path().join("sweep.gif"));
    assert_eq!(frames.len(), 3);
    for (k, (frame, _)) in frames.iter().enumerate() {
        let t = sweep.threshold(k as u32);
        let runs = space.run_map(&input, &settings(t.lo(), t.hi()), None).unwrap();
        let model = space.scatter(&stable_sort_in_runs(&lines, &rows, &runs));
        assert!(*frame == through_palette(&model, &quantized.palette.colours), "sweep frame {k}");
    }
}
