//! Clips through ffmpeg: every frame of a lossless clip and of a frame folder sorted exactly
//! as the CPU model says, with every algorithm, the sound copied sample for sample; 4:2:0 clips
//! through as 4:2:0; bad clips fail with one line and leave nothing; the window's reader. GIFs
//! and lossy outputs are in [`super::clip_outputs`]. The clips are made here by ffmpeg's test
//! sources. Without ffmpeg these tests say so and pass, unless SHADERSORT_REQUIRE_FFMPEG is set
//! (CI sets it).

use super::decoded::{assert_frames_equal, folder_frames, planes_of, samples_of, streams};
use super::{COFFEE, arg, assert_fails, assert_succeeds, coffee, open};
use crate::clips::{ffmpeg, frames_of, have_ffmpeg, lossless_clip};
use image::RgbaImage;
use shadersort::intervals::{IntervalMap, IntervalMode, IntervalSettings, Threshold};
use shadersort::keys::SortKey;
use shadersort::keys::options::{Axis, SortOptions};
use shadersort::picture::yuv::{Matrix, Yuv420Size, to_rgba, to_yuv420};
use shadersort::reference::{stable_sort, stable_sort_within};
use std::path::Path;

/// What a clip sorted to its end by an algorithm other than radix notes: radix made its frames.
const FASTEST_END: &str = "radix gets there fastest and makes them";

/// Each algorithm sorts every frame of a clip with sound, and of a one-frame clip, to a
/// lossless video whose frames equal the CPU model's exactly; the sound is copied (its samples
/// equal the clip's, bit for bit) and the frame count and rate kept. Runs within a threshold
/// along columns, descending, to a folder of PNG frames, also match, on Vulkan and on GL.
#[test]
fn every_frame_of_a_clip_sorts_exactly_with_every_algorithm() {
    if !have_ffmpeg() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let size = (37, 23);
    let clip = lossless_clip(dir.path(), "clip.mkv", size, 31, true);
    let input = frames_of(&clip, size);
    assert_eq!(input.len(), 31);
    let rows = SortOptions::default();
    let sorted: Vec<RgbaImage> = input.iter().map(|f| stable_sort(f, &rows)).collect();
    assert!(sorted.iter().zip(&input).all(|(s, i)| s != i), "sorting must change every frame");
    for algorithm in ["radix", "bitonic"] {
        let out = dir.path().join(format!("{algorithm}.mkv"));
        let (stdout, stderr) =
            assert_succeeds(&[arg(&clip), "--algorithm", algorithm, "--lossless", "--out", arg(&out)], &[]);
        // Sorted to their end, bitonic's frames are made by radix, which says so.
        assert_eq!(stderr.contains(FASTEST_END), algorithm == "bitonic", "{algorithm}: {stderr}");
        assert!(
            stdout.contains("sorted 31 frames of 37x23 at 30.000 fps") && stdout.contains("audio copied"),
            "{stdout}"
        );
        assert_frames_equal(&frames_of(&out, size), &sorted, algorithm);
        let described = streams(&out);
        assert!(described.contains("Audio: pcm_s16le") && described.contains("30 fps"), "{described}");
        // The clip's tone is 8 kHz PCM: a copy decodes to the very same samples.
        assert!(
            samples_of(&out, 8000) == samples_of(&clip, 8000),
            "{algorithm}: the sound is not the clip's"
        );
    }
    let still = lossless_clip(dir.path(), "still.mkv", (9, 5), 1, false);
    let one = frames_of(&still, (9, 5));
    for algorithm in ["odd-even", "bubble"] {
        let out = dir.path().join(format!("{algorithm}.mkv"));
        let (_, stderr) =
            assert_succeeds(&[arg(&still), "--algorithm", algorithm, "--lossless", "--out", arg(&out)], &[]);
        assert!(stderr.contains(FASTEST_END), "{algorithm}: {stderr}");
        assert_frames_equal(&frames_of(&out, (9, 5)), &[stable_sort(&one[0], &rows)], algorithm);
        // Its own steps, as many as it takes: the same frame, and no note.
        let steps = dir.path().join(format!("{algorithm}-steps.mkv"));
        let args =
            [arg(&still), "--algorithm", algorithm, "--steps", "9", "--lossless", "--out", arg(&steps)];
        let (_, stderr) = assert_succeeds(&args, &[]);
        assert!(!stderr.contains(FASTEST_END), "{algorithm} with --steps: {stderr}");
        assert_frames_equal(&frames_of(&steps, (9, 5)), &[stable_sort(&one[0], &rows)], algorithm);
    }
    let columns = SortOptions { key: SortKey::Hue, descending: true, axis: Axis::Columns };
    let threshold = IntervalSettings {
        mode: IntervalMode::Threshold,
        threshold: Threshold::new(0.2, 0.7).unwrap(),
        ..Default::default()
    };
    let expected: Vec<RgbaImage> = input
        .iter()
        .map(|f| {
            stable_sort_within(
                f,
                &columns,
                &IntervalMap::compute(f, Axis::Columns, &threshold, None).unwrap(),
            )
        })
        .collect();
    // No --algorithm: a clip is sorted with bitonic, the fastest. Radix finds threshold intervals
    // on the GPU.
    for (backend, algorithm) in
        [("vulkan", None), ("gl", None), ("vulkan", Some("radix")), ("gl", Some("radix"))]
    {
        let out = dir.path().join(format!("runs-{backend}-{}/", algorithm.unwrap_or("default")));
        let flags = ["--key", "hue", "--reverse", "--axis", "columns"];
        let mut args = vec![arg(&clip)];
        args.extend(flags);
        args.extend(algorithm.map(|a| ["--algorithm", a]).into_iter().flatten());
        args.extend(["--threshold", "0.2..0.7", "--out", arg(&out)]);
        let (stdout, stderr) = assert_succeeds(&args, &[("WGPU_BACKEND", backend)]);
        // Nobody asked for bitonic, so nothing says that radix made its frames.
        assert!(!stderr.contains(FASTEST_END), "{stderr}");
        let with = format!("with {}", algorithm.unwrap_or("bitonic"));
        assert!(stdout.contains("audio not kept") && stdout.contains(&with), "{stdout}");
        let what = format!("threshold intervals on {backend} with {with}");
        assert_frames_equal(&folder_frames(&out), &expected, &what);
    }
    crate::clips::ci::passed();
}

