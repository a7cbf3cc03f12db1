//! A clip's GIF and lossy outputs against the CPU model: an animated GIF in gives a GIF out
//! whose every frame is the model's sort of the frame in; a lossy .mp4 out is the model's sort
//! of every frame within a stated luma PSNR, in order; its sound is the clip's, sample for
//! sample where the stream is copied, of the same length and level where it is re-encoded.
//! Without ffmpeg these tests say so and pass, unless SHADERSORT_REQUIRE_FFMPEG is set.

use super::decoded::{
    chroma_psnr, luma_psnr, planes_of, rgba_as_read, rms, samples_of, sound_start, streams, tone_frequency,
};
use super::gif_frames::gif_frames;
use super::{arg, assert_succeeds};
use crate::clips::{ffmpeg, frames_of, frames_through, have_ffmpeg, lossless_clip};
use image::RgbaImage;
use shadersort::keys::options::SortOptions;
use shadersort::picture::yuv::{Matrix, Yuv420Size, to_yuv420};
use shadersort::reference::stable_sort;
use std::collections::HashSet;
use std::path::Path;

/// An animated GIF in (made by ffmpeg from a lossless clip), an animated GIF out: frame for
/// frame the model's sort of the GIF's frames, each shown as long as the frame it came from
/// (to a hundredth of a second: 30 fps is written as delays of 3 and 4 hundredths, and ffmpeg
/// reads the GIF's rate back as 29.83 fps, so the 4s may fall on other frames).
/// The clip has fewer than 256 colours, so ffmpeg's palette for the output (made from all its
/// frames) holds every one and the GIF is exact despite its dithering.
#[test]
fn an_animated_gif_gives_a_gif_of_every_frame_sorted() {
    if !have_ffmpeg() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let clip = lossless_clip(dir.path(), "clip.mkv", (37, 23), 12, false);
    let gif = dir.path().join("clip.gif");
    ffmpeg(&["-i", arg(&clip), arg(&gif)]);
    let input = gif_frames(&gif);
    assert_eq!(input.len(), 12);
    let colours: HashSet<[u8; 4]> = input.iter().flat_map(|(f, _)| f.pixels().map(|p| p.0)).collect();
    assert!(colours.len() < 256, "{} colours: the GIF out could not be exact", colours.len());
    let sorted_gif = dir.path().join("sorted.gif");
    assert_succeeds(&[arg(&gif), "--algorithm", "radix", "--out", arg(&sorted_gif)], &[]);
    let got = gif_frames(&sorted_gif);
    assert_eq!(got.len(), input.len(), "the GIF keeps its frames");
    let rows = SortOptions::default();
    for (k, ((frame, delay), (shown, shown_for))) in got.iter().zip(&input).enumerate() {
        assert!(*frame == stable_sort(shown, &rows), "frame {k} differs from the CPU model");
        assert!(delay.abs_diff(*shown_for) <= 1, "frame {k} shows {delay} cs, the clip's {shown_for} cs");
    }
    assert!(got.iter().zip(&input).all(|((g, _), (i, _))| g != i), "sorting must change every frame");
    crate::clips::ci::passed();
}

/// The luma PSNR every frame of a lossy output must reach against the model's sort of the
/// clip. Measured here (ffmpeg 5.1's libx264 at shadersort's CRF 18), the frames of both tests
/// below reach 40.1 to 44.7 dB; what a regression would write stays far below: the unsorted
/// frame 14 dB, the next or previous frame in its place (frames out of order) 15 dB, the frame
/// one row out of place (a row dropped or doubled) 21 to 30 dB. 35 dB sits 5 dB clear of both.
pub(super) const LOSSY_PSNR_DB: f64 = 35.0;

