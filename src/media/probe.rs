//! What a clip holds, read from ffmpeg's own report of it: the first video stream's size,
//! frame rate and pixel format, whether there is audio, and the exact frame count (ffmpeg
//! copies the video stream into its `framecrc` muxer, one line a packet, which demuxes it
//! without decoding; ffmpeg 7 no longer prints a frame count for a stream copy).

use super::error::ClipError;
use super::ffmpeg::Ffmpeg;
use crate::picture::yuv::{Matrix, Yuv420Colour};
use crate::settings::Rate;
use std::path::Path;

/// A clip's video, as ffmpeg reports it.
#[derive(Clone, Debug, PartialEq)]
pub struct ClipInfo {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Frames per second.
    pub rate: Rate,
    /// Frames in the video stream.
    pub frames: u64,
    /// The pixel format ffmpeg decodes to (`yuv420p`, `rgba`, `pal8`, ...).
    pub pixel_format: String,
    /// The codec of the first audio stream, if there is one.
    pub audio: Option<String>,
    /// How the frames are coloured when they are 8-bit 4:2:0 in limited range with a matrix
    /// shadersort converts itself (BT.601 or BT.709): then they come through the pipe as 4:2:0.
    pub yuv420: Option<Yuv420Colour>,
}

impl ClipInfo {
    /// Whether the pixel format can hold transparency (kept only then).
    pub fn has_alpha(&self) -> bool {
        let f = self.pixel_format.as_str();
        f.starts_with("yuva")
            || f.starts_with("ya")
            || f.starts_with("pal8")
            || ["rgba", "bgra", "argb", "abgr", "gbrap"].iter().any(|a| f.starts_with(a))
    }
}

/// Asks ffmpeg what `path` holds.
pub fn probe(ffmpeg: &Ffmpeg, path: &Path) -> Result<ClipInfo, ClipError> {
    let mut command = ffmpeg.command(["-v".into(), "info".into(), "-i".into(), path.as_os_str().to_owned()]);
    command.args(["-map", "0:v:0?", "-c", "copy", "-f", "framecrc", "pipe:1"]);
    command.stdout(std::process::Stdio::piped());
    let output = ffmpeg.output(&mut command)?;
    let report = String::from_utf8_lossy(&output.stderr);
    if let Some(refused) = ffmpeg.refused(&report) {
        return Err(refused.into());
    }
    let packets = packet_lines(&output.stdout);
    parse(&report, packets).map_err(|problem| match problem {
        Problem::NotRead => ClipError::NotAVideo { path: path.into(), detail: last_error_line(&report) },
        Problem::NoVideo(other) => ClipError::NoVideoStream { path: path.into(), other },
        Problem::NoFrames => ClipError::NoFrames { path: path.into() },
        Problem::Truncated { frames, detail } => {
            ClipError::Broken { path: path.into(), done: frames, total: None, detail }
        }
        Problem::Unreadable(what) => {
            ClipError::NotAVideo { path: path.into(), detail: format!("ffmpeg reported no {what}") }
        }
    })
}

