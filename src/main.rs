//! The `shadersort` binary: parses the command line, runs a front end, reports errors in one line.

use clap::Parser;
use shadersort::cli::{Bench, Cli, Command};
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
    let result = if let Some(Command::Bench { which }) = &cli.command {
        match which {
            Bench::Gif(args) => shadersort::bench::gif::run(args),
            Bench::Sorts(args) => shadersort::bench::sorts::run(args),
            Bench::Radix(args) => shadersort::bench::radix::run(args),
            Bench::Pass(args) => shadersort::bench::pass::run(args),
        }
    } else if cli.out.is_some() || cli.record.is_some() {
        shadersort::headless::run(&cli)
    } else {
        open_window(&cli)
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

/// The live window on the command line's picture and settings.
fn open_window(cli: &Cli) -> anyhow::Result<()> {
    let picture = shadersort::picture::input::Picture::load_or_built_in(cli.image.as_deref())?;
    let mask = match &cli.mask {
        Some(path) => {
            let mask = shadersort::intervals::Mask::load(path)?;
            mask.check_size(&picture.label, picture.pixels.dimensions())?;
            Some((path.clone(), mask))
        }
        None => None,
    };
    shadersort::app::run(shadersort::app::WindowOptions {
        picture,
        options: cli.sort_options(),
        angle: cli.direction(),
        algorithm: cli.algorithm,
        pass_kind: cli.pass_kind,
        phases_per_step: cli.run_settings().phases_per_step,
        radix: cli.run_settings().radix,
        max_size: cli.max_size,
        no_downscale: cli.no_downscale,
        play: cli.play,
        speed: cli.speed,
        quit_after: cli.quit_after.map(std::time::Duration::from_secs_f64),
        record: cli.record_settings(),
        intervals: cli.interval_settings(),
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
