//! A live source's audio: ffmpeg copies the source's streams into a capture file while it
//! decodes; once the sorted video is written, its audio is muxed in beside it (copied, or
//! re-encoded for a container that cannot hold it), the file replaced whole.

use crate::media::error::ClipError;
use crate::media::ffmpeg::Ffmpeg;
use crate::media::probe::last_error_line;
use crate::picture::output::OutputFile;
use std::path::Path;

/// The capture file, removed when dropped.
pub struct CaptureFile(tempfile::TempPath);

impl CaptureFile {
    /// A new capture file beside `out`.
    pub fn beside(out: &Path) -> Result<CaptureFile, ClipError> {
        let dir = match out.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        let file = tempfile::Builder::new()
            .prefix(".shadersort-")
            .suffix(".capture.nut")
            .tempfile_in(dir)
            .map_err(|e| ClipError::Choice(format!("cannot write beside '{}': {e}", out.display())))?;
        let path = file.into_temp_path();
        crate::interrupt::register_temporary(&path);
        Ok(CaptureFile(path))
    }

    /// Where ffmpeg writes it.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for CaptureFile {
    fn drop(&mut self) {
        crate::interrupt::forget_temporary(&self.0);
    }
}

/// Puts the first audio stream of `capture` (of codec `codec`) beside the video of `video`,
/// replacing `video` whole; returns how the audio went in.
pub fn mux(ffmpeg: &Ffmpeg, video: &Path, capture: &Path, codec: &str) -> Result<&'static str, ClipError> {
    let (audio_args, note) = crate::media::encoding::audio_args(video, codec, ffmpeg.build());
    if audio_args.is_empty() {
        return Ok("audio dropped");
    }
    let why = format!("the sound in a .{} output needs", crate::media::encoding::extension(video));
    ffmpeg.check_encoders(&audio_args, video, &why)?;
    if let Some(note) = &note {
        eprintln!("{note}");
    }
    let mut output = OutputFile::prepare_any_extension(video)?;
    let temporary = output.temporary_path()?;
    let mut args: Vec<std::ffi::OsString> = ["-v", "error", "-y", "-i"].iter().map(Into::into).collect();
    args.push(video.as_os_str().to_owned());
    args.push("-i".into());
    args.push(capture.as_os_str().to_owned());
    args.extend(["-map", "0:v:0", "-map", "1:a:0", "-c:v", "copy"].iter().map(Into::into));
    args.extend(audio_args.iter().map(Into::into));
    // The capture runs on a moment after the last frame sorted.
    args.push("-shortest".into());
    args.push(temporary.into_os_string());
    let done = ffmpeg.output(&mut ffmpeg.command(args))?;
    if !done.status.success() {
        let detail = last_error_line(&String::from_utf8_lossy(&done.stderr));
        return Err(ClipError::Choice(format!("the audio could not be added ({detail})")));
    }
    output.commit()?;
    Ok(if note.is_some() { "audio re-encoded" } else { "audio copied" })
}
