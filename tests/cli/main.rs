//! End-to-end tests of the `shadersort` binary: one-line errors that leave no files behind, and pictures sorted on the GPU exactly as the CPU model says.

use image::{ColorType, DynamicImage, RgbaImage};
use shadersort::algorithms::work::Work;
use shadersort::controls::work_text::describe;
use shadersort::keys::SortKey;
use shadersort::keys::options::{Axis, SortOptions};
use shadersort::picture::patterns::random_image;
use shadersort::reference::{is_sorted, lines_are_permutations, odd_even_pass, odd_even_passes, stable_sort};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The built-in picture.
const COFFEE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src/picture/assets/coffee.png");

/// Runs the binary with `args` and extra environment variables, in an empty temporary folder
/// that it must leave empty: a run that writes where it was not told to fails, and never into
/// the checkout.
fn run(args: &[&str], envs: &[(&str, &str)]) -> Output {
    let cwd = tempfile::tempdir().expect("a temporary folder");
    let output = Command::new(env!("CARGO_BIN_EXE_shadersort"))
        .args(args)
        // The outer RUST_LOG is not inherited; a test may set its own.
        .env_remove("RUST_LOG")
        // No pipeline cache on disk unless a test sets its own folder: tests never touch the
        // user's (still_start.rs tests the cache).
        .env("SHADERSORT_CACHE_DIR", "")
        .envs(envs.iter().copied())
        .current_dir(cwd.path())
        .stdin(Stdio::null())
        .output()
        .expect("the shadersort binary starts");
    let left: Vec<_> = std::fs::read_dir(cwd.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(left.is_empty(), "shadersort {args:?} wrote {left:?} into its working folder");
    output
}

/// A path as a command-line argument (temporary directories have UTF-8 names).
fn arg(path: &Path) -> &str {
    path.to_str().expect("UTF-8 path")
}

/// Every file under `dir` with its bytes (`None` for directories); `None` if `dir` does not exist.
fn snapshot(dir: &Path) -> Option<BTreeMap<PathBuf, Option<Vec<u8>>>> {
    fn walk(dir: &Path, into: &mut BTreeMap<PathBuf, Option<Vec<u8>>>) {
        for entry in std::fs::read_dir(dir).expect("readable directory") {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                into.insert(path.clone(), None);
                walk(&path, into);
            } else {
                let bytes = std::fs::read(&path).expect("readable file");
                into.insert(path, Some(bytes));
            }
        }
    }
    dir.is_dir().then(|| {
        let mut files = BTreeMap::new();
        walk(dir, &mut files);
        files
    })
}

/// Runs the binary expecting it to fail; returns its error line.
///
/// The run must exit with code 1 (not a panic), print nothing on stdout, and print exactly one
/// stderr line containing `expected[0]`; that line starts with `error: ` and holds every other
/// fragment of `expected` too, so the whole message is one line (other stderr lines, such as
/// driver noise, are ignored). Nothing under `watched` (the output directory) may be created,
/// removed or changed: no output file, no temporary file, and any old output left intact.
fn assert_fails(args: &[&str], envs: &[(&str, &str)], watched: &Path, expected: &[&str]) -> String {
    let before = snapshot(watched);
    let output = run(args, envs);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let context = format!("shadersort {args:?} {envs:?}\nstderr:\n{stderr}");
    assert_eq!(output.status.code(), Some(1), "{context}");
    assert!(output.stdout.is_empty(), "{context}\nstdout: {}", String::from_utf8_lossy(&output.stdout));
    let matching: Vec<&str> = stderr.lines().filter(|line| line.contains(expected[0])).collect();
    assert_eq!(matching.len(), 1, "expected one line containing {:?}\n{context}", expected[0]);
    let line = matching[0];
    assert!(line.starts_with("error: "), "{context}");
    for fragment in expected {
        assert!(line.contains(fragment), "the error line lacks {fragment:?}\n{context}");
    }
    assert!(snapshot(watched) == before, "a failed run changed {}\n{context}", watched.display());
    line.to_owned()
}

/// Runs the binary expecting success; returns its stdout and stderr.
fn assert_succeeds(args: &[&str], envs: &[(&str, &str)]) -> (String, String) {
    let output = run(args, envs);
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(
        output.status.success(),
        "shadersort {args:?} {envs:?} failed\nstdout: {stdout}\nstderr:\n{stderr}"
    );
    (stdout, stderr)
}

/// Decodes a picture, returning its colour type and its pixels as RGBA8.
fn open(path: &Path) -> (ColorType, RgbaImage) {
    let picture = image::open(path).unwrap_or_else(|e| panic!("cannot open {}: {e}", path.display()));
    (picture.color(), picture.to_rgba8())
}

/// The built-in picture as RGBA8.
fn coffee() -> RgbaImage {
    open(Path::new(COFFEE)).1
}