/// What is wrong with a report.
#[derive(Debug, PartialEq)]
pub(super) enum Problem {
    /// ffmpeg found no streams at all.
    NotRead,
    /// Streams, but no video among them: what there is.
    NoVideo(String),
    /// A video stream without frames.
    NoFrames,
    /// The video stream's line lacks this.
    Unreadable(&'static str),
    /// The file ends before its video does: the frames there are, and what says so.
    Truncated {
        /// Frames found.
        frames: u64,
        /// ffmpeg's warning, or the durations that disagree.
        detail: String,
    },
}

/// What ffmpeg's demuxers say of a file cut short or damaged (as warnings: ffmpeg goes on).
const DAMAGE_WARNINGS: [&str; 5] =
    ["ended prematurely", "partial file", "corrupt", "Truncating packet", "invalid as first byte"];

/// The packets a `framecrc` listing holds (its lines but the `#` comments).
fn packet_lines(listing: &[u8]) -> u64 {
    listing.split(|&b| b == b'\n').filter(|l| !l.is_empty() && l[0] != b'#').count() as u64
}

/// The input part of ffmpeg's report, with the count of the video stream's packets (its frames).
fn parse(report: &str, frames: u64) -> Result<ClipInfo, Problem> {
    let input = input_part(report);
    let info = streams(input)?;
    if frames == 0 {
        return Err(Problem::NoFrames);
    }
    let damage =
        report.lines().flat_map(|l| l.split('\r')).find(|l| DAMAGE_WARNINGS.iter().any(|w| l.contains(w)));
    if let Some(line) = damage {
        let detail = line.rsplit("] ").next().unwrap_or(line).trim().to_string();
        return Err(Problem::Truncated { frames, detail });
    }
    // Without audio, the container's duration is the video's: frames missing from its end show.
    let video_seconds = frames as f64 / info.rate.fps();
    if let Some(duration) = duration(input).filter(|_| info.audio.is_none())
        && duration > video_seconds + (2.0 / info.rate.fps()).max(0.1)
    {
        let detail = format!("the file says {duration:.2} s, its frames last {video_seconds:.2} s");
        return Err(Problem::Truncated { frames, detail });
    }
    Ok(ClipInfo { frames, ..info })
}

/// The input's part of ffmpeg's report: what comes before "Output #0" and "Stream mapping".
pub(super) fn input_part(report: &str) -> &str {
    let input = report.split("\nOutput #0").next().unwrap_or(report);
    input.split("\nStream mapping").next().unwrap_or(input)
}

/// The size of the first stream of ffmpeg's first output, as its report gives it.
pub(super) fn output_size(report: &str) -> Option<(u32, u32)> {
    let (_, output) = report.split_once("\nOutput #0")?;
    let line = output.lines().map(str::trim).find(|l| l.starts_with("Stream #"))?;
    let (_, video) = line.split_once(": Video: ")?;
    top_level_pieces(video).iter().find_map(|p| size(first_word(p)))
}

/// The streams of a report's input part: the first video stream's size, rate and format, and
/// the first audio stream's codec (`frames` is left 0).
pub(super) fn streams(input: &str) -> Result<ClipInfo, Problem> {
    let streams: Vec<&str> = input.lines().map(str::trim).filter(|l| l.starts_with("Stream #")).collect();
    if streams.is_empty() {
        return Err(Problem::NotRead);
    }
    let kind =
        |line: &str, kind: &str| line.split_once(&format!(": {kind}: ")).map(|(_, rest)| rest.to_string());
    let Some(video) = streams.iter().find_map(|l| kind(l, "Video")) else {
        let other = streams
            .iter()
            .filter_map(|l| l.split(": ").nth(1))
            .map(str::to_lowercase)
            .collect::<Vec<_>>()
            .join(" and ");
        return Err(Problem::NoVideo(other));
    };
    let audio = streams.iter().find_map(|l| kind(l, "Audio")).map(|rest| first_word(&rest).to_string());
    let pieces = top_level_pieces(&video);
    let (width, height) =
        pieces.iter().find_map(|p| size(first_word(p))).ok_or(Problem::Unreadable("size"))?;
    let rate_of =
        |unit: &str| pieces.iter().find_map(|p| p.strip_suffix(unit).and_then(|n| printed_rate(n.trim())));
    let rate = rate_of(" fps").or_else(|| rate_of(" tbr")).ok_or(Problem::Unreadable("frame rate"))?;
    let pixel_format = pieces.get(1).map(|p| first_word(p).to_string()).unwrap_or_default();
    let yuv420 = pieces.get(1).and_then(|p| yuv420_colour(p));
    Ok(ClipInfo { width, height, rate, frames: 0, pixel_format, audio, yuv420 })
}

/// ffmpeg's names of colour spaces (`av_color_space_name`).
const COLOUR_SPACES: [&str; 18] = [
    "gbr",
    "bt709",
    "unknown",
    "reserved",
    "fcc",
    "bt470bg",
    "smpte170m",
    "smpte240m",
    "ycgco",
    "bt2020nc",
    "bt2020c",
    "smpte2085",
    "chroma-derived-nc",
    "chroma-derived-c",
    "ictcp",
    "ipt-c2",
    "ycgco-re",
    "ycgco-ro",
];

/// The colour of a stream whose pixel format reads `yuv420p(tv, bt709, progressive)` (range,
/// colour space or `space/primaries/transfer`, field order; each may be missing): `None` unless
/// it is 8-bit 4:2:0 in limited range (or unmarked) with a matrix [`Matrix`] knows.
fn yuv420_colour(piece: &str) -> Option<Yuv420Colour> {
    let (format, details) = piece.split_once('(').unwrap_or((piece, ""));
    if format.trim() != "yuv420p" {
        return None;
    }
    // ffmpeg prints one name where space, primaries and transfer are the same, else all three.
    let mut names = None;
    for item in details.split(',').map(|i| i.trim().trim_end_matches(')')) {
        if item == "pc" {
            return None;
        }
        let parts: Vec<&str> = item.split('/').collect();
        if names.is_none() && COLOUR_SPACES.contains(&parts[0]) {
            names = Some(match parts[..] {
                [space, primaries, transfer] => [space, primaries, transfer],
                _ => [parts[0]; 3],
            });
        }
    }
    let [space, primaries, transfer] = names.unwrap_or([""; 3]);
    let matrix = Matrix::from_ffmpeg_name(space)?;
    let said = |name: &str| (!name.is_empty() && name != "unknown").then(|| name.to_string());
    Some(Yuv420Colour { matrix, tag: said(space), primaries: said(primaries), transfer: said(transfer) })
}

/// A rate as ffmpeg prints it: two decimals at most, `1k` for a thousand.
fn printed_rate(text: &str) -> Option<Rate> {
    match text.strip_suffix('k') {
        Some(thousands) => Rate::from_fps(thousands.parse::<f64>().ok()? * 1000.0),
        None => Rate::from_fps(text.parse::<f64>().ok()?),
    }
}

/// The input's `Duration: 00:01:02.50` in seconds, if given.
fn duration(input: &str) -> Option<f64> {
    let text = input.split("Duration: ").nth(1)?.split(',').next()?.trim();
    let mut parts = text.split(':').map(|p| p.parse::<f64>().ok());
    let (h, m, s) = (parts.next()??, parts.next()??, parts.next()??);
    Some(h * 3600.0 + m * 60.0 + s)
}

/// The comma-separated parts of a stream line, commas inside brackets left alone.
fn top_level_pieces(line: &str) -> Vec<String> {
    let (mut pieces, mut piece, mut depth) = (Vec::new(), String::new(), 0i32);
    for c in line.chars() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                pieces.push(piece.trim().to_string());
                piece.clear();
                continue;
            }
            _ => {}
        }
        piece.push(c);
    }
    pieces.push(piece.trim().to_string());
    pieces
}

