//! The window's egui interface: the side panel, the pictures, the help overlay. It only reads
//! a [`UiModel`] and reports [`Action`]s (`panel_model`); the app applies them.

use super::lanes::LaneSync;
use super::panel_model::{Action, LaneView, UiModel, UiState};
use super::panel_model::{ClipView, LiveView};
use super::zoom::Zoom;
use crate::algorithms::Algorithm;
use crate::algorithms::odd_even::PassKind;
use crate::controls::commands::{Command, spec_of};
use crate::keys::SortKey;
use crate::keys::options::Scope;
use crate::keys::radix_key::{DIGIT_BITS, exact_bits};
use crate::picture::teaching::Pattern;
use crate::record::RecordFormat;

/// Width of the side panel in points.
pub const PANEL_WIDTH: f32 = 290.0;

/// The status block's background: a colour of its own, so a screenshot can find the block and
/// check that it is whole (`tests/window.rs`).
pub const STATUS_FILL: egui::Color32 = egui::Color32::from_rgb(22, 38, 58);

/// Draws the whole window.
pub fn draw(ui: &mut egui::Ui, model: &UiModel<'_>, state: &mut UiState, actions: &mut Vec<Action>) {
    // The panels draw no fill: the window is cleared to egui's panel colour already
    // (`Running::background`), and on a software GPU each layer over a whole panel costs frames.
    let unfilled = egui::Frame::NONE.inner_margin(egui::Margin::symmetric(8, 2));
    egui::Panel::left("controls").resizable(false).exact_size(PANEL_WIDTH).frame(unfilled).show(ui, |ui| {
        // The status first, at the bottom: it stays in view however far the rest scrolls.
        egui::Panel::bottom("status")
            .resizable(false)
            .frame(unfilled)
            .show(ui, |ui| status(ui, model, state));
        egui::ScrollArea::vertical().show(ui, |ui| side_panel(ui, model, state, actions));
    });
    if model.lens.is_some() {
        // A third of the window's height, shared by the lanes' strips.
        let height = (ui.available_height() * 0.34).clamp(120.0, 320.0);
        egui::Panel::bottom("lens")
            .resizable(false)
            .frame(egui::Frame::NONE.inner_margin(6.0))
            .show(ui, |ui| super::lens_panel::draw(ui, model, state, height));
    }
    // No fill either: the pictures lie on the window's background.
    egui::CentralPanel::default()
        .frame(egui::Frame::NONE)
        .show(ui, |ui| super::pictures::pictures(ui, model, state, actions));
    if state.help_open {
        super::help_overlay::help(ui.ctx(), model.commands, &mut state.help_open);
    }
    super::shader_panel::window(ui.ctx(), model, state, PANEL_WIDTH);
}

fn command_button(
    ui: &mut egui::Ui,
    model: &UiModel<'_>,
    command: Command,
    text: &str,
    actions: &mut Vec<Action>,
) {
    let spec = spec_of(model.commands, command);
    let tip = format!("{} ({}): {}", spec.name, spec.shortcuts_label(), spec.help);
    if ui.button(text).on_hover_text(tip).clicked() {
        actions.push(Action::Command(command));
    }
}

