//! The headless front end: sort a picture on the GPU and write the state as PNG (`--out`),
//! record the sort (`--record`: GIF, animated PNG or PNG frames), or both; within intervals
//! when asked, and a threshold sweep (`--record --sweep`).
#![cfg(not(target_arch = "wasm32"))]

use crate::algorithms::SortRun;
use crate::angle::Lines;
use crate::engine::drive::run_to;
use crate::gpu::readback::read_texture;
use crate::interrupt;
use crate::intervals::threshold::ThresholdSweep;
use crate::intervals::{IntervalMap, IntervalSettings, Mask};
use crate::media::Sorter;
use crate::picture::input::{Picture, SizeLimit};
use crate::picture::output::{OutputFile, OutputFormat};
use crate::progress::Progress;
use crate::record::{RecordFormat, RecordReport, RecordTarget, SweepReport, record, record_sweep};
use crate::settings::Settings;
use anyhow::Context;
use image::RgbaImage;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

mod long_run;
use long_run::LongRunNote;
pub mod batch;
pub mod clips;
mod opening;

/// What a headless sort did, for the closing message.
#[derive(Debug)]
pub struct SortReport {
    /// Where the picture went.
    pub path: PathBuf,
    /// Picture size.
    pub size: (u32, u32),
    /// Steps run on the GPU.
    pub steps_run: u32,
    /// Steps the user asked for (all, if none were given).
    pub steps_asked: u32,
    /// What a step is: "passes", "dispatches", "steps of 2 phases".
    pub steps_label: String,
    /// After how many passes the picture was known sorted, if it was.
    pub sorted_after: Option<u32>,
    /// Swaps (pixels moved, for the radix view) over all steps run.
    pub total_swaps: u64,
    /// What `total_swaps` counts: "swaps" or "pixels moved".
    pub moves_name: &'static str,
    /// What the counted steps cost on the GPU ([`crate::algorithms::work`]).
    pub work: crate::algorithms::work::Work,
    /// The intervals sorted within, if not whole lines.
    pub intervals: Option<crate::intervals::IntervalSummary>,
    /// Wall time of the passes (GPU work and counter reads).
    pub elapsed: Duration,
    /// The adapter used.
    pub adapter: String,
}

/// Where the recording goes when `--record` names no path: `gifs/<image>-<algorithm>-<key>.gif`,
/// with `-angle<degrees>` for any direction but rows, then `-<intervals>` within intervals
/// (`-sweep` for a sweep, `-mask` for a mask alone), before `.gif`.
pub fn default_record_path(settings: &Settings, picture: &Picture) -> PathBuf {
    let intervals = if settings.sweep.is_some() {
        "-sweep".to_string()
    } else {
        crate::intervals::file_suffix(settings.intervals.mode, settings.mask.is_some())
    };
    Path::new("gifs").join(format!(
        "{}-{}-{}{}{intervals}.gif",
        picture.name,
        settings.algorithm.name(),
        settings.options.key.name(),
        settings.route().file_suffix()
    ))
}

/// Runs every headless output the settings ask for, printing a line for each.
pub fn run(settings: &Settings) -> anyhow::Result<()> {
    let opening = opening::Opening::start(settings.algorithm, false)?;
    let picture = settings.picture()?;
    if let Some(note) = &picture.note {
        eprintln!("{note}");
    }
    let mask = settings.mask.as_deref().map(Mask::load).transpose()?;
    if let Some(mask) = &mask {
        mask.check_size(&picture.label, picture.pixels.dimensions())?;
    }
    // Check every output path before any work, so a bad one fails at once.
    let record_target = match &settings.record_to {
        Some(path) => {
            let path = path.clone().unwrap_or_else(|| default_record_path(settings, &picture));
            if settings.record_to == Some(None) {
                std::fs::create_dir_all(path.parent().expect("default path has a folder"))
                    .with_context(|| format!("cannot create the folder for '{}'", path.display()))?;
            }
            Some(RecordTarget::prepare(&path)?)
        }
        None => None,
    };
    let png_target =
        settings.out.as_deref().map(|p| OutputFile::prepare(p, OutputFormat::Png)).transpose()?;
    let early = opening::EarlyIntervals::find(settings, &picture.pixels, mask.as_ref());
    let engine = opening.wait()?;
    let gpu = engine.gpu();
    let limit = SizeLimit::new(
        gpu.device.limits().max_texture_dimension_2d,
        settings.max_size,
        !settings.no_downscale,
    );
    let (picture, notice) = picture.fit(&limit)?;
    if let Some(notice) = notice {
        eprintln!("{notice}");
    }
    // A downscaled picture takes its mask along, the same size.
    let (width, height) = picture.pixels.dimensions();
    let mask = mask.map(|m| if m.dimensions() == (width, height) { m } else { m.resized(width, height) });
    let max_side = gpu.device.limits().max_texture_dimension_2d;
    let (lines, early_intervals) = match early.and_then(|e| e.take((width, height), max_side)) {
        Some((lines, intervals)) => (lines, Some(intervals)),
        None => (Lines::of(settings.route(), (width, height), max_side)?, None),
    };
    let sorter = Sorter::new(&engine, settings, lines);
    if let Some(sweep) = settings.sweep {
        let target = record_target.expect("--sweep comes with --record");
        let report = record_threshold_sweep(&sorter, &picture.pixels, mask.as_ref(), sweep, target)?;
        println!("{report}");
        if report.format == RecordFormat::Frames {
            println!("{}", video_hint(&report.path, settings.record.fps));
        }
        gpu.save_pipeline_cache();
        return Ok(());
    }
    let intervals = match early_intervals {
        Some(intervals) => sorter.checked(intervals?)?,
        None => sorter.interval_map(&picture.pixels, mask.as_ref())?,
    };
    if let Some(target) = record_target {
        let report = record_sort(&sorter, &picture.pixels, intervals.as_ref(), target)?;
        println!("{report}");
        if report.recorded.format == RecordFormat::Frames {
            println!("{}", video_hint(&report.path, settings.record.fps));
        }
    }
    if let Some(target) = png_target {
        let report = sort_to_png(&sorter, &picture, intervals.as_ref(), target)?;
        println!("{report}");
    }
    // Every pipeline the run needed is built by now.
    gpu.save_pipeline_cache();
    // The process ends after this run: releasing the device and everything on it would only
    // keep it waiting on the driver (BENCHMARKS.md, stills).
    std::mem::forget(sorter);
    std::mem::forget(engine);
    Ok(())
}

