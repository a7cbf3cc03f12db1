//! The shader panel (J, or the Shader button): the WGSL kernel a lane's last step dispatched,
//! exactly as compiled, highlighted, with each file's line numbers, the step's uniform values and
//! the pipeline's constants beside the lines that declare them, the lines that compare and swap
//! (or scatter) tinted, and a header with the entry point, the dispatch's size and what the step
//! cost (comparisons, swaps, bytes, barriers: `algorithms::work`). The text
//! work is `controls::kernel_text`; this file builds the panel's model and draws it.

use super::lanes::Lane;
use super::panel_model::{ShaderView, UiModel, UiState};
use crate::algorithms::kernel_view::Dispatch;
use crate::controls::kernel_text::{self, Annotated};
use crate::lens::LensLine;
use crate::lens::invocation::handled;
use egui_extras::syntax_highlighting::{CodeTheme, highlight};

/// The panel's text size: the status block's step counter's (`ui::status`), large enough to read
/// on a projector.
const TEXT_SIZE: f32 = 15.0;

/// Behind a line that compares and swaps, or scatters.
const MARKED_FILL: egui::Color32 = egui::Color32::from_rgba_premultiplied(60, 48, 12, 60);

/// Behind the entry point's line.
const ENTRY_FILL: egui::Color32 = egui::Color32::from_rgba_premultiplied(20, 40, 70, 70);

/// The kernels of the chosen lane's last step (before any step, of its first), while the panel
/// is open, and where the lens's pixel (`lens`: the pixel and the picture's size) lies on the
/// lane's line.
pub(super) fn view(
    lanes: &[Lane],
    state: &UiState,
    lens: Option<((u32, u32), (u32, u32))>,
) -> Option<ShaderView> {
    if !state.shader_open {
        return None;
    }
    let lane = state.shader_lane.min(lanes.len().checked_sub(1)?);
    let run = &lanes[lane].run;
    let steps_done = run.steps_done();
    let position = lens.map(|(point, size)| LensLine::place(&lanes[lane].lines, size, point).1 as usize);
    let moves = lanes[lane].algorithm.moves_name();
    let cost = run
        .stats()
        .last_step_work
        .filter(|_| steps_done > 0)
        .map(|work| crate::controls::work_text::describe(&work, moves));
    Some(ShaderView {
        lane,
        steps_done,
        kernels: run.kernels_of_step(steps_done.saturating_sub(1)),
        position,
        cost,
    })
}

/// Who handled the lens's pixel in the step shown, in a sentence, once the lens has read the
/// lane's line at that step.
fn handled_line(model: &UiModel<'_>, view: &ShaderView) -> String {
    let reading = model.lens.and_then(|readings| readings.get(view.lane)).and_then(|r| r.as_ref());
    match (view.position, reading) {
        (None, _) => "Click a pixel of the picture: the lens then shows who handled it here.".into(),
        (Some(pos), Some(Ok(reading))) if reading.steps_done == view.steps_done => {
            match handled(&view.kernels, reading, pos) {
                Some(handled) => handled.sentence(reading, pos),
                None => format!("Pixel {pos} of {}: no step has run yet.", reading.line.name),
            }
        }
        _ => "Reading the lens's line…".into(),
    }
}

/// Shows the panel while it is open, right of a side panel `left` points wide; its close button
/// closes it.
pub(super) fn window(ctx: &egui::Context, model: &UiModel<'_>, state: &mut UiState, left: f32) {
    if !state.shader_open {
        return;
    }
    let mut open = true;
    egui::Window::new("Shader")
        .open(&mut open)
        .resizable(true)
        .constrain(true)
        .default_size([640.0, 520.0])
        // Right of the side panel, over the pictures rather than the controls.
        .default_pos([left + 16.0, 16.0])
        .show(ctx, |ui| contents(ui, model, state));
    if !open {
        state.shader_open = false;
        state.shader_scrolled = None;
        state.status.say("shader panel closed");
    }
}

/// `text` at the panel's size.
fn big(text: impl Into<String>) -> egui::RichText {
    egui::RichText::new(text).size(TEXT_SIZE)
}

/// The lane and kernel choices, the header, then the text.
fn contents(ui: &mut egui::Ui, model: &UiModel<'_>, state: &mut UiState) {
    let Some(view) = &model.shader else { return };
    if model.lanes.len() > 1 {
        ui.horizontal_wrapped(|ui| {
            ui.label(big("Lane"));
            for (index, lane) in model.lanes.iter().enumerate() {
                if ui.selectable_label(index == view.lane, big(&lane.short_label)).clicked() {
                    state.shader_lane = index;
                    ui.ctx().request_repaint();
                }
            }
        });
    }
    let noun = &model.step_noun;
    let when = match view.steps_done {
        0 => format!("{noun} 1 will dispatch"),
        done => format!("{noun} {done} dispatched"),
    };
    let kernels = &view.kernels;
    if kernels.is_empty() {
        ui.label(big(match view.steps_done {
            0 => "Step once to see the kernel it dispatches".to_string(),
            done => format!("This run cannot name the kernels {noun} {done} dispatched"),
        }));
        return;
    }
    // The kernel chosen by its entry point where this step ran it, else the last one: the one
    // that moves pixels.
    let shown = state.shader_entry.and_then(|e| kernels.iter().position(|k| k.entry == e));
    let shown = shown.unwrap_or(kernels.len() - 1);
    ui.horizontal_wrapped(|ui| {
        if kernels.len() == 1 {
            ui.label(big(format!("{when}:")));
            return;
        }
        ui.label(big(format!("{when} {} kernels:", kernels.len())));
        for (index, kernel) in kernels.iter().enumerate() {
            if ui.selectable_label(index == shown, big(kernel.entry)).clicked() {
                state.shader_entry = Some(kernel.entry);
                ui.ctx().request_repaint();
            }
        }
    });
    let dispatch = &kernels[shown];
    let annotated = kernel_text::annotate(dispatch);
    ui.add(egui::Label::new(big(&annotated.header).strong()).wrap());
    if let Some(cost) = &view.cost {
        ui.add(egui::Label::new(big(format!("The step cost {cost}."))).wrap());
    }
    ui.add(egui::Label::new(big(handled_line(model, view))).wrap());
    ui.separator();
    text(ui, dispatch, &annotated, state);
}

