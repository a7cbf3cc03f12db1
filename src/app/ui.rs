//! The window's egui interface: the side panel, the pictures, the help overlay. It only reads
//! a [`UiModel`] and reports [`Action`]s (`panel_model`); the app applies them.

use super::commands::{Command, CommandSpec, spec_of};
use super::lanes::LaneSync;
use super::panel_model::{Action, LaneView, UiModel, UiState};
use super::zoom::Zoom;
use crate::algorithms::Algorithm;
use crate::algorithms::odd_even::PassKind;
use crate::angle::Angle;
use crate::keys::SortKey;
use crate::keys::options::Scope;
use crate::keys::radix_key::{DIGIT_BITS, exact_bits};

/// Width of the side panel in points.
pub const PANEL_WIDTH: f32 = 290.0;

/// Draws the whole window.
pub fn draw(ui: &mut egui::Ui, model: &UiModel<'_>, state: &mut UiState, actions: &mut Vec<Action>) {
    egui::Panel::left("controls").resizable(false).exact_size(PANEL_WIDTH).show(ui, |ui| {
        egui::ScrollArea::vertical().show(ui, |ui| side_panel(ui, model, state, actions));
    });
    egui::CentralPanel::default().show(ui, |ui| pictures(ui, model, state));
    if state.help_open {
        help(ui.ctx(), model.commands, &mut state.help_open);
    }
}

