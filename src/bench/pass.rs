//! `shadersort bench pass`: one odd-even pass over a picture texture (compute, and fragment where
//! the adapter runs it) as effective bytes per second, beside `copy_texture_to_texture` of a
//! texture of the same size and format, timed the same way in the same run; and the same pass
//! within threshold intervals (`--threshold 0.25..0.75`), which prices the interval check.

use super::{WARM_UP_RUNS, WARM_UP_SECONDS, median, parse_size, warm_up};
use crate::algorithms::RunSettings;
use crate::algorithms::SortRun;
use crate::algorithms::odd_even::{OddEven, OddEvenRun, PassKind, fragment_pass_supported};
use crate::algorithms::request::StartRequest;
use crate::engine::drive::Driver;
use crate::gpu::readback::read_texture;
use crate::gpu::texture::{PICTURE_FORMAT, copy_picture, create_picture_texture, picture_texture};
use crate::gpu::timing::GpuTimer;
use crate::gpu::{Gpu, GpuError};
use crate::intervals::{IntervalMap, IntervalMode, IntervalSettings};
use crate::keys::options::SortOptions;
use crate::picture::patterns::random_image;
use crate::reference::odd_even_passes_within;
use anyhow::{Context, ensure};
use image::RgbaImage;
use std::path::PathBuf;
use std::time::Duration;

/// What to measure.
#[derive(Clone, Debug, clap::Args)]
pub struct PassBenchArgs {
    /// Picture sizes, WIDTHxHEIGHT, comma separated (passes run along rows).
    #[arg(long, visible_alias = "size", value_delimiter = ',', default_value = "4096x4096")]
    pub sizes: Vec<String>,
    /// Timed spans per measurement (the median is reported), after a warm-up of at least 3
    /// spans and 0.5 s.
    #[arg(long, default_value_t = 20)]
    pub runs: u32,
    /// Passes (and copies) per timed span; the time reported is the span's divided by this.
    /// 1 times a single pass; more spread the cost of the two timestamps and of the step's
    /// swap-counter clear over several passes, run back to back as the sort runs them.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub batch: u32,
    /// Also write the results to this JSON file.
    #[arg(long, value_name = "PATH")]
    pub json: Option<PathBuf>,
}

/// What one timed span holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Operation {
    Copy,
    Pass(PassKind),
    /// The pass within threshold intervals: a pair swaps only inside one interval.
    PassWithin(PassKind),
}

impl Operation {
    fn name(self) -> &'static str {
        match self {
            Operation::Copy => "copy",
            Operation::Pass(PassKind::Compute) => "odd-even-compute",
            Operation::Pass(PassKind::Fragment) => "odd-even-fragment",
            Operation::PassWithin(PassKind::Compute) => "odd-even-compute-intervals",
            Operation::PassWithin(PassKind::Fragment) => "odd-even-fragment-intervals",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Operation::Copy => "copy_texture_to_texture",
            Operation::Pass(PassKind::Compute) => "odd-even pass, compute",
            Operation::Pass(PassKind::Fragment) => "odd-even pass, fragment",
            Operation::PassWithin(PassKind::Compute) => "odd-even pass within intervals, compute",
            Operation::PassWithin(PassKind::Fragment) => "odd-even pass within intervals, fragment",
        }
    }
}

/// One measured operation on one picture size.
struct Row {
    width: u32,
    height: u32,
    operation: Operation,
    /// Median GPU time of one operation.
    time: Duration,
}

impl Row {
    /// Bytes one operation reads plus bytes it writes: every texel is read once from one
    /// texture and written once into the other (a pass's second load, of the neighbour, hits
    /// the cache; its swap counter is a few bytes).
    fn bytes(&self) -> u64 {
        2 * u64::from(self.width)
            * u64::from(self.height)
            * PICTURE_FORMAT.block_copy_size(None).map_or(4, u64::from)
    }

    fn gb_per_s(&self) -> f64 {
        self.bytes() as f64 / self.time.as_secs_f64() / 1e9
    }
}

