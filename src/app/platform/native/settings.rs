//! The window's settings as the command line's: what G's clip and Shift+G's folder are sorted
//! with in the background, by the same code as `shadersort CLIP --out` and `shadersort FOLDER
//! --out DIR/`.

use crate::app::Running;
use crate::settings::{Settings, VideoSettings};
use std::path::PathBuf;

/// The command line's settings for sorting into `out` with the window's choices (its algorithm,
/// key, order, lines, intervals and recording options), to the end; no input, mask or batch
/// yet (the caller sets what it sorts).
pub(super) fn command_line(running: &Running, out: PathBuf, video: VideoSettings) -> Settings {
    let s = &running.session;
    Settings {
        image: None,
        batch: None,
        pattern: None,
        mask: None,
        algorithm: s.choice.algorithm,
        algorithm_given: true,
        options: s.options(),
        direction: s.lines.route().angle().unwrap_or_default(),
        path: match s.lines.route() {
            crate::angle::Route::Path(path) => Some(path),
            crate::angle::Route::Angle(_) => None,
        },
        run: s.choice.settings,
        phases_per_step_given: false,
        intervals: s.intervals,
        sweep: None,
        steps: None,
        record: running.record_settings.clone(),
        max_size: running.options_max_size,
        no_downscale: !running.limit.downscale,
        out: Some(out),
        png_compression: Default::default(),
        record_to: None,
        play: false,
        lens: None,
        speed: None,
        quit_after: None,
        clip: false,
        video,
    }
}
