//! A live source in the window or the page: the newest frame shown each time the window draws,
//! sorted to the end with the panel's settings (so settings can be tuned on the live picture);
//! frames that came in between are dropped and counted, never queued. Space pauses on the frame
//! shown, whose passes the step keys then walk through.

use super::panel_model::LiveView;
use super::{Running, Source};
use crate::controls::player::Stepper;
use crate::picture::input::Picture;
use crate::picture::latency::{Latencies, LatencySummary};
use crate::picture::live::{LiveFrames, LiveNext, Started};

/// The live source being shown.
pub(super) struct WindowLive {
    frames: Box<dyn LiveFrames>,
    /// The picture's name for files saved from it.
    name: String,
    /// Frames shown so far.
    pub(super) shown: u64,
    /// When the frame shown was put up.
    pub(super) shown_at: web_time::Instant,
    /// When the frame shown arrived, until its sort is known done.
    arrived: Option<web_time::Instant>,
    /// From a frame's arrival until the window knew it drawn sorted.
    latency: Latencies,
    /// Their summary, taken once a frame is measured rather than each time the panel draws.
    latency_summary: Option<LatencySummary>,
    paused: bool,
    /// Why the source ended, once it has.
    ended: Option<String>,
}

impl WindowLive {
    /// Shows `frames` under `name`, its first frame already the picture.
    pub(super) fn new(frames: Box<dyn LiveFrames>, name: String) -> WindowLive {
        let shown_at = web_time::Instant::now();
        let latency = Latencies::default();
        let latency_summary = None;
        WindowLive {
            frames,
            name,
            shown: 1,
            shown_at,
            arrived: None,
            latency,
            latency_summary,
            paused: false,
            ended: None,
        }
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

/// A started source as the window shows it, its first frame, and the line the status says.
pub(super) fn shown(started: Started) -> (WindowLive, Picture, String) {
    let live = WindowLive::new(started.frames, started.name);
    let picture = live.picture(started.first);
    let line = format!("showing {} live, every frame sorted; Space pauses on a frame", picture.label);
    let line = started.note.map_or_else(|| line.clone(), |n| format!("{n}; {line}"));
    (live, picture, line)
}

impl Running {
    /// Shows the newest frame of the live source, if one came and it is not paused, once the
    /// GPU has sorted the frame before (its counts came back): a GPU slower than the source
    /// drops frames rather than falling behind with work queued.
    pub(super) fn advance_live(&mut self) {
        self.session.lanes.take_counts();
        let lanes = &self.session.lanes;
        if lanes.counts_pending() || (lanes.steps_done() < lanes.total_steps() && lanes.error.is_none()) {
            return;
        }
        if let Some(live) = self.source.live_mut()
            && let Some(arrived) = live.arrived.take()
        {
            live.latency.add(arrived.elapsed());
            live.latency_summary = live.latency.summary();
        }
        if !self.source.live().is_some_and(WindowLive::busy) {
            return;
        }
        self.capture_take_frame();
        let Some(live) = self.source.live_mut() else { return };
        match live.frames.newest() {
            LiveNext::Waiting => {}
            LiveNext::Frame(pixels, arrived) => {
                live.shown += 1;
                live.shown_at = web_time::Instant::now();
                live.arrived = Some(arrived);
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
                    Ok(()) => self.ui.status.say(line),
                    Err(_) => self.ui.status.error(line),
                }
                self.end_take(Some("the live source ended".into()));
            }
        }
    }

    /// Starts opening the camera (the Camera button, Shift+O, or `?source=camera` in the page);
    /// the picture or clip shown stays until its first frame comes.
    pub(super) fn open_camera(&mut self) {
        match <super::platform::OpeningCamera as super::platform::CameraOpening>::camera(self) {
            Ok(opening) => {
                self.ui.status.say("opening the camera …");
                self.opening_live = Some(opening);
            }
            Err(e) => self.ui.status.error(e),
        }
    }

    /// Shows the live source being opened once its first frame has come, in place of the
    /// picture or clip; on failure what was shown stays and the reason is said.
    pub(super) fn check_live_opening(&mut self) {
        let Some(answer) = self.opening_live.as_mut().and_then(super::platform::CameraOpening::poll) else {
            return;
        };
        self.opening_live = None;
        match answer {
            Ok(opened) => {
                let source_size = opened.source_size;
                let (live, picture, line) = shown(opened);
                self.source = Source::Live(Box::new(live));
                self.set_title(&picture.name);
                self.show_picture(picture, source_size);
                self.ui.zoom = None;
                self.ui.pan = egui::Vec2::ZERO;
                self.ui.status.say(line);
            }
            Err(e) => self.ui.status.error(e),
        }
    }

    /// Space with a live source: pauses on the frame shown, or goes on with the newest.
    pub(super) fn toggle_live(&mut self) {
        let Some(live) = self.source.live_mut() else { return };
        live.paused = !live.paused;
        if live.paused {
            self.ui
                .status
                .say("paused on the frame shown; the step keys walk through its steps, Space goes on live");
        }
    }

    /// Sorts the frame shown to the end when frames follow each other (a clip's or a live
    /// source's); a paused frame's passes are then a step key away.
    pub(super) fn sort_frame_to_end(&mut self) {
        if self.source.moves() {
            self.session.lanes.run_to_end();
        }
    }

    /// Goes on sorting the frame shown to the end while a clip plays or a live source is shown
    /// (a sort longer than what one submission holds).
    pub(super) fn keep_frame_sorting(&mut self) {
        let playing = self.source.busy();
        let lanes = &self.session.lanes;
        if playing && lanes.steps_done() < lanes.total_steps() {
            self.sort_frame_to_end();
        }
    }

    /// The live source's counts and latency, as `--quit-after` prints them.
    pub(super) fn live_report(&self) -> Option<String> {
        let view = self.live_view()?;
        let latency = view.latency.map_or_else(|| "no frame measured".to_string(), |l| l.to_string());
        Some(format!(
            "live: {} shown, {} received, {} dropped; from arrival to drawn sorted {latency}",
            view.shown, view.received, view.dropped
        ))
    }

    /// What the panel shows of the live source.
    pub(super) fn live_view(&self) -> Option<LiveView> {
        let live = self.source.live()?;
        let (received, dropped) = live.frames.counts();
        Some(LiveView {
            label: live.frames.label(),
            shown: live.shown,
            received,
            dropped,
            paused: live.paused,
            ended: live.ended.is_some(),
            latency: live.latency_summary,
        })
    }
}
