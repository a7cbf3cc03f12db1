//! The `shadersort` binary: parses the command line, runs a front end, reports errors in one line.

use clap::Parser;
use shadersort::cli::{Bench, Cli, Command};
use shadersort::settings::Settings;
use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::Builder::from_env(
        env_logger::Env::default().default_filter_or("warn,wgpu_hal::gles::egl=off"),
    )
    .init();
    let cli = Cli::parse();
    if let Err(message) = cli.check() {
        eprintln!("error: {message}");
        return ExitCode::FAILURE;
    }
    shadersort::interrupt::install();
    let settings = cli.settings();
    let result = if let Some(Command::Bench { which }) = &cli.command {
        match which {
            Bench::Gif(args) => shadersort::bench::gif::run(args),
            Bench::Sorts(args) => shadersort::bench::sorts::run(args),
            Bench::Radix(args) => shadersort::bench::radix::run(args),
            Bench::Pass(args) => shadersort::bench::pass::run(args),
        }
    } else if settings.headless() {
        shadersort::headless::run(&settings)
    } else {
        open_window(settings)
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if interrupted(&e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(130)
        }
        Err(e) => {
            eprintln!("error: {}", format!("{e:#}").replace('\n', " "));
            ExitCode::FAILURE
        }
    }
}

/// The live window on the settings' picture.
fn open_window(settings: Settings) -> anyhow::Result<()> {
    let picture = shadersort::picture::input::Picture::load_or_built_in(settings.image.as_deref())?;
    let mask = match &settings.mask {
        Some(path) => {
            let mask = shadersort::intervals::Mask::load(path)?;
            mask.check_size(&picture.label, picture.pixels.dimensions())?;
            Some((path.clone(), mask))
        }
        None => None,
    };
    shadersort::app::run(shadersort::app::WindowOptions {
        picture,
        options: settings.options,
        angle: settings.direction,
        algorithm: settings.algorithm,
        pass_kind: settings.run.pass_kind,
        phases_per_step: settings.run.phases_per_step,
        radix: settings.run.radix,
        max_size: settings.max_size,
        no_downscale: settings.no_downscale,
        play: settings.play,
        speed: settings.speed,
        lens: settings.lens,
        quit_after: settings.quit_after,
        record: settings.record,
        intervals: settings.intervals,
        mask,
    })
}

/// Whether the error comes from Ctrl-C, however it was wrapped.
fn interrupted(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause.is::<shadersort::interrupt::Interrupted>()
            || matches!(
                cause.downcast_ref::<shadersort::record::RecordError>(),
                Some(shadersort::record::RecordError::Interrupted(_))
            )
    })
}
