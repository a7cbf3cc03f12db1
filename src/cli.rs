//! The command line: flags, their defaults and help text.

use crate::algorithms::odd_even::PassKind;
use crate::algorithms::radix::RadixSettings;
use crate::algorithms::{Algorithm, RunSettings};
use crate::angle::Angle;
use crate::bench::gif::GifBenchArgs;
use crate::bench::pass::PassBenchArgs;
use crate::bench::radix::RadixBenchArgs;
use crate::bench::sorts::SortBenchArgs;
use crate::intervals::threshold::{ThresholdSweep, parse_range};
use crate::intervals::{IntervalMode, IntervalSettings, RunLength, Threshold};
use crate::keys::SortKey;
use crate::keys::options::{Axis, Scope, SortOptions};
use crate::keys::radix_key::{DEFAULT_DIGIT_BITS, DIGIT_BITS, RadixKey};
use crate::record::RecordSettings;
use clap::Parser;
use std::path::PathBuf;

/// Watch pixels sort on the GPU, or sort a picture headless and save it.
///
/// Every row (or column) of the picture is sorted by a key computed from each pixel; pixels
/// move whole, so the result holds exactly the colours of the input. Without IMAGE the built-in
/// photograph (coffee.png, CC0) is used.
#[derive(Debug, Parser)]
#[command(name = "shadersort", version, about, long_about = None, args_conflicts_with_subcommands = true)]
pub struct Cli {
    /// Benchmarks (printed tables; see BENCHMARKS.md).
    #[command(subcommand)]
    pub command: Option<Command>,

    /// Picture to sort: PNG, JPEG, GIF, BMP, WebP or TIFF; any colour type is read as RGBA8.
    pub image: Option<PathBuf>,

    /// Sort without a window and write the result (or the state after --passes) to this PNG.
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,

    /// Record the sort as a GIF, one frame per pass, without a window [default path:
    /// gifs/<image>-<algorithm>-<key>.gif]. Put IMAGE before this flag.
    #[arg(long, value_name = "PATH", num_args = 0..=1)]
    pub record: Option<Option<PathBuf>>,

    /// Recording: keep every Nth pass (the last state is always kept).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..), conflicts_with = "max_frames")]
    pub every: Option<u32>,

    /// Recording: at most this many frames (chooses --every).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(2..))]
    pub max_frames: Option<u32>,

    /// Recording: frames per second (GIF delays are hundredths of a second; 50 is the most viewers honour).
    #[arg(long, value_name = "N", default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..=50))]
    pub fps: u32,

    /// Recording: enlarge each pixel to an NxN block (for small pictures).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub scale: u32,

    /// Recording: seconds the sorted picture stays before the GIF loops.
    #[arg(long, value_name = "SECONDS", default_value_t = 2.0, value_parser = parse_hold)]
    pub hold: f32,

    /// Recording: colour that transparent pixels are blended over (GIF has no partial transparency).
    #[arg(long, value_name = "RRGGBB", default_value = "000000", value_parser = parse_hex_colour)]
    pub background: [u8; 3],

    /// Recording: no dithering for pictures of more than 256 colours (smaller files, banded gradients).
    #[arg(long)]
    pub no_dither: bool,

    /// Window: start playing at once.
    #[arg(long)]
    pub play: bool,

    /// Window: starting speed in passes per second (rounded to the nearest of 1, 2, 5, 10, 20, 30, 60, ... 7680).
    #[arg(long, value_name = "PASSES_PER_SECOND", value_parser = parse_positive_seconds)]
    pub speed: Option<f64>,

    /// Window: close after this many seconds and print frame statistics (for benchmarks and tests).
    #[arg(long, value_name = "SECONDS", value_parser = parse_positive_seconds)]
    pub quit_after: Option<f64>,

    /// Stop after this many passes instead of sorting to the end.
    #[arg(long, value_name = "N")]
    pub passes: Option<u32>,

    /// Sorting algorithm.
    #[arg(long, value_enum, default_value_t)]
    pub algorithm: Algorithm,

