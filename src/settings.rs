//! What the user asked for, resolved from the command line into plain values: the front ends
//! (the window and the headless outputs) take these, never the parser's flags. The page starts
//! the same app from [`Settings::default`], the command line's defaults.

use crate::algorithms::{Algorithm, RunSettings};
use crate::angle::Angle;
use crate::intervals::threshold::ThresholdSweep;
use crate::intervals::{IntervalMode, IntervalSettings};
use crate::keys::options::SortOptions;
use crate::picture::input::{InputError, Picture};
use std::path::PathBuf;
use std::time::Duration;

/// Everything a front end needs to know, checked and with defaults filled in.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Settings {
    /// The picture file; `None` for the built-in photograph (or a batch's many).
    pub image: Option<PathBuf>,
    /// Many inputs sorted one by one into the folder `out` (`None`: one input).
    #[cfg(not(target_arch = "wasm32"))]
    pub batch: Option<BatchSettings>,
    /// A built-in input that teaches, and its size, instead of a picture (`--pattern`).
    pub pattern: Option<(crate::picture::teaching::Pattern, (u32, u32))>,
    /// A mask file: white pixels may be sorted, black ones stay.
    pub mask: Option<PathBuf>,
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Whether the algorithm was asked for (rather than the default): frames made by another
    /// then say so.
    pub algorithm_given: bool,
    /// Key, order, and the axis of the direction (rows for an angle, whose lines are sorted as
    /// rows of their line space).
    pub options: SortOptions,
    /// The direction lines run in.
    pub direction: Angle,
    /// The path lines follow instead (`--path`); `None`: straight lines in `direction`.
    pub path: Option<crate::paths::PathChoice>,
    /// Pass kind, phases per step and radix settings.
    pub run: RunSettings,
    /// Whether phases per step were asked for; otherwise a sort nobody watches step by step
    /// runs the bubble sort in one dispatch.
    pub phases_per_step_given: bool,
    /// How lines are cut into intervals.
    pub intervals: IntervalSettings,
    /// A threshold sweep to record, one fully sorted frame per threshold.
    pub sweep: Option<ThresholdSweep>,
    /// Stop after this many steps instead of sorting to the end.
    pub steps: Option<u32>,
    /// How recordings are made (`--record`, and the window's G).
    pub record: RecordSettings,
    /// Largest picture side, and whether larger pictures are refused instead of shrunk.
    pub max_size: Option<u32>,
    /// Refuse pictures over the size limit instead of downscaling them.
    pub no_downscale: bool,
    /// Write the sorted picture (or the state after `passes`) to this PNG, headless.
    pub out: Option<PathBuf>,
    /// How hard `out` is compressed.
    #[cfg(not(target_arch = "wasm32"))]
    pub png_compression: crate::picture::output::PngCompression,
    /// Record headless (GIF, animated PNG or PNG frames, as the path says): to this path, or
    /// (`Some(None)`) to the default GIF path.
    pub record_to: Option<Option<PathBuf>>,
    /// Window: start playing at once.
    pub play: bool,
    /// Window: the line to open the row lens on.
    pub lens: Option<u32>,
    /// Window: starting speed in passes per second.
    pub speed: Option<f64>,
    /// Window: close after this long and print frame statistics.
    pub quit_after: Option<Duration>,
    /// Whether `image` is a clip (a video, an animated GIF, frames): every frame is sorted.
    pub clip: bool,
    /// How clips are read and written.
    pub video: VideoSettings,
}

impl Settings {
    /// Whether a headless output was asked for (`--out` or `--record`) instead of the window.
    pub fn headless(&self) -> bool {
        self.out.is_some() || self.record_to.is_some()
    }

    /// The clip to sort frame by frame, if the input is one.
    pub fn clip(&self) -> Option<&std::path::Path> {
        self.image.as_deref().filter(|_| self.clip)
    }

