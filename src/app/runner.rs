//! The window under egui's runner (eframe): our device opened through it, and the frame's
//! hooks (keys taken before egui sees them, the frame itself, the window's close).

use super::{Running, SIGNAL_POLL};
use crate::gpu::context::{Gpu, choose_adapter};
use std::sync::Arc;

/// How the runner opens the GPU: on the backends `WGPU_BACKEND` names, the adapter chosen as
/// headless runs choose it (among those that can present to the window), the device opened
/// with the limits and features every run uses.
pub(super) fn wgpu_setup() -> egui_wgpu::WgpuSetupCreateNew {
    let mut setup = egui_wgpu::WgpuSetupCreateNew::without_display_handle();
    setup.instance_descriptor.backends = wgpu::Backends::from_env().unwrap_or_default();
    setup.native_adapter_selector = Some(Arc::new(|adapters, surface| {
        let usable =
            adapters.iter().filter(|a| surface.is_none_or(|s| a.is_surface_supported(s))).cloned().collect();
        choose_adapter(usable).map_err(|e| e.to_string())
    }));
    setup.device_descriptor = Arc::new(Gpu::device_descriptor);
    setup
}

/// The runner's failure in one line: no display says how to sort without one.
#[cfg(not(target_arch = "wasm32"))]
pub(super) fn explain(e: eframe::Error) -> anyhow::Error {
    if let eframe::Error::WinitEventLoop(e) = &e {
        let no_display =
            ["DISPLAY", "WAYLAND_DISPLAY", "WAYLAND_SOCKET"].iter().all(|v| std::env::var_os(v).is_none());
        let why = if no_display {
            "no display: DISPLAY and WAYLAND_DISPLAY are not set".to_string()
        } else {
            e.to_string()
        };
        return anyhow::anyhow!(
            "cannot open a window ({why}); run in a desktop session, or sort headless with --out or --record"
        );
    }
    anyhow::anyhow!("the window failed: {e}")
}

impl eframe::App for Running {
    fn raw_input_hook(&mut self, ctx: &egui::Context, raw: &mut egui::RawInput) {
        self.shortcut_actions = self.keyboard_actions(raw);
        for file in &raw.dropped_files {
            self.dialogs.dropped(file.clone(), ctx);
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        #[cfg(not(target_arch = "wasm32"))]
        {
            self.window_fit.follow(&ctx);
            // SIGINT, SIGTERM or SIGHUP: close as if asked to, leaving no recording half-written.
            if crate::interrupt::check().is_err() {
                self.clock.quit = true;
            }
        }
        // A clip opened from the dialog or a drop plays once it is open.
        self.check_opening();
        self.frame(ui, frame.info().cpu_usage.map(|seconds| seconds * 1e3));
        if self.clock.quit {
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        } else if self.wants_frames() {
            ctx.request_repaint();
        } else {
            // Idle, but awake a few times a second to notice a signal.
            ctx.request_repaint_after(SIGNAL_POLL);
        }
    }

    fn on_exit(&mut self) {
        self.report_and_stop();
    }

    /// egui's panel colour, so the panels need not fill themselves (`ui::draw`).
    fn clear_color(&self, visuals: &egui::Visuals) -> [f32; 4] {
        visuals.panel_fill.to_normalized_gamma_f32()
    }
}
