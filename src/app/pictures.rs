//! The picture area: the lanes laid out in a grid, each pixel-exact under the shared zoom and
//! pan, with their labels; a click opens the row lens on the line through that pixel, and the
//! lens's line is marked on every lane.

use super::panel_model::{Action, UiModel, UiState};
use super::zoom::Zoom;
use crate::angle::Route;
use crate::paths::{Centre, PathChoice, PathKind};

/// Height of a side-by-side lane's label, in points.
const LANE_LABEL: f32 = 20.0;

/// Columns and rows for `lanes` pictures of `picture` pixels in an `area` of pixels, each cell
/// `label` pixels of it taken by its label: the arrangement that shows the pictures largest
/// (fewer rows when two tie).
pub fn lane_grid(lanes: usize, area: (f32, f32), picture: (u32, u32), label: f32) -> (usize, usize) {
    let lanes = lanes.max(1);
    let (pw, ph) = (picture.0.max(1) as f32, picture.1.max(1) as f32);
    let scale = |cols: usize| {
        let rows = lanes.div_ceil(cols);
        let (cw, ch) = (area.0 / cols as f32, area.1 / rows as f32 - label);
        (cw / pw).min(ch / ph)
    };
    let cols = (1..=lanes).fold(1, |best, cols| if scale(cols) > scale(best) { cols } else { best });
    (cols, lanes.div_ceil(cols))
}

/// How far a pinch spreads (or, inverted, closes) for one zoom step.
const PINCH_STEP: f32 = 1.25;

/// The pictures: one, or the lanes side by side, each pixel-exact.
pub fn pictures(ui: &mut egui::Ui, model: &UiModel<'_>, state: &mut UiState, actions: &mut Vec<Action>) {
    let area = ui.available_rect_before_wrap();
    let response = ui.interact(area, ui.scope_id().with("pictures"), egui::Sense::click_and_drag());
    // The picture follows the pointer from where it was pressed: egui decides a drag only after
    // the pointer has moved a little, and that first move counts too.
    // While painting the mask, drags paint instead.
    let origin = ui.input(|i| i.pointer.press_origin());
    match (response.drag_started(), origin, response.interact_pointer_pos()) {
        _ if state.brush.is_some() => {}
        (true, Some(from), Some(to)) => state.pan += to - from,
        _ if response.dragged() => state.pan += response.drag_delta(),
        _ => {}
    }
    let ppp = ui.ctx().pixels_per_point();
    if response.hovered() {
        let scroll = ui.input(|i| i.smooth_scroll_delta.y);
        if scroll != 0.0 {
            let current = state.zoom.unwrap_or_else(|| fit_zoom(model, area, ppp));
            state.zoom = Some(if scroll > 0.0 { current.closer() } else { current.further() });
        }
    }
    // A pinch zooms a step for each quarter it has spread (or a fifth it has closed), however
    // far it went within one frame.
    state.pinch *= ui.input(egui::InputState::zoom_delta);
    if !(state.pinch.is_finite() && state.pinch > 0.0) {
        state.pinch = 1.0;
    }
    while !(1.0 / PINCH_STEP..PINCH_STEP).contains(&state.pinch) {
        let current = state.zoom.unwrap_or_else(|| fit_zoom(model, area, ppp));
        let closer = state.pinch > 1.0;
        state.zoom = Some(if closer { current.closer() } else { current.further() });
        state.pinch = if closer { state.pinch / PINCH_STEP } else { state.pinch * PINCH_STEP };
    }
    let zoom = state.zoom.unwrap_or_else(|| fit_zoom(model, area, ppp));
    let several = model.lanes.len() > 1;
    let label = if several { LANE_LABEL } else { 0.0 };
    let (cols, rows) = lane_grid(model.lanes.len(), (area.width(), area.height()), model.size, label);
    let cell_size = egui::vec2(area.width() / cols as f32, area.height() / rows as f32);
    for (i, lane) in model.lanes.iter().enumerate() {
        let corner = area.min + egui::vec2((i % cols) as f32 * cell_size.x, (i / cols) as f32 * cell_size.y);
        let cell = egui::Rect::from_min_size(corner, cell_size);
        let body = if several { cell.with_min_y(cell.min.y + LANE_LABEL) } else { cell };
        let (w, h) = zoom.size_on_screen(model.size);
        let size = egui::vec2(w as f32, h as f32) / ppp;
        // Snap the corner to a whole screen pixel so picture pixels land on screen pixels.
        let corner = body.center() - size / 2.0 + state.pan;
        let corner = egui::pos2((corner.x * ppp).round() / ppp, (corner.y * ppp).round() / ppp);
        let rect = egui::Rect::from_min_size(corner, size);
        if several {
            // The label sits right above its picture, inside the cell.
            let gpu =
                lane.gpu_ms_per_step.map_or_else(String::new, |ms| format!(" · GPU {:.1} µs/step", ms * 1e3));
            let text = format!("{}: {}/{}{gpu}", lane.short_label, lane.passes.0, lane.passes.1);
            let top = (rect.min.y - LANE_LABEL).clamp(cell.min.y, cell.max.y - LANE_LABEL);
            let label_rect =
                egui::Rect::from_min_size(egui::pos2(cell.min.x, top), egui::vec2(cell.width(), LANE_LABEL))
                    .shrink2(egui::vec2(4.0, 0.0));
            ui.put(label_rect, egui::Label::new(egui::RichText::new(text).size(13.0)).truncate())
                .on_hover_text(&lane.label);
        }
        let painter = ui.painter_at(body);
        painter.add(lane.picture.callback(rect, model.size, ppp));
        let uv = egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0));
        if let Some(intervals) = model.intervals_overlay.filter(|_| lane.in_intervals) {
            painter.image(intervals, rect, uv, egui::Color32::WHITE);
        }
        if let Some(mask) = model.mask_overlay {
            painter.image(mask, rect, uv, egui::Color32::WHITE);
        }
        if let Some(brush) = state.brush {
            super::mask_brush::brush_input(ui, &response, (cell, rect), model.size, brush, actions);
        }
        // A click on a picture opens the lens on the line through that pixel.
        let to_picture = |p: egui::Pos2| {
            let (x, y) = ((p.x - rect.min.x) / rect.width(), (p.y - rect.min.y) / rect.height());
            ((x * model.size.0 as f32) as u32, (y * model.size.1 as f32) as u32)
        };
        let shift = ui.input(|i| i.modifiers.shift);
        let clicked = response.clicked() && state.brush.is_none();
        if clicked
            && shift
            && let Some(p) = response.interact_pointer_pos()
            && let Some(route) = centred_at(model.route, rect, model.size, p)
        {
            actions.push(Action::SetRoute(route));
        } else if clicked && let Some(p) = response.interact_pointer_pos().filter(|p| rect.contains(*p)) {
            let (x, y) = to_picture(p);
            actions.push(Action::Inspect(x, y));
        }
        if let Some(Some(Ok(reading))) = model.lens.and_then(|l| l.get(i)) {
            let to_screen = |(x, y): (u32, u32)| {
                rect.min
                    + egui::vec2(
                        (x as f32 + 0.5) / model.size.0 as f32 * rect.width(),
                        (y as f32 + 0.5) / model.size.1 as f32 * rect.height(),
                    )
            };
            for mark in &reading.line.marks {
                let points: Vec<egui::Pos2> = mark.iter().copied().map(to_screen).collect();
                let shadow = egui::Stroke::new(3.0, egui::Color32::from_black_alpha(160));
                painter.add(egui::Shape::line(points.clone(), shadow));
                painter.add(egui::Shape::line(points, egui::Stroke::new(1.0, egui::Color32::YELLOW)));
            }
        }
    }
}

