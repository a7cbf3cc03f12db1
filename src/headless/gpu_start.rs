//! Starting a sort from a picture already on the GPU (a clip's frame converted from 4:2:0
//! there), with the runs found there too where they can be: nothing of the frame crosses from
//! the CPU.

use super::Sorter;
use crate::algorithms::map_source::MapSource;
use crate::algorithms::ping_pong::StartPicture;
use crate::algorithms::threshold_runs::{ThresholdRuns, ThresholdRunsKernel};
use crate::algorithms::{Pipelines, RunSettings, SortRun};
use crate::angle::Lines;
use crate::intervals::{IntervalMode, IntervalSettings, Mask};
use crate::keys::options::Scope;

impl Sorter<'_> {
    /// Where the GPU can find the runs of a picture itself: any algorithm sorting along the
    /// picture's rows or columns within `intervals` in threshold mode without a mask; for the
    /// radix view only sorting to the end, along lines, with the key and a line's run ids
    /// fitting 32 bits. The threshold runs, or `None` (the CPU's map then).
    pub(crate) fn gpu_threshold(
        &self,
        intervals: &IntervalSettings,
        mask: Option<&Mask>,
        (width, height): (u32, u32),
    ) -> Option<ThresholdRuns> {
        let s = self.settings;
        let Lines::Axis(axis) = self.lines else { return None };
        let runs = ThresholdRuns { key: intervals.key, threshold: intervals.threshold, axis };
        let eligible = intervals.mode == IntervalMode::Threshold
            && mask.is_none()
            && self.lines.check(s.algorithm, s.options, &s.run, None).is_ok();
        let fits = match self.pipelines {
            Pipelines::Radix(_) => {
                let radix = s.run.radix;
                let options = self.lines.sort_options(s.options);
                s.passes.is_none()
                    && radix.scope == Scope::Rows
                    && radix.key(options).0.with_run_bits(runs.run_bits(width, height)).is_ok()
            }
            _ => true,
        };
        (eligible && fits).then_some(runs)
    }

    /// Whether a picture sorted along whole lines can start from a texture already on the GPU:
    /// the lines are rows or columns and no runs are asked for.
    pub(crate) fn whole_lines_from_texture(&self) -> bool {
        let s = self.settings;
        matches!(self.lines, Lines::Axis(_))
            && !s.uses_intervals()
            && self.lines.check(s.algorithm, s.options, &s.run, None).is_ok()
    }

    /// Starts sorting `picture` along rows or columns, within the threshold runs the GPU finds
    /// from it (`runs`, where [`Sorter::gpu_threshold`] said so) or along whole lines (where
    /// [`Sorter::whole_lines_from_texture`] said so), with its notice.
    pub(crate) fn start_on_gpu(
        &self,
        picture: StartPicture<'_>,
        settings: RunSettings,
        runs: Option<ThresholdRuns>,
    ) -> (Box<dyn SortRun>, Option<String>) {
        let source = match runs {
            Some(runs) => {
                MapSource::Gpu(self.threshold_runs.get_or_init(|| ThresholdRunsKernel::new(self.gpu)), runs)
            }
            None => MapSource::Cpu(None),
        };
        let options = self.lines.sort_options(self.settings.options);
        let run = self
            .pipelines
            .start_from(self.gpu, picture, options, settings, source)
            .expect("gpu_threshold checked that the radix view's key and run ids fit");
        let notice = run.notice().map(str::to_string);
        (run, notice)
    }
}