    /// How a pass runs on the GPU: a compute kernel, or a fragment shader rendering into the other texture.
    #[arg(long = "pass", value_enum, default_value_t)]
    pub pass_kind: PassKind,

    /// Bubble: phases per step, one frame each in the window and in recordings (default 2; --out
    /// without --passes sorts in a single dispatch).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub phases_per_step: Option<u32>,

    /// Radix: bits per digit, one step per digit pass (16 buckets by default: 5 passes for luma).
    #[arg(long, value_name = "BITS", default_value_t = DEFAULT_DIGIT_BITS, value_parser = parse_digit_bits)]
    pub digit_bits: u32,

    /// Radix: bits of the key kept, highest first [default: all the key has, so it stays exact:
    /// luma 18, hue 19, saturation 16, value and channels 8]. Fewer bits merge close keys.
    #[arg(long, value_name = "BITS", value_parser = clap::value_parser!(u32).range(1..=32))]
    pub key_bits: Option<u32>,

    /// Radix: sort each line on its own, or the whole picture as one sequence in scanline order
    /// (a gradient).
    #[arg(long, value_enum, default_value_t)]
    pub scope: Scope,

    /// Radix: show each pass's scatter in 4 stages (pixels placed so far over the dimmed input).
    #[arg(long)]
    pub sub_steps: bool,

    /// What pixels are sorted by. luma = 299 R + 587 G + 114 B (Rec. 601 on the stored values).
    #[arg(long, value_enum, default_value_t)]
    pub key: SortKey,

    /// Sort largest key first.
    #[arg(long)]
    pub reverse: bool,

    /// Sort each row (left to right) or each column (top to bottom) [default: rows].
    #[arg(long, value_enum)]
    pub axis: Option<Axis>,

    /// Sort along lines at this angle in degrees, y pointing down: 0 is rows left to right, 90
    /// columns top to bottom, 180 rows right to left, 30 lines falling gently to the right
    /// (any number, taken modulo 360; instead of --axis).
    #[arg(long, value_name = "DEG", allow_negative_numbers = true)]
    pub angle: Option<Angle>,

    /// Largest picture side; larger pictures are downscaled (default: the GPU's texture limit).
    #[arg(long, value_name = "PIXELS", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_size: Option<u32>,

    /// Refuse pictures larger than the limit instead of downscaling them.
    #[arg(long)]
    pub no_downscale: bool,

    /// Sort only runs of each line: pixels whose interval key lies inside --threshold
    /// (threshold), between strong edges (edges), of random lengths (random), or whole lines
    /// (none) [default: none, or the mode the other interval flags imply].
    #[arg(long, value_enum, value_name = "MODE")]
    pub intervals: Option<IntervalMode>,

    /// Threshold intervals: the range of the interval key that is sorted, in fractions of the
    /// key's range, inclusive (implies --intervals threshold) [default: 0.25..0.75].
    #[arg(long, value_name = "LO..HI")]
    pub threshold: Option<Threshold>,

    /// The key the threshold and the edges are computed on (any key; --key is what the runs are
    /// sorted by) [default: luma].
    #[arg(long, value_enum, value_name = "KEY")]
    pub interval_key: Option<SortKey>,

    /// Edge intervals: a pixel whose Sobel magnitude exceeds this fraction of the largest
    /// possible one stays fixed and splits the runs (implies --intervals edges) [default: 0.1].
    #[arg(long, value_name = "F", value_parser = parse_fraction)]
    pub edge_level: Option<f64>,

    /// Random intervals: the seed; the same seed gives the same runs (implies --intervals
    /// random) [default: 0].
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,

    /// Random intervals: run lengths are drawn uniformly from MIN..MAX, or are all N (implies
    /// --intervals random) [default: 8..64].
    #[arg(long, value_name = "MIN..MAX")]
    pub run_length: Option<RunLength>,

    /// A picture of the same size: its white pixels (luma and alpha at least half) may be
    /// sorted, its black ones stay, in every interval mode.
    #[arg(long, value_name = "FILE")]
    pub mask: Option<PathBuf>,

