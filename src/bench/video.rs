//! `shadersort bench video`: frames per second of a clip sorted frame by frame, each beside what
//! ffmpeg alone does with the same clip in the same run: decoding to raw RGBA (and, for scale, to
//! 4:2:0) against decoding, sorting and reading back (the encoder replaced by a null sink), and a
//! plain ffmpeg transcode against the whole run to the same encoder settings.

use crate::settings::Settings;
use crate::video::encoding::H264_CRF;
use crate::video::ffmpeg::Ffmpeg;
use crate::video::probe::probe;
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
}

/// Runs the benchmark with `settings` (the command line's resolution of `--sort`, with an
/// `--out` into a temporary folder) and prints a table.
pub fn run(args: &VideoBenchArgs, settings: &Settings) -> anyhow::Result<()> {
    let clip = args.clip.as_path();
    let ffmpeg =
        Ffmpeg::find(args.ffmpeg.as_deref(), || format!("cannot read '{}': it is a video", clip.display()))?;
    let info = probe(&ffmpeg, clip)?;
    let dir = tempfile::tempdir().context("creating a folder for the benchmark's videos")?;
    let settings = Settings { out: Some(dir.path().join("sorted.mp4")), ..settings.clone() };
    let settings = &settings;
    let frames = info.frames as f64;
    println!(
        "{}: {}x{}, {} frames at {:.3} fps ({}); sorting with '{}'; {} CPU threads; ffmpeg {}; median of {}",
        clip.display(),
        info.width,
        info.height,
        info.frames,
        info.rate.fps(),
        info.pixel_format,
        args.sort,
        std::thread::available_parallelism().map_or(1, |n| n.get()),
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
        let report = crate::video::sort_clip(settings, clip, true)?;
        adapter = report.adapter;
        setups.push(report.setup);
        stages.push((report.elapsed, report.stages));
        Ok(report.elapsed)
    }))?;
    let transcoded = dir.path().join("transcoded.mp4");
    let transcode = median(Box::new(|| transcode_alone(&ffmpeg, clip, &transcoded)))?;
    let mut whole_stages = Vec::new();
    let whole = median(Box::new(|| {
        let report = crate::video::sort_clip(settings, clip, false)?;
        setups.push(report.setup);
        whole_stages.push((report.elapsed, report.stages));
        Ok(report.elapsed)
    }))?;
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
    println!("| run | seconds | frames/s | ratio |");
    println!("| --- | ---: | ---: | ---: |");
    println!("| ffmpeg decode to RGBA | {:.3} | {:.1} | |", decode.as_secs_f64(), fps(decode));
    println!("| ffmpeg decode to 4:2:0 | {:.3} | {:.1} | |", decode_420.as_secs_f64(), fps(decode_420));
    println!(
        "| decode + sort + read back (null sink) | {:.3} | {:.1} | {:.2}x decode (goal >= 0.8) |",
        sort.as_secs_f64(),
        fps(sort),
        fps(sort) / fps(decode)
    );
    println!(
        "| ffmpeg transcode, libx264 crf {H264_CRF} medium | {:.3} | {:.1} | |",
        transcode.as_secs_f64(),
        fps(transcode)
    );
    println!(
        "| whole run to .mp4 | {:.3} | {:.1} | {:.2}x transcode (goal >= 0.9) |",
        whole.as_secs_f64(),
        fps(whole),
        fps(whole) / fps(transcode)
    );
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
    command.args([
        "-map",
        "0:v:0",
        "-fps_mode",
        "passthrough",
        "-f",
        "rawvideo",
        "-pix_fmt",
        pixel_format,
        "pipe:1",
    ]);
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

/// ffmpeg transcoding the clip's video to H.264 with the settings a sorted .mp4 gets.
fn transcode_alone(ffmpeg: &Ffmpeg, clip: &Path, out: &Path) -> anyhow::Result<Duration> {
    let started = Instant::now();
    let mut command =
        ffmpeg.command(["-v".into(), "error".into(), "-y".into(), "-i".into(), clip.as_os_str().to_owned()]);
    command.args(["-map", "0:v:0", "-c:v", "libx264", "-preset", "medium", "-crf", &H264_CRF.to_string()]);
    command.args(["-pix_fmt", "yuv420p", "-movflags", "+faststart"]).arg(out);
    let status = ffmpeg.output(&mut command)?.status;
    anyhow::ensure!(status.success(), "ffmpeg could not transcode '{}'", clip.display());
    Ok(started.elapsed())
}
