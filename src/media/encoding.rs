//! How a sorted clip is encoded: the video codec and its settings for the output's container
//! (or the exact one `--lossless` asks for), and whether the audio stream can be copied into it
//! unchanged.

use super::error::ClipError;
use super::ffmpeg_build::Build;
use crate::picture::yuv::Yuv420Colour;
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
            "mkv" | "avi" | "nut" => {
                // FFV1 version 3 codes slices in parallel, but frames with a side under 4 come
                // out of it black (its slices are empty: 1x1, 2x2 and 64x2 with ffmpeg 5.1 and
                // 7.0); version 1, one slice, codes them exactly. Sides from 8 up were checked
                // exact in version 3 with up to 64 threads.
                let level = if width.min(height) >= 8 { "3" } else { "1" };
                Ok((args(&["-c:v", "ffv1", "-level", level, "-pix_fmt", "bgra"]), None))
            }
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
    match ext.as_str() {
        "mp4" | "m4v" | "mov" | "mkv" | "avi" => {
            // Always 4:2:0, the H.264 every player and browser decodes; an odd-sided clip is
            // padded to even sides by the encoder (`padded_size`), never cropped.
            let mut out = args(&["-c:v", "libx264", "-preset", "medium", "-crf"]);
            out.extend([crf(H264_CRF), "-pix_fmt".into(), "yuv420p".into()]);
            if matches!(ext.as_str(), "mp4" | "m4v" | "mov") {
                out.extend(["-movflags".into(), "+faststart".into()]);
            }
            let note = padded_size(&out, (width, height)).map(|padded| pad_note((width, height), padded));
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
        // One palette for the whole clip, made from all its frames: a simple filter graph (one
        // stream in, one out), for ffmpeg 7 adds a complex graph's output beside `-map 0:v:0`.
        "gif" => Ok((
            args(&[
                "-filter:v",
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

/// How a run hands frames of `size` to an encoder started with `video_args`: as 4:2:0 planes
/// where it takes them, coloured as the clip's own 4:2:0 (`clip`) or, for a clip that is not
/// 4:2:0, untagged BT.601 as ffmpeg makes from RGBA; `None` for RGBA.
pub fn piped_yuv420(
    video_args: &[String],
    size: (u32, u32),
    clip: Option<&Yuv420Colour>,
) -> Option<Yuv420Colour> {
    takes_yuv420(video_args, size).then(|| clip.cloned().unwrap_or_else(Yuv420Colour::untagged))
}

/// The even size an encoder given `video_args` is handed `width` x `height` frames at, when a
/// side is odd and the encoder's 4:2:0 needs even sides; `None` when the frames go as they are.
///
/// H.264 signals its size in whole 2x2 chroma blocks, so 4:2:0 H.264 cannot be odd-sided. Its
/// 4:4:4 profile could keep the size, but browsers, phones and most hardware decoders play only
/// 4:2:0 H.264; one repeated column or row plays everywhere, keeps every pixel and crops back
/// exactly. VP9 and AV1 code odd sides in 4:2:0 (the chroma planes round up), so .webm and
/// `--codec` choices keep the size; lossless codecs are RGB or 4:4:4.
pub fn padded_size(video_args: &[String], (width, height): (u32, u32)) -> Option<(u32, u32)> {
    let asks = |flag: &str, value: &str| video_args.windows(2).any(|w| w[0] == flag && w[1] == value);
    let odd = width % 2 == 1 || height % 2 == 1;
    (odd && asks("-c:v", "libx264") && asks("-pix_fmt", "yuv420p"))
        .then_some((width.next_multiple_of(2), height.next_multiple_of(2)))
}

/// The ffmpeg filter that pads `width` x `height` frames to `padded` as the run's sink does
/// (the last column and row repeated), for ffmpeg given the clip itself (`bench video`'s plain
/// transcode). `pad` adds the sides and `fillborders` smears the edge over them, both in planar
/// RGB as the sink pads RGBA: in 4:2:0 the padded blocks' chroma comes out unlike the sink's.
/// Checked byte for byte against the sink's padding in the 4:2:0 the encoder is given.
pub fn pad_filter((width, height): (u32, u32), (padded_w, padded_h): (u32, u32)) -> String {
    let (right, bottom) = (padded_w - width, padded_h - height);
    format!("format=gbrp,pad={padded_w}:{padded_h}:0:0,fillborders=right={right}:bottom={bottom}:mode=smear")
}

/// The note for a clip padded from `size` to `padded`: what was repeated and how to crop back.
/// The crop needs `exact=1`: on 4:2:0 video ffmpeg's crop otherwise rounds an odd size down.
fn pad_note((width, height): (u32, u32), (padded_w, padded_h): (u32, u32)) -> String {
    let repeated = match (padded_w > width, padded_h > height) {
        (true, true) => "the last column and row",
        (true, false) => "the last column",
        _ => "the last row",
    };
    format!(
        "note: {width}x{height} is odd-sided and 4:2:0 H.264 takes even sides, so the video is {padded_w}x{padded_h}, padded by repeating {repeated}; crop back with -vf crop={width}:{height}:0:0:exact=1 (.webm or --lossless keep the size)"
    )
}

/// The output arguments for the clip's first audio stream (`codec`, as ffmpeg names it), for
/// `build`: copied unchanged where the container takes it, else re-encoded to the container's
/// usual codec (with a note), and none for outputs without sound.
///
/// "Takes" means a standard mapping that players play and this ffmpeg writes without
/// `-strict experimental`: AAC, MP3, ALAC, AC-3 and E-AC-3 in .mp4, with Opus from ffmpeg 5.1
/// and FLAC from 7.0 (4.2 and 5.1 call them experimental there); those and PCM in .mov; Opus and
/// Vorbis in .webm; PCM, MP3 and AC-3 in .avi; anything in .mkv. Vorbis in .mp4, or FLAC and
/// AAC in .avi, mux but play in few players, so they are re-encoded.
pub fn audio_args(path: &Path, codec: &str, build: &Build) -> (Vec<String>, Option<String>) {
    let ext = extension(path);
    let copy = |fits: bool, instead: &str, name: &str| {
        if fits {
            (vec!["-c:a".to_string(), "copy".into()], None)
        } else {
            let note = format!(
                "note: .{ext} does not take the clip's {codec} sound, so it was re-encoded as {name}"
            );
            (vec!["-c:a".to_string(), instead.into()], Some(note))
        }
    };
    let pcm = codec.starts_with("pcm_");
    let common = matches!(codec, "aac" | "mp3" | "alac" | "ac3" | "eac3");
    match ext.as_str() {
        "gif" | "png" | "apng" => {
            (Vec::new(), Some(format!("note: the clip's audio is not kept: .{ext} has no sound")))
        }
        "mkv" | "nut" => copy(true, "", ""),
        "mp4" | "m4v" => {
            let since = |(major, minor)| build.avutil >= (major, minor);
            let newer = (codec == "opus" && since((57, 28))) || (codec == "flac" && since((59, 0)));
            copy(common || newer, "aac", "AAC")
        }
        "mov" => copy(pcm || common, "aac", "AAC"),
        "webm" => copy(matches!(codec, "opus" | "vorbis"), "libopus", "Opus"),
        "avi" => copy(pcm || matches!(codec, "mp3" | "ac3"), "pcm_s16le", "PCM"),
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
        assert_eq!(args[..4], ["-c:v", "ffv1", "-level", "1"], "version 3 loses tiny frames");
        let (args, _) = video_args(Path::new("a.nut"), &lossless, (8, 64), false).unwrap();
        assert_eq!(args[..4], ["-c:v", "ffv1", "-level", "3"]);
        let e = video_args(Path::new("a.mp4"), &lossless, (4, 4), false).unwrap_err().to_string();
        assert!(e.contains("'a.mp4'") && e.contains(".mkv"), "{e}");
        let both = EncodeChoice { codec: Some("libx265".into()), ..lossless };
        assert!(video_args(Path::new("a.mkv"), &both, (4, 4), false).is_err());
    }

    #[test]
    fn h264_pads_an_odd_size_to_even_and_says_how_to_crop_back() {
        let args =
            |path: &str, size| video_args(Path::new(path), &EncodeChoice::default(), size, false).unwrap();
        let (even, note) = args("a.mp4", (64, 48));
        assert!(even.windows(2).any(|w| w == ["-pix_fmt", "yuv420p"]) && note.is_none());
        assert!(even.windows(2).any(|w| w == ["-crf", "18"]));
        assert_eq!(padded_size(&even, (64, 48)), None);
        let (odd, note) = args("a.mkv", (37, 23));
        assert!(odd.windows(2).any(|w| w == ["-pix_fmt", "yuv420p"]));
        assert_eq!(padded_size(&odd, (37, 23)), Some((38, 24)));
        let note = note.unwrap();
        assert!(
            note.contains("38x24")
                && note.contains("column and row")
                && note.contains("crop=37:23:0:0:exact=1 "),
            "{note}"
        );
        assert!(args("a.mp4", (1, 2)).1.unwrap().contains("2x2, padded by repeating the last column;"));
        assert_eq!(
            pad_filter((37, 23), (38, 24)),
            "format=gbrp,pad=38:24:0:0,fillborders=right=1:bottom=1:mode=smear"
        );
        assert_eq!(
            pad_filter((1, 2), (2, 2)),
            "format=gbrp,pad=2:2:0:0,fillborders=right=1:bottom=0:mode=smear"
        );
        // VP9 and the user's own encoder keep an odd size.
        let (webm, note) = args("a.webm", (37, 23));
        assert!(padded_size(&webm, (37, 23)).is_none() && note.is_none());
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
        assert!(!takes_yuv420(&args("a.mp4", (37, 23)), (37, 23)), "odd sides are padded from RGBA");
        assert!(!takes_yuv420(&args("a.webm", (37, 24)), (37, 24)), "odd sides convert in ffmpeg");
        assert!(!takes_yuv420(&args("a.gif", (64, 48)), (64, 48)));
        // Piped 4:2:0 is coloured as the clip's, else untagged BT.601.
        let bt709 = Yuv420Colour {
            matrix: crate::picture::yuv::Matrix::Bt709,
            tag: Some("bt709".into()),
            ..Yuv420Colour::untagged()
        };
        assert_eq!(piped_yuv420(&args("a.mp4", (64, 48)), (64, 48), Some(&bt709)), Some(bt709));
        assert_eq!(piped_yuv420(&args("a.mp4", (64, 48)), (64, 48), None), Some(Yuv420Colour::untagged()));
        assert_eq!(piped_yuv420(&args("a.gif", (64, 48)), (64, 48), None), None);
        let lossless = EncodeChoice { lossless: true, ..Default::default() };
        let exact = video_args(Path::new("a.mkv"), &lossless, (64, 48), false).unwrap().0;
        assert!(!takes_yuv420(&exact, (64, 48)));
        let mine = EncodeChoice { codec: Some("libx265".into()), ..Default::default() };
        assert!(!takes_yuv420(&video_args(Path::new("a.mp4"), &mine, (64, 48), false).unwrap().0, (64, 48)));
    }

    #[test]
    fn audio_is_copied_where_the_container_takes_it() {
        let build = |avutil| Build { version: String::new(), avutil, encoders: Default::default() };
        let (ffmpeg_42, ffmpeg_51, ffmpeg_70) = (build((56, 31)), build((57, 28)), build((59, 8)));
        let args = |path: &str, codec: &str, build: &Build| audio_args(Path::new(path), codec, build).0;
        assert_eq!(args("a.mp4", "aac", &ffmpeg_42), ["-c:a", "copy"]);
        let (reencoded, note) = audio_args(Path::new("a.mp4"), "pcm_s16le", &ffmpeg_70);
        assert_eq!(reencoded, ["-c:a", "aac"]);
        assert!(note.unwrap().contains("re-encoded as AAC"));
        // Opus and FLAC in MP4 only where this ffmpeg writes them without -strict.
        assert_eq!(args("a.mp4", "opus", &ffmpeg_42), ["-c:a", "aac"]);
        assert_eq!(args("a.mp4", "opus", &ffmpeg_51), ["-c:a", "copy"]);
        assert_eq!(args("a.mp4", "flac", &ffmpeg_51), ["-c:a", "aac"]);
        assert_eq!(args("a.mp4", "flac", &ffmpeg_70), ["-c:a", "copy"]);
        assert_eq!(args("a.webm", "flac", &ffmpeg_70), ["-c:a", "libopus"]);
        assert_eq!(args("a.avi", "aac", &ffmpeg_70), ["-c:a", "pcm_s16le"]);
        assert_eq!(args("a.mkv", "pcm_s16le", &ffmpeg_42), ["-c:a", "copy"]);
        assert!(args("a.gif", "aac", &ffmpeg_70).is_empty());
    }
}