/// The names of the entries of `dir`.
fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("readable directory")
        .map(|e| e.expect("directory entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// CRC-32 (ISO-HDLC, as PNG chunks use), bit by bit.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in bytes {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

/// Appends one PNG chunk (length, type, data, CRC) to `png`.
fn push_chunk(png: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    png.extend_from_slice(&u32::try_from(data.len()).expect("small chunk").to_be_bytes());
    let start = png.len();
    png.extend_from_slice(kind);
    png.extend_from_slice(data);
    let crc = crc32(&png[start..]);
    png.extend_from_slice(&crc.to_be_bytes());
}

/// A well-formed PNG file of `width` x `height` RGBA8 pixels, all zero, that no encoder would
/// write when a side is zero: signature, IHDR, one IDAT of stored (uncompressed) zlib data, IEND.
fn hand_made_png(width: u32, height: u32) -> Vec<u8> {
    assert_eq!(crc32(b"IEND"), 0xAE42_6082, "the CRC of an IEND chunk is well known");
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&width.to_be_bytes());
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[8, 6, 0, 0, 0]); // bit depth 8, RGBA, deflate, filter 0, no interlace
    push_chunk(&mut png, b"IHDR", &ihdr);
    // Each row: filter byte 0, then 4 zero bytes per pixel.
    let raw = vec![0u8; height as usize * (1 + 4 * width as usize)];
    let len = u16::try_from(raw.len()).expect("small picture");
    let mut zlib = vec![0x78, 0x01, 0x01]; // zlib header; one final stored block
    zlib.extend_from_slice(&len.to_le_bytes());
    zlib.extend_from_slice(&(!len).to_le_bytes());
    zlib.extend_from_slice(&raw);
    let (a, b) = raw.iter().fold((1u32, 0u32), |(a, b), &x| {
        let a = (a + u32::from(x)) % 65521;
        (a, (b + a) % 65521)
    });
    zlib.extend_from_slice(&((b << 16) | a).to_be_bytes()); // Adler-32
    push_chunk(&mut png, b"IDAT", &zlib);
    push_chunk(&mut png, b"IEND", &[]);
    png
}

#[test]
fn the_hand_made_png_is_valid_when_it_has_pixels() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("three_by_two.png");
    std::fs::write(&path, hand_made_png(3, 2)).unwrap();
    let (color, pixels) = open(&path);
    assert_eq!((color, pixels.dimensions()), (ColorType::Rgba8, (3, 2)));
    crate::clips::ci::passed();
}

#[test]
fn bad_inputs_are_refused_in_one_line_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path();
    let out = tmp.join("x.png");
    std::fs::write(&out, b"an earlier output").unwrap();
    let inputs = tmp.join("in");
    std::fs::create_dir(&inputs).unwrap();
    let fails = |image: &Path, expected: &str| {
        let quoted = format!("'{}'", image.display());
        assert_fails(&[arg(image), "--out", arg(&out)], &[], tmp, &[expected, &quoted])
    };

    fails(&inputs.join("missing.png"), "no such file");
    // A folder is a clip of frames; this one has none.
    fails(&inputs, "no frames there");

    let noise: Vec<u8> = (0..4096u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    std::fs::write(inputs.join("x.png"), noise).unwrap();
    let line = fails(&inputs.join("x.png"), "truncated or corrupt");
    assert!(line.contains("its content is not PNG data"), "{line}");

    let coffee_bytes = std::fs::read(COFFEE).unwrap();
    std::fs::write(inputs.join("cut.png"), &coffee_bytes[..10_000]).unwrap();
    fails(&inputs.join("cut.png"), "truncated or corrupt");

    std::fs::write(inputs.join("notes.txt"), "shopping list: coffee, milk\n").unwrap();
    let line = fails(&inputs.join("notes.txt"), "not a picture format");
    assert!(line.contains("PNG, JPEG"), "the message should say which formats work: {line}");

    std::fs::write(inputs.join("zero.png"), hand_made_png(0, 5)).unwrap();
    let line = fails(&inputs.join("zero.png"), "nothing to sort");
    assert!(line.contains("0x5 pixels"), "{line}");
    crate::clips::ci::passed();
}

#[test]
fn a_picture_declaring_huge_dimensions_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.png");
    std::fs::write(&out, b"an earlier output").unwrap();
    // A small PNG whose header declares 100000 x 100000 RGBA pixels (40 GB decoded).
    let mut png = hand_made_png(4, 4);
    png[16..24].copy_from_slice(&[100_000u32.to_be_bytes(), 100_000u32.to_be_bytes()].concat());
    let crc = crc32(&png[12..29]);
    png[29..33].copy_from_slice(&crc.to_be_bytes());
    let huge = dir.path().join("huge.png");
    std::fs::write(&huge, &png).unwrap();
    let started = std::time::Instant::now();
    let quoted = format!("'{}'", huge.display());
    let line = assert_fails(
        &[arg(&huge), "--out", arg(&out)],
        &[],
        dir.path(),
        &["declares 100000x100000 pixels", &quoted, "more than shadersort decodes in memory", "shrink it"],
    );
    assert!(!line.contains("convert it to"), "its format is fine, its size is not: {line}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "refused only after {:?}",
        started.elapsed()
    );
    crate::clips::ci::passed();
}

#[test]
fn a_folder_that_takes_no_files_is_named_with_the_reason() {
    // /proc/self is a folder nobody can create files in, root included (CI runs as root, for
    // whom permission bits are no obstacle).
    let dir = tempfile::tempdir().unwrap();
    let unwritable = Path::new("/proc/self");
    for out in [unwritable.join("x.png"), unwritable.join("frames/")] {
        let args = match out.to_str().unwrap().ends_with('/') {
            // A folder of PNG frames is a recording's output.
            true => vec![COFFEE, "--max-size", "16", "--record", arg(&out)],
            false => vec![COFFEE, "--out", arg(&out)],
        };
        let line = assert_fails(
            &args,
            &[],
            dir.path(),
            &["cannot write", "the folder '/proc/self' takes no new files"],
        );
        assert!(line.contains("choose a folder you can write to"), "{line}");
        assert!(!line.contains(".part"), "the temporary's name is not the user's business: {line}");
    }
    crate::clips::ci::passed();
}

