//! What the command line's sorts (a still's `--out` and `--record`, every frame of a clip or a
//! live source) start with: the engine, the settings and the lines through the picture, with
//! the intervals the settings ask for, checked before any GPU work.

use crate::algorithms::request::StartRequest;
use crate::algorithms::{Algorithm, RunSettings, SortRun};
use crate::angle::Lines;
use crate::engine::Engine;
use crate::gpu::Gpu;
use crate::intervals::{IntervalMap, Mask};
use crate::settings::Settings;
use image::RgbaImage;

/// What every sort of the command line starts with: the engine, the settings and the lines
/// through the picture (or through every frame of a clip).
pub struct Sorter<'a> {
    pub(crate) engine: &'a Engine,
    pub(crate) gpu: &'a Gpu,
    pub(crate) settings: &'a Settings,
    pub(crate) lines: Lines,
    /// The algorithm runs start with: the one asked for, or for frames sorted to their end the
    /// one that makes that end fastest ([`crate::engine::plan::fastest_end`]).
    pub(crate) algorithm: Algorithm,
    /// The settings runs start with.
    pub(crate) run: RunSettings,
    /// The clip's mask on the GPU, uploaded when a frame first needs it.
    pub(super) gpu_mask: std::sync::OnceLock<crate::algorithms::gpu_mask::GpuMask>,
}

impl<'a> Sorter<'a> {
    /// Sorts with the settings on `engine`, along `lines`.
    pub fn new(engine: &'a Engine, settings: &'a Settings, lines: Lines) -> Self {
        let (algorithm, run) = (settings.algorithm, settings.run);
        Sorter { engine, gpu: engine.gpu(), settings, lines, algorithm, run, gpu_mask: Default::default() }
    }

    /// Sorts the frames of a clip or a live source of `size` with the settings: to their end
    /// nobody watching the steps, by the fastest way there (with the note saying so where that is
    /// another algorithm than the one asked for), or `--steps` steps of the algorithm.
    pub fn for_frames(
        engine: &'a Engine,
        settings: &'a Settings,
        lines: Lines,
        size: (u32, u32),
    ) -> (Self, Option<String>) {
        let mut sorter = Sorter::new(engine, settings, lines);
        if settings.steps.is_some() {
            return (sorter, None);
        }
        let asked = (settings.algorithm, settings.unwatched_run());
        let (algorithm, run, note) = crate::engine::plan::fastest_end(
            &sorter.lines,
            asked,
            settings.options,
            size,
            settings.uses_intervals(),
        );
        (sorter.algorithm, sorter.run) = (algorithm, run);
        (sorter, note.filter(|_| settings.algorithm_given))
    }

    /// The intervals the settings ask for, computed from the picture to be sorted along its
    /// lines, or `None` for whole lines; an error when the algorithm cannot sort within them.
    pub fn interval_map(
        &self,
        picture: &RgbaImage,
        mask: Option<&Mask>,
    ) -> anyhow::Result<Option<IntervalMap>> {
        let s = self.settings;
        let intervals =
            if s.uses_intervals() { self.lines.intervals(picture, &s.intervals, mask)? } else { None };
        self.checked(intervals)
    }

    /// `intervals`, once checked that the algorithm can sort within them along the lines.
    pub fn checked(&self, intervals: Option<IntervalMap>) -> anyhow::Result<Option<IntervalMap>> {
        let s = self.settings;
        self.lines.check(self.algorithm, s.options, &self.run, intervals.as_ref())?;
        Ok(intervals)
    }

    /// Starts the chosen algorithm on `picture` along the lines within `intervals` (checked by
    /// [`Sorter::interval_map`]), with its notice (a caller prints it once: a clip's frames
    /// would give it once a frame).
    pub fn start(
        &self,
        picture: &RgbaImage,
        settings: crate::algorithms::RunSettings,
        intervals: Option<&IntervalMap>,
    ) -> (Box<dyn SortRun>, Option<String>) {
        let s = self.settings;
        let request = StartRequest::new(picture, s.options).settings(settings).within(intervals);
        // interval_map checked that the algorithm can sort along the lines within the
        // intervals, so the engine follows them as asked and has no notice of its own.
        let started = self.engine.start(&self.lines, self.algorithm, request);
        let notice = started.notice.or_else(|| started.run.notice().map(str::to_string));
        (started.run, notice)
    }
}
