//! How a sorted clip is encoded: the video codec and its settings for the output's container
//! (or the exact one `--lossless` asks for), and whether the audio stream can be copied into it
//! unchanged.

use super::error::ClipError;
use crate::settings::EncodeChoice;
use std::path::Path;

/// The quality H.264 is written at unless `--crf` says: visually lossless for most material.
pub const H264_CRF: u32 = 18;
/// The quality VP9 is written at unless `--crf` says.
pub const VP9_CRF: u32 = 31;

/// The output arguments for the video stream of a `width` x `height` clip written to `path`,
/// and a note for the user when a choice needs explaining.
pub fn video_args(
    path: &Path,
    choice: &EncodeChoice,
    (width, height): (u32, u32),
    has_alpha: bool,
) -> Result<(Vec<String>, Option<String>), ClipError> {
    let ext = extension(path);
    let args = |s: &[&str]| s.iter().map(|a| a.to_string()).collect::<Vec<_>>();
    let animated_png = args(&["-c:v", "apng", "-plays", "0", "-pix_fmt", "rgba", "-f", "apng"]);
    if choice.lossless {
        if choice.codec.is_some() || choice.crf.is_some() {
            return Err(ClipError::Choice(
                "--lossless chooses the codec itself; drop --codec and --crf".into(),
            ));
        }
        return match ext.as_str() {
            "mkv" | "avi" | "nut" => Ok((args(&["-c:v", "ffv1", "-level", "3", "-pix_fmt", "bgra"]), None)),
            "mov" => Ok((args(&["-c:v", "png", "-pix_fmt", "rgba"]), None)),
            "png" | "apng" => Ok((animated_png, None)),
            _ => Err(ClipError::NoLosslessCodec { path: path.into(), ext }),
        };
    }
    let crf = |default: u32| choice.crf.unwrap_or(default).to_string();
    if let Some(codec) = &choice.codec {
        let mut out = args(&["-c:v", codec]);
        if choice.crf.is_some() {
            out.extend(["-crf".into(), crf(0)]);
        }
        return Ok((out, None));
    }
    let odd = width % 2 == 1 || height % 2 == 1;
    match ext.as_str() {
        "mp4" | "m4v" | "mov" | "mkv" | "avi" => {
            // 4:2:0 needs even sides; 4:4:4 keeps an odd size (fewer players take it).
            let chroma = if odd { "yuv444p" } else { "yuv420p" };
            let note = odd.then(|| {
                format!(
                    "note: {width}x{height} has an odd side, so the H.264 video is 4:4:4 to keep the size (some players need even sides; --codec or an even --max-size avoid it)"
                )
            });
            let mut out = args(&["-c:v", "libx264", "-preset", "medium", "-crf"]);
            out.extend([crf(H264_CRF), "-pix_fmt".into(), chroma.into()]);
            if matches!(ext.as_str(), "mp4" | "m4v" | "mov") {
                out.extend(["-movflags".into(), "+faststart".into()]);
            }
            Ok((out, note))
        }
        "webm" => {
            let mut out = args(&["-c:v", "libvpx-vp9", "-b:v", "0", "-row-mt", "1", "-crf"]);
            out.extend([
                crf(VP9_CRF),
                "-pix_fmt".into(),
                if has_alpha { "yuva420p" } else { "yuv420p" }.into(),
            ]);
            Ok((out, None))
        }
        // One palette for the whole clip, made from all its frames.
        "gif" => Ok((
            args(&[
                "-filter_complex",
                "[0:v]split[a][b];[a]palettegen=stats_mode=full[p];[b][p]paletteuse=dither=sierra2_4a",
                "-loop",
                "0",
            ]),
            None,
        )),
        "png" | "apng" => Ok((animated_png, None)),
        // Any other container: ffmpeg's usual encoder for it.
        _ => Ok((choice.crf.map(|_| vec!["-crf".into(), crf(0)]).unwrap_or_default(), None)),
    }
}

/// Whether an encoder given `video_args` for frames of `width` x `height` writes 8-bit 4:2:0
/// that it can be handed as such: the arguments ask for `yuv420p` without a filter, and the
/// sides are even (the GPU's conversion takes 2x2 blocks).
pub fn takes_yuv420(video_args: &[String], (width, height): (u32, u32)) -> bool {
    let asks = video_args.windows(2).any(|w| w[0] == "-pix_fmt" && w[1] == "yuv420p");
    let filtered = video_args.iter().any(|a| a.starts_with("-filter") || a == "-vf");
    asks && !filtered && width % 2 == 0 && height % 2 == 0
}

