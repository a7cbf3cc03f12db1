//! The live window: a winit event loop with a wgpu surface and egui, showing the picture
//! sorting pass by pass.

pub mod commands;
pub mod display;
pub mod interval_panel;
pub mod lanes;
pub mod live_runs;
pub mod panel_model;
pub mod player;
pub mod recording;
pub mod ui;
mod window_angle;
pub mod window_mask;
mod window_runs;
pub mod zoom;

use crate::algorithms::odd_even::PassKind;
use crate::algorithms::radix::RadixSettings;
use crate::algorithms::{Algorithm, Pipelines, RunSettings};
use crate::angle::scatter::LineScatter;
use crate::angle::{Angle, Lines};
use crate::gpu::Gpu;
use crate::gpu::readback::read_texture;
use crate::intervals::{IntervalSettings, Mask, RunMap};
use crate::keys::options::{Scope, SortOptions};
use crate::picture::input::{Picture, SizeLimit};
use crate::picture::output::{OutputFile, OutputFormat};
use crate::record::{DEFAULT_FRAME_LIMIT, RecordSettings};
use commands::{Command, CommandSpec, command_for, command_table};
use display::DisplayPipeline;
use lanes::{LaneSync, Lanes};
use live_runs::{RefreshThrottle, RunInputs};
use panel_model::{Action, LaneView, UiModel, UiState};
use player::{Player, Stepper};
use recording::{BackgroundRecording, RecordingJob};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};
use winit::application::ApplicationHandler;
use winit::event::WindowEvent;
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::window::{Window, WindowId};

