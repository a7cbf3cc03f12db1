//! Any sound into any container: a clip with each common sound codec (AAC, Opus, Vorbis, FLAC,
//! MP3, PCM) sorted into each common container (.mp4, .mov, .mkv, .webm, .avi) keeps its sound,
//! copied packet for packet where the run says it copied it, re-encoded to the container's usual
//! codec (with a note) where it says it re-encoded it, and as long as the clip's either way.

use super::decoded::{rms, samples_of, streams};
use super::{arg, assert_succeeds};
use crate::clips::{ffmpeg, have_ffmpeg};
use std::path::Path;
use std::process::Command;

/// The clips' sound: a 440 Hz tone at a rate every one of these codecs takes.
const RATE: u32 = 48_000;

/// The containers, each with the codec (as ffmpeg names it) a sound it does not take becomes.
const CONTAINERS: [(&str, &str); 5] =
    [("mp4", "aac"), ("mov", "aac"), ("mkv", "-"), ("webm", "opus"), ("avi", "pcm_s16le")];

/// Whether every ffmpeg from 4.2 on must copy `codec` into `.ext`: the standard pairs that play
/// everywhere (the rest depend on the ffmpeg's version and may be either).
fn always_copied(ext: &str, codec: &str) -> bool {
    match ext {
        "mkv" => true,
        "mp4" => matches!(codec, "aac" | "mp3"),
        "mov" => matches!(codec, "aac" | "mp3" | "pcm_s16le"),
        "webm" => matches!(codec, "opus" | "vorbis"),
        "avi" => matches!(codec, "mp3" | "pcm_s16le"),
        _ => unreachable!("a container of CONTAINERS"),
    }
}

#[test]
fn aac_sound_goes_into_every_container() {
    sound_goes_into_every_container("aac", "aac");
}

#[test]
fn opus_sound_goes_into_every_container() {
    sound_goes_into_every_container("libopus", "opus");
}

#[test]
fn vorbis_sound_goes_into_every_container() {
    sound_goes_into_every_container("libvorbis", "vorbis");
}

#[test]
fn flac_sound_goes_into_every_container() {
    sound_goes_into_every_container("flac", "flac");
}

#[test]
fn mp3_sound_goes_into_every_container() {
    sound_goes_into_every_container("libmp3lame", "mp3");
}

#[test]
fn pcm_sound_goes_into_every_container() {
    sound_goes_into_every_container("pcm_s16le", "pcm_s16le");
}

/// A 16x16 lossless clip of 12 frames with a tone encoded by `encoder` (ffmpeg's `codec`),
/// sorted into each container; the output is checked with the ffmpeg on PATH, whichever
/// ffmpeg the run itself was given (`SHADERSORT_FFMPEG`).
fn sound_goes_into_every_container(encoder: &str, codec: &str) {
    if !have_ffmpeg() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let clip = dir.path().join(format!("{codec}.mkv"));
    let tone = format!("sine=frequency=440:sample_rate={RATE}:duration=0.4");
    ffmpeg(&[
        "-f",
        "lavfi",
        "-i",
        "testsrc=size=16x16:rate=30",
        "-f",
        "lavfi",
        "-i",
        &tone,
        "-frames:v",
        "12",
        "-c:v",
        "ffv1",
        "-c:a",
        encoder,
        arg(&clip),
    ]);
    assert!(streams(&clip).contains(&format!("Audio: {codec}")), "the clip's sound is {codec}");
    for (ext, usual) in CONTAINERS {
        let out = dir.path().join(format!("sorted.{ext}"));
        let what = format!("{codec} into .{ext}");
        let (stdout, stderr) = assert_succeeds(&[arg(&clip), "--out", arg(&out)], &[]);
        let copied = stdout.contains("audio copied");
        assert!(copied || stdout.contains("audio re-encoded"), "{what}: how the sound went in\n{stdout}");
        let kept = audio_codec(&out).unwrap_or_else(|| panic!("{what}: no sound in the output"));
        let notes: Vec<&str> = stderr.lines().filter(|l| l.contains("re-encoded as")).collect();
        if copied {
            assert_eq!(kept, codec, "{what}: the copied sound's codec");
            assert!(notes.is_empty(), "{what}: copied, yet a note says re-encoded\n{stderr}");
            assert!(
                packets(&out) == packets(&clip),
                "{what}: the copied sound's packets differ from the clip's"
            );
        } else {
            assert!(!always_copied(ext, codec), "{what}: every ffmpeg takes this pair as it is\n{stderr}");
            assert_eq!(kept, usual, "{what}: re-encoded to the container's usual codec");
            assert_eq!(notes.len(), 1, "{what}: one note says the sound was re-encoded\n{stderr}");
        }
        assert_same_length_and_level(&clip, &out, &what);
        std::fs::remove_file(&out).unwrap();
    }
    crate::clips::ci::passed();
}

/// The codec of a file's first audio stream, as ffmpeg names it.
fn audio_codec(path: &Path) -> Option<String> {
    let described = streams(path);
    let (_, rest) = described.split_once(": Audio: ")?;
    Some(rest.split(|c: char| c.is_whitespace() || c == ',').next()?.to_string())
}

/// The first audio stream's packets, each as its size and checksum (ffmpeg's `framecrc`
/// muxer reads them without decoding); their timestamps and side data are left out, for
/// containers count time in different units and note an encoder's priming in their own ways.
fn packets(path: &Path) -> Vec<String> {
    let out = Command::new("ffmpeg")
        .args([
            "-v",
            "error",
            "-nostdin",
            "-i",
            arg(path),
            "-map",
            "0:a:0",
            "-c",
            "copy",
            "-f",
            "framecrc",
            "-",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}: {}", path.display(), String::from_utf8_lossy(&out.stderr));
    let listing = String::from_utf8_lossy(&out.stdout);
    let fields = |line: &str| line.split(',').skip(4).take(2).map(str::trim).collect::<Vec<_>>().join(",");
    listing.lines().filter(|l| !l.starts_with('#')).map(fields).collect()
}

/// The output's sound lasts as long as the clip's, within one codec frame and the priming an
/// encoder or a container adds (2048 samples, 43 ms: AAC's frames are 1024 samples, MP3's
/// priming without the container's note of it about 1100), at the clip's level within 5% (a
/// halved or missing tone is 50% or more off).
fn assert_same_length_and_level(clip: &Path, out: &Path, what: &str) {
    let (want, got) = (samples_of(clip, RATE), samples_of(out, RATE));
    assert!(!want.is_empty() && rms(&want) > 0.05, "{what}: the clip must have sound");
    assert!(
        got.len().abs_diff(want.len()) <= 2048,
        "{what}: {} samples for the clip's {}",
        got.len(),
        want.len()
    );
    let common = got.len().min(want.len());
    let (level, clip_level) = (rms(&got[..common]), rms(&want[..common]));
    assert!(
        (level / clip_level - 1.0).abs() < 0.05,
        "{what}: the level {level:.4} for the clip's {clip_level:.4}"
    );
}
