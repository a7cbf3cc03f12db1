//! What the user's actions do: commands from the key table and the panel's buttons, and
//! settings changed in the panel (each starts the lanes over from the input).

use super::dialogs::{Chosen, Purpose};
use super::panel_model::{Action, Brush};
use super::platform::Recorder;
use super::{Running, Session};
use crate::angle::Route;
use crate::controls::choice::SortChoice;
use crate::controls::commands::Command;
use web_time::Instant;

impl Running {
    pub(super) fn act(&mut self, action: Action) {
        match action {
            Action::Command(command) => self.command(command),
            Action::SetAlgorithm(a) => self.change(|s| s.choice.algorithm = a),
            Action::SetKey(k) => self.change(|s| s.choice.key = k),
            Action::SetInput(pattern) => self.set_input(pattern),
            Action::SetReverse(r) => self.change(|s| s.choice.descending = r),
            Action::SetRoute(route) => self.session.pending_route = Some(route),
            Action::SetPassKind(k) => self.change(|s| s.choice.settings.pass_kind = k),
            Action::SetRadix(r) => self.change(|s| s.choice.settings.radix = r),
            Action::SetCompare(c) => self.change(|s| s.choice.compare = c),
            Action::SetSync(sync) => self.change(|s| s.choice.sync = sync),
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
            Action::LoadMask(path) => self.load_mask(&Chosen::Path(path)),
            Action::BrowseMask => self.dialogs.pick(Purpose::Mask, &self.egui_ctx),
            Action::ClearMask => self.session.clear_mask(&mut self.ui.status),
            Action::Paint { from, to, stays } => {
                let size = self.session.picture.pixels.dimensions();
                let radius = self.ui.brush.unwrap_or_else(|| Brush::for_picture(size)).radius;
                self.session.paint(from, to, radius, stays);
            }
            Action::InvertMask => self.session.invert_mask(&mut self.ui.status),
            Action::FillMaskFromRuns => self.session.fill_mask_from_runs(&mut self.ui.status),
            Action::SaveMask => self.session.save_mask(&mut self.ui.status),
            Action::Inspect(x, y) => self.inspect((x, y)),
            Action::SeekClip(frame) => self.seek_clip(frame),
        }
    }

    /// Opens or loads what the file dialogs chose since the last frame.
    pub(super) fn take_dialogs(&mut self) {
        for (purpose, chosen) in self.dialogs.take() {
            match (purpose, chosen) {
                (Purpose::Many, Ok(files)) if !files.is_empty() => self.sort_many(files),
                (purpose, Ok(files)) => match (purpose, files.into_iter().next()) {
                    (Purpose::Open, Some(file)) => self.open(file),
                    (Purpose::Mask, Some(file)) => self.load_mask(&file),
                    (Purpose::Open, None) => self
                        .ui
                        .status
                        .say("nothing chosen (you can also drop a picture or a clip on the window)"),
                    (Purpose::Mask, None) => self.ui.status.say("no mask chosen"),
                    (Purpose::Many, _) => self.ui.status.say("nothing chosen to sort"),
                },
                (_, Err(e)) => self.ui.status.error(e),
            }
        }
    }

    /// Sorts as `next` says from now on, starting over from the input. A command changes one
    /// thing: a new direction is laid out by `lay_out`, which keeps the old one when the new
    /// one's lines do not fit the GPU.
    fn choose(&mut self, next: SortChoice) {
        if next.route != self.session.lines.route() {
            self.lay_out(next.route);
        } else {
            self.change(|s| s.choose(next));
        }
    }

    /// Changes a setting and starts over from the input.
    pub(super) fn change(&mut self, edit: impl FnOnce(&mut Session)) {
        edit(&mut self.session);
        self.restart_lanes();
        self.session.reported_step = None;
        let line = self.session.describe_choice();
        self.ui.status.say(line);
    }

    /// Starts the lanes over for the session as it is now (a clip's or a live source's frame
    /// sorted to the end).
    pub(super) fn restart_lanes(&mut self) {
        let to_end = self.source.moves();
        self.session.restart_lanes(&self.engine, to_end, &mut self.ui.status);
    }

    /// Sorts along `route` from now on, starting over from the input; a line space too large
    /// for the GPU leaves the lines as they were and shows why.
    pub(super) fn lay_out(&mut self, route: Route) {
        // A key pressed during a drag wins over the route the drag left pending.
        self.session.pending_route = None;
        match self.session.lines_along(route) {
            Ok(lines) => self.change(|s| s.set_lines(lines)),
            Err(e) => self.ui.status.error(e.to_string()),
        }
    }

    /// Lays out what the panel asked for when the throttle allows: a drag of the angle changes
    /// it every frame, and each lay-out restarts every lane, so at most one runs per 50 ms (or
    /// per twice the last one's cost); the last one asked for is always applied.
    pub(super) fn apply_pending_route(&mut self, now: Instant) {
        if self.session.pending_route.is_none() || !self.session.route_throttle.ready(now) {
            return;
        }
        if let Some(route) = self.session.pending_route.take() {
            let started = Instant::now();
            self.lay_out(route);
            self.session.route_throttle.done(started, started.elapsed());
        }
    }

    /// Loads the mask in `file` (the panel's path shows it once loaded).
    fn load_mask(&mut self, file: &Chosen) {
        if self.session.load_mask(file, &mut self.ui.status) {
            self.ui.mask_path = file.path().display().to_string();
        }
    }

    pub(super) fn command(&mut self, command: Command) {
        if self.source.live().is_some() && command == Command::PlayPause {
            return self.toggle_live();
        }
        if self.source.clip().is_some() {
            match command {
                // Space plays or pauses the clip; the other transport keys pause it on its frame.
                Command::PlayPause => return self.toggle_clip(),
                Command::Faster | Command::Slower => {}
                other if other.moves_player() => self.pause_clip(),
                _ => {}
            }
        }
        let session = &mut self.session;
        match command {
            Command::Faster | Command::Slower => {
                session.player.apply(command, &mut session.lanes);
                let speed = session.player.speed();
                self.ui.status.say(format!("speed {speed} steps/s"));
            }
            other if other.moves_player() => session.player.apply(other, &mut session.lanes),
            Command::CycleIntervalMode => {
                let s = &mut self.session;
                s.intervals.mode = s.intervals.mode.next();
            }
            Command::ToggleIntervalsOverlay => self.session.toggle_intervals_overlay(&mut self.ui.status),
            Command::PaintMask => {
                let size = self.session.picture.pixels.dimensions();
                self.ui.toggle_painting(size);
            }
            Command::FitToWindow | Command::ActualSize | Command::Help | Command::Shader => {
                self.ui.view(command)
            }
            Command::Open => self.dialogs.pick(Purpose::Open, &self.egui_ctx),
            Command::Camera => self.open_camera(),
            Command::CycleInput => self.cycle_input(),
            Command::PreviousFrame => self.step_clip(-1),
            Command::NextFrame => self.step_clip(1),
            Command::Record => self.start_recording(),
            Command::SortMany => self.pick_many(),
            Command::SavePng => self.save_png(),
            Command::ToggleLens => self.toggle_lens(),
            Command::Sound => self.toggle_sound(),
            Command::MoveLens(delta) => self.move_lens(delta.into()),
            Command::Quit if cfg!(target_arch = "wasm32") => {
                self.ui.status.say("a page has nothing to quit: close the tab to leave")
            }
            Command::Quit => self.clock.quit = true,
            // The rest change what is sorted and how.
            choice => {
                if let Some(next) = self.session.choice.after(choice) {
                    self.choose(next);
                }
            }
        }
    }
}
