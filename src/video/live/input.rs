//! How ffmpeg opens a live source: a URL as it is (a video device path through the platform's
//! camera input), a camera through v4l2 on Linux, avfoundation on macOS and dshow on Windows.

use super::error::LiveError;
use crate::settings::LiveInput;
use crate::video::ffmpeg::Ffmpeg;
use std::ffi::OsString;

/// The platform's camera input in ffmpeg.
#[cfg(target_os = "linux")]
const CAMERA_FORMAT: &str = "v4l2";
#[cfg(target_os = "macos")]
const CAMERA_FORMAT: &str = "avfoundation";
#[cfg(target_os = "windows")]
const CAMERA_FORMAT: &str = "dshow";
#[cfg(not(any(target_os = "linux", target_os = "macos", target_os = "windows")))]
const CAMERA_FORMAT: &str = "v4l2";

/// ffmpeg's input arguments for `input` (`-f FORMAT -i NAME`).
pub fn input_args(ffmpeg: &Ffmpeg, input: &LiveInput) -> Result<Vec<OsString>, LiveError> {
    let (format, name) = match input {
        LiveInput::Url(url) if is_device_path(url) => (Some(CAMERA_FORMAT), url.clone()),
        LiveInput::Url(url) => (None, url.clone()),
        LiveInput::Camera(Some(device)) => (Some(CAMERA_FORMAT), camera_name(device)),
        LiveInput::Camera(None) => (Some(CAMERA_FORMAT), default_camera(ffmpeg)?),
    };
    let mut args: Vec<OsString> = Vec::new();
    if format.is_none() {
        // ffmpeg otherwise reads seconds of a stream to learn its streams, then decodes them
        // at once: a burst the sort must drop, and that much later a picture.
        args.extend(["-fflags", "nobuffer", "-analyzeduration", "500000"].map(OsString::from));
    }
    if let Some(format) = format {
        args.extend(["-f".into(), format.into()]);
    }
    args.extend(["-i".into(), name.into()]);
    Ok(args)
}

/// Whether `input` is a camera (named, the default, or a device path).
pub fn is_camera(input: &LiveInput) -> bool {
    match input {
        LiveInput::Url(url) => is_device_path(url),
        LiveInput::Camera(_) => true,
    }
}

/// A device path ffmpeg opens only through the camera input (`/dev/video0`).
fn is_device_path(url: &str) -> bool {
    cfg!(target_os = "linux") && url.starts_with("/dev/video")
}

/// The input name of a named camera: dshow wants `video=NAME`.
fn camera_name(device: &str) -> String {
    if CAMERA_FORMAT == "dshow" && !device.starts_with("video=") {
        return format!("video={device}");
    }
    device.to_string()
}

/// The default camera: the first video device on Linux, the system's default on macOS, the
/// first camera dshow lists on Windows.
fn default_camera(ffmpeg: &Ffmpeg) -> Result<String, LiveError> {
    match CAMERA_FORMAT {
        "avfoundation" => Ok("default".into()),
        "dshow" => {
            let mut command = ffmpeg.command(["-list_devices", "true", "-f", "dshow", "-i", "dummy"]);
            let listing = ffmpeg.output(&mut command)?;
            first_dshow_camera(&String::from_utf8_lossy(&listing.stderr))
                .map(|name| format!("video={name}"))
                .ok_or(LiveError::NoCamera)
        }
        _ => Ok("/dev/video0".into()),
    }
}

/// The first video device in dshow's listing (`[dshow @ 0x...] "Integrated Camera" (video)`).
fn first_dshow_camera(listing: &str) -> Option<String> {
    listing.lines().find(|l| l.trim_end().ends_with("(video)")).and_then(|line| {
        let start = line.find('"')? + 1;
        let end = start + line[start..].find('"')?;
        Some(line[start..end].to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dshow_lists_its_first_camera_by_name() {
        let listing = "[dshow @ 000001] \"Microphone (Realtek)\" (audio)\n[dshow @ 000001]   Alternative name \"@device_cm_{33D9A762}\"\n[dshow @ 000001] \"Integrated Camera\" (video)\n[dshow @ 000001] \"OBS Virtual Camera\" (video)\n";
        assert_eq!(first_dshow_camera(listing).as_deref(), Some("Integrated Camera"));
        assert_eq!(first_dshow_camera("[dshow @ 1] \"Mic\" (audio)\n"), None);
    }
}
