//! A clip's frame made ready to sort, on a worker thread: converted to RGBA (on the GPU where no
//! intervals are needed from the CPU), its intervals found, its run started on the GPU (the upload
//! and what the algorithm prepares on the CPU), and the frame's memory handed back for later
//! frames.

use super::source::DecodedFrame;
use super::stages::{Stage, StageClock};
use crate::algorithms::ping_pong::StartPicture;
use crate::algorithms::{RunSettings, SortRun};
use crate::engine::yuv420::Yuv420Reader;
use crate::intervals::threshold::ThresholdSweep;
use crate::intervals::{IntervalMap, IntervalSettings, Mask};
use crate::media::Sorter;
use crate::settings::Settings;
use image::RgbaImage;
use std::sync::{Mutex, mpsc};

/// A frame's run, started, and its notice.
pub(crate) type Started = (Box<dyn SortRun>, Option<String>);

/// What every worker prepares frames with.
pub(crate) struct FramePreparer<'a> {
    /// The device, the algorithm and the lines.
    pub(crate) sorter: &'a Sorter<'a>,
    /// The command line's settings.
    pub(crate) settings: &'a Settings,
    /// The run settings each frame is started with.
    pub(crate) run_settings: RunSettings,
    /// The threshold moving over the clip, if any.
    pub(crate) sweep: Option<ThresholdSweep>,
    /// The mask intervals are found under, if any.
    pub(crate) mask: Option<&'a Mask>,
    /// The GPU's conversion from 4:2:0, for a clip that comes as 4:2:0.
    pub(crate) reader: Option<&'a Yuv420Reader>,
    /// Where each stage's time is added.
    pub(crate) stages: &'a StageClock,
    /// The memory of frames converted to RGBA on the CPU, used again once each is on the GPU.
    pub(crate) converted: Mutex<Vec<Vec<u8>>>,
}

impl FramePreparer<'_> {
    /// Prepares frame `index`; the bytes it came in go back through `spares` to the decoder (which
    /// may have finished: then they are dropped).
    pub(crate) fn prepare(
        &self,
        index: usize,
        frame: DecodedFrame,
        spares: &mpsc::Sender<Vec<u8>>,
    ) -> anyhow::Result<Started> {
        let sorter = self.sorter;
        let intervals = frame_intervals(self.settings, self.sweep, index);
        let gpu_intervals = sorter.gpu_intervals(&intervals, self.mask, frame.dimensions());
        let whole_lines = self.sweep.is_none() && sorter.whole_lines_from_texture();
        if let Some(reader) = self.reader
            && (gpu_intervals.is_some() || whole_lines)
            && let DecodedFrame::Yuv420 { planes, size, matrix } = &frame
            && Yuv420Reader::fits(sorter.gpu, *size)
        {
            let picture =
                self.stages.time(Stage::Upload, || reader.picture(sorter.gpu, planes, *size, *matrix));
            let started = self
                .stages
                .time(Stage::Start, || sorter.start_on_gpu(picture, self.run_settings, gpu_intervals));
            let _ = spares.send(frame.into_bytes());
            return Ok(started);
        }
        let buffer = self.converted.lock().unwrap_or_else(|p| p.into_inner()).pop().unwrap_or_default();
        let (frame, planes) = self.stages.time(Stage::ToRgba, || frame.into_rgba(buffer));
        let started = match gpu_intervals {
            // The GPU finds the intervals from the frame it sorts.
            Some(found) => self.stages.time(Stage::Start, || {
                sorter.start_on_gpu(StartPicture::Image(&frame), self.run_settings, Some(found))
            }),
            None => {
                let interval_map =
                    self.stages.time(Stage::Intervals, || self.intervals(&intervals, &frame))?;
                self.stages
                    .time(Stage::Start, || sorter.start(&frame, self.run_settings, interval_map.as_ref()))
            }
        };
        match planes {
            Some(planes) => {
                let _ = spares.send(planes);
                self.converted.lock().unwrap_or_else(|p| p.into_inner()).push(frame.into_raw());
            }
            None => {
                let _ = spares.send(frame.into_raw());
            }
        }
        Ok(started)
    }

    /// The intervals a frame is sorted within, found on the CPU: under `intervals`, the frame's own
    /// (with a sweep, its threshold for the frame), or the settings'.
    fn intervals(
        &self,
        intervals: &IntervalSettings,
        frame: &RgbaImage,
    ) -> anyhow::Result<Option<IntervalMap>> {
        Ok(match self.sweep {
            Some(_) => self.sorter.lines.intervals(frame, intervals, self.mask)?,
            None => {
                debug_assert_eq!(intervals, &self.settings.intervals);
                self.sorter.interval_map(frame, self.mask)?
            }
        })
    }
}

/// The interval settings of frame `index`: the sweep's threshold for it, or the settings'.
fn frame_intervals(settings: &Settings, sweep: Option<ThresholdSweep>, index: usize) -> IntervalSettings {
    match sweep {
        Some(sweep) => IntervalSettings {
            mode: crate::intervals::IntervalMode::Threshold,
            threshold: sweep.threshold(index as u32),
            ..settings.intervals
        },
        None => settings.intervals,
    }
}