/// How the window starts.
pub struct WindowOptions {
    /// The picture.
    pub picture: Picture,
    /// Key and order (the axis follows `angle`).
    pub options: SortOptions,
    /// The direction to sort in.
    pub angle: Angle,
    /// Algorithm.
    pub algorithm: Algorithm,
    /// Pass kind.
    pub pass_kind: PassKind,
    /// Bubble: phases per step.
    pub phases_per_step: u32,
    /// Radix: digit width, key bits, scope, sub-steps.
    pub radix: RadixSettings,
    /// Largest picture side (`--max-size`), and whether larger ones are refused.
    pub max_size: Option<u32>,
    /// Refuse pictures over the limit instead of shrinking them.
    pub no_downscale: bool,
    /// Start playing.
    pub play: bool,
    /// Starting speed in passes per second (the nearest of [`player::SPEEDS`]).
    pub speed: Option<f64>,
    /// Close after this long and print frame statistics.
    pub quit_after: Option<Duration>,
    /// Settings for G (record).
    pub record: RecordSettings,
    /// How the lines are cut into runs.
    pub intervals: IntervalSettings,
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
        if running.wants_frames() {
            running.window.request_redraw();
            event_loop.set_control_flow(ControlFlow::Poll);
        } else {
            event_loop.set_control_flow(ControlFlow::Wait);
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
    /// How the lines are cut into runs (the panel's interval controls).
    intervals: IntervalSettings,
    /// The loaded mask, if any.
    mask: Option<window_mask::WindowMask>,
    /// Masks loaded so far, to number the next.
    masks_loaded: u64,
    /// The runs the lanes sort within (`None`: whole lines), and what they were made from.
    runs: Option<RunMap>,
    runs_made_from: RunInputs,
    throttle: RefreshThrottle,
    /// An angle dragged in the panel and not yet laid out, and how often lay-outs may run.
    pending_angle: Option<Angle>,
    angle_throttle: RefreshThrottle,
    /// Whether the runs are drawn over the pictures.
    show_runs: bool,
}

/// Frame timing, for the panel and `--quit-after`.
struct FrameClock {
    started: Instant,
    last: Instant,
    frames: u64,
    slowest: Duration,
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
    /// The runs drawn for the overlay, while it is shown.
    runs_overlay: Option<egui::TextureHandle>,
}

/// The share of a frame spent on passes, so the window stays responsive at any speed.
const FRAME_BUDGET_SECONDS: f64 = 0.012;

impl Running {
    fn new(
        event_loop: &ActiveEventLoop,
        instance: wgpu::Instance,
        options: WindowOptions,
    ) -> anyhow::Result<Self> {
        let screen = event_loop.primary_monitor().map(|m| m.size().to_logical::<f64>(m.scale_factor()));
        let (width, height) =
            initial_size(options.picture.pixels.dimensions(), screen.map(|s| (s.width, s.height)));
        let attributes = Window::default_attributes()
            .with_title(format!("shadersort — {}", options.picture.name))
            .with_inner_size(winit::dpi::LogicalSize::new(width, height))
            .with_min_inner_size(winit::dpi::LogicalSize::new(480.0, 320.0));
        let window = Arc::new(event_loop.create_window(attributes)?);
        let surface = instance.create_surface(window.clone())?;
        let gpu = Arc::new(pollster::block_on(Gpu::new(instance, Some(&surface)))?);
        let size = window.inner_size();
        let capabilities = surface.get_capabilities(&gpu.adapter);
        // egui expects a non-sRGB target (it writes gamma-space colours).
        let format =
            capabilities.formats.iter().copied().find(|f| !f.is_srgb()).unwrap_or(capabilities.formats[0]);
        let config = wgpu::SurfaceConfiguration {
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            format,
            width: size.width.max(1),
            height: size.height.max(1),
            present_mode: wgpu::PresentMode::AutoVsync,
            desired_maximum_frame_latency: 2,
            alpha_mode: capabilities.alpha_modes[0],
            view_formats: vec![],
            color_space: wgpu::SurfaceColorSpace::Auto,
        };
        if size.width > 0 && size.height > 0 {
            surface.configure(&gpu.device, &config);
        }
        let egui_ctx = egui::Context::default();
        let egui_state = egui_winit::State::new(
            egui_ctx.clone(),
            egui::ViewportId::ROOT,
            &window,
            Some(window.scale_factor() as f32),
            None,
            Some(gpu.device.limits().max_texture_dimension_2d as usize),
        );
        let renderer = egui_wgpu::Renderer::new(&gpu.device, format, egui_wgpu::RendererOptions::default());
        let display = DisplayPipeline::new(&gpu);
        let pipelines: Vec<_> = Algorithm::ALL.into_iter().map(|a| (a, Pipelines::new(&gpu, a))).collect();
        let limit = SizeLimit::new(
            gpu.device.limits().max_texture_dimension_2d,
            options.max_size,
            !options.no_downscale,
        );
        let mut ui = UiState::default();
        let source_size = options.picture.pixels.dimensions();
        let (picture, notice) = options.picture.fit(&limit)?;
        if let Some(notice) = notice {
            ui.say(notice);
        }
        let mask = match options.mask {
            Some((path, mask)) => Some(window_mask::WindowMask::new(
                mask,
                &path,
                0,
                &picture.label,
                source_size,
                picture.pixels.dimensions(),
            )?),
            None => None,
        };
        if let Some(mask) = &mask {
            ui.mask_path = mask.path.display().to_string();
        }
        let lines = Lines::new(
            options.angle,
            picture.pixels.dimensions(),
            gpu.device.limits().max_texture_dimension_2d,
        )?;
        let sort_options = lines.sort_options(options.options);
        let runs_made_from = RunInputs::new(&options.intervals, mask.as_ref().map(|m| m.id), lines.angle());
        let runs = window_runs::compute_runs(
            &lines,
            &picture.pixels,
            &runs_made_from,
            &options.intervals,
            mask.as_ref(),
        )?;
        let scatter = LineScatter::new(&gpu);
        let settings = RunSettings {
            pass_kind: options.pass_kind,
            phases_per_step: options.phases_per_step,
            radix: options.radix,
        };
        let lanes_for = lane_kinds(options.algorithm, settings, false, LaneSync::default());
        let lanes = Lanes::start(
            &gpu,
            &pipelines,
            &scatter,
            &display,
            &picture.pixels,
            &lines,
            sort_options,
            &lanes_for,
            runs.as_ref(),
        );
        let mut player = Player::default();
        if let Some(speed) = options.speed {
            player.set_speed(speed);
        }
        let session = Session {
            picture,
            options: sort_options,
            lines,
            algorithm: options.algorithm,
            pass_kind: options.pass_kind,
            phases_per_step: options.phases_per_step,
            radix: options.radix,
            compare: false,
            sync: LaneSync::default(),
            lanes,
            player,
            source_size,
            intervals: options.intervals,
            mask,
            masks_loaded: 1,
            runs,
            runs_made_from,
            throttle: RefreshThrottle::default(),
            pending_angle: None,
            angle_throttle: RefreshThrottle::default(),
            show_runs: false,
        };
        log::info!("window on {}", gpu.describe());
        let now = Instant::now();
        let mut running = Running {
            window,
            surface,
            config,
            gpu,
            egui_ctx,
            egui_state,
            renderer,
            display,
            pipelines,
            scatter,
            commands: command_table(),
            session,
            ui,
            recording: None,
            limit,
            record_settings: options.record,
            clock: FrameClock {
                started: now,
                last: now,
                frames: 0,
                slowest: Duration::ZERO,
                recent: Default::default(),
            },
            quit_after: options.quit_after,
            quit: false,
            // One pass per frame until a pass has been timed.
            seconds_per_pass: FRAME_BUDGET_SECONDS,
            last_reported_pass: None,
            runs_overlay: None,
        };
        running.register_lane_textures();
        if running.ui.status.is_empty() {
            running.report_runs();
        }
        if let Some(notice) = running.session.lanes.lanes.iter().find_map(|l| l.notice.clone()) {
            running.ui.say(notice);
        }
        if options.play {
            running.command(Command::PlayPause);
        }
        running.window.request_redraw();
        Ok(running)
    }

