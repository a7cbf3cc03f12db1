//! `shadersort bench video`: frames per second of a clip sorted frame by frame, each beside what
//! ffmpeg alone does with the same clip in the same run: decoding to raw RGBA (and, for scale, to
//! 4:2:0) against decoding, sorting and reading back (the encoder replaced by a null sink), and a
//! plain ffmpeg transcode (an odd size padded as the run pads it) and ffmpeg encoding the sorted
//! frames alone (piped from memory, as the whole run pipes them, the two taking turns) against the
//! whole run, all three with the whole run's encoder settings.

use crate::media::encoding;
use crate::media::ffmpeg::Ffmpeg;
use crate::media::probe::{ClipInfo, probe};
use crate::media::sink::{ClipSink, ClipTarget, EncodeSpec, SortedFrame};
use crate::picture::output::OutputFile;
use crate::picture::yuv::{self, Yuv420Colour, Yuv420Size};
use crate::record::png_frames::frame_name;
use crate::settings::Settings;
use anyhow::Context;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

/// What to measure.
#[derive(Clone, Debug, clap::Args)]
pub struct VideoBenchArgs {
    /// The clip (make one with: ffmpeg -f lavfi -i testsrc2=size=1920x1080:rate=30 -t 20 -c:v
    /// libx264 -pix_fmt yuv420p clip.mp4).
    pub clip: PathBuf,
    /// Sorting flags, as the command line takes them, in one argument.
    #[arg(long, default_value = "--algorithm radix --threshold 0.25..0.75", allow_hyphen_values = true)]
    pub sort: String,
    /// Runs of each measurement; the median is reported.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    pub runs: u32,
    /// The ffmpeg program [default: $SHADERSORT_FFMPEG, else ffmpeg on PATH].
    #[arg(long, value_name = "PATH")]
    pub ffmpeg: Option<PathBuf>,
    /// Most memory (MiB) the sorted frames may take while ffmpeg encoding them alone is timed
    /// (a 300-frame 1080p clip piped as 4:2:0 takes 890); a larger clip is timed on its first
    /// frames and the time scaled to the whole clip.
    #[arg(long, value_name = "MIB", default_value_t = 1024, value_parser = clap::value_parser!(u64).range(1..))]
    pub frames_memory: u64,
    /// After the table, one more decode + sort run with every compute pass timed on the GPU
    /// (timestamp queries): where its GPU time goes, by pass.
    #[arg(long)]
    pub passes: bool,
}