/// The chroma PSNR every frame of a lossy output must reach against the model's sort. Measured
/// here (ffmpeg 5.1's libx264 at CRF 18, the clips below) from 36.8 dB (H.264 from H.264) and
/// 40.4 dB (from FFV1) at their worst frames; the model's frame with its
/// two chroma planes swapped, what a regression in the 4:2:0 conversion could write, stays below
/// 11.7 dB at the most (each test checks that its own frames would fail so).
pub(super) const LOSSY_CHROMA_PSNR_DB: f64 = 30.0;

/// Every frame of a lossy output, as decoded 4:2:0, against the model's sort of the clip's
/// frames in `expected` (as RGBA), converted to 4:2:0 (BT.601, as untagged frames are): each
/// frame's luma must reach [`LOSSY_PSNR_DB`] and its chroma [`LOSSY_CHROMA_PSNR_DB`].
fn assert_lossy_frames_match(out: &Path, expected: &[RgbaImage], what: &str) {
    let (w, h) = expected[0].dimensions();
    let size = Yuv420Size { width: w, height: h };
    let got = planes_of(out, size);
    assert_eq!(got.len(), expected.len(), "{what}: the frame count is kept");
    let want: Vec<Vec<u8>> = expected.iter().map(|f| to_yuv420(f, Matrix::Bt601)).collect();
    let n = (w * h) as usize;
    let chroma = (size.bytes() - n) / 2;
    for (k, (planes, want)) in got.iter().zip(&want).enumerate() {
        let psnr = luma_psnr(planes, want, size);
        assert!(psnr >= LOSSY_PSNR_DB, "{what}: frame {k}'s luma is {psnr:.1} dB from the model's sort");
        let colour = chroma_psnr(planes, want, size);
        assert!(
            colour >= LOSSY_CHROMA_PSNR_DB,
            "{what}: frame {k}'s chroma is {colour:.1} dB from the model's sort"
        );
        // The check must tell a swap of the chroma planes from the model.
        let mut swapped = want.clone();
        swapped[n..n + chroma].copy_from_slice(&want[n + chroma..]);
        swapped[n + chroma..].copy_from_slice(&want[n..n + chroma]);
        let swapped_psnr = chroma_psnr(planes, &swapped, size);
        assert!(swapped_psnr < LOSSY_CHROMA_PSNR_DB, "{what}: frame {k}: chroma too grey to tell U from V");
    }
}

/// A lossy H.264 .mp4 with AAC sound in, an .mp4 out: H.264 at the clip's size and rate whose
/// every frame is the model's sort of the clip's frame (as shadersort reads 4:2:0) within
/// [`LOSSY_PSNR_DB`], in order; the AAC stream is copied, so its samples equal the clip's.
#[test]
fn a_lossy_mp4_is_the_sorted_clip_within_its_loss_and_its_aac_is_copied() {
    if !have_ffmpeg() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (w, h) = (64, 48);
    let size = Yuv420Size { width: w, height: h };
    let lossy_in = dir.path().join("lossy.mp4");
    // Scrolled down a tenth of its height a frame, so that frames stay apart once sorted.
    let source = format!("testsrc2=size={w}x{h}:rate=30,scroll=vertical=0.1");
    ffmpeg(&[
        "-f",
        "lavfi",
        "-i",
        &source,
        "-f",
        "lavfi",
        "-i",
        "sine=frequency=300:duration=0.5",
        "-frames:v",
        "15",
        "-c:v",
        "libx264",
        "-pix_fmt",
        "yuv420p",
        "-c:a",
        "aac",
        arg(&lossy_in),
    ]);
    // shadersort reads a 4:2:0 clip's planes and converts them with its own model.
    let input: Vec<RgbaImage> = rgba_as_read(&lossy_in, size);
    assert_eq!(input.len(), 15);
    let sorted: Vec<RgbaImage> = input.iter().map(|f| stable_sort(f, &SortOptions::default())).collect();
    // Frames out of order must show: the scroll keeps each sorted frame far from the next.
    let yuv: Vec<Vec<u8>> = sorted.iter().map(|f| to_yuv420(f, Matrix::Bt601)).collect();
    assert!(yuv.windows(2).all(|p| luma_psnr(&p[0], &p[1], size) < LOSSY_PSNR_DB - 10.0), "frames too alike");
    let lossy_out = dir.path().join("sorted.mp4");
    let (stdout, _) =
        assert_succeeds(&[arg(&lossy_in), "--algorithm", "radix", "--out", arg(&lossy_out)], &[]);
    assert!(stdout.contains("audio copied"), "{stdout}");
    let described = streams(&lossy_out);
    for part in ["h264", "64x48", "30 fps", "Audio: aac"] {
        assert!(described.contains(part), "{part}: {described}");
    }
    assert_lossy_frames_match(&lossy_out, &sorted, "H.264 from H.264");
    let (clip_sound, sound) = (samples_of(&lossy_in, 44100), samples_of(&lossy_out, 44100));
    assert!(!clip_sound.is_empty() && rms(&clip_sound) > 0.05, "the clip must have sound");
    assert!(sound == clip_sound, "the copied AAC decodes to other samples than the clip's");
    crate::clips::ci::passed();
}

