//! The headless front end: sort a picture on the GPU and write the state as PNG.

use crate::algorithms::odd_even::OddEven;
use crate::algorithms::{Algorithm, SortRun, run_until};
use crate::cli::Cli;
use crate::gpu::Gpu;
use crate::image_input::{Picture, SizeLimit};
use crate::output::PngTarget;
use crate::readback::read_texture;
use anyhow::Context;
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
    /// Passes run on the GPU.
    pub passes_run: u32,
    /// Passes the user asked for (all, if none were given).
    pub passes_asked: u32,
    /// After how many passes the picture was known sorted, if it was.
    pub sorted_after: Option<u32>,
    /// Swaps over all passes run.
    pub total_swaps: u64,
    /// Wall time of the passes (GPU work and counter reads).
    pub elapsed: Duration,
    /// The adapter used.
    pub adapter: String,
}

/// Sorts as the command line says and writes `out`.
pub fn sort_to_png(cli: &Cli, out: &Path) -> anyhow::Result<SortReport> {
    let picture = Picture::load_or_built_in(cli.image.as_deref())?;
    let target = PngTarget::prepare(out)?;
    let gpu = Gpu::headless()?;
    let device_max = gpu.device.limits().max_texture_dimension_2d;
    let limit = SizeLimit::new(device_max, cli.max_size, !cli.no_downscale);
    let (picture, notice) = picture.fit(&limit)?;
    if let Some(notice) = notice {
        eprintln!("{notice}");
    }
    let options = cli.sort_options();
    let mut run: Box<dyn SortRun> = match cli.algorithm {
        Algorithm::OddEven => {
            Box::new(OddEven::new(&gpu).start(&gpu, &picture.pixels, options, cli.pass_kind))
        }
    };
    let passes_asked = cli.passes.unwrap_or(run.total_steps()).min(run.total_steps());
    let progress = progress_bar(u64::from(passes_asked));
    let started = Instant::now();
    run_until(&gpu, run.as_mut(), passes_asked, |done| progress.set_position(u64::from(done)))
        .context("sorting on the GPU failed")?;
    let elapsed = started.elapsed();
    progress.finish_and_clear();
    let state =
        read_texture(&gpu, run.state()).context("reading the sorted picture back from the GPU failed")?;
    let path = target.commit(&state, picture.has_alpha)?;
    let stats = run.stats();
    Ok(SortReport {
        path,
        size: state.dimensions(),
        passes_run: run.steps_done(),
        passes_asked,
        sorted_after: stats.sorted_after,
        total_swaps: stats.total_swaps,
        elapsed,
        adapter: gpu.describe(),
    })
}

fn progress_bar(len: u64) -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len);
    bar.set_style(
        indicatif::ProgressStyle::with_template("sorting {bar:40} {pos}/{len} passes {elapsed}")
            .expect("valid template"),
    );
    bar
}

impl std::fmt::Display for SortReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (w, h) = self.size;
        write!(
            f,
            "{w}x{h}: ran {} of {} passes in {:.2} s on {}, {} swaps; ",
            self.passes_run,
            self.passes_asked,
            self.elapsed.as_secs_f64(),
            self.adapter,
            self.total_swaps
        )?;
        match self.sorted_after {
            Some(k) if k < self.passes_run => {
                write!(f, "sorted after {k} passes (passes {} and {} made no swap)", k + 1, k + 2)?
            }
            Some(k) => write!(f, "sorted after {k} passes")?,
            None => write!(f, "not sorted yet")?,
        }
        write!(f, "; wrote {}", self.path.display())
    }
}