/// Runs the benchmark with `settings` (the command line's resolution of `--sort`, with an
/// `--out` into a temporary folder) and prints a table.
pub fn run(args: &VideoBenchArgs, settings: &Settings) -> anyhow::Result<()> {
    let clip = args.clip.as_path();
    let ffmpeg =
        Ffmpeg::find(args.ffmpeg.as_deref(), || format!("cannot read '{}': it is a video", clip.display()))?;
    let info = probe(&ffmpeg, clip)?;
    let dir = tempfile::tempdir().context("creating a folder for the benchmark's videos")?;
    let out = dir.path().join("sorted.mp4");
    let settings = Settings { out: Some(out.clone()), ..settings.clone() };
    let settings = &settings;
    // The clip's audio as the whole run keeps it, for the transcode and the encoder alone too.
    let audio = info
        .audio
        .as_deref()
        .map(|codec| encoding::audio_args(&out, codec, ffmpeg.build()).0)
        .filter(|args| !args.is_empty());
    let transcode_args = transcode_args(&out, settings, &info, audio.as_deref())?;
    let frames = info.frames as f64;
    println!(
        "{}: {}x{}, {} frames at {:.3} fps ({}); sorting with '{}'; {} CPU threads; ffmpeg {} ({}); median of {}",
        clip.display(),
        info.width,
        info.height,
        info.frames,
        info.rate.fps(),
        info.pixel_format,
        args.sort,
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        ffmpeg.build().version,
        ffmpeg.program().display(),
        args.runs
    );
    let median =
        |mut measure: Box<dyn FnMut() -> anyhow::Result<Duration> + '_>| -> anyhow::Result<Duration> {
            let samples = (0..args.runs).map(|_| measure()).collect::<anyhow::Result<Vec<_>>>()?;
            Ok(super::median(samples))
        };
    let size = (info.width, info.height);
    let decode = median(Box::new(|| decode_alone(&ffmpeg, clip, size, "rgba")))?;
    let decode_420 = median(Box::new(|| decode_alone(&ffmpeg, clip, size, "yuv420p")))?;
    let mut adapter = String::new();
    let mut setups = Vec::new();
    let mut stages = Vec::new();
    let sort = median(Box::new(|| {
        let report = crate::media::sort_clip(settings, clip, true)?;
        adapter = report.adapter;
        setups.push(report.setup);
        stages.push((report.elapsed, report.stages));
        Ok(report.elapsed)
    }))?;
    let transcoded = dir.path().join("transcoded.mp4");
    let transcode = median(Box::new(|| transcode_alone(&ffmpeg, clip, &transcode_args, &transcoded)))?;
    let memory = args.frames_memory.saturating_mul(1 << 20);
    let sorted = SortedFrames::collect(settings, clip, &info, audio, (dir.path(), memory))?;
    let encoded = dir.path().join("encoded.mp4");
    // The encoder alone and the whole run take turns, so a drift in the machine's speed (the
    // encoder's time varies by several percent from one minute to the next) meets both alike.
    let (mut encodes, mut wholes, mut whole_stages) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..args.runs {
        encodes.push(sorted.encode_alone(&ffmpeg, &encoded)?);
        let report = crate::media::sort_clip(settings, clip, false)?;
        setups.push(report.setup);
        whole_stages.push((report.elapsed, report.stages));
        wholes.push(report.elapsed);
    }
    let (encode, whole) = (super::median(encodes), super::median(wholes));
    let fps = |d: Duration| frames / d.as_secs_f64();
    let setup = super::median(setups);
    println!("on {adapter}");
    println!(
        "shadersort's runs include {:.3} s of setup each (median): ffmpeg counting the frames, the GPU opened, its pipelines built",
        setup.as_secs_f64()
    );
    // The stage times of the median run of each kind: which stage sets the pace.
    for (what, mut runs) in [("decode + sort run", stages), ("whole run", whole_stages)] {
        runs.sort_by_key(|(elapsed, _)| *elapsed);
        if let Some((_, times)) = runs.get(runs.len() / 2) {
            println!("busy in the median {what} (s, summed over each stage's threads): {times}");
        }
    }
    println!(
        "the encoder alone is given {} {} frames from memory{}, encoding with: {}",
        sorted.frames.len(),
        sorted.pipe_format(),
        sorted.audio.as_ref().map_or("", |_| " and the clip's audio"),
        sorted.video_args.join(" ")
    );
    println!("the plain transcode is: ffmpeg -i CLIP {} OUT.mp4", transcode_args.join(" "));
    if sorted.capped() {
        println!(
            "note: {} sorted frames fit --frames-memory {} MiB of the clip's {}: the encoder alone is timed on them and the time scaled to the whole clip",
            sorted.frames.len(),
            args.frames_memory,
            sorted.total
        );
    }
    println!("| run | seconds | frames/s | ratio |");
    println!("| --- | ---: | ---: | ---: |");
    println!("| ffmpeg decode to RGBA | {:.3} | {:.1} | |", decode.as_secs_f64(), fps(decode));
    println!("| ffmpeg decode to 4:2:0 | {:.3} | {:.1} | |", decode_420.as_secs_f64(), fps(decode_420));
    println!(
        "| decode + sort + read back (null sink) | {:.3} | {:.1} | {:.2}x decode to RGBA (goal >= 1.0); {:.2}x decode to 4:2:0 (the floor) |",
        sort.as_secs_f64(),
        fps(sort),
        fps(sort) / fps(decode),
        fps(sort) / fps(decode_420)
    );
    println!(
        "| ffmpeg transcode (same encoder settings) | {:.3} | {:.1} | |",
        transcode.as_secs_f64(),
        fps(transcode)
    );
    println!(
        "| ffmpeg encoding the sorted frames alone ({} from memory{}) | {:.3} | {:.1} | {:.2}x transcode |",
        sorted.pipe_format(),
        if sorted.capped() { ", scaled" } else { "" },
        encode.as_secs_f64(),
        fps(encode),
        fps(encode) / fps(transcode)
    );
    println!(
        "| whole run to .mp4 | {:.3} | {:.1} | {:.2}x encoding alone (goal >= 0.9); {:.2}x transcode |",
        whole.as_secs_f64(),
        fps(whole),
        fps(whole) / fps(encode),
        fps(whole) / fps(transcode)
    );
    if args.passes {
        print_passes(settings, clip, info.frames)?;
    }
    Ok(())
}

