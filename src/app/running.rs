//! The window's frame loop: the window and its GPU state set up, each frame's input turned into
//! actions, passes run within the frame budget, the panel model built and drawn, frames counted.

use super::display::DisplayPipeline;
use super::interval_refresh::{IntervalInputs, RefreshThrottle};
use super::lanes::{LaneSync, Lanes};
use super::panel_model::{Action, LaneView, UiModel, UiState};
use super::platform::Recorder;
use super::{FrameClock, Running, Session, Source, WindowOptions, WindowSource};
use super::{session_intervals, ui, window_mask};
use crate::angle::Lines;
use crate::controls::choice::SortChoice;
use crate::controls::commands::{Command, command_for, command_table};
use crate::controls::lane_plan::lane_kinds;
use crate::controls::player::{Player, Stepper};
use crate::engine::Engine;
use crate::gpu::Gpu;
use crate::picture::input::SizeLimit;
use anyhow::Context as _;
use std::sync::Arc;
use web_time::Instant;

impl Running {
    pub(super) fn new(cc: &eframe::CreationContext<'_>, options: WindowOptions) -> anyhow::Result<Self> {
        let WindowOptions { source, settings: given, mask } = options;
        let render = cc.wgpu_render_state.as_ref().context("the window has no wgpu renderer")?;
        let gpu = Arc::new(Gpu::from_device(
            render.instance.clone(),
            render.adapter.clone(),
            render.device.clone(),
            render.queue.clone(),
        ));
        let format = render.target_format;
        // Dark on every system, as the panel's colours (the status box, the lens) are drawn for.
        cc.egui_ctx.set_theme(egui::Theme::Dark);
        let display = DisplayPipeline::new(&gpu, format);
        let engine = Arc::new(Engine::new(gpu.clone()));
        let limit =
            SizeLimit::new(gpu.device.limits().max_texture_dimension_2d, given.max_size, !given.no_downscale);
        let mut ui = UiState::default();
        let (picture, source_size, shown) = match source {
            WindowSource::Picture(picture) => {
                let source_size = picture.pixels.dimensions();
                let (picture, notice) = picture.fit(&limit)?;
                if let Some(notice) = notice {
                    ui.status.say(notice);
                }
                (picture, source_size, Source::Picture)
            }
            #[cfg(not(target_arch = "wasm32"))]
            WindowSource::Clip(reader) => {
                let info = reader.info().clone();
                let super::platform::OpenedClip { clip, first: picture, note: notice } =
                    super::platform::WindowClip::play(reader, &limit, given.video.clone())?;
                let line = format!(
                    "playing {} — {} frames at {:.3} fps; Space pauses, , and . step frames",
                    picture.label,
                    info.frames,
                    info.rate.fps()
                );
                ui.status.say(notice.map_or_else(|| line.clone(), |n| format!("{n}; {line}")));
                (picture, (info.width, info.height), Source::Clip(Box::new(clip)))
            }
            #[cfg(not(target_arch = "wasm32"))]
            WindowSource::Live(input) => {
                let opened = super::platform::open_live(&input, given.video.ffmpeg.as_deref(), &limit)?;
                let source_size = opened.source_size;
                let (shown, picture, line) = super::window_live::shown(opened);
                ui.status.say(line);
                (picture, source_size, Source::Live(Box::new(shown)))
            }
        };
        let mask = match mask {
            Some((path, mask)) => Some(window_mask::WindowMask::new(
                mask,
                &path,
                0,
                window_mask::FitTo::of(&picture, source_size),
            )?),
            None => None,
        };
        if let Some(mask) = &mask {
            ui.mask_path = mask.path.display().to_string();
        }
        let lines = Lines::of(
            given.route(),
            picture.pixels.dimensions(),
            gpu.device.limits().max_texture_dimension_2d,
        )?;
        let sort_options = lines.sort_options(given.options);
        let intervals_made_from =
            IntervalInputs::new(&given.intervals, mask.as_ref().map(|m| m.id), lines.route());
        let interval_map = session_intervals::compute_intervals(
            &lines,
            &picture.pixels,
            &intervals_made_from,
            &given.intervals,
            mask.as_ref(),
        )?;
        let lanes_for = lane_kinds(given.algorithm, given.run, false, LaneSync::default());
        let lanes =
            Lanes::start(&engine, &picture.pixels, &lines, sort_options, &lanes_for, interval_map.as_ref());
        let mut player = Player::default();
        if let Some(speed) = given.speed {
            player.set_speed(speed);
        }
        let session = Session {
            picture,
            choice: SortChoice {
                algorithm: given.algorithm,
                key: given.options.key,
                descending: given.options.descending,
                route: lines.route(),
                settings: given.run,
                compare: false,
                sync: LaneSync::default(),
            },
            lines,
            lanes,
            player,
            source_size,
            intervals: given.intervals,
            mask,
            masks_loaded: 1,
            interval_map,
            intervals_made_from,
            intervals_made: 0,
            throttle: RefreshThrottle::default(),
            pending_route: None,
            route_throttle: RefreshThrottle::default(),
            show_intervals: false,
            reported_step: None,
            max_side: gpu.device.limits().max_texture_dimension_2d,
        };
        log::info!("window on {}", gpu.describe());
        let gpu_for_lens = gpu.clone();
        let mut running = Running {
            gpu,
            egui_ctx: cc.egui_ctx.clone(),
            shortcut_actions: Vec::new(),
            dialogs: Default::default(),
            #[cfg(not(target_arch = "wasm32"))]
            window_fit: Default::default(),
            display,
            engine,
            commands: command_table(),
            session,
            ui,
            recording: None,
            opening: None,
            limit,
            record_settings: given.record,
            clock: FrameClock::new(given.quit_after),
            overlays: Default::default(),
            lens: super::lens::Lens::new(&gpu_for_lens),
            sound: Default::default(),
            saves: Default::default(),
            source: shown,
            opening_live: None,
            input: None,
            take: None,
            #[cfg(not(target_arch = "wasm32"))]
            video: given.video,
            #[cfg(not(target_arch = "wasm32"))]
            options_max_size: given.max_size,
        };
        if running.ui.status.line.is_empty() {
            running.session.report_intervals(&mut running.ui.status);
        }
        if running.source.moves() {
            running.sort_frame_to_end();
            running.report_frame();
        }
        if let Some(notice) = running.session.lanes.lanes.iter().find_map(|l| l.notice.clone()) {
            running.ui.status.say(notice);
        }
        // The page opens its camera once running (`?source=camera`); natively a live source
        // opened with the window.
        #[cfg(target_arch = "wasm32")]
        if given.video.live.is_some() {
            running.open_camera();
        }
        if let Some(line) = given.lens {
            running.open_lens_on_line(line);
        }
        if given.play {
            running.command(Command::PlayPause);
        }
        Ok(running)
    }

