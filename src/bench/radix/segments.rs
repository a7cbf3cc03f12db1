//! `shadersort bench segments`: the segmented sort of `crates/wgpu-radix-sort` on matrices of
//! u32 keys (and u32 values) sorted along their rows, from GPU timestamps: by the path the
//! sorter picks for the row length, and through the device-wide sort, which every length can
//! take, beside it. `benchmarks/torch_segments.py` measures `torch.sort` on the same shapes.

use super::rows::{Bench, verify_segments};
use crate::bench::{median, parse_size, warm_up};
use crate::gpu::Gpu;
use crate::gpu::timing::GpuTimer;
use anyhow::Context;
use std::time::Duration;
use wgpu_radix_sort::distribution::Distribution;
use wgpu_radix_sort::{RadixSorter, SegmentedSorter, SortJob};

/// What to measure.
#[derive(Clone, Debug, clap::Args)]
pub struct SegmentBenchArgs {
    /// Matrices as ROWSxCOLUMNS, comma separated: each row of COLUMNS keys is a segment.
    #[arg(long, value_delimiter = ',', default_value = "1080x1920,2160x3840,65536x64,16x262144")]
    pub matrices: Vec<String>,
    /// Timed runs per measurement (the median is reported), after a warm-up.
    #[arg(long, default_value_t = 50)]
    pub runs: u32,
    /// Sort only the low N bits of each key (1 to 32).
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u32).range(1..=32))]
    pub key_bits: u32,
}

/// Runs the benchmark and prints a table.
pub fn run(args: &SegmentBenchArgs) -> anyhow::Result<()> {
    let matrices = args.matrices.iter().map(|m| matrix(m)).collect::<anyhow::Result<Vec<_>>>()?;
    let gpu = Gpu::headless()?;
    let timer = GpuTimer::new(&gpu).context(
        "this adapter has no timestamp queries between passes (GL has none); use a Vulkan, Metal or DX12 GPU",
    )?;
    let chosen = SegmentedSorter::new(&gpu.device)?;
    let device_wide = SegmentedSorter::with_workgroup_len(&gpu.device, RadixSorter::new(&gpu.device), 1)?;
    println!("GPU: {}", gpu.describe());
    println!(
        "segmented sort of uniform u32 keys along each row, the low {} bits; median of {} runs after a warm-up; \
         workgroup memory takes rows up to {} keys ({} with values)",
        args.key_bits,
        args.runs,
        chosen.workgroup_len(false),
        chosen.workgroup_len(true)
    );
    let mut first = true;
    println!("| matrix | path | keys only, ms | G keys/s | pairs, ms | G pairs/s |");
    println!("| --- | --- | ---: | ---: | ---: | ---: |");
    for (matrix, (rows, columns)) in args.matrices.iter().zip(matrices) {
        let len = rows * columns;
        let keys = Distribution::Uniform.keys(len as usize, 2026 + u64::from(columns));
        let bench = Bench::new(&gpu, &keys).with_key_bits(args.key_bits);
        let chosen_name = format!(
            "chosen (keys {}, pairs {})",
            path_name(&chosen, columns, false),
            path_name(&chosen, columns, true)
        );
        for (name, sorter) in [(chosen_name.as_str(), &chosen), ("device-wide", &device_wide)] {
            let scratch = sorter.scratch(&gpu.device, len, columns, true)?;
            let mut cells = Vec::new();
            for pairs in [false, true] {
                let time = || {
                    bench.time_with(&gpu, &timer, pairs, |encoder, job| {
                        Ok(sorter.record(&gpu.device, encoder, job, columns, &scratch)?)
                    })
                };
                if first {
                    // Short sorts, each waited for, leave the GPU idle between them and its
                    // clocks low: the first row measured twice as slow as the same row later.
                    keep_busy(&gpu, BUSY_SECONDS, |encoder| {
                        let job = SortJob::pairs(&bench.keys, &bench.values, len);
                        Ok(sorter.record(&gpu.device, encoder, &job, columns, &scratch)?)
                    })?;
                    first = false;
                }
                warm_up(|| time().map(|_| ()))?;
                let samples = (0..args.runs).map(|_| time()).collect::<anyhow::Result<Vec<Duration>>>()?;
                verify_segments(&gpu, &bench, &keys, pairs, columns as usize)?;
                let ms = median(samples).as_secs_f64() * 1e3;
                eprintln!("{matrix} {name} {}: {ms:.3} ms", if pairs { "pairs" } else { "keys" });
                cells.push(format!("{ms:.3} | {:.2}", f64::from(len) / ms / 1e6));
            }
            println!("| {matrix} | {name} | {} | {} |", cells[0], cells[1]);
        }
    }
    Ok(())
}

/// The rows and columns of a matrix written ROWSxCOLUMNS, with at least one key and at most
/// 2^32 - 1.
fn matrix(text: &str) -> anyhow::Result<(u32, u32)> {
    let (rows, columns) = parse_size(text)
        .map_err(|_| anyhow::anyhow!("'{text}' is not a matrix like 1080x1920 (ROWSxCOLUMNS)"))?;
    let len =
        rows.checked_mul(columns).with_context(|| format!("the matrix {text} has 2^32 keys or more"))?;
    anyhow::ensure!(len > 0, "the matrix {text} has no keys: give at least one row and one column");
    Ok((rows, columns))
}

/// Seconds the GPU is kept busy before the first measurement.
const BUSY_SECONDS: f64 = 2.0;

/// Submits what `record` records, 100 times to a submission, until `seconds` have passed.
fn keep_busy(
    gpu: &Gpu,
    seconds: f64,
    record: impl Fn(&mut wgpu::CommandEncoder) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let started = std::time::Instant::now();
    while started.elapsed().as_secs_f64() < seconds {
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        for _ in 0..100 {
            record(&mut encoder)?;
        }
        gpu.queue.submit([encoder.finish()]);
        gpu.device.poll(wgpu::PollType::wait_indefinitely())?;
    }
    Ok(())
}

/// The path the sorter takes for rows of `columns` keys, alone or with values.
fn path_name(sorter: &SegmentedSorter, columns: u32, with_values: bool) -> &'static str {
    if columns <= sorter.workgroup_len(with_values) { "workgroup" } else { "device-wide" }
}
