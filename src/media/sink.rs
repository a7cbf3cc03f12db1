//! Frames out: ffmpeg encoding raw frames (RGBA, or 4:2:0 for a 4:2:0 encoder) from a pipe into
//! a temporary file beside the target (the audio copied from the clip), renamed into place only
//! when ffmpeg has finished well, odd-sided frames padded to even sides for an encoder that needs
//! them, and a failure told with ffmpeg's own reason; or a folder of PNG frames, written into a
//! temporary folder and renamed in the same way.

use super::encoding::padded_size;
use super::error::ClipError;
use super::ffmpeg::{Ffmpeg, collect_log};
use super::probe::last_error_line;
use crate::picture::output::OutputFile;
use crate::picture::output_dir::OutputDir;
use crate::picture::yuv::Yuv420Colour;
use crate::record::delta::Region;
use crate::record::png_frames::{Folder, PngFramesWriter};
use crate::record::sequence::{Delay, FrameSink};
use crate::settings::Rate;
use image::RgbaImage;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Stdio};

/// PNG frames carry no delay; the writer is given this one.
const FRAME_DELAY: Delay = Delay { num: 1, den: 30 };

/// Where sorted frames go, checked before any work.
pub enum ClipTarget {
    /// A video file, through ffmpeg.
    Video(OutputFile),
    /// A folder of PNG frames.
    Frames(OutputDir),
    /// Nowhere: the frames are dropped (`bench video` measures the rest).
    Discard,
}

impl ClipTarget {
    /// A folder for a path ending in `/` (or an existing folder), a video file otherwise.
    pub fn prepare(path: &Path) -> Result<ClipTarget, ClipError> {
        let folder = crate::picture::output_dir::names_folder(path);
        if folder {
            return Ok(ClipTarget::Frames(OutputDir::prepare(path)?));
        }
        if path.extension().is_none() {
            return Err(ClipError::NoExtension { path: path.into() });
        }
        Ok(ClipTarget::Video(OutputFile::prepare_any_extension(path)?))
    }

    /// The final path.
    pub fn path(&self) -> &Path {
        match self {
            ClipTarget::Video(file) => file.path(),
            ClipTarget::Frames(dir) => dir.path(),
            ClipTarget::Discard => Path::new("(discarded)"),
        }
    }
}

/// What an encoder needs to know of the frames it is given.
pub struct EncodeSpec<'a> {
    /// Frame size.
    pub size: (u32, u32),
    /// Frames per second.
    pub rate: Rate,
    /// The video stream's output arguments.
    pub video_args: Vec<String>,
    /// The clip and the output arguments of its audio, when it is kept.
    pub audio: Option<(&'a Path, Vec<String>)>,
    /// Whether the frames may be translucent (PNG frames keep alpha only then).
    pub has_alpha: bool,
    /// How frames reach an encoder: RGBA (`None`), or 4:2:0 coloured so.
    pub yuv420: Option<Yuv420Colour>,
}

/// A sorted frame on its way out.
#[derive(Debug)]
pub enum SortedFrame {
    /// RGBA.
    Rgba(RgbaImage),
    /// 4:2:0 planes in ffmpeg's `rawvideo` layout, for an encoder started to take them.
    Yuv420(Vec<u8>),
}

/// A sink being written.
pub enum ClipSink {
    /// ffmpeg encoding.
    Encoder(Encoder),
    /// PNG frames into a temporary folder.
    Frames {
        /// The folder being filled.
        dir: OutputDir,
        /// The writer filling it.
        writer: PngFramesWriter<Folder>,
        /// The frame size.
        size: (u32, u32),
    },
    /// Frames dropped.
    Discard,
}

impl ClipSink {
    /// Starts writing to `target`.
    pub fn start(
        target: ClipTarget,
        ffmpeg: Option<&Ffmpeg>,
        spec: EncodeSpec<'_>,
    ) -> Result<ClipSink, ClipError> {
        match target {
            ClipTarget::Video(file) => {
                let ffmpeg = ffmpeg.ok_or_else(|| ClipError::NeedsFfmpeg { path: file.path().into() })?;
                Ok(ClipSink::Encoder(Encoder::start(ffmpeg, file, spec)?))
            }
            ClipTarget::Frames(mut dir) => {
                let folder = dir.folder()?.to_path_buf();
                let workers = std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(1, 8);
                let (w, h) = spec.size;
                let writer = PngFramesWriter::new(Folder(folder), w, h, !spec.has_alpha, workers);
                Ok(ClipSink::Frames { dir, writer, size: spec.size })
            }
            ClipTarget::Discard => Ok(ClipSink::Discard),
        }
    }