    pub(super) fn wants_frames(&self) -> bool {
        self.session.player.busy()
            || self.source.busy()
            || self.opening_live.is_some()
            || self.recording.is_some()
            || self.take.is_some()
            || self.clock.timed()
            || self.session.intervals_pending()
            || self.session.pending_route.is_some()
            || self.session.lanes.counts_pending()
            || self.saves.pending()
            || self.lens.pending()
    }

    /// One frame: the keys' and the panel's actions, passes within the frame budget, results
    /// that have come back, and the panel drawn into `ui`. `work_ms`: how long the last
    /// frame's work took (drawing included, waiting for the screen not).
    pub(super) fn frame(&mut self, ui: &mut egui::Ui, work_ms: Option<f32>) {
        let now = Instant::now();
        let seconds = self.clock.start_frame(now, work_ms);
        self.take_dialogs();
        for action in std::mem::take(&mut self.shortcut_actions) {
            self.act(action);
        }
        self.follow_input();
        self.advance_clip(now);
        self.check_live_opening();
        self.advance_live();
        self.session.refresh_intervals(now, &mut self.ui.status);
        self.apply_pending_route(now);
        self.session.step(seconds, &mut self.ui.status);
        self.keep_frame_sorting();
        self.read_lens();
        self.hear();
        self.write_saves();
        self.write_take();
        self.finish_recording();
        self.overlays.sync(&self.egui_ctx, &self.session, self.ui.brush.is_some());
        let model_lanes = self.lane_views();
        let model = UiModel {
            commands: &self.commands,
            picture_label: &self.session.picture.label,
            size: self.session.picture.pixels.dimensions(),
            adapter: &self.gpu.describe(),
            algorithm: self.session.choice.algorithm,
            pass_kind: self.session.choice.settings.pass_kind,
            radix: self.session.choice.settings.radix,
            key: self.session.choice.key,
            reverse: self.session.choice.descending,
            route: self.session.pending_route.unwrap_or(self.session.lines.route()),
            compare: self.session.choice.compare,
            sync: self.session.choice.sync,
            step_noun: self.session.step_noun(),
            steps_done: self.session.lanes.steps_done(),
            total_steps: self.session.lanes.total_steps(),
            playing: self.session.player.playing(),
            speed: self.session.player.speed(),
            lanes: model_lanes,
            wall_ms_per_pass: self.session.lanes.wall_ms_per_pass,
            fps: self.clock.fps(),
            explanation: self.explanation(),
            work: self.session.work_text(),
            recording: self.recording.as_ref().map(|r| {
                let (done, most) = r.progress();
                (done, most, r.path().display().to_string(), r.counts())
            }),
            take: self.take_view(),
            intervals: self.session.intervals,
            mask_label: self.session.mask.as_ref().map(|m| m.path.display().to_string()),
            show_intervals: self.session.show_intervals,
            intervals_summary: self
                .session
                .interval_map
                .as_ref()
                .map(|r| self.session.lines.summary(r).to_string()),
            intervals_overlay: self.overlays.intervals(),
            mask_overlay: self.overlays.mask(),
            lens: self.lens.readings(),
            clip: self.clip_view(),
            live: self.live_view(),
            input: self.input.as_ref().map(|shown| shown.pattern),
            shader: super::shader_panel::view(
                &self.session.lanes.lanes,
                &self.ui,
                self.lens.point().map(|point| (point, self.session.picture.pixels.dimensions())),
            ),
            sound: (self.sound.on(), self.sound.unavailable()),
        };
        let ui_state = &mut self.ui;
        let mut clicked = Vec::new();
        ui::draw(ui, &model, ui_state, &mut clicked);
        drop(model);
        for action in clicked {
            self.act(action);
        }
        self.clock.end_frame(now);
    }

