//! ffmpeg reading a live source: its report of the stream read as it starts (size, rate, audio),
//! then raw RGBA frames handed to the sorter's one-frame slot as they come, on a thread of their
//! own, so that reading never waits for the sort. With a capture file, ffmpeg also copies the
//! source's own streams there (for its audio, muxed in at the end).

use super::error::LiveError;
use super::input::input_args;
use super::slot::LatestFrame;
use crate::media::ffmpeg::Ffmpeg;
use crate::media::probe::{self, ClipInfo, last_error_line};
use crate::media::source::{DecodedFrame, read_frame, widen_pipe};
use crate::picture::input::SizeLimit;
use crate::settings::LiveInput;
use image::RgbaImage;
use std::collections::VecDeque;
use std::io::BufRead;
use std::path::Path;
use std::process::{Child, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

/// The frames a live source hands the sort, and why it ended.
pub type Slot = LatestFrame<(Instant, DecodedFrame), LiveEnd>;

/// Why a live source sent no more frames.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LiveEnd {
    /// ffmpeg ended well: `--duration` was reached, or the source ended as it should.
    Finished,
    /// ffmpeg failed, with its reason.
    Failed(String),
}

/// Lines of ffmpeg's log kept after its start, for the reason of a failure.
const LOG_TAIL: usize = 40;

/// How to start reading.
pub struct LiveStart<'a> {
    /// The source.
    pub input: &'a LiveInput,
    /// The size frames are sorted at: a larger source is downscaled by ffmpeg (or refused).
    pub limit: &'a SizeLimit,
    /// Stop after this much of the source (its frames at its rate).
    pub duration: Option<Duration>,
    /// Copy the source's streams into this file too (for its audio).
    pub capture: Option<&'a Path>,
    /// How long the source may take to send its first frame.
    pub open_wait: Duration,
}

/// ffmpeg reading a live source into a [`Slot`].
pub struct LiveDecoder {
    child: Arc<Mutex<Child>>,
    reader: Option<std::thread::JoinHandle<()>>,
    log: Arc<Mutex<VecDeque<String>>>,
    /// The source's video (its own size) with `frames` 0; `size` is what ffmpeg sends.
    pub info: ClipInfo,
    /// The size of the frames ffmpeg sends.
    pub size: (u32, u32),
}

impl LiveDecoder {
    /// Starts ffmpeg and waits for its report of the stream (which comes with the first frame).
    pub fn start(
        ffmpeg: &Ffmpeg,
        start: LiveStart<'_>,
        slot: Arc<Slot>,
        spares: mpsc::Receiver<Vec<u8>>,
    ) -> Result<LiveDecoder, LiveError> {
        let label = super::label(start.input);
        let mut args: Vec<std::ffi::OsString> = ["-v", "info", "-nostats"].iter().map(Into::into).collect();
        args.extend(input_args(ffmpeg, start.input)?);
        args.extend(["-map", "0:v:0"].iter().map(Into::into));
        args.extend(ffmpeg.build().passthrough().iter().map(Into::into));
        if start.limit.downscale {
            args.extend(["-vf".into(), fit_filter(start.limit.max_side).into()]);
        }
        args.extend(["-f", "rawvideo", "-pix_fmt", "rgba", "pipe:1"].iter().map(Into::into));
        if let Some(capture) = start.capture {
            // Each packet goes to the file at once: a source that stops may leave ffmpeg waiting
            // on it, to be ended without finishing its file, which is still read whole.
            let copy =
                ["-map", "0:v:0", "-map", "0:a:0?", "-c", "copy", "-flush_packets", "1", "-f", "nut", "-y"];
            args.extend(copy.iter().map(Into::into));
            args.push(capture.as_os_str().to_owned());
        }
        let mut command = ffmpeg.command(args);
        command.stdout(Stdio::piped());
        let mut child = ffmpeg.spawn(&mut command)?;
        let stdout = child.stdout.take().expect("stdout is piped");
        widen_pipe(&stdout);
        let stderr = child.stderr.take().expect("stderr is piped");
        let child = Arc::new(Mutex::new(child));
        let log = Arc::new(Mutex::new(VecDeque::new()));
        let (lines_in, lines) = mpsc::channel();
        let keep = log.clone();
        std::thread::Builder::new()
            .name("live-log".into())
            .spawn(move || {
                for line in std::io::BufReader::new(stderr).split(b'\n') {
                    let Ok(line) = line else { break };
                    let line = String::from_utf8_lossy(&line).trim_end().to_string();
                    let _ = lines_in.send(line.clone());
                    let mut tail = keep.lock().unwrap_or_else(|p| p.into_inner());
                    tail.push_back(line);
                    if tail.len() > LOG_TAIL {
                        tail.pop_front();
                    }
                }
            })
            .map_err(LiveError::Thread)?;
        let mut decoder = LiveDecoder { child, reader: None, log, info: empty_info(), size: (0, 0) };
        let camera = super::input::is_camera(start.input);
        let report = decoder.read_report(&lines, (&label, camera), start.open_wait)?;
        let input = probe::input_part(&report);
        let info = probe::streams(input).map_err(|_| LiveError::NotOpened {
            label: label.clone(),
            detail: "ffmpeg found no video in it".into(),
            hint: super::error::hint(start.input),
        })?;
        let size = probe::output_size(&report).unwrap_or((info.width, info.height));
        let frame_bytes = size.0 as usize * size.1 as usize * 4;
        let most = start.duration.map(|d| (d.as_secs_f64() * info.rate.fps()).round().max(1.0) as u64);
        let (child, reader_log) = (decoder.child.clone(), decoder.log.clone());
        let reader = std::thread::Builder::new()
            .name("live-reader".into())
            .spawn(move || {
                read_frames(stdout, (size, frame_bytes, most), &slot, &spares, (&child, &reader_log))
            })
            .map_err(LiveError::Thread)?;
        decoder.reader = Some(reader);
        decoder.info = info;
        decoder.size = size;
        Ok(decoder)
    }

