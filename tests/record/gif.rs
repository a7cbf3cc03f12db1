//! GIF recordings: the written GIF, decoded by the `image` crate, holds one frame per kept
//! pass, each equal to the CPU model at that pass mapped through the palette (and scaled up as
//! asked), with the delays asked for.

use super::gif_frames::{gif_frames, through_palette};
use super::{fails, ok, ok_on, save};
use image::RgbaImage;
use shadersort::keys::options::SortOptions;
use shadersort::picture::patterns::random_image;
use shadersort::record::palette::{composite, indexed_picture, quantize};
use shadersort::reference::{is_sorted, odd_even_passes, stable_sort};
use std::path::Path;
use std::process::Command;

/// `picture` with each pixel enlarged to a `scale` x `scale` block, as `--scale` draws it.
fn scaled_up(picture: &RgbaImage, scale: u32) -> RgbaImage {
    let (w, h) = picture.dimensions();
    RgbaImage::from_fn(w * scale, h * scale, |x, y| *picture.get_pixel(x / scale, y / scale))
}

/// How an odd-even recording was asked for: what [`check_recording`] expects of its GIF.
#[derive(Clone, Copy)]
struct Asked {
    /// Passes between frames (`--every`).
    every: u32,
    /// The passes the sort may take (the picture's longest line).
    passes: u32,
    /// Every frame's delay but the last's, in hundredths of a second.
    delay_cs: u32,
    /// Whether the palette was dithered (`--no-dither` not given).
    dither: bool,
    /// `--scale`.
    scale: u32,
    /// `--background`, under transparent pixels.
    background: [u8; 3],
}

impl Asked {
    /// Frames `every` passes apart, none after `passes`, `delay_cs` apart: dithered, at scale 1,
    /// over black (the defaults).
    fn new(every: u32, passes: u32, delay_cs: u32) -> Asked {
        Asked { every, passes, delay_cs, dither: true, scale: 1, background: [0; 3] }
    }
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
    check_recording(gif, input, options, Asked::new(every, passes, fps_cs))
}

/// [`check_frames`] for any [`Asked`]: the palette is the one `quantize` makes of the picture
/// over the background, and each expected frame is scaled up as the GIF's is.
fn check_recording(gif: &Path, input: &RgbaImage, options: &SortOptions, asked: Asked) -> usize {
    let Asked { every, passes, delay_cs, dither, scale, background } = asked;
    let quantized = quantize(input, background, dither);
    let indexed = indexed_picture(input, &quantized.indices);
    let colours = &quantized.palette.colours;
    let frames = gif_frames(gif);
    assert!(frames.len() as u32 <= passes.div_ceil(every) + 1, "{} frames", frames.len());
    for (k, (frame, delay)) in frames.iter().enumerate() {
        let pass = (k as u32 * every).min(passes);
        let want = scaled_up(&through_palette(&odd_even_passes(&indexed, options, pass), colours), scale);
        assert!(*frame == want, "frame {k} (pass {pass}) differs from the model");
        let last = k + 1 == frames.len();
        assert_eq!(*delay, if last { 200 } else { delay_cs }, "delay of frame {k}");
    }
    let sorted = scaled_up(&through_palette(&stable_sort(&indexed, options), colours), scale);
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
    crate::ci::passed();
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
    let frames = gif_frames(&dir.path().join("few.gif"));
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
    let plain = Asked { dither: false, ..Asked::new(4, 40, 2) };
    check_recording(&dir.path().join("plain.gif"), &many, &SortOptions::default(), plain);
    let (dithered, plain) = (quantize(&many, [0; 3], true), quantize(&many, [0; 3], false));
    assert_ne!(dithered.indices, plain.indices, "--no-dither must change the indices");
    crate::ci::passed();
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
    assert_eq!(
        std::fs::read(dir.path().join("c.gif")).unwrap(),
        std::fs::read(dir.path().join("f.gif")).unwrap()
    );
    // The model's columns are sorted only by the last of the 23 passes, so no frame may be
    // missing: the input and one frame per pass.
    let sorted = stable_sort(&input, &options);
    assert!(odd_even_passes(&input, &options, 22) != sorted, "this picture must take every pass");
    assert_eq!(check_frames(&dir.path().join("c.gif"), &input, &options, 1, 23, 4), 24);
    crate::ci::passed();
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
    crate::ci::passed();
}

