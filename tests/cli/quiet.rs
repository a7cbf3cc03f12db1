//! A run that opens no window prints nothing on standard error but its own lines, even without
//! a desktop session (`XDG_RUNTIME_DIR` empty): no loader, EGL or Wayland chatter (Mesa's Vulkan
//! device-select layer used to print libwayland's "XDG_RUNTIME_DIR is invalid" twice).

use super::{arg, assert_succeeds};
use crate::clips::{have_ffmpeg, lossless_clip};

/// How each of shadersort's own standard error lines starts: its notes (a downscaled picture, a
/// re-encoded sound, a padded clip) and its progress lines ("sorting: ...").
const OWN: [&str; 2] = ["note: ", "sorting: "];

#[test]
fn headless_runs_print_only_their_own_lines_without_a_desktop_session() {
    let dir = tempfile::tempdir().unwrap();
    let still = dir.path().join("sorted.png");
    let mut runs = vec![vec!["--passes", "3", "--out", arg(&still)]];
    // A clip whose PCM sound an .mp4 re-encodes: one note of shadersort's own is expected.
    let clip = have_ffmpeg().then(|| lossless_clip(dir.path(), "clip.mkv", (16, 8), 3, true));
    let video = dir.path().join("sorted.mp4");
    if let Some(clip) = &clip {
        runs.push(vec![arg(clip), "--out", arg(&video)]);
    }
    for backend in ["vulkan", "gl"] {
        for args in &runs {
            let envs = [("XDG_RUNTIME_DIR", ""), ("WAYLAND_DISPLAY", ""), ("WGPU_BACKEND", backend)];
            let (_, stderr) = assert_succeeds(args, &envs);
            let foreign: Vec<&str> =
                stderr.lines().filter(|l| !OWN.iter().any(|own| l.starts_with(own))).collect();
            assert!(
                foreign.is_empty(),
                "shadersort {args:?} on {backend} printed lines not its own: {foreign:?}"
            );
            if clip.is_some() && args.contains(&arg(&video)) {
                assert!(stderr.contains("note: .mp4 does not take"), "the sound's note is kept: {stderr}");
            }
        }
    }
    crate::clips::ci::passed();
}