#[test]
fn a_picture_over_the_size_limit_is_refused_with_no_downscale() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.png");
    std::fs::write(&out, b"an earlier output").unwrap();
    // This fails after the output's temporary file was created and the GPU opened.
    let line = assert_fails(
        &["--max-size", "100", "--no-downscale", "--out", arg(&out)],
        &[],
        dir.path(),
        &["more than 100 on a side", "the built-in picture coffee.png is 600x400", "--no-downscale"],
    );
    assert!(line.contains("coffee"), "the message should name the picture: {line}");
    crate::clips::ci::passed();
}

#[test]
fn bad_outputs_are_refused_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path();
    let missing_dir = Path::new("/nonexistent_dir_xyz");
    assert!(!missing_dir.exists(), "{} must not exist for this test", missing_dir.display());
    let out = missing_dir.join("x.png");
    assert_fails(&["--out", arg(&out)], &[], missing_dir, &["does not exist", "'/nonexistent_dir_xyz'"]);

    let subdir = tmp.join("pictures");
    std::fs::create_dir(&subdir).unwrap();
    let quoted = format!("'{}'", subdir.display());
    assert_fails(&["--out", arg(&subdir)], &[], tmp, &["is a directory", &quoted]);

    let jpeg = tmp.join("x.jpg");
    let quoted = format!("'{}'", jpeg.display());
    assert_fails(&["--out", arg(&jpeg)], &[], tmp, &["must be a .png file", &quoted, ".png"]);

    // An input error is reported before the output is looked at.
    std::fs::write(&jpeg, b"an earlier output").unwrap();
    let missing = tmp.join("missing.png");
    assert_fails(&[arg(&missing), "--out", arg(&jpeg)], &[], tmp, &["no such file"]);
    crate::clips::ci::passed();
}

#[test]
fn no_gpu_adapter_says_how_to_get_one() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.png");
    std::fs::write(&out, b"an earlier output").unwrap();
    assert_fails(
        &["--out", arg(&out)],
        &[("WGPU_BACKEND", "metal")],
        dir.path(),
        &["no GPU adapter found", "mesa-vulkan-drivers", "metal", "WGPU_BACKEND"],
    );
    crate::clips::ci::passed();
}

/// Runs the program in `dir` with no display to open a window on (and no log level).
fn run_without_display(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shadersort"))
        .args(args)
        .current_dir(dir)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("WAYLAND_SOCKET")
        .env_remove("RUST_LOG")
        .output()
        .unwrap()
}

#[test]
fn without_a_display_the_window_fails_with_a_clear_message() {
    let dir = tempfile::tempdir().unwrap();
    let image = dir.path().join("small.png");
    random_image(5, 3, 1).save(&image).unwrap();
    for args in [vec![], vec![arg(&image)]] {
        let output = run_without_display(&args, dir.path());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{stderr}");
        let line = stderr.lines().find(|l| l.starts_with("error: ")).unwrap_or_else(|| panic!("{stderr}"));
        assert!(
            line.contains("cannot open a window (no display") && line.contains("--out or --record"),
            "{line}"
        );
    }
    crate::clips::ci::passed();
}

/// The window takes the interval flags: without a display it gets as far as opening the window
/// (and says it cannot), where it used to refuse them. A mask is read and checked first, so a
/// bad one fails in one line before any window; `--sweep` stays with `--record`.
#[test]
fn the_window_takes_interval_flags_and_checks_the_mask_before_opening() {
    let dir = tempfile::tempdir().unwrap();
    let image = dir.path().join("small.png");
    random_image(45, 31, 1).save(&image).unwrap();
    let (mask, small_mask) = (dir.path().join("mask.png"), dir.path().join("small_mask.png"));
    save_block_mask(&mask, 45, 31);
    save_block_mask(&small_mask, 4, 3);
    let window_error = |args: &[&str]| {
        let args: Vec<&str> = [arg(&image)].into_iter().chain(args.iter().copied()).collect();
        let output = run_without_display(&args, dir.path());
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
        let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error: ")).collect();
        assert_eq!(errors.len(), 1, "{args:?}: {stderr}");
        errors[0].to_owned()
    };
    for args in [
        &["--threshold", "0.2..0.6", "--play"][..],
        &["--intervals", "edges", "--edge-level", "0.3", "--interval-key", "hue"],
        &["--seed", "4", "--interval-length", "3..9"],
        &["--mask", arg(&mask), "--threshold", "0.1..0.9"],
        &["--threshold", "0..1", "--algorithm", "radix", "--scope", "image"],
    ] {
        let line = window_error(args);
        assert!(line.contains("cannot open a window (no display"), "{args:?}: {line}");
    }
    let line = window_error(&["--mask", arg(&small_mask)]);
    assert!(line.contains("is 4x3 pixels") && line.contains("is 45x31"), "{line}");
    let line = window_error(&["--mask", "missing_mask.png"]);
    assert!(line.contains("missing_mask.png") && !line.contains("cannot open a window"), "{line}");
    let line = window_error(&["--sweep", "0..1"]);
    assert!(line.contains("--sweep") && line.contains("add --record"), "{line}");
    crate::clips::ci::passed();
}

