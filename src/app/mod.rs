//! The live window: egui's runner (eframe) on our wgpu device, showing the picture sorting pass
//! by pass, natively ([`run`]: winit and egui-wgpu) and in a web page (`run_in_page`: eframe's
//! web runner on the browser's WebGPU). One app serves both; its frame never waits on the GPU.
//!
//! This file opens the window and holds `Running`, the controller that owns the parts below
//! and turns input into their methods; each file adds one responsibility:
//! - the model: `session` (what is sorted and how: the picture, the choice, the lines, its
//!   lanes restarted and stepped), `session_intervals` (its intervals, refreshed as the controls
//!   move, with `interval_refresh`'s rules), `session_mask` (its mask loaded, painted and saved);
//!   `lanes`, `lane_steps`, `lanes_by_time` and `lanes_to_end` (the GPU runs shown). The model
//!   reports through the status line (`panel_model::Status`) and knows nothing of the views;
//! - the controller: `runner` (the device opened through eframe, its hooks), `running` (set-up,
//!   the frame), `actions` (what commands and panel edits do), `frame_clock` (frames/s and
//!   `--quit-after`), `window_size` (how large it opens, natively), `window_mask` (a mask
//!   fitted to the picture);
//! - the views: `display` (the lanes' pictures drawn from their state), `overlays` (the
//!   intervals and the mask drawn over them), `panel_model` (what the panel reads and reports),
//!   `ui`, `pictures`, `interval_panel`, `lines_panel` and `help_overlay` (the egui panel
//!   itself, and the keys' list), `mask_brush`,
//!   `zoom`, `lens` and `lens_panel` (the row lens: the line inspected, and its strip of bars),
//!   `shader_panel` (J: the kernel a step dispatched, as compiled);
//! - files: `dialogs` (files chosen or dropped, and the page's downloads), `files` (open, S),
//!   `inputs` (the built-in inputs that teach, in the picture's place),
//!   `saves` and `texture_reads` (S's copies coming back), `window_recording` and
//!   `recording_job` (G, in the background), `clips` (a clip played sorted, paused, stepped,
//!   recorded), `window_live` (a live source shown sorted as it comes), `live_take` (G with a
//!   live source: its frames as shown);
//! - `platform`: what the window and the page do differently, as traits with a native and a
//!   web implementation (recordings and takes, the camera, clips).

mod actions;
mod clips;
pub mod dialogs;
pub mod display;
mod files;
mod frame_clock;
mod help_overlay;
mod inputs;
pub mod interval_panel;
pub mod interval_refresh;
mod lane_steps;
pub mod lanes;
mod lanes_by_time;
mod lanes_to_end;
mod lens;
pub mod lens_panel;
pub mod lines_panel;
mod live_take;
mod many;
pub mod mask_brush;
mod overlays;
pub mod panel_model;
pub mod pictures;
mod platform;
mod recording_job;
mod runner;
mod running;
mod saves;
mod session;
mod session_intervals;
mod session_mask;
mod shader_panel;
mod sound;
mod texture_reads;
pub mod ui;
mod window_live;
pub mod window_mask;
mod window_recording;
#[cfg(not(target_arch = "wasm32"))]
pub mod window_size;
pub mod zoom;

use crate::controls::commands::{Command, CommandSpec};
use crate::gpu::Gpu;
use crate::intervals::Mask;
use crate::picture::input::{Picture, SizeLimit};
use crate::settings::RecordSettings;
use crate::settings::Settings;
#[cfg(not(target_arch = "wasm32"))]
use crate::settings::VideoSettings;
use display::DisplayPipeline;
use frame_clock::FrameClock;
use panel_model::UiState;
use platform::BackgroundRecording;
use session::Session;
use std::path::PathBuf;
use std::sync::Arc;
use web_time::Duration;

/// What the window opens on.
pub enum WindowSource {
    /// A picture.
    Picture(Picture),
    /// A clip, opened (ffmpeg found, its frames counted) but not yet decoded: it plays sorted.
    #[cfg(not(target_arch = "wasm32"))]
    Clip(crate::media::playback::ClipReader),
    /// A live source, opened when the window opens: it is shown sorted as it comes.
    #[cfg(not(target_arch = "wasm32"))]
    Live(crate::settings::LiveInput),
}

