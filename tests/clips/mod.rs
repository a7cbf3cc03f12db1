//! Clips for the tests, made by ffmpeg's test sources, and their frames as ffmpeg decodes
//! them. Without ffmpeg the tests that need it say so and pass, unless
//! SHADERSORT_REQUIRE_FFMPEG=1 (CI sets it).

use image::RgbaImage;
use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "../common/ci.rs"]
pub mod ci;

/// Whether ffmpeg runs here; panics when it must (SHADERSORT_REQUIRE_FFMPEG=1). When it runs,
/// its version goes into the test ledger: the caller goes on to use it.
pub fn have_ffmpeg() -> bool {
    let required = ci::switch("SHADERSORT_REQUIRE_FFMPEG", "fail when ffmpeg is missing");
    let out = Command::new("ffmpeg").arg("-version").output();
    let Some(out) = out.ok().filter(|o| o.status.success()) else {
        assert!(!required, "SHADERSORT_REQUIRE_FFMPEG=1 but ffmpeg does not run (apt install ffmpeg)");
        eprintln!("skipped: ffmpeg is not on PATH");
        return false;
    };
    let version = String::from_utf8_lossy(&out.stdout);
    let version =
        version.lines().next().unwrap_or("of no version").split(" Copyright").next().unwrap_or_default();
    ci::ran("ffmpeg", version);
    true
}

/// Runs ffmpeg quietly with `args`, which must succeed.
pub fn ffmpeg(args: &[&str]) {
    let out = Command::new("ffmpeg").args(["-v", "error", "-nostdin", "-y"]).args(args).output().unwrap();
    assert!(out.status.success(), "ffmpeg {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// A lossless test clip (FFV1 of RGB in Matroska) of `frames` frames at 30 fps, with a sine
/// tone as long as the video when `sound`.
pub fn lossless_clip(dir: &Path, name: &str, (w, h): (u32, u32), frames: u32, sound: bool) -> PathBuf {
    let path = dir.join(name);
    let source = format!("testsrc=size={w}x{h}:rate=30");
    let mut args = vec!["-f", "lavfi", "-i", &source];
    let tone = format!("sine=frequency=440:sample_rate=8000:duration={}", f64::from(frames) / 30.0);
    if sound {
        args.extend(["-f", "lavfi", "-i", &tone, "-c:a", "pcm_s16le"]);
    }
    let count = frames.to_string();
    args.extend(["-frames:v", &count, "-c:v", "ffv1", "-pix_fmt", "bgr0", path.to_str().unwrap()]);
    ffmpeg(&args);
    path
}

/// Every frame of a video, decoded to RGBA by ffmpeg.
pub fn frames_of(path: &Path, size: (u32, u32)) -> Vec<RgbaImage> {
    frames_through(path, &[], size)
}

/// Every frame of a video as RGBA of `(w, h)`, decoded by ffmpeg through the output arguments
/// `filter` (such as the `-vf scale=...` shadersort downscales a clip with).
pub fn frames_through(path: &Path, filter: &[&str], (w, h): (u32, u32)) -> Vec<RgbaImage> {
    let out = Command::new("ffmpeg")
        .args(["-v", "error", "-nostdin", "-i", path.to_str().unwrap(), "-map", "0:v:0", "-f", "rawvideo"])
        .args(filter)
        .args(["-pix_fmt", "rgba", "-"])
        .output()
        .unwrap();
    assert!(out.status.success(), "decoding {}: {}", path.display(), String::from_utf8_lossy(&out.stderr));
    let frame = (w * h * 4) as usize;
    assert_eq!(out.stdout.len() % frame, 0, "{}: whole frames of {w}x{h}", path.display());
    out.stdout.chunks(frame).map(|c| RgbaImage::from_raw(w, h, c.to_vec()).unwrap()).collect()
}