/// The done-when check: the built-in picture sorted by luma on both software GPUs, with both
/// kinds of pass, is the stable sort of every row, and the four files are identical.
#[test]
fn coffee_is_sorted_identically_on_vulkan_and_gl_by_compute_and_fragment_passes() {
    let dir = tempfile::tempdir().unwrap();
    let runs: Vec<(&str, &str, PathBuf)> =
        [("vulkan", "compute"), ("vulkan", "fragment"), ("gl", "compute"), ("gl", "fragment")]
            .into_iter()
            .map(|(backend, pass)| (backend, pass, dir.path().join(format!("a_{backend}_{pass}.png"))))
            .collect();
    std::thread::scope(|s| {
        for (backend, pass, out) in &runs {
            s.spawn(move || {
                let (stdout, _) = assert_succeeds(
                    &[COFFEE, "--pass", pass, "--out", arg(out)],
                    &[("WGPU_BACKEND", backend)],
                );
                assert!(stdout.contains(&format!("wrote {}", out.display())), "{stdout}");
            });
        }
    });
    let mut expected_names: Vec<String> =
        runs.iter().map(|(_, _, out)| out.file_name().unwrap().to_string_lossy().into_owned()).collect();
    expected_names.sort();
    assert_eq!(names_in(dir.path()), expected_names, "exactly the outputs, no temporary files");

    let input = coffee();
    let opts = SortOptions::default();
    let (color, sorted) = open(&runs[0].2);
    assert_eq!(color, ColorType::Rgb8, "an RGB input gives an RGB output");
    assert_eq!(sorted.dimensions(), (600, 400));
    assert!(is_sorted(&sorted, &opts), "some row is not in luma order");
    assert!(lines_are_permutations(&input, &sorted, Axis::Rows), "some row lost or gained pixels");
    assert!(sorted == stable_sort(&input, &opts), "the output is not the stable sort of the input");

    let first = std::fs::read(&runs[0].2).unwrap();
    for (backend, pass, out) in &runs[1..] {
        assert!(std::fs::read(out).unwrap() == first, "{backend} {pass} differs from vulkan compute");
    }
    crate::clips::ci::passed();
}

#[test]
fn max_size_downscales_with_a_note() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("small.png");
    let (_, stderr) = assert_succeeds(&["--max-size", "100", "--out", arg(&out)], &[]);
    assert!(
        stderr.lines().any(|l| l.starts_with("note: ") && l.contains("downscaled to 100x67")),
        "{stderr}"
    );
    let (_, sorted) = open(&out);
    assert_eq!(sorted.dimensions(), (100, 67));
    assert!(is_sorted(&sorted, &SortOptions::default()));
    assert_eq!(names_in(dir.path()), ["small.png"]);
    crate::clips::ci::passed();
}

/// `--steps` (and its old name `--passes`) stops odd-even after that many passes.
#[test]
fn steps_stops_after_that_many_passes() {
    let dir = tempfile::tempdir().unwrap();
    let input = coffee();
    let opts = SortOptions::default();
    for (passes, flag) in [(3, "--steps"), (0, "--passes")] {
        let out = dir.path().join(format!("passes_{passes}.png"));
        let (stdout, _) = assert_succeeds(&[COFFEE, flag, &passes.to_string(), "--out", arg(&out)], &[]);
        assert!(stdout.contains(&format!("ran {passes} of {passes} passes")), "{stdout}");
        // The GPU's work, from the passes' definition: every pixel loaded and stored, both
        // pixels of each pair loading each other and comparing, a barrier a 16x16 workgroup.
        let (w, h) = input.dimensions();
        let mut model = input.clone();
        let mut work = Work::default();
        for pass in 0..passes {
            let pairs = u64::from(h) * (1..w).filter(|x| x % 2 == pass % 2).count() as u64;
            let pixels = u64::from(w * h);
            work += Work {
                comparisons: 2 * pairs,
                swaps: odd_even_pass(&mut model, &opts, pass),
                bytes_read: 4 * (pixels + 2 * pairs),
                bytes_written: 4 * pixels,
                barriers: u64::from(w.div_ceil(16) * h.div_ceil(16)),
            };
        }
        let line = format!("the GPU's work: {}", describe(&work, "swaps"));
        assert!(stdout.lines().any(|l| l == line), "{stdout} (expected {line})");
        let (_, state) = open(&out);
        assert!(state == odd_even_passes(&input, &opts, passes), "the state after {passes} passes is wrong");
    }
    assert!(
        open(&dir.path().join("passes_0.png")).1 == input,
        "--passes 0 (--steps' old name) must leave the picture unchanged"
    );
    assert!(!is_sorted(&open(&dir.path().join("passes_3.png")).1, &opts), "3 passes cannot sort coffee");
    crate::clips::ci::passed();
}

#[test]
fn every_colour_type_is_read_as_rgba8_and_alpha_is_kept_only_when_present() {
    let dir = tempfile::tempdir().unwrap();
    let base = DynamicImage::ImageRgba8(random_image(37, 5, 7));
    // 16-bit samples that are not multiples of 257, so that conversion to 8 bits rounds.
    let mut rgb16 = base.to_rgb16();
    for (i, v) in rgb16.iter_mut().enumerate() {
        *v = v.saturating_sub((i * 37 % 256) as u16);
    }
    let mut rgba16 = base.to_rgba16();
    for (i, v) in rgba16.iter_mut().enumerate() {
        *v = v.saturating_sub((i * 53 % 256) as u16);
    }
    let inputs = [
        ("luma8.png", DynamicImage::ImageLuma8(base.to_luma8())),
        ("lumaa8.png", DynamicImage::ImageLumaA8(base.to_luma_alpha8())),
        ("rgb16.png", DynamicImage::ImageRgb16(rgb16)),
        ("rgba16.png", DynamicImage::ImageRgba16(rgba16)),
        ("photo.jpg", DynamicImage::ImageRgb8(base.to_rgb8())),
    ];
    let opts = SortOptions::default();
    for (name, picture) in inputs {
        let image = dir.path().join(name);
        picture.save(&image).unwrap();
        let out = dir.path().join(format!("{name}.sorted.png"));
        assert_succeeds(&[arg(&image), "--out", arg(&out)], &[]);
        // Decode the input the way shadersort documents it: any colour type becomes RGBA8.
        let (in_color, input) = open(&image);
        let (out_color, sorted) = open(&out);
        let expected_color = if in_color.has_alpha() { ColorType::Rgba8 } else { ColorType::Rgb8 };
        assert_eq!(out_color, expected_color, "{name}: input {in_color:?}");
        assert_eq!(sorted.dimensions(), (37, 5), "{name}");
        assert!(is_sorted(&sorted, &opts), "{name}");
        // Without alpha in the input every RGBA8 alpha is 255, so dropping it loses nothing.
        assert!(sorted == stable_sort(&input, &opts), "{name}: not the stable sort of the RGBA8 input");
    }
    crate::clips::ci::passed();
}