/// A lossless clip with PCM sound into an .mp4, which cannot hold PCM: the sound is re-encoded
/// as AAC (with a note), so it is compared by its content, not sample for sample: the clip's
/// tone at its frequency (within 1%), starting where it did (within an AAC frame), as long and
/// as loud; the video is the model's sort within [`LOSSY_PSNR_DB`].
#[test]
fn pcm_sound_into_an_mp4_is_reencoded_keeping_its_length_and_level() {
    if !have_ffmpeg() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let size = (48, 32);
    let clip = lossless_clip(dir.path(), "clip.mkv", size, 12, true);
    let input = frames_of(&clip, size);
    let sorted: Vec<RgbaImage> = input.iter().map(|f| stable_sort(f, &SortOptions::default())).collect();
    let out = dir.path().join("sorted.mp4");
    let (stdout, stderr) = assert_succeeds(&[arg(&clip), "--algorithm", "bitonic", "--out", arg(&out)], &[]);
    assert!(stderr.contains("re-encoded as AAC"), "{stdout}\n{stderr}");
    assert!(streams(&out).contains("Audio: aac"), "{}", streams(&out));
    assert_lossy_frames_match(&out, &sorted, "H.264 from FFV1");
    // The clip's 0.4 s tone at 8 kHz: 3200 samples. AAC codes frames of 1024 samples, so the
    // end is padded up to a whole frame (measured: 4096 samples); the level over the tone's
    // length came within 1% of the clip's (0.0876 against 0.0884), a halved or missing tone
    // would be 50% or more off.
    let (clip_sound, sound) = (samples_of(&clip, 8000), samples_of(&out, 8000));
    assert_eq!(clip_sound.len(), 3200);
    assert!((3200..3200 + 1024).contains(&sound.len()), "{} samples for the clip's 3200", sound.len());
    let (level, clip_level) = (rms(&sound[..3200]), rms(&clip_sound));
    assert!(
        (level / clip_level - 1.0).abs() < 0.05,
        "the sound's level {level:.4} for the clip's {clip_level:.4}"
    );
    let (pitch, clip_pitch) = (tone_frequency(&sound[..3200], 8000), tone_frequency(&clip_sound, 8000));
    assert!((clip_pitch - 440.0).abs() < 1.0, "the clip's tone is at {clip_pitch:.2} Hz, not 440");
    assert!(
        (pitch / clip_pitch - 1.0).abs() < 0.01,
        "the tone is at {pitch:.2} Hz, the clip's at {clip_pitch:.2}"
    );
    let (start, clip_start) = (sound_start(&sound), sound_start(&clip_sound));
    assert!(
        start.abs_diff(clip_start) <= 1024,
        "the tone starts at sample {start}, the clip's at {clip_start}"
    );
    crate::clips::ci::passed();
}

