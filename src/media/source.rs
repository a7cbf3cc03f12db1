//! Frames in, one picture at a time: ffmpeg decoding a clip over a pipe (scaled on the way when
//! the clip is over the size limit), as 4:2:0 for a 4:2:0 clip that shadersort converts itself
//! and as RGBA otherwise, or a folder of picture files read in name order.

use super::error::ClipError;
use super::ffmpeg::{Ffmpeg, collect_log};
use super::frame_files::FrameFiles;
use super::probe::{ClipInfo, last_error_line};
use crate::picture::yuv::{Matrix, Yuv420Size};
use image::RgbaImage;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Stdio};

/// Where frames come from.
pub enum FrameSource {
    /// An ffmpeg child decoding a clip.
    Decoder(Decoder),
    /// Picture files.
    Files(FrameFiles, Option<(u32, u32)>),
}

impl FrameSource {
    /// The next frame; `None` after the last, once the source has checked that it ended well.
    pub fn next_frame(&mut self) -> Option<Result<DecodedFrame, ClipError>> {
        match self {
            FrameSource::Decoder(decoder) => decoder.next_frame(),
            FrameSource::Files(files, size) => files.next_frame().map(|frame| {
                let frame = frame?;
                Ok(DecodedFrame::Rgba(match *size {
                    Some((w, h)) if frame.dimensions() != (w, h) => {
                        image::imageops::resize(&frame, w, h, image::imageops::FilterType::Triangle)
                    }
                    _ => frame,
                }))
            }),
        }
    }
}

/// What ffmpeg writes into the pipe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PipeFormat {
    /// RGBA, converted by ffmpeg.
    Rgba,
    /// 8-bit 4:2:0 as the clip holds it, converted to RGBA here with this matrix.
    Yuv420(Matrix),
}

impl PipeFormat {
    /// 4:2:0 for a clip whose colour [`yuv::to_rgba`](crate::picture::yuv::to_rgba) converts, else RGBA.
    pub fn of(info: &ClipInfo) -> PipeFormat {
        info.yuv420.as_ref().map_or(PipeFormat::Rgba, |c| PipeFormat::Yuv420(c.matrix))
    }

    fn ffmpeg_name(self) -> &'static str {
        match self {
            PipeFormat::Rgba => "rgba",
            PipeFormat::Yuv420(_) => "yuv420p",
        }
    }

    fn frame_bytes(self, (width, height): (u32, u32)) -> usize {
        match self {
            PipeFormat::Rgba => width as usize * height as usize * 4,
            PipeFormat::Yuv420(_) => Yuv420Size { width, height }.bytes(),
        }
    }
}

/// A frame as it came through the pipe.
#[derive(Debug)]
pub enum DecodedFrame {
    /// RGBA.
    Rgba(RgbaImage),
    /// 8-bit 4:2:0 planes ([`Yuv420Size::bytes`] layout), still to be converted.
    Yuv420 {
        /// The planes.
        planes: Vec<u8>,
        /// Their size.
        size: Yuv420Size,
        /// The matrix they convert with.
        matrix: Matrix,
    },
}

impl DecodedFrame {
    /// The frame as RGBA, converted into `buffer`'s memory for 4:2:0; with the bytes the frame
    /// came in, for the decoder to read a later frame into (`None` for RGBA: they are the
    /// picture's).
    pub fn into_rgba(self, buffer: Vec<u8>) -> (RgbaImage, Option<Vec<u8>>) {
        match self {
            DecodedFrame::Rgba(frame) => (frame, None),
            DecodedFrame::Yuv420 { planes, size, matrix } => {
                let mut rgba = buffer;
                crate::picture::yuv::to_rgba(&planes, size, matrix, &mut rgba);
                let frame = RgbaImage::from_raw(size.width, size.height, rgba).expect("a whole frame");
                (frame, Some(planes))
            }
        }
    }

    /// Width and height.
    pub fn dimensions(&self) -> (u32, u32) {
        match self {
            DecodedFrame::Rgba(frame) => frame.dimensions(),
            DecodedFrame::Yuv420 { size, .. } => (size.width, size.height),
        }
    }

    /// The bytes the frame came in, for the decoder to read a later frame into.
    pub fn into_bytes(self) -> Vec<u8> {
        match self {
            DecodedFrame::Rgba(frame) => frame.into_raw(),
            DecodedFrame::Yuv420 { planes, .. } => planes,
        }
    }

    /// The frame as RGBA.
    pub fn to_rgba(self) -> RgbaImage {
        self.into_rgba(Vec::new()).0
    }
}

