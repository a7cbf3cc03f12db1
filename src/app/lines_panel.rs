//! The panel's rows for what the lines follow: straight lines (rows, columns, or any angle in
//! degrees, dragged or typed; `[` and `]` turn them by 15°) or a path (rings, rays, a spiral, the
//! Hilbert curve; B bends the lines through them), its centre (a Shift+click on the picture
//! sets it) and its rays.

use super::panel_model::{Action, UiModel};
use crate::angle::{Angle, Route};
use crate::controls::commands::{Command, spec_of};
use crate::paths::{PathChoice, PathKind};

/// Rows, columns, or degrees.
pub fn direction(ui: &mut egui::Ui, model: &UiModel<'_>, actions: &mut Vec<Action>) {
    let clockwise = spec_of(model.commands, Command::TurnClockwise);
    let counterclockwise = spec_of(model.commands, Command::TurnCounterclockwise);
    let tip = format!(
        "Degrees, y pointing down: 0 rows left to right, 90 columns top to bottom, 180 rows right to left ({} and {} turn it by 15°)",
        counterclockwise.shortcuts_label(),
        clockwise.shortcuts_label()
    );
    let angle = model.route.angle();
    ui.horizontal(|ui| {
        for (axis, name) in [(Angle::ROWS, "rows"), (Angle::COLUMNS, "columns")] {
            if ui.radio(angle == Some(axis), name).clicked() && angle != Some(axis) {
                actions.push(Action::SetRoute(Route::Angle(axis)));
            }
        }
        let mut degrees = angle.unwrap_or_default().degrees();
        let drag = egui::DragValue::new(&mut degrees).speed(0.5).suffix("°").max_decimals(3);
        if ui.add(drag).on_hover_text(tip).changed()
            && let Ok(next) = Angle::new(degrees)
            && Some(next) != angle
        {
            actions.push(Action::SetRoute(Route::Angle(next)));
        }
    });
}

/// Straight lines or a path; for a path with a centre, where it is (and back to the middle); for
/// rays, how many.
pub fn path(ui: &mut egui::Ui, model: &UiModel<'_>, actions: &mut Vec<Action>) {
    let bend = spec_of(model.commands, Command::BendLines);
    let current = match model.route {
        Route::Path(path) => Some(path),
        Route::Angle(_) => None,
    };
    ui.vertical(|ui| {
        let shown = current.map_or("straight lines", |p| p.kind.name());
        egui::ComboBox::from_id_salt("path")
            .selected_text(shown)
            .show_ui(ui, |ui| {
                if ui.selectable_label(current.is_none(), "straight lines").clicked() && current.is_some() {
                    actions.push(Action::SetRoute(Route::Angle(Angle::ROWS)));
                }
                for kind in PathKind::ALL {
                    let chosen = current.is_some_and(|p| p.kind == kind);
                    if ui.selectable_label(chosen, kind.name()).on_hover_text(kind_tip(kind)).clicked()
                        && !chosen
                    {
                        let (centre, rays) = current.map_or((None, None), |p| (p.centre, p.rays));
                        actions.push(Action::SetRoute(Route::Path(PathChoice { kind, centre, rays })));
                    }
                }
            })
            .response
            .on_hover_text(format!(
                "Sort along straight lines or a path ({} goes through them)",
                bend.shortcuts_label()
            ));
        let Some(path) = current.filter(|p| p.kind.has_centre()) else { return };
        ui.horizontal(|ui| {
            let place = match path.centre {
                Some(centre) => format!("centre {centre}"),
                None => "centre: the middle".to_owned(),
            };
            ui.label(place).on_hover_text("Shift+click the picture to move the centre");
            if path.centre.is_some() && ui.small_button("middle").clicked() {
                actions.push(Action::SetRoute(Route::Path(PathChoice { centre: None, ..path })));
            }
        });
        if path.kind == PathKind::Rays {
            ui.horizontal(|ui| {
                let mut count = path.rays.unwrap_or(0);
                let drag =
                    egui::DragValue::new(&mut count).range(0..=65_536).speed(1.0).custom_formatter(|n, _| {
                        if n == 0.0 { "about a pixel apart".to_owned() } else { format!("{n}") }
                    });
                if ui
                    .add(drag)
                    .on_hover_text("How many rays (0: about a pixel apart at the farthest corner)")
                    .changed()
                {
                    let rays = (count > 0).then_some(count);
                    actions.push(Action::SetRoute(Route::Path(PathChoice { rays, ..path })));
                }
                ui.label("rays");
            });
        }
    });
}

/// What each path is, for its entry's tip.
fn kind_tip(kind: PathKind) -> &'static str {
    match kind {
        PathKind::Rings => "Circles around the centre, each sorted by angle from the right, clockwise",
        PathKind::Rays => "Straight out of the centre, each sorted outward",
        PathKind::Spiral => "The rings joined from the centre outward, one sequence",
        PathKind::Hilbert => "The Hilbert curve through the picture, one sequence",
    }
}
