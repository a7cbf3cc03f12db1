//! The live window: a winit event loop with a wgpu surface and egui, showing the picture
//! sorting pass by pass.
//!
//! This file holds the event loop and the state every part of the window works on
//! ([`WindowOptions`], `Running`, `Session`); each of the files below adds the methods of one
//! responsibility, or a piece they use:
//! - the frame: `running` (set-up, the frame loop, the pass budget), `window_size` (how large
//!   it opens), `render` (surface and egui drawing), `display` (the lanes' pictures drawn from their state);
//! - the user: `commands` (the key table), `actions` (what commands and panel edits do),
//!   `player` (playing and stepping), `panel_model` (what the panel reads and reports), `ui`,
//!   `pictures` and `interval_panel` (the egui panel itself), `zoom`, `lens` and `lens_panel`
//!   (the row lens: the line inspected, and its strip of bars);
//! - the sort: `session` (what is sorted and how), `explain` (the panel's sentences on it), `lanes` (the GPU runs shown), `window_intervals`
//!   and `live_intervals` (intervals, live), `window_mask`, `window_angle` (the direction);
//! - files: `files` (open, save PNG), `window_recording` and `recording` (G, in the background),
//!   `window_clip` (a clip played sorted, paused, stepped, recorded).
#![cfg(not(target_arch = "wasm32"))]

mod actions;
pub mod display;
mod files;
pub mod interval_panel;
pub mod lanes;
mod lanes_by_time;
mod lens;
pub mod lens_panel;
pub mod live_intervals;
pub mod panel_model;
pub mod pictures;
pub mod recording;
mod render;
mod running;
mod saves;
mod session;
pub mod ui;
mod window_angle;
pub mod window_clip;
mod window_intervals;
pub mod window_mask;
mod window_recording;
pub mod window_size;
pub mod zoom;

use crate::algorithms::odd_even::PassKind;
use crate::algorithms::radix::RadixSettings;
use crate::algorithms::{Algorithm, Pipelines};
use crate::angle::scatter::LineScatter;
use crate::angle::{Angle, Lines};
use crate::controls::commands::{Command, CommandSpec};
use crate::controls::player::Player;
use crate::gpu::Gpu;
use crate::intervals::{IntervalMap, IntervalSettings, Mask};
use crate::keys::options::SortOptions;
use crate::picture::input::{Picture, SizeLimit};
use crate::record::RecordSettings;
use crate::settings::{Settings, VideoSettings};
use crate::video::playback::ClipReader;
use display::DisplayPipeline;
use lanes::{LaneSync, Lanes};
use live_intervals::{IntervalInputs, RefreshThrottle};
use panel_model::UiState;
use recording::BackgroundRecording;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};
use winit::application::ApplicationHandler;
use winit::event::WindowEvent;
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::window::{Window, WindowId};

/// What the window opens on.
pub enum WindowSource {
    /// A picture.
    Picture(Picture),
    /// A clip, opened (ffmpeg found, its frames counted) but not yet decoded: it plays sorted.
    Clip(ClipReader),
}

impl WindowSource {
    /// The name in the window's title.
    fn title(&self) -> String {
        match self {
            WindowSource::Picture(picture) => picture.name.clone(),
            WindowSource::Clip(reader) => {
                reader.path().file_name().map_or_else(String::new, |n| n.to_string_lossy().into())
            }
        }
    }
}

/// How the window starts.
pub struct WindowOptions {
    /// The picture or clip.
    pub source: WindowSource,
    /// What the command line asked for: algorithm, key and order, direction, run and interval
    /// settings, the size limit, how G records and clips are written, and the window's own
    /// flags (play, speed, lens, quit after).
    pub settings: Settings,
    /// A mask (`--mask`) and its file, already checked against the picture's size.
    pub mask: Option<(PathBuf, Mask)>,
}

