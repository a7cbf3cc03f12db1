//! What the user's actions do: commands from the key table and the panel's buttons, and
//! settings changed in the panel (each starts the lanes over from the input).

use super::dialogs::{Chosen, Purpose};
use super::panel_model::Action;
use super::platform::Recorder;
use super::{Running, Session};
use crate::algorithms::Algorithm;
use crate::controls::choice::SortChoice;
use crate::controls::commands::Command;

impl Running {
    pub(super) fn act(&mut self, action: Action) {
        match action {
            Action::Command(command) => self.command(command),
            Action::SetAlgorithm(a) => self.change(|s| s.choice.algorithm = a),
            Action::SetKey(k) => self.change(|s| s.choice.key = k),
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
            Action::ClearMask => self.clear_mask(),
            Action::Paint { from, to, stays } => self.paint(from, to, stays),
            Action::InvertMask => self.invert_mask(),
            Action::FillMaskFromRuns => self.fill_mask_from_runs(),
            Action::SaveMask => self.save_mask(),
            Action::Inspect(x, y) => self.inspect((x, y)),
            Action::SeekClip(frame) => self.seek_clip(frame),
        }
    }

    /// Opens or loads what the file dialogs chose since the last frame.
    pub(super) fn take_dialogs(&mut self) {
        for (purpose, chosen) in self.dialogs.take() {
            match (purpose, chosen) {
                (Purpose::Open, Ok(Some(file))) => self.open(file),
                (Purpose::Mask, Ok(Some(file))) => self.load_mask(&file),
                (Purpose::Open, Ok(None)) => {
                    self.ui.say("nothing chosen (you can also drop a picture or a clip on the window)")
                }
                (Purpose::Mask, Ok(None)) => self.ui.say("no mask chosen"),
                (_, Err(e)) => self.ui.error(e),
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
        self.last_reported_pass = None;
        let s = &self.session;
        let order = if s.choice.descending { "largest first" } else { "smallest first" };
        let view = if s.choice.compare {
            format!("side by side, sync {}", s.choice.sync.name())
        } else if s.choice.algorithm == Algorithm::Radix {
            let r = s.choice.settings.radix;
            let stages = if r.sub_steps { ", scatter in stages" } else { "" };
            format!("{}-bit digits, scope {}{stages}", r.digit_bits, r.scope.name())
        } else {
            s.choice.settings.pass_kind.name().to_string()
        };
        let notice = s.lanes.lanes.iter().find_map(|l| l.notice.as_deref()).map(|n| format!(". {n}"));
        self.ui.say(format!(
            "{}, {} by {}, {order}; {view}{}",
            s.choice.algorithm.title(),
            s.lines.route().name(),
            s.choice.key,
            notice.unwrap_or_default()
        ));
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
            Command::PlayPause
            | Command::StepForward
            | Command::StepBack
            | Command::JumpForward
            | Command::JumpBack
            | Command::First
            | Command::Last
            | Command::Reset => session.player.apply(command, &mut session.lanes),
            Command::Faster | Command::Slower => {
                session.player.apply(command, &mut session.lanes);
                let speed = session.player.speed();
                self.ui.say(format!("speed {speed} steps/s"));
            }
            Command::ChooseAlgorithm(_)
            | Command::CycleKey
            | Command::ToggleReverse
            | Command::ToggleAxis
            | Command::TurnClockwise
            | Command::TurnCounterclockwise
            | Command::BendLines
            | Command::TogglePassKind
            | Command::CycleDigitBits
            | Command::ToggleScope
            | Command::ToggleSubSteps
            | Command::ToggleCompare
            | Command::ToggleSync => {
                if let Some(next) = self.session.choice.after(command) {
                    self.choose(next);
                }
            }
            Command::CycleIntervalMode => {
                let s = &mut self.session;
                s.intervals.mode = s.intervals.mode.next();
            }
            Command::ToggleIntervalsOverlay => self.toggle_intervals_overlay(),
            Command::PaintMask => self.toggle_painting(),
            Command::FitToWindow | Command::ActualSize | Command::Help => self.ui.view(command),
            Command::Open => self.dialogs.pick(Purpose::Open, &self.egui_ctx),
            Command::Camera => self.open_camera(),
            Command::PreviousFrame => self.step_clip(-1),
            Command::NextFrame => self.step_clip(1),
            Command::Record => self.start_recording(),
            Command::SavePng => self.save_png(),
            Command::ToggleLens => self.toggle_lens(),
            Command::MoveLens(delta) => self.move_lens(delta.into()),
            Command::Quit if cfg!(target_arch = "wasm32") => {
                self.ui.say("a page has nothing to quit: close the tab to leave")
            }
            Command::Quit => self.quit = true,
        }
    }
}
