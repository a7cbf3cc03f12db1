//! How large the window opens: about 80% of the screen and at least 1280x800 where the screen
//! allows, or the size it had when it last closed; that size is kept in the user's config
//! folder (`$XDG_CONFIG_HOME/shadersort/window-size`, else `~/.config/shadersort/`).

use std::path::PathBuf;

/// The smallest window worth opening where the screen has room for it, in points.
pub const MIN_USEFUL: (f64, f64) = (1280.0, 800.0);

/// Share of the screen a new window takes.
const SCREEN_SHARE: f64 = 0.8;

/// Share of the screen a window never exceeds (room for the title bar and the desktop's own
/// panels).
const SCREEN_MOST: f64 = 0.95;

/// The window's size in points on a `screen` (points too; `None` when unknown), given the size
/// remembered from the last run.
pub fn initial_size(screen: Option<(f64, f64)>, remembered: Option<(f64, f64)>) -> (f64, f64) {
    let Some((sw, sh)) = screen else { return remembered.unwrap_or(MIN_USEFUL) };
    let fit = |want: f64, side: f64| want.min(side * SCREEN_MOST).max(1.0).round();
    if let Some((w, h)) = remembered {
        return (fit(w, sw), fit(h, sh));
    }
    (fit((sw * SCREEN_SHARE).max(MIN_USEFUL.0), sw), fit((sh * SCREEN_SHARE).max(MIN_USEFUL.1), sh))
}

/// Where the last size is kept, if the environment names a config folder.
fn file() -> Option<PathBuf> {
    let config = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".config")))?;
    Some(config.join("shadersort").join("window-size"))
}

/// The size the window had when it last closed, if one was kept and reads back sensibly.
pub fn remembered() -> Option<(f64, f64)> {
    parse(&std::fs::read_to_string(file()?).ok()?)
}

/// `"1280x800"` as points, refusing sizes no window has.
fn parse(text: &str) -> Option<(f64, f64)> {
    let (w, h) = text.trim().split_once('x')?;
    let (w, h) = (w.parse::<f64>().ok()?, h.parse::<f64>().ok()?);
    let sensible = |v: f64| v.is_finite() && (200.0..=20_000.0).contains(&v);
    (sensible(w) && sensible(h)).then_some((w, h))
}

/// Keeps the window's size for the next run (written beside and renamed, so a crash never
/// leaves half a file). A failure is only logged: the window works without it.
pub fn remember((w, h): (f64, f64)) {
    let Some(path) = file() else { return };
    let write = || -> std::io::Result<()> {
        let folder = path.parent().expect("the file is in a folder");
        std::fs::create_dir_all(folder)?;
        let temporary = folder.join(".window-size.tmp");
        std::fs::write(&temporary, format!("{}x{}\n", w.round(), h.round()))?;
        std::fs::rename(&temporary, &path)
    };
    if let Err(e) = write() {
        log::warn!("cannot keep the window size in {}: {e}", path.display());
    }
}

/// The window's size as it goes: kept for the next run, and fitted to its screen once the
/// screen is known.
#[derive(Default)]
pub(super) struct WindowFit {
    /// The window's size in points, kept for the next run when it closes.
    points: Option<(f64, f64)>,
    /// Whether the window has been fitted to its screen (known from the first frame on).
    fitted: bool,
}

impl WindowFit {
    /// Notes the window's size, and on the first frame that knows its screen, fits the window
    /// to it as [`initial_size`] says.
    pub(super) fn follow(&mut self, ctx: &egui::Context) {
        let (inner, monitor) = ctx.input(|i| (i.viewport().inner_rect, i.viewport().monitor_size));
        if let Some(inner) = inner {
            self.points = Some((f64::from(inner.width()), f64::from(inner.height())));
        }
        if self.fitted {
            return;
        }
        let Some(monitor) = monitor else { return };
        self.fitted = true;
        let want = initial_size(Some((f64::from(monitor.x), f64::from(monitor.y))), remembered());
        if self.points != Some(want) {
            ctx.send_viewport_cmd(egui::ViewportCommand::InnerSize(egui::vec2(want.0 as f32, want.1 as f32)));
        }
    }

    /// Keeps the window's last size for the next run (the window is closing).
    pub(super) fn remember(&self) {
        if let Some(points) = self.points {
            remember(points);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_window_takes_most_of_the_screen_and_at_least_the_useful_size() {
        // The screen: 80% of 1600x1000 is exactly the useful size.
        assert_eq!(initial_size(Some((1600.0, 1000.0)), None), (1280.0, 800.0));
        assert_eq!(initial_size(Some((2560.0, 1440.0)), None), (2048.0, 1152.0));
        // A small screen: as large as it allows, no more.
        assert_eq!(initial_size(Some((1024.0, 768.0)), None), (973.0, 730.0));
        assert_eq!(initial_size(None, None), MIN_USEFUL);
    }

    #[test]
    fn the_remembered_size_is_used_while_it_fits_the_screen() {
        assert_eq!(initial_size(Some((1920.0, 1080.0)), Some((900.0, 700.0))), (900.0, 700.0));
        assert_eq!(initial_size(Some((1024.0, 768.0)), Some((1800.0, 1000.0))), (973.0, 730.0));
        assert_eq!(initial_size(None, Some((900.0, 700.0))), (900.0, 700.0));
    }

    #[test]
    fn only_sensible_sizes_read_back() {
        assert_eq!(parse("1280x800\n"), Some((1280.0, 800.0)));
        assert_eq!(parse(" 973x730 "), Some((973.0, 730.0)));
        for bad in ["", "1280", "x800", "1280x", "axb", "0x0", "-5x700", "1e9x800", "NaNx800"] {
            assert_eq!(parse(bad), None, "{bad:?}");
        }
    }
}
