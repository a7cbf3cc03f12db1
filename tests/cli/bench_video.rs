//! `bench video` on tiny clips with sound, one of them odd-sided: the row of ffmpeg encoding the
//! sorted frames alone is there, given every sorted frame as the whole run pipes them (4:2:0, or
//! RGBA where the run pads) with the whole run's encoder arguments, and its seconds and frames/s
//! agree; the plain transcode runs with the same encoder arguments, an odd size padded by a filter
//! that repeats the edge exactly as the run does (checked byte for byte); and the whole run's row
//! states its ratio to the encoder alone and to the transcode. A benchmark is a command, not a
//! timed test: no speed is asserted. Without ffmpeg these tests say so and pass, unless
//! SHADERSORT_REQUIRE_FFMPEG is set.

use super::{arg, assert_succeeds};
use crate::clips::{ffmpeg, frames_of, have_ffmpeg, lossless_clip};
use image::RgbaImage;
use shadersort::media::encoding::pad_filter;
use std::path::Path;
use std::process::Command;

/// The cells of the table row whose first cell is `name`, trimmed (the first and last are the
/// empty text outside the bars).
fn cells(table: &str, name: &str) -> Vec<String> {
    let row = table
        .lines()
        .find(|line| line.split('|').nth(1).map(str::trim) == Some(name))
        .unwrap_or_else(|| panic!("no row '{name}' in\n{table}"));
    row.split('|').map(|cell| cell.trim().to_string()).collect()
}

/// The number before the first `x` of a ratio cell ("0.42x transcode").
fn ratio(cell: &str) -> f64 {
    cell.split_once('x').and_then(|(n, _)| n.parse().ok()).unwrap_or_else(|| panic!("no ratio in '{cell}'"))
}

/// The rest of the output line that starts with `start`.
fn line_after<'a>(stdout: &'a str, start: &str) -> &'a str {
    stdout.lines().find_map(|l| l.strip_prefix(start)).unwrap_or_else(|| panic!("no '{start}' in\n{stdout}"))
}

/// Runs `bench video` on `clip` (`frames` frames with sound, which the run pipes as `piped`,
/// "4:2:0" or "RGBA") and checks its table, the encoder's arguments and that the transcode's
/// are the same with `-vf pad` (when the run pads) before them.
fn bench(clip: &Path, frames: u32, piped: &str, pad: Option<&str>) {
    let (stdout, _) = assert_succeeds(&["bench", "video", arg(clip), "--runs", "1"], &[]);
    let given =
        format!("the encoder alone is given {frames} {piped} frames from memory and the clip's audio, ");
    let encoder_args = line_after(&stdout, &format!("{given}encoding with: "));
    assert!(encoder_args.starts_with("-c:v libx264 -preset medium -crf 18 -pix_fmt yuv420p"), "{stdout}");
    // The clip's PCM sound goes into .mp4 as AAC, in the transcode as in the run.
    let pad = pad.map(|filter| format!("-vf {filter} ")).unwrap_or_default();
    let transcode_args = format!("-map 0:v:0 {pad}{encoder_args} -map 0:a:0 -c:a aac");
    assert_eq!(line_after(&stdout, "the plain transcode is: ffmpeg -i CLIP "), transcode_args + " OUT.mp4");
    let encode = cells(&stdout, &format!("ffmpeg encoding the sorted frames alone ({piped} from memory)"));
    let (seconds, fps): (f64, f64) = (encode[2].parse().unwrap(), encode[3].parse().unwrap());
    assert!(seconds > 0.0 && seconds < 60.0, "{encode:?}");
    // Rounded to a millisecond and a tenth of a frame per second.
    assert!((fps * seconds / f64::from(frames) - 1.0).abs() < 0.05, "{encode:?}");
    let transcode = cells(&stdout, "ffmpeg transcode (same encoder settings)");
    let transcode_seconds: f64 = transcode[2].parse().unwrap();
    assert!(encode[4].ends_with("x transcode") && ratio(&encode[4]) > 0.0, "{encode:?}");
    let whole = cells(&stdout, "whole run to .mp4");
    let whole_seconds: f64 = whole[2].parse().unwrap();
    let (to_encode, to_transcode) = whole[4].split_once("; ").unwrap_or_else(|| panic!("{whole:?}"));
    assert!(to_encode.ends_with("x encoding alone (goal >= 0.9)"), "{whole:?}");
    assert!(to_transcode.ends_with("x transcode"), "{whole:?}");
    // Each ratio is of the rows named: the whole run's frames/s over theirs.
    let near = |printed: f64, expected: f64| (printed - expected).abs() <= 0.01 + expected * 0.02;
    assert!(near(ratio(to_encode), seconds / whole_seconds), "{whole:?} against {encode:?}");
    assert!(near(ratio(to_transcode), transcode_seconds / whole_seconds), "{whole:?} against {transcode:?}");
    // Decoding and sorting against ffmpeg decoding alone, to RGBA and to 4:2:0 (the floor).
    let seconds_of = |row: &str| -> f64 { cells(&stdout, row)[2].parse().unwrap() };
    let sort = cells(&stdout, "decode + sort + read back (null sink)");
    let sort_seconds: f64 = sort[2].parse().unwrap();
    let (to_rgba, to_420) = sort[4].split_once("; ").unwrap_or_else(|| panic!("{sort:?}"));
    assert!(to_rgba.ends_with("x decode to RGBA (goal >= 1.0)"), "{sort:?}");
    assert!(to_420.ends_with("x decode to 4:2:0 (the floor)"), "{sort:?}");
    assert!(near(ratio(to_rgba), seconds_of("ffmpeg decode to RGBA") / sort_seconds), "{sort:?}");
    assert!(near(ratio(to_420), seconds_of("ffmpeg decode to 4:2:0") / sort_seconds), "{sort:?}");
}

