//! `--path`: rings, rays, the spiral and the Hilbert curve sort along their lines headless,
//! every pixel kept, exactly the CPU model's picture straight from the path's geometry, the same
//! file from every algorithm, within a threshold and around any centre; a one-sequence path too
//! long for a texture row is sorted whole by the radix view and refused by the others; bad paths,
//! centres and ray counts are refused in one line with nothing written.

use super::{arg, assert_fails, assert_succeeds, open, run, sorter_on};
use crate::clips::{frames_of, have_ffmpeg, lossless_clip};
use shadersort::intervals::{IntervalMode, IntervalSettings, Threshold};
use shadersort::keys::SortKey;
use shadersort::keys::options::SortOptions;
use shadersort::paths::{Centre, Path, PathKind};
use shadersort::picture::patterns::random_image;
use shadersort::reference::paths::sorted_along;

#[test]
fn every_path_sorts_along_its_lines_like_the_model() {
    let dir = tempfile::tempdir().unwrap();
    let input = random_image(37, 23, 12);
    let sort_on = sorter_on(dir.path(), &input);
    let sort = |name: &str, args: &[&str]| sort_on(name, args, None);
    let middle = Centre::middle((37, 23));
    let cases = [
        (Path { kind: PathKind::Rings, centre: middle, rays: None }, vec!["--path", "rings"]),
        (
            Path { kind: PathKind::Rings, centre: Centre::at(3.0, -4.5).unwrap(), rays: None },
            vec!["--path", "rings", "--center", "3,-4.5"],
        ),
        (Path { kind: PathKind::Rays, centre: middle, rays: None }, vec!["--path", "rays"]),
        (
            Path { kind: PathKind::Rays, centre: Centre::at(30.0, 2.0).unwrap(), rays: Some(9) },
            vec!["--path", "rays", "--center", "30,2", "--rays", "9"],
        ),
        (Path { kind: PathKind::Spiral, centre: middle, rays: None }, vec!["--path", "spiral"]),
        (Path { kind: PathKind::Hilbert, centre: middle, rays: None }, vec!["--path", "hilbert"]),
    ];
    let options = SortOptions { key: SortKey::Hue, descending: true, ..SortOptions::default() };
    for (i, (path, flags)) in cases.iter().enumerate() {
        let mut files = Vec::new();
        // Two algorithms on each software GPU, a different pair for each path.
        for (j, algorithm) in ["odd-even", "bubble", "radix", "bitonic"].into_iter().enumerate() {
            let args = [&flags[..], &["--algorithm", algorithm, "--key", "hue", "--reverse"]].concat();
            let backend = if (i + j) % 2 == 0 { "vulkan" } else { "gl" };
            let (bytes, sorted) = sort_on(&format!("{i}-{algorithm}.png"), &args, Some(backend));
            let what = format!("{path}, {algorithm} on {backend}");
            assert!(sorted == sorted_along(&input, path, &options), "{what}: not the model");
            files.push(bytes);
        }
        assert!(files.windows(2).all(|f| f[0] == f[1]), "{path}: the algorithms wrote different files");
    }
    // Within a threshold: the model along the path's line space, within its intervals.
    let rings = Path { kind: PathKind::Rings, centre: middle, rays: None };
    let space = shadersort::angle::path_space::line_space(rings.into(), (37, 23), 16384).unwrap();
    let threshold = IntervalSettings {
        mode: IntervalMode::Threshold,
        threshold: Threshold::new(0.2, 0.8).unwrap(),
        ..Default::default()
    };
    let map = space.interval_map(&input, &threshold, None).unwrap();
    let lines =
        shadersort::reference::stable_sort_within(&space.gather(&input), &SortOptions::default(), &map);
    let (_, sorted) = sort("threshold.png", &["--path", "rings", "--threshold", "0.2..0.8"]);
    assert!(sorted == space.scatter(&lines), "rings within a threshold are not the model");
    assert!(sorted != sort("rings.png", &["--path", "rings"]).1, "the threshold changed nothing");
    crate::clips::ci::passed();
}

/// 160x120 is one sequence of 19200 pixels: more than a texture row here (16384).
#[test]
fn a_long_sequence_is_sorted_whole_by_radix_and_refused_by_the_others() {
    let dir = tempfile::tempdir().unwrap();
    let input = random_image(160, 120, 3);
    let image = dir.path().join("noise.png");
    input.save(&image).unwrap();
    let out = dir.path().join("spiral.png");
    assert_succeeds(&[arg(&image), "--path", "spiral", "--algorithm", "radix", "--out", arg(&out)], &[]);
    let spiral = Path::around_middle(PathKind::Spiral, (160, 120));
    assert!(
        open(&out).1 == sorted_along(&input, &spiral, &SortOptions::default()),
        "the spiral is not the model"
    );
    let refused = dir.path().join("refused");
    std::fs::create_dir(&refused).unwrap();
    let x = refused.join("x.png");
    for extra in [&["--algorithm", "odd-even"][..], &["--algorithm", "radix", "--threshold", "0.2..0.8"]] {
        assert_fails(
            &[&[arg(&image), "--path", "hilbert", "--out", arg(&x)][..], extra].concat(),
            &[],
            &refused,
            &["one sequence of 19200 pixels", "--algorithm radix"],
        );
    }
    crate::clips::ci::passed();
}

