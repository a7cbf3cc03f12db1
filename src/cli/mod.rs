//! The command line: flags, their defaults and help text. `check` refuses flags that do not
//! go together, `resolve` turns them into the [`crate::settings::Settings`] front ends take.
#![cfg(not(target_arch = "wasm32"))]

mod batch;
mod check;
mod resolve;
#[cfg(test)]
mod tests;

use crate::algorithms::Algorithm;
use crate::algorithms::odd_even::PassKind;
use crate::angle::Angle;
use crate::bench::gif::GifBenchArgs;
use crate::bench::pass::PassBenchArgs;
use crate::bench::png::PngBenchArgs;
use crate::bench::radix::RadixBenchArgs;
use crate::bench::radix::segments::SegmentBenchArgs;
use crate::bench::sorts::SortBenchArgs;
use crate::bench::video::VideoBenchArgs;
use crate::intervals::{IntervalLength, IntervalMode, Threshold};
use crate::keys::SortKey;
use crate::keys::options::{Axis, Scope};
use crate::keys::radix_key::DEFAULT_DIGIT_BITS;
use check::{
    parse_digit_bits, parse_fraction, parse_hex_colour, parse_hold, parse_pattern_size,
    parse_positive_seconds, parse_sweep,
};
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

    /// Picture to sort: PNG, JPEG, GIF, BMP, WebP or TIFF; any colour type is read as RGBA8. Or
    /// a clip: a video ffmpeg reads, an animated GIF, a folder of frames or a pattern like
    /// shot-%05d.png (sorted into --out, or played sorted in the window). Several pictures and
    /// clips, folders of them or a pattern like '*.jpg' are sorted one by one into --out DIR/.
    #[arg(id = "image", value_name = "IMAGE")]
    pub inputs: Vec<PathBuf>,

    /// Many inputs: sort the pictures and clips in the folders given and in every folder under
    /// them, each written under the same folders in --out DIR/.
    #[arg(long, short = 'r')]
    pub recursive: bool,

    /// Many inputs: the format pictures are written in [default: the input's own where it is
    /// exact (PNG, lossless WebP, BMP, TIFF), else PNG]. Clips keep their own.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<crate::picture::still_format::StillFormat>,

    /// Pictures written as JPEG: the encoder's quality, 1 to 100 [default: 92].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(1..=100))]
    pub quality: Option<u8>,

    /// Many inputs: replace outputs that already exist in --out DIR/ (without it they are kept
    /// and their inputs skipped, so a run stopped halfway goes on where it stopped).
    #[arg(long)]
    pub overwrite: bool,

    /// Sort a built-in input that teaches instead of a picture, each line arranged for the key,
    /// order and axis asked for: noise, sorted, reversed, few-distinct, nearly-sorted (1% of
    /// the pairs swapped) or sawtooth.
    #[arg(long, value_enum, value_name = "NAME", conflicts_with_all = ["image", "live", "camera"])]
    pub pattern: Option<crate::picture::teaching::Pattern>,

    /// The size of --pattern's picture, WxH [default: 256x144].
    #[arg(long, value_name = "WxH", requires = "pattern", value_parser = parse_pattern_size)]
    pub pattern_size: Option<(u32, u32)>,

    /// Sort without a window and write the result (or the state after --steps) to this PNG.
    /// For many inputs: a folder (DIR/), each written under its own name. For a clip: a video (the extension says the container: .mp4, .mkv, .webm, .mov, .gif,
    /// .png for an animated PNG) or DIR/ for PNG frames; every frame sorted. An odd-sided clip's
    /// H.264 (.mp4, .mkv, .mov) is padded to even sides by repeating the edge, with a note.
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,

    /// Pictures sorted into --out: fast writes quickly; best makes the smallest file it can (the
    /// same pixels, never a larger file than fast), several times slower to write [default: fast].
    #[arg(long, value_enum, value_name = "LEVEL")]
    pub png_compression: Option<crate::picture::output::PngCompression>,

    /// Clips and video recordings: write every frame exactly (FFV1 in .mkv, .avi or .nut; PNG in
    /// .mov; .png).
    #[arg(long)]
    pub lossless: bool,

    /// Clips and video recordings: the ffmpeg video encoder to write with (libx265, libsvtav1, prores_ks, ...)
    /// [default: libx264 for .mp4, .mov, .mkv and .avi, libvpx-vp9 for .webm].
    #[arg(long, value_name = "ENCODER")]
    pub codec: Option<String>,

    /// Clips and video recordings: the encoder's constant rate factor, lower is better [default: 18 for H.264, 31
    /// for VP9].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=63))]
    pub crf: Option<u32>,

    /// Clips given as picture files: their frames per second (30, 29.97 or 30000/1001) [default: 30].
    #[arg(long, value_name = "FPS")]
    pub frame_rate: Option<crate::settings::Rate>,

    /// Clips and video recordings: the ffmpeg program [default: $SHADERSORT_FFMPEG, else ffmpeg on PATH].
    #[arg(long, value_name = "PATH")]
    pub ffmpeg: Option<PathBuf>,

    /// Sort a live stream as it comes, shown sorted in the window or recorded into --out: any
    /// stream or device ffmpeg reads live (udp://, rtsp://, srt://, a device path). Frames the
    /// sort cannot keep up with are dropped and counted, never queued; a recording keeps the
    /// stream's time and audio.
    #[arg(long, value_name = "URL", conflicts_with_all = ["image", "camera"])]
    pub live: Option<String>,

    /// Sort the camera as it comes, shown in the window or recorded into --out (through ffmpeg:
    /// v4l2 on Linux, avfoundation on macOS, dshow on Windows); the default camera without DEVICE.
    #[arg(long, value_name = "DEVICE", num_args = 0..=1, conflicts_with = "image")]
    pub camera: Option<Option<String>>,

    /// Record a live source (--live, --camera) for this many seconds of it, then finish the
    /// file; without it, until Ctrl-C (the file is whole either way).
    #[arg(long, value_name = "SECONDS", value_parser = check::parse_positive_seconds)]
    pub duration: Option<f64>,

    /// Record the sort, one frame per step, without a window; the path says the format: .gif,
    /// .png or .apng (animated PNG, exact colours), DIR/ (a folder of PNG frames), or a video
    /// through ffmpeg (.mp4, .mov, .mkv, .webm; --sound adds each step's tones) [default:
    /// gifs/IMAGE-ALGORITHM-KEY.gif]. Put IMAGE before this flag.
    #[arg(long, value_name = "PATH", num_args = 0..=1)]
    pub record: Option<Option<PathBuf>>,

    /// Recording to a video (.mp4, .mov, .mkv, .webm): each step's tones beside it, the pixels it
    /// moved on the lens's line (--lens, else the middle line) sounding at a pitch by their key.
    #[arg(long)]
    pub sound: bool,

    /// Recording: keep every Nth step (the last state is always kept).
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

    /// Recording: seconds the sorted picture stays before the GIF or APNG loops.
    #[arg(long, value_name = "SECONDS", default_value_t = 2.0, value_parser = parse_hold)]
    pub hold: f32,

    /// Colour that transparent pixels are blended over in a GIF recording and in pictures
    /// written as JPEG (neither has partial transparency; PNG keeps alpha).
    #[arg(long, value_name = "RRGGBB", default_value = "000000", value_parser = parse_hex_colour)]
    pub background: [u8; 3],

    /// Recording: no dithering in a GIF of a picture of more than 256 colours (smaller files,
    /// banded gradients).
    #[arg(long)]
    pub no_dither: bool,

    /// Window: start playing at once.
    #[arg(long)]
    pub play: bool,

    /// Window: open the row lens on this line (row, column, or line at the angle, from 0; L opens it in the middle).
    /// A recording's --sound is heard on it (else on the middle line).
    #[arg(long, value_name = "LINE")]
    pub lens: Option<u32>,

    /// Window: starting speed in steps per second (rounded to the nearest of 1, 2, 5, 10, 20, 30, 60, ... 7680).
    #[arg(long, value_name = "STEPS_PER_SECOND", value_parser = parse_positive_seconds)]
    pub speed: Option<f64>,

    /// Window: close after this many seconds and print frame statistics (for benchmarks and tests).
    #[arg(long, value_name = "SECONDS", value_parser = parse_positive_seconds)]
    pub quit_after: Option<f64>,

    /// Stop after this many steps instead of sorting to the end (a step: an odd-even pass, a
    /// bubble dispatch, a radix digit pass or a bitonic stage; `--passes` is the old name).
    #[arg(long, value_name = "N", alias = "passes")]
    pub steps: Option<u32>,

    /// Sorting algorithm [default: odd-even; bitonic for a clip]. A clip's frames sorted to their
    /// end are the same with every algorithm and are made by radix, the fastest way there.
    #[arg(long, value_enum)]
    pub algorithm: Option<Algorithm>,

    /// How a pass runs on the GPU: a compute kernel, or a fragment shader rendering into the other texture.
    #[arg(long = "pass", value_enum, default_value_t)]
    pub pass_kind: PassKind,

    /// Bubble: phases per step, one frame each in the window and in recordings (default 2; --out
    /// without --steps sorts in a single dispatch).
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

    /// Sort along a path instead of straight lines: rings (circles around the centre, each by
    /// angle), rays (straight out of the centre), spiral (the rings joined outward, one
    /// sequence) or hilbert (the Hilbert curve, one sequence). A one-sequence path longer than
    /// the GPU's texture rows is the radix view's, sorted whole (instead of --axis or --angle).
    #[arg(long, value_name = "PATH")]
    pub path: Option<crate::paths::PathKind>,

    /// The centre of rings, rays and the spiral, in pixels of the picture as sorted (after
    /// --max-size), x right and y down, or in percent of its width and height (50%,30%: the same
    /// place on every picture of a batch); outside the picture is allowed [default: its middle].
    #[arg(long, value_name = "X,Y", value_parser = crate::paths::CentreAt::parse, allow_hyphen_values = true)]
    pub center: Option<crate::paths::CentreAt>,

    /// How many rays --path rays has [default: about a pixel apart at the farthest corner].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub rays: Option<u32>,

    /// Largest picture side; larger pictures are downscaled (default: the GPU's texture limit).
    #[arg(long, value_name = "PIXELS", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_size: Option<u32>,

    /// Refuse pictures larger than the limit instead of downscaling them.
    #[arg(long)]
    pub no_downscale: bool,

    /// Sort only intervals of each line: pixels whose interval key lies inside --threshold
    /// (threshold), between strong edges (edges), of random lengths (random), or whole lines
    /// (none) [default: none, or the mode the other interval flags imply].
    #[arg(long, value_enum, value_name = "MODE")]
    pub intervals: Option<IntervalMode>,

    /// Threshold intervals: the range of the interval key that is sorted, in fractions of the
    /// key's range, inclusive (implies --intervals threshold) [default: 0.25..0.75].
    #[arg(long, value_name = "LO..HI")]
    pub threshold: Option<Threshold>,

    /// The key the threshold and the edges are computed on (any key; --key is what the intervals
    /// are sorted by) [default: luma].
    #[arg(long, value_enum, value_name = "KEY")]
    pub interval_key: Option<SortKey>,

    /// Edge intervals: a pixel whose Sobel magnitude exceeds this fraction of the largest possible
    /// one stays fixed and splits the intervals (implies --intervals edges) [default: 0.1].
    #[arg(long, value_name = "F", value_parser = parse_fraction)]
    pub edge_level: Option<f64>,

    /// Random intervals: the seed; the same seed gives the same intervals (implies --intervals
    /// random) [default: 0].
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,

    /// Random intervals: their lengths are drawn uniformly from MIN..MAX, or are all N
    /// (implies --intervals random) [default: 8..64].
    #[arg(long, value_name = "MIN..MAX", alias = "run-length")]
    pub interval_length: Option<IntervalLength>,

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
    /// The segmented sort: matrices sorted along their rows, keys and pairs (timestamps).
    Segments(SegmentBenchArgs),
    /// One odd-even pass as effective bytes/s beside a texture copy of the same size (timestamps).
    Pass(PassBenchArgs),
    /// A clip sorted frame by frame beside ffmpeg decoding and transcoding it alone.
    Video(VideoBenchArgs),
    /// The fast PNG writer (strips on every core) against the image crate's, on real pictures.
    Png(PngBenchArgs),
    /// A folder of pictures sorted in one run beside decoding and encoding them alone.
    Batch(crate::bench::batch::BatchBenchArgs),
}

/// The settings `bench video` sorts its clip with: its `--sort` flags resolved as the command
/// line resolves them (its `--out` is replaced by the benchmark's own).
pub fn bench_video_settings(args: &VideoBenchArgs) -> Result<crate::settings::Settings, String> {
    let clip = args.clip.display().to_string();
    let mut argv = vec!["shadersort".to_string(), clip, "--out".into(), "bench.mp4".into()];
    argv.extend(args.sort.split_whitespace().map(str::to_string));
    if let Some(ffmpeg) = &args.ffmpeg {
        argv.extend(["--ffmpeg".to_string(), ffmpeg.display().to_string()]);
    }
    let cli = Cli::try_parse_from(&argv).map_err(|e| format!("--sort: {}", e.to_string().trim()))?;
    cli.check().map_err(|e| format!("--sort: {e}"))?;
    Ok(cli.settings())
}