    fn wants_frames(&self) -> bool {
        self.session.player.busy()
            || self.recording.is_some()
            || self.quit_after.is_some()
            || self.runs_pending()
            || self.session.pending_angle.is_some()
    }

    fn resize(&mut self, width: u32, height: u32) {
        // A minimised window has no size: keep the old configuration until it comes back.
        if width > 0 && height > 0 {
            self.config.width = width;
            self.config.height = height;
            self.surface.configure(&self.gpu.device, &self.config);
        }
    }

    fn register_lane_textures(&mut self) {
        for lane in &mut self.session.lanes.lanes {
            if lane.texture_id.is_none() {
                lane.texture_id = Some(self.renderer.register_native_texture(
                    &self.gpu.device,
                    &lane.display_view,
                    wgpu::FilterMode::Nearest,
                ));
            }
        }
    }

    fn free_lane_textures(&mut self) {
        for lane in &mut self.session.lanes.lanes {
            if let Some(id) = lane.texture_id.take() {
                self.renderer.free_texture(&id);
            }
        }
    }

    /// Starts new lanes for the current picture and settings, at pass 0, within runs computed
    /// anew.
    fn restart_lanes(&mut self) {
        self.free_lane_textures();
        self.fit_lines_to_picture();
        self.recompute_runs();
        let s = &self.session;
        let kinds = lane_kinds(s.algorithm, s.settings(), s.compare, s.sync);
        self.session.lanes = Lanes::start(
            &self.gpu,
            &self.pipelines,
            &self.scatter,
            &self.display,
            &s.picture.pixels,
            &s.lines,
            s.options,
            &kinds,
            s.runs.as_ref(),
        );
        self.session.lanes.sync = self.session.sync;
        self.session.player.stop();
        self.register_lane_textures();
    }

