//! The ffmpeg a clip is read and written with: one too old, one without an encoder the output
//! needs, and one that refuses an argument are each reported in one line that says so, before
//! anything is read or written. The ffmpegs here are shell scripts standing in for real ones
//! (a banner of another version, a list of encoders without one, a refusal worded as ffmpeg
//! words it) and passing everything else to the real ffmpeg; each logs what it was asked.
#![cfg(unix)]

use super::{arg, assert_fails};
use crate::clips::{have_ffmpeg, lossless_clip};
use std::path::{Path, PathBuf};

/// The ffmpeg the stand-ins pass on to: the one the tests hand the binary, else the one on PATH.
fn real_ffmpeg() -> String {
    std::env::var("SHADERSORT_FFMPEG").ok().filter(|p| !p.is_empty()).unwrap_or_else(|| "ffmpeg".into())
}

/// A stand-in ffmpeg at `dir/ffmpeg` that appends its arguments to `dir/asked`, then runs the
/// shell `body` with the real ffmpeg in `$real`.
fn stand_in(dir: &Path, body: &str) -> PathBuf {
    let path = dir.join("ffmpeg");
    let asked = dir.join("asked");
    let script =
        format!("#!/bin/sh\necho \"$*\" >>'{}'\nreal='{}'\n{body}\n", asked.display(), real_ffmpeg());
    std::fs::write(&path, script).unwrap();
    std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    path
}

/// What the stand-in in `dir` was asked, a line a run.
fn asked(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("asked")).unwrap_or_default().lines().map(String::from).collect()
}

/// ffmpeg 4.1 (libavutil 56.22, older than the 4.2 shadersort needs) is refused by its version
/// when it is asked what it is: it is never asked to read the clip.
#[test]
fn an_ffmpeg_older_than_4_2_is_refused_before_the_clip_is_read() {
    if !have_ffmpeg() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let clip = lossless_clip(dir.path(), "clip.mkv", (8, 6), 2, false);
    let bin = tempfile::tempdir().unwrap();
    let banner = "ffmpeg version 4.1.3 Copyright (c) 2000-2019 the FFmpeg developers\n  libavutil      56. 22.100 / 56. 22.100";
    let old = stand_in(bin.path(), &format!("echo '{banner}' >&2\nexit 0"));
    let out = dir.path().join("sorted.mp4");
    let expected = [
        "cannot use ffmpeg",
        &format!("'{}' (version 4.1.3): shadersort needs ffmpeg 4.2 or newer", old.display()),
        "--ffmpeg PATH",
    ];
    assert_fails(
        &[arg(&clip), "--out", arg(&out)],
        &[("SHADERSORT_FFMPEG", arg(&old))],
        dir.path(),
        &expected,
    );
    assert_eq!(asked(bin.path()), ["-encoders"], "only its version was asked");
    crate::clips::ci::passed();
}

/// An ffmpeg built without libx264 is refused for an .mp4 in one line naming the encoder, and
/// is never asked to encode; the note that the clip's PCM sound would become AAC is not
/// printed beside the refusal; a .mkv of FFV1 (`--lossless`) it can write goes on.
#[test]
fn an_ffmpeg_without_the_encoder_an_output_needs_is_refused_naming_it() {
    if !have_ffmpeg() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let clip = lossless_clip(dir.path(), "clip.mkv", (8, 6), 2, true);
    let bin = tempfile::tempdir().unwrap();
    let body =
        "case \"$*\" in\n*-encoders*) \"$real\" \"$@\" | grep -v libx264;;\n*) exec \"$real\" \"$@\";;\nesac";
    let without = stand_in(bin.path(), body);
    let envs = [("SHADERSORT_FFMPEG", arg(&without))];
    let out = dir.path().join("sorted.mp4");
    let expected = [
        &format!("cannot write '{}'", out.display()),
        "has no libx264 encoder, which a .mp4 output needs",
        "another container or --codec",
    ];
    assert_fails(&[arg(&clip), "--out", arg(&out)], &envs, dir.path(), &expected);
    let stderr = String::from_utf8(super::run(&[arg(&clip), "--out", arg(&out)], &envs).stderr).unwrap();
    assert!(!stderr.contains("note:"), "a note beside the refusal: {stderr}");
    assert!(
        !asked(bin.path()).iter().any(|a| a.contains("pipe:0") || a.contains("rawvideo")),
        "nothing was decoded or encoded: {:?}",
        asked(bin.path())
    );
    let exact = dir.path().join("sorted.mkv");
    super::assert_succeeds(&[arg(&clip), "--lossless", "--out", arg(&exact)], &envs);
    assert!(exact.is_file());
    crate::clips::ci::passed();
}

/// An ffmpeg that refuses an argument of the decoder's (as 4.2 refused `-fps_mode`) is reported
/// as ffmpeg refusing it, in its own words, never as a broken clip.
#[test]
fn an_argument_ffmpeg_refuses_is_reported_as_its_refusal_not_a_broken_clip() {
    if !have_ffmpeg() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let clip = lossless_clip(dir.path(), "clip.mkv", (8, 6), 2, false);
    let bin = tempfile::tempdir().unwrap();
    let refusal = "Unrecognized option 'xerror'.\nError splitting the argument list: Option not found";
    let body = format!(
        "case \"$*\" in\n*rawvideo*) printf '%s\\n' \"{refusal}\" >&2; exit 1;;\n*) exec \"$real\" \"$@\";;\nesac"
    );
    let refusing = stand_in(bin.path(), &body);
    let out = dir.path().join("sorted.mkv");
    let expected = [
        "refused an argument shadersort gave it",
        &format!("('{}')", refusing.display()),
        "(Unrecognized option 'xerror'; Error splitting the argument list: Option not found)",
        "nothing was written",
    ];
    let envs = [("SHADERSORT_FFMPEG", arg(&refusing))];
    let line = assert_fails(&[arg(&clip), "--out", arg(&out)], &envs, dir.path(), &expected);
    assert!(!line.contains("breaks off") && !line.contains("re-export"), "the clip is not blamed: {line}");
    crate::clips::ci::passed();
}