    /// Writes the next frame.
    ///
    /// # Panics
    /// For 4:2:0 into PNG frames (only an encoder is given them).
    pub fn push(&mut self, frame: &SortedFrame) -> Result<(), ClipError> {
        match (self, frame) {
            (ClipSink::Encoder(encoder), frame) => encoder.push(frame),
            (ClipSink::Frames { writer, size, dir }, SortedFrame::Rgba(frame)) => {
                let pixels: &[[u8; 4]] = bytemuck::cast_slice(frame.as_raw());
                writer
                    .push(Region::full(pixels, size.0, size.1), FRAME_DELAY)
                    .map_err(|e| ClipError::WriteFrames { path: dir.path().into(), detail: e.to_string() })
            }
            (ClipSink::Frames { .. }, SortedFrame::Yuv420(_)) => panic!("PNG frames are written from RGBA"),
            (ClipSink::Discard, _) => Ok(()),
        }
    }

    /// Finishes the file (or folder) and puts it in place.
    pub fn finish(self) -> Result<PathBuf, ClipError> {
        match self {
            ClipSink::Encoder(encoder) => encoder.finish(),
            ClipSink::Frames { dir, writer, .. } => {
                writer
                    .finish()
                    .map_err(|e| ClipError::WriteFrames { path: dir.path().into(), detail: e.to_string() })?;
                Ok(dir.commit()?)
            }
            ClipSink::Discard => Ok(PathBuf::from("(discarded)")),
        }
    }
}

/// ffmpeg encoding raw frames from its stdin into the target's temporary file.
pub struct Encoder {
    ffmpeg: Ffmpeg,
    child: Child,
    stdin: Option<std::io::BufWriter<ChildStdin>>,
    stderr: Option<std::thread::JoinHandle<String>>,
    output: Option<OutputFile>,
    /// Frames padded to even sides, for an encoder that needs them.
    pad: Option<Padding>,
}

/// Odd-sided frames padded to even sides on their way to the encoder.
struct Padding {
    /// The frames' size.
    from: (u32, u32),
    /// The size the encoder is given.
    to: (u32, u32),
    /// The padded frame, its memory used again for every frame.
    frame: Vec<u8>,
}

impl Encoder {
    fn start(ffmpeg: &Ffmpeg, mut output: OutputFile, spec: EncodeSpec<'_>) -> Result<Encoder, ClipError> {
        let temporary = output.temporary_path()?;
        let padded = padded_size(&spec.video_args, spec.size);
        let (w, h) = padded.unwrap_or(spec.size);
        let mut args: Vec<std::ffi::OsString> = Vec::new();
        let mut push = |items: &[&str]| args.extend(items.iter().map(Into::into));
        push(&["-v", "error", "-y", "-f", "rawvideo"]);
        match &spec.yuv420 {
            None => push(&["-pix_fmt", "rgba"]),
            // The clip's colour tags go on with its 4:2:0 frames; untagged frames stay untagged,
            // as ffmpeg leaves the 4:2:0 it makes from RGBA.
            Some(colour) => {
                push(&["-pix_fmt", "yuv420p"]);
                push(&colour_tags(colour));
            }
        }
        push(&["-s", &format!("{w}x{h}"), "-framerate", &spec.rate.to_string(), "-i", "pipe:0"]);
        if let Some((clip, _)) = &spec.audio {
            args.push("-i".into());
            args.push(clip.as_os_str().to_owned());
        }
        args.extend(["-map", "0:v:0"].iter().map(Into::into));
        args.extend(spec.video_args.iter().map(Into::into));
        if let Some((_, audio_args)) = &spec.audio {
            args.extend(["-map", "1:a:0"].iter().map(Into::into));
            args.extend(audio_args.iter().map(Into::into));
        }
        // The tags again for the encoder: ffmpeg before 5.0 does not pass the input's on to it.
        if let Some(colour) = &spec.yuv420 {
            args.extend(colour_tags(colour).into_iter().map(Into::into));
        }
        args.push(temporary.into_os_string());
        let mut command = ffmpeg.command(args);
        command.stdin(Stdio::piped());
        let mut child = ffmpeg.spawn(&mut command)?;
        let stdin = child.stdin.take().expect("stdin is piped");
        super::source::widen_pipe(&stdin);
        let stderr = collect_log(&mut child, "ffmpeg-encoder-log").map_err(ClipError::Thread)?;
        Ok(Encoder {
            ffmpeg: ffmpeg.clone(),
            child,
            stdin: Some(std::io::BufWriter::with_capacity(1 << 20, stdin)),
            stderr: Some(stderr),
            output: Some(output),
            pad: padded.map(|to| Padding { from: spec.size, to, frame: Vec::new() }),
        })
    }