#[cfg(not(target_arch = "wasm32"))]
impl WindowSource {
    /// The name in the window's title.
    fn title(&self) -> String {
        match self {
            WindowSource::Picture(picture) => picture.name.clone(),
            #[cfg(not(target_arch = "wasm32"))]
            WindowSource::Clip(reader) => {
                reader.path().file_name().map_or_else(String::new, |n| n.to_string_lossy().into())
            }
            WindowSource::Live(input) => crate::media::live::label(input),
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
#[cfg(not(target_arch = "wasm32"))]
pub fn run(options: WindowOptions) -> anyhow::Result<()> {
    let (width, height) = window_size::initial_size(None, window_size::remembered());
    let viewport = egui::ViewportBuilder::default()
        .with_title(format!("shadersort — {}", options.source.title()))
        .with_app_id("shadersort")
        .with_inner_size([width as f32, height as f32])
        .with_min_inner_size([480.0, 320.0]);
    let native = eframe::NativeOptions {
        viewport,
        wgpu_options: egui_wgpu::WgpuConfiguration {
            wgpu_setup: runner::wgpu_setup().into(),
            surface: egui_wgpu::SurfaceConfig {
                present_mode: wgpu::PresentMode::AutoVsync,
                desired_maximum_frame_latency: Some(2),
            },
            ..Default::default()
        },
        persist_window: false,
        ..Default::default()
    };
    // The app's own error, kept whole (eframe would keep only its first line).
    let mut failure = None;
    let ran = eframe::run_native(
        "shadersort",
        native,
        Box::new(|cc| match Running::new(cc, options) {
            Ok(running) => Ok(Box::new(running)),
            Err(e) => {
                let line = e.to_string();
                failure = Some(e);
                Err(line.into())
            }
        }),
    );
    if let Some(e) = failure {
        return Err(e);
    }
    ran.map_err(runner::explain)
}

/// Runs the app in the page's `canvas` on the browser's WebGPU until the page goes; the error
/// says why it could not start (the app's own error whole, or the runner's).
#[cfg(target_arch = "wasm32")]
pub async fn run_in_page(canvas: web_sys::HtmlCanvasElement, options: WindowOptions) -> Result<(), String> {
    let web = eframe::WebOptions {
        wgpu_options: egui_wgpu::WgpuConfiguration {
            wgpu_setup: runner::wgpu_setup().into(),
            ..Default::default()
        },
        ..Default::default()
    };
    let failure = std::rc::Rc::new(std::cell::RefCell::new(None));
    let kept = failure.clone();
    let creator: eframe::AppCreator<'static> = Box::new(move |cc| match Running::new(cc, options) {
        Ok(running) => Ok(Box::new(running)),
        Err(e) => {
            let line = format!("{e:#}");
            *kept.borrow_mut() = Some(line.clone());
            Err(line.into())
        }
    });
    let started = eframe::WebRunner::new().start(canvas, web, creator).await;
    match (started, failure.borrow_mut().take()) {
        (_, Some(line)) => Err(line),
        (Err(e), None) => Err(e.as_string().unwrap_or_else(|| format!("{e:?}"))),
        (Ok(()), None) => Ok(()),
    }
}

/// How often an idle window looks for a signal.
const SIGNAL_POLL: Duration = Duration::from_millis(200);

/// Where the picture shown comes from, one at a time: a picture file (or the built-in one), a
/// clip's frames, or a live source's (`session.picture` is the frame shown). Clips and live
/// sources are boxed: each holds hundreds of bytes of reports, a picture none.
enum Source {
    Picture,
    Clip(Box<platform::WindowClip>),
    Live(Box<window_live::WindowLive>),
}

impl Source {
    /// The clip playing, when a clip is open.
    fn clip(&self) -> Option<&platform::WindowClip> {
        match self {
            Source::Clip(clip) => Some(clip.as_ref()),
            _ => None,
        }
    }

    /// [`Source::clip`], to play it.
    fn clip_mut(&mut self) -> Option<&mut platform::WindowClip> {
        match self {
            Source::Clip(clip) => Some(clip.as_mut()),
            _ => None,
        }
    }

    /// The live source shown, when one is.
    fn live(&self) -> Option<&window_live::WindowLive> {
        match self {
            Source::Live(live) => Some(live.as_ref()),
            _ => None,
        }
    }

    /// [`Source::live`], to take its frames.
    fn live_mut(&mut self) -> Option<&mut window_live::WindowLive> {
        match self {
            Source::Live(live) => Some(live.as_mut()),
            _ => None,
        }
    }

    /// Whether new frames come (a clip or a live source), each sorted to the end as it comes.
    fn moves(&self) -> bool {
        !matches!(self, Source::Picture)
    }

    /// Whether the app must keep drawing frames for the source.
    fn busy(&self) -> bool {
        match self {
            Source::Picture => false,
            Source::Clip(clip) => platform::ClipPlayer::busy(clip.as_ref()),
            Source::Live(live) => live.busy(),
        }
    }
}

struct Running {
    gpu: Arc<Gpu>,
    egui_ctx: egui::Context,
    /// Commands from this frame's keys, taken out of egui's input before it sees them.
    shortcut_actions: Vec<panel_model::Action>,
    /// File dialogs, and their answers.
    dialogs: dialogs::Dialogs,
    /// The window's size, kept for the next run and fitted to the screen once known.
    #[cfg(not(target_arch = "wasm32"))]
    window_fit: window_size::WindowFit,
    display: DisplayPipeline,
    /// The device's kernels: every lane, the recorder and the saves start their sorts here.
    engine: Arc<crate::engine::Engine>,
    commands: Vec<CommandSpec>,
    session: Session,
    ui: UiState,
    recording: Option<BackgroundRecording>,
    limit: SizeLimit,
    record_settings: RecordSettings,
    clock: FrameClock,
    /// What is drawn over the pictures: the intervals, and the mask while painting.
    overlays: overlays::Overlays,
    /// The row lens: open or closed, where it was, and its reader.
    lens: lens::Lens,
    /// The steps' sound (Shift+M).
    sound: sound::Sound,
    /// What S saves, on its way back from the GPU.
    saves: saves::Saves,
    /// Where the picture shown comes from: a picture, a clip's frames or a live source's.
    source: Source,
    /// A clip being opened (the dialog or a drop), played once its first frame is read.
    opening: Option<platform::OpeningClip>,
    /// A live source being opened (the Camera button), shown once its first frame comes.
    opening_live: Option<platform::OpeningCamera>,
    /// A take of the live source's frames (G while it is shown).
    take: Option<live_take::LiveTake>,
    /// How clips are read and written, for clips opened later.
    #[cfg(not(target_arch = "wasm32"))]
    video: VideoSettings,
    /// `--max-size`, for G's clip recordings.
    #[cfg(not(target_arch = "wasm32"))]
    options_max_size: Option<u32>,
    /// A built-in input shown in place of the picture, if one is.
    input: Option<inputs::ShownInput>,
}
