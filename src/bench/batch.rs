//! `shadersort bench batch FOLDER`: a folder of pictures sorted in one run (`FOLDER --out DIR/`,
//! timed as a whole process, with its peak memory) against decoding and encoding the same files
//! alone with the same codecs on the same cores (the goal: at least 0.9x), and against one
//! process per file, as a loop in a shell runs them.

use crate::picture::input::Picture;
use crate::picture::output::{OutputFile, PngCompression};
use crate::picture::still_format::{DEFAULT_JPEG_QUALITY, EncodeOptions, StillFormat};
use anyhow::Context;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// What to measure.
#[derive(Clone, Debug, clap::Args)]
pub struct BatchBenchArgs {
    /// The folder of pictures (every picture directly in it).
    pub folder: PathBuf,
    /// Timed runs of the batch and of decoding and encoding alone, taking turns; medians printed.
    #[arg(long, default_value_t = 3)]
    pub runs: usize,
    /// Sort flags for every run, as one string (e.g. "--threshold 0.25..0.75").
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    pub sort: String,
    /// How many of the files the one-process-per-file loop sorts (its time is scaled to them
    /// all; 0 leaves it out).
    #[arg(long, default_value_t = 20)]
    pub per_file: usize,
}

/// Prints the table: each measurement's median seconds, files a second, and its ratio.
pub fn run(args: &BatchBenchArgs) -> anyhow::Result<()> {
    let files = pictures_in(&args.folder)?;
    let bytes: u64 = files.iter().map(|f| std::fs::metadata(f).map_or(0, |m| m.len())).sum();
    let scratch = tempfile::tempdir().context("cannot make a temporary folder for the outputs")?;
    let exe = std::env::current_exe().context("cannot find this program to run it")?;
    let sort: Vec<&str> = args.sort.split_whitespace().collect();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "{} pictures ({:.1} MB) in '{}', {cores} cores, sort flags '{}'",
        files.len(),
        bytes as f64 / 1e6,
        args.folder.display(),
        args.sort
    );
    let batch_out = scratch.path().join("batch");
    let batch = || -> anyhow::Result<(Duration, u64)> {
        let mut command = Command::new(&exe);
        command.arg(&args.folder).arg("--out").arg(format!("{}/", batch_out.display())).arg("--overwrite");
        timed_process(command.args(&sort))
    };
    let alone_out = scratch.path().join("alone");
    std::fs::create_dir_all(&alone_out)?;
    // One warm-up each: the pipeline cache and the files in the page cache.
    batch()?;
    decode_and_encode(&files, &alone_out, cores)?;
    let (mut whole, mut alone, mut peak) = (Vec::new(), Vec::new(), 0);
    for _ in 0..args.runs.max(1) {
        let (took, rss) = batch()?;
        whole.push(took);
        peak = peak.max(rss);
        alone.push(decode_and_encode(&files, &alone_out, cores)?);
    }
    let (whole, alone) = (super::median(whole), super::median(alone));
    let rate = |d: Duration| files.len() as f64 / d.as_secs_f64();
    println!("| run | seconds | files/s | ratio |");
    println!("| --- | ---: | ---: | ---: |");
    println!(
        "| decode + encode alone ({cores} threads, same codecs) | {:.3} | {:.1} | |",
        alone.as_secs_f64(),
        rate(alone)
    );
    println!(
        "| the batch, one process | {:.3} | {:.1} | {:.2}x decode + encode alone (goal >= 0.9); peak memory {:.0} MB |",
        whole.as_secs_f64(),
        rate(whole),
        alone.as_secs_f64() / whole.as_secs_f64(),
        peak as f64 / 1e6
    );
    let sample = args.per_file.min(files.len());
    if sample > 0 {
        let each_out = scratch.path().join("each");
        std::fs::create_dir_all(&each_out)?;
        let started = Instant::now();
        for file in &files[..sample] {
            let out = each_out.join(file.file_name().expect("a file")).with_extension("png");
            timed_process(Command::new(&exe).arg(file).arg("--out").arg(out).args(&sort))?;
        }
        let each = started.elapsed().mul_f64(files.len() as f64 / sample as f64);
        println!(
            "| one process per file ({sample} of them, scaled to all) | {:.3} | {:.1} | the batch is {:.1}x faster |",
            each.as_secs_f64(),
            rate(each),
            each.as_secs_f64() / whole.as_secs_f64()
        );
    }
    Ok(())
}

