//! Opening the GPU and building the algorithm's pipelines on a thread of their own while the
//! picture is read and decoded and its lines and intervals are found: for a still, each takes a
//! good part of the whole run.

use crate::algorithms::Algorithm;
use crate::angle::Lines;
use crate::engine::Engine;
use crate::gpu::{Gpu, GpuError};
use crate::intervals::{IntervalError, IntervalMap, Mask};
use crate::settings::Settings;
use image::RgbaImage;
use std::time::Instant;

/// The GPU being opened, and the engine on it with the algorithm's pipelines being built.
pub(super) struct Opening(std::thread::JoinHandle<Result<Engine, GpuError>>);

/// Milliseconds since `start`, for the debug log (`RUST_LOG=shadersort=debug`).
fn ms(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1e3
}

impl Opening {
    /// Starts opening the GPU and building `algorithm`'s pipelines (and with `intervals` the
    /// kernel that finds intervals on the GPU).
    pub(super) fn start(algorithm: Algorithm, intervals: bool) -> anyhow::Result<Opening> {
        let thread = std::thread::Builder::new().name("gpu-open".into()).spawn(move || {
            let start = Instant::now();
            let gpu = Gpu::headless()?;
            let opened = ms(start);
            let engine = Engine::new(std::sync::Arc::new(gpu));
            engine.pipelines(algorithm);
            if intervals {
                engine.found_intervals();
            }
            log::debug!("GPU opened in {opened:.1} ms, its pipelines built in {:.1} ms", ms(start) - opened);
            Ok(engine)
        });
        Ok(Opening(anyhow::Context::context(thread, "cannot start a thread to open the GPU")?))
    }

    /// The engine, once the GPU is open and the pipelines built. Waited for where the GPU was
    /// opened before, so a bad picture, mask or output path is still reported first.
    pub(super) fn wait(self) -> anyhow::Result<Engine> {
        let start = Instant::now();
        let opened = self.0.join().map_err(|_| anyhow::anyhow!("opening the GPU panicked"))??;
        log::debug!("waited {:.1} ms for the GPU after reading the picture", ms(start));
        Ok(opened)
    }
}

/// The lines through a picture and its intervals, found while the GPU opens: they depend only on
/// the picture, the mask and the settings, so they are used as found unless the GPU's limits
/// change the picture's size or refuse the lines.
pub(super) struct EarlyIntervals {
    size: (u32, u32),
    lines: Lines,
    intervals: Result<Option<IntervalMap>, IntervalError>,
}

impl EarlyIntervals {
    /// The lines and intervals of `picture` under the settings (none for a sweep, which finds its
    /// intervals frame by frame).
    pub(super) fn find(settings: &Settings, picture: &RgbaImage, mask: Option<&Mask>) -> Option<Self> {
        if settings.sweep.is_some() {
            return None;
        }
        let start = Instant::now();
        let size = picture.dimensions();
        let lines = Lines::of(settings.route(), size, u32::MAX).ok()?;
        let intervals = if settings.uses_intervals() {
            lines.intervals(picture, &settings.intervals, mask)
        } else {
            Ok(None)
        };
        log::debug!("lines and intervals found in {:.1} ms while the GPU opens", ms(start));
        Some(EarlyIntervals { size, lines, intervals })
    }

    /// The lines and intervals, if they were found for a picture of `size` and the lines fit a
    /// device whose largest texture side is `max_side` (else `Lines::along` lays them out for it,
    /// or says why not: a path's one long sequence wraps there).
    pub(super) fn take(
        self,
        size: (u32, u32),
        max_side: u32,
    ) -> Option<(Lines, Result<Option<IntervalMap>, IntervalError>)> {
        let fits = match &self.lines {
            Lines::Axis(_) => true,
            Lines::Laid(space) => space.size().0 <= max_side && space.size().1 <= max_side,
        };
        (self.size == size && fits).then_some((self.lines, self.intervals))
    }
}