/// What a Shift+click at `at` on a picture drawn in `rect` makes of `route`: its path centred
/// there (to half a pixel, inside the picture or not), or rings around it when the lines are
/// straight or the Hilbert curve (which has no centre).
fn centred_at(route: Route, rect: egui::Rect, size: (u32, u32), at: egui::Pos2) -> Option<Route> {
    let half = |v: f32| f64::from((v * 2.0).round()) / 2.0;
    let x = half((at.x - rect.min.x) / rect.width() * size.0 as f32);
    let y = half((at.y - rect.min.y) / rect.height() * size.1 as f32);
    let centre = Centre::at(x, y).ok()?;
    let path = match route {
        Route::Path(path) if path.kind.has_centre() => path,
        _ => PathChoice { kind: PathKind::Rings, centre: None, rays: None },
    };
    Some(Route::Path(PathChoice { centre: Some(crate::paths::CentreAt::Pixels(centre)), ..path }))
}

fn fit_zoom(model: &UiModel<'_>, area: egui::Rect, ppp: f32) -> Zoom {
    let label = if model.lanes.len() > 1 { LANE_LABEL } else { 0.0 };
    let (cols, rows) = lane_grid(model.lanes.len(), (area.width(), area.height()), model.size, label);
    let cell =
        ((area.width() / cols as f32 * ppp) as u32, ((area.height() / rows as f32 - label) * ppp) as u32);
    Zoom::fit(model.size, cell)
}

#[cfg(test)]
mod tests {
    use super::lane_grid;

    #[test]
    fn lanes_are_laid_out_so_the_pictures_come_out_largest() {
        // Four square pictures in a wide area: one row; in a square area: two by two.
        assert_eq!(lane_grid(4, (1600.0, 400.0), (100, 100), 20.0), (4, 1));
        assert_eq!(lane_grid(4, (800.0, 800.0), (100, 100), 20.0), (2, 2));
        // Wide pictures stack.
        assert_eq!(lane_grid(4, (800.0, 800.0), (400, 50), 20.0), (1, 4));
        assert_eq!(lane_grid(1, (800.0, 600.0), (64, 48), 0.0), (1, 1));
        assert_eq!(lane_grid(0, (800.0, 600.0), (64, 48), 0.0), (1, 1));
        // Five lanes in three columns leave one cell empty rather than shrink every picture.
        let (cols, rows) = lane_grid(5, (900.0, 600.0), (100, 100), 20.0);
        assert!(cols * rows >= 5 && (cols, rows) == (3, 2), "{cols}x{rows}");
    }
}
