//! What can go wrong with a live source, each said with what to do.

use crate::media::ffmpeg::FfmpegError;
use crate::settings::LiveInput;
use std::path::PathBuf;

/// A live source that could not be opened, sent nothing, or stopped.
#[derive(Debug, thiserror::Error)]
pub enum LiveError {
    /// ffmpeg could not open it.
    #[error("cannot open {label}: {detail}; {hint}")]
    NotOpened {
        /// The source, as the user named it.
        label: String,
        /// ffmpeg's reason.
        detail: String,
        /// What to check.
        hint: String,
    },
    /// It was opened but sent no frame.
    #[error(
        "nothing came from {label} in {seconds:.0} s; check that it is sending (a udp:// stream must be sent to this machine's address and port) and try again"
    )]
    Silent {
        /// The source.
        label: String,
        /// How long it was waited for.
        seconds: f64,
    },
    /// Windows' camera input lists no camera.
    #[error("no camera found (ffmpeg's dshow input lists none); connect one, or name it with --camera NAME")]
    NoCamera,
    /// It stopped sending, or broke off, after some frames: those are in the output, whole.
    #[error("{label} {how} after {seconds:.1} s; the {frames} frames recorded before ({length:.2} s) are in '{}', whole", path.display())]
    Stopped {
        /// The source.
        label: String,
        /// "stopped sending", or "broke off (ffmpeg's reason)".
        how: String,
        /// How long it had been sending.
        seconds: f64,
        /// Frames in the output.
        frames: u64,
        /// Their length in seconds.
        length: f64,
        /// The output.
        path: PathBuf,
    },
    /// ffmpeg is missing or cannot run.
    #[error(transparent)]
    Ffmpeg(#[from] FfmpegError),
    /// A signal came while the source was being opened.
    #[error(transparent)]
    Interrupted(#[from] crate::interrupt::Interrupted),
    /// A thread could not be started.
    #[error("cannot start a thread: {0}")]
    Thread(std::io::Error),
}

impl LiveError {
    /// ffmpeg ended before the stream's first frame, saying `detail` (of a camera or not).
    pub fn opening(label: &str, detail: &str, camera: bool) -> LiveError {
        let busy = detail.contains("Device or resource busy");
        let missing = detail.contains("No such file or directory") && camera;
        let (detail, hint) = match () {
            _ if busy => ("the camera is in use by another program".to_string(), "close it and try again"),
            _ if missing => (
                "there is no such camera".to_string(),
                "see which cameras there are (on Linux: ls /dev/video*) and name one with --camera DEVICE",
            ),
            _ => (
                format!("ffmpeg says: {detail}"),
                "check the address (or device) and that the source is sending",
            ),
        };
        LiveError::NotOpened { label: label.into(), detail, hint: hint.into() }
    }
}

/// What to check when a source holds no video.
pub fn hint(input: &LiveInput) -> String {
    match input {
        LiveInput::Url(_) => "give a stream with video".into(),
        LiveInput::Camera(_) => "name a video device with --camera DEVICE".into(),
    }
}