    /// Recording: one frame per threshold, each the fully sorted picture for the threshold
    /// 0..T, T going from FROM to TO (the "melting" animation; implies --intervals threshold).
    #[arg(long, value_name = "FROM..TO", value_parser = parse_sweep)]
    pub sweep: Option<(f64, f64)>,

    /// Recording with --sweep: frames, one per threshold [default: 30].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(2..=1000))]
    pub frames: Option<u32>,
}

/// Subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Measure and print a table.
    Bench {
        /// Which benchmark.
        #[command(subcommand)]
        which: Bench,
    },
}

/// The benchmarks.
#[derive(Debug, clap::Subcommand)]
pub enum Bench {
    /// GIF recording speed and size against per-frame quantization through the image crate.
    Gif(GifBenchArgs),
    /// GPU time to sort every row completely, per algorithm (needs timestamp queries).
    Sorts(SortBenchArgs),
    /// The device-wide radix sort: keys and pairs over lengths and distributions (timestamps).
    Radix(RadixBenchArgs),
    /// One odd-even pass as effective bytes/s beside a texture copy of the same size (timestamps).
    Pass(PassBenchArgs),
}

impl Cli {
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
            },
        }
    }

    /// The interval mode: `--intervals`, or the one the other interval flags imply (none
    /// without either); an error when flags ask for different modes.
    pub fn interval_mode(&self) -> Result<IntervalMode, String> {
        let implied = [
            ("--threshold", self.threshold.is_some(), IntervalMode::Threshold),
            ("--sweep", self.sweep.is_some(), IntervalMode::Threshold),
            ("--edge-level", self.edge_level.is_some(), IntervalMode::Edges),
            ("--seed", self.seed.is_some(), IntervalMode::Random),
            ("--run-length", self.run_length.is_some(), IntervalMode::Random),
        ];
        let explicit = self.intervals.map(|m| (format!("--intervals {}", m.name()), m));
        let given = implied.iter().filter(|(_, given, _)| *given).map(|&(flag, _, m)| (flag.to_string(), m));
        let flags: Vec<(String, IntervalMode)> = explicit.into_iter().chain(given).collect();
        if let Some((a, ma)) = flags.first()
            && let Some((b, mb)) = flags.iter().find(|(_, m)| m != ma)
        {
            return Err(format!(
                "{a} and {b} choose different interval modes ({} and {}); give the flags of one mode",
                ma.name(),
                mb.name()
            ));
        }
        Ok(flags.first().map_or(IntervalMode::None, |&(_, m)| m))
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
            run_length: self.run_length.unwrap_or(defaults.run_length),
        }
    }

    /// Whether the sort runs within interval runs: an interval mode other than none, or a mask.
    pub fn uses_intervals(&self) -> bool {
        self.mask.is_some() || self.interval_mode().is_ok_and(|m| m != IntervalMode::None)
    }

    /// The threshold sweep of `--sweep` and `--frames`, if asked for.
    pub fn threshold_sweep(&self) -> Option<ThresholdSweep> {
        let (from, to) = self.sweep?;
        Some(ThresholdSweep::new(from, to, self.frames.unwrap_or(ThresholdSweep::DEFAULT_FRAMES)))
    }

    /// Interval and sweep flags that do not go together.
    fn check_intervals(&self) -> Result<(), String> {
        let mode = self.interval_mode()?;
        if self.interval_key.is_some() && !matches!(mode, IntervalMode::Threshold | IntervalMode::Edges) {
            return Err(format!(
                "--interval-key applies to --intervals threshold and edges, not {}",
                mode.name()
            ));
        }
        if self.frames.is_some() && self.sweep.is_none() {
            return Err("--frames sets the frames of a --sweep: add --sweep FROM..TO".into());
        }
        if self.sweep.is_some() {
            if self.record.is_none() {
                return Err("--sweep records the threshold sweep as a GIF: add --record [PATH]".into());
            }
            let refused = [
                ("--out", self.out.is_some()),
                ("--threshold", self.threshold.is_some()),
                ("--passes", self.passes.is_some()),
                ("--every", self.every.is_some()),
                ("--max-frames", self.max_frames.is_some()),
                ("--sub-steps", self.sub_steps),
            ];
            if let Some((flag, _)) = refused.iter().find(|(_, given)| *given) {
                return Err(format!(
                    "{flag} does not go with --sweep: each frame is the whole sort for the threshold 0..T, T from FROM to TO, and --frames sets how many; drop {flag}"
                ));
            }
        }
        // The window takes --scope image with runs: its radix lane then sorts whole lines and
        // says why (it may switch scope or algorithm later); a headless run cannot.
        let headless = self.out.is_some() || self.record.is_some();
        if headless && self.uses_intervals() && self.scope == Scope::Image {
            return Err(crate::algorithms::runs::RunsError::WholePicture.to_string());
        }
        Ok(())
    }

    /// Flags that parse on their own but not together: radix flags on another algorithm's
    /// headless run, more key bits than the key has, two directions.
    pub fn check(&self) -> Result<(), String> {
        self.check_intervals()?;
        self.check_direction()?;
        if let Some(bits) = self.key_bits {
            RadixKey::new(self.sort_options(), Some(bits))?;
        }
        let headless = self.out.is_some() || self.record.is_some();
        let radix_flags = self.key_bits.is_some()
            || self.sub_steps
            || self.scope != Scope::Rows
            || self.digit_bits != DEFAULT_DIGIT_BITS;
        if headless && radix_flags && self.algorithm != Algorithm::Radix {
            return Err(format!(
                "--digit-bits, --key-bits, --scope and --sub-steps apply to the radix view: add --algorithm radix (not {})",
                self.algorithm.name()
            ));
        }
        Ok(())
    }

    /// `--angle` with `--axis`, or with the whole-picture scope of a headless run.
    fn check_direction(&self) -> Result<(), String> {
        let Some(angle) = self.angle else { return Ok(()) };
        if let Some(axis) = self.axis {
            return Err(format!(
                "--angle {angle} and --axis {} both set the direction; give one (--axis rows is --angle 0, --axis columns is --angle 90)",
                axis.name()
            ));
        }
        // The window's radix lane sorts the whole picture without the angle and says why.
        let headless = self.out.is_some() || self.record.is_some();
        if headless && self.scope == Scope::Image && angle.axis().is_none() {
            return Err(crate::algorithms::runs::RunsError::WholePictureAtAngle.to_string());
        }
        Ok(())
    }

    /// The recording flags (and whether the run needs a palette with dimmed twins).
    pub fn record_settings(&self) -> RecordSettings {
        RecordSettings {
            every: self.every,
            max_frames: self.max_frames,
            passes: self.passes,
            fps: self.fps,
            scale: self.scale,
            hold_seconds: self.hold,
            background: self.background,
            dither: !self.no_dither,
            dimmed_twins: self.run_settings().for_recording(self.algorithm).radix.twin_indices,
        }
    }
}