#[test]
fn columns_sort_by_hue_in_reverse() {
    let dir = tempfile::tempdir().unwrap();
    let image = dir.path().join("noise.png");
    let input = random_image(29, 31, 11);
    input.save(&image).unwrap();
    let out = dir.path().join("sorted.png");
    assert_succeeds(
        &[arg(&image), "--axis", "columns", "--key", "hue", "--reverse", "--out", arg(&out)],
        &[],
    );
    let opts = SortOptions { key: SortKey::Hue, descending: true, axis: Axis::Columns };
    let (color, sorted) = open(&out);
    assert_eq!(color, ColorType::Rgba8);
    assert!(is_sorted(&sorted, &opts), "some column is not in descending hue order");
    assert!(!is_sorted(&sorted, &SortOptions { descending: false, ..opts }), "the order is not reversed");
    assert!(lines_are_permutations(&input, &sorted, Axis::Columns), "some column lost or gained pixels");
    assert!(sorted == stable_sort(&input, &opts));
    crate::clips::ci::passed();
}

/// The bubble sort gives the same file as odd-even, in one dispatch, on both software GPUs.
#[test]
fn bubble_sorts_coffee_to_the_same_file_as_odd_even() {
    let dir = tempfile::tempdir().unwrap();
    let reference = dir.path().join("odd_even.png");
    assert_succeeds(&[COFFEE, "--out", arg(&reference)], &[("WGPU_BACKEND", "vulkan")]);
    for backend in ["vulkan", "gl"] {
        let out = dir.path().join(format!("bubble_{backend}.png"));
        let (stdout, _) = assert_succeeds(
            &[COFFEE, "--algorithm", "bubble", "--out", arg(&out)],
            &[("WGPU_BACKEND", backend)],
        );
        assert!(stdout.contains("ran 1 of 1 dispatches"), "one unbounded dispatch: {stdout}");
        assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&reference).unwrap(), "{backend}");
    }
    crate::clips::ci::passed();
}

/// The bitonic network gives the same file as odd-even (the stable sort) on both software GPUs,
/// one step per stage of the network of the next power of two.
#[test]
fn bitonic_sorts_coffee_to_the_same_file_as_odd_even() {
    let dir = tempfile::tempdir().unwrap();
    let reference = dir.path().join("odd_even.png");
    assert_succeeds(&[COFFEE, "--out", arg(&reference)], &[("WGPU_BACKEND", "vulkan")]);
    let width = image::open(COFFEE).unwrap().width();
    let stages = shadersort::reference::bitonic::network(width).len() as u32;
    for backend in ["vulkan", "gl"] {
        let out = dir.path().join(format!("bitonic_{backend}.png"));
        let (stdout, _) = assert_succeeds(
            &[COFFEE, "--algorithm", "bitonic", "--out", arg(&out)],
            &[("WGPU_BACKEND", backend)],
        );
        assert!(stdout.contains(&format!("ran {stages} of {stages} stages")), "every stage: {stdout}");
        assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&reference).unwrap(), "{backend}");
    }
    crate::clips::ci::passed();
}

/// The radix view with the exact key gives the same file as odd-even on both software GPUs, in
/// one step per digit pass; the whole-picture scope turns it into one ascending sequence.
#[test]
fn radix_sorts_coffee_to_the_same_file_as_odd_even_and_the_whole_picture_into_a_gradient() {
    let dir = tempfile::tempdir().unwrap();
    let reference = dir.path().join("odd_even.png");
    assert_succeeds(&[COFFEE, "--out", arg(&reference)], &[("WGPU_BACKEND", "vulkan")]);
    for backend in ["vulkan", "gl"] {
        let out = dir.path().join(format!("radix_{backend}.png"));
        let (stdout, _) = assert_succeeds(
            &[COFFEE, "--algorithm", "radix", "--out", arg(&out)],
            &[("WGPU_BACKEND", backend)],
        );
        assert!(stdout.contains("ran 5 of 5 digit passes"), "18-bit luma in 4-bit digits: {stdout}");
        assert!(stdout.contains("pixels moved"), "{stdout}");
        assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&reference).unwrap(), "{backend}");
    }

    let whole = dir.path().join("whole.png");
    assert_succeeds(
        &[COFFEE, "--algorithm", "radix", "--scope", "image", "--digit-bits", "8", "--out", arg(&whole)],
        &[],
    );
    let (input, sorted) = (coffee(), open(&whole).1);
    let keys: Vec<u32> = sorted.pixels().map(|p| SortKey::Luma.of(p.0)).collect();
    assert!(keys.windows(2).all(|w| w[0] <= w[1]), "not one ascending sequence in scanline order");
    let mut before: Vec<[u8; 4]> = input.pixels().map(|p| p.0).collect();
    let mut after: Vec<[u8; 4]> = sorted.pixels().map(|p| p.0).collect();
    before.sort_unstable();
    after.sort_unstable();
    assert!(before == after, "the whole picture lost or gained pixels");
    crate::clips::ci::passed();
}