/// GPU time of one operation, from one span of `batch` copies of `from` into `to`.
fn time_copies(
    gpu: &Gpu,
    timer: &GpuTimer,
    from: &wgpu::Texture,
    to: &wgpu::Texture,
    batch: u32,
) -> anyhow::Result<Duration> {
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    timer.start(&mut encoder);
    for _ in 0..batch {
        copy_picture(&mut encoder, from, to);
    }
    timer.stop(&mut encoder);
    gpu.queue.submit([encoder.finish()]);
    Ok(Duration::from_secs_f64(timer.read_ms(gpu)? / 1e3 / f64::from(batch)))
}

/// GPU time of one pass, from one span of the first `batch` passes of the sort from its input
/// (the copy of the input back into the first texture is recorded before the span). A step of
/// the sort is a clear of its 4-byte swap counter and the pass; both are inside the span.
pub(super) fn time_passes(
    gpu: &Gpu,
    timer: &GpuTimer,
    run: &mut OddEvenRun,
    driver: &Driver,
    batch: u32,
) -> anyhow::Result<Duration> {
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    run.restart(&mut encoder);
    timer.start(&mut encoder);
    // One span: no more steps than the counters hold, so the driver submits nothing inside it.
    let n = run.ledger().room(batch);
    let recorded = pollster::block_on(driver.advance(gpu, run, &mut encoder, n, |_| Ok::<(), GpuError>(())))?;
    timer.stop(&mut encoder);
    gpu.queue.submit([encoder.finish()]);
    ensure!(recorded == batch, "only {recorded} of {batch} passes could be recorded in one span");
    let ms = timer.read_ms(gpu)?;
    driver.collect(gpu, run)?;
    Ok(Duration::from_secs_f64(ms / 1e3 / f64::from(batch)))
}

/// Warms up, takes `runs` samples of `time` and returns their median.
fn measure(runs: u32, mut time: impl FnMut() -> anyhow::Result<Duration>) -> anyhow::Result<Duration> {
    warm_up(|| time().map(|_| ()))?;
    let samples = (0..runs).map(|_| time()).collect::<anyhow::Result<Vec<_>>>()?;
    Ok(median(samples))
}

/// The copy and each pass kind on one picture, each checked after its last span.
fn measure_size(
    gpu: &Gpu,
    timer: &GpuTimer,
    odd_even: &OddEven,
    picture: &RgbaImage,
    args: &PassBenchArgs,
) -> anyhow::Result<Vec<Row>> {
    let (width, height) = picture.dimensions();
    let mut rows = Vec::new();
    let from = picture_texture(gpu, picture, "bench::pass::copy_source");
    let to = create_picture_texture(gpu, width, height, "bench::pass::copy_target");
    let time = measure(args.runs, || time_copies(gpu, timer, &from, &to, args.batch))?;
    ensure!(read_texture(gpu, &to)? == *picture, "the texture copy of {width}x{height} is wrong");
    rows.push(Row { width, height, operation: Operation::Copy, time });
    let options = SortOptions::default();
    let threshold = IntervalSettings { mode: IntervalMode::Threshold, ..IntervalSettings::default() };
    let intervals = IntervalMap::compute(picture, options.axis, &threshold, None)?;
    let kinds: &[PassKind] = if fragment_pass_supported(gpu) {
        &[PassKind::Compute, PassKind::Fragment]
    } else {
        &[PassKind::Compute]
    };
    for (intervals, operation) in
        [(None, Operation::Pass as fn(PassKind) -> Operation), (Some(&intervals), Operation::PassWithin)]
    {
        let want = odd_even_passes_within(picture, &options, intervals, args.batch);
        for &kind in kinds {
            let settings = RunSettings { pass_kind: kind, ..Default::default() };
            let mut run =
                odd_even.start(gpu, StartRequest::new(picture, options).settings(settings).within(intervals));
            let driver = Driver::new(&run);
            let time = measure(args.runs, || time_passes(gpu, timer, &mut run, &driver, args.batch))?;
            let got = read_texture(gpu, run.state())?;
            ensure!(
                got == want,
                "the {} of {width}x{height} differs from the CPU model after {} passes",
                operation(kind).label(),
                args.batch
            );
            rows.push(Row { width, height, operation: operation(kind), time });
        }
    }
    Ok(rows)
}