fn first_word(s: &str) -> &str {
    s.split(|c: char| c.is_whitespace() || c == '(' || c == ',').next().unwrap_or("")
}

/// `640x480` as a size.
fn size(word: &str) -> Option<(u32, u32)> {
    let (w, h) = word.split_once('x')?;
    let number = |s: &str| {
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse::<u32>().ok()).flatten()
    };
    Some((number(w)?, number(h)?)).filter(|&(w, h)| w > 0 && h > 0)
}

/// The last line of an ffmpeg report that is not progress: usually the reason it failed.
pub fn last_error_line(report: &str) -> String {
    report
        .lines()
        .flat_map(|l| l.split('\r'))
        .map(str::trim)
        .rfind(|l| !l.is_empty() && !l.starts_with("frame=") && !l.starts_with("size="))
        .unwrap_or("no reason given")
        .trim_end_matches('.')
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    const MKV: &str = "Guessed Channel Layout for Input Stream #0.1 : mono
Input #0, matroska,webm, from 'clip.mkv':
  Duration: 00:00:01.10, start: 0.000000, bitrate: 229 kb/s
  Stream #0:0: Video: ffv1 (FFV1 / 0x31564646), bgr0(pc, gbr/unknown/unknown, progressive), 37x23, SAR 1:1 DAR 37:23, 30 fps, 30 tbr, 1k tbn
    Metadata:
      DURATION        : 00:00:01.100000000
  Stream #0:1: Audio: pcm_s16le, 8000 Hz, mono, s16, 128 kb/s
Output #0, null, to 'pipe:':
  Stream #0:0: Video: ffv1 (FFV1 / 0x31564646), bgr0(pc, gbr/unknown/unknown, progressive), 37x23 [SAR 1:1 DAR 37:23], q=2-31, 30 fps, 30 tbr, 1k tbn
Stream mapping:
  Stream #0:0 -> #0:0 (copy)
frame=    1 fps=0.0 q=-1.0 size=N/A time=00:00:00.00 bitrate=N/A speed=N/A    \rframe=   33 fps=0.0 q=-1.0 Lsize=N/A time=00:00:01.06 bitrate=N/A speed=9.13e+03x
video:12kB audio:0kB subtitle:0kB other streams:0kB global headers:0kB muxing overhead: unknown
";

    #[test]
    fn a_report_gives_size_rate_frames_format_and_audio() {
        let info = parse(MKV, 33).unwrap();
        assert_eq!((info.width, info.height, info.frames), (37, 23, 33));
        assert_eq!(info.rate, Rate { num: 30, den: 1 });
        assert_eq!(info.pixel_format, "bgr0");
        assert_eq!(info.audio.as_deref(), Some("pcm_s16le"));
        assert!(!info.has_alpha());
    }

    #[test]
    fn an_ntsc_rate_and_a_hex_tag_before_the_size() {
        let line = "Input #0, mov,mp4, from 'c.mp4':\n  Stream #0:0[0x1](und): Video: h264 (High) (avc1 / 0x31637661), yuv420p(progressive), 64x48 [SAR 1:1 DAR 4:3], 14 kb/s, 29.97 fps, 29.97 tbr, 30k tbn (default)\nframe=   60 fps=0.0";
        let info = parse(line, 60).unwrap();
        assert_eq!((info.width, info.height, info.frames), (64, 48, 60));
        assert_eq!(info.rate, Rate { num: 30000, den: 1001 });
        assert_eq!(info.audio, None);
        assert_eq!(info.yuv420, Some(Yuv420Colour::untagged()));
        assert_eq!(parse(MKV, 33).unwrap().yuv420, None, "RGB is decoded to RGBA by ffmpeg");
    }

    #[test]
    fn colour_details_pick_the_matrix_or_leave_the_conversion_to_ffmpeg() {
        let colour = |piece: &str| yuv420_colour(piece);
        let bt709 = Some("bt709".to_string());
        let hd = Yuv420Colour {
            matrix: Matrix::Bt709,
            tag: bt709.clone(),
            primaries: bt709.clone(),
            transfer: bt709,
        };
        assert_eq!(colour("yuv420p(tv, bt709, progressive)"), Some(hd.clone()));
        assert_eq!(colour("yuv420p(tv, bt709)"), Some(hd.clone()));
        let matrix_only = Yuv420Colour { primaries: None, transfer: None, ..hd };
        assert_eq!(colour("yuv420p(tv, bt709/unknown/unknown)"), Some(matrix_only));
        let ntsc = colour("yuv420p(tv, smpte170m/smpte170m/bt709, top first)").unwrap();
        assert_eq!((ntsc.matrix, ntsc.tag.as_deref()), (Matrix::Bt601, Some("smpte170m")));
        assert_eq!((ntsc.primaries.as_deref(), ntsc.transfer.as_deref()), (Some("smpte170m"), Some("bt709")));
        let unsaid = colour("yuv420p(tv, unknown/bt709/bt709)").unwrap();
        assert_eq!(
            (unsaid.matrix, unsaid.tag.as_deref(), unsaid.primaries.as_deref()),
            (Matrix::Bt601, None, Some("bt709"))
        );
        assert_eq!(colour("yuv420p"), Some(Yuv420Colour::untagged()));
        assert_eq!(colour("yuv420p(pc, bt709)"), None, "full range");
        assert_eq!(colour("yuv420p(tv, bt2020nc/bt2020/smpte2084)"), None);
        assert_eq!(colour("yuv420p10le(tv, bt709)"), None);
        assert_eq!(colour("yuvj420p(pc, bt470bg/unknown/unknown)"), None);
    }

    #[test]
    fn a_framecrc_listing_counts_its_packets() {
        let listing = b"#tb 0: 1/30\n#media_type 0: video\n0,          0,          0,        1,     4134, 0x9a0e3d1b\n0,          1,          1,        1,     4189, 0x2c8f5e21\n";
        assert_eq!(packet_lines(listing), 2);
        assert_eq!(packet_lines(b""), 0);
    }

    #[test]
    fn printed_rates_parse_as_fractions() {
        assert_eq!(printed_rate("23.98"), Some(Rate { num: 24000, den: 1001 }));
        assert_eq!(printed_rate("59.94"), Some(Rate { num: 60000, den: 1001 }));
        assert_eq!(printed_rate("12.50"), Some(Rate { num: 25, den: 2 }));
        assert_eq!(printed_rate("1k"), Some(Rate { num: 1000, den: 1 }));
        assert_eq!(printed_rate("fast"), None);
    }

    #[test]
    fn reports_without_video_or_frames_say_so() {
        assert_eq!(parse("x.txt: Invalid data found when processing input\n", 0), Err(Problem::NotRead));
        let audio = "Input #0, wav, from 'a.wav':\n  Stream #0:0: Audio: pcm_s16le ([1][0][0][0] / 0x0001), 8000 Hz, mono\n";
        assert_eq!(parse(audio, 0), Err(Problem::NoVideo("audio".into())));
        let cut = "Input #0, matroska,webm, from 'half.mkv':\n  Duration: 00:00:02.00, start: 0.000000\n  Stream #0:0: Video: ffv1, yuv420p, 64x48, 30 fps, 30 tbr\n[matroska,webm @ 0x5] File ended prematurely\nframe=   29 fps=0.0\n";
        assert_eq!(
            parse(cut, 29),
            Err(Problem::Truncated { frames: 29, detail: "File ended prematurely".into() })
        );
        let short = cut.replace("[matroska,webm @ 0x5] File ended prematurely\n", "");
        assert!(matches!(parse(&short, 29), Err(Problem::Truncated { frames: 29, .. })));
        let whole = short.replace("02.00", "00.97");
        assert_eq!(parse(&whole, 29).map(|i| i.frames), Ok(29));
        let empty = "Input #0, matroska, from 'e.mkv':\n  Stream #0:0: Video: ffv1, bgr0, 8x8, 30 fps, 30 tbr\nframe=    0 fps=0.0\n";
        assert_eq!(parse(empty, 0), Err(Problem::NoFrames));
        assert_eq!(
            last_error_line("a\nb: Invalid data found when processing input.\n"),
            "b: Invalid data found when processing input"
        );
    }
}
