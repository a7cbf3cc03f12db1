//! A live source for the window: ffmpeg reading it into the one-frame slot, the window taking
//! the newest frame each time it draws.

use super::decoder::{LiveDecoder, LiveEnd, LiveStart, Slot};
use super::slot::Taken;
use crate::media::ffmpeg::Ffmpeg;
use crate::picture::input::SizeLimit;
use crate::picture::live::{LiveFrames, LiveNext};
use crate::settings::LiveInput;
use image::RgbaImage;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// ffmpeg reading a live source for the window.
pub struct LiveFrameSource {
    label: String,
    camera: bool,
    slot: Arc<Slot>,
    /// Kept for as long as frames are wanted: dropping it ends ffmpeg.
    _decoder: LiveDecoder,
}

/// A live source opened, with its first frame.
pub struct OpenedLive {
    /// The source, reading on.
    pub source: LiveFrameSource,
    /// Its first frame.
    pub first: RgbaImage,
    /// Its own size (the frames may be downscaled to the size limit).
    pub source_size: (u32, u32),
    /// Says when frames are downscaled.
    pub note: Option<String>,
}

impl LiveFrameSource {
    /// Opens `input` through ffmpeg (`ffmpeg` or the one found) at the size `limit` allows and
    /// waits for its first frame.
    pub fn open(input: &LiveInput, ffmpeg: Option<&Path>, limit: &SizeLimit) -> anyhow::Result<OpenedLive> {
        let label = super::label(input);
        let need = || format!("cannot read {label}: live sources are read through ffmpeg");
        let ffmpeg = Ffmpeg::find(ffmpeg, need)?;
        let slot = Arc::new(Slot::default());
        let (_spares_in, spares) = std::sync::mpsc::channel();
        let start = LiveStart { input, limit, duration: None, capture: None, open_wait: super::OPEN_WAIT };
        let decoder = LiveDecoder::start(&ffmpeg, start, slot.clone(), spares)?;
        let source_size = (decoder.info.width, decoder.info.height);
        let (_, note) = crate::media::fit(source_size, &label, limit)?;
        let first = match slot.take(super::OPEN_WAIT) {
            Taken::Frame { frame: (_, frame), .. } => frame.to_rgba(),
            _ => {
                let why = match slot.take_end() {
                    Some(LiveEnd::Failed(detail)) => format!("it broke off: {detail}"),
                    _ => format!("no frame came in {} s", super::OPEN_WAIT.as_secs()),
                };
                anyhow::bail!("cannot show {label}: {why}");
            }
        };
        let camera = super::input::is_camera(input);
        let source = LiveFrameSource { label, camera, slot, _decoder: decoder };
        Ok(OpenedLive { source, first, source_size, note })
    }
}

impl LiveFrameSource {
    /// Whether it is a camera (rather than a stream).
    pub fn is_camera(&self) -> bool {
        self.camera
    }
}

impl LiveFrames for LiveFrameSource {
    fn label(&self) -> String {
        self.label.clone()
    }

    fn newest(&mut self) -> LiveNext {
        match self.slot.take(Duration::ZERO) {
            Taken::Frame { frame: (at, frame), .. } => LiveNext::Frame(frame.to_rgba(), at),
            Taken::Nothing => LiveNext::Waiting,
            Taken::Ended => LiveNext::Ended(match self.slot.take_end() {
                Some(LiveEnd::Failed(detail)) => Err(detail),
                _ => Ok(()),
            }),
        }
    }

    fn counts(&self) -> (u64, u64) {
        let counts = self.slot.counts();
        (counts.received, counts.dropped)
    }
}
