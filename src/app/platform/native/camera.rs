//! Live sources natively: ffmpeg reading a stream or the camera (`media::live`); the camera
//! opened on a thread of its own so the window goes on while it starts (it takes a moment).

use crate::app::Running;
use crate::app::platform::CameraOpening;
use crate::media::live::frames::{LiveFrameSource, OpenedLive};
use crate::picture::input::SizeLimit;
use crate::picture::live::Started;
use crate::settings::LiveInput;
use std::path::Path;
use std::sync::mpsc;

/// A live source being opened (on its thread).
pub(in crate::app) struct OpeningCamera(mpsc::Receiver<Result<OpenedLive, String>>);

/// Opens `input` through ffmpeg and waits for its first frame.
pub(in crate::app) fn open_live(
    input: &LiveInput,
    ffmpeg: Option<&Path>,
    limit: &SizeLimit,
) -> anyhow::Result<Started> {
    Ok(started(LiveFrameSource::open(input, ffmpeg, limit)?))
}

/// An opened source as the app takes it.
fn started(opened: OpenedLive) -> Started {
    let name = if opened.source.is_camera() { "camera" } else { "live" };
    Started {
        frames: Box::new(opened.source),
        name: name.into(),
        first: opened.first,
        source_size: opened.source_size,
        note: opened.note,
    }
}

impl CameraOpening for OpeningCamera {
    /// Starts opening the system's default camera.
    fn camera(running: &Running) -> Result<OpeningCamera, String> {
        let (ffmpeg, limit) = (running.video.ffmpeg.clone(), running.limit.clone());
        let (answer, answered) = mpsc::channel();
        std::thread::Builder::new()
            .name("open-camera".into())
            .spawn(move || {
                let opened = LiveFrameSource::open(&LiveInput::Camera(None), ffmpeg.as_deref(), &limit);
                let _ = answer.send(opened.map_err(|e| format!("{e:#}")));
            })
            .map_err(|e| format!("cannot start a thread: {e}"))?;
        Ok(OpeningCamera(answered))
    }

    /// The source once it is open (or why it could not be).
    fn poll(&mut self) -> Option<Result<Started, String>> {
        match self.0.try_recv() {
            Ok(answer) => Some(answer.map(started)),
            Err(mpsc::TryRecvError::Empty) => None,
            Err(mpsc::TryRecvError::Disconnected) => Some(Err("opening the camera failed".into())),
        }
    }
}