#[test]
fn radix_flags_are_checked_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("o.png");
    assert_fails(
        &[COFFEE, "--algorithm", "radix", "--key", "red", "--key-bits", "12", "--out", arg(&out)],
        &[],
        dir.path(),
        &["--key-bits 12", "red", "1 to 8"],
    );
    assert_fails(
        &[COFFEE, "--scope", "image", "--out", arg(&out)],
        &[],
        dir.path(),
        &["apply to the radix view", "--algorithm radix"],
    );
    let output = run(&[COFFEE, "--algorithm", "radix", "--digit-bits", "3", "--out", arg(&out)], &[]);
    assert_eq!(output.status.code(), Some(2), "clap refuses a digit width it does not know");
    assert!(String::from_utf8_lossy(&output.stderr).contains("use 1, 2, 4 or 8"));
    crate::clips::ci::passed();
}

#[test]
fn bench_flags_are_checked_in_one_line_before_any_gpu_work() {
    let dir = tempfile::tempdir().unwrap();
    assert_fails(
        &["bench", "pass", "--sizes", "4x8", "--batch", "8"],
        &[],
        dir.path(),
        &["--batch 8", "4-pixel row"],
    );
    assert_fails(&["bench", "pass", "--size", "0x8"], &[], dir.path(), &["no pixels"]);
    assert_fails(
        &["bench", "radix", "--indirect", "--profile"],
        &[],
        dir.path(),
        &["--indirect", "--profile"],
    );
    assert_fails(&["bench", "segments", "--matrices", "8x0"], &[], dir.path(), &["8x0", "no keys"]);
    assert_fails(
        &["bench", "segments", "--matrices", "9x9,1080"],
        &[],
        dir.path(),
        &["'1080'", "ROWSxCOLUMNS"],
    );
    assert_fails(
        &["bench", "segments", "--matrices", "65536x65536"],
        &[],
        dir.path(),
        &["65536x65536", "2^32"],
    );
    #[cfg(not(feature = "peers"))]
    assert_fails(&["bench", "radix", "--peers"], &[], dir.path(), &["--peers", "--features peers"]);
    crate::clips::ci::passed();
}

/// A mask of `width` x `height` in black and white blocks, saved as an RGB PNG.
fn save_block_mask(path: &Path, width: u32, height: u32) {
    let mask = image::RgbImage::from_fn(width, height, |x, y| {
        image::Rgb(if (x / 5 + y / 4) % 3 == 0 { [0, 0, 0] } else { [255, 255, 255] })
    });
    mask.save(path).unwrap();
}

/// Threshold, edge and random intervals, with and without a mask, along rows and columns in both
/// orders: odd-even, bubble and the radix view write the same file, each interval stably sorted as
/// the CPU model says, and every pixel outside the intervals where it was.
#[test]
fn intervals_and_masks_sort_to_the_same_model_file_with_every_algorithm() {
    use shadersort::intervals::{
        IntervalLength, IntervalMap, IntervalMode, IntervalSettings, Mask, Threshold,
    };
    use shadersort::reference::{fixed_pixels_stay, stable_sort_within};
    let dir = tempfile::tempdir().unwrap();
    let (w, h) = (45, 31);
    let input = random_image(w, h, 21);
    let image = dir.path().join("noise.png");
    input.save(&image).unwrap();
    let mask_path = dir.path().join("mask.png");
    save_block_mask(&mask_path, w, h);
    let mask = Mask::load(&mask_path).unwrap();
    let threshold = IntervalSettings {
        mode: IntervalMode::Threshold,
        threshold: Threshold::new(0.2, 0.7).unwrap(),
        ..Default::default()
    };
    let edges = IntervalSettings {
        mode: IntervalMode::Edges,
        key: SortKey::Saturation,
        edge_level: 0.25,
        ..Default::default()
    };
    let random = IntervalSettings {
        mode: IntervalMode::Random,
        seed: 7,
        interval_length: IntervalLength::new(2, 9).unwrap(),
        ..Default::default()
    };
    let rows = SortOptions::default();
    let columns_down = SortOptions { key: SortKey::Hue, descending: true, axis: Axis::Columns };
    let mask_arg = arg(&mask_path);
    let cases: [(&str, Vec<&str>, IntervalSettings, bool, SortOptions); 4] = [
        ("threshold", vec!["--threshold", "0.2..0.7"], threshold, false, rows),
        (
            "edges",
            vec!["--intervals", "edges", "--edge-level", "0.25", "--interval-key", "saturation"],
            edges,
            false,
            columns_down,
        ),
        ("random", vec!["--seed", "7", "--interval-length", "2..9", "--mask", mask_arg], random, true, rows),
        ("mask", vec!["--mask", mask_arg], IntervalSettings::default(), true, columns_down),
    ];
    for (name, flags, settings, masked, options) in cases {
        let intervals =
            IntervalMap::compute(&input, options.axis, &settings, masked.then_some(&mask)).unwrap();
        let expected = stable_sort_within(&input, &options, &intervals);
        assert!(expected != stable_sort(&input, &options), "{name}: the intervals must change the picture");
        let mut files = Vec::new();
        for algorithm in ["odd-even", "bubble", "radix", "bitonic"] {
            let out = dir.path().join(format!("{name}-{algorithm}.png"));
            let mut args =
                vec![arg(&image), "--algorithm", algorithm, "--out", arg(&out), "--key", options.key.name()];
            args.extend(["--axis", options.axis.name()]);
            if options.descending {
                args.push("--reverse");
            }
            args.extend(&flags);
            let (stdout, _) = assert_succeeds(&args, &[]);
            assert!(
                stdout.contains(&format!("within {}", intervals.summary())),
                "{name} {algorithm}: {stdout}"
            );
            let (_, sorted) = open(&out);
            assert!(sorted == expected, "{name} {algorithm}: not each interval stably sorted");
            assert!(
                fixed_pixels_stay(&input, &sorted, &intervals),
                "{name} {algorithm}: a fixed pixel moved"
            );
            files.push(std::fs::read(&out).unwrap());
        }
        assert!(files.windows(2).all(|f| f[0] == f[1]), "{name}: the algorithms wrote different files");
    }
    crate::clips::ci::passed();
}

