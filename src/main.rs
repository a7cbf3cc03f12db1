//! The `shadersort` binary: parses the command line, runs a front end, reports errors in one line.

use clap::Parser;
use shadersort::cli::Cli;
use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::Builder::from_env(
        env_logger::Env::default().default_filter_or("warn,wgpu_hal::gles::egl=off"),
    )
    .init();
    let cli = Cli::parse();
    let result = match &cli.out {
        Some(out) => shadersort::headless::sort_to_png(&cli, out).map(|report| println!("{report}")),
        None => Err(anyhow::anyhow!(
            "the live window is not available yet; sort headless with --out PATH (for example: shadersort --out sorted.png)"
        )),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", format!("{e:#}").replace('\n', " "));
            ExitCode::FAILURE
        }
    }
}