/// A 4:2:0 clip comes through the pipe as 4:2:0 and is converted by shadersort's model (BT.601
/// untagged, BT.709 as tagged; odd sides too), on the GPU where the GPU finds the intervals or none
/// are needed, else on the CPU; a 4:2:0 encoder is given 4:2:0 made on the GPU,
/// tagged as the clip was: with `--crf 0` (lossless H.264) every plane of every frame equals the
/// model's conversion of the CPU model's sort.
#[test]
fn a_420_clip_goes_through_as_420_and_sorts_exactly() {
    if !have_ffmpeg() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let rows = SortOptions::default();
    let bt709 = ["-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709"];
    for ((w, h), tags, matrix) in [((37, 23), &[][..], Matrix::Bt601), ((64, 48), &bt709[..], Matrix::Bt709)]
    {
        let size = Yuv420Size { width: w, height: h };
        let clip = dir.path().join(format!("clip-{w}x{h}.mkv"));
        // testsrc: testsrc2 rounds a 4:2:0 size down to even sides.
        let source = format!("testsrc=size={w}x{h}:rate=30");
        let mut args =
            vec!["-f", "lavfi", "-i", &source, "-frames:v", "12", "-c:v", "ffv1", "-pix_fmt", "yuv420p"];
        args.extend(tags);
        args.push(arg(&clip));
        ffmpeg(&args);
        let input: Vec<RgbaImage> = planes_of(&clip, size)
            .iter()
            .map(|planes| {
                let mut rgba = Vec::new();
                to_rgba(planes, size, matrix, &mut rgba);
                RgbaImage::from_raw(w, h, rgba).unwrap()
            })
            .collect();
        assert_eq!(input.len(), 12);
        let sorted: Vec<RgbaImage> = input.iter().map(|f| stable_sort(f, &rows)).collect();
        let folder = dir.path().join(format!("frames-{w}x{h}/"));
        assert_succeeds(&[arg(&clip), "--algorithm", "radix", "--out", arg(&folder)], &[]);
        assert_frames_equal(&folder_frames(&folder), &sorted, &format!("{w}x{h} {matrix:?} to PNG frames"));
        // Radix within a threshold: the GPU finds the intervals, and converts the frame itself.
        let threshold = IntervalSettings {
            mode: IntervalMode::Threshold,
            threshold: Threshold::new(0.25, 0.75).unwrap(),
            ..Default::default()
        };
        let within: Vec<RgbaImage> = input
            .iter()
            .map(|f| {
                stable_sort_within(f, &rows, &IntervalMap::compute(f, Axis::Rows, &threshold, None).unwrap())
            })
            .collect();
        // Every algorithm finds threshold intervals on the GPU too (tests/cli/clip_gpu_start.rs).
        for (backend, algorithm) in [("vulkan", "radix"), ("gl", "radix"), ("vulkan", "bitonic")] {
            let folder = dir.path().join(format!("within-{w}x{h}-{backend}-{algorithm}/"));
            let args =
                [arg(&clip), "--algorithm", algorithm, "--threshold", "0.25..0.75", "--out", arg(&folder)];
            assert_succeeds(&args, &[("WGPU_BACKEND", backend)]);
            let what = format!("{w}x{h} {matrix:?} within a threshold on {backend} with {algorithm}");
            assert_frames_equal(&folder_frames(&folder), &within, &what);
        }
        if w % 2 == 1 {
            continue;
        }
        for backend in ["vulkan", "gl"] {
            let out = dir.path().join(format!("sorted-{w}x{h}-{backend}.mkv"));
            assert_succeeds(&[arg(&clip), "--crf", "0", "--out", arg(&out)], &[("WGPU_BACKEND", backend)]);
            let described = streams(&out);
            // ffmpeg names the colour once where space, primaries and transfer agree.
            let tagged = ["yuv420p(tv, bt709)", "yuv420p(tv, bt709,"].iter().any(|t| described.contains(t));
            assert!(tagged, "space, primaries and transfer tagged as the clip's: {described}");
            let got = planes_of(&out, size);
            assert_eq!(got.len(), 12, "{backend}: the frame count is kept");
            for (k, (planes, frame)) in got.iter().zip(&sorted).enumerate() {
                assert!(
                    *planes == to_yuv420(frame, matrix),
                    "{backend}: frame {k}'s planes differ from the model"
                );
            }
        }
    }
    crate::clips::ci::passed();
}

