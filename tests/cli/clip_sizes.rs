//! Odd-sided clips (97x61, 33x17, 1x1) keep every pixel in every container: H.264 (.mp4, .mkv)
//! is padded to even sides by repeating the last column and row, said once on stderr with the
//! crop that gives the size back; VP9 (.webm) and FFV1 (`--lossless` .mkv) keep the size. Every
//! frame is the CPU model's sort of the clip's (exactly where lossless, within the luma PSNR of
//! [`LOSSY_PSNR_DB`] where lossy), the padding is the edge repeated, and the sound is kept: the
//! clip's samples where copied, its length and level where re-encoded. An encoder that fails
//! says ffmpeg's own reason. Without ffmpeg these tests say so and pass, unless
//! SHADERSORT_REQUIRE_FFMPEG is set.

use super::clip_outputs::LOSSY_PSNR_DB;
use super::decoded::{assert_frames_equal, luma_psnr, planes_of, planes_through, rms, samples_of, streams};
use super::{arg, assert_fails, assert_succeeds};
use crate::clips::{frames_of, have_ffmpeg, lossless_clip};
use image::RgbaImage;
use shadersort::keys::options::SortOptions;
use shadersort::picture::yuv::{Matrix, Yuv420Size, to_yuv420};
use shadersort::reference::stable_sort;
use std::path::Path;

/// The clip's tone is sampled at 8 kHz (see [`lossless_clip`]).
const TONE_RATE: u32 = 8000;

#[test]
fn a_97x61_clip_keeps_every_pixel_in_mp4_webm_and_mkv() {
    odd_clip_keeps_every_pixel((97, 61), 4);
    crate::clips::ci::passed();
}

#[test]
fn a_33x17_clip_keeps_every_pixel_in_mp4_webm_and_mkv() {
    odd_clip_keeps_every_pixel((33, 17), 4);
    crate::clips::ci::passed();
}

#[test]
fn a_1x1_clip_keeps_its_pixel_in_mp4_webm_and_mkv() {
    odd_clip_keeps_every_pixel((1, 1), 3);
    crate::clips::ci::passed();
}

/// A lossless clip of `size` with a PCM tone, sorted by default settings (as a new user would)
/// into each container: the report states the clip's size (and the padding), the note comes
/// once exactly when the video is padded, and the video, its padding and its sound are checked.
fn odd_clip_keeps_every_pixel(size: (u32, u32), frames: u32) {
    if !have_ffmpeg() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let clip = lossless_clip(dir.path(), "clip.mkv", size, frames, true);
    let sorted: Vec<RgbaImage> =
        frames_of(&clip, size).iter().map(|f| stable_sort(f, &SortOptions::default())).collect();
    assert_eq!(sorted.len(), frames as usize);
    let (w, h) = size;
    let even = (w.next_multiple_of(2), h.next_multiple_of(2));
    // (output, --lossless, H.264 and so padded, the sound copied)
    let outputs = [
        ("lossless.mkv", true, false, true),
        ("lossy.mkv", false, true, true),
        ("lossy.mp4", false, true, false),
        ("lossy.webm", false, false, false),
    ];
    for (name, lossless, h264, copied) in outputs {
        let out = dir.path().join(name);
        let mut args = vec![arg(&clip), "--out", arg(&out)];
        args.extend(lossless.then_some("--lossless"));
        let (stdout, stderr) = assert_succeeds(&args, &[]);
        let video = if h264 { even } else { size };
        let padded = video != size;
        let said =
            if padded { format!(" (padded to {}x{} in the video) at", even.0, even.1) } else { " at".into() };
        let report = format!("sorted {frames} frames of {w}x{h}{said}");
        assert!(stdout.contains(&report), "{name}: {report:?} in {stdout}");
        let notes: Vec<&str> = stderr.lines().filter(|l| l.contains("is odd-sided")).collect();
        assert_eq!(notes.len(), usize::from(padded), "{name}: one note when padded\n{stderr}");
        let described = streams(&out);
        assert!(described.contains(&format!(", {}x{}", video.0, video.1)), "{name}: {described}");
        if lossless {
            assert_frames_equal(&frames_of(&out, size), &sorted, name);
        } else {
            assert_lossy_frames_keep_every_pixel(&out, &sorted, video, name);
        }
        if let Some(note) = notes.first() {
            assert_crop_gives_the_frames_back(&out, note, sorted.len(), size, even);
        }
        assert_sound_kept(&clip, &out, copied, name);
    }
}