    /// The picture to sort: the pattern asked for, the file, or the built-in photograph.
    pub fn picture(&self) -> Result<Picture, InputError> {
        match self.pattern {
            Some((pattern, size)) => Ok(Picture::of_pattern(pattern, size, &self.options)),
            None => Picture::load_or_built_in(self.image.as_deref()),
        }
    }

    /// Whether the sort runs within intervals: an interval mode other than none, or a mask.
    pub fn uses_intervals(&self) -> bool {
        self.mask.is_some() || self.intervals.mode != IntervalMode::None
    }

    /// What the lines follow: the path, else straight lines in the direction.
    pub fn route(&self) -> crate::angle::Route {
        self.path.map_or(crate::angle::Route::Angle(self.direction), crate::angle::Route::Path)
    }

    /// The settings a whole sort that nobody watches step by step runs with: the bubble sort in
    /// one dispatch unless phases per step were asked for, and the radix view's lines on the
    /// segmented sort where it takes them.
    pub fn unwatched_run(&self) -> RunSettings {
        let mut run = self.run;
        run.radix.device_sorted_lines = true;
        if !self.phases_per_step_given {
            run.phases_per_step = u32::MAX;
        }
        run
    }
}

/// Many inputs in one run (`--out DIR/` with several inputs, a folder or a pattern).
#[cfg(not(target_arch = "wasm32"))]
#[derive(Clone, Debug, PartialEq)]
pub struct BatchSettings {
    /// The inputs as given: files, folders, patterns the shell left.
    pub inputs: Vec<PathBuf>,
    /// Whether folders are descended into.
    pub recursive: bool,
    /// The format pictures are written in; `None`: each input's own where it is exact, else PNG.
    pub format: Option<crate::picture::still_format::StillFormat>,
    /// JPEG's quality.
    pub quality: u8,
    /// Whether outputs that exist are replaced (else kept, their inputs skipped).
    pub overwrite: bool,
}

/// How clips are read and written (`--ffmpeg`, `--lossless`, `--codec`, `--crf`, `--frame-rate`).
#[derive(Clone, Debug, PartialEq)]
pub struct VideoSettings {
    /// The ffmpeg to use (`--ffmpeg`).
    pub ffmpeg: Option<PathBuf>,
    /// Lossless, codec and quality.
    pub encode: EncodeChoice,
    /// The frame rate of a clip given as picture files.
    pub frame_rate: Rate,
    /// A live source to sort as it comes (`--live`, `--camera`), instead of a picture or clip.
    pub live: Option<LiveInput>,
    /// How long to record a live source (`--duration`); until Ctrl-C without it.
    pub duration: Option<Duration>,
}

/// A source that sends frames as they happen, read through ffmpeg.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LiveInput {
    /// Any stream or device ffmpeg reads (`udp://`, `rtsp://`, `srt://`, a device path).
    Url(String),
    /// The system camera through ffmpeg's live inputs: this device, or the default camera.
    Camera(Option<String>),
}

impl Default for VideoSettings {
    fn default() -> Self {
        VideoSettings {
            ffmpeg: None,
            encode: EncodeChoice::default(),
            frame_rate: Rate { num: 30, den: 1 },
            live: None,
            duration: None,
        }
    }
}

/// The user's encoding choices for a clip (`--lossless`, `--codec`, `--crf`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EncodeChoice {
    /// Every frame exactly (FFV1, PNG or APNG).
    pub lossless: bool,
    /// An ffmpeg encoder name instead of the container's usual one.
    pub codec: Option<String>,
    /// The encoder's constant rate factor instead of ours.
    pub crf: Option<u32>,
}

/// Frames per second as a fraction (`30000/1001` for NTSC's 29.97).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    /// Frames.
    pub num: u32,
    /// Per this many seconds.
    pub den: u32,
}

impl Rate {
    /// Frames per second.
    pub fn fps(self) -> f64 {
        f64::from(self.num) / f64::from(self.den)
    }