/// A picture downscaled to fit takes its mask along: the mask is checked against the
/// picture's own size, then scaled with it.
#[test]
fn a_mask_is_checked_at_the_pictures_size_and_scaled_with_it() {
    use shadersort::intervals::{IntervalMap, IntervalSettings, Mask};
    use shadersort::reference::stable_sort_within;
    let dir = tempfile::tempdir().unwrap();
    let mask_path = dir.path().join("mask.png");
    save_block_mask(&mask_path, 600, 400);
    let out = dir.path().join("small.png");
    assert_succeeds(&["--mask", arg(&mask_path), "--max-size", "150", "--out", arg(&out)], &[]);
    let small = image::imageops::resize(&coffee(), 150, 100, image::imageops::FilterType::Triangle);
    let mask = Mask::load(&mask_path).unwrap().resized(150, 100);
    let intervals =
        IntervalMap::compute(&small, Axis::Rows, &IntervalSettings::default(), Some(&mask)).unwrap();
    assert!(open(&out).1 == stable_sort_within(&small, &SortOptions::default(), &intervals));
    crate::clips::ci::passed();
}

#[test]
fn interval_errors_are_one_line_and_leave_no_files() {
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path();
    let out = tmp.join("x.png");
    std::fs::write(&out, b"an earlier output").unwrap();
    let image = tmp.join("noise.png");
    random_image(45, 31, 2).save(&image).unwrap();
    let small_mask = tmp.join("small_mask.png");
    save_block_mask(&small_mask, 4, 3);
    let quoted_mask = format!("'{}'", small_mask.display());
    let quoted_image = format!("'{}'", image.display());
    assert_fails(
        &[arg(&image), "--mask", arg(&small_mask), "--threshold", "0..1", "--out", arg(&out)],
        &[],
        tmp,
        &[
            "the mask",
            &quoted_mask,
            "is 4x3 pixels",
            &quoted_image,
            "is 45x31",
            "give a mask of the picture's size",
        ],
    );
    let missing = tmp.join("missing_mask.png");
    assert_fails(
        &[arg(&image), "--mask", arg(&missing), "--out", arg(&out)],
        &[],
        tmp,
        &["no such file", "missing_mask.png"],
    );
    assert_fails(&["--sweep", "0..1", "--out", arg(&out)], &[], tmp, &["--sweep", "add --record"]);
    assert_fails(
        &["--threshold", "0..1", "--algorithm", "radix", "--scope", "image", "--out", arg(&out)],
        &[],
        tmp,
        &["--scope image", "drop --scope image or the interval flags"],
    );
    assert_fails(
        &["--threshold", "0..1", "--edge-level", "0.3", "--out", arg(&out)],
        &[],
        tmp,
        &["different interval modes", "--threshold", "--edge-level"],
    );
    let output = run(&["--threshold", "0.8..0.2", "--out", arg(&out)], &[]);
    assert_eq!(output.status.code(), Some(2), "clap refuses a threshold it cannot read");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("LO 0.8 is above HI 0.2") && stderr.contains("0 <= LO <= HI <= 1"), "{stderr}");
    let output = run(&["--threshold", "0.2..1.3", "--out", arg(&out)], &[]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("1.3 is outside 0..1"));
    assert_eq!(std::fs::read(&out).unwrap(), b"an earlier output");
    crate::clips::ci::passed();
}

/// The CPU model of a whole sort at an angle: the picture gathered into line space, each interval
/// (whole lines with the padding fixed, without interval settings) stably sorted as rows, and
/// scattered back.
fn angled_model(
    input: &RgbaImage,
    degrees: f64,
    options: SortOptions,
    settings: Option<&shadersort::intervals::IntervalSettings>,
) -> RgbaImage {
    use shadersort::angle::{Angle, LineSpace};
    use shadersort::reference::stable_sort_within;
    let space = LineSpace::new(input.width(), input.height(), Angle::new(degrees).unwrap());
    let map = match settings {
        Some(settings) => space.interval_map(input, settings, None).unwrap(),
        None => space.whole_lines().expect("an angle off the axes pads its lines").clone(),
    };
    let rows = SortOptions { axis: Axis::Rows, ..options };
    space.scatter(&stable_sort_within(&space.gather(input), &rows, &map))
}

