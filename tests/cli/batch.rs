//! Many inputs in one run: every picture of the folders, files and patterns given is sorted
//! into `--out DIR/` as the CPU model says, under its own name and in the format chosen; bad
//! inputs are skipped and named, the rest done, and the run fails after its summary; outputs
//! that exist are kept unless `--overwrite`; flags that make one file are refused.

use super::{arg, assert_fails, assert_succeeds, hand_made_png, names_in, run, snapshot};
use crate::clips::{frames_of, have_ffmpeg, lossless_clip};
use image::{DynamicImage, RgbaImage};
use shadersort::keys::SortKey;
use shadersort::keys::options::{Axis, SortOptions};
use shadersort::picture::patterns::random_image;
use shadersort::reference::{lines_are_permutations, stable_sort};
use std::path::{Path, PathBuf};

/// Saves a seeded noise picture of `size` as `name` under `dir` (made), in the format its
/// extension says (RGB where `alpha` is false), and returns it as a decoder reads it back: what
/// the program sorts.
fn picture(dir: &Path, name: &str, (w, h): (u32, u32), seed: u64, alpha: bool) -> RgbaImage {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let noise = DynamicImage::ImageRgba8(random_image(w, h, seed));
    if alpha { noise.save(&path) } else { DynamicImage::ImageRgb8(noise.to_rgb8()).save(&path) }.unwrap();
    image::open(&path).unwrap().to_rgba8()
}

/// The pictures under `dir`, by their path below it, decoded.
fn outputs(dir: &Path) -> Vec<(String, RgbaImage)> {
    let mut found: Vec<(String, RgbaImage)> = snapshot(dir)
        .unwrap()
        .into_iter()
        .filter(|(_, bytes)| bytes.is_some())
        .map(|(path, _)| {
            let name = path.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
            (name, image::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())).to_rgba8())
        })
        .collect();
    found.sort_by(|a, b| a.0.cmp(&b.0));
    found
}

/// The inputs of the main test: awkward sizes, every format, folders two deep, with and without
/// alpha; each with the name its output must have.
fn inputs(root: &Path) -> Vec<(&'static str, RgbaImage)> {
    vec![
        ("a-1x1.png", picture(root, "in/a-1x1.png", (1, 1), 1, true)),
        ("b-1x9.png", picture(root, "in/b-1x9.png", (1, 9), 2, false)),
        ("c-9x1.bmp", picture(root, "in/c-9x1.bmp", (9, 1), 3, true)),
        ("d-63x4.png", picture(root, "in/d-63x4.jpg", (63, 4), 4, false)),
        ("sub/e-64x3.webp", picture(root, "in/sub/e-64x3.webp", (64, 3), 5, true)),
        ("sub/deeper/f-65x5.tif", picture(root, "in/sub/deeper/f-65x5.tif", (65, 5), 6, true)),
        ("sub/g-33x17.png", picture(root, "in/sub/g-33x17.png", (33, 17), 7, false)),
    ]
}

#[test]
fn a_batch_sorts_every_picture_as_the_model_says_under_its_own_name() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let given = inputs(root);
    std::fs::write(root.join("in/notes.txt"), "not a picture").unwrap();
    random_image(4, 4, 9).save(root.join("in/.hidden.png")).unwrap();
    for (flags, options) in [
        (vec![], SortOptions::default()),
        (
            vec!["--axis", "columns", "--reverse", "--key", "hue", "--algorithm", "bitonic"],
            SortOptions { key: SortKey::Hue, descending: true, axis: Axis::Columns },
        ),
    ] {
        let out = root.join(format!("out-{}/", flags.len()));
        let folder = root.join("in");
        let mut args = vec![arg(&folder), "--recursive", "--out", arg(&out)];
        args.extend(flags.iter().copied());
        let (stdout, _) = assert_succeeds(&args, &[]);
        assert!(stdout.starts_with("sorted 7 of 7 inputs into"), "{stdout}");
        assert!(stdout.contains("left alone 1 file that is neither a picture nor a clip"), "{stdout}");
        let written = outputs(&out);
        let names: Vec<&str> = written.iter().map(|(n, _)| n.as_str()).collect();
        let mut expected: Vec<&str> = given.iter().map(|(n, _)| *n).collect();
        expected.sort();
        assert_eq!(names, expected, "{flags:?}");
        for (name, input) in &given {
            let (_, output) = written.iter().find(|(n, _)| n == name).unwrap();
            assert!(lines_are_permutations(input, output, options.axis), "{name} {flags:?}");
            assert!(*output == stable_sort(input, &options), "{name} {flags:?}: not the model's picture");
        }
        // Each exact format is kept, the JPEG written as PNG, alpha kept only where it was.
        let format = |name: &str| image::ImageFormat::from_path(out.join(name)).unwrap();
        assert_eq!(format("sub/e-64x3.webp"), image::ImageFormat::WebP);
        assert_eq!(format("sub/deeper/f-65x5.tif"), image::ImageFormat::Tiff);
        let colour = |name: &str| image::open(out.join(name)).unwrap().color();
        assert!(colour("a-1x1.png").has_alpha() && !colour("b-1x9.png").has_alpha());
    }
    // One picture into a folder, and a pattern the shell did not expand.
    let one = root.join("one/");
    let first = root.join("in/a-1x1.png");
    assert_succeeds(&[arg(&first), "--out", arg(&one)], &[]);
    assert_eq!(names_in(&one), ["a-1x1.png"]);
    let pattern = root.join("pattern/");
    let glob = root.join("in/sub/*.png");
    let (stdout, _) = assert_succeeds(&[arg(&glob), "--out", arg(&pattern)], &[]);
    assert!(stdout.starts_with("sorted 1 of 1 input into"), "{stdout}");
    assert_eq!(names_in(&pattern), ["g-33x17.png"]);
    crate::clips::ci::passed();
}