fn side_panel(ui: &mut egui::Ui, model: &UiModel<'_>, state: &mut UiState, actions: &mut Vec<Action>) {
    ui.heading("shadersort");
    ui.label(format!("{} — {}x{}", model.picture_label, model.size.0, model.size.1));
    ui.small(model.adapter);
    ui.horizontal(|ui| {
        command_button(ui, model, Command::Open, "Open...", actions);
        command_button(ui, model, Command::Camera, "Camera", actions);
        command_button(ui, model, Command::SavePng, "Save PNG", actions);
        command_button(ui, model, Command::Help, "Keys", actions);
    });
    if let Some(clip) = &model.clip {
        clip_controls(ui, model, clip, actions);
    }
    if let Some(live) = &model.live {
        live_controls(ui, model, live, actions);
    }
    ui.separator();

    egui::Grid::new("settings").num_columns(2).show(ui, |ui| {
        let inputs: Vec<_> = std::iter::once(None).chain(Pattern::ALL.map(Some)).collect();
        if let Some(input) =
            choice_row(ui, "Input", model.input, &inputs, |p| p.map_or("the picture", Pattern::title))
        {
            actions.push(Action::SetInput(input));
        }
        if let Some(algorithm) =
            choice_row(ui, "Algorithm", model.algorithm, &Algorithm::ALL, Algorithm::title)
        {
            actions.push(Action::SetAlgorithm(algorithm));
        }

        // Only odd-even has a choice of pass kinds.
        if model.algorithm.pass_kinds().len() > 1 {
            ui.label("Pass");
            let mut kind = model.pass_kind;
            ui.horizontal(|ui| {
                ui.radio_value(&mut kind, PassKind::Compute, "compute");
                ui.radio_value(&mut kind, PassKind::Fragment, "fragment");
            });
            if kind != model.pass_kind {
                actions.push(Action::SetPassKind(kind));
            }
            ui.end_row();
        }

        if model.algorithm == Algorithm::Radix || model.compare {
            radix_settings(ui, model, actions);
        }

        if let Some(key) = choice_row(ui, "Key", model.key, &SortKey::ALL, SortKey::name) {
            actions.push(Action::SetKey(key));
        }
        if let Some(reverse) = check_row(ui, "Order", model.reverse, "largest first") {
            actions.push(Action::SetReverse(reverse));
        }

        ui.label("Direction");
        super::lines_panel::direction(ui, model, actions);
        ui.end_row();

        ui.label("Path");
        super::lines_panel::path(ui, model, actions);
        ui.end_row();

        if let Some(compare) = check_row(ui, "View", model.compare, "side by side") {
            actions.push(Action::SetCompare(compare));
        }

        if model.compare {
            ui.label("Sync");
            let mut sync = model.sync;
            ui.horizontal(|ui| {
                ui.radio_value(&mut sync, LaneSync::ByStep, LaneSync::ByStep.name())
                    .on_hover_text("Every lane runs the same number of steps");
                ui.radio_value(&mut sync, LaneSync::ByTime, LaneSync::ByTime.name())
                    .on_hover_text("Every lane runs as long as the first: faster ones get further");
            });
            if sync != model.sync {
                actions.push(Action::SetSync(sync));
            }
            ui.end_row();
        }
    });
    ui.separator();
    super::interval_panel::interval_controls(ui, model, state, actions);
    ui.separator();

    ui.horizontal_wrapped(|ui| {
        command_button(ui, model, Command::First, "First", actions);
        command_button(ui, model, Command::StepBack, "Back", actions);
        let playing = model.clip.as_ref().map_or(model.playing, |c| c.playing);
        command_button(ui, model, Command::PlayPause, if playing { "Pause" } else { "Play" }, actions);
        command_button(ui, model, Command::StepForward, "Step", actions);
        command_button(ui, model, Command::Last, "Last", actions);
        command_button(ui, model, Command::Reset, "Reset", actions);
    });
    ui.horizontal(|ui| {
        command_button(ui, model, Command::Slower, "-", actions);
        ui.label(format!("{} steps/s", model.speed));
        command_button(ui, model, Command::Faster, "+", actions);
    });
    ui.horizontal(|ui| {
        let (on, unavailable) = model.sound;
        command_button(ui, model, Command::Sound, if on { "Sound on" } else { "Sound off" }, actions);
        ui.add(egui::Slider::new(&mut state.volume, 0.0..=1.0).text("volume").show_value(false));
        if let (true, Some(why)) = (on, unavailable) {
            ui.small(format!("no sound: {why}"));
        }
    });
    let mut pass = model.steps_done;
    let slider = egui::Slider::new(&mut pass, 0..=model.total_steps.max(1)).text("pass");
    if ui.add(slider).changed() {
        actions.push(Action::GoTo(pass));
    }
    ui.separator();
    ui.horizontal(|ui| {
        ui.label(egui::RichText::new("What happens").strong());
        command_button(ui, model, Command::Shader, "Shader", actions);
    });
    ui.label(&model.explanation);
    ui.label(egui::RichText::new("What it cost").strong());
    ui.label(&model.work);
    ui.separator();
    ui.horizontal(|ui| {
        let zoom = state.zoom.map_or_else(|| "fit".to_string(), Zoom::label);
        ui.label(format!("zoom {zoom}"));
        command_button(ui, model, Command::FitToWindow, "Fit", actions);
        command_button(ui, model, Command::ActualSize, "1:1", actions);
    });
    ui.separator();
    match &model.recording {
        _ if model.take.is_some() => take_controls(ui, model, actions),
        Some((done, most, path, counts)) => {
            ui.label(match *counts {
                "frames" => format!("recording {path}"),
                _ => format!("sorting into {path}"),
            });
            ui.add(
                egui::ProgressBar::new(*done as f32 / *most as f32).text(format!("{done} / {most} {counts}")),
            );
            if ui.button("Cancel").clicked() {
                actions.push(Action::CancelRecording);
            }
        }
        None if model.clip.is_some() => {
            let path = model.clip.as_ref().map(|c| c.record_path.as_str()).unwrap_or_default();
            command_button(ui, model, Command::Record, "Record the clip", actions);
            ui.small(format!("every frame sorted with these settings into {path}"));
        }
        None => {
            ui.horizontal(|ui| {
                for format in super::window_recording::RECORD_FORMATS {
                    let name = match format {
                        RecordFormat::Gif => "GIF",
                        RecordFormat::Apng => "APNG",
                        RecordFormat::Frames => "PNG frames",
                        RecordFormat::Video => "Video",
                    };
                    ui.radio_value(&mut state.record_format, format, name)
                        .on_hover_text(super::window_recording::format_tip(format));
                }
            });
            let label = match model.live {
                Some(_) => format!("Record the live frames ({})", state.record_format.describe()),
                None => format!("Record {}", state.record_format.describe()),
            };
            command_button(ui, model, Command::Record, &label, actions);
        }
    }
    if model.recording.is_none() && model.take.is_none() {
        let name = spec_of(model.commands, Command::SortMany).name.clone();
        command_button(ui, model, Command::SortMany, &name, actions);
    }
}