    fn frame(&mut self) {
        let now = Instant::now();
        let seconds = now.duration_since(self.clock.last).as_secs_f64().min(0.25);
        self.clock.last = now;
        let mut raw = self.egui_state.take_egui_input(&self.window);
        let mut actions = self.keyboard_actions(&mut raw);
        let dropped: Vec<PathBuf> = raw.dropped_files.iter().map(|f| f.path().to_path_buf()).collect();
        for path in dropped.into_iter().filter(|p| !p.as_os_str().is_empty()) {
            self.open(path);
        }
        for action in actions.drain(..) {
            self.act(action);
        }
        self.refresh_runs(now);
        self.apply_pending_angle(now);
        self.step(seconds);
        self.finish_recording();
        let model_lanes = self.lane_views();
        let model = UiModel {
            commands: &self.commands,
            picture_label: &self.session.picture.label,
            size: self.session.picture.pixels.dimensions(),
            adapter: &self.gpu.describe(),
            algorithm: self.session.algorithm,
            pass_kind: self.session.pass_kind,
            radix: self.session.radix,
            key: self.session.options.key,
            reverse: self.session.options.descending,
            angle: self.session.pending_angle.unwrap_or(self.session.lines.angle()),
            compare: self.session.compare,
            sync: self.session.sync,
            step_noun: self.session.step_noun(),
            steps_done: self.session.lanes.steps_done(),
            total_steps: self.session.lanes.total_steps(),
            playing: self.session.player.playing(),
            speed: self.session.player.speed(),
            lanes: model_lanes,
            wall_ms_per_pass: self.session.lanes.wall_ms_per_pass,
            fps: self.clock.recent.len() as f64,
            recording: self.recording.as_ref().map(|r| {
                let (done, most) = r.progress();
                (done, most, r.path.display().to_string())
            }),
            intervals: self.session.intervals,
            mask_label: self.session.mask.as_ref().map(|m| m.path.display().to_string()),
            show_runs: self.session.show_runs,
            runs_summary: self.session.runs.as_ref().map(|r| self.session.lines.summary(r).to_string()),
            runs_overlay: self.runs_overlay.as_ref().map(egui::TextureHandle::id),
        };
        let ui_state = &mut self.ui;
        let mut clicked = Vec::new();
        let output = self.egui_ctx.run_ui(raw, |ui| ui::draw(ui, &model, ui_state, &mut clicked));
        drop(model);
        self.render(output);
        for action in clicked {
            self.act(action);
        }
        self.tally_frame(now);
    }

    /// Key presses that mean commands (unless a text field has focus); they are taken out of
    /// egui's input so a focused button does not also react to them.
    fn keyboard_actions(&mut self, raw: &mut egui::RawInput) -> Vec<Action> {
        if self.egui_ctx.egui_wants_keyboard_input() {
            return Vec::new();
        }
        let mut actions = Vec::new();
        raw.events.retain(|event| match event {
            egui::Event::Key { key, pressed: true, modifiers, .. } => {
                match command_for(&self.commands, *key, modifiers.shift) {
                    Some(command) if !modifiers.ctrl && !modifiers.alt && !modifiers.command => {
                        actions.push(Action::Command(command));
                        false
                    }
                    _ => true,
                }
            }
            _ => true,
        });
        actions
    }

    fn act(&mut self, action: Action) {
        match action {
            Action::Command(command) => self.command(command),
            Action::SetAlgorithm(a) => self.change(|s| s.algorithm = a),
            Action::SetKey(k) => self.change(|s| s.options.key = k),
            Action::SetReverse(r) => self.change(|s| s.options.descending = r),
            Action::SetAngle(angle) => self.session.pending_angle = Some(angle),
            Action::SetPassKind(k) => self.change(|s| s.pass_kind = k),
            Action::SetRadix(r) => self.change(|s| s.radix = r),
            Action::SetCompare(c) => self.change(|s| s.compare = c),
            Action::SetSync(sync) => self.change(|s| s.sync = sync),
            Action::GoTo(pass) => {
                self.session.player.stop();
                self.session.player.go_to(pass, &mut self.session.lanes);
            }
            Action::CancelRecording => {
                if let Some(r) = &self.recording {
                    r.cancel();
                }
            }
            Action::SetIntervals(settings) => self.session.intervals = settings,
            Action::LoadMask(path) => self.load_mask(&path),
            Action::BrowseMask => {
                let dialog = rfd::FileDialog::new()
                    .set_title("Load a mask (white is sorted, black stays)")
                    .add_filter("Pictures", &["png", "jpg", "jpeg", "gif", "bmp", "webp", "tif", "tiff"]);
                match dialog.pick_file() {
                    Some(path) => self.load_mask(&path),
                    None => self.ui.say("no mask chosen"),
                }
            }
            Action::ClearMask => self.clear_mask(),
        }
    }

