//! The `shadersort` binary: parses the command line, runs a front end, reports errors in one line.

use clap::Parser;
use shadersort::cli::{Bench, Cli, Command};
use shadersort::settings::Settings;
use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::Builder::from_env(
        env_logger::Env::default().default_filter_or("warn,wgpu_hal::gles::egl=off"),
    )
    // Milliseconds: the debug log is how a run's start-up is timed (BENCHMARKS.md, stills).
    .format_timestamp_millis()
    .init();
    let cli = Cli::parse();
    if let Err(message) = cli.check() {
        eprintln!("error: {message}");
        return ExitCode::FAILURE;
    }
    let settings = cli.settings();
    if cli.command.is_some() || settings.headless() {
        // SAFETY: no thread has started yet (the signal handler's comes next).
        #[allow(unsafe_code, reason = "an environment variable set before any thread; see SAFETY")]
        unsafe {
            shadersort::gpu::context::without_display()
        };
    }
    shadersort::interrupt::install();
    let result = if let Some(Command::Bench { which }) = &cli.command {
        match which {
            Bench::Gif(args) => shadersort::bench::gif::run(args),
            Bench::Sorts(args) => shadersort::bench::sorts::run(args),
            Bench::Radix(args) => shadersort::bench::radix::run(args),
            Bench::Segments(args) => shadersort::bench::radix::segments::run(args),
            Bench::Pass(args) => shadersort::bench::pass::run(args),
            Bench::Png(args) => shadersort::bench::png::run(args),
            Bench::Batch(args) => shadersort::bench::batch::run(args),
            Bench::Video(args) => shadersort::cli::bench_video_settings(args)
                .map_err(anyhow::Error::msg)
                .and_then(|settings| shadersort::bench::video::run(args, &settings)),
        }
    } else if let Some(batch) = &settings.batch {
        shadersort::interrupt::leave_without_teardown(report(shadersort::headless::batch::run(
            &settings, batch,
        )));
    } else if let Some(live) = settings.video.live.as_ref().filter(|_| settings.headless()) {
        shadersort::interrupt::leave_without_teardown(report(shadersort::headless::clips::run_live(
            &settings, live,
        )));
    } else if let Some(clip) = settings.clip().filter(|_| settings.headless()) {
        shadersort::interrupt::leave_without_teardown(report(shadersort::headless::clips::run_clip(
            &settings, clip,
        )));
    } else if settings.headless() {
        shadersort::interrupt::leave_without_teardown(report(shadersort::headless::run(&settings)));
    } else {
        // A window closed by a signal ends as a headless run does; a closed window leaves
        // without the exit handlers too (its state is kept, its recording ended), since the
        // drivers' threads may still be at work and tearing them down under them crashed at
        // exit now and then on GL.
        let closed = open_window(settings).and_then(|()| {
            shadersort::interrupt::check()
                .map_err(|signal| shadersort::interrupt::WindowClosed(signal).into())
        });
        shadersort::interrupt::leave_without_teardown(report(closed));
    };
    ExitCode::from(report(result))
}

/// The exit status of a front end's result, its error (if any) printed in one line: 0, 1, or
/// 128 plus the signal that ended the run.
fn report(result: anyhow::Result<()>) -> u8 {
    let Err(e) = result else { return 0 };
    eprintln!("error: {}", shadersort::progress::error_line(&e));
    interrupted(&e).map_or(1, |signal| signal.exit_code())
}

/// The live window on the settings' picture, or playing its clip.
fn open_window(settings: Settings) -> anyhow::Result<()> {
    use shadersort::app::WindowSource;
    let source = match settings.clip() {
        _ if let Some(live) = &settings.video.live => WindowSource::Live(live.clone()),
        Some(clip) => WindowSource::Clip(shadersort::media::playback::ClipReader::open(
            clip,
            settings.video.ffmpeg.as_deref(),
            settings.video.frame_rate,
        )?),
        None => WindowSource::Picture(settings.picture()?),
    };
    let (label, size) = match &source {
        // A live source's mask is fitted to its frames once they come.
        WindowSource::Live(_) => (String::new(), None),
        WindowSource::Picture(picture) => {
            if let Some(note) = &picture.note {
                eprintln!("{note}");
            }
            (picture.label.clone(), Some(picture.pixels.dimensions()))
        }
        WindowSource::Clip(reader) => {
            (format!("'{}'", reader.path().display()), Some((reader.info().width, reader.info().height)))
        }
    };
    let mask = match &settings.mask {
        Some(path) => {
            let mask = shadersort::intervals::Mask::load(path)?;
            if let Some(size) = size {
                mask.check_size(&label, size)?;
            }
            Some((path.clone(), mask))
        }
        None => None,
    };
    shadersort::app::run(shadersort::app::WindowOptions { source, settings, mask })
}

/// The signal that ended the run, however the error was wrapped.
fn interrupted(e: &anyhow::Error) -> Option<shadersort::interrupt::Interrupted> {
    e.chain().find_map(|cause| {
        let window = cause.downcast_ref::<shadersort::interrupt::WindowClosed>().map(|w| w.0);
        let signal = cause.downcast_ref::<shadersort::interrupt::Interrupted>().copied().or(window);
        signal.or_else(|| match cause.downcast_ref::<shadersort::record::RecordError>() {
            Some(shadersort::record::RecordError::Interrupted(signal)) => Some(*signal),
            _ => None,
        })
    })
}
