//! The side panel's interval controls: mode, interval key, the threshold as a two-handled slider,
//! edge level, random seed and interval lengths, the mask, and the intervals overlay. Like the rest
//! of the panel it only reads the [`UiModel`] and reports [`Action`]s.
//!
//! The two-handled slider is egui's own `RangeSlider` (since egui 0.37): it drags either
//! handle, jumps the nearer one to a click on the rail, lets both values be typed, and never
//! lets the handles cross; [`threshold_from_handles`] turns what it reports into a threshold.

use super::panel_model::{Action, UiModel, UiState};
use crate::controls::commands::Command;
use crate::intervals::{IntervalLength, IntervalMode, IntervalSettings, Threshold};
use crate::keys::SortKey;

/// The longest random interval length the slider offers (longer intervals than a line sort whole
/// lines).
pub const MAX_INTERVAL_LENGTH: u32 = 4096;

/// The threshold the slider's handles stand for: each end clamped to 0..1, the lower first,
/// so any pair of values (typed, dragged, or rounded) makes a valid threshold.
pub fn threshold_from_handles(lo: f64, hi: f64) -> Threshold {
    let clamp = |v: f64| if v.is_nan() { 0.0 } else { v.clamp(0.0, 1.0) };
    let (lo, hi) = (clamp(lo), clamp(hi));
    Threshold::new(lo.min(hi), lo.max(hi)).expect("clamped and ordered")
}

/// The interval lengths the random slider's handles stand for: each at least 1, the shorter first.
pub fn interval_length_from_handles(min: u32, max: u32) -> IntervalLength {
    let (min, max) = (min.max(1), max.max(1));
    IntervalLength::new(min.min(max), min.max(max)).expect("at least 1 and ordered")
}

/// The interval section of the side panel.
pub fn interval_controls(
    ui: &mut egui::Ui,
    model: &UiModel<'_>,
    state: &mut UiState,
    actions: &mut Vec<Action>,
) {
    ui.label(egui::RichText::new("Intervals").strong()).on_hover_text(
        "Sort only intervals of each line; the intervals come from the input picture and stay put",
    );
    let mut settings = model.intervals;
    egui::Grid::new("intervals").num_columns(2).show(ui, |ui| {
        ui.label("Mode");
        egui::ComboBox::from_id_salt("interval_mode").selected_text(settings.mode.name()).show_ui(ui, |ui| {
            for mode in IntervalMode::ALL {
                ui.selectable_value(&mut settings.mode, mode, mode.name());
            }
        });
        ui.end_row();
        mode_controls(ui, &mut settings);
    });
    if settings != model.intervals {
        actions.push(Action::SetIntervals(settings));
    }
    mask_controls(ui, model, state, actions);
    let mut show = model.show_intervals;
    if ui
        .checkbox(&mut show, "show intervals (I)")
        .on_hover_text("Fixed pixels darkened, interval starts magenta")
        .changed()
    {
        actions.push(Action::Command(Command::ToggleIntervalsOverlay));
    }
    match &model.intervals_summary {
        Some(summary) => ui.small(summary),
        None => ui.small("every line sorted whole"),
    };
    for notice in model.lanes.iter().filter_map(|l| l.notice.as_deref()) {
        ui.label(egui::RichText::new(notice).color(egui::Color32::YELLOW));
    }
}

