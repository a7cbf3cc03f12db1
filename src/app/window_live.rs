//! A live source in the window or the page: the newest frame shown each time the window draws,
//! sorted to the end with the panel's settings (so settings can be tuned on the live picture);
//! frames that came in between are dropped and counted, never queued. Space pauses on the frame
//! shown, whose passes the step keys then walk through.

use super::Running;
use super::panel_model::LiveView;
use crate::controls::player::Stepper;
use crate::picture::input::Picture;
use crate::picture::live::{LiveFrames, LiveNext};

/// The live source being shown.
pub(super) struct WindowLive {
    frames: Box<dyn LiveFrames>,
    /// The picture's name for files saved from it.
    name: String,
    /// Frames shown so far.
    shown: u64,
    paused: bool,
    /// Why the source ended, once it has.
    ended: Option<String>,
}

// Only native windows open a live source (through ffmpeg) so far.
#[cfg_attr(target_arch = "wasm32", allow(dead_code, reason = "only native windows open a live source"))]
impl WindowLive {
    /// Shows `frames` under `name`, its first frame already the picture.
    pub(super) fn new(frames: Box<dyn LiveFrames>, name: String) -> WindowLive {
        WindowLive { frames, name, shown: 1, paused: false, ended: None }
    }

    /// Whether the window must keep drawing frames for it.
    pub(super) fn busy(&self) -> bool {
        !self.paused && self.ended.is_none()
    }

    /// The frame as the picture the window sorts.
    fn picture(&self, pixels: image::RgbaImage) -> Picture {
        let label = self.frames.label();
        Picture { pixels, name: self.name.clone(), label, has_alpha: false, note: None }
    }
}

/// A live source opened for the window.
#[cfg(not(target_arch = "wasm32"))]
pub(super) struct Opened {
    /// The source.
    pub(super) live: WindowLive,
    /// Its first frame.
    pub(super) picture: Picture,
    /// Its own size.
    pub(super) source_size: (u32, u32),
    /// What the status says.
    pub(super) line: String,
}

/// Opens a live source natively (ffmpeg reading it) and waits for its first frame.
#[cfg(not(target_arch = "wasm32"))]
pub(super) fn open_native(
    input: &crate::settings::LiveInput,
    given: &crate::settings::Settings,
    limit: &crate::picture::input::SizeLimit,
) -> anyhow::Result<Opened> {
    use crate::video::live::frames::LiveFrameSource;
    let opened = LiveFrameSource::open(input, given.video.ffmpeg.as_deref(), limit)?;
    let name = match input {
        crate::settings::LiveInput::Url(_) => "live",
        crate::settings::LiveInput::Camera(_) => "camera",
    };
    let live = WindowLive::new(Box::new(opened.source), name.into());
    let picture = live.picture(opened.first);
    let line = format!("showing {} live, every frame sorted; Space pauses on a frame", picture.label);
    let line = opened.note.map_or_else(|| line.clone(), |n| format!("{n}; {line}"));
    Ok(Opened { live, picture, source_size: opened.source_size, line })
}

impl Running {
    /// Shows the newest frame of the live source, if one came and it is not paused.
    pub(super) fn advance_live(&mut self) {
        let Some(live) = self.live.as_mut().filter(|l| l.busy()) else { return };
        match live.frames.newest() {
            LiveNext::Waiting => {}
            LiveNext::Frame(pixels) => {
                live.shown += 1;
                let picture = live.picture(pixels);
                let size = self.session.source_size;
                self.show_picture(picture, size);
            }
            LiveNext::Ended(how) => {
                let line = match &how {
                    Ok(()) => format!("{} ended; its last frame stays", live.frames.label()),
                    Err(why) => format!("{} broke off ({why}); its last frame stays", live.frames.label()),
                };
                live.ended = Some(line.clone());
                match how {
                    Ok(()) => self.ui.say(line),
                    Err(_) => self.ui.error(line),
                }
            }
        }
    }

    /// Space with a live source: pauses on the frame shown, or goes on with the newest.
    pub(super) fn toggle_live(&mut self) {
        let Some(live) = self.live.as_mut() else { return };
        live.paused = !live.paused;
        if live.paused {
            self.ui
                .say("paused on the frame shown; the step keys walk through its passes, Space goes on live");
        }
    }

    /// Sorts the frame shown to the end when frames follow each other (a clip's or a live
    /// source's); a paused frame's passes are then a step key away.
    pub(super) fn sort_frame_to_end(&mut self) {
        if self.clip.is_some() || self.live.is_some() {
            self.session.lanes.run_to_end();
        }
    }

    /// Goes on sorting the frame shown to the end while a clip plays or a live source is shown
    /// (a sort longer than what one submission holds).
    pub(super) fn keep_frame_sorting(&mut self) {
        let playing = self.clip.as_ref().is_some_and(super::window_clip::WindowClip::busy)
            || self.live.as_ref().is_some_and(WindowLive::busy);
        let lanes = &self.session.lanes;
        if playing && lanes.steps_done() < lanes.total_steps() {
            self.sort_frame_to_end();
        }
    }

    /// What the panel shows of the live source.
    pub(super) fn live_view(&self) -> Option<LiveView> {
        let live = self.live.as_ref()?;
        let (received, dropped) = live.frames.counts();
        Some(LiveView {
            label: live.frames.label(),
            shown: live.shown,
            received,
            dropped,
            paused: live.paused,
            ended: live.ended.is_some(),
        })
    }
}
