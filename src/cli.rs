//! The command line: flags, their defaults and help text.

use crate::algorithms::odd_even::PassKind;
use crate::algorithms::radix::RadixSettings;
use crate::algorithms::{Algorithm, RunSettings};
use crate::bench::gif::GifBenchArgs;
use crate::bench::pass::PassBenchArgs;
use crate::bench::radix::RadixBenchArgs;
use crate::bench::sorts::SortBenchArgs;
use crate::key::SortKey;
use crate::options::{Axis, Scope, SortOptions};
use crate::radix_key::{DEFAULT_DIGIT_BITS, DIGIT_BITS, RadixKey};
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

    /// Sort each row (left to right) or each column (top to bottom).
    #[arg(long, value_enum, default_value_t)]
    pub axis: Axis,

    /// Largest picture side; larger pictures are downscaled (default: the GPU's texture limit).
    #[arg(long, value_name = "PIXELS", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_size: Option<u32>,

    /// Refuse pictures larger than the limit instead of downscaling them.
    #[arg(long)]
    pub no_downscale: bool,
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
    /// Key, order and axis as the algorithms take them.
    pub fn sort_options(&self) -> SortOptions {
        SortOptions { key: self.key, descending: self.reverse, axis: self.axis }
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

    /// Flags that parse on their own but not together: radix flags on another algorithm's
    /// headless run, or more key bits than the key has.
    pub fn check(&self) -> Result<(), String> {
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
}