/// One more decode + sort run, every compute pass timed on the GPU: each pass label's time per
/// frame, and how much of the GPU's span no timed pass covered.
fn print_passes(settings: &Settings, clip: &Path, frames: u64) -> anyhow::Result<()> {
    use crate::gpu::pass_clock;
    let watch = crate::media::ClipWatch { time_passes: true, quiet: true, ..Default::default() };
    let report = crate::media::sort_clip_watched(settings, clip, true, &watch)?;
    let Some(passes) = report.passes else {
        println!("no pass times: the GPU has no timestamp queries, or they could not be read back");
        return Ok(());
    };
    let frames = frames.max(1) as f64;
    let (span, busy) = pass_clock::span_and_busy(&passes);
    println!(
        "GPU passes of one decode + sort run ({:.3} s): {} passes timed over {span:.1} ms of the GPU's clock, {busy:.1} ms in timed passes ({:.3} ms a frame), the rest copies, clears, untimed passes or the GPU idle",
        report.elapsed.as_secs_f64(),
        passes.len(),
        busy / frames
    );
    if passes.len() == pass_clock::MOST_PASSES {
        println!("note: only the first {} passes were timed; the times a frame are low", passes.len());
    }
    println!("| pass | passes | ms | ms a frame |");
    println!("| --- | ---: | ---: | ---: |");
    for (label, count, ms) in pass_clock::by_label(&passes) {
        println!("| {label} | {count} | {ms:.2} | {:.4} |", ms / frames);
    }
    // A stretch from the middle of the run, in the GPU's order: where the untimed time lies.
    let mut order = passes;
    order.sort_by(|a, b| a.start_ns.total_cmp(&b.start_ns));
    let middle = order.len() / 2;
    let stretch = &order[middle.saturating_sub(12)..(middle + 12).min(order.len())];
    println!("| pass (a stretch from the middle, in the GPU's order) | µs since the last pass ended | µs |");
    println!("| --- | ---: | ---: |");
    let mut last_end = stretch.first().map_or(0.0, |p| p.start_ns);
    for pass in stretch {
        let gap = (pass.start_ns - last_end) / 1e3;
        println!("| {} | {gap:.1} | {:.1} |", pass.label, (pass.end_ns - pass.start_ns) / 1e3);
        last_end = last_end.max(pass.end_ns);
    }
    Ok(())
}

/// ffmpeg decoding the clip's video to raw frames of `pixel_format` into a pipe read here and
/// dropped.
fn decode_alone(
    ffmpeg: &Ffmpeg,
    clip: &Path,
    (w, h): (u32, u32),
    pixel_format: &str,
) -> anyhow::Result<Duration> {
    let started = Instant::now();
    let mut command = ffmpeg.command(["-v".into(), "error".into(), "-i".into(), clip.as_os_str().to_owned()]);
    command.args(["-map", "0:v:0"]).args(ffmpeg.build().passthrough());
    command.args(["-f", "rawvideo", "-pix_fmt", pixel_format, "pipe:1"]);
    command.stdout(Stdio::piped());
    let mut child = ffmpeg.spawn(&mut command)?;
    let mut stdout = child.stdout.take().expect("piped");
    let mut buffer = vec![0u8; w as usize * h as usize * 4];
    let mut bytes = 0u64;
    loop {
        let n = stdout.read(&mut buffer)?;
        if n == 0 {
            break;
        }
        bytes += n as u64;
    }
    let status = child.wait()?;
    anyhow::ensure!(status.success() && bytes > 0, "ffmpeg could not decode '{}'", clip.display());
    Ok(started.elapsed())
}

/// The output arguments of a plain ffmpeg transcode of the clip into a file like `out`: the whole
/// run's encoder settings at the clip's size, an odd size padded as the run pads it (the last
/// column and row repeated), and `audio` (the run's audio arguments, when it keeps the sound).
fn transcode_args(
    out: &Path,
    settings: &Settings,
    info: &ClipInfo,
    audio: Option<&[String]>,
) -> anyhow::Result<Vec<String>> {
    let size = (info.width, info.height);
    let (video, _) = encoding::video_args(out, &settings.video.encode, size, info.has_alpha())?;
    let mut args = vec!["-map".to_string(), "0:v:0".into()];
    if let Some(padded) = encoding::padded_size(&video, size) {
        args.extend(["-vf".into(), encoding::pad_filter(size, padded)]);
    }
    args.extend(video);
    if let Some(audio) = audio {
        args.extend(["-map".into(), "0:a:0".into()]);
        args.extend(audio.iter().cloned());
    }
    Ok(args)
}

/// ffmpeg transcoding the clip into `out` with `args` ([`transcode_args`]).
fn transcode_alone(ffmpeg: &Ffmpeg, clip: &Path, args: &[String], out: &Path) -> anyhow::Result<Duration> {
    let started = Instant::now();
    let mut command =
        ffmpeg.command(["-v".into(), "error".into(), "-y".into(), "-i".into(), clip.as_os_str().to_owned()]);
    command.args(args).arg(out);
    let status = ffmpeg.output(&mut command)?.status;
    anyhow::ensure!(status.success(), "ffmpeg could not transcode '{}'", clip.display());
    Ok(started.elapsed())
}

