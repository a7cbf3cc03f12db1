//! `shadersort bench radix`: the device-wide radix sort (`src/sort`), keys only and key-value
//! pairs, over lengths and key distributions, from GPU timestamps; prints a table and can
//! write JSON.

use super::median;
use crate::gpu::Gpu;
use crate::readback::read_u32s;
use crate::sort::distribution::Distribution;
use crate::sort::{RadixSorter, SortJob, SortPath, SortScratch, SortStrategy};
use crate::timing::GpuTimer;
use anyhow::{Context, ensure};
use std::path::PathBuf;
use std::time::Duration;
use wgpu::util::DeviceExt;

/// What to measure.
#[derive(Clone, Debug, clap::Args)]
pub struct RadixBenchArgs {
    /// Lengths as powers of two, comma separated.
    #[arg(long, value_delimiter = ',', default_value = "16,18,20,22,24,26")]
    pub log2_sizes: Vec<u32>,
    /// Key distributions, comma separated [default: all].
    #[arg(long, value_delimiter = ',', value_enum)]
    pub distributions: Vec<Distribution>,
    /// Sort paths, comma separated [default: every path this GPU runs].
    #[arg(long, value_delimiter = ',', value_enum)]
    pub paths: Vec<SortPath>,
    /// Strategies, comma separated [default: both].
    #[arg(long, value_delimiter = ',', value_enum)]
    pub strategies: Vec<SortStrategy>,
    /// Timed runs per measurement (the median is reported), after a warm-up (see [`warm_up`]).
    #[arg(long, default_value_t = 20)]
    pub runs: u32,
    /// Instead of the table: GPU time of each kernel (summed over its four passes), uniform keys
    /// only, from a timestamp around every dispatch.
    #[arg(long)]
    pub profile: bool,
    /// Also write the results to this JSON file.
    #[arg(long, value_name = "PATH")]
    pub json: Option<PathBuf>,
}

/// One measured row.
#[derive(Clone, Debug)]
struct Row {
    path: SortPath,
    strategy: SortStrategy,
    len: u32,
    distribution: Distribution,
    pairs: bool,
    time: Duration,
}

impl Row {
    fn rate_g(&self) -> f64 {
        f64::from(self.len) / self.time.as_secs_f64() / 1e9
    }
}

/// The buffers of one measurement: the input kept pristine, and the buffers sorted in place.
struct Bench {
    pristine_keys: wgpu::Buffer,
    pristine_values: wgpu::Buffer,
    keys: wgpu::Buffer,
    values: wgpu::Buffer,
    len: u32,
}

impl Bench {
    fn new(gpu: &Gpu, keys: &[u32]) -> Self {
        let init = |label, contents: &[u32], usage| {
            gpu.device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: bytemuck::cast_slice(contents),
                usage,
            })
        };
        let values: Vec<u32> = (0..keys.len() as u32).collect();
        let work = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC;
        Bench {
            pristine_keys: init("bench::pristine_keys", keys, wgpu::BufferUsages::COPY_SRC),
            pristine_values: init("bench::pristine_values", &values, wgpu::BufferUsages::COPY_SRC),
            keys: init("bench::keys", keys, work),
            values: init("bench::values", &values, work),
            len: keys.len() as u32,
        }
    }

    /// GPU time of one sort from fresh input (the copy back is outside the timed span).
    fn time(
        &self,
        gpu: &Gpu,
        sorter: &RadixSorter,
        scratch: &SortScratch,
        timer: &GpuTimer,
        pairs: bool,
    ) -> anyhow::Result<Duration> {
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        let bytes = u64::from(self.len) * 4;
        encoder.copy_buffer_to_buffer(&self.pristine_keys, 0, &self.keys, 0, bytes);
        encoder.copy_buffer_to_buffer(&self.pristine_values, 0, &self.values, 0, bytes);
        let job = if pairs {
            SortJob::pairs(&self.keys, &self.values, self.len)
        } else {
            SortJob::keys(&self.keys, self.len)
        };
        timer.start(&mut encoder);
        sorter.record(&gpu.device, &mut encoder, &job, scratch)?;
        timer.stop(&mut encoder);
        gpu.queue.submit([encoder.finish()]);
        Ok(Duration::from_secs_f64(timer.read_ms(gpu)? / 1e3))
    }
}