    /// Frames per second as a fraction of at most two decimals; the NTSC rates (29.97 and the
    /// like) become their exact `n*1000/1001`.
    pub fn from_fps(value: f64) -> Option<Rate> {
        if !(value.is_finite() && value > 0.0 && value < 1e6) {
            return None;
        }
        let ntsc = (value * 1.001).round();
        if value.fract() != 0.0 && (ntsc / 1.001 - value).abs() < 0.006 {
            return Some(Rate { num: ntsc as u32 * 1000, den: 1001 });
        }
        let hundredths = (value * 100.0).round() as u32;
        let divisor = gcd(hundredths, 100);
        Some(Rate { num: hundredths / divisor, den: 100 / divisor })
    }
}

impl std::fmt::Display for Rate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.den == 1 { write!(f, "{}", self.num) } else { write!(f, "{}/{}", self.num, self.den) }
    }
}

impl std::str::FromStr for Rate {
    type Err = String;

    /// `30`, `29.97` or `30000/1001`.
    fn from_str(s: &str) -> Result<Rate, String> {
        let bad = || format!("'{s}' is not a frame rate like 30, 29.97 or 30000/1001");
        match s.split_once('/') {
            Some((n, d)) => match (n.trim().parse::<u32>(), d.trim().parse::<u32>()) {
                (Ok(num), Ok(den)) if num > 0 && den > 0 => {
                    let divisor = gcd(num, den);
                    Ok(Rate { num: num / divisor, den: den / divisor })
                }
                _ => Err(bad()),
            },
            None => s.trim().parse::<f64>().ok().and_then(Rate::from_fps).ok_or_else(bad),
        }
    }
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 { a.max(1) } else { gcd(b, a % b) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_parse_as_fractions() {
        assert_eq!("29.97".parse::<Rate>(), Ok(Rate { num: 30000, den: 1001 }));
        assert_eq!("12.5".parse::<Rate>(), Ok(Rate { num: 25, den: 2 }));
        assert_eq!("30000/1001".parse::<Rate>().unwrap().to_string(), "30000/1001");
        assert_eq!("60/2".parse::<Rate>().unwrap().to_string(), "30");
        for bad in ["0/1", "fast", "0", "-5"] {
            assert!(bad.parse::<Rate>().is_err(), "{bad}");
        }
    }
}

/// How a recording is made.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordSettings {
    /// Keep every Nth pass (the last state is always kept).
    pub every: Option<u32>,
    /// Choose `every` so that the GIF has at most this many frames (at least 2).
    pub max_frames: Option<u32>,
    /// Stop after this many steps.
    pub steps: Option<u32>,
    /// Frames per second, 1 to 50 (GIF delays are whole hundredths of a second, and viewers
    /// slow delays under 2 down; APNG delays are exact).
    pub fps: u32,
    /// Integer nearest-neighbour upscale.
    pub scale: u32,
    /// Seconds the last frame stays before the loop starts again.
    pub hold_seconds: f32,
    /// Colour that transparent source pixels are blended over (GIF; PNG keeps alpha).
    pub background: [u8; 3],
    /// Dither when the picture has more than 256 colours (GIF).
    pub dither: bool,
    /// The run shows pixels waiting in a scatter (the radix view's sub-steps): quantize to 127
    /// colours with dimmed twins (see [`crate::record::palette::quantize_with_dimmed_twins`]).
    pub dimmed_twins: bool,
    /// A video recording carries each step's tones ([`crate::sound`]).
    pub sound: bool,
}

impl Default for RecordSettings {
    fn default() -> Self {
        RecordSettings {
            every: None,
            max_frames: None,
            steps: None,
            fps: 30,
            scale: 1,
            hold_seconds: 2.0,
            background: [0, 0, 0],
            dither: true,
            dimmed_twins: false,
            sound: false,
        }
    }
}