#[test]
fn bench_video_times_the_encoder_alone_on_the_sorted_frames() {
    if !have_ffmpeg() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    bench(&lossless_clip(dir.path(), "clip.mkv", (32, 24), 8, true), 8, "4:2:0", None);
    crate::clips::ci::passed();
}

/// 4:2:0 H.264 takes even sides: the run pads an odd-sided clip, and so does the transcode.
#[test]
fn bench_video_pads_an_odd_clip_in_the_transcode_as_the_run_does() {
    if !have_ffmpeg() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let clip = lossless_clip(dir.path(), "odd.mkv", (33, 17), 4, true);
    bench(&clip, 4, "RGBA", Some(&pad_filter((33, 17), (34, 18))));
    crate::clips::ci::passed();
}

/// `--passes` times every compute pass of one more run on the GPU: bitonic within threshold
/// intervals on a 4:2:0 clip takes the same five passes each frame (converted from 4:2:0,
/// intervals found, planned, sorted, converted back), each listed with one pass a frame.
#[test]
fn bench_video_passes_lists_each_pass_once_a_frame() {
    if !have_ffmpeg() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let clip = dir.path().join("clip.mkv");
    let testsrc = "testsrc2=size=32x24:rate=30";
    ffmpeg(&[
        "-f",
        "lavfi",
        "-i",
        testsrc,
        "-frames:v",
        "6",
        "-c:v",
        "ffv1",
        "-pix_fmt",
        "yuv420p",
        arg(&clip),
    ]);
    // Sorted to their end, every algorithm's frames are radix's (engine::plan::fastest_end).
    let sort = "--algorithm bitonic --threshold 0.25..0.75";
    let args = ["bench", "video", arg(&clip), "--runs", "1", "--passes", "--sort", sort];
    // Lavapipe writes timestamps; llvmpipe through GL has none.
    let (stdout, _) = assert_succeeds(&args, &[("WGPU_BACKEND", "vulkan")]);
    let timed = line_after(&stdout, "GPU passes of one decode + sort run (");
    assert!(timed.contains("s): 30 passes timed over "), "{stdout}");
    for pass in
        ["yuv420_to_rgba", "found_intervals", "radix_image::gather", "radix_image::place", "rgba_to_yuv420"]
    {
        assert_eq!(cells(&stdout, pass)[2], "6", "{pass} in\n{stdout}");
    }
    // The times are the GPU's own: the sort's passes took some.
    let ms: f64 = cells(&stdout, "radix_image::gather")[3].parse().unwrap();
    assert!(ms > 0.0, "{stdout}");
    crate::clips::ci::passed();
}

/// ffmpeg's raw output for `args`, which must succeed.
fn raw(args: &[&str]) -> Vec<u8> {
    let out = Command::new("ffmpeg").args(["-v", "error", "-nostdin", "-y"]).args(args).output().unwrap();
    assert!(out.status.success(), "ffmpeg {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}

/// The transcode's padding filter gives the encoder the 4:2:0 the run gives it: the clip decoded
/// to RGBA, its last column and row repeated, converted by ffmpeg. Byte for byte, from RGB and
/// from 4:2:0 clips (in 4:2:0 ffmpeg's pad and fillborders get the edge's chroma wrong).
#[test]
fn the_transcodes_padding_repeats_the_edge_as_the_run_does() {
    if !have_ffmpeg() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for ((w, h), pixel_format) in
        [((33, 17), "bgr0"), ((33, 17), "yuv420p"), ((1, 1), "yuv420p"), ((2, 3), "bgr0")]
    {
        let (pw, ph) = (w + w % 2, h + h % 2);
        let clip = dir.path().join(format!("{w}x{h}-{pixel_format}.mkv"));
        let (clip, source) = (clip.to_str().unwrap(), format!("testsrc=size={w}x{h}:rate=30"));
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
            pixel_format,
            clip,
        ]);
        let filter = pad_filter((w, h), (pw, ph));
        let transcode = raw(&["-i", clip, "-vf", &filter, "-f", "rawvideo", "-pix_fmt", "yuv420p", "-"]);
        let padded: Vec<u8> = frames_of(Path::new(clip), (w, h))
            .iter()
            .flat_map(|frame| {
                let edge = |x: u32, y: u32| *frame.get_pixel(x.min(w - 1), y.min(h - 1));
                RgbaImage::from_fn(pw, ph, edge).into_raw()
            })
            .collect();
        let rgba = dir.path().join("padded.rgba");
        std::fs::write(&rgba, padded).unwrap();
        let (size, rgba) = (format!("{pw}x{ph}"), rgba.to_str().unwrap());
        let input = ["-f", "rawvideo", "-pix_fmt", "rgba", "-s", &size, "-i", rgba];
        let run = raw(&[&input[..], &["-f", "rawvideo", "-pix_fmt", "yuv420p", "-"]].concat());
        assert!(transcode.len() == run.len() && transcode == run, "{w}x{h} {pixel_format}: {filter}");
    }
    crate::clips::ci::passed();
}