/// A take of the live source under way: where it goes, its frames, and the button that ends it.
fn take_controls(ui: &mut egui::Ui, model: &UiModel<'_>, actions: &mut Vec<Action>) {
    let Some((frames, left_out, path)) = &model.take else { return };
    ui.label(format!("recording the live frames into {path}"));
    let left = if *left_out > 0 { format!(", {left_out} left out") } else { String::new() };
    ui.label(format!("{frames} frames{left}"));
    command_button(ui, model, Command::Record, "Stop recording", actions);
}

/// A row of the settings grid: `label`, then a drop-down of `choices` (written as `name` says)
/// showing `current`; returns the choice when the user picks another.
fn choice_row<T: Copy + PartialEq>(
    ui: &mut egui::Ui,
    label: &str,
    current: T,
    choices: &[T],
    name: fn(T) -> &'static str,
) -> Option<T> {
    ui.label(label);
    let mut chosen = current;
    egui::ComboBox::from_id_salt(label.to_lowercase()).selected_text(name(chosen)).show_ui(ui, |ui| {
        for &choice in choices {
            ui.selectable_value(&mut chosen, choice, name(choice));
        }
    });
    ui.end_row();
    (chosen != current).then_some(chosen)
}

/// A row of the settings grid: `label`, then a checkbox `text` showing `current`; returns the
/// new state when the user toggles it.
fn check_row(ui: &mut egui::Ui, label: &str, current: bool, text: &str) -> Option<bool> {
    ui.label(label);
    let mut checked = current;
    ui.checkbox(&mut checked, text);
    ui.end_row();
    (checked != current).then_some(checked)
}

/// A clip's frame, its transport and a slider to seek with (the frame is shown when the
/// slider is let go).
fn clip_controls(ui: &mut egui::Ui, model: &UiModel<'_>, clip: &ClipView, actions: &mut Vec<Action>) {
    ui.separator();
    let seconds = |frame: u64| frame as f64 / clip.fps.max(1e-3);
    ui.label(format!(
        "Clip: frame {} / {} · {:.2} s of {:.2} s · {:.3} fps",
        clip.frame,
        clip.frames,
        seconds(clip.frame - 1),
        seconds(clip.frames),
        clip.fps
    ));
    ui.horizontal(|ui| {
        command_button(ui, model, Command::PreviousFrame, "◀ Frame", actions);
        command_button(ui, model, Command::PlayPause, if clip.playing { "Pause" } else { "Play" }, actions);
        command_button(ui, model, Command::NextFrame, "Frame ▶", actions);
    });
    let mut frame = clip.frame;
    let response = ui.add(egui::Slider::new(&mut frame, 1..=clip.frames.max(1)).text("frame"));
    if response.drag_stopped() || response.changed() && !response.dragged() {
        actions.push(Action::SeekClip(frame - 1));
    }
}