    /// Changes a setting and starts over from the input.
    fn change(&mut self, edit: impl FnOnce(&mut Session)) {
        edit(&mut self.session);
        self.restart_lanes();
        self.last_reported_pass = None;
        let s = &self.session;
        let order = if s.options.descending { "largest first" } else { "smallest first" };
        let view = if s.compare {
            format!("side by side, sync {}", s.sync.name())
        } else if s.algorithm == Algorithm::Radix {
            let r = s.radix;
            let stages = if r.sub_steps { ", scatter in stages" } else { "" };
            format!("{}-bit digits, scope {}{stages}", r.digit_bits, r.scope.name())
        } else {
            s.pass_kind.name().to_string()
        };
        let notice = s.lanes.lanes.iter().find_map(|l| l.notice.as_deref()).map(|n| format!(". {n}"));
        self.ui.say(format!(
            "{}, {} by {}, {order}; {view}{}",
            s.algorithm.title(),
            window_angle::direction_name(s.lines.angle()),
            s.options.key,
            notice.unwrap_or_default()
        ));
    }

    fn command(&mut self, command: Command) {
        let session = &mut self.session;
        match command {
            Command::PlayPause
            | Command::StepForward
            | Command::StepBack
            | Command::JumpForward
            | Command::JumpBack
            | Command::First
            | Command::Last
            | Command::Reset
            | Command::Faster
            | Command::Slower => session.player.apply(command, &mut session.lanes),
            Command::ChooseAlgorithm(a) => self.change(|s| s.algorithm = a),
            Command::CycleKey => self.change(|s| s.options.key = s.options.key.next()),
            Command::ToggleReverse => self.change(|s| s.options.descending = !s.options.descending),
            Command::ToggleAxis => self.turn_to(window_angle::toggled_axis(self.session.lines.angle())),
            Command::TurnClockwise => {
                self.turn_to(self.session.lines.angle().turned(window_angle::TURN_DEGREES))
            }
            Command::TurnCounterclockwise => {
                self.turn_to(self.session.lines.angle().turned(-window_angle::TURN_DEGREES))
            }
            Command::TogglePassKind => self.change(|s| {
                s.pass_kind = match s.pass_kind {
                    PassKind::Compute => PassKind::Fragment,
                    PassKind::Fragment => PassKind::Compute,
                }
            }),
            Command::CycleDigitBits => self.change(|s| {
                let widths = crate::keys::radix_key::DIGIT_BITS;
                let at = widths.iter().position(|&b| b == s.radix.digit_bits).unwrap_or(0);
                s.radix.digit_bits = widths[(at + 1) % widths.len()];
            }),
            Command::ToggleScope => self.change(|s| {
                s.radix.scope = match s.radix.scope {
                    Scope::Rows => Scope::Image,
                    Scope::Image => Scope::Rows,
                }
            }),
            Command::ToggleSubSteps => self.change(|s| s.radix.sub_steps = !s.radix.sub_steps),
            Command::CycleIntervalMode => {
                let s = &mut self.session;
                s.intervals.mode = s.intervals.mode.next();
            }
            Command::ToggleRunsOverlay => self.toggle_runs_overlay(),
            Command::ToggleCompare => self.change(|s| s.compare = !s.compare),
            Command::ToggleSync => self.change(|s| {
                s.sync = match s.sync {
                    LaneSync::ByPass => LaneSync::ByTime,
                    LaneSync::ByTime => LaneSync::ByPass,
                }
            }),
            Command::FitToWindow => {
                self.ui.zoom = None;
                self.ui.pan = egui::Vec2::ZERO;
            }
            Command::ActualSize => {
                self.ui.zoom = Some(zoom::Zoom::In(1));
                self.ui.pan = egui::Vec2::ZERO;
            }
            Command::Open => {
                let dialog = rfd::FileDialog::new()
                    .set_title("Open a picture")
                    .add_filter("Pictures", &["png", "jpg", "jpeg", "gif", "bmp", "webp", "tif", "tiff"]);
                match dialog.pick_file() {
                    Some(path) => self.open(path),
                    None => self.ui.say("no picture chosen (you can also drop one on the window)"),
                }
            }
            Command::RecordGif => self.start_recording(),
            Command::SavePng => self.save_png(),
            Command::Help => self.ui.help_open = !self.ui.help_open,
            Command::Quit => self.quit = true,
        }
    }

