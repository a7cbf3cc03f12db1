//! Frames out: ffmpeg encoding raw frames (RGBA, or 4:2:0 for a 4:2:0 encoder) from a pipe into
//! a temporary file beside the target (the audio copied from the clip), renamed into place only
//! when ffmpeg has finished well; or a folder of PNG frames, written into a temporary folder and
//! renamed in the same way.

use super::error::ClipError;
use super::ffmpeg::{Ffmpeg, collect_log};
use super::probe::last_error_line;
use super::yuv::Yuv420Colour;
use crate::picture::output::OutputFile;
use crate::picture::output_dir::OutputDir;
use crate::record::delta::Region;
use crate::record::png_frames::PngFramesWriter;
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
        let folder = path.as_os_str().to_string_lossy().ends_with('/') || path.is_dir();
        if folder {
            return Ok(ClipTarget::Frames(OutputDir::prepare(path)?));
        }
        if path.extension().is_none() {
            return Err(ClipError::NoExtension { path: path.into() });
        }
        Ok(ClipTarget::Video(OutputFile::prepare_video(path)?))
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
        writer: PngFramesWriter,
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
                let writer = PngFramesWriter::new(&folder, w, h, !spec.has_alpha, workers);
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
            (ClipSink::Encoder(encoder), SortedFrame::Rgba(frame)) => encoder.push(frame.as_raw()),
            (ClipSink::Encoder(encoder), SortedFrame::Yuv420(planes)) => encoder.push(planes),
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
    child: Child,
    stdin: Option<std::io::BufWriter<ChildStdin>>,
    stderr: Option<std::thread::JoinHandle<String>>,
    output: Option<OutputFile>,
}

impl Encoder {
    fn start(ffmpeg: &Ffmpeg, mut output: OutputFile, spec: EncodeSpec<'_>) -> Result<Encoder, ClipError> {
        let temporary = output.temporary_path()?;
        let (w, h) = spec.size;
        let mut args: Vec<std::ffi::OsString> = Vec::new();
        let mut push = |items: &[&str]| args.extend(items.iter().map(Into::into));
        push(&["-v", "error", "-y", "-f", "rawvideo"]);
        match &spec.yuv420 {
            None => push(&["-pix_fmt", "rgba"]),
            // The clip's colour tags go on with its 4:2:0 frames; untagged frames stay untagged,
            // as ffmpeg leaves the 4:2:0 it makes from RGBA.
            Some(colour) => {
                push(&["-pix_fmt", "yuv420p"]);
                if let Some(tag) = &colour.tag {
                    push(&["-colorspace", tag, "-color_range", "tv"]);
                }
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
        args.push(temporary.into_os_string());
        let mut command = ffmpeg.command(args);
        command.stdin(Stdio::piped());
        let mut child = ffmpeg.spawn(&mut command)?;
        let stdin = child.stdin.take().expect("stdin is piped");
        super::source::widen_pipe(&stdin);
        let stderr = collect_log(&mut child, "ffmpeg-encoder-log").map_err(ClipError::Thread)?;
        Ok(Encoder {
            child,
            stdin: Some(std::io::BufWriter::with_capacity(1 << 20, stdin)),
            stderr: Some(stderr),
            output: Some(output),
        })
    }

    fn push(&mut self, frame: &[u8]) -> Result<(), ClipError> {
        let stdin = self.stdin.as_mut().expect("open until finish");
        if let Err(e) = stdin.write_all(frame) {
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
        let detail = if log.trim().is_empty() { fallback } else { last_error_line(&log) };
        let path = self.output.as_ref().map(|o| o.path().to_path_buf()).unwrap_or_default();
        ClipError::Encode { path, detail }
    }
}

impl Drop for Encoder {
    fn drop(&mut self) {
        // Unfinished: ffmpeg is ended and the temporary file goes with `output`.
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