/// The program's text, a row a line: only the rows in view are laid out. Scrolls to the entry
/// each time the kernel shown changes, until the scroll area has got there (its content may
/// still be the last kernel's the first frame, and clamp the offset to that).
fn text(ui: &mut egui::Ui, dispatch: &Dispatch, annotated: &Annotated, state: &mut UiState) {
    let font = egui::FontId::monospace(TEXT_SIZE);
    let (row_height, char_width) = ui.ctx().fonts_mut(|f| (f.row_height(&font), f.glyph_width(&font, '0')));
    let dark = ui.visuals().dark_mode;
    let look = Look {
        theme: if dark { CodeTheme::dark(TEXT_SIZE) } else { CodeTheme::light(TEXT_SIZE) },
        note: if dark { egui::Color32::from_rgb(120, 230, 120) } else { egui::Color32::from_rgb(0, 120, 0) },
        faint: ui.visuals().weak_text_color(),
        // Room for four digits and a space.
        gutter: 5.0 * char_width,
        char_width,
        font,
    };
    let lines: Vec<&str> = dispatch.source.lines().collect();
    // Room for the longest line with a note beside it.
    let longest = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let size = egui::vec2(look.gutter + (longest + 32) as f32 * char_width, row_height);

    let mut area = egui::ScrollArea::both().auto_shrink(false);
    let kernel = (dispatch.program, dispatch.entry);
    // A few lines above the entry stay in view: its attribute and what it says about itself.
    let target = annotated.entry_line.saturating_sub(3) as f32 * row_height;
    let scrolling = state.shader_scrolled != Some(kernel);
    if scrolling {
        area = area.vertical_scroll_offset(target);
    }
    ui.spacing_mut().item_spacing.y = 0.0;
    let output = area.show_rows(ui, row_height, lines.len(), |ui, rows| {
        for index in rows {
            let (rect, _) = ui.allocate_exact_size(size, egui::Sense::hover());
            row(ui, rect, (index, lines[index]), annotated, &look);
        }
    });
    let reachable = (output.content_size.y - output.inner_rect.height()).max(0.0);
    if scrolling && (output.state.clamped_offset().y - target.min(reachable)).abs() < 1.0 {
        state.shader_scrolled = Some(kernel);
    } else if scrolling {
        ui.ctx().request_repaint();
    }
}

/// How the text is drawn.
struct Look {
    theme: CodeTheme,
    font: egui::FontId,
    /// The notes' colour.
    note: egui::Color32,
    /// The line numbers' and file names' colour.
    faint: egui::Color32,
    gutter: f32,
    char_width: f32,
}

/// One line in `rect`: its tint, its number in its file, the code, and its note (or, on a file's
/// first line, the file's name).
fn row(ui: &egui::Ui, rect: egui::Rect, (index, line): (usize, &str), annotated: &Annotated, look: &Look) {
    let painter = ui.painter();
    if annotated.marked.contains(&index) {
        painter.rect_filled(rect, 0.0, MARKED_FILL);
    } else if index == annotated.entry_line {
        painter.rect_filled(rect, 0.0, ENTRY_FILL);
    }
    let at = |x: f32| egui::pos2(rect.left() + x, rect.center().y);
    let place = annotated.file_line(index);
    if let Some((_, number)) = place {
        let right = at(look.gutter - look.char_width);
        painter.text(right, egui::Align2::RIGHT_CENTER, number.to_string(), look.font.clone(), look.faint);
    }
    let galley = painter.layout_job(highlight(ui.ctx(), ui.style(), &look.theme, line, "rs"));
    let end = look.gutter + galley.size().x + 2.0 * look.char_width;
    painter.galley(egui::pos2(rect.left() + look.gutter, rect.top()), galley, look.faint);
    let note = annotated.notes.iter().find(|(l, _)| *l == index).map(|(_, n)| (n.clone(), look.note));
    let file = place.filter(|&(_, number)| number == 1).map(|(name, _)| (format!("— {name}"), look.faint));
    if let Some((text, colour)) = note.or(file) {
        painter.text(at(end), egui::Align2::LEFT_CENTER, text, look.font.clone(), colour);
    }
}