    /// Loads another picture; on failure the current one stays and the error is shown. A
    /// mask that does not fit the new picture is dropped, with the error.
    fn open(&mut self, path: PathBuf) {
        let loaded = Picture::load(&path).and_then(|p| {
            let source = p.pixels.dimensions();
            Ok((source, p.fit(&self.limit)?))
        });
        match loaded {
            Ok((source, (picture, notice))) => {
                self.window.set_title(&format!("shadersort — {}", picture.name));
                match notice {
                    Some(notice) => self.ui.say(notice),
                    None => self.ui.say(format!("opened {}", picture.label)),
                }
                if let Some(mask) = self.session.mask.take() {
                    match mask.refit(&picture.label, source, picture.pixels.dimensions()) {
                        Ok(mask) => self.session.mask = Some(mask),
                        Err(e) => self.ui.error(format!("mask dropped: {e}")),
                    }
                }
                self.session.source_size = source;
                self.session.picture = picture;
                self.ui.zoom = None;
                self.ui.pan = egui::Vec2::ZERO;
                self.restart_lanes();
            }
            Err(e) => self.ui.error(e.to_string()),
        }
    }

    fn step(&mut self, seconds: f64) {
        let budget = (FRAME_BUDGET_SECONDS / self.seconds_per_pass.max(1e-7)).clamp(1.0, 1e6) as u32;
        let started = Instant::now();
        let ran = self.session.player.tick(seconds, budget, &mut self.session.lanes);
        if ran > 0 {
            self.seconds_per_pass = started.elapsed().as_secs_f64() / f64::from(ran);
        }
        if let Some(e) = self.session.lanes.error.take() {
            self.session.player.stop();
            self.ui.error(format!("the GPU failed: {e}"));
        }
        let done = self.session.lanes.steps_done();
        if self.last_reported_pass != Some(done) {
            log::info!("{} {done}/{}", self.session.step_noun(), self.session.lanes.total_steps());
            self.last_reported_pass = Some(done);
        }
    }

    fn lane_views(&self) -> Vec<LaneView> {
        self.session
            .lanes
            .lanes
            .iter()
            .map(|lane| {
                let stats = lane.run.stats();
                LaneView {
                    label: lane.label(),
                    short_label: lane.short_label(),
                    texture: lane.texture_id,
                    passes: (lane.run.steps_done(), lane.run.total_steps()),
                    last_swaps: stats.last_step_swaps,
                    moves_name: lane.algorithm.moves_name(),
                    sorted_after: stats.sorted_after,
                    gpu_ms_per_pass: lane.gpu_ms_per_pass,
                    in_runs: lane.in_runs,
                    notice: lane.notice.clone(),
                }
            })
            .collect()
    }