#[test]
fn outputs_that_exist_are_kept_unless_overwrite_replaces_them() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let a = picture(root, "in/a.png", (7, 5), 11, true);
    let b = picture(root, "in/b.png", (5, 7), 12, true);
    let out = root.join("out");
    std::fs::create_dir(&out).unwrap();
    std::fs::write(out.join("a.png"), "kept").unwrap();
    let folder = root.join("in");
    let (stdout, _) = assert_succeeds(&[arg(&folder), "--out", arg(&out)], &[]);
    assert!(
        stdout.contains("sorted 1 of 2 inputs")
            && stdout.contains("kept 1 output that existed (--overwrite replaces it)"),
        "{stdout}"
    );
    assert_eq!(std::fs::read(out.join("a.png")).unwrap(), b"kept");
    assert!(image::open(out.join("b.png")).unwrap().to_rgba8() == stable_sort(&b, &SortOptions::default()));
    assert_succeeds(&[arg(&folder), "--out", arg(&out), "--overwrite"], &[]);
    assert!(image::open(out.join("a.png")).unwrap().to_rgba8() == stable_sort(&a, &SortOptions::default()));
    crate::clips::ci::passed();
}

#[test]
fn bad_inputs_are_skipped_and_named_and_the_others_sorted() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let good = picture(root, "in/good.png", (9, 4), 21, true);
    let also = picture(root, "more/also.bmp", (4, 9), 22, true);
    std::fs::write(root.join("in/broken.png"), b"\x89PNG\r\n\x1a\nnot really").unwrap();
    std::fs::write(root.join("in/empty.png"), hand_made_png(0, 3)).unwrap();
    picture(root, "in/large.png", (40, 2), 23, true);
    let out = root.join("out/");
    let missing = root.join("missing.png");
    let nothing = root.join("more/*.gif");
    let (folder, file) = (root.join("in"), root.join("more/also.bmp"));
    let args = [
        arg(&folder),
        arg(&missing),
        arg(&file),
        arg(&nothing),
        "--max-size",
        "32",
        "--no-downscale",
        "--out",
        arg(&out),
    ];
    let output = run(&args, &[]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let context = format!("stdout: {stdout}\nstderr:\n{stderr}");
    assert_eq!(output.status.code(), Some(1), "{context}");
    for (path, why) in [
        (root.join("in/broken.png"), "corrupt"),
        (root.join("in/empty.png"), "0x3"),
        (root.join("in/large.png"), "--no-downscale"),
        (missing, "no such file"),
        (nothing, "no file matches this pattern"),
    ] {
        let start = format!("skipped '{}': ", path.display());
        let lines: Vec<&str> = stderr.lines().filter(|l| l.starts_with(&start)).collect();
        assert!(lines.len() == 1 && lines[0].contains(why), "{start}{why}?\n{context}");
    }
    assert!(
        stdout.starts_with("sorted 2 of 7 inputs into") && stdout.contains("skipped 5 (named above)"),
        "{context}"
    );
    let last = stderr.lines().last().unwrap();
    assert!(last.starts_with("error: 5 of 7 inputs could not be sorted"), "{context}");
    let written = outputs(&out);
    assert_eq!(
        written.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(),
        ["also.bmp", "good.png"],
        "nothing else, no temporary"
    );
    assert!(written[0].1 == stable_sort(&also, &SortOptions::default()));
    assert!(written[1].1 == stable_sort(&good, &SortOptions::default()));
    crate::clips::ci::passed();
}

