//! The mask brush in the panel: while painting (E), a drag on the picture paints where pixels
//! may move, or with Shift (or the brush set to *stays*) where they stay; its size, invert, fill
//! from the intervals in use, and save (the mask's Clear drops it). The sort follows each stroke, as
//! for any mask.

use super::panel_model::{Action, Brush, UiModel, UiState};
use crate::controls::commands::{Command, spec_of};

/// Largest brush radius the panel offers, in picture pixels.
const MAX_RADIUS: f32 = 256.0;

/// The brush's rows under the mask controls: Paint, and while painting its size, what it paints,
/// and the mask's edits.
pub fn brush_controls(
    ui: &mut egui::Ui,
    model: &UiModel<'_>,
    state: &mut UiState,
    actions: &mut Vec<Action>,
) {
    let paint = spec_of(model.commands, Command::PaintMask);
    ui.horizontal(|ui| {
        let mut painting = state.brush.is_some();
        let tip = format!("{} ({})", paint.help, paint.shortcuts_label());
        if ui.toggle_value(&mut painting, "Paint").on_hover_text(tip).changed() {
            actions.push(Action::Command(Command::PaintMask));
        }
        if model.mask_label.is_some()
            && ui.button("Save").on_hover_text("Save the mask as a PNG that --mask reads").clicked()
        {
            actions.push(Action::SaveMask);
        }
    });
    let Some(brush) = &mut state.brush else { return };
    ui.horizontal(|ui| {
        ui.add(
            egui::Slider::new(&mut brush.radius, Brush::MIN_RADIUS..=MAX_RADIUS).logarithmic(true).text("px"),
        )
        .on_hover_text("The brush's radius in picture pixels");
    });
    ui.horizontal(|ui| {
        ui.radio_value(&mut brush.stays, false, "may move")
            .on_hover_text("Paint where pixels may be sorted (white)");
        ui.radio_value(&mut brush.stays, true, "stays")
            .on_hover_text("Paint where pixels stay (black); Shift paints so too");
    });
    ui.horizontal(|ui| {
        if ui.button("Invert").clicked() {
            actions.push(Action::InvertMask);
        }
        if ui
            .button("From intervals")
            .on_hover_text("The mask of the intervals in use: what can move there may move")
            .clicked()
        {
            actions.push(Action::FillMaskFromRuns);
        }
    });
}

/// A stroke from the pointer's drag (or a dot from a click) over the picture drawn in `rect`,
/// when the pointer is in its lane's `cell`: from where the drag was pressed on its first frame
/// (egui decides a drag only after the pointer has moved a little), else from where the pointer
/// was the frame before, to where it is; in picture pixels.
pub fn brush_input(
    ui: &egui::Ui,
    response: &egui::Response,
    (cell, rect): (egui::Rect, egui::Rect),
    size: (u32, u32),
    brush: Brush,
    actions: &mut Vec<Action>,
) {
    let Some(to) = response.interact_pointer_pos().filter(|p| cell.contains(*p)) else { return };
    let from = if response.drag_started() {
        ui.input(|i| i.pointer.press_origin()).unwrap_or(to)
    } else if response.dragged() {
        to - response.drag_delta()
    } else if response.clicked() {
        to
    } else {
        return;
    };
    let in_picture = |p: egui::Pos2| {
        let x = (p.x - rect.min.x) / rect.width() * size.0 as f32;
        let y = (p.y - rect.min.y) / rect.height() * size.1 as f32;
        (x, y)
    };
    let stays = brush.stays || ui.input(|i| i.modifiers.shift);
    actions.push(Action::Paint { from: in_picture(from), to: in_picture(to), stays });
}
