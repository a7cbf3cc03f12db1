//! What a run is asked to sort: the picture, the key, order and axis, the algorithm's settings
//! and the intervals; every way of starting a run takes one. Each algorithm's file adds a way to
//! set its own settings (`pass_kind`, `phases_per_step`, `radix`).

use super::RunSettings;
use super::found_intervals::{FoundIntervals, IntervalsKernel};
use super::interval_texture::{IntervalMapError, check_map};
use super::map_source::MapSource;
use super::ping_pong::StartPicture;
use crate::intervals::IntervalMap;
use crate::keys::options::SortOptions;
use image::RgbaImage;

/// A run to start.
#[derive(Clone)]
pub struct StartRequest<'a> {
    /// The picture, on the CPU or already on the GPU.
    pub picture: StartPicture<'a>,
    /// Key, order and axis.
    pub options: SortOptions,
    /// What each algorithm takes besides (pass kind, phases per step, radix settings).
    pub settings: RunSettings,
    /// Where the intervals come from: every line whole unless asked otherwise.
    pub intervals: MapSource<'a>,
}

impl<'a> StartRequest<'a> {
    /// `picture` sorted by `options` along whole lines, with the default settings.
    pub fn new(picture: &'a RgbaImage, options: SortOptions) -> Self {
        StartRequest::of(StartPicture::Image(picture), options)
    }

    /// [`StartRequest::new`] of a picture on the CPU or a texture already on the GPU.
    pub fn of(picture: StartPicture<'a>, options: SortOptions) -> Self {
        StartRequest { picture, options, settings: RunSettings::default(), intervals: MapSource::Cpu(None) }
    }

    /// The same request with `settings`.
    pub fn settings(self, settings: RunSettings) -> Self {
        StartRequest { settings, ..self }
    }

    /// The same request within the CPU's map `intervals` (every line whole with `None`).
    pub fn within(self, intervals: Option<&'a IntervalMap>) -> Self {
        StartRequest { intervals: MapSource::Cpu(intervals), ..self }
    }

    /// The same request within intervals that `kernel` finds on the GPU from the picture.
    pub fn found(self, kernel: &'a IntervalsKernel, found: FoundIntervals<'a>) -> Self {
        StartRequest { intervals: MapSource::Gpu(kernel, found), ..self }
    }

    /// The same request within the intervals of `source`.
    pub fn intervals(self, source: MapSource<'a>) -> Self {
        StartRequest { intervals: source, ..self }
    }
}

impl StartRequest<'_> {
    /// An error when the CPU's map is for another picture size or axis.
    pub fn check(&self) -> Result<(), IntervalMapError> {
        check_map(self.intervals.cpu_map(), self.picture.dimensions(), self.options.axis)
    }
}