/// A folder of frames and a numbered pattern go in (at --frame-rate), sorted exactly as the
/// CPU model says, to a lossless video at that rate and to a folder of frames.
#[test]
fn frame_folders_and_patterns_go_in_at_the_frame_rate() {
    if !have_ffmpeg() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let size = (37, 23);
    let clip = lossless_clip(dir.path(), "clip.mkv", size, 12, false);
    let input = frames_of(&clip, size);
    let shots = dir.path().join("shots");
    std::fs::create_dir(&shots).unwrap();
    for (k, frame) in input.iter().enumerate() {
        frame.save(shots.join(format!("shot-{:03}.png", k + 1))).unwrap();
    }
    let rows = SortOptions::default();
    let sorted: Vec<RgbaImage> = input.iter().map(|f| stable_sort(f, &rows)).collect();
    let from_folder = dir.path().join("from-folder.mkv");
    let (stdout, _) = assert_succeeds(
        &[
            arg(&shots),
            "--algorithm",
            "radix",
            "--lossless",
            "--frame-rate",
            "25",
            "--out",
            arg(&from_folder),
        ],
        &[],
    );
    assert!(stdout.contains("at 25.000 fps"), "{stdout}");
    assert!(streams(&from_folder).contains("25 fps"), "{}", streams(&from_folder));
    assert_frames_equal(&frames_of(&from_folder, size), &sorted, "a folder of frames");
    let pattern = shots.join("shot-%03d.png");
    let to_folder = dir.path().join("sorted-shots/");
    assert_succeeds(&[arg(&pattern), "--algorithm", "bitonic", "--out", arg(&to_folder)], &[]);
    assert_frames_equal(&folder_frames(&to_folder), &sorted, "a pattern to a folder");
    crate::clips::ci::passed();
}

/// A run that must fail: its arguments, its environment and the fragments of its error line.
type BadCase<'a> = (Vec<&'a str>, Vec<(&'a str, &'a str)>, Vec<&'a str>);

