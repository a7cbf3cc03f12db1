//! From flags to values: the resolved [`Settings`] a front end takes, and the pieces of it the
//! flags stand for (direction, sort options, run, interval and recording settings).

use super::Cli;
use crate::algorithms::radix::RadixSettings;
use crate::algorithms::{Algorithm, RunSettings};
use crate::angle::Angle;
use crate::intervals::threshold::ThresholdSweep;
use crate::intervals::{IntervalMode, IntervalSettings};
use crate::keys::options::SortOptions;
use crate::settings::RecordSettings;
use crate::settings::{EncodeChoice, LiveInput, Settings, VideoSettings};

/// The size of `--pattern`'s picture without `--pattern-size`: 16:9, small enough that odd-even's
/// 256 passes a row can be watched.
const DEFAULT_PATTERN_SIZE: (u32, u32) = (256, 144);

impl Cli {
    /// The settings the front ends take (after [`Cli::check`]).
    pub fn settings(&self) -> Settings {
        Settings {
            image: self.image().map(std::path::Path::to_path_buf),
            batch: self.batch_settings(),
            mask: self.mask.clone(),
            pattern: self.pattern.map(|p| (p, self.pattern_size.unwrap_or(DEFAULT_PATTERN_SIZE))),
            algorithm: self.algorithm(),
            algorithm_given: self.algorithm.is_some(),
            options: self.sort_options(),
            direction: self.direction(),
            path: self.path.map(|kind| crate::paths::PathChoice {
                kind,
                centre: self.center,
                rays: self.rays,
            }),
            run: self.run_settings(),
            phases_per_step_given: self.phases_per_step.is_some(),
            intervals: self.interval_settings(),
            sweep: self.threshold_sweep(),
            steps: self.steps,
            record: self.record_settings(),
            max_size: self.max_size,
            no_downscale: self.no_downscale,
            out: self.out.clone(),
            png_compression: self.png_compression.unwrap_or_default(),
            record_to: self.record.clone(),
            play: self.play,
            speed: self.speed,
            lens: self.lens,
            quit_after: self.quit_after.map(std::time::Duration::from_secs_f64),
            clip: self.image().is_some_and(crate::media::is_clip),
            video: self.video_settings(),
        }
    }

    /// How clips are read and written.
    pub fn video_settings(&self) -> VideoSettings {
        let defaults = VideoSettings::default();
        VideoSettings {
            ffmpeg: self.ffmpeg.clone(),
            encode: EncodeChoice { lossless: self.lossless, codec: self.codec.clone(), crf: self.crf },
            frame_rate: self.frame_rate.unwrap_or(defaults.frame_rate),
            live: self.live_input(),
            duration: self.duration.map(std::time::Duration::from_secs_f64),
        }
    }

    /// The live source of `--live` or `--camera`, if one is given.
    pub fn live_input(&self) -> Option<LiveInput> {
        match (&self.live, &self.camera) {
            (Some(url), _) => Some(LiveInput::Url(url.clone())),
            (None, Some(device)) => Some(LiveInput::Camera(device.clone())),
            (None, None) => None,
        }
    }

    /// The algorithm: `--algorithm`, else the one for a picture or for frames
    /// ([`Algorithm::default_for`]).
    pub fn algorithm(&self) -> Algorithm {
        let frames = self.image().is_some_and(crate::media::is_clip) || self.live_input().is_some();
        self.algorithm.unwrap_or(Algorithm::default_for(frames))
    }

    /// The direction to sort in: `--angle`, or the one of `--axis` (rows by default).
    pub fn direction(&self) -> Angle {
        self.angle.unwrap_or_else(|| Angle::of_axis(self.axis.unwrap_or_default()))
    }

    /// Key, order and axis as the algorithms take them (the axis of the direction, or rows
    /// for an angle, whose lines are sorted as rows of their line space).
    pub fn sort_options(&self) -> SortOptions {
        let axis = self.direction().axis().unwrap_or_default();
        SortOptions { key: self.key, descending: self.reverse, axis }
    }

    /// Pass kind and phases per step as the algorithms take them.
    pub fn run_settings(&self) -> RunSettings {
        let defaults = RunSettings::default();
        RunSettings {
            pass_kind: self.pass_kind,
            phases_per_step: self.phases_per_step.unwrap_or(defaults.phases_per_step),
            radix: RadixSettings {
                digit_bits: self.digit_bits,
                key_bits: self.key_bits,
                scope: self.scope,
                sub_steps: self.sub_steps,
                twin_indices: false,
                device_sorted_lines: false,
            },
        }
    }

    /// The interval settings the flags ask for (after [`Cli::check`]).
    pub fn interval_settings(&self) -> IntervalSettings {
        let defaults = IntervalSettings::default();
        IntervalSettings {
            mode: self.interval_mode().unwrap_or_default(),
            key: self.interval_key.unwrap_or(defaults.key),
            threshold: self.threshold.unwrap_or(defaults.threshold),
            edge_level: self.edge_level.unwrap_or(defaults.edge_level),
            seed: self.seed.unwrap_or(defaults.seed),
            interval_length: self.interval_length.unwrap_or(defaults.interval_length),
        }
    }

    /// Whether the sort runs within intervals: an interval mode other than none, or a mask.
    pub fn uses_intervals(&self) -> bool {
        self.mask.is_some() || self.interval_mode().is_ok_and(|m| m != IntervalMode::None)
    }

    /// The threshold sweep of `--sweep` and `--frames`, if asked for.
    pub fn threshold_sweep(&self) -> Option<ThresholdSweep> {
        let (from, to) = self.sweep?;
        Some(ThresholdSweep::new(from, to, self.frames.unwrap_or(ThresholdSweep::DEFAULT_FRAMES)))
    }

    /// The recording flags (and whether the run needs a palette with dimmed twins).
    pub fn record_settings(&self) -> RecordSettings {
        RecordSettings {
            every: self.every,
            max_frames: self.max_frames,
            steps: self.steps,
            fps: self.fps,
            scale: self.scale,
            hold_seconds: self.hold,
            background: self.background,
            dither: !self.no_dither,
            dimmed_twins: self.run_settings().for_recording(self.algorithm()).radix.twin_indices,
            sound: self.sound,
        }
    }
}