/// Opens the window and runs until it closes.
pub fn run(options: WindowOptions) -> anyhow::Result<()> {
    let event_loop = EventLoop::new().map_err(|e| {
        let no_display =
            ["DISPLAY", "WAYLAND_DISPLAY", "WAYLAND_SOCKET"].iter().all(|v| std::env::var_os(v).is_none());
        let why = if no_display {
            "no display: DISPLAY and WAYLAND_DISPLAY are not set".to_string()
        } else {
            e.to_string()
        };
        anyhow::anyhow!(
            "cannot open a window ({why}); run in a desktop session, or sort headless with --out or --record"
        )
    })?;
    let instance = Gpu::instance_from_env(Some(Box::new(event_loop.owned_display_handle())));
    let mut app = App { options: Some(options), instance: Some(instance), running: None, failure: None };
    event_loop.run_app(&mut app)?;
    match app.failure {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// How often an idle window looks for a signal.
const SIGNAL_POLL: Duration = Duration::from_millis(200);

struct App {
    options: Option<WindowOptions>,
    instance: Option<wgpu::Instance>,
    running: Option<Running>,
    failure: Option<anyhow::Error>,
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.running.is_some() {
            return;
        }
        let (Some(options), Some(instance)) = (self.options.take(), self.instance.take()) else { return };
        match Running::new(event_loop, instance, options) {
            Ok(running) => self.running = Some(running),
            Err(e) => {
                self.failure = Some(e);
                event_loop.exit();
            }
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _: WindowId, event: WindowEvent) {
        let Some(running) = self.running.as_mut() else { return };
        let response = running.egui_state.on_window_event(&running.window, &event);
        match event {
            WindowEvent::CloseRequested => running.quit = true,
            WindowEvent::Resized(size) => running.resize(size.width, size.height),
            WindowEvent::RedrawRequested => running.frame(),
            _ => {}
        }
        if response.repaint {
            running.window.request_redraw();
        }
        if running.quit {
            running.report_and_stop();
            event_loop.exit();
        }
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        let Some(running) = self.running.as_mut() else { return };
        // SIGINT, SIGTERM or SIGHUP: close as if asked to, leaving no recording half-written.
        if crate::interrupt::check().is_err() {
            running.report_and_stop();
            event_loop.exit();
            return;
        }
        // A clip opened from the dialog or a drop plays once it is open (noticed at the latest
        // at the next wake-up).
        if running.check_opening() {
            running.window.request_redraw();
        }
        if running.wants_frames() {
            running.window.request_redraw();
            event_loop.set_control_flow(ControlFlow::Poll);
        } else {
            // Idle, but awake a few times a second to notice a signal.
            event_loop.set_control_flow(ControlFlow::WaitUntil(Instant::now() + SIGNAL_POLL));
        }
    }
}

/// The picture and how it is being sorted.
struct Session {
    picture: Picture,
    /// Key, order, and the axis the algorithms sort along (`lines.sorted_axis()`).
    options: SortOptions,
    /// The lines sorted along: the direction laid through the picture.
    lines: Lines,
    algorithm: Algorithm,
    pass_kind: PassKind,
    phases_per_step: u32,
    radix: RadixSettings,
    compare: bool,
    sync: LaneSync,
    lanes: Lanes,
    player: Player,
    /// The picture's size before it was fitted to the size limit (masks must have it).
    source_size: (u32, u32),
    /// How the lines are cut into intervals (the panel's interval controls).
    intervals: IntervalSettings,
    /// The loaded mask, if any.
    mask: Option<window_mask::WindowMask>,
    /// Masks loaded so far, to number the next.
    masks_loaded: u64,
    /// The intervals the lanes sort within (`None`: whole lines), and what they were made from.
    interval_map: Option<IntervalMap>,
    intervals_made_from: IntervalInputs,
    throttle: RefreshThrottle,
    /// An angle dragged in the panel and not yet laid out, and how often lay-outs may run.
    pending_angle: Option<Angle>,
    angle_throttle: RefreshThrottle,
    /// Whether the intervals are drawn over the pictures.
    show_intervals: bool,
}

/// Frame timing, for the panel and `--quit-after`.
struct FrameClock {
    started: Instant,
    last: Instant,
    frames: u64,
    /// How long each frame's work took, in milliseconds (for `--quit-after`'s percentiles).
    took_ms: Vec<f32>,
    /// Start times of the frames of the last second.
    recent: std::collections::VecDeque<Instant>,
}

struct Running {
    window: Arc<Window>,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    gpu: Arc<Gpu>,
    egui_ctx: egui::Context,
    egui_state: egui_winit::State,
    renderer: egui_wgpu::Renderer,
    display: DisplayPipeline,
    pipelines: Vec<(Algorithm, Pipelines)>,
    scatter: LineScatter,
    commands: Vec<CommandSpec>,
    session: Session,
    ui: UiState,
    recording: Option<BackgroundRecording>,
    limit: SizeLimit,
    record_settings: RecordSettings,
    clock: FrameClock,
    quit_after: Option<Duration>,
    quit: bool,
    /// Seconds one pass took last time, to size the next frame's batch.
    seconds_per_pass: f64,
    last_reported_pass: Option<u32>,
    /// The intervals drawn for the overlay, while it is shown.
    intervals_overlay: Option<egui::TextureHandle>,
    /// The row lens, while it is open.
    lens: Option<lens::WindowLens>,
    /// Where the lens last was, to open it there again.
    lens_point: Option<(u32, u32)>,
    /// Reads the lens's line from the GPU.
    lens_probe: crate::lens::LensProbe,
    /// Where to save the next frame as shown (S with the lens open).
    view_to_save: Option<PathBuf>,
    /// What S saves, on its way back from the GPU.
    saves: saves::Saves,
    /// The clip playing, when a clip is open (`session.picture` is its frame shown).
    clip: Option<window_clip::WindowClip>,
    /// A clip being opened (the dialog or a drop), played once its first frame is read.
    opening: Option<crate::video::playback::OpeningClip>,
    /// How clips are read and written, for clips opened later.
    video: VideoSettings,
    /// `--max-size`, for G's clip recordings.
    options_max_size: Option<u32>,
}