/// Bad clips and bad outputs: one line naming the problem and the fix, exit 1, nothing written.
#[test]
fn bad_clips_fail_with_one_line_and_leave_nothing() {
    if !have_ffmpeg() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let clip = lossless_clip(d, "clip.mkv", (40, 30), 20, false);
    let text = d.join("notes.mp4");
    std::fs::write(&text, "not a video").unwrap();
    let sound = d.join("sound.mkv");
    ffmpeg(&["-f", "lavfi", "-i", "sine=duration=0.5", arg(&sound)]);
    let empty = d.join("empty.avi");
    ffmpeg(&["-f", "lavfi", "-i", "testsrc2=size=16x16", "-frames:v", "0", "-c:v", "ffv1", arg(&empty)]);
    let cut = d.join("cut.mkv");
    let bytes = std::fs::read(&clip).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let mixed = d.join("mixed");
    std::fs::create_dir(&mixed).unwrap();
    RgbaImage::new(4, 3).save(mixed.join("a1.png")).unwrap();
    RgbaImage::new(5, 3).save(mixed.join("a2.png")).unwrap();
    let out = d.join("out.mkv");
    std::fs::write(&out, "an older video").unwrap();
    let o = arg(&out);
    let radix = ["--algorithm", "radix"];
    let cases: Vec<BadCase> = vec![
        (
            vec![arg(&text), "--out", o],
            vec![],
            vec!["cannot read", "notes.mp4", "ffmpeg cannot read it as a video"],
        ),
        (vec![arg(&sound), "--out", o], vec![], vec!["holds no video stream", "only audio"]),
        (vec![arg(&empty), "--out", o], vec![], vec!["has no frames"]),
        (vec![arg(&cut), "--out", o], vec![], vec!["breaks off after", "nothing was written"]),
        (vec![arg(&mixed), "--out", o], vec![], vec!["is 5x3, but the first frame is 4x3"]),
        (
            vec![arg(&clip), "--lossless", "--out", "x.mp4"],
            vec![],
            vec!["holds no lossless RGB codec", ".mkv (FFV1)"],
        ),
        (vec![arg(&clip), "--out", "no/such/dir/x.mkv"], vec![], vec!["does not exist"]),
        (
            vec![arg(&clip), radix[0], radix[1], "--codec", "no-such-encoder", "--out", o],
            vec![],
            vec!["has no no-such-encoder encoder, which a .mkv output needs"],
        ),
        (
            vec![arg(&clip), "--ffmpeg", "/no/such/ffmpeg", "--out", o],
            vec![],
            vec!["(from --ffmpeg): no such file"],
        ),
        // An empty SHADERSORT_FFMPEG names none (CI runs these tests with one set).
        (
            vec![arg(&clip), "--out", o],
            vec![("PATH", "/nowhere"), ("SHADERSORT_FFMPEG", "")],
            vec!["not on PATH", "apt install ffmpeg"],
        ),
        (
            vec![arg(&clip), "--max-size", "16", "--no-downscale", "--out", o],
            vec![],
            vec!["more than 16 on a side"],
        ),
        (vec![arg(&clip), "--sweep", "0..1"], vec![], vec!["--sweep applies to a clip sorted with --out"]),
        (vec![arg(&clip), "--passes", "3"], vec![], vec!["--steps applies to a clip sorted with --out"]),
        (vec![arg(&clip), "--record", "x.gif"], vec![], vec!["--record does not go with a clip"]),
        (vec![COFFEE, "--lossless", "--out", "x.png"], vec![], vec!["--lossless applies to a clip"]),
    ];
    for (args, envs, expected) in &cases {
        assert_fails(args, envs, d, expected);
    }
    // Too large without --no-downscale: shrunk, with a note; each frame the model's sort of
    // the clip's frame as ffmpeg's area filter shrinks it (what shadersort asks ffmpeg for).
    let small = d.join("small/");
    let (_, stderr) =
        assert_succeeds(&[arg(&clip), radix[0], radix[1], "--max-size", "16", "--out", arg(&small)], &[]);
    assert!(stderr.contains("downscaled to 16x12"), "{stderr}");
    let shrunk = folder_frames(&small);
    let scaled = crate::clips::frames_through(&clip, &["-vf", "scale=16:12:flags=area"], (16, 12));
    assert_eq!((shrunk.len(), scaled.len()), (20, 20), "every frame is kept");
    for (k, (frame, input)) in shrunk.iter().zip(&scaled).enumerate() {
        assert!(*frame == stable_sort(input, &SortOptions::default()), "frame {k} is not the model's");
    }
    // A still picture needs no ffmpeg: it is sorted (and written) as the model says.
    let still = d.join("still.png");
    assert_succeeds(&[COFFEE, "--algorithm", "radix", "--out", arg(&still)], &[("PATH", "/nowhere")]);
    assert!(open(&still).1 == stable_sort(&coffee(), &SortOptions::default()), "the still picture");
    crate::clips::ci::passed();
}