/// Saturated content (ffmpeg's testsrc: colour bars, a gradient and digits, sorted into rows of
/// unlike hues side by side) loses no more in 4:2:0 H.264 through shadersort's RGBA to 4:2:0
/// conversion on the GPU than through ffmpeg's own: the lossy .mkv, decoded to RGB, is at least
/// as close to the model's sort as ffmpeg's encoding of those very frames with the same settings
/// (libx264, CRF 18, 4:2:0, odd sides padded by repeating the edge as shadersort pads), within
/// 0.2 dB of RGB PSNR over the clip. (Against ffmpeg's own 4:2:0 of the frames, plane by
/// plane, shadersort's chroma reads 3 to 4 dB lower: ffmpeg's scaler filters chroma over more
/// than the 2x2 block shadersort averages, so such a measure favours ffmpeg's filter; what a
/// viewer sees is the decoded RGB.)
#[test]
fn saturated_content_loses_no_more_than_through_ffmpegs_own_conversion() {
    if !have_ffmpeg() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for (w, h) in [(64, 48), (34, 18), (33, 17)] {
        let clip = lossless_clip(dir.path(), &format!("testsrc-{w}x{h}.mkv"), (w, h), 10, false);
        let sorted: Vec<RgbaImage> =
            frames_of(&clip, (w, h)).iter().map(|f| stable_sort(f, &SortOptions::default())).collect();
        let ours = dir.path().join(format!("ours-{w}x{h}.mkv"));
        assert_succeeds(&[arg(&clip), "--out", arg(&ours)], &[]);
        let raw = dir.path().join(format!("sorted-{w}x{h}.rgba"));
        std::fs::write(&raw, sorted.iter().flat_map(|f| f.as_raw().iter().copied()).collect::<Vec<u8>>())
            .unwrap();
        let theirs = dir.path().join(format!("ffmpeg-{w}x{h}.mkv"));
        let (even_w, even_h) = (w.next_multiple_of(2), h.next_multiple_of(2));
        let pad = format!(
            "format=gbrp,pad={even_w}:{even_h}:0:0,fillborders=right={}:bottom={}:mode=smear",
            even_w - w,
            even_h - h
        );
        let size = format!("{w}x{h}");
        ffmpeg(&[
            "-f",
            "rawvideo",
            "-pix_fmt",
            "rgba",
            "-s",
            &size,
            "-framerate",
            "30",
            "-i",
            arg(&raw),
            "-vf",
            &pad,
            "-c:v",
            "libx264",
            "-preset",
            "medium",
            "-crf",
            "18",
            "-pix_fmt",
            "yuv420p",
            arg(&theirs),
        ]);
        let crop = format!("crop={w}:{h}:0:0:exact=1");
        let psnr = |video: &Path| rgb_psnr(&frames_through(video, &["-vf", &crop], (w, h)), &sorted);
        let (ours_db, theirs_db) = (psnr(&ours), psnr(&theirs));
        assert!(
            ours_db >= theirs_db - 0.2,
            "{w}x{h}: shadersort's lossy frames are {ours_db:.2} dB from the model's sort, ffmpeg's {theirs_db:.2} dB"
        );
    }
    crate::clips::ci::passed();
}

/// The PSNR in dB of the red, green and blue of `got` against `expected`, over every frame.
fn rgb_psnr(got: &[RgbaImage], expected: &[RgbaImage]) -> f64 {
    assert_eq!(got.len(), expected.len(), "the frame count is kept");
    let (mut squared, mut count) = (0.0, 0usize);
    for (g, e) in got.iter().zip(expected) {
        for (p, q) in g.pixels().zip(e.pixels()) {
            squared += (0..3).map(|c| (f64::from(p[c]) - f64::from(q[c])).powi(2)).sum::<f64>();
            count += 3;
        }
    }
    10.0 * (255.0f64.powi(2) / (squared / count as f64)).log10()
}