    /// Key presses that mean commands (unless a text field has focus); they are taken out of
    /// egui's input so a focused button does not also react to them.
    pub(super) fn keyboard_actions(&mut self, raw: &mut egui::RawInput) -> Vec<Action> {
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

    pub(super) fn lane_views(&mut self) -> Vec<LaneView> {
        let pictures = self.session.lanes.pictures(&self.display);
        self.session
            .lanes
            .lanes
            .iter()
            .zip(pictures)
            .map(|(lane, picture)| {
                let stats = lane.run.stats();
                LaneView {
                    algorithm: lane.algorithm,
                    label: lane.label(),
                    short_label: lane.short_label(),
                    picture,
                    passes: (lane.run.steps_done(), lane.run.total_steps()),
                    last_swaps: stats.last_step_swaps,
                    moves_name: lane.algorithm.moves_name(),
                    sorted_after: stats.sorted_after,
                    gpu_ms_per_step: lane.gpu_ms_per_step,
                    in_intervals: lane.in_intervals,
                    notice: lane.notice.clone(),
                }
            })
            .collect()
    }

    /// Prints the frame statistics (for `--quit-after`), cancels a recording under way and
    /// keeps the window's size for the next run.
    pub(super) fn report_and_stop(&mut self) {
        // A recording under way stops and removes its temporary file before the window goes.
        if let Some(r) = self.recording.take() {
            r.cancel_and_wait();
        }
        // A take under way is kept: what was recorded so far is written whole.
        self.finish_take_now();
        #[cfg(not(target_arch = "wasm32"))]
        self.window_fit.remember();
        if let Some(line) = self.clock.report() {
            let s = &self.session;
            println!("{line}; step {}/{}", s.lanes.steps_done(), s.lanes.total_steps());
            if let Some(line) = self.live_report() {
                println!("{line}");
            }
        }
    }
}