/// A live source: how many frames came, were shown and dropped, and a pause.
fn live_controls(ui: &mut egui::Ui, model: &UiModel<'_>, live: &LiveView, actions: &mut Vec<Action>) {
    ui.separator();
    let state = if live.ended { "ended" } else { "live" };
    ui.label(format!("{state}: {}", live.label));
    ui.label(format!("{} shown · {} received · {} dropped", live.shown, live.received, live.dropped));
    if let Some(latency) = &live.latency {
        let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
        ui.label(format!(
            "sorted on screen {:.0} ms after it came (median; 95th {:.0} ms)",
            ms(latency.median),
            ms(latency.p95)
        ))
        .on_hover_text("From a frame's arrival until the window had drawn it sorted");
    }
    if !live.ended {
        command_button(
            ui,
            model,
            Command::PlayPause,
            if live.paused { "Go on live" } else { "Pause" },
            actions,
        );
    }
}

/// The radix view's rows of the settings grid: digit width, key bits, scope, sub-steps.
fn radix_settings(ui: &mut egui::Ui, model: &UiModel<'_>, actions: &mut Vec<Action>) {
    let mut radix = model.radix;
    ui.label("Digits");
    ui.horizontal(|ui| {
        for bits in DIGIT_BITS {
            ui.radio_value(&mut radix.digit_bits, bits, format!("{bits}"))
                .on_hover_text(format!("{} buckets per digit pass", 1 << bits));
        }
        ui.label("bits");
    });
    ui.end_row();

    ui.label("Key bits");
    let exact = exact_bits(model.key);
    let mut bits = radix.key_bits.unwrap_or(exact).min(exact);
    let text = if bits == exact { "exact" } else { "quantised" };
    let slider = egui::Slider::new(&mut bits, 1..=exact).text(text);
    if ui.add(slider).on_hover_text("Bits of the key kept, highest first; fewer merge close keys").changed() {
        radix.key_bits = (bits != exact).then_some(bits);
    }
    ui.end_row();

    ui.label("Scope");
    ui.horizontal(|ui| {
        ui.radio_value(&mut radix.scope, Scope::Rows, "lines");
        ui.radio_value(&mut radix.scope, Scope::Image, "whole picture")
            .on_hover_text("All pixels as one sequence in scanline order: a gradient");
    });
    ui.end_row();

    ui.label("Scatter");
    ui.checkbox(&mut radix.sub_steps, "in stages")
        .on_hover_text("Show each pass's scatter in 4 steps, the pixels still waiting dimmed");
    ui.end_row();
    if radix != model.radix {
        actions.push(Action::SetRadix(radix));
    }
}

/// The status block: where the sort stands (step k of n, the last step's swaps, the sorted
/// mark, GPU and wall time per pass, frames per second) and the last message.
fn status(ui: &mut egui::Ui, model: &UiModel<'_>, state: &UiState) {
    egui::Frame::new().fill(STATUS_FILL).inner_margin(6.0).corner_radius(4.0).show(ui, |ui| {
        ui.set_width(ui.available_width());
        ui.label(
            egui::RichText::new(format!("{} {} of {}", model.step_noun, model.steps_done, model.total_steps))
                .strong()
                .size(15.0),
        );
        match model.lanes.as_slice() {
            [lane] => lane_stats(ui, lane),
            lanes => {
                ui.label(format!("{} lanes side by side; each picture's label has its numbers", lanes.len()));
            }
        }
        let wall = model
            .wall_ms_per_pass
            .map_or_else(|| "no steps run yet".to_string(), |ms| format!("wall {ms:.3} ms per step"));
        ui.label(format!("{wall} · {:.0} frames/s", model.fps));
        if !state.status.line.is_empty() {
            let text = egui::RichText::new(&state.status.line);
            ui.add(
                egui::Label::new(if state.status.is_error {
                    text.color(egui::Color32::LIGHT_RED)
                } else {
                    text
                })
                .wrap(),
            );
        }
    });
}

fn lane_stats(ui: &mut egui::Ui, lane: &LaneView) {
    let moves = match lane.last_swaps {
        Some(n) => {
            format!(
                "{} {} in the last step",
                crate::controls::explain::thousands(u64::from(n)),
                lane.moves_name
            )
        }
        None => format!("{} in the last step: —", lane.moves_name),
    };
    ui.label(moves);
    match lane.sorted_after {
        Some(k) => ui.label(
            egui::RichText::new(format!("✔ sorted (after {k} steps)")).color(egui::Color32::LIGHT_GREEN),
        ),
        None => ui.label(format!("sorting: at most {} steps", lane.passes.1)),
    };
    match lane.gpu_ms_per_step {
        Some(ms) => ui.label(format!("GPU {:.1} µs per step (timestamps)", ms * 1e3)),
        None => ui.label("GPU time: no timestamps on this adapter"),
    };
}