    fn push(&mut self, frame: &SortedFrame) -> Result<(), ClipError> {
        let bytes = match (frame, &mut self.pad) {
            (SortedFrame::Rgba(frame), Some(pad)) => {
                pad_edges(frame.as_raw(), pad.from, pad.to, &mut pad.frame);
                pad.frame.as_slice()
            }
            (SortedFrame::Rgba(frame), None) => frame.as_raw().as_slice(),
            (SortedFrame::Yuv420(planes), pad) => {
                assert!(pad.is_none(), "4:2:0 is made of even-sided frames only");
                planes.as_slice()
            }
        };
        let stdin = self.stdin.as_mut().expect("open until finish");
        if let Err(e) = stdin.write_all(bytes) {
            return Err(self.failed(format!("writing to ffmpeg failed: {e}")));
        }
        Ok(())
    }

    fn finish(mut self) -> Result<PathBuf, ClipError> {
        let stdin = self.stdin.take().expect("open until finish");
        if let Err(e) = stdin.into_inner().map_err(|e| e.into_error()) {
            return Err(self.failed(format!("writing to ffmpeg failed: {e}")));
        }
        let status = self.child.wait().map_err(|e| self.failed(format!("waiting for ffmpeg failed: {e}")))?;
        if !status.success() {
            return Err(self.failed(format!("ffmpeg ended with {status}")));
        }
        Ok(self.output.take().expect("kept until finish").commit()?)
    }

    /// The error for an encoder that failed, with the reason ffmpeg gave (it is ended first).
    fn failed(&mut self, fallback: String) -> ClipError {
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
        let log = self.stderr.take().and_then(|t| t.join().ok()).unwrap_or_default();
        if let Some(refused) = self.ffmpeg.refused(&log) {
            return refused.into();
        }
        let detail = if log.trim().is_empty() { fallback } else { encoder_reason(&log) };
        let path = self.output.as_ref().map(|o| o.path().to_path_buf()).unwrap_or_default();
        ClipError::Encode { path, detail }
    }
}

/// ffmpeg's options for the colour a clip's 4:2:0 is tagged with: its colour space, primaries
/// and transfer where it says them, limited range with any of them; none for untagged frames.
fn colour_tags(colour: &Yuv420Colour) -> Vec<&str> {
    let mut args = Vec::new();
    let tags = [
        ("-colorspace", &colour.tag),
        ("-color_primaries", &colour.primaries),
        ("-color_trc", &colour.transfer),
    ];
    for (option, name) in tags {
        if let Some(name) = name {
            args.extend([option, name.as_str()]);
        }
    }
    if !args.is_empty() {
        args.extend(["-color_range", "tv"]);
    }
    args
}

/// `frame` (RGBA of `width` x `height`) into `out` at `to`, the last column repeated to the
/// right and the last row below: a 4:2:0 block then takes its chroma from the edge pixel alone,
/// and cropping gives the frame back.
fn pad_edges(frame: &[u8], (width, height): (u32, u32), (to_w, to_h): (u32, u32), out: &mut Vec<u8>) {
    let (row, padded_row) = (width as usize * 4, to_w as usize * 4);
    out.clear();
    for line in frame.chunks_exact(row) {
        out.extend_from_slice(line);
        let last = &line[row - 4..];
        (width..to_w).for_each(|_| out.extend_from_slice(last));
    }
    for _ in height..to_h {
        out.extend_from_within(out.len() - padded_row..);
    }
}