/// Runs the benchmark and prints a table.
pub fn run(args: &RadixBenchArgs) -> anyhow::Result<()> {
    let gpu = Gpu::headless()?;
    let timer = GpuTimer::new(&gpu).context(
        "this adapter has no timestamp queries between passes (GL has none); use a Vulkan, Metal or DX12 GPU",
    )?;
    let paths = if args.paths.is_empty() {
        let mut all = vec![SortPath::Portable];
        all.extend(SortPath::subgroup_size(&gpu.device).map(|_| SortPath::Subgroups));
        all
    } else {
        args.paths.clone()
    };
    let strategies = if args.strategies.is_empty() {
        vec![SortStrategy::ReduceThenScan, SortStrategy::OneSweep]
    } else {
        args.strategies.clone()
    };
    let sorters = paths
        .iter()
        .flat_map(|&path| strategies.iter().map(move |&strategy| (path, strategy)))
        .map(|(path, strategy)| RadixSorter::with_path_and_strategy(&gpu.device, path, strategy))
        .collect::<Result<Vec<_>, _>>()?;
    if args.profile {
        return profile(&gpu, &sorters, &timer, args);
    }
    let distributions =
        if args.distributions.is_empty() { Distribution::ALL.to_vec() } else { args.distributions.clone() };
    println!("GPU: {}", gpu.describe());
    println!(
        "device-wide radix sort, median of {} runs after a warm-up of at least {WARM_UP_RUNS} runs and {WARM_UP_SECONDS} s",
        args.runs
    );
    let mut rows = Vec::new();
    for sorter in &sorters {
        for &log2 in &args.log2_sizes {
            ensure!(log2 <= 31, "2^{log2} keys do not fit a u32 length");
            let len = 1u32 << log2;
            let scratch = sorter.scratch(&gpu.device, len, true)?;
            for &distribution in &distributions {
                let keys = distribution.keys(len as usize, 2026 + u64::from(log2));
                let bench = Bench::new(&gpu, &keys);
                for pairs in [false, true] {
                    warm_up(|| bench.time(&gpu, sorter, &scratch, &timer, pairs).map(|_| ()))?;
                    let mut samples = Vec::new();
                    for _ in 0..args.runs {
                        samples.push(bench.time(&gpu, sorter, &scratch, &timer, pairs)?);
                    }
                    verify(&gpu, &bench, &keys, pairs)?;
                    let row = Row {
                        path: sorter.path(),
                        strategy: sorter.strategy(),
                        len,
                        distribution,
                        pairs,
                        time: median(samples),
                    };
                    eprintln!(
                        "{} {} 2^{log2} {} {}: {:.3} ms",
                        sorter.path().name(),
                        sorter.strategy().name(),
                        distribution.name(),
                        if pairs { "pairs" } else { "keys" },
                        row.time.as_secs_f64() * 1e3
                    );
                    rows.push(row);
                }
            }
        }
    }
    println!("| path | strategy | keys | distribution | keys only, ms | G keys/s | pairs, ms | G pairs/s |");
    println!("| --- | --- | ---: | --- | ---: | ---: | ---: | ---: |");
    for pair in rows.chunks(2) {
        let (k, p) = (&pair[0], &pair[1]);
        println!(
            "| {} | {} | 2^{} | {} | {:.3} | {:.2} | {:.3} | {:.2} |",
            k.path.name(),
            k.strategy.name(),
            k.len.trailing_zeros(),
            k.distribution.name(),
            k.time.as_secs_f64() * 1e3,
            k.rate_g(),
            p.time.as_secs_f64() * 1e3,
            p.rate_g()
        );
    }
    if let Some(path) = &args.json {
        let entries: Vec<String> = rows
            .iter()
            .map(|r| {
                format!(
                    "  {{\"path\": \"{}\", \"strategy\": \"{}\", \"len\": {}, \"distribution\": \"{}\", \"pairs\": {}, \"median_ms\": {:.6}, \"g_per_s\": {:.4}}}",
                    r.path.name(),
                    r.strategy.name(),
                    r.len,
                    r.distribution.name(),
                    r.pairs,
                    r.time.as_secs_f64() * 1e3,
                    r.rate_g()
                )
            })
            .collect();
        let json = format!(
            "{{\"gpu\": \"{}\", \"runs\": {}, \"results\": [\n{}\n]}}\n",
            gpu.describe().replace('"', "'"),
            args.runs,
            entries.join(",\n")
        );
        std::fs::write(path, json).with_context(|| format!("cannot write '{}'", path.display()))?;
    }
    Ok(())
}

/// Warm-up runs before every measurement, at least.
const WARM_UP_RUNS: u32 = 3;
/// Seconds of warm-up before every measurement, at least: the GPU idles while keys are made
/// and results checked on the CPU, and its clocks must climb back before timing starts.
const WARM_UP_SECONDS: f64 = 0.5;