/// The luma of a lossy output decoded at its `video` size: its `w` x `h` corner is the model's
/// sort within [`LOSSY_PSNR_DB`], and the padding beyond it is within as much of the edge pixels
/// it repeats (a black padding is 5 to 14 dB from them).
fn assert_lossy_frames_keep_every_pixel(out: &Path, sorted: &[RgbaImage], video: (u32, u32), what: &str) {
    let (w, h) = sorted[0].dimensions();
    let planes = planes_of(out, Yuv420Size { width: video.0, height: video.1 });
    assert_eq!(planes.len(), sorted.len(), "{what}: the frame count is kept");
    let luma = |plane: &[u8], x: u32, y: u32| plane[(y * video.0 + x) as usize];
    for (k, (got, frame)) in planes.iter().zip(sorted).enumerate() {
        let want = model_luma(frame);
        let psnr = luma_psnr(&corner(got, video.0, (w, h)), &want, Yuv420Size { width: w, height: h });
        assert!(psnr >= LOSSY_PSNR_DB, "{what}: frame {k}'s luma is {psnr:.1} dB from the model's sort");
        let padding: Vec<(u32, u32)> = (0..video.1)
            .flat_map(|y| (0..video.0).map(move |x| (x, y)))
            .filter(|&(x, y)| x >= w || y >= h)
            .collect();
        if padding.is_empty() {
            continue;
        }
        let pad: Vec<u8> = padding.iter().map(|&(x, y)| luma(got, x, y)).collect();
        let edge: Vec<u8> = padding.iter().map(|&(x, y)| luma(got, x.min(w - 1), y.min(h - 1))).collect();
        let strip = Yuv420Size { width: pad.len() as u32, height: 1 };
        let psnr = luma_psnr(&pad, &edge, strip);
        assert!(
            psnr >= LOSSY_PSNR_DB,
            "{what}: frame {k}'s padding is {psnr:.1} dB from the edge it repeats"
        );
    }
}

/// The luma plane of the model's `frame` as 4:2:0 of untagged video (BT.601), which needs even
/// sides: the frame is converted with its edge repeated and the luma cropped back.
fn model_luma(frame: &RgbaImage) -> Vec<u8> {
    let (w, h) = frame.dimensions();
    let (ew, eh) = (w.next_multiple_of(2), h.next_multiple_of(2));
    let even = RgbaImage::from_fn(ew, eh, |x, y| *frame.get_pixel(x.min(w - 1), y.min(h - 1)));
    corner(&to_yuv420(&even, Matrix::Bt601), ew, (w, h))
}

/// The top left `w` x `h` of a plane `stride` bytes wide.
fn corner(plane: &[u8], stride: u32, (w, h): (u32, u32)) -> Vec<u8> {
    (0..h).flat_map(|y| &plane[(y * stride) as usize..][..w as usize]).copied().collect()
}

/// The crop the note names gives every frame back at the clip's size: decoded through it, each
/// frame's luma is the padded video's, decoded whole, cut to the clip's size in the test (ffmpeg's
/// crop without `exact=1` would round an odd size down on 4:2:0).
fn assert_crop_gives_the_frames_back(
    out: &Path,
    note: &str,
    frames: usize,
    (w, h): (u32, u32),
    even: (u32, u32),
) {
    let crop = note.split("-vf ").nth(1).and_then(|rest| rest.split_whitespace().next());
    let crop = crop.unwrap_or_else(|| panic!("the note names no crop filter: {note}"));
    let cropped = planes_through(out, &["-vf", crop], Yuv420Size { width: w, height: h });
    let whole = planes_of(out, Yuv420Size { width: even.0, height: even.1 });
    assert_eq!((cropped.len(), whole.len()), (frames, frames), "{} through {crop}", out.display());
    for (k, (cropped, whole)) in cropped.iter().zip(&whole).enumerate() {
        let cut = corner(whole, even.0, (w, h));
        assert!(
            cropped[..cut.len()] == cut,
            "{} through {crop}: frame {k} is not the video's corner",
            out.display()
        );
    }
}

/// The output's sound against the clip's: sample for sample where `copied`, else (AAC in .mp4,
/// Opus in .webm) at least as long and within 5% of its level over the clip's length (a
/// halved or missing tone is 50% or more off).
fn assert_sound_kept(clip: &Path, out: &Path, copied: bool, what: &str) {
    let (want, got) = (samples_of(clip, TONE_RATE), samples_of(out, TONE_RATE));
    assert!(!want.is_empty() && rms(&want) > 0.05, "the clip must have sound");
    if copied {
        assert!(got == want, "{what}: the copied sound decodes to other samples than the clip's");
        return;
    }
    assert!(got.len() >= want.len(), "{what}: {} samples for the clip's {}", got.len(), want.len());
    let (level, clip_level) = (rms(&got[..want.len()]), rms(&want));
    assert!(
        (level / clip_level - 1.0).abs() < 0.05,
        "{what}: the level {level:.4} for the clip's {clip_level:.4}"
    );
}

/// An encoder that cannot take the frames (H.261 takes only 176x144 and 352x288) fails in one
/// line carrying ffmpeg's own reason, not ffmpeg's "Error initializing output stream" wrapper,
/// and leaves nothing.
#[test]
fn an_encoder_that_fails_says_ffmpegs_reason() {
    if !have_ffmpeg() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let clip = lossless_clip(dir.path(), "clip.mkv", (33, 17), 2, false);
    let out = dir.path().join("sorted.avi");
    let expected = [
        "cannot write",
        "ffmpeg failed (h261: The specified picture size of 33x17 is not valid for the H.261 codec",
        "nothing was written",
    ];
    let line = assert_fails(&[arg(&clip), "--codec", "h261", "--out", arg(&out)], &[], dir.path(), &expected);
    assert!(!line.contains("Error initializing") && !line.contains("maybe incorrect parameters"), "{line}");
    crate::clips::ci::passed();
}