#[test]
fn formats_are_chosen_for_the_whole_batch() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let mut clear = random_image(24, 16, 31);
    // Half of it fully transparent blue, to be blended over the background.
    for (x, _, p) in clear.enumerate_pixels_mut() {
        p.0[3] = if x < 12 { 0 } else { 255 };
        if x < 12 {
            p.0 = [0, 0, 255, 0];
        }
    }
    clear.save(root.join("clear.png")).unwrap();
    let rows = SortOptions::default();
    let sorted = stable_sort(&clear, &rows);
    let out = root.join("jpeg/");
    let input = root.join("clear.png");
    let args =
        [arg(&input), "--out", arg(&out), "--format", "jpeg", "--quality", "100", "--background", "ff0000"];
    assert_succeeds(&args, &[]);
    let jpeg = image::open(out.join("clear.jpg")).unwrap().to_rgb8();
    let over_red = |p: &image::Rgba<u8>| {
        let [r, g, b, a] = p.0.map(u32::from);
        [r * a + 255 * (255 - a), g * a, b * a].map(|c| (c + 127) / 255)
    };
    let error: u32 = jpeg
        .pixels()
        .zip(sorted.pixels())
        .map(|(j, s)| {
            j.0.iter()
                .zip(over_red(s))
                .map(|(&a, b)| (i64::from(a) - i64::from(b)).unsigned_abs() as u32)
                .sum::<u32>()
        })
        .max()
        .unwrap();
    assert!(error < 40, "JPEG at quality 100 far from the sorted picture over red: {error}");
    let webp = root.join("webp/");
    assert_succeeds(&[arg(&input), "--out", arg(&webp), "--format", "webp"], &[]);
    assert!(image::open(webp.join("clear.webp")).unwrap().to_rgba8() == sorted, "lossless WebP is exact");
    crate::clips::ci::passed();
}

#[test]
fn flags_that_make_one_file_are_refused_with_many_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    picture(root, "in/a.png", (3, 3), 41, true);
    picture(root, "in/a.jpg", (3, 3), 42, false);
    picture(root, "in/b.png", (3, 3), 43, true);
    let (a, b, folder) = (root.join("in/a.png"), root.join("in/b.png"), root.join("in"));
    let out = root.join("out/");
    let cases: Vec<(Vec<&str>, Vec<&str>)> = vec![
        (vec![arg(&a), arg(&b)], vec!["2 inputs are sorted one by one into a folder", "add --out DIR/"]),
        (vec![arg(&a), arg(&b), "--out", "x.png"], vec!["--out 'x.png' is one file", "--out sorted/"]),
        (
            vec![arg(&a), arg(&b), "--out", arg(&out), "--record", "r.gif"],
            vec!["--record does not go with many inputs"],
        ),
        (vec![arg(&a), "--format", "webp", "--out", "x.png"], vec!["--format applies to many inputs"]),
        (
            vec![arg(&a), arg(&b), "--out", arg(&out), "--quality", "50"],
            vec!["--quality sets the quality of pictures written as JPEG"],
        ),
        (vec![arg(&folder), "--out", arg(&out)], vec!["would both be written to", "a.png'"]),
    ];
    for (args, expected) in cases {
        assert_fails(&args, &[], root, &expected);
    }
    crate::clips::ci::passed();
}

#[test]
fn clips_in_a_batch_are_sorted_beside_the_pictures() {
    if !have_ffmpeg() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let size = (21, 13);
    let still = picture(root, "in/still.png", (13, 21), 51, true);
    let clip: PathBuf = lossless_clip(&root.join("in"), "clip.mkv", size, 5, false);
    let out = root.join("out/");
    let folder = root.join("in");
    let (stdout, _) = assert_succeeds(&[arg(&folder), "--lossless", "--out", arg(&out)], &[]);
    assert!(stdout.contains("sorted 2 of 2 inputs") && stdout.contains("(1 picture, 1 clip)"), "{stdout}");
    let rows = SortOptions::default();
    let expected: Vec<RgbaImage> = frames_of(&clip, size).iter().map(|f| stable_sort(f, &rows)).collect();
    assert!(frames_of(&out.join("clip.mkv"), size) == expected, "the clip's frames are the model's");
    assert!(image::open(out.join("still.png")).unwrap().to_rgba8() == stable_sort(&still, &rows));
    crate::clips::ci::passed();
}

#[test]
fn pictures_over_the_size_limit_are_downscaled_with_one_note_for_the_batch() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for (k, size) in [(20, 6), (6, 20), (8, 8)].into_iter().enumerate() {
        picture(root, &format!("in/p{k}.png"), size, 61 + k as u64, true);
    }
    let (folder, out) = (root.join("in"), root.join("out/"));
    let (stdout, stderr) = assert_succeeds(&[arg(&folder), "--max-size", "10", "--out", arg(&out)], &[]);
    let notes: Vec<&str> = stderr.lines().filter(|l| l.contains("downscaled to")).collect();
    assert_eq!(notes.len(), 1, "one note for the batch:\n{stderr}");
    assert!(stdout.contains("; 2 downscaled to fit, as the first was"), "{stdout}");
    let sizes: Vec<(u32, u32)> = outputs(&out).iter().map(|(_, p)| p.dimensions()).collect();
    assert_eq!(sizes, [(10, 3), (3, 10), (8, 8)]);
    crate::clips::ci::passed();
}

