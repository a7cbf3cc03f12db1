//! A clip read for the window: its frames in order from any frame on, decoded a few ahead on a
//! thread of their own, and a seek that starts reading again elsewhere; and a clip opened on a
//! thread of its own, so that the window goes on while ffmpeg reads a long video through.

use super::error::ClipError;
use super::ffmpeg::Ffmpeg;
use super::frame_files::{FrameFiles, is_frame_files};
use super::probe::ClipInfo;
use super::source::{Decoder, FrameSource, PipeFormat};
use crate::picture::input::SizeLimit;
use crate::settings::Rate;
use image::RgbaImage;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError, TryRecvError, sync_channel};
use std::time::Duration;

/// Frames decoded ahead of the one shown.
const AHEAD: usize = 3;

/// What [`ClipReader::next_frame`] has.
#[derive(Debug)]
pub enum Next {
    /// Frame `index` (counted from 0).
    Frame(u64, RgbaImage),
    /// The next frame is still being decoded.
    Waiting,
    /// The clip has no frames after the last one given.
    Ended,
    /// Reading failed; nothing more comes until the next seek.
    Failed(ClipError),
}

/// A clip opened for playing: what it is, and the frames being read.
pub struct ClipReader {
    path: PathBuf,
    info: ClipInfo,
    ffmpeg: Option<Ffmpeg>,
    files: Option<FrameFiles>,
    /// The size frames are read at (the clip's own, or downscaled to the size limit).
    size: (u32, u32),
    frames: Option<Receiver<Result<(u64, RgbaImage), ClipError>>>,
}

/// A clip opened and playing from its first frame, which has been read.
pub struct OpenedClip {
    /// The clip, reading its frames from the second on.
    pub reader: ClipReader,
    /// Its first frame.
    pub first: RgbaImage,
    /// Says when frames are downscaled to the size limit.
    pub note: Option<String>,
}

/// A clip being opened on a thread of its own: ffmpeg reads a video through to count its frames
/// (seconds for hours of video), then its first frame is decoded.
pub struct OpeningClip {
    path: PathBuf,
    result: Option<Receiver<anyhow::Result<OpenedClip>>>,
}

impl OpeningClip {
    /// Starts opening the clip at `path` as [`ClipReader::open`] and [`ClipReader::play`] do,
    /// waiting up to `wait` for its first frame.
    pub fn start(
        path: PathBuf,
        ffmpeg: Option<PathBuf>,
        frame_rate: Rate,
        limit: SizeLimit,
        wait: Duration,
    ) -> Result<OpeningClip, ClipError> {
        let (send, result) = sync_channel(1);
        let opened_path = path.clone();
        // The thread ends once the clip is open or has failed; if nobody waits for it any more,
        // the clip it opened is dropped, which ends its decoder.
        std::thread::Builder::new()
            .name("clip-open".into())
            .spawn(move || {
                let opened = ClipReader::open(&opened_path, ffmpeg.as_deref(), frame_rate)
                    .and_then(|reader| reader.play(&limit, wait));
                // Nobody waiting (another file was opened since) is no error.
                let _ = send.send(opened);
            })
            .map_err(ClipError::Thread)?;
        Ok(OpeningClip { path, result: Some(result) })
    }

    /// The clip's file, folder or pattern.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The opened clip, or why it could not be opened, once there is an answer (and `None`
    /// before it and after it was taken).
    pub fn poll(&mut self) -> Option<anyhow::Result<OpenedClip>> {
        let answer = match self.result.as_ref()?.try_recv() {
            Ok(answer) => answer,
            Err(TryRecvError::Empty) => return None,
            Err(TryRecvError::Disconnected) => {
                Err(anyhow::anyhow!("opening '{}' stopped without an answer", self.path.display()))
            }
        };
        self.result = None;
        Some(answer)
    }
}

impl ClipReader {
    /// Opens the clip at `path` and finds out what it holds (ffmpeg counts a video's frames);
    /// picture files play at `frame_rate`. Nothing is decoded until [`ClipReader::seek`].
    pub fn open(path: &Path, ffmpeg: Option<&Path>, frame_rate: Rate) -> anyhow::Result<ClipReader> {
        let ffmpeg = if is_frame_files(path) {
            None
        } else {
            Some(Ffmpeg::find(ffmpeg, || format!("cannot play '{}': it is a video", path.display()))?)
        };
        let clip = super::open_clip(path, frame_rate, ffmpeg.as_ref())?;
        let size = (clip.info.width, clip.info.height);
        Ok(ClipReader { path: path.into(), info: clip.info, ffmpeg, files: clip.files, size, frames: None })
    }