/// Saves `input` as `noise.png` in `dir`; the sort it returns writes `dir/NAME` with more flags
/// and gives the file's bytes and pixels.
fn sorter<'a>(dir: &'a Path, input: &RgbaImage) -> impl Fn(&str, &[&str]) -> (Vec<u8>, RgbaImage) + 'a {
    let sort = sorter_on(dir, input);
    move |name: &str, args: &[&str]| sort(name, args, None)
}

/// As [`sorter`], on the backend given to each sort (`WGPU_BACKEND`), or the default one.
fn sorter_on<'a>(
    dir: &'a Path,
    input: &RgbaImage,
) -> impl Fn(&str, &[&str], Option<&str>) -> (Vec<u8>, RgbaImage) + 'a {
    let image = dir.join("noise.png");
    input.save(&image).unwrap();
    move |name: &str, args: &[&str], backend: Option<&str>| {
        let out = dir.join(name);
        let envs: Vec<(&str, &str)> = backend.map(|b| ("WGPU_BACKEND", b)).into_iter().collect();
        assert_succeeds(&[&[arg(&image), "--out", arg(&out)][..], args].concat(), &envs);
        (std::fs::read(&out).unwrap(), open(&out).1)
    }
}

/// The pixels of a picture as a sorted list: equal lists, equal multisets.
fn pixel_multiset(picture: &RgbaImage) -> Vec<[u8; 4]> {
    let mut pixels: Vec<[u8; 4]> = picture.pixels().map(|p| p.0).collect();
    pixels.sort_unstable();
    pixels
}

/// `--angle`: every pixel kept, exactly the CPU model's picture, the same file from every
/// algorithm, within a threshold too; 90 writes the file of `--axis columns` and -360 that of
/// rows, byte for byte.
#[test]
fn an_angle_sorts_along_its_lines_keeping_every_pixel() {
    use shadersort::intervals::{IntervalMode, IntervalSettings, Threshold};
    let dir = tempfile::tempdir().unwrap();
    let input = random_image(37, 23, 8);
    let sort = sorter(dir.path(), &input);
    let (_, sorted) = sort("angle30.png", &["--angle", "30"]);
    assert!(pixel_multiset(&sorted) == pixel_multiset(&input), "--angle 30 lost or duplicated a pixel");
    assert!(
        sorted == angled_model(&input, 30.0, SortOptions::default(), None),
        "--angle 30 is not the model"
    );
    assert!(sorted != stable_sort(&input, &SortOptions::default()), "an angle must differ from rows");

    let threshold = IntervalSettings {
        mode: IntervalMode::Threshold,
        threshold: Threshold::new(0.2, 0.8).unwrap(),
        ..Default::default()
    };
    let options = SortOptions { key: SortKey::Hue, descending: true, axis: Axis::Rows };
    let expected = angled_model(&input, -135.0, options, Some(&threshold));
    let flags = ["--angle", "-135", "--threshold", "0.2..0.8", "--key", "hue", "--reverse"];
    let mut files = Vec::new();
    for algorithm in ["odd-even", "bubble", "radix", "bitonic"] {
        let (bytes, sorted) =
            sort(&format!("{algorithm}.png"), &[&flags[..], &["--algorithm", algorithm]].concat());
        assert!(sorted == expected, "{algorithm}: --angle -135 within a threshold is not the model");
        files.push(bytes);
    }
    assert!(files.windows(2).all(|f| f[0] == f[1]), "the algorithms wrote different files");
    assert!(pixel_multiset(&expected) == pixel_multiset(&input));

    assert!(sort("a90.png", &["--angle", "90"]).0 == sort("columns.png", &["--axis", "columns"]).0);
    assert!(sort("a-360.png", &["--angle", "-360"]).0 == sort("rows.png", &[]).0);
    crate::clips::ci::passed();
}

#[test]
fn angle_errors_are_one_line_and_leave_no_files() {
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path();
    let out = tmp.join("x.png");
    assert_fails(
        &["--angle", "30", "--axis", "columns", "--out", arg(&out)],
        &[],
        tmp,
        &["--angle 30 and --axis columns", "give one", "--axis columns is --angle 90"],
    );
    assert_fails(
        &["--angle", "30", "--algorithm", "radix", "--scope", "image", "--out", arg(&out)],
        &[],
        tmp,
        &["--scope image", "drop --scope image or --angle"],
    );
    // 45° through a 16384x16 picture makes 16 + 16383 lines: taller than any texture here.
    let wide = tmp.join("wide.png");
    RgbaImage::from_pixel(16384, 16, image::Rgba([9, 99, 199, 255])).save(&wide).unwrap();
    assert_fails(
        &[arg(&wide), "--angle", "45", "--out", arg(&out)],
        &[],
        tmp,
        &[
            "--angle 45 turns the 16384x16 picture into 16399 lines",
            "largest texture side (16384)",
            "--max-size",
        ],
    );
    let output = run(&["--angle", "north", "--out", arg(&out)], &[]);
    assert_eq!(output.status.code(), Some(2), "clap refuses an angle it cannot read");
    assert!(String::from_utf8_lossy(&output.stderr).contains("like 30 or -45"));
    assert!(!out.exists());
    crate::clips::ci::passed();
}

mod batch;
mod bench_video;
mod clip;
mod clip_ffmpeg;
mod clip_gpu_start;
mod clip_outputs;
mod clip_sizes;
mod clip_sound;
#[path = "../clips/mod.rs"]
mod clips;
mod decoded;
#[path = "../clips/gif.rs"]
mod gif_frames;
mod live;
mod paths;
mod patterns;
#[path = "../common/ports.rs"]
mod ports;
mod quiet;
mod record_sound;
#[path = "../common/sound_model.rs"]
mod sound_model;
mod still_start;
