//! Recordings as videos (`--record out.mp4`, `.mov`, `.mkv`, `.webm`): the recorder's frames,
//! each shown for its delay at the recording's frame rate, encoded by ffmpeg as clips are; with
//! `--sound`, each frame's tones ([`crate::sound`]) beside them, muxed in once the frames are
//! written. Muxed bit-exact, so the same command writes the same file.

use super::encoding;
use super::error::ClipError;
use super::ffmpeg::{Ffmpeg, collect_log};
use super::sink::{ClipSink, ClipTarget, EncodeSpec, SortedFrame};
use crate::algorithms::SortRun;
use crate::gpu::Gpu;
use crate::keys::SortKey;
use crate::picture::output::OutputFile;
use crate::record::EncodeError;
use crate::record::RecordReport;
use crate::record::delta::Region;
use crate::record::sequence::{Delay, FrameSink};
use crate::record::to_file::EndWriting;
use crate::settings::{EncodeChoice, Rate, RecordSettings};
use crate::sound::line::{Heard, SoundLine};
use crate::sound::{RECORDING_RATE, frame_start};
use image::RgbaImage;
use std::path::{Path, PathBuf};

/// What a recording's sound is made of: the line it is heard on and the key its pitch follows.
pub struct SoundSpec {
    /// The line.
    pub line: SoundLine,
    /// The key.
    pub key: SortKey,
}

/// A recording to a video: the command line's settings, the output, checked, and the sound if
/// asked for.
pub struct VideoRecording<'a> {
    /// The recording's settings.
    pub settings: &'a RecordSettings,
    /// How the video is encoded (`--codec`, `--crf`, `--lossless`).
    pub encode: &'a EncodeChoice,
    /// The ffmpeg asked for (`--ffmpeg`), else `SHADERSORT_FFMPEG`'s or the PATH's.
    pub ffmpeg: Option<&'a Path>,
    /// The video file.
    pub output: OutputFile,
    /// What the sound is made of, with `--sound`.
    pub sound: Option<SoundSpec>,
}

impl VideoRecording<'_> {
    /// Records a sort of `picture`, started by `start`, as [`crate::record::record`] does into
    /// the other formats (`progress` too); ffmpeg and its encoders are checked before the sort.
    pub fn record(
        self,
        gpu: &Gpu,
        picture: &RgbaImage,
        start: impl FnOnce(&RgbaImage) -> Box<dyn SortRun>,
        progress: impl FnMut(u32, u32) -> bool,
    ) -> anyhow::Result<RecordReport> {
        let s = self.settings;
        let path = self.output.path().to_path_buf();
        let need = || format!("cannot record to '{}': it is a video", path.display());
        let ffmpeg = Ffmpeg::find(self.ffmpeg, need)?;
        let has_alpha = !crate::record::is_opaque(picture);
        let size = (picture.dimensions(), has_alpha);
        let writer = VideoWriter::start(&ffmpeg, self.output, self.encode, size, s, self.sound)?;
        let recorded =
            crate::record::to_file::record_into(gpu, picture, start, s, (writer, &path), progress)?;
        let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        Ok(RecordReport { path, bytes, recorded })
    }
}

/// The recorder's frames on their way to ffmpeg (a [`FrameSink`] of exact RGBA).
pub struct VideoWriter {
    sink: ClipSink,
    /// The frame as it stands, at the recording's scale.
    canvas: Vec<[u8; 4]>,
    /// The frame's size, scaled.
    size: (u32, u32),
    /// The picture's width, before scaling, and the scale.
    picture: (u32, u32),
    fps: u32,
    /// Frames given to ffmpeg so far (a held frame is given several times).
    frames: u64,
    sound: Option<Track>,
}

/// The sound made so far, and where it goes once the frames are written.
struct Track {
    spec: SoundSpec,
    heard: Heard,
    samples: Vec<i16>,
    /// The folder the video without sound is written to, and the sound beside it.
    dir: tempfile::TempDir,
    ffmpeg: Ffmpeg,
    output: OutputFile,
    audio_args: Vec<String>,
}

impl VideoWriter {
    /// Starts ffmpeg writing `output` from frames of a `size` picture (before `settings.scale`),
    /// with `sound` beside them if given; the encoders the output needs are checked first.
    pub fn start(
        ffmpeg: &Ffmpeg,
        output: OutputFile,
        encode: &EncodeChoice,
        (size, has_alpha): ((u32, u32), bool),
        settings: &RecordSettings,
        sound: Option<SoundSpec>,
    ) -> Result<VideoWriter, ClipError> {
        let scale = settings.scale.max(1);
        let scaled = (size.0 * scale, size.1 * scale);
        let path = output.path().to_path_buf();
        let (mut video_args, _) = encoding::video_args(&path, encode, scaled, has_alpha)?;
        let (audio_args, _) = encoding::audio_args(&path, "pcm_s16le", ffmpeg.build());
        let why = format!("a .{} recording needs", encoding::extension(&path));
        ffmpeg.check_encoders(&video_args, &path, &why)?;
        if sound.is_some() {
            ffmpeg.check_encoders(&audio_args, &path, &why)?;
        }
        // No random ids or dates in the container: the same command writes the same file.
        video_args.extend(["-fflags".into(), "+bitexact".into()]);
        let spec = |video_args| EncodeSpec {
            size: scaled,
            rate: Rate { num: settings.fps.max(1), den: 1 },
            video_args,
            audio: None,
            has_alpha,
            yuv420: None,
        };
        let (sink, sound) = match sound {
            None => (ClipSink::start(ClipTarget::Video(output), Some(ffmpeg), spec(video_args))?, None),
            Some(spec_sound) => {
                let dir = tempfile::tempdir().map_err(|e| ClipError::Encode {
                    path: path.clone(),
                    detail: format!("cannot make a temporary folder: {e}"),
                })?;
                let video = dir.path().join(format!("video.{}", encoding::extension(&path)));
                let target = ClipTarget::Video(OutputFile::prepare_any_extension(&video)?);
                let sink = ClipSink::start(target, Some(ffmpeg), spec(video_args))?;
                let track = Track {
                    spec: spec_sound,
                    heard: Heard::default(),
                    samples: Vec::new(),
                    dir,
                    ffmpeg: ffmpeg.clone(),
                    output,
                    audio_args,
                };
                (sink, Some(track))
            }
        };
        let canvas = vec![[0; 4]; scaled.0 as usize * scaled.1 as usize];
        Ok(VideoWriter {
            sink,
            canvas,
            size: scaled,
            picture: (size.0, scale),
            fps: settings.fps.max(1),
            frames: 0,
            sound,
        })
    }
}