/// ffmpeg's reason an encoding failed, from its log (errors only): the last two lines of the
/// encoder, muxer or filter that failed (`libx264: width not divisible by 2 (97x61)`), past the
/// lines in which ffmpeg's own program only says that something failed ("Error initializing
/// output stream 0:0 --", "Conversion failed!", and ffmpeg 6's and 7's `[vost#0:0/...]`,
/// `[out#0/...]` lines); when there is nothing else, the first of those tagged lines, else
/// ffmpeg's last line.
fn encoder_reason(log: &str) -> String {
    const WRAPPERS: [&str; 5] = [
        "Error initializing output stream",
        "Error while opening encoder",
        "Conversion failed",
        "Error while filtering",
        "Error opening output file",
    ];
    let wrapper = |line: &str| {
        tag(line).is_some_and(|(name, _)| name.contains('#')) || WRAPPERS.iter().any(|w| line.contains(w))
    };
    let lines = log.lines().flat_map(|l| l.split('\r')).map(str::trim);
    let reasons: Vec<String> = lines
        .filter(|l| !l.is_empty() && !wrapper(l) && !l.starts_with("frame=") && !l.starts_with("size="))
        .map(|line| match tag(line) {
            // "[libx264 @ 0x55cc211b9400] reason" reads "libx264: reason".
            Some((name, said)) => format!("{}: {said}", name.split(" @ ").next().unwrap_or(name)),
            None => line.to_string(),
        })
        .map(|line| line.trim_end_matches('.').to_string())
        .collect();
    if !reasons.is_empty() {
        return reasons[reasons.len().saturating_sub(2)..].join("; ");
    }
    // Only ffmpeg's own lines: its first tagged one is the most precise ("Unknown encoder 'x'").
    let first_tagged = log.lines().find_map(|l| tag(l.trim()).filter(|(name, _)| name.contains('#')));
    first_tagged.map_or_else(|| last_error_line(log), |(_, said)| said.trim_end_matches('.').to_string())
}

/// A log line's `[name @ 0x...]` tag and what follows it.
fn tag(line: &str) -> Option<(&str, &str)> {
    line.strip_prefix('[').and_then(|l| l.split_once("] "))
}

impl Drop for Encoder {
    fn drop(&mut self) {
        // Unfinished: ffmpeg is ended and the temporary file goes with `output`.
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn padding_repeats_the_last_column_and_row() {
        let frame: Vec<u8> = (0..3 * 2 * 4).map(|b| b as u8).collect();
        let mut out = vec![9; 5];
        pad_edges(&frame, (3, 2), (4, 4), &mut out);
        let px = |x: usize, y: usize| &out[(y * 4 + x) * 4..][..4];
        let src = |x: usize, y: usize| &frame[(y * 3 + x) * 4..][..4];
        assert_eq!(out.len(), 4 * 4 * 4);
        for y in 0..4 {
            for x in 0..4 {
                assert_eq!(px(x, y), src(x.min(2), y.min(1)), "({x}, {y})");
            }
        }
        pad_edges(&[1, 2, 3, 4], (1, 1), (2, 2), &mut out);
        assert_eq!(out, [1, 2, 3, 4].repeat(4));
    }

    /// ffmpeg 5.1's and 7.0's logs (`-v error`) of encoders that could not open.
    #[test]
    fn an_encoders_failure_is_told_with_ffmpegs_reason() {
        let ffmpeg5 = "[libx264 @ 0x5591ee22c300] width not divisible by 2 (97x61)
Error initializing output stream 0:0 -- Error while opening encoder for output stream #0:0 - maybe incorrect parameters such as bit_rate, rate, width or height
Conversion failed!
";
        assert_eq!(encoder_reason(ffmpeg5), "libx264: width not divisible by 2 (97x61)");
        let ffmpeg7 = "[h261 @ 0x365ae180] The specified picture size of 97x61 is not valid for the H.261 codec.
Valid sizes are 176x144, 352x288
[vost#0:0/h261 @ 0x365adc40] Error while opening encoder - maybe incorrect parameters such as bit_rate, rate, width or height.
[vf#0:0 @ 0x365ab500] Error sending frames to consumers: Invalid argument
[vost#0:0/h261 @ 0x365adc40] Could not open encoder before EOF
[out#0/avi @ 0x365ad080] Nothing was written into output file, because at least one of its streams received no packets.
";
        assert_eq!(
            encoder_reason(ffmpeg7),
            "h261: The specified picture size of 97x61 is not valid for the H.261 codec; Valid sizes are 176x144, 352x288"
        );
        // Only ffmpeg's own lines: ffmpeg 7's first tagged one, else the last line.
        let unknown = "[vost#0:0 @ 0x24c6ca80] Unknown encoder 'no-such-encoder'
[vost#0:0 @ 0x24c6ca80] Error selecting an encoder
Error opening output file z.mkv.
Error opening output files: Encoder not found
";
        assert_eq!(encoder_reason(unknown), "Unknown encoder 'no-such-encoder'");
        assert_eq!(encoder_reason("Conversion failed!\n"), "Conversion failed!");
    }
}