/// The pictures directly in `folder`, in name order.
fn pictures_in(folder: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let entries = std::fs::read_dir(folder)
        .with_context(|| format!("cannot read the folder '{}'", folder.display()))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let ext = crate::media::encoding::extension(p);
            crate::media::frame_files::FRAME_EXTENSIONS.contains(&ext.as_str())
        })
        .collect();
    files.sort();
    anyhow::ensure!(!files.is_empty(), "'{}' holds no pictures; give a folder of photos", folder.display());
    Ok(files)
}

/// Decodes every file and encodes it as the batch would write it (the input's own format where
/// it is exact, else PNG), into `out`, on `cores` threads taking the files in turn: the batch
/// without its sort. The seconds it took.
fn decode_and_encode(files: &[PathBuf], out: &Path, cores: usize) -> anyhow::Result<Duration> {
    let options = EncodeOptions {
        quality: DEFAULT_JPEG_QUALITY,
        background: [0; 3],
        png: PngCompression::Fast,
        threads: 1,
    };
    let next = AtomicUsize::new(0);
    let started = Instant::now();
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..cores.min(files.len()))
            .map(|_| {
                scope.spawn(|| -> anyhow::Result<()> {
                    while let Some(file) = files.get(next.fetch_add(1, Ordering::Relaxed)) {
                        let bytes = std::fs::read(file)?;
                        let format = StillFormat::exact_format_of(&bytes).unwrap_or(StillFormat::Png);
                        let picture = Picture::decode_file(&bytes, file)?;
                        let target =
                            out.join(file.file_name().expect("a file")).with_extension(format.extension());
                        let encoded = format.encode(&picture.pixels, picture.has_alpha, &options);
                        OutputFile::prepare_any_extension(&target)?.write_encoded(encoded)?;
                    }
                    Ok(())
                })
            })
            .collect();
        workers
            .into_iter()
            .try_for_each(|w| w.join().unwrap_or_else(|_| Err(anyhow::anyhow!("a worker panicked"))))
    })?;
    Ok(started.elapsed())
}

/// Runs `command` to its end, failing with its last error line if it fails: how long it took,
/// and its peak resident memory in bytes (0 where the system does not say).
fn timed_process(command: &mut Command) -> anyhow::Result<(Duration, u64)> {
    let started = Instant::now();
    let child = command
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .context("cannot start shadersort")?;
    let (status, peak) = wait_with_peak(child)?;
    let took = started.elapsed();
    anyhow::ensure!(status.0, "{command:?} failed: {}", status.1);
    Ok((took, peak))
}

/// Waits for `child`: whether it succeeded (with its standard error's last line) and its peak
/// resident memory.
#[cfg(unix)]
fn wait_with_peak(mut child: std::process::Child) -> anyhow::Result<((bool, String), u64)> {
    use std::io::Read;
    let mut stderr = String::new();
    child.stderr.take().expect("piped").read_to_string(&mut stderr)?;
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value for wait4 to fill.
    #[allow(unsafe_code, reason = "wait4 is how a child's peak memory is read; see SAFETY")]
    let (waited, usage) = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        (libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage), usage)
    };
    anyhow::ensure!(waited > 0, "cannot wait for shadersort: {}", std::io::Error::last_os_error());
    let ok = libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0;
    let last = stderr.lines().last().unwrap_or_default().to_string();
    // Linux gives kilobytes.
    Ok(((ok, last), u64::try_from(usage.ru_maxrss).unwrap_or(0) * 1024))
}

/// Waits for `child`: whether it succeeded (with its standard error's last line); no peak.
#[cfg(not(unix))]
fn wait_with_peak(child: std::process::Child) -> anyhow::Result<((bool, String), u64)> {
    let output = child.wait_with_output()?;
    let last = String::from_utf8_lossy(&output.stderr).lines().last().unwrap_or_default().to_string();
    Ok(((output.status.success(), last), 0))
}