/// ffmpeg decoding the first video stream of a clip to RGBA frames of a known size.
pub struct Decoder {
    ffmpeg: Ffmpeg,
    path: PathBuf,
    child: Child,
    stdout: std::io::BufReader<ChildStdout>,
    stderr: Option<std::thread::JoinHandle<String>>,
    format: PipeFormat,
    size: (u32, u32),
    frames_read: u64,
    frames_expected: u64,
    done: bool,
    /// Frames' bytes handed back once used, read into again instead of fresh memory.
    spares: Option<std::sync::mpsc::Receiver<Vec<u8>>>,
}

impl Decoder {
    /// Starts decoding `path`, whose video ffmpeg counted `frames` frames of, at `size`
    /// (scaled with an area filter when that differs from the clip's own size, `scale_from`),
    /// into `format`.
    pub fn start(
        ffmpeg: &Ffmpeg,
        path: &Path,
        (size, scale_from): ((u32, u32), (u32, u32)),
        frames: u64,
        format: PipeFormat,
    ) -> Result<Decoder, ClipError> {
        Decoder::spawn(ffmpeg, path, (size, scale_from), None, frames, format)
    }

    /// Starts decoding `path` at frame `first` (counted from 0) of a clip of `rate` frames a
    /// second, for playing from there: ffmpeg seeks to the key frame before it and drops the
    /// frames up to it. The frames to come are not counted beforehand, so a clip that ends
    /// early is not reported (its errors still are).
    pub fn start_at(
        ffmpeg: &Ffmpeg,
        path: &Path,
        (size, scale_from): ((u32, u32), (u32, u32)),
        (first, rate): (u64, crate::settings::Rate),
        format: PipeFormat,
    ) -> Result<Decoder, ClipError> {
        // Half a frame early: frame `first` starts at first / rate, and rounding must not drop it.
        let seconds = (first as f64 - 0.5).max(0.0) / rate.fps();
        let seek = (first > 0).then_some(seconds);
        Decoder::spawn(ffmpeg, path, (size, scale_from), seek, 0, format)
    }

    fn spawn(
        ffmpeg: &Ffmpeg,
        path: &Path,
        (size, scale_from): ((u32, u32), (u32, u32)),
        seek: Option<f64>,
        frames: u64,
        format: PipeFormat,
    ) -> Result<Decoder, ClipError> {
        // -xerror: a damaged packet ends the run with an error instead of a frame of garbage.
        let mut args: Vec<std::ffi::OsString> = ["-v", "error", "-xerror"].iter().map(Into::into).collect();
        if let Some(seconds) = seek {
            args.extend(["-ss".into(), format!("{seconds:.6}").into()]);
        }
        args.push("-i".into());
        args.push(path.as_os_str().to_owned());
        args.extend(["-map", "0:v:0"].iter().map(Into::into));
        args.extend(ffmpeg.build().passthrough().iter().map(Into::into));
        if size != scale_from {
            args.extend(["-vf".into(), format!("scale={}:{}:flags=area", size.0, size.1).into()]);
        }
        args.extend(["-f", "rawvideo", "-pix_fmt", format.ffmpeg_name(), "pipe:1"].iter().map(Into::into));
        let mut command = ffmpeg.command(args);
        command.stdout(Stdio::piped());
        yield_to_encoder(&mut command);
        let mut child = ffmpeg.spawn(&mut command)?;
        let stdout = child.stdout.take().expect("stdout is piped");
        widen_pipe(&stdout);
        let stderr = collect_log(&mut child, "ffmpeg-decoder-log").map_err(ClipError::Thread)?;
        Ok(Decoder {
            ffmpeg: ffmpeg.clone(),
            path: path.into(),
            child,
            stdout: std::io::BufReader::with_capacity(1 << 20, stdout),
            stderr: Some(stderr),
            format,
            size,
            frames_read: 0,
            frames_expected: frames,
            done: false,
            spares: None,
        })
    }

    /// Reads frames into the buffers that come back through `spares` when there are any.
    pub fn with_spares(mut self, spares: std::sync::mpsc::Receiver<Vec<u8>>) -> Decoder {
        self.spares = Some(spares);
        self
    }