/// A recording along rays (an animated PNG: exact) starts from the picture and ends in the
/// model's; a clip sorted along rings (lossless) has every frame the model's.
#[test]
fn clips_and_recordings_take_paths() {
    let dir = tempfile::tempdir().unwrap();
    let input = random_image(21, 13, 4);
    let image = dir.path().join("noise.png");
    input.save(&image).unwrap();
    let rays = Path { kind: PathKind::Rays, centre: Centre::at(2.0, 11.0).unwrap(), rays: Some(6) };
    let apng = dir.path().join("rays.png");
    let flags = ["--path", "rays", "--center", "2,11", "--rays", "6", "--key", "hue"];
    assert_succeeds(&[&[arg(&image), "--record", arg(&apng)][..], &flags].concat(), &[]);
    let decoder =
        image::codecs::png::PngDecoder::new(std::io::BufReader::new(std::fs::File::open(&apng).unwrap()));
    let frames =
        image::AnimationDecoder::into_frames(decoder.unwrap().apng().unwrap()).collect_frames().unwrap();
    let hue = SortOptions { key: SortKey::Hue, ..SortOptions::default() };
    assert!(*frames[0].buffer() == input, "the recording starts from the picture");
    let end = sorted_along(&input, &rays, &hue);
    assert!(*frames.last().unwrap().buffer() == end, "the recording ends in the model's picture");
    if !have_ffmpeg() {
        return;
    }
    let size = (37, 23);
    let clip = lossless_clip(dir.path(), "clip.mkv", size, 5, false);
    let out = dir.path().join("rings.mkv");
    assert_succeeds(
        &[arg(&clip), "--path", "rings", "--algorithm", "odd-even", "--lossless", "--out", arg(&out)],
        &[],
    );
    let rings = Path::around_middle(PathKind::Rings, size);
    let options = SortOptions::default();
    for (k, (sorted, frame)) in frames_of(&out, size).iter().zip(frames_of(&clip, size)).enumerate() {
        assert!(*sorted == sorted_along(&frame, &rings, &options), "frame {k} is not the model's");
    }
    crate::clips::ci::passed();
}

#[test]
fn path_errors_are_one_line_and_leave_no_files() {
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path();
    let out = tmp.join("x.png");
    let out = arg(&out);
    let refused: [(&[&str], &[&str]); 7] = [
        (
            &["--path", "rings", "--algorithm", "radix", "--scope", "image"],
            &["--scope image", "bend along a path"],
        ),
        (&["--path", "rings", "--angle", "30"], &["--path rings and --angle", "give one"]),
        (&["--path", "rays", "--axis", "columns"], &["--path rays and --axis", "give one"]),
        (&["--center", "3,4"], &["--center applies to --path", "add --path"]),
        (&["--rays", "8"], &["--rays applies to --path"]),
        (&["--path", "rings", "--rays", "8"], &["--rays sets how many rays", "not rings"]),
        (&["--path", "hilbert", "--center", "3,4"], &["--path hilbert has no centre", "drop --center"]),
    ];
    for (args, expected) in refused {
        assert_fails(&[args, &["--out", out]].concat(), &[], tmp, expected);
    }
    // What the parser refuses: an unknown path, a centre that is not two numbers, or too far
    // out, or half in percent, no rays.
    for (args, says) in [
        (&["--path", "ring"][..], "use rings, rays, spiral or hilbert"),
        (&["--path", "rings", "--center", "3"], "is not two numbers"),
        (&["--path", "rings", "--center", "a,b"], "is not two numbers"),
        (&["--path", "rings", "--center", "1e9,0"], "--center 1000000000,0 is too far out"),
        (&["--path", "rings", "--center", "50%,3"], "mixes pixels and percent"),
        (&["--path", "rays", "--rays", "0"], "--rays"),
    ] {
        let output = run(&[args, &["--out", out]].concat(), &[]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.lines().next().is_some_and(|l| l.starts_with("error: ") && l.contains(says)),
            "{args:?}: {stderr}"
        );
        assert!(!std::path::Path::new(out).exists());
    }
    crate::clips::ci::passed();
}
