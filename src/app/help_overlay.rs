//! The keys' help overlay (H): every command with its shortcuts and what it does.

use crate::controls::commands::CommandSpec;

/// Shows the overlay while `open`, its close button clearing it.
pub(super) fn help(ctx: &egui::Context, commands: &[CommandSpec], open: &mut bool) {
    let screen = ctx.content_rect();
    let window = egui::Window::new("Keys")
        .open(open)
        .collapsible(false)
        .resizable(false)
        .constrain(true)
        .max_height(screen.height() - 60.0)
        .default_height(screen.height() - 60.0)
        .max_width(screen.width() - 40.0)
        .vscroll(true);
    window.show(ctx, |ui| {
        egui::Grid::new("keys").striped(true).num_columns(3).show(ui, |ui| {
            for spec in commands {
                ui.label(egui::RichText::new(spec.shortcuts_label()).monospace());
                ui.label(&spec.name);
                ui.label(spec.help);
                ui.end_row();
            }
        });
        ui.label("Keys are ignored while a text field has focus. Drop a picture on the window to open it.");
    });
}
