//! `bench video` on a tiny clip with sound: the row of ffmpeg encoding the sorted frames alone
//! is there, given every sorted frame as 4:2:0 with the whole run's encoder arguments, its
//! seconds and frames/s agree, and the whole run's row states its ratio to that row and to the
//! transcode. A benchmark is a command, not a timed test: no speed is asserted. Without ffmpeg
//! this test says so and passes, unless SHADERSORT_REQUIRE_FFMPEG is set.

use super::{arg, assert_succeeds};
use crate::clips::{have_ffmpeg, lossless_clip};

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

#[test]
fn bench_video_times_the_encoder_alone_on_the_sorted_frames() {
    if !have_ffmpeg() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let frames = 8.0;
    let clip = lossless_clip(dir.path(), "clip.mkv", (32, 24), 8, true);
    let (stdout, _) = assert_succeeds(&["bench", "video", arg(&clip), "--runs", "1"], &[]);
    let given = "the encoder alone is given 8 4:2:0 frames from memory and the clip's audio, encoding with: -c:v libx264 -preset medium -crf 18 -pix_fmt yuv420p";
    assert!(stdout.contains(given), "{stdout}");
    let encode = cells(&stdout, "ffmpeg encoding the sorted frames alone (4:2:0 from memory)");
    let (seconds, fps): (f64, f64) = (encode[2].parse().unwrap(), encode[3].parse().unwrap());
    assert!(seconds > 0.0 && seconds < 60.0, "{encode:?}");
    // Rounded to a millisecond and a tenth of a frame per second.
    assert!((fps * seconds / frames - 1.0).abs() < 0.05, "{encode:?}");
    let transcode = cells(&stdout, "ffmpeg transcode, libx264 crf 18 medium");
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
}
