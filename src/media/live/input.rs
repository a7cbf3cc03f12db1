//! How ffmpeg opens a live source: a URL as it is (a video device path through the platform's
//! camera input), a camera through v4l2 on Linux, avfoundation on macOS and dshow on Windows.

use super::error::LiveError;
use crate::media::ffmpeg::Ffmpeg;
use crate::settings::LiveInput;
use std::ffi::OsString;

/// The platforms whose camera input ffmpeg names differently.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Platform {
    /// v4l2, cameras at `/dev/videoN` (also where no other platform matches).
    Linux,
    /// avfoundation.
    MacOs,
    /// dshow, cameras by name (`video=NAME`).
    Windows,
}

impl Platform {
    /// The platform this build runs on.
    const HERE: Platform = if cfg!(target_os = "macos") {
        Platform::MacOs
    } else if cfg!(target_os = "windows") {
        Platform::Windows
    } else {
        Platform::Linux
    };

    /// Its camera input in ffmpeg.
    fn camera_format(self) -> &'static str {
        match self {
            Platform::Linux => "v4l2",
            Platform::MacOs => "avfoundation",
            Platform::Windows => "dshow",
        }
    }
}

/// ffmpeg's input arguments for `input` (`-f FORMAT -i NAME`).
pub fn input_args(ffmpeg: &Ffmpeg, input: &LiveInput) -> Result<Vec<OsString>, LiveError> {
    args_on(Platform::HERE, input, || {
        let mut command = ffmpeg.command(["-list_devices", "true", "-f", "dshow", "-i", "dummy"]);
        Ok(String::from_utf8_lossy(&ffmpeg.output(&mut command)?.stderr).into_owned())
    })
}

/// ffmpeg's input arguments for `input` on `platform`; `dshow_listing` asks ffmpeg for the
/// cameras dshow lists, needed only for the default camera on Windows.
fn args_on(
    platform: Platform,
    input: &LiveInput,
    dshow_listing: impl FnOnce() -> Result<String, LiveError>,
) -> Result<Vec<OsString>, LiveError> {
    let camera = platform.camera_format();
    let (format, name) = match input {
        LiveInput::Url(url) if is_device_path(platform, url) => (Some(camera), url.clone()),
        LiveInput::Url(url) => (None, url.clone()),
        LiveInput::Camera(Some(device)) => (Some(camera), camera_name(platform, device)),
        LiveInput::Camera(None) => (Some(camera), default_camera(platform, dshow_listing)?),
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
        LiveInput::Url(url) => is_device_path(Platform::HERE, url),
        LiveInput::Camera(_) => true,
    }
}

/// A device path ffmpeg opens only through the camera input (`/dev/video0` on Linux).
fn is_device_path(platform: Platform, url: &str) -> bool {
    platform == Platform::Linux && url.starts_with("/dev/video")
}

/// The input name of a named camera: dshow wants `video=NAME`.
fn camera_name(platform: Platform, device: &str) -> String {
    if platform == Platform::Windows && !device.starts_with("video=") {
        return format!("video={device}");
    }
    device.to_string()
}

/// The default camera: the first video device on Linux, the system's default on macOS, the
/// first camera dshow lists on Windows.
fn default_camera(
    platform: Platform,
    dshow_listing: impl FnOnce() -> Result<String, LiveError>,
) -> Result<String, LiveError> {
    match platform {
        Platform::MacOs => Ok("default".into()),
        Platform::Windows => first_dshow_camera(&dshow_listing()?)
            .map(|name| format!("video={name}"))
            .ok_or(LiveError::NoCamera),
        Platform::Linux => Ok("/dev/video0".into()),
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

    /// The arguments on `platform`, as strings; the dshow listing has one camera, "Cam 1".
    fn args(platform: Platform, input: LiveInput) -> Result<Vec<String>, LiveError> {
        let listing = || Ok("[dshow @ 1] \"Mic\" (audio)\n[dshow @ 1] \"Cam 1\" (video)\n".to_string());
        let args = args_on(platform, &input, listing)?;
        Ok(args.into_iter().map(|a| a.into_string().unwrap()).collect())
    }

    #[test]
    fn each_platform_opens_cameras_through_its_own_input() {
        use LiveInput::{Camera, Url};
        use Platform::{Linux, MacOs, Windows};
        let named = |name: &str| Camera(Some(name.to_string()));
        let cases = [
            (Linux, Camera(None), vec!["-f", "v4l2", "-i", "/dev/video0"]),
            (Linux, named("/dev/video2"), vec!["-f", "v4l2", "-i", "/dev/video2"]),
            (Linux, Url("/dev/video1".into()), vec!["-f", "v4l2", "-i", "/dev/video1"]),
            (MacOs, Camera(None), vec!["-f", "avfoundation", "-i", "default"]),
            (MacOs, named("0"), vec!["-f", "avfoundation", "-i", "0"]),
            (Windows, Camera(None), vec!["-f", "dshow", "-i", "video=Cam 1"]),
            (Windows, named("Cam 2"), vec!["-f", "dshow", "-i", "video=Cam 2"]),
            (Windows, named("video=Cam 3"), vec!["-f", "dshow", "-i", "video=Cam 3"]),
        ];
        for (platform, input, expected) in cases {
            assert_eq!(args(platform, input.clone()).unwrap(), expected, "{platform:?} {input:?}");
        }
        // A stream's URL is opened as it is, on every platform, without ffmpeg's long probe;
        // only Linux takes /dev/video paths as cameras.
        for platform in [Linux, MacOs, Windows] {
            let url = "udp://0.0.0.0:5000";
            let stream = ["-fflags", "nobuffer", "-analyzeduration", "500000", "-i", url];
            assert_eq!(args(platform, Url(url.into())).unwrap(), stream, "{platform:?}");
        }
        assert_eq!(args(MacOs, Url("/dev/video0".into())).unwrap()[4..], ["-i", "/dev/video0"]);
        // Windows without a camera says so.
        let none = args_on(Windows, &Camera(None), || Ok("[dshow @ 1] \"Mic\" (audio)\n".into()));
        assert!(matches!(none, Err(LiveError::NoCamera)), "{none:?}");
    }
}