#[test]
fn a_centre_in_percent_is_the_same_place_on_every_picture() {
    use shadersort::paths::{Centre, Path as Route, PathKind};
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let sizes = [(37, 23), (16, 30)];
    let inputs: Vec<RgbaImage> = sizes
        .iter()
        .enumerate()
        .map(|(k, &size)| picture(root, &format!("in/p{k}.png"), size, 71 + k as u64, true))
        .collect();
    let (folder, out) = (root.join("in"), root.join("out/"));
    assert_succeeds(&[arg(&folder), "--path", "rings", "--center", "25%,75%", "--out", arg(&out)], &[]);
    for (k, (input, (w, h))) in inputs.iter().zip(sizes).enumerate() {
        let centre = Centre::at(f64::from(w) * 0.25, f64::from(h) * 0.75).unwrap();
        let rings = Route { kind: PathKind::Rings, centre, rays: None };
        let model = shadersort::reference::paths::sorted_along(input, &rings, &SortOptions::default());
        let sorted = image::open(out.join(format!("p{k}.png"))).unwrap().to_rgba8();
        assert!(sorted == model, "p{k}: rings around a quarter across, three quarters down");
    }
    crate::clips::ci::passed();
}

#[test]
fn a_threshold_and_a_mask_apply_to_every_picture_the_mask_stretched_to_each() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let mask_path = root.join("mask.png");
    super::save_block_mask(&mask_path, 45, 31);
    let sizes = [(45, 31), (31, 45), (20, 7)];
    let inputs: Vec<RgbaImage> = sizes
        .iter()
        .enumerate()
        .map(|(k, &size)| picture(root, &format!("in/p{k}.png"), size, 81 + k as u64, true))
        .collect();
    let (folder, out) = (root.join("in"), root.join("out/"));
    let args = [arg(&folder), "--threshold", "0.2..0.7", "--mask", arg(&mask_path), "--out", arg(&out)];
    assert_succeeds(&args, &[]);
    let rows = SortOptions::default();
    for (k, input) in inputs.iter().enumerate() {
        let model = threshold_and_mask_model(input, (0.2, 0.7), (45, 31));
        assert!(model != stable_sort(input, &rows), "p{k}: the intervals must change the picture");
        let sorted = image::open(out.join(format!("p{k}.png"))).unwrap().to_rgba8();
        assert!(sorted == model, "p{k}: not each interval of the stretched mask and threshold sorted");
    }
    crate::clips::ci::passed();
}

/// `--threshold LO..HI --mask` along rows by luma, from their definitions (docs/sorting.md,
/// docs/batch.md): a pixel may move where the mask, stretched to the picture by taking the mask's
/// pixel under each pixel's centre, is white (tests/cli/main.rs `save_block_mask`: black where
/// `(x / 5 + y / 4) % 3 == 0`), and its luma lies within LO..HI of luma's range (inclusive, 1 is
/// 255000); each run of such pixels along a row is sorted stably by luma, the others stay.
fn threshold_and_mask_model(input: &RgbaImage, (lo, hi): (f64, f64), (mw, mh): (u32, u32)) -> RgbaImage {
    let (w, h) = input.dimensions();
    let luma = |p: &image::Rgba<u8>| SortKey::Luma.of(p.0);
    let (lo, hi) = ((lo * 255000.0).ceil() as u32, (hi * 255000.0).floor() as u32);
    let under = |new: u32, size: u32, old: u32| ((2 * new + 1) * old) / (2 * size);
    let white = |x: u32, y: u32| {
        let (mx, my) = (under(x, w, mw), under(y, h, mh));
        (mx / 5 + my / 4) % 3 != 0
    };
    let mut sorted = input.clone();
    for y in 0..h {
        let moves: Vec<bool> =
            (0..w).map(|x| white(x, y) && (lo..=hi).contains(&luma(input.get_pixel(x, y)))).collect();
        let mut x = 0;
        while x < w {
            if !moves[x as usize] {
                x += 1;
                continue;
            }
            let start = x;
            while x < w && moves[x as usize] {
                x += 1;
            }
            let mut run: Vec<image::Rgba<u8>> = (start..x).map(|x| *input.get_pixel(x, y)).collect();
            run.sort_by_key(luma);
            for (k, pixel) in run.into_iter().enumerate() {
                sorted.put_pixel(start + k as u32, y, pixel);
            }
        }
    }
    sorted
}