/// The window's reader lands on the frame asked for, wherever it starts: in a lossless clip, in
/// an H.264 clip with B-frames and a key frame every 12 (the seek decodes from the key frame
/// before and drops frames up to the one asked for), and in a folder of frames; and it reads on
/// in order to the end.
#[test]
fn a_seek_lands_on_the_frame_a_whole_decode_gives() {
    use shadersort::media::playback::{ClipReader, Next};
    use shadersort::settings::Rate;
    if !have_ffmpeg() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let size = (33, 19);
    let lossless = lossless_clip(dir.path(), "clip.mkv", size, 31, false);
    let h264 = dir.path().join("clip.mp4");
    ffmpeg(&[
        "-i",
        arg(&lossless),
        "-c:v",
        "libx264",
        "-g",
        "12",
        "-bf",
        "2",
        "-pix_fmt",
        "yuv444p",
        arg(&h264),
    ]);
    let folder = dir.path().join("frames");
    std::fs::create_dir(&folder).unwrap();
    for (k, frame) in frames_of(&lossless, size).iter().enumerate() {
        frame.save(folder.join(format!("f{k}.png"))).unwrap();
    }
    for clip in [&lossless, &h264, &folder] {
        let whole = frames_of(if clip == &folder { &lossless } else { clip }, size);
        assert_eq!(whole.len(), 31);
        let mut reader = ClipReader::open(clip, None, Rate { num: 30, den: 1 }).unwrap();
        assert_eq!(reader.info().frames, 31, "{}", clip.display());
        for start in [0u64, 1, 7, 12, 13, 25, 30] {
            reader.seek(start).unwrap();
            for k in start..(start + 3).min(31) {
                match reader.next_frame_within(std::time::Duration::from_secs(30)) {
                    Next::Frame(index, frame) => {
                        assert_eq!(index, k, "{}: seek to {start}", clip.display());
                        assert!(
                            frame == whole[k as usize],
                            "{}: frame {k} after a seek to {start}",
                            clip.display()
                        );
                    }
                    other => panic!("{}: frame {k} after a seek to {start}: {other:?}", clip.display()),
                }
            }
        }
        reader.seek(29).unwrap();
        let mut rest = Vec::new();
        loop {
            match reader.next_frame_within(std::time::Duration::from_secs(30)) {
                Next::Frame(index, _) => rest.push(index),
                Next::Ended => break,
                other => panic!("{}: reading to the end: {other:?}", clip.display()),
            }
        }
        assert_eq!(rest, [29, 30], "{}", clip.display());
    }
    crate::clips::ci::passed();
}

/// The window opens a clip from its dialog or a drop on a thread of its own (ffmpeg reads a
/// video through to count its frames): the answer is the clip with its first frame read, at the
/// size limit's size with a note when downscaled, and reading on from the second frame; or,
/// for a file that is not a video, the reason, naming the file.
#[test]
fn a_clip_opened_on_its_own_thread_gives_its_first_frame_or_the_reason() {
    use shadersort::media::playback::{Next, OpenedClip, OpeningClip};
    use shadersort::picture::input::SizeLimit;
    use shadersort::settings::Rate;
    use std::time::{Duration, Instant};
    if !have_ffmpeg() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let size = (33, 19);
    let clip = lossless_clip(dir.path(), "clip.mkv", size, 5, false);
    let frames = frames_of(&clip, size);
    let not_a_video = dir.path().join("notes.mkv");
    std::fs::write(&not_a_video, "not a video").unwrap();
    let rate = Rate { num: 30, den: 1 };
    let wait = Duration::from_secs(30);
    let answer = |path: &Path, limit: SizeLimit| -> anyhow::Result<OpenedClip> {
        let mut opening = OpeningClip::start(path.to_path_buf(), None, rate, limit, wait).unwrap();
        assert_eq!(opening.path(), path);
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Some(answer) = opening.poll() {
                assert!(opening.poll().is_none(), "{}: a second answer", path.display());
                return answer;
            }
            assert!(Instant::now() < deadline, "{}: no answer in 60 s", path.display());
            std::thread::sleep(Duration::from_millis(10));
        }
    };

    let mut opened = answer(&clip, SizeLimit::new(16384, None, true)).unwrap();
    assert_eq!(opened.reader.info().frames, 5);
    assert!(opened.note.is_none());
    assert!(opened.first == frames[0], "the first frame");
    match opened.reader.next_frame_within(wait) {
        Next::Frame(1, frame) => assert!(frame == frames[1], "the second frame"),
        other => panic!("after the first frame: {other:?}"),
    }

    let small = answer(&clip, SizeLimit::new(16384, Some(16), true)).unwrap();
    assert!(small.note.is_some_and(|n| n.contains("16")), "no downscale note");
    assert!(small.first.width().max(small.first.height()) <= 16, "not downscaled");

    let why = format!("{:#}", answer(&not_a_video, SizeLimit::new(16384, None, true)).err().unwrap());
    assert!(why.contains("notes.mkv") && !why.contains('\n'), "{why}");
    crate::clips::ci::passed();
}