/// Starts the chosen algorithm on `picture` along the lines within `intervals` (checked by
/// [`Sorter::interval_map`]), printing its notice.
fn start_run(
    sorter: &Sorter<'_>,
    picture: &RgbaImage,
    settings: crate::algorithms::RunSettings,
    intervals: Option<&IntervalMap>,
) -> Box<dyn SortRun> {
    let (run, notice) = sorter.start(picture, settings, intervals);
    if let Some(notice) = notice {
        eprintln!("note: {notice}");
    }
    run
}

fn record_threshold_sweep(
    sorter: &Sorter<'_>,
    picture: &RgbaImage,
    mask: Option<&Mask>,
    sweep: ThresholdSweep,
    target: RecordTarget,
) -> anyhow::Result<SweepReport> {
    let mut bar = Progress::new("sweeping", "frames");
    bar.set_total(u64::from(sweep.frames));
    let (gpu, s) = (sorter.gpu, sorter.settings);
    let settings = s.unwatched_run();
    sorter.lines.check(s.algorithm, s.options, &settings, None)?;
    let start = |indexed: &RgbaImage| start_run(sorter, indexed, settings, None);
    let base = IntervalSettings { mode: crate::intervals::IntervalMode::Threshold, ..s.intervals };
    // Each frame's map is made when its frame is due.
    let frame_intervals = (0..sweep.frames).map(|k| {
        let settings = IntervalSettings { threshold: sweep.threshold(k), ..base };
        let intervals =
            sorter.lines.intervals(picture, &settings, mask).expect("the mask was checked and resized");
        intervals.expect("a threshold makes intervals")
    });
    let report =
        record_sweep(gpu, picture, start, frame_intervals, &s.record, target, frame_progress(&mut bar));
    bar.finish();
    Ok(report?)
}

/// A recording's progress callback: `bar` follows (frames done, frames expected), and Ctrl-C
/// stops the recording.
fn frame_progress(bar: &mut Progress) -> impl FnMut(u32, u32) -> bool + '_ {
    move |done, most| {
        bar.set_total(u64::from(most));
        bar.set_done(u64::from(done));
        interrupt::check().is_ok()
    }
}

fn record_sort(
    sorter: &Sorter<'_>,
    picture: &RgbaImage,
    intervals: Option<&IntervalMap>,
    target: RecordTarget,
) -> anyhow::Result<RecordReport> {
    let (gpu, s) = (sorter.gpu, sorter.settings);
    let mut bar = Progress::new("recording", "frames");
    let settings = target.format().run_settings(s.run, s.algorithm);
    let start = |first: &RgbaImage| start_run(sorter, first, settings, intervals);
    let report = match target {
        RecordTarget::Video(output) => {
            let sound = s.record.sound.then(|| crate::media::recording::SoundSpec {
                line: crate::sound::line::SoundLine::of(&sorter.lines, picture.dimensions(), s.lens),
                key: s.options.key,
            });
            let video = crate::media::recording::VideoRecording {
                settings: &s.record,
                encode: &s.video.encode,
                ffmpeg: s.video.ffmpeg.as_deref(),
                output,
                sound,
            };
            video.record(gpu, picture, start, frame_progress(&mut bar))?
        }
        target => record(gpu, picture, start, &s.record, target, frame_progress(&mut bar))?,
    };
    bar.finish();
    Ok(report)
}