    fn render(&mut self, mut output: egui::FullOutput) {
        self.egui_state.handle_platform_output(&self.window, std::mem::take(&mut output.platform_output));
        let mut deltas = std::mem::take(&mut output.textures_delta);
        for (id, image_deltas) in deltas.set.drain() {
            for delta in &image_deltas {
                self.renderer.update_texture(&self.gpu.device, &self.gpu.queue, id, delta);
            }
        }
        // A minimised window has nothing to draw into.
        let size = self.window.inner_size();
        let frame = if size.width == 0 || size.height == 0 { None } else { self.acquire_frame() };
        if let Some(frame) = frame {
            let pixels_per_point = output.pixels_per_point;
            let primitives = self.egui_ctx.tessellate(std::mem::take(&mut output.shapes), pixels_per_point);
            let screen = egui_wgpu::ScreenDescriptor {
                size_in_pixels: [self.config.width, self.config.height],
                pixels_per_point,
            };
            let mut encoder = self
                .gpu
                .device
                .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("window::frame") });
            self.session.lanes.record_display(&self.display, &mut encoder);
            let extra = self.renderer.update_buffers(
                &self.gpu.device,
                &self.gpu.queue,
                &mut encoder,
                &primitives,
                &screen,
            );
            let view = frame.texture.create_view(&Default::default());
            {
                let pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                    label: Some("window::egui"),
                    color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                        view: &view,
                        depth_slice: None,
                        resolve_target: None,
                        ops: wgpu::Operations {
                            load: wgpu::LoadOp::Clear(wgpu::Color { r: 0.08, g: 0.08, b: 0.1, a: 1.0 }),
                            store: wgpu::StoreOp::Store,
                        },
                    })],
                    depth_stencil_attachment: None,
                    timestamp_writes: None,
                    occlusion_query_set: None,
                    multiview_mask: None,
                });
                self.renderer.render(&mut pass.forget_lifetime(), &primitives, &screen);
            }
            self.gpu.queue.submit(extra.into_iter().chain([encoder.finish()]));
            self.window.pre_present_notify();
            self.gpu.queue.present(frame);
        }
        for id in deltas.free.drain() {
            self.renderer.free_texture(&id);
        }
    }

    /// Counts a frame that began at `started`, `interval` seconds after the one before.
    /// The next surface texture; a lost or outdated surface is configured again and the frame
    /// skipped.
    fn acquire_frame(&mut self) -> Option<wgpu::SurfaceTexture> {
        match self.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(f) | wgpu::CurrentSurfaceTexture::Suboptimal(f) => Some(f),
            wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
                self.surface.configure(&self.gpu.device, &self.config);
                None
            }
            other => {
                log::warn!("no surface texture this frame: {other:?}");
                None
            }
        }
    }

    /// Counts a frame that began at `started`.
    fn tally_frame(&mut self, started: Instant) {
        let c = &mut self.clock;
        c.frames += 1;
        c.slowest = c.slowest.max(started.elapsed());
        c.recent.push_back(started);
        while c.recent.front().is_some_and(|t| started.duration_since(*t) > Duration::from_secs(1)) {
            c.recent.pop_front();
        }
        if self.quit_after.is_some_and(|limit| c.started.elapsed() >= limit) {
            self.quit = true;
        }
    }

    /// Prints the frame statistics (for `--quit-after`) and cancels a recording under way.
    fn report_and_stop(&mut self) {
        if let Some(r) = &self.recording {
            r.cancel();
        }
        if self.quit_after.is_some() {
            let seconds = self.clock.started.elapsed().as_secs_f64();
            println!(
                "window: {} frames in {seconds:.1} s ({:.1} frames/s), slowest frame {:.1} ms; pass {}/{}",
                self.clock.frames,
                self.clock.frames as f64 / seconds,
                self.clock.slowest.as_secs_f64() * 1e3,
                self.session.lanes.steps_done(),
                self.session.lanes.total_steps()
            );
        }
    }

    /// `<picture>-<algorithm>-<key>`, then `-angle<degrees>` for any direction but rows and
    /// `-<interval mode>` (or `-mask`) within runs, as `--record` names its files.
    fn file_stem(&self) -> String {
        let s = &self.session;
        let runs = crate::intervals::file_suffix(s.intervals.mode, s.mask.is_some());
        let angle = s.lines.angle().file_suffix();
        format!("{}-{}-{}{angle}{runs}", s.picture.name, s.algorithm.name(), s.options.key.name())
    }

    fn save_png(&mut self) {
        let Some(lane) = self.session.lanes.lanes.first() else { return };
        let path = PathBuf::from(format!("{}-pass{}.png", self.file_stem(), lane.run.steps_done()));
        let saved =
            read_texture(&self.gpu, lane.run.state()).map_err(anyhow::Error::from).and_then(|state| {
                Ok(OutputFile::prepare(&path, OutputFormat::Png)?
                    .write_png(&state, self.session.picture.has_alpha)?)
            });
        match saved {
            Ok(path) => self.ui.say(format!("saved {}", path.display())),
            Err(e) => self.ui.error(format!("{e:#}")),
        }
    }

    fn start_recording(&mut self) {
        if self.recording.is_some() {
            self.ui.say("a recording is already under way");
            return;
        }
        let path = PathBuf::from("gifs").join(format!("{}.gif", self.file_stem()));
        if let Err(e) = std::fs::create_dir_all("gifs") {
            self.ui.error(format!("cannot create the folder gifs: {e}"));
            return;
        }
        let mut settings = self.record_settings.clone();
        settings.passes = None;
        let run_settings = self.session.settings().for_recording(self.session.algorithm);
        settings.dimmed_twins = run_settings.radix.twin_indices;
        if settings.every.is_none() && settings.max_frames.is_none() {
            settings.max_frames = Some(DEFAULT_FRAME_LIMIT);
        }
        let s = &self.session;
        // What the window shows: its lines and runs, or what the algorithm can sort instead.
        let (lines, runs, _) =
            lanes::for_lane(&s.lines, s.algorithm, s.options, &run_settings, s.runs.as_ref());
        let runs = runs.cloned();
        let job = RecordingJob {
            picture: s.picture.pixels.clone(),
            lines,
            options: s.options,
            algorithm: s.algorithm,
            run_settings,
            settings,
            path,
            runs,
        };
        self.recording = Some(BackgroundRecording::start(self.gpu.clone(), job));
        self.ui.say("recording...");
    }

    fn finish_recording(&mut self) {
        let Some(outcome) = self.recording.as_ref().and_then(BackgroundRecording::try_finish) else { return };
        self.recording = None;
        match outcome {
            Ok(report) => self.ui.say(format!(
                "recorded {} frames, {} bytes: {}",
                report.frames,
                report.bytes,
                report.path.display()
            )),
            Err(e) => self.ui.error(e),
        }
    }
}