/// `--scale 3 --background 0000ff`: every frame (each written as the region that changed,
/// scaled) is the model at its pass, each pixel a 3x3 block, the transparent pixel blended over
/// blue wherever the sort moves it.
#[test]
fn scale_enlarges_pixels_and_transparency_is_blended_over_the_background() {
    let dir = tempfile::tempdir().unwrap();
    // Rows in reverse luma order, so each of the 5 passes moves pixels, the transparent one too.
    let input = RgbaImage::from_fn(5, 2, |x, y| {
        image::Rgba([200, 40 * (4 - x) as u8, 30 * y as u8, if (x, y) == (0, 0) { 0 } else { 255 }])
    });
    let name = save(&input, dir.path(), "alpha.png");
    ok(&[&name, "--record", "s.gif", "--scale", "3", "--background", "0000ff"], dir.path());
    let asked = Asked { scale: 3, background: [0, 0, 255], ..Asked::new(1, 5, 3) };
    let count = check_recording(&dir.path().join("s.gif"), &input, &SortOptions::default(), asked);
    assert_eq!(count, 6, "the input and one frame per pass");
    let frames = gif_frames(&dir.path().join("s.gif"));
    let first = &frames[0].0;
    assert_eq!(first.dimensions(), (15, 6));
    for (x, y, p) in first.enumerate_pixels() {
        let src = input.get_pixel(x / 3, y / 3).0;
        let [r, g, b] = composite(src, [0, 0, 255]);
        assert_eq!(p.0, [r, g, b, 255], "pixel ({x}, {y})");
    }
    crate::ci::passed();
}

#[test]
fn a_sorted_picture_stops_at_once_and_the_default_path_is_under_gifs() {
    let dir = tempfile::tempdir().unwrap();
    let sorted = RgbaImage::from_fn(50, 3, |x, _| image::Rgba([x as u8 * 5, 0, 0, 255]));
    let name = save(&sorted, dir.path(), "done.png");
    let stdout = ok(&[&name, "--record"], dir.path());
    let path = dir.path().join("gifs/done-odd-even-luma.gif");
    assert!(stdout.contains("gifs/done-odd-even-luma.gif"), "{stdout}");
    let frames = gif_frames(&path);
    assert!(frames.len() <= 2, "{} frames for a picture that was already sorted", frames.len());
    assert!(frames.iter().all(|(f, _)| *f == sorted));
    crate::ci::passed();
}

#[test]
fn bad_recordings_are_refused_and_leave_existing_files_alone() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("keep.gif"), b"an older recording").unwrap();
    let wide = random_image(1001, 1, 3);
    let name = save(&wide, dir.path(), "wide.png");
    let line = fails(&[&name, "--record", "keep.gif"], dir.path(), "1002 frames");
    assert!(line.contains("--max-frames") && line.contains("--every"), "{line}");
    fails(&["--record", "x.jpg"], dir.path(), "the format follows the path");
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
    assert!(gif_frames(&dir.path().join("keep.gif")).len() <= 20);
    crate::ci::passed();
}

#[cfg(unix)]
#[test]
fn ctrl_c_leaves_the_old_file_and_no_temporary() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("old.gif"), b"previous").unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_shadersort"))
        .args(["--record", "old.gif", "--scale", "3"])
        .current_dir(dir.path())
        .env("SHADERSORT_CACHE_DIR", "")
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
    crate::ci::passed();
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
    crate::ci::passed();
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
    let frames = gif_frames(&dir.path().join("t.gif"));
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
    crate::ci::passed();
}

/// The radix view records one frame per digit pass, or per scatter stage with `--sub-steps`,
/// where pixels still waiting are drawn with their palette colour's dimmed twin; every frame is
/// the CPU model's state through the palette.
#[test]
fn radix_records_every_digit_pass_and_scatter_stage_as_the_model_says() {
    use shadersort::algorithms::radix::plan::{RadixPlan, Sequences};
    use shadersort::keys::options::{Axis, Scope};
    use shadersort::keys::radix_key::RadixKey;
    use shadersort::record::palette::quantize_with_dimmed_twins;
    use shadersort::reference::radix::radix_steps;
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
        let frames = gif_frames(&dir.path().join(&gif));
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
    crate::ci::passed();
}