    /// ffmpeg's report up to its first output's stream, waiting up to `wait` for it.
    fn read_report(
        &self,
        lines: &mpsc::Receiver<String>,
        (label, camera): (&str, bool),
        wait: Duration,
    ) -> Result<String, LiveError> {
        let deadline = Instant::now() + wait;
        let (mut report, mut in_output) = (String::new(), false);
        loop {
            crate::interrupt::check()?;
            match lines.recv_timeout(Duration::from_millis(100)) {
                Ok(line) => {
                    in_output |= line.starts_with("Output #0");
                    let done = in_output && line.trim_start().starts_with("Stream #");
                    report.push('\n');
                    report.push_str(&line);
                    if done {
                        return Ok(report);
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) if Instant::now() < deadline => {}
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    return Err(LiveError::Silent { label: label.into(), seconds: wait.as_secs_f64() });
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(LiveError::opening(label, &last_error_line(&report), camera));
                }
            }
        }
    }

    /// Asks ffmpeg to end (on Unix with SIGINT, so that it finishes the capture file) and waits
    /// for it up to two seconds, then ends it.
    pub fn finish(mut self) {
        self.end(Duration::from_secs(2));
    }

    fn end(&mut self, grace: Duration) {
        #[cfg(unix)]
        {
            let mut child = self.child.lock().unwrap_or_else(|p| p.into_inner());
            if let (Ok(None), Ok(pid)) = (child.try_wait(), i32::try_from(child.id())) {
                // SAFETY: `kill` sends a signal to ffmpeg, a child not yet waited for (so its id
                // is still its own).
                #[allow(unsafe_code, reason = "kill asks the child ffmpeg to finish; see SAFETY")]
                unsafe {
                    libc::kill(pid, libc::SIGINT);
                }
            }
        }
        let deadline = Instant::now() + grace;
        while Instant::now() < deadline {
            if !matches!(self.child.lock().unwrap_or_else(|p| p.into_inner()).try_wait(), Ok(None)) {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let mut child = self.child.lock().unwrap_or_else(|p| p.into_inner());
        let _ = child.kill();
        let _ = child.wait();
        drop(child);
        if let Some(reader) = self.reader.take() {
            let _ = reader.join();
        }
    }

    /// The last lines ffmpeg logged.
    pub fn log(&self) -> String {
        self.log.lock().unwrap_or_else(|p| p.into_inner()).iter().cloned().collect::<Vec<_>>().join("\n")
    }
}

impl Drop for LiveDecoder {
    fn drop(&mut self) {
        self.end(Duration::ZERO);
    }
}

/// A frame waiting for the size to be known.
fn empty_info() -> ClipInfo {
    let rate = crate::settings::Rate { num: 30, den: 1 };
    ClipInfo { width: 0, height: 0, rate, frames: 0, pixel_format: String::new(), audio: None, yuv420: None }
}

/// ffmpeg's filter that shrinks a frame whose longer side is over `max_side` to it, keeping the
/// aspect ratio and rounding as [`crate::picture::input::scaled_size`] does.
pub fn fit_filter(max_side: u32) -> String {
    let side = |own: &str| {
        format!("'if(gt(max(iw,ih),{max_side}),max(1,round({own}*{max_side}/max(iw,ih))),{own})'")
    };
    format!("scale=w={}:h={}:flags=area", side("iw"), side("ih"))
}

/// Reads whole frames from ffmpeg into the slot until it ends, the sort stops or `most` frames
/// came, then tells the slot how it ended.
fn read_frames(
    mut stdout: std::process::ChildStdout,
    (size, frame_bytes, most): ((u32, u32), usize, Option<u64>),
    slot: &Slot,
    spares: &mpsc::Receiver<Vec<u8>>,
    (child, log): (&Mutex<Child>, &Mutex<VecDeque<String>>),
) {
    for _ in 0..most.unwrap_or(u64::MAX) {
        let read = read_frame(&mut stdout, frame_bytes, Some(spares));
        let broken = read.is_err();
        let (bytes, filled) = read.unwrap_or_default();
        if filled < frame_bytes {
            let status = loop {
                match child.lock().unwrap_or_else(|p| p.into_inner()).try_wait() {
                    Ok(None) => {}
                    Ok(Some(status)) => break Some(status),
                    Err(_) => break None,
                }
                std::thread::sleep(Duration::from_millis(10));
            };
            // Let the log thread take ffmpeg's last lines.
            std::thread::sleep(Duration::from_millis(50));
            let tail = log.lock().unwrap_or_else(|p| p.into_inner()).iter().cloned().collect::<Vec<_>>();
            let end = match status {
                Some(status) if status.success() && filled == 0 && !broken => LiveEnd::Finished,
                _ => LiveEnd::Failed(last_error_line(&tail.join("\n"))),
            };
            slot.end(end);
            return;
        }
        let frame = RgbaImage::from_raw(size.0, size.1, bytes).expect("a whole frame was read");
        if !slot.put((Instant::now(), DecodedFrame::Rgba(frame))) {
            return;
        }
    }
    slot.end(LiveEnd::Finished);
}
