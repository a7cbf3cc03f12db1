//! Starting a sort from a picture already on the GPU (a clip's frame converted from 4:2:0
//! there), with the intervals found there too where they can be: nothing of the frame crosses from
//! the CPU.

use super::Sorter;
use crate::algorithms::found_intervals::{FoundIntervals, IntervalRule};
use crate::algorithms::gpu_mask::GpuMask;
use crate::algorithms::map_source::MapSource;
use crate::algorithms::ping_pong::StartPicture;
use crate::algorithms::request::StartRequest;
use crate::algorithms::{Pipelines, RunSettings, SortRun};
use crate::angle::Lines;
use crate::intervals::{IntervalSettings, Mask};
use crate::keys::options::{Axis, Scope};

impl Sorter<'_> {
    /// Where the GPU can find the intervals of a picture itself: any algorithm sorting along the
    /// picture's rows or columns, or along lines at an angle (in line space), within intervals of
    /// any mode, with or without a mask (uploaded the first time, then kept: one mask per
    /// clip), and along whole lines at an angle (the padding fixed); for the radix view only
    /// sorting to the end, along lines, with the key and a line's interval ids fitting 32 bits. The
    /// intervals, or `None` (the CPU's map then, or whole lines when no intervals are asked for).
    pub(crate) fn gpu_intervals(
        &self,
        intervals: &IntervalSettings,
        mask: Option<&Mask>,
        (width, height): (u32, u32),
    ) -> Option<FoundIntervals<'_>> {
        let s = self.settings;
        let rule = IntervalRule::of(intervals);
        // The picture the algorithm sorts (line space at an angle) and whether whole lines
        // need intervals found (padding to fix).
        let (axis, sorted_size, padded) = match &self.lines {
            Lines::Axis(axis) => (*axis, (width, height), false),
            Lines::Laid(space) => {
                if space.picture_size() != (width, height) {
                    return None;
                }
                (Axis::Rows, space.size(), space.has_padding())
            }
        };
        let line_len = self.lines.line_len((width, height));
        let eligible = (rule != IntervalRule::Whole || mask.is_some() || padded)
            && mask.is_none_or(|m| m.dimensions() == (width, height))
            && self.lines.check(self.algorithm, s.options, &self.run, None).is_ok();
        let intervals = FoundIntervals::new(rule, axis);
        let fits = intervals.fits(line_len)
            && match self.engine.pipelines(self.algorithm) {
                Pipelines::Radix(_) => {
                    let radix = self.run.radix;
                    let options = self.lines.sort_options(s.options);
                    let (w, h) = sorted_size;
                    s.steps.is_none()
                        && radix.scope == Scope::Rows
                        && radix.key(options).0.with_interval_bits(intervals.interval_bits(w, h)).is_ok()
                }
                _ => true,
            };
        if !(eligible && fits) {
            return None;
        }
        let mask = mask.map(|m| self.gpu_mask.get_or_init(|| GpuMask::new(self.gpu, m)));
        Some(FoundIntervals { mask, ..intervals })
    }

    /// Whether a picture sorted along whole lines can start from a texture already on the GPU:
    /// no intervals are asked for, along rows, columns or lines at an angle (gathered on the GPU).
    pub(crate) fn whole_lines_from_texture(&self) -> bool {
        let s = self.settings;
        !s.uses_intervals() && self.lines.check(self.algorithm, s.options, &self.run, None).is_ok()
    }

    /// Starts sorting `picture` within the intervals the GPU finds from it (`intervals`, where
    /// [`Sorter::gpu_intervals`] said so), or along whole lines (where
    /// [`Sorter::whole_lines_from_texture`] said so), with its notice.
    pub(crate) fn start_on_gpu(
        &self,
        picture: StartPicture<'_>,
        settings: RunSettings,
        intervals: Option<FoundIntervals<'_>>,
    ) -> (Box<dyn SortRun>, Option<String>) {
        let source = match intervals {
            Some(intervals) => MapSource::Gpu(self.engine.found_intervals(), intervals),
            None => MapSource::Cpu(None),
        };
        let request = StartRequest::of(picture, self.settings.options).settings(settings).intervals(source);
        let run = self
            .engine
            .start_exactly(&self.lines, self.algorithm, request)
            .expect("gpu_intervals and whole_lines_from_texture checked that the run can start");
        let notice = run.notice().map(str::to_string);
        (run, notice)
    }
}