/// Width of the side panel in points (`ui::PANEL_WIDTH` plus its margins).
const PANEL_POINTS: f64 = ui::PANEL_WIDTH as f64 + 16.0;

/// A window that shows the picture at 1:1 beside the panel, no smaller than 640x560 and no
/// larger than 85% of the screen. Windows are no larger than they need to be: on a software GPU every
/// pixel costs frame time.
fn initial_size(picture: (u32, u32), screen: Option<(f64, f64)>) -> (f64, f64) {
    let (max_w, max_h) = screen.map_or((1280.0, 860.0), |(w, h)| (w * 0.85, h * 0.85));
    // On a small screen the screen wins over the minimum.
    let width = (PANEL_POINTS + f64::from(picture.0) + 16.0).max(640.0).min(max_w);
    let height = (f64::from(picture.1) + 16.0).max(560.0).min(max_h);
    (width, height)
}

/// The lanes to show: the chosen algorithm and pass kind, or every combination side by side.
fn lane_kinds(
    algorithm: Algorithm,
    settings: RunSettings,
    compare: bool,
    sync: LaneSync,
) -> Vec<(Algorithm, RunSettings)> {
    if compare {
        // In step by pass, every lane's step is one pass: one phase for the bubble sort.
        let settings = match sync {
            LaneSync::ByPass => RunSettings { phases_per_step: 1, ..settings },
            LaneSync::ByTime => settings,
        };
        Algorithm::ALL
            .into_iter()
            .flat_map(|a| {
                a.pass_kinds().iter().map(move |&pass_kind| (a, RunSettings { pass_kind, ..settings }))
            })
            .collect()
    } else {
        vec![(algorithm, settings)]
    }
}

impl Session {
    /// What the counter counts: passes, the radix view's digit passes or scatter stages, or
    /// steps of several phases.
    fn step_noun(&self) -> String {
        if self.algorithm == Algorithm::OddEven || (self.compare && self.sync == LaneSync::ByPass) {
            "pass".into()
        } else if self.algorithm == Algorithm::Radix && !self.compare {
            self.algorithm.step_name(&self.settings())
        } else {
            "step".into()
        }
    }

    /// Sorts along `lines` from now on (the lanes follow at their next start).
    fn set_lines(&mut self, lines: Lines) {
        self.options = lines.sort_options(self.options);
        self.lines = lines;
    }

    /// Pass kind, phases per step and radix settings.
    fn settings(&self) -> RunSettings {
        RunSettings { pass_kind: self.pass_kind, phases_per_step: self.phases_per_step, radix: self.radix }
    }
}

#[cfg(test)]
mod tests {
    use super::initial_size;

    #[test]
    fn the_window_fits_the_picture_and_the_screen() {
        let (w, h) = initial_size((512, 512), Some((1920.0, 1080.0)));
        assert!(w >= 512.0 + super::PANEL_POINTS && h >= 512.0, "{w}x{h}");
        assert_eq!(initial_size((1, 1), Some((1920.0, 1080.0))), (640.0, 560.0));
        let (w, h) = initial_size((8000, 6000), Some((1920.0, 1080.0)));
        assert_eq!((w, h), (1920.0 * 0.85, 1080.0 * 0.85));
        let (w, h) = initial_size((512, 512), Some((640.0, 400.0)));
        assert!(w <= 544.0 && h <= 340.0, "{w}x{h} on a 640x400 screen");
    }
}