fn command_button(
    ui: &mut egui::Ui,
    model: &UiModel<'_>,
    command: Command,
    text: &str,
    actions: &mut Vec<Action>,
) {
    let spec = spec_of(model.commands, command);
    let tip = format!("{} ({}): {}", spec.name, spec.keys_label(), spec.help);
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
        command_button(ui, model, Command::SavePng, "Save PNG", actions);
        command_button(ui, model, Command::Help, "Keys", actions);
    });
    ui.separator();

    egui::Grid::new("settings").num_columns(2).show(ui, |ui| {
        ui.label("Algorithm");
        let mut algorithm = model.algorithm;
        egui::ComboBox::from_id_salt("algorithm").selected_text(algorithm.title()).show_ui(ui, |ui| {
            for a in Algorithm::ALL {
                ui.selectable_value(&mut algorithm, a, a.title());
            }
        });
        if algorithm != model.algorithm {
            actions.push(Action::SetAlgorithm(algorithm));
        }
        ui.end_row();

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

        ui.label("Key");
        let mut key = model.key;
        egui::ComboBox::from_id_salt("key").selected_text(key.name()).show_ui(ui, |ui| {
            for k in SortKey::ALL {
                ui.selectable_value(&mut key, k, k.name());
            }
        });
        if key != model.key {
            actions.push(Action::SetKey(key));
        }
        ui.end_row();

        ui.label("Order");
        let mut reverse = model.reverse;
        ui.checkbox(&mut reverse, "largest first");
        if reverse != model.reverse {
            actions.push(Action::SetReverse(reverse));
        }
        ui.end_row();

        ui.label("Direction");
        direction(ui, model, actions);
        ui.end_row();

        ui.label("View");
        let mut compare = model.compare;
        ui.checkbox(&mut compare, "side by side");
        if compare != model.compare {
            actions.push(Action::SetCompare(compare));
        }
        ui.end_row();

        if model.compare {
            ui.label("Sync");
            let mut sync = model.sync;
            ui.horizontal(|ui| {
                ui.radio_value(&mut sync, LaneSync::ByPass, LaneSync::ByPass.name())
                    .on_hover_text("Every lane runs the same number of passes");
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
        command_button(ui, model, Command::PlayPause, if model.playing { "Pause" } else { "Play" }, actions);
        command_button(ui, model, Command::StepForward, "Step", actions);
        command_button(ui, model, Command::Last, "Last", actions);
        command_button(ui, model, Command::Reset, "Reset", actions);
    });
    ui.horizontal(|ui| {
        command_button(ui, model, Command::Slower, "-", actions);
        ui.label(format!("{} passes/s", model.speed));
        command_button(ui, model, Command::Faster, "+", actions);
    });
    let mut pass = model.steps_done;
    let slider = egui::Slider::new(&mut pass, 0..=model.total_steps.max(1)).text("pass");
    if ui.add(slider).changed() {
        actions.push(Action::GoTo(pass));
    }
    ui.label(
        egui::RichText::new(format!("{} {} / {}", model.step_noun, model.steps_done, model.total_steps))
            .strong(),
    );
    for lane in &model.lanes {
        ui.separator();
        if model.lanes.len() > 1 {
            ui.label(egui::RichText::new(&lane.label).strong());
        }
        lane_stats(ui, lane);
    }
    ui.separator();
    match model.wall_ms_per_pass {
        Some(ms) => ui.label(format!("{ms:.3} ms per pass (wall clock)")),
        None => ui.label("no passes run yet"),
    };
    ui.label(format!("{:.0} frames/s", model.fps));
    ui.horizontal(|ui| {
        let zoom = state.zoom.map_or_else(|| "fit".to_string(), Zoom::label);
        ui.label(format!("zoom {zoom}"));
        command_button(ui, model, Command::FitToWindow, "Fit", actions);
        command_button(ui, model, Command::ActualSize, "1:1", actions);
    });
    ui.separator();
    match &model.recording {
        Some((done, most, path)) => {
            ui.label(format!("recording {path}"));
            ui.add(
                egui::ProgressBar::new(*done as f32 / *most as f32).text(format!("{done} / {most} frames")),
            );
            if ui.button("Cancel recording").clicked() {
                actions.push(Action::CancelRecording);
            }
        }
        None => command_button(ui, model, Command::RecordGif, "Record GIF", actions),
    }
    if !state.status.is_empty() {
        ui.separator();
        let text = egui::RichText::new(&state.status);
        ui.label(if state.status_is_error { text.color(egui::Color32::LIGHT_RED) } else { text });
    }
}

/// The sort direction: rows, columns, or any angle in degrees (dragged or typed; `[` and `]`
/// turn it by 15°).
fn direction(ui: &mut egui::Ui, model: &UiModel<'_>, actions: &mut Vec<Action>) {
    let clockwise = spec_of(model.commands, Command::TurnClockwise);
    let counterclockwise = spec_of(model.commands, Command::TurnCounterclockwise);
    let tip = format!(
        "Degrees, y pointing down: 0 rows left to right, 90 columns top to bottom, 180 rows right to left ({} and {} turn it by 15°)",
        counterclockwise.keys_label(),
        clockwise.keys_label()
    );
    ui.horizontal(|ui| {
        for (angle, name) in [(Angle::ROWS, "rows"), (Angle::COLUMNS, "columns")] {
            if ui.radio(model.angle == angle, name).clicked() && model.angle != angle {
                actions.push(Action::SetAngle(angle));
            }
        }
        let mut degrees = model.angle.degrees();
        let drag = egui::DragValue::new(&mut degrees).speed(0.5).suffix("°").max_decimals(3);
        if ui.add(drag).on_hover_text(tip).changed()
            && let Ok(angle) = Angle::new(degrees)
            && angle != model.angle
        {
            actions.push(Action::SetAngle(angle));
        }
    });
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

fn lane_stats(ui: &mut egui::Ui, lane: &LaneView) {
    match lane.last_swaps {
        Some(swaps) => ui.label(format!("{} in the last step: {swaps}", lane.moves_name)),
        None => ui.label(format!("{} in the last step: —", lane.moves_name)),
    };
    match lane.sorted_after {
        Some(k) => ui.label(
            egui::RichText::new(format!("✔ sorted (after {k} passes)")).color(egui::Color32::LIGHT_GREEN),
        ),
        None => ui.label(format!("sorting: step {} of at most {}", lane.passes.0, lane.passes.1)),
    };
    match lane.gpu_ms_per_pass {
        Some(ms) => ui.label(format!("GPU {:.1} µs per pass (timestamps)", ms * 1e3)),
        None => ui.label("GPU time: no timestamps on this adapter"),
    };
}

/// The pictures: one, or the lanes side by side, each pixel-exact.
fn pictures(ui: &mut egui::Ui, model: &UiModel<'_>, state: &mut UiState) {
    let area = ui.available_rect_before_wrap();
    let response = ui.interact(area, ui.scope_id().with("pictures"), egui::Sense::drag());
    if response.dragged() {
        state.pan += response.drag_delta();
    }
    if response.hovered() {
        let scroll = ui.input(|i| i.smooth_scroll_delta.y);
        if scroll != 0.0 {
            let ppp = ui.ctx().pixels_per_point();
            let current = state.zoom.unwrap_or_else(|| fit_zoom(model, area, ppp));
            state.zoom = Some(if scroll > 0.0 { current.closer() } else { current.further() });
        }
    }
    let ppp = ui.ctx().pixels_per_point();
    let zoom = state.zoom.unwrap_or_else(|| fit_zoom(model, area, ppp));
    let n = model.lanes.len().max(1) as f32;
    let cell_width = area.width() / n;
    for (i, lane) in model.lanes.iter().enumerate() {
        let cell = egui::Rect::from_min_size(
            egui::pos2(area.min.x + cell_width * i as f32, area.min.y),
            egui::vec2(cell_width, area.height()),
        );
        let painter = ui.painter_at(cell);
        let mut body = cell;
        if model.lanes.len() > 1 {
            painter.text(
                cell.center_top() + egui::vec2(0.0, 4.0),
                egui::Align2::CENTER_TOP,
                format!("{}: {}/{}", lane.short_label, lane.passes.0, lane.passes.1),
                egui::FontId::proportional(13.0),
                ui.visuals().text_color(),
            );
            body.min.y += 22.0;
        }
        if let Some(texture) = lane.texture {
            let (w, h) = zoom.size_on_screen(model.size);
            let size = egui::vec2(w as f32, h as f32) / ppp;
            // Snap the corner to a whole screen pixel so picture pixels land on screen pixels.
            let corner = body.center() - size / 2.0 + state.pan;
            let corner = egui::pos2((corner.x * ppp).round() / ppp, (corner.y * ppp).round() / ppp);
            let rect = egui::Rect::from_min_size(corner, size);
            let uv = egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0));
            painter.image(texture, rect, uv, egui::Color32::WHITE);
            if let Some(runs) = model.runs_overlay.filter(|_| lane.in_runs) {
                painter.image(runs, rect, uv, egui::Color32::WHITE);
            }
        }
    }
}

fn fit_zoom(model: &UiModel<'_>, area: egui::Rect, ppp: f32) -> Zoom {
    let lanes = model.lanes.len().max(1) as f32;
    let header = if model.lanes.len() > 1 { 22.0 } else { 0.0 };
    let avail = ((area.width() / lanes * ppp) as u32, ((area.height() - header) * ppp) as u32);
    Zoom::fit(model.size, avail)
}

fn help(ctx: &egui::Context, commands: &[CommandSpec], open: &mut bool) {
    egui::Window::new("Keys").open(open).collapsible(false).resizable(false).show(ctx, |ui| {
        egui::Grid::new("keys").striped(true).num_columns(3).show(ui, |ui| {
            for spec in commands {
                ui.label(egui::RichText::new(spec.keys_label()).monospace());
                ui.label(&spec.name);
                ui.label(spec.help);
                ui.end_row();
            }
        });
        ui.label("Keys are ignored while a text field has focus. Drop a picture on the window to open it.");
    });
}