    /// Plays the clip from its first frame at the size `limit` allows, waiting up to `wait` for
    /// that frame.
    pub fn play(mut self, limit: &SizeLimit, wait: Duration) -> anyhow::Result<OpenedClip> {
        let note = self.fit(limit)?;
        self.seek(0)?;
        let first = match self.next_frame_within(wait) {
            Next::Frame(_, frame) => frame,
            Next::Failed(e) => return Err(e.into()),
            Next::Ended => anyhow::bail!("'{}' gave no frame to show", self.path.display()),
            Next::Waiting => anyhow::bail!(
                "'{}' gave no frame in {} s; check that ffmpeg can decode it",
                self.path.display(),
                wait.as_secs()
            ),
        };
        Ok(OpenedClip { reader: self, first, note })
    }

    /// Reads frames at the size `limit` allows from now on; the note says when they are
    /// downscaled (or the error, with `--no-downscale`, why they cannot be).
    pub fn fit(&mut self, limit: &SizeLimit) -> anyhow::Result<Option<String>> {
        let label = format!("'{}'", self.path.display());
        let (size, note) = super::fit((self.info.width, self.info.height), &label, limit)?;
        self.size = size;
        Ok(note)
    }

    /// The clip's file, folder or pattern.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// What the clip holds: size, rate, frame count, sound.
    pub fn info(&self) -> &ClipInfo {
        &self.info
    }

    /// The size frames come at.
    pub fn size(&self) -> (u32, u32) {
        self.size
    }

    /// Whether the clip is picture files rather than a video.
    pub fn is_frame_files(&self) -> bool {
        self.files.is_some()
    }

    /// Whether frames are being read (not past the end or a failure).
    pub fn is_reading(&self) -> bool {
        self.frames.is_some()
    }

    /// Starts reading at frame `index` (counted from 0); frames read ahead from before are
    /// dropped.
    pub fn seek(&mut self, index: u64) -> Result<(), ClipError> {
        let index = index.min(self.info.frames.saturating_sub(1));
        let source = match &self.files {
            Some(files) => {
                let mut files = files.clone();
                files.skip_to(index);
                FrameSource::Files(files, Some(self.size))
            }
            None => FrameSource::Decoder(Decoder::start_at(
                self.ffmpeg.as_ref().expect("a video has found ffmpeg"),
                &self.path,
                (self.size, (self.info.width, self.info.height)),
                (index, self.info.rate),
                PipeFormat::of(&self.info),
            )?),
        };
        let (send, frames) = sync_channel(AHEAD);
        // The thread ends when the clip does, or at its next frame once the receiver is dropped
        // (a seek, or the window closing); its decoder then ends ffmpeg.
        std::thread::Builder::new()
            .name("clip-playback".into())
            .spawn(move || {
                let mut source = source;
                let mut next = index;
                while let Some(frame) = source.next_frame() {
                    let failed = frame.is_err();
                    if send.send(frame.map(|f| (next, f.to_rgba()))).is_err() || failed {
                        break;
                    }
                    next += 1;
                }
            })
            .map_err(ClipError::Thread)?;
        self.frames = Some(frames);
        Ok(())
    }

    /// The next frame if it has been decoded, without waiting.
    pub fn next_frame(&mut self) -> Next {
        self.next_frame_within(Duration::ZERO)
    }

    /// The next frame, waiting for it up to `limit`.
    pub fn next_frame_within(&mut self, limit: Duration) -> Next {
        let Some(frames) = &self.frames else { return Next::Ended };
        match frames.recv_timeout(limit) {
            Ok(Ok((index, frame))) => Next::Frame(index, frame),
            Ok(Err(e)) => {
                self.frames = None;
                Next::Failed(e)
            }
            Err(RecvTimeoutError::Timeout) => Next::Waiting,
            Err(RecvTimeoutError::Disconnected) => {
                self.frames = None;
                Next::Ended
            }
        }
    }
}