fn sort_to_png(
    sorter: &Sorter<'_>,
    picture: &Picture,
    intervals: Option<&IntervalMap>,
    target: OutputFile,
) -> anyhow::Result<SortReport> {
    let (gpu, s) = (sorter.gpu, sorter.settings);
    // Without --steps nobody watches the steps: the bubble sort then runs as one dispatch.
    let settings = if s.steps.is_none() { s.unwatched_run() } else { s.run };
    let start_from = Instant::now();
    let mut run = start_run(sorter, &picture.pixels, settings, intervals);
    log::debug!("run started (picture uploaded) in {:.1} ms", start_from.elapsed().as_secs_f64() * 1e3);
    let steps_asked = s.steps.unwrap_or(run.total_steps()).min(run.total_steps());
    let mut bar = Progress::new("sorting", "steps");
    bar.set_total(u64::from(steps_asked));
    let started = Instant::now();
    let mut long_run = LongRunNote::new(s.algorithm, s.options.key, steps_asked);
    run_to(gpu, run.as_mut(), steps_asked, |done| {
        bar.set_done(u64::from(done));
        if let Some(note) = long_run.check(done, started.elapsed()) {
            bar.note(&note);
        }
        interrupt::check().is_ok()
    })
    .context("sorting on the GPU failed")?;
    interrupt::check()?;
    let elapsed = started.elapsed();
    bar.finish();
    let read_from = Instant::now();
    let state =
        read_texture(gpu, run.state()).context("reading the sorted picture back from the GPU failed")?;
    let write_from = Instant::now();
    let path = target.write_png_with(&state, picture.has_alpha, s.png_compression)?;
    log::debug!(
        "sorted in {:.1} ms, read back in {:.1} ms, the PNG written in {:.1} ms",
        elapsed.as_secs_f64() * 1e3,
        (write_from - read_from).as_secs_f64() * 1e3,
        write_from.elapsed().as_secs_f64() * 1e3
    );
    let stats = run.stats();
    Ok(SortReport {
        path,
        size: state.dimensions(),
        steps_run: run.steps_done(),
        steps_asked,
        steps_label: s.algorithm.steps_label(&settings),
        sorted_after: stats.sorted_after,
        total_swaps: stats.total_swaps,
        moves_name: s.algorithm.moves_name(),
        work: stats.total_work,
        intervals: intervals.map(|r| sorter.lines.summary(r)),
        elapsed,
        adapter: gpu.describe(),
    })
}

impl std::fmt::Display for SortReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (w, h) = self.size;
        write!(
            f,
            "{w}x{h}: ran {} of {} {} in {:.2} s on {}, {} {}; ",
            self.steps_run,
            self.steps_asked,
            self.steps_label,
            self.elapsed.as_secs_f64(),
            self.adapter,
            self.total_swaps,
            self.moves_name
        )?;
        if let Some(intervals) = &self.intervals {
            write!(f, "within {intervals}; ")?;
        }
        let unit = &self.steps_label;
        match self.sorted_after {
            Some(k) if k < self.steps_run && unit == "passes" => {
                write!(f, "sorted after {k} passes (passes {} and {} made no swap)", k + 1, k + 2)?
            }
            Some(k) => write!(f, "sorted after {k} {unit}")?,
            None => write!(f, "not sorted yet")?,
        }
        write!(f, "; wrote {}", self.path.display())?;
        write!(f, "\nthe GPU's work: {}", crate::controls::work_text::describe(&self.work, self.moves_name))
    }
}

/// "256 exact GIF colours", "exact RGBA", "encoded by ffmpeg": how a recording holds its colours.
fn colours_words(palette: Option<crate::record::PaletteUse>, format: RecordFormat) -> String {
    match (palette, format) {
        (Some(p), _) => format!("{} {} GIF colours", p.colours, if p.exact { "exact" } else { "quantized" }),
        (None, RecordFormat::Video) => "encoded by ffmpeg".into(),
        (None, _) => "exact RGBA".into(),
    }
}

/// The one line that turns a folder of frames into a video (sides padded to even, as H.264 in
/// 4:2:0 needs).
pub fn video_hint(dir: &Path, fps: u32) -> String {
    let name = dir.file_name().map_or("frames".into(), |n| n.to_string_lossy().into_owned());
    let video = dir.with_file_name(format!("{name}.mp4"));
    format!(
        "to make a video: ffmpeg -framerate {fps} -i '{}' -vf 'pad=ceil(iw/2)*2:ceil(ih/2)*2' -c:v libx264 -pix_fmt yuv420p -crf 18 '{}'",
        dir.join(crate::record::png_frames::FRAME_PATTERN).display(),
        video.display()
    )
}

impl std::fmt::Display for SweepReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "recorded {} frames of the threshold sweep, each sorted to the end ({} steps in all; {}), {}, {} bytes: {}",
            self.frames,
            self.steps_run,
            colours_words(self.palette, self.format),
            self.format.describe(),
            self.bytes,
            self.path.display()
        )
    }
}

impl std::fmt::Display for RecordReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "recorded {} frames ({} steps, every {}; {}), {}, {} bytes: {}",
            self.recorded.frames,
            self.recorded.steps_run,
            self.recorded.every,
            colours_words(self.recorded.palette, self.recorded.format),
            self.recorded.format.describe(),
            self.bytes,
            self.path.display()
        )
    }
}