/// How many frames at `fps` a frame lasting `delay` is shown for: at least one.
fn frames_of(delay: Delay, fps: u32) -> u64 {
    let (num, den) = (u64::from(delay.num) * u64::from(fps), u64::from(delay.den.max(1)));
    ((num + den / 2) / den).max(1)
}

/// ffmpeg's reason a video could not be written, for the recorder's "cannot write 'PATH': ..."
/// (the file ffmpeg wrote may be a temporary one, which is not named).
fn video_error(e: ClipError) -> EncodeError {
    EncodeError::Video(match e {
        ClipError::Encode { detail, .. } => format!("ffmpeg failed ({detail}); nothing was written"),
        other => other.to_string(),
    })
}

impl FrameSink for VideoWriter {
    type Pixel = [u8; 4];

    fn transparent(&self) -> Option<[u8; 4]> {
        None
    }

    fn push(&mut self, region: Region<[u8; 4]>, delay: Delay) -> Result<(), EncodeError> {
        region.paint(&mut self.canvas, self.size.0, None);
        let count = frames_of(delay, self.fps);
        let bytes = bytemuck::cast_slice::<[u8; 4], u8>(&self.canvas).to_vec();
        let frame =
            SortedFrame::Rgba(RgbaImage::from_raw(self.size.0, self.size.1, bytes).expect("whole frame"));
        for _ in 0..count {
            self.sink.push(&frame).map_err(video_error)?;
        }
        if let Some(track) = &mut self.sound {
            let (width, scale) = self.picture;
            let key = track.spec.key;
            let moved = track.heard.moved(track.spec.line.read(&self.canvas, width, scale), key);
            let at = |frame: u64| frame_start(frame, self.fps, RECORDING_RATE) as usize;
            let (from, one) = (at(self.frames), at(self.frames + 1));
            crate::sound::step(&moved, key.max_value(), one - from, RECORDING_RATE, &mut track.samples);
            // The rest of a held frame is silent.
            track.samples.resize(at(self.frames + count), 0);
        }
        self.frames += count;
        Ok(())
    }
}

impl EndWriting for VideoWriter {
    fn end(self) -> Result<(), EncodeError> {
        let video = self.sink.finish().map_err(video_error)?;
        let Some(track) = self.sound else { return Ok(()) };
        track.mux(&video).map(drop).map_err(video_error)
    }
}

impl Track {
    /// Writes the output from the video written without sound and the sound made.
    fn mux(mut self, video: &Path) -> Result<PathBuf, ClipError> {
        let path = self.output.path().to_path_buf();
        let failed = |detail: String| ClipError::Encode { path: path.clone(), detail };
        let sound = self.dir.path().join("sound.s16le");
        let bytes: Vec<u8> = self.samples.iter().flat_map(|s| s.to_le_bytes()).collect();
        std::fs::write(&sound, bytes).map_err(|e| failed(format!("cannot write its sound: {e}")))?;
        let temporary = self.output.temporary_path()?;
        let rate = RECORDING_RATE.to_string();
        let mut args: Vec<std::ffi::OsString> = Vec::new();
        args.extend(["-v", "error", "-y", "-i"].map(Into::into));
        args.push(video.as_os_str().to_owned());
        args.extend(["-f", "s16le", "-ar", &rate, "-ac", "1", "-i"].map(Into::into));
        args.push(sound.into_os_string());
        args.extend(["-map", "0:v:0", "-map", "1:a:0", "-c:v", "copy"].map(Into::into));
        args.extend(self.audio_args.iter().map(Into::into));
        args.extend(["-fflags", "+bitexact"].map(Into::into));
        args.push(temporary.into_os_string());
        let mut command = self.ffmpeg.command(args);
        let mut child = self.ffmpeg.spawn(&mut command)?;
        let log = collect_log(&mut child, "ffmpeg-mux-log").map_err(ClipError::Thread)?;
        let status = child.wait().map_err(|e| failed(format!("waiting for ffmpeg failed: {e}")))?;
        let log = log.join().unwrap_or_default();
        if !status.success() {
            return Err(failed(format!("ffmpeg could not add the sound: {}", log.trim())));
        }
        Ok(self.output.commit()?)
    }
}