/// The rows of the grid for the chosen mode's own settings.
fn mode_controls(ui: &mut egui::Ui, settings: &mut IntervalSettings) {
    if matches!(settings.mode, IntervalMode::Threshold | IntervalMode::Edges) {
        ui.label("Interval key");
        egui::ComboBox::from_id_salt("interval_key").selected_text(settings.key.name()).show_ui(ui, |ui| {
            for key in SortKey::ALL {
                ui.selectable_value(&mut settings.key, key, key.name());
            }
        });
        ui.end_row();
    }
    match settings.mode {
        IntervalMode::Threshold => {
            ui.label("Threshold");
            let (mut lo, mut hi) = (settings.threshold.lo(), settings.threshold.hi());
            let slider = egui::RangeSlider::new(&mut lo, &mut hi, 0.0..=1.0).max_decimals(2);
            if ui
                .add(slider)
                .on_hover_text("Pixels whose interval key lies within LO..HI are sorted")
                .changed()
            {
                settings.threshold = threshold_from_handles(lo, hi);
            }
            ui.end_row();
        }
        IntervalMode::Edges => {
            ui.label("Edge level");
            ui.add(egui::Slider::new(&mut settings.edge_level, 0.0..=1.0).max_decimals(2))
                .on_hover_text("Pixels on edges stronger than this stay and end the intervals");
            ui.end_row();
        }
        IntervalMode::Random => {
            ui.label("Seed");
            ui.add(egui::DragValue::new(&mut settings.seed));
            ui.end_row();
            ui.label("Interval length");
            let (mut min, mut max) = (settings.interval_length.min(), settings.interval_length.max());
            let slider =
                egui::RangeSlider::new(&mut min, &mut max, 1..=MAX_INTERVAL_LENGTH).logarithmic(true);
            if ui.add(slider).on_hover_text("Interval lengths are drawn from MIN..MAX").changed() {
                settings.interval_length = interval_length_from_handles(min, max);
            }
            ui.end_row();
        }
        IntervalMode::None => {}
    }
}

/// The mask: natively a path field with Load, and everywhere a file dialog (the page's only
/// way: it has no paths), Clear, and the brush that paints one.
fn mask_controls(ui: &mut egui::Ui, model: &UiModel<'_>, state: &mut UiState, actions: &mut Vec<Action>) {
    #[cfg(not(target_arch = "wasm32"))]
    ui.horizontal(|ui| {
        ui.label("Mask");
        let field = ui.add(
            egui::TextEdit::singleline(&mut state.mask_path)
                .hint_text("path/to/mask.png")
                .desired_width(140.0),
        );
        let entered = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        let load = ui.button("Load").on_hover_text("White pixels may be sorted, black ones stay");
        if (entered || load.clicked()) && !state.mask_path.trim().is_empty() {
            actions.push(Action::LoadMask(state.mask_path.trim().into()));
        }
    });
    ui.horizontal(|ui| {
        if cfg!(target_arch = "wasm32") {
            ui.label("Mask");
        }
        if ui.button("Browse...").clicked() {
            actions.push(Action::BrowseMask);
        }
        if let Some(label) = &model.mask_label {
            if ui.button("Clear").clicked() {
                actions.push(Action::ClearMask);
            }
            ui.small(format!("mask {label}"));
        }
    });
    super::mask_brush::brush_controls(ui, model, state, actions);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_pair_of_handles_makes_a_valid_threshold_lo_first() {
        // Handles as dragged, and the threshold they make: crossed ones swap, outside ones clamp,
        // NaN counts as 0.
        let cases = [
            ((0.2, 0.6), (0.2, 0.6)),
            ((0.7, 0.3), (0.3, 0.7)),
            ((-0.5, 1.5), (0.0, 1.0)),
            ((0.4, 0.4), (0.4, 0.4)),
            ((f64::NAN, 0.5), (0.0, 0.5)),
        ];
        for ((a, b), want) in cases {
            let t = threshold_from_handles(a, b);
            assert_eq!((t.lo(), t.hi()), want, "handles {a} and {b}");
        }
    }

    #[test]
    fn any_pair_of_handles_makes_valid_interval_lengths() {
        for ((a, b), want) in [((8, 64), (8, 64)), ((64, 8), (8, 64)), ((0, 0), (1, 1))] {
            let r = interval_length_from_handles(a, b);
            assert_eq!((r.min(), r.max()), want, "handles {a} and {b}");
        }
    }
}