/// Runs `sort` until both warm-up minimums are met.
fn warm_up(mut sort: impl FnMut() -> anyhow::Result<()>) -> anyhow::Result<()> {
    let started = std::time::Instant::now();
    let mut runs = 0;
    while runs < WARM_UP_RUNS || started.elapsed().as_secs_f64() < WARM_UP_SECONDS {
        sort()?;
        runs += 1;
    }
    Ok(())
}

/// Prints each kernel's share of a keys-only sort of uniform keys.
fn profile(
    gpu: &Gpu,
    sorters: &[RadixSorter],
    timer: &GpuTimer,
    args: &RadixBenchArgs,
) -> anyhow::Result<()> {
    let count = 2 * crate::sort::DISPATCHES;
    let queries = gpu.device.create_query_set(&wgpu::QuerySetDescriptor {
        label: Some("bench::profile"),
        ty: wgpu::QueryType::Timestamp,
        count,
    });
    let resolved = gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("bench::profile_resolved"),
        size: u64::from(count) * 8,
        usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let period_ns = f64::from(gpu.queue.get_timestamp_period());
    println!("| path | strategy | keys | kernel | GPU ms (median, all passes) | share |");
    println!("| --- | --- | ---: | --- | ---: | ---: |");
    for sorter in sorters {
        for &log2 in &args.log2_sizes {
            ensure!(log2 <= 31, "2^{log2} keys do not fit a u32 length");
            let len = 1u32 << log2;
            let scratch = sorter.scratch(&gpu.device, len, false)?;
            let bench = Bench::new(gpu, &Distribution::Uniform.keys(len as usize, 2026));
            let mut per_kernel: Vec<(&'static str, Vec<Duration>)> = Vec::new();
            warm_up(|| bench.time(gpu, sorter, &scratch, timer, false).map(|_| ()))?;
            for _ in 0..args.runs {
                let mut encoder = gpu.device.create_command_encoder(&Default::default());
                encoder.copy_buffer_to_buffer(&bench.pristine_keys, 0, &bench.keys, 0, u64::from(len) * 4);
                let kernels = sorter.record_profiled(
                    &gpu.device,
                    &mut encoder,
                    &SortJob::keys(&bench.keys, len),
                    &scratch,
                    &queries,
                )?;
                encoder.resolve_query_set(&queries, 0..count, &resolved, 0);
                gpu.queue.submit([encoder.finish()]);
                let ticks: Vec<u64> = read_u32s(gpu, &resolved, 0, count as usize * 2)?
                    .chunks(2)
                    .map(|w| u64::from(w[0]) | (u64::from(w[1]) << 32))
                    .collect();
                let mut sums: Vec<(&'static str, f64)> = Vec::new();
                for (k, kernel) in kernels.iter().enumerate() {
                    let ns = ticks[2 * k + 1].saturating_sub(ticks[2 * k]) as f64 * period_ns;
                    match sums.iter_mut().find(|(name, _)| name == kernel) {
                        Some((_, total)) => *total += ns,
                        None => sums.push((kernel, ns)),
                    }
                }
                for (kernel, ns) in sums {
                    let sample = Duration::from_secs_f64(ns / 1e9);
                    match per_kernel.iter_mut().find(|(name, _)| *name == kernel) {
                        Some((_, samples)) => samples.push(sample),
                        None => per_kernel.push((kernel, vec![sample])),
                    }
                }
            }
            let medians: Vec<(&str, Duration)> =
                per_kernel.into_iter().map(|(k, s)| (k, median(s))).collect();
            let total: f64 = medians.iter().map(|(_, d)| d.as_secs_f64()).sum();
            for (kernel, time) in &medians {
                println!(
                    "| {} | {} | 2^{log2} | {kernel} | {:.3} | {:.0}% |",
                    sorter.path().name(),
                    sorter.strategy().name(),
                    time.as_secs_f64() * 1e3,
                    time.as_secs_f64() / total * 100.0
                );
            }
        }
    }
    Ok(())
}

/// Checks the last sort against a CPU sort, so a fast wrong answer cannot be reported.
fn verify(gpu: &Gpu, bench: &Bench, keys: &[u32], pairs: bool) -> anyhow::Result<()> {
    let got = read_u32s(gpu, &bench.keys, 0, keys.len())?;
    let mut want = keys.to_vec();
    want.sort_unstable();
    ensure!(got == want, "the GPU sort of {} keys is wrong", keys.len());
    if pairs {
        let values = read_u32s(gpu, &bench.values, 0, keys.len())?;
        let stable = values.iter().zip(&got).all(|(&v, &k)| keys[v as usize] == k)
            && got.windows(2).zip(values.windows(2)).all(|(k, v)| k[0] != k[1] || v[0] < v[1]);
        ensure!(stable, "the GPU sort of {} pairs moved values wrongly or unstably", keys.len());
    }
    Ok(())
}