/// The output arguments for the clip's first audio stream (`codec`), copied unchanged where the
/// container holds it, else re-encoded to the container's usual codec (with a note), and
/// `None` for outputs without sound.
pub fn audio_args(path: &Path, codec: &str) -> (Vec<String>, Option<String>) {
    let ext = extension(path);
    let copy = |fits: bool, instead: &str, name: &str| {
        if fits {
            (vec!["-c:a".to_string(), "copy".into()], None)
        } else {
            let note =
                format!("note: .{ext} cannot hold the clip's {codec} audio, so it was re-encoded as {name}");
            (vec!["-c:a".to_string(), instead.into()], Some(note))
        }
    };
    let pcm = codec.starts_with("pcm_");
    match ext.as_str() {
        "gif" | "png" | "apng" => {
            (Vec::new(), Some(format!("note: the clip's audio is not kept: .{ext} has no sound")))
        }
        "mkv" | "nut" => copy(true, "", ""),
        "mp4" | "m4v" => {
            copy(matches!(codec, "aac" | "mp3" | "alac" | "ac3" | "eac3" | "opus" | "flac"), "aac", "AAC")
        }
        "mov" => copy(pcm || matches!(codec, "aac" | "mp3" | "alac" | "ac3" | "eac3"), "aac", "AAC"),
        "webm" => copy(matches!(codec, "opus" | "vorbis"), "libopus", "Opus"),
        "avi" => copy(pcm || matches!(codec, "mp3" | "ac3" | "aac"), "pcm_s16le", "PCM"),
        _ => copy(true, "", ""),
    }
}

/// The path's extension, lower case.
pub fn extension(path: &Path) -> String {
    path.extension().map(|e| e.to_string_lossy().to_lowercase()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lossless_picks_an_exact_codec_or_says_which_containers_have_one() {
        let lossless = EncodeChoice { lossless: true, ..Default::default() };
        let (args, _) = video_args(Path::new("a.MKV"), &lossless, (3, 3), false).unwrap();
        assert_eq!(args[..2], ["-c:v", "ffv1"]);
        let e = video_args(Path::new("a.mp4"), &lossless, (4, 4), false).unwrap_err().to_string();
        assert!(e.contains("'a.mp4'") && e.contains(".mkv"), "{e}");
        let both = EncodeChoice { codec: Some("libx265".into()), ..lossless };
        assert!(video_args(Path::new("a.mkv"), &both, (4, 4), false).is_err());
    }

    #[test]
    fn h264_keeps_an_odd_size_in_444_and_says_so() {
        let (even, note) = video_args(Path::new("a.mp4"), &EncodeChoice::default(), (64, 48), false).unwrap();
        assert!(even.windows(2).any(|w| w == ["-pix_fmt", "yuv420p"]) && note.is_none());
        assert!(even.windows(2).any(|w| w == ["-crf", "18"]));
        let (odd, note) = video_args(Path::new("a.mp4"), &EncodeChoice::default(), (37, 23), false).unwrap();
        assert!(odd.windows(2).any(|w| w == ["-pix_fmt", "yuv444p"]) && note.is_some());
        let mine = EncodeChoice { codec: Some("libx265".into()), crf: Some(24), lossless: false };
        let (args, _) = video_args(Path::new("a.mp4"), &mine, (8, 8), false).unwrap();
        assert_eq!(args, ["-c:v", "libx265", "-crf", "24"]);
    }

    #[test]
    fn only_a_plain_420_encoder_of_even_frames_takes_420() {
        let args =
            |path: &str, size| video_args(Path::new(path), &EncodeChoice::default(), size, false).unwrap().0;
        assert!(takes_yuv420(&args("a.mp4", (64, 48)), (64, 48)));
        assert!(takes_yuv420(&args("a.webm", (64, 48)), (64, 48)));
        assert!(!takes_yuv420(&args("a.mp4", (37, 23)), (37, 23)), "4:4:4 for odd sides");
        assert!(!takes_yuv420(&args("a.webm", (37, 24)), (37, 24)), "odd sides convert in ffmpeg");
        assert!(!takes_yuv420(&args("a.gif", (64, 48)), (64, 48)));
        let lossless = EncodeChoice { lossless: true, ..Default::default() };
        let exact = video_args(Path::new("a.mkv"), &lossless, (64, 48), false).unwrap().0;
        assert!(!takes_yuv420(&exact, (64, 48)));
        let mine = EncodeChoice { codec: Some("libx265".into()), ..Default::default() };
        assert!(!takes_yuv420(&video_args(Path::new("a.mp4"), &mine, (64, 48), false).unwrap().0, (64, 48)));
    }

    #[test]
    fn audio_is_copied_where_the_container_holds_it() {
        assert_eq!(audio_args(Path::new("a.mp4"), "aac").0, ["-c:a", "copy"]);
        let (args, note) = audio_args(Path::new("a.mp4"), "pcm_s16le");
        assert_eq!(args, ["-c:a", "aac"]);
        assert!(note.unwrap().contains("re-encoded as AAC"));
        assert_eq!(audio_args(Path::new("a.mkv"), "pcm_s16le").0, ["-c:a", "copy"]);
        assert!(audio_args(Path::new("a.gif"), "aac").0.is_empty());
    }
}