/// Runs the benchmark and prints a table.
pub fn run(args: &PassBenchArgs) -> anyhow::Result<()> {
    let sizes = args.sizes.iter().map(|s| parse_size(s)).collect::<anyhow::Result<Vec<_>>>()?;
    for &(width, height) in &sizes {
        ensure!(width > 0 && height > 0, "a {width}x{height} picture has no pixels");
        ensure!(
            args.batch <= width,
            "--batch {} is more than the {width} passes that sort a {width}-pixel row",
            args.batch
        );
    }
    let gpu = Gpu::headless()?;
    let timer = GpuTimer::new(&gpu).context(
        "this adapter has no timestamp queries between passes (GL has none); use a Vulkan, Metal or DX12 GPU",
    )?;
    println!("GPU: {}", gpu.describe());
    println!(
        "one odd-even pass (rows, luma) against copy_texture_to_texture, {PICTURE_FORMAT:?} textures, random pixels; \
         median of {} spans of {} operation(s) each, after a warm-up of at least {WARM_UP_RUNS} spans and {WARM_UP_SECONDS} s",
        args.runs, args.batch
    );
    println!("effective bytes = bytes read + bytes written by one operation = 2 x width x height x 4");
    if !fragment_pass_supported(&gpu) {
        println!(
            "this GPU cannot run the fragment pass (no storage writes from fragment shaders): compute only"
        );
    }
    let odd_even = OddEven::new(&gpu);
    let mut rows = Vec::new();
    for &(width, height) in &sizes {
        let picture = random_image(width, height, 2026);
        for row in measure_size(&gpu, &timer, &odd_even, &picture, args)? {
            eprintln!("{width}x{height} {}: {:.2} us", row.operation.name(), row.time.as_secs_f64() * 1e6);
            rows.push(row);
        }
    }
    gpu.check()?;
    let copy_of = |row: &Row| {
        rows.iter().find(|r| r.operation == Operation::Copy && (r.width, r.height) == (row.width, row.height))
    };
    let vs_copy = |row: &Row| copy_of(row).map(|c| row.gb_per_s() / c.gb_per_s());
    println!("| picture | operation | GPU us (median) | effective GB/s | vs copy |");
    println!("| --- | --- | ---: | ---: | ---: |");
    for row in &rows {
        println!(
            "| {}x{} | {} | {:.2} | {:.1} | {} |",
            row.width,
            row.height,
            row.operation.label(),
            row.time.as_secs_f64() * 1e6,
            row.gb_per_s(),
            vs_copy(row).map_or(String::from("-"), |x| format!("{x:.2}x"))
        );
    }
    if let Some(path) = &args.json {
        let entries: Vec<String> = rows
            .iter()
            .map(|r| {
                format!(
                    "  {{\"width\": {}, \"height\": {}, \"operation\": \"{}\", \"median_us\": {:.3}, \"bytes\": {}, \"gb_per_s\": {:.3}, \"vs_copy\": {}}}",
                    r.width,
                    r.height,
                    r.operation.name(),
                    r.time.as_secs_f64() * 1e6,
                    r.bytes(),
                    r.gb_per_s(),
                    vs_copy(r).map_or(String::from("null"), |x| format!("{x:.4}"))
                )
            })
            .collect();
        let json = format!(
            "{{\"gpu\": \"{}\", \"runs\": {}, \"batch\": {}, \"format\": \"{PICTURE_FORMAT:?}\", \"results\": [\n{}\n]}}\n",
            gpu.describe().replace('"', "'"),
            args.runs,
            args.batch,
            entries.join(",\n")
        );
        std::fs::write(path, json).with_context(|| format!("cannot write '{}'", path.display()))?;
    }
    Ok(())
}
