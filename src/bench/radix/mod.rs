//! `shadersort bench radix`: the device-wide radix sort (`crates/wgpu-radix-sort`), keys only and key-value
//! pairs, over lengths and key distributions, from GPU timestamps; prints a table and can
//! write JSON. With `--peers` (a build with the `peers` feature) other libraries' sorts are
//! measured the same way beside it (`peers`).

#[cfg(feature = "peers")]
mod peers;
mod profile;
mod report;
mod rows;
pub mod segments;

use super::{WARM_UP_RUNS, WARM_UP_SECONDS, median, warm_up};
use crate::gpu::Gpu;
use crate::gpu::timing::GpuTimer;
use wgpu_radix_sort::distribution::Distribution;
use wgpu_radix_sort::{RadixSorter, SortPath, SortStrategy};

/// `--paths`: a path by its name.
fn path_named(name: &str) -> Result<SortPath, String> {
    SortPath::named(name).ok_or_else(|| format!("'{name}' is not a sort path; give portable or subgroups"))
}

/// `--distributions`: a key distribution by its name.
fn distribution_named(name: &str) -> Result<Distribution, String> {
    Distribution::named(name).ok_or_else(|| {
        let names: Vec<&str> = Distribution::ALL.iter().map(|d| d.name()).collect();
        format!("'{name}' is not a key distribution; give one of {}", names.join(", "))
    })
}

/// `--strategies`: a strategy by its name.
fn strategy_named(name: &str) -> Result<SortStrategy, String> {
    SortStrategy::named(name)
        .ok_or_else(|| format!("'{name}' is not a strategy; give reduce-then-scan or onesweep"))
}
use anyhow::{Context, bail, ensure};
use rows::{Bench, Row, progress, verify};
use std::path::PathBuf;

/// What to measure.
#[derive(Clone, Debug, clap::Args)]
pub struct RadixBenchArgs {
    /// Lengths as powers of two, comma separated.
    #[arg(long, value_delimiter = ',', default_value = "16,18,20,22,24,26")]
    pub log2_sizes: Vec<u32>,
    /// Key distributions (uniform, sorted, reversed, few-distinct, narrow), comma separated
    /// [default: all].
    #[arg(long, value_delimiter = ',', value_parser = distribution_named)]
    pub distributions: Vec<Distribution>,
    /// Sort paths (portable, subgroups), comma separated [default: every path this GPU runs].
    #[arg(long, value_delimiter = ',', value_parser = path_named)]
    pub paths: Vec<SortPath>,
    /// Strategies (reduce-then-scan, onesweep), comma separated [default: both].
    #[arg(long, value_delimiter = ',', value_parser = strategy_named)]
    pub strategies: Vec<SortStrategy>,
    /// Timed runs per measurement (the median is reported), after a warm-up (see `bench::warm_up`).
    #[arg(long, default_value_t = 20)]
    pub runs: u32,
    /// Instead of the table: GPU time of each kernel (summed over its four passes), uniform keys
    /// only, from a timestamp around every dispatch.
    #[arg(long)]
    pub profile: bool,
    /// Also write the results to this JSON file.
    #[arg(long, value_name = "PATH")]
    pub json: Option<PathBuf>,
    /// Sort only the low N bits of each key (1 to 32): N.div_ceil(8) digit passes, rounded up
    /// to an even count.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u32).range(1..=32))]
    pub key_bits: u32,
    /// Read each sort's length from a GPU buffer (`RadixSorter::record_indirect`), as a
    /// pipeline that counts its keys on the GPU would.
    #[arg(long)]
    pub indirect: bool,
    /// Also measure other libraries' radix sorts on the same keys, the same way, with a ratio
    /// column (ours / theirs); needs a build with `--features peers`.
    #[arg(long)]
    pub peers: bool,
}

/// Runs the benchmark and prints a table.
pub fn run(args: &RadixBenchArgs) -> anyhow::Result<()> {
    if args.peers && !cfg!(feature = "peers") {
        bail!("--peers needs the peer libraries: build with `cargo build --release --features peers`");
    }
    if args.peers && args.key_bits != 32 {
        bail!("--peers measures whole keys; leave out --key-bits to compare with them");
    }
    if args.indirect && (args.peers || args.profile) {
        bail!("--indirect times whole sorts of ours: leave out --peers and --profile with it");
    }
    if args.peers && args.profile {
        bail!("--peers and --profile do not go together: --profile times our kernels one by one");
    }
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
        return profile::profile(&gpu, &sorters, &timer, args);
    }
    let distributions =
        if args.distributions.is_empty() { Distribution::ALL.to_vec() } else { args.distributions.clone() };
    println!("GPU: {}", gpu.describe());
    if args.key_bits != 32 {
        println!("the low {} bits of each key sorted", args.key_bits);
    }
    if args.indirect {
        println!("each sort's length read from a GPU buffer (record_indirect)");
    }
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
                let bench = Bench::new(&gpu, &keys)
                    .with_key_bits(args.key_bits)
                    .with_length_on_gpu(&gpu, args.indirect);
                for pairs in [false, true] {
                    warm_up(|| bench.time(&gpu, sorter, &scratch, &timer, pairs).map(|_| ()))?;
                    let mut samples = Vec::new();
                    for _ in 0..args.runs {
                        samples.push(bench.time(&gpu, sorter, &scratch, &timer, pairs)?);
                    }
                    verify(&gpu, &bench, &keys, pairs)?;
                    let row = Row {
                        who: sort_name(sorter),
                        len,
                        distribution,
                        pairs,
                        time: Some(median(samples)),
                        wrong: None,
                    };
                    progress(&row);
                    rows.push(row);
                }
            }
        }
    }
    #[cfg(feature = "peers")]
    let peers = if args.peers {
        Some(peers::measure(&gpu, &timer, &args.log2_sizes, &distributions, args.runs)?)
    } else {
        None
    };
    #[cfg(not(feature = "peers"))]
    let peers: Option<rows::Peers> = None;
    report::print_table(&rows, peers.as_ref());
    if let Some(path) = &args.json {
        report::write_json(path, &gpu, args.runs, &rows, peers.as_ref())?;
    }
    Ok(())
}

/// How our rows name a sorter: its path and strategy.
pub(super) fn sort_name(sorter: &RadixSorter) -> String {
    let strategy = match sorter.onesweep_from() {
        Some(0) => SortStrategy::OneSweep.name().to_string(),
        None => SortStrategy::ReduceThenScan.name().to_string(),
        Some(from) => format!("onesweep from {from} keys"),
    };
    format!("{}, {strategy}", sorter.path().name())
}