/// The sorted frames of a clip held in memory as the whole run hands them to its encoder (4:2:0
/// planes where the encoder takes them, else RGBA), with what that encoder is started with: the
/// bound a whole run is held to is ffmpeg encoding them alone.
struct SortedFrames {
    /// The clip, for its audio.
    clip: PathBuf,
    /// Frame size (as sorted: downscaled where the GPU needed it).
    size: (u32, u32),
    /// Frames per second.
    rate: crate::settings::Rate,
    /// The whole run's video output arguments.
    video_args: Vec<String>,
    /// The whole run's audio output arguments, when it keeps the clip's audio.
    audio: Option<Vec<String>>,
    /// Whether the clip may be translucent.
    has_alpha: bool,
    /// The 4:2:0 the frames are piped as, or `None` for RGBA.
    yuv420: Option<Yuv420Colour>,
    /// The first frames of the clip, as many as the memory limit allows.
    frames: Vec<SortedFrame>,
    /// Frames in the whole sorted clip.
    total: u64,
}

impl SortedFrames {
    /// Sorts the clip once with `settings` into a folder of PNG frames in `dir` (exact, and off
    /// the clock), then reads back the first frames that fit in `memory` bytes in the form the
    /// whole run pipes to its encoder for `settings.out` (with `audio`, the run's audio
    /// arguments). 4:2:0 is made on the CPU here with the conversion the run itself falls back
    /// to for frames too large for the GPU's.
    fn collect(
        settings: &Settings,
        clip: &Path,
        info: &ClipInfo,
        audio: Option<Vec<String>>,
        (dir, memory): (&Path, u64),
    ) -> anyhow::Result<SortedFrames> {
        let out = settings.out.as_deref().expect("the benchmark names an output");
        let folder = dir.join("sorted-frames");
        std::fs::create_dir(&folder).context("making a folder for the sorted frames")?;
        let to_frames = Settings { out: Some(folder.clone()), ..settings.clone() };
        let report =
            crate::media::sort_clip(&to_frames, clip, false).context("sorting the clip into frames")?;
        let size = report.size;
        let has_alpha = info.has_alpha();
        let (video_args, _) = encoding::video_args(out, &settings.video.encode, size, has_alpha)?;
        let yuv420 = encoding::piped_yuv420(&video_args, size, info.yuv420.as_ref());
        let frame_bytes = match &yuv420 {
            Some(_) => Yuv420Size { width: size.0, height: size.1 }.bytes(),
            None => size.0 as usize * size.1 as usize * 4,
        } as u64;
        let total = std::fs::read_dir(&folder)?.count() as u64;
        anyhow::ensure!(total > 0, "sorting '{}' gave no frames", clip.display());
        let kept = total.min((memory / frame_bytes.max(1)).max(1));
        let frames = (0..kept as u32)
            .map(|index| {
                let path = folder.join(frame_name(index));
                let frame = image::open(&path).with_context(|| format!("reading {}", path.display()))?;
                let frame = frame.into_rgba8();
                Ok(match &yuv420 {
                    Some(colour) => SortedFrame::Yuv420(yuv::to_yuv420(&frame, colour.matrix)),
                    None => SortedFrame::Rgba(frame),
                })
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        // The PNG frames are not needed again; a long clip's take much disk.
        std::fs::remove_dir_all(&folder).context("removing the sorted frames")?;
        let clip = clip.to_path_buf();
        Ok(SortedFrames { clip, size, rate: info.rate, video_args, audio, has_alpha, yuv420, frames, total })
    }

    /// Whether only the first frames are held (the time is scaled to the whole clip).
    fn capped(&self) -> bool {
        (self.frames.len() as u64) < self.total
    }

    /// How the frames are piped, in words.
    fn pipe_format(&self) -> &'static str {
        if self.yuv420.is_some() { "4:2:0" } else { "RGBA" }
    }

    /// ffmpeg encoding the held frames into `out`, through the whole run's own sink (the same
    /// ffmpeg command, pipe and buffering); the time is scaled to the whole clip when capped.
    fn encode_alone(&self, ffmpeg: &Ffmpeg, out: &Path) -> anyhow::Result<Duration> {
        let target = ClipTarget::Video(OutputFile::prepare_any_extension(out)?);
        let spec = EncodeSpec {
            size: self.size,
            rate: self.rate,
            video_args: self.video_args.clone(),
            audio: self.audio.clone().map(|args| (self.clip.as_path(), args)),
            has_alpha: self.has_alpha,
            yuv420: self.yuv420.clone(),
        };
        let started = Instant::now();
        let mut sink = ClipSink::start(target, Some(ffmpeg), spec)?;
        for frame in &self.frames {
            sink.push(frame)?;
        }
        sink.finish()?;
        Ok(started.elapsed().mul_f64(self.total as f64 / self.frames.len() as f64))
    }
}