fn parse_digit_bits(s: &str) -> Result<u32, String> {
    match s.parse::<u32>() {
        Ok(v) if DIGIT_BITS.contains(&v) => Ok(v),
        _ => Err(format!("'{s}' is not a digit width: use 1, 2, 4 or 8")),
    }
}

fn parse_fraction(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
        _ => Err(format!("'{s}' is not a fraction from 0 to 1")),
    }
}

fn parse_sweep(s: &str) -> Result<(f64, f64), String> {
    let (from, to) = parse_range(s)?;
    if [from, to].iter().any(|v| !(0.0..=1.0).contains(v)) {
        return Err(format!(
            "'{s}' leaves 0..1: give FROM..TO, fractions of the key's range (like 0..1, or 1..0 to play it backwards)"
        ));
    }
    Ok((from, to))
}

fn parse_hold(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(v) if (0.0..=600.0).contains(&v) => Ok(v),
        _ => Err(format!("'{s}' is not a number of seconds from 0 to 600")),
    }
}

fn parse_positive_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v > 0.0 && v <= 1e6 => Ok(v),
        _ => Err(format!("'{s}' is not a positive number")),
    }
}

fn parse_hex_colour(s: &str) -> Result<[u8; 3], String> {
    let hex = s.trim_start_matches('#');
    let channel = |i: usize| hex.get(i..i + 2).and_then(|h| u8::from_str_radix(h, 16).ok());
    match (hex.len(), channel(0), channel(2), channel(4)) {
        (6, Some(r), Some(g), Some(b)) => Ok([r, g, b]),
        _ => Err(format!("'{s}' is not a colour like 000000 or ff8800")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn defaults_are_luma_rows_ascending_compute() {
        let cli = Cli::parse_from(["shadersort"]);
        assert_eq!(cli.sort_options(), SortOptions::default());
        assert_eq!(cli.pass_kind, PassKind::Compute);
        assert_eq!(cli.algorithm, Algorithm::OddEven);
    }

    #[test]
    fn every_flag_parses() {
        let cli = Cli::parse_from([
            "shadersort",
            "in.png",
            "--out",
            "o.png",
            "--passes",
            "5",
            "--algorithm",
            "odd-even",
            "--pass",
            "fragment",
            "--key",
            "hue",
            "--reverse",
            "--axis",
            "columns",
            "--max-size",
            "64",
            "--no-downscale",
        ]);
        assert_eq!(
            cli.sort_options(),
            SortOptions { key: SortKey::Hue, descending: true, axis: Axis::Columns }
        );
        assert_eq!((cli.passes, cli.max_size, cli.no_downscale), (Some(5), Some(64), true));
    }

    #[test]
    fn record_takes_an_optional_path_and_its_settings() {
        let cli = Cli::parse_from(["shadersort", "in.png", "--record"]);
        assert_eq!(
            (cli.image.as_deref(), cli.record.clone()),
            (Some(std::path::Path::new("in.png")), Some(None))
        );
        assert_eq!(cli.record_settings(), RecordSettings::default());
        let cli = Cli::parse_from([
            "shadersort",
            "--record",
            "a.gif",
            "--every",
            "3",
            "--fps",
            "50",
            "--scale",
            "4",
            "--hold",
            "0.5",
            "--background",
            "#ff8000",
        ]);
        assert_eq!(cli.record, Some(Some("a.gif".into())));
        let s = cli.record_settings();
        assert_eq!(
            (s.every, s.fps, s.scale, s.hold_seconds, s.background),
            (Some(3), 50, 4, 0.5, [255, 128, 0])
        );
        assert!(Cli::try_parse_from(["shadersort", "--every", "2", "--max-frames", "9"]).is_err());
        assert!(Cli::try_parse_from(["shadersort", "--fps", "60"]).is_err());
        assert!(Cli::try_parse_from(["shadersort", "--background", "red"]).is_err());
        assert!(Cli::try_parse_from(["shadersort", "--quit-after", "-1"]).is_err());
        assert!(Cli::try_parse_from(["shadersort", "--speed", "0"]).is_err());
        assert!(Cli::try_parse_from(["shadersort", "--digit-bits", "3"]).is_err());
        assert_eq!(Cli::parse_from(["shadersort", "--quit-after", "2.5"]).quit_after, Some(2.5));
    }

    #[test]
    fn radix_flags_reach_the_settings_and_are_checked() {
        let cli = Cli::parse_from([
            "shadersort",
            "--algorithm",
            "radix",
            "--digit-bits",
            "2",
            "--key-bits",
            "12",
            "--scope",
            "image",
            "--sub-steps",
            "--out",
            "o.png",
        ]);
        let radix = cli.run_settings().radix;
        assert_eq!(
            (radix.digit_bits, radix.key_bits, radix.scope, radix.sub_steps),
            (2, Some(12), Scope::Image, true)
        );
        assert_eq!(cli.check(), Ok(()));
        let too_many =
            Cli::parse_from(["shadersort", "--algorithm", "radix", "--key", "red", "--key-bits", "9"]);
        assert!(too_many.check().unwrap_err().contains("1 to 8"));
        let wrong = Cli::parse_from(["shadersort", "--scope", "image", "--out", "o.png"]);
        assert!(wrong.check().unwrap_err().contains("--algorithm radix"));
        // The window may switch to the radix view later, so it takes radix flags with any algorithm.
        assert_eq!(Cli::parse_from(["shadersort", "--digit-bits", "8"]).check(), Ok(()));
    }

    #[test]
    fn interval_flags_reach_the_settings_and_imply_their_mode() {
        let cli = Cli::parse_from([
            "shadersort",
            "--threshold",
            "0.1..0.6",
            "--interval-key",
            "hue",
            "--out",
            "o.png",
        ]);
        assert_eq!(cli.check(), Ok(()));
        let s = cli.interval_settings();
        assert_eq!(
            (s.mode, s.key, s.threshold),
            (IntervalMode::Threshold, SortKey::Hue, Threshold::new(0.1, 0.6).unwrap())
        );
        assert!(cli.uses_intervals());
        let cli = Cli::parse_from(["shadersort", "--edge-level", "0.3", "--record"]);
        assert_eq!(
            (cli.interval_settings().mode, cli.interval_settings().edge_level),
            (IntervalMode::Edges, 0.3)
        );
        let cli = Cli::parse_from(["shadersort", "--seed", "9", "--run-length", "4", "--out", "o.png"]);
        let s = cli.interval_settings();
        assert_eq!((s.mode, s.seed, s.run_length), (IntervalMode::Random, 9, RunLength::new(4, 4).unwrap()));
        let cli = Cli::parse_from(["shadersort", "--intervals", "edges", "--out", "o.png"]);
        assert_eq!(cli.interval_settings().mode, IntervalMode::Edges);
        // A mask alone sorts whole lines around its black pixels.
        let cli = Cli::parse_from(["shadersort", "--mask", "m.png", "--out", "o.png"]);
        assert_eq!((cli.interval_settings().mode, cli.uses_intervals()), (IntervalMode::None, true));
        let plain = Cli::parse_from(["shadersort", "--out", "o.png"]);
        assert!(!plain.uses_intervals() && plain.threshold_sweep().is_none());
        assert!(Cli::try_parse_from(["shadersort", "--threshold", "0.9..0.1"]).is_err());
        assert!(Cli::try_parse_from(["shadersort", "--edge-level", "2"]).is_err());
        assert!(Cli::try_parse_from(["shadersort", "--run-length", "0..3"]).is_err());
        assert!(Cli::try_parse_from(["shadersort", "--frames", "1"]).is_err());
    }

    #[test]
    fn interval_flags_that_do_not_go_together_are_refused() {
        let refused = |args: &[&str], expected: &str| {
            let cli = Cli::parse_from([&["shadersort"], args].concat());
            let e = cli.check().unwrap_err();
            assert!(e.contains(expected), "{args:?}: {e}");
        };
        refused(
            &["--threshold", "0..1", "--edge-level", "0.2", "--out", "o.png"],
            "different interval modes",
        );
        refused(&["--intervals", "threshold", "--seed", "1", "--out", "o.png"], "(threshold and random)");
        refused(&["--intervals", "none", "--threshold", "0..1", "--out", "o.png"], "(none and threshold)");
        refused(&["--interval-key", "red", "--out", "o.png"], "--interval-key applies");
        refused(
            &["--threshold", "0..1", "--algorithm", "radix", "--scope", "image", "--out", "o.png"],
            "drop --scope image",
        );
        refused(&["--sweep", "0..1", "--out", "o.png"], "add --record");
        refused(&["--sweep", "0..1"], "add --record");
        refused(&["--sweep", "0..1", "--record", "--threshold", "0..1"], "drop --threshold");
        refused(&["--sweep", "0..1", "--record", "--out", "o.png"], "drop --out");
        refused(&["--sweep", "0..1", "--record", "--passes", "3"], "drop --passes");
        refused(&["--sweep", "0..1", "--record", "--edge-level", "0.1"], "different interval modes");
        refused(&["--frames", "5", "--record"], "add --sweep");
    }

    #[test]
    fn the_window_takes_interval_flags_but_not_a_sweep() {
        for args in [
            &["--threshold", "0.2..0.6", "--play"][..],
            &["--intervals", "edges", "--edge-level", "0.3", "--interval-key", "hue"],
            &["--seed", "3", "--run-length", "4..9"],
            &["--mask", "m.png"],
            // The window's radix lane sorts whole lines in image scope and says why.
            &["--threshold", "0..1", "--algorithm", "radix", "--scope", "image"],
        ] {
            let cli = Cli::parse_from([&["shadersort"], args].concat());
            assert_eq!(cli.check(), Ok(()), "{args:?}");
            assert!(cli.uses_intervals());
        }
        let sweep = Cli::parse_from(["shadersort", "--sweep", "0..1"]);
        assert!(sweep.check().unwrap_err().contains("add --record"));
    }

    #[test]
    fn an_angle_is_the_direction_and_does_not_go_with_an_axis() {
        let cli = Cli::parse_from(["shadersort", "--angle", "-30", "--out", "o.png"]);
        assert_eq!((cli.direction().degrees(), cli.check()), (330.0, Ok(())));
        assert_eq!(cli.sort_options().axis, Axis::Rows);
        let cli = Cli::parse_from(["shadersort", "--angle", "450"]);
        assert_eq!((cli.direction(), cli.sort_options().axis), (Angle::COLUMNS, Axis::Columns));
        let cli = Cli::parse_from(["shadersort", "--axis", "columns"]);
        assert_eq!(cli.direction(), Angle::COLUMNS);
        assert_eq!(Cli::parse_from(["shadersort"]).direction(), Angle::ROWS);
        for axis in ["rows", "columns"] {
            let both = Cli::parse_from(["shadersort", "--angle", "30", "--axis", axis, "--out", "o.png"]);
            let e = both.check().unwrap_err();
            assert!(e.contains("--angle 30 and --axis") && e.contains("give one"), "{e}");
        }
        let whole = ["shadersort", "--angle", "30", "--algorithm", "radix", "--scope", "image"];
        let e = Cli::parse_from([&whole[..], &["--out", "o.png"]].concat()).check().unwrap_err();
        assert!(e.contains("drop --scope image or --angle"), "{e}");
        // The window takes it (its radix lane sorts the whole picture and says why), and a
        // whole picture along an axis needs no lines turned.
        assert_eq!(Cli::parse_from(whole).check(), Ok(()));
        let axis =
            ["shadersort", "--angle", "90", "--algorithm", "radix", "--scope", "image", "--out", "o.png"];
        assert_eq!(Cli::parse_from(axis).check(), Ok(()));
        assert!(Cli::try_parse_from(["shadersort", "--angle", "north"]).is_err());
        assert!(Cli::try_parse_from(["shadersort", "--angle", "inf"]).is_err());
    }

    #[test]
    fn a_sweep_takes_its_ends_and_frames() {
        let cli = Cli::parse_from([
            "shadersort",
            "--sweep",
            "1..0.2",
            "--frames",
            "12",
            "--record",
            "--interval-key",
            "value",
        ]);
        assert_eq!(cli.check(), Ok(()));
        assert_eq!(cli.threshold_sweep(), Some(ThresholdSweep::new(1.0, 0.2, 12)));
        assert_eq!(cli.interval_settings().mode, IntervalMode::Threshold);
        let default = Cli::parse_from(["shadersort", "--sweep", "0..1", "--record"]);
        assert_eq!(default.threshold_sweep().unwrap().frames, ThresholdSweep::DEFAULT_FRAMES);
        assert!(Cli::try_parse_from(["shadersort", "--sweep", "0..2"]).is_err());
        assert!(Cli::try_parse_from(["shadersort", "--sweep", "0.5"]).is_err());
    }
}