    fn next_frame(&mut self) -> Option<Result<DecodedFrame, ClipError>> {
        if self.done {
            return None;
        }
        let frame_bytes = self.format.frame_bytes(self.size);
        let (bytes, filled) = match read_frame(&mut self.stdout, frame_bytes, self.spares.as_ref()) {
            Ok(read) => read,
            Err(e) => return Some(Err(self.broken(format!("reading ffmpeg's output failed: {e}")))),
        };
        if filled == 0 {
            self.done = true;
            return self.end().err().map(Err);
        }
        if filled < frame_bytes {
            self.done = true;
            let why = format!("ffmpeg stopped in the middle of frame {}", self.frames_read + 1);
            return Some(Err(self.broken(why)));
        }
        self.frames_read += 1;
        let (width, height) = self.size;
        Some(Ok(match self.format {
            PipeFormat::Rgba => {
                DecodedFrame::Rgba(RgbaImage::from_raw(width, height, bytes).expect("a whole frame was read"))
            }
            PipeFormat::Yuv420(matrix) => {
                DecodedFrame::Yuv420 { planes: bytes, size: Yuv420Size { width, height }, matrix }
            }
        }))
    }

    /// After the last frame: ffmpeg must have ended well and given every frame it counted.
    fn end(&mut self) -> Result<(), ClipError> {
        let status = self.child.wait().map_err(|e| self.broken(format!("waiting for ffmpeg failed: {e}")))?;
        if !status.success() {
            let log = self.log();
            if let Some(refused) = self.ffmpeg.refused(&log) {
                return Err(refused.into());
            }
            return Err(self.broken(last_error_line(&log)));
        }
        if self.frames_read < self.frames_expected {
            return Err(self.broken(format!(
                "ffmpeg decoded {} of the {} frames the stream holds",
                self.frames_read, self.frames_expected
            )));
        }
        Ok(())
    }

    fn log(&mut self) -> String {
        self.stderr.take().and_then(|t| t.join().ok()).unwrap_or_default()
    }

    fn broken(&mut self, detail: String) -> ClipError {
        let _ = self.child.kill();
        ClipError::Broken {
            path: self.path.clone(),
            done: self.frames_read,
            total: Some(self.frames_expected),
            detail,
        }
    }
}

impl Drop for Decoder {
    fn drop(&mut self) {
        // An unfinished decoder (an error or an interrupt elsewhere) is ended, not left running.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The most a pipe of raw frames is widened to: Linux's default 64 KiB makes ffmpeg and the reader
/// take turns every 64 KiB of a frame of megabytes.
#[cfg(target_os = "linux")]
const PIPE_BYTES: usize = 1 << 20;

/// Widens a pipe to or from ffmpeg (on Linux; up to the system's pipe-max-size, 1 MiB by
/// default). A pipe that cannot be widened works as it is, only with more switches between the
/// two processes.
#[cfg(target_os = "linux")]
pub fn widen_pipe(pipe: &impl std::os::fd::AsFd) {
    let _ = rustix::pipe::fcntl_setpipe_size(pipe, PIPE_BYTES);
}

/// Pipes keep their size elsewhere.
#[cfg(not(target_os = "linux"))]
pub fn widen_pipe<T>(_pipe: &T) {}

/// One frame of `frame_bytes` from ffmpeg's pipe, into a buffer back through `spares` when one
/// is there: the buffer and how much of it the pipe filled before it ended (all of it for a
/// whole frame, 0 at the end).
pub fn read_frame(
    pipe: &mut impl Read,
    frame_bytes: usize,
    spares: Option<&std::sync::mpsc::Receiver<Vec<u8>>>,
) -> std::io::Result<(Vec<u8>, usize)> {
    let mut bytes = match spares.and_then(|s| s.try_recv().ok()) {
        Some(mut bytes) if bytes.capacity() >= frame_bytes => {
            bytes.resize(frame_bytes, 0);
            bytes
        }
        _ => vec![0u8; frame_bytes],
    };
    let mut filled = 0;
    while filled < frame_bytes {
        match pipe.read(&mut bytes[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok((bytes, filled))
}

/// Lowers the decoder's priority: it decodes many times faster than an encoder encodes, so on
/// a busy CPU the encoder, which sets the pace of a whole run, goes first.
fn yield_to_encoder(command: &mut std::process::Command) {
    #[cfg(unix)]
    #[allow(unsafe_code, reason = "setpriority in the child before exec; see SAFETY")]
    // SAFETY: the closure runs between fork and exec and calls only setpriority, which is
    // async-signal-safe; its threads, made after exec, inherit the priority.
    unsafe {
        std::os::unix::process::CommandExt::pre_exec(command, || {
            libc::setpriority(libc::PRIO_PROCESS, 0, 10);
            Ok(())
        });
    }
    #[cfg(not(unix))]
    let _ = command;
}
