//! The headless front end: sort a picture on the GPU and write the state as PNG (`--out`),
//! record the sort as a GIF (`--record`), or both.

use crate::algorithms::{Pipelines, run_until};
use crate::cli::Cli;
use crate::gpu::Gpu;
use crate::image_input::{Picture, SizeLimit};
use crate::interrupt;
use crate::output::{OutputFile, OutputFormat};
use crate::readback::read_texture;
use crate::record::{RecordReport, record_gif};
use anyhow::Context;
use image::RgbaImage;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

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
    /// Wall time of the passes (GPU work and counter reads).
    pub elapsed: Duration,
    /// The adapter used.
    pub adapter: String,
}

/// Where the recording goes when `--record` names no path: `gifs/<image>-<algorithm>-<key>.gif`.
pub fn default_record_path(cli: &Cli, picture: &Picture) -> PathBuf {
    Path::new("gifs").join(format!("{}-{}-{}.gif", picture.name, cli.algorithm.name(), cli.key.name()))
}

/// Runs every headless output the command line asks for, printing a line for each.
pub fn run(cli: &Cli) -> anyhow::Result<()> {
    let picture = Picture::load_or_built_in(cli.image.as_deref())?;
    // Check every output path before any work, so a bad one fails at once.
    let gif_target = match &cli.record {
        Some(path) => {
            let path = path.clone().unwrap_or_else(|| default_record_path(cli, &picture));
            if cli.record == Some(None) {
                std::fs::create_dir_all(path.parent().expect("default path has a folder"))
                    .with_context(|| format!("cannot create the folder for '{}'", path.display()))?;
            }
            Some(OutputFile::prepare(&path, OutputFormat::Gif)?)
        }
        None => None,
    };
    let png_target = cli.out.as_deref().map(|p| OutputFile::prepare(p, OutputFormat::Png)).transpose()?;
    let gpu = Gpu::headless()?;
    let limit = SizeLimit::new(gpu.device.limits().max_texture_dimension_2d, cli.max_size, !cli.no_downscale);
    let (picture, notice) = picture.fit(&limit)?;
    if let Some(notice) = notice {
        eprintln!("{notice}");
    }
    let pipelines = Pipelines::new(&gpu, cli.algorithm);
    if let Some(target) = gif_target {
        let report = record(&gpu, cli, &pipelines, &picture.pixels, target)?;
        println!("{report}");
    }
    if let Some(target) = png_target {
        let report = sort_to_png(&gpu, cli, &pipelines, &picture, target)?;
        println!("{report}");
    }
    Ok(())
}

fn record(
    gpu: &Gpu,
    cli: &Cli,
    pipelines: &Pipelines,
    picture: &RgbaImage,
    target: OutputFile,
) -> anyhow::Result<RecordReport> {
    let bar = progress_bar("recording {bar:40} {pos}/{len} frames {elapsed}");
    let start = |indexed: &RgbaImage| {
        let settings = cli.run_settings().for_recording(cli.algorithm);
        let run = pipelines.start(gpu, indexed, cli.sort_options(), settings);
        if let Some(notice) = run.notice() {
            eprintln!("note: {notice}");
        }
        run
    };
    let report = record_gif(gpu, picture, start, &cli.record_settings(), target, |done, most| {
        bar.set_length(u64::from(most));
        bar.set_position(u64::from(done));
        interrupt::check().is_ok()
    });
    bar.finish_and_clear();
    Ok(report?)
}

fn sort_to_png(
    gpu: &Gpu,
    cli: &Cli,
    pipelines: &Pipelines,
    picture: &Picture,
    target: OutputFile,
) -> anyhow::Result<SortReport> {
    // Without --passes nobody watches the steps: the bubble sort then runs as one dispatch.
    let mut settings = cli.run_settings();
    if cli.passes.is_none() && cli.phases_per_step.is_none() {
        settings.phases_per_step = u32::MAX;
    }
    let mut run = pipelines.start(gpu, &picture.pixels, cli.sort_options(), settings);
    if let Some(notice) = run.notice() {
        eprintln!("note: {notice}");
    }
    let steps_asked = cli.passes.unwrap_or(run.total_steps()).min(run.total_steps());
    let bar = progress_bar("sorting {bar:40} {pos}/{len} steps {elapsed}");
    bar.set_length(u64::from(steps_asked));
    let started = Instant::now();
    run_until(gpu, run.as_mut(), steps_asked, |done| {
        bar.set_position(u64::from(done));
        interrupt::check().is_ok()
    })
    .context("sorting on the GPU failed")?;
    interrupt::check()?;
    let elapsed = started.elapsed();
    bar.finish_and_clear();
    let state =
        read_texture(gpu, run.state()).context("reading the sorted picture back from the GPU failed")?;
    let path = target.write_png(&state, picture.has_alpha)?;
    let stats = run.stats();
    Ok(SortReport {
        path,
        size: state.dimensions(),
        steps_run: run.steps_done(),
        steps_asked,
        steps_label: cli.algorithm.steps_label(&settings),
        sorted_after: stats.sorted_after,
        total_swaps: stats.total_swaps,
        moves_name: cli.algorithm.moves_name(),
        elapsed,
        adapter: gpu.describe(),
    })
}

/// A progress bar on a terminal, nothing otherwise.
fn progress_bar(template: &str) -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(0);
    bar.set_style(indicatif::ProgressStyle::with_template(template).expect("valid template"));
    bar
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
        let unit = &self.steps_label;
        match self.sorted_after {
            Some(k) if k < self.steps_run && unit == "passes" => {
                write!(f, "sorted after {k} passes (passes {} and {} made no swap)", k + 1, k + 2)?
            }
            Some(k) => write!(f, "sorted after {k} {unit}")?,
            None => write!(f, "not sorted yet")?,
        }
        write!(f, "; wrote {}", self.path.display())
    }
}

impl std::fmt::Display for RecordReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let palette = if self.exact { "exact" } else { "quantized" };
        write!(
            f,
            "recorded {} frames ({} steps, every {}; {} {palette} colours), {} bytes: {}",
            self.frames,
            self.passes_run,
            self.every,
            self.colours,
            self.bytes,
            self.path.display()
        )
    }
}
