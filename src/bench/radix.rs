//! `shadersort bench radix`: the device-wide radix sort (`src/sort`), keys only and key-value
//! pairs, over lengths and key distributions, from GPU timestamps; prints a table and can
//! write JSON. With `--peers` (a build with the `peers` feature) other libraries' sorts are
//! measured the same way beside it (`super::peers`).

use super::{WARM_UP_RUNS, WARM_UP_SECONDS, median, warm_up};
use crate::gpu::Gpu;
use crate::readback::read_u32s;
use crate::sort::distribution::Distribution;
use crate::sort::{RadixSorter, SortJob, SortPath, SortScratch, SortStrategy};
use crate::timing::GpuTimer;
use anyhow::{Context, bail, ensure};
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
    /// Timed runs per measurement (the median is reported), after a warm-up (see [`super::warm_up`]).
    #[arg(long, default_value_t = 20)]
    pub runs: u32,
    /// Instead of the table: GPU time of each kernel (summed over its four passes), uniform keys
    /// only, from a timestamp around every dispatch.
    #[arg(long)]
    pub profile: bool,
    /// Also write the results to this JSON file.
    #[arg(long, value_name = "PATH")]
    pub json: Option<PathBuf>,
    /// Also measure other libraries' radix sorts on the same keys, the same way, with a ratio
    /// column (ours / theirs); needs a build with `--features peers`.
    #[arg(long)]
    pub peers: bool,
}

/// One measured row.
#[derive(Clone, Debug)]
pub(super) struct Row {
    /// Our sort's path and strategy ("subgroups, onesweep"), or the peer library's name.
    pub(super) who: String,
    pub(super) len: u32,
    pub(super) distribution: Distribution,
    pub(super) pairs: bool,
    /// The median GPU time; `None` when the sort could not run (a peer's error).
    pub(super) time: Option<Duration>,
    /// Why the result cannot be counted (a peer's wrong result or error); ours are never kept
    /// wrong: a wrong result of ours stops the benchmark.
    pub(super) wrong: Option<String>,
}

impl Row {
    /// Keys (or pairs) per second, in billions, of a correct result.
    fn rate_g(&self) -> Option<f64> {
        match (self.time, &self.wrong) {
            (Some(time), None) => Some(f64::from(self.len) / time.as_secs_f64() / 1e9),
            _ => None,
        }
    }

    /// The median time in milliseconds for the table, or `-`.
    fn ms_cell(&self) -> String {
        self.time.map_or(String::from("-"), |t| format!("{:.3}", t.as_secs_f64() * 1e3))
    }

    /// The rate for the table, or why there is none.
    fn rate_cell(&self) -> String {
        match (self.rate_g(), self.time) {
            (Some(rate), _) => format!("{rate:.2}"),
            (None, Some(_)) => String::from("WRONG"),
            (None, None) => String::from("FAILED"),
        }
    }
}

/// The buffers of one measurement: the input kept pristine, and the buffers sorted in place.
pub(super) struct Bench {
    pub(super) pristine_keys: wgpu::Buffer,
    pub(super) pristine_values: wgpu::Buffer,
    pub(super) keys: wgpu::Buffer,
    pub(super) values: wgpu::Buffer,
    pub(super) len: u32,
}

impl Bench {
    pub(super) fn new(gpu: &Gpu, keys: &[u32]) -> Self {
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

    /// Records the copy of the pristine input into the sorted buffers (values too for pairs),
    /// outside any timed span.
    pub(super) fn record_reset(&self, encoder: &mut wgpu::CommandEncoder, pairs: bool) {
        let bytes = u64::from(self.len) * 4;
        encoder.copy_buffer_to_buffer(&self.pristine_keys, 0, &self.keys, 0, bytes);
        if pairs {
            encoder.copy_buffer_to_buffer(&self.pristine_values, 0, &self.values, 0, bytes);
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
        self.record_reset(&mut encoder, true);
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
    if args.peers && !cfg!(feature = "peers") {
        bail!("--peers needs the peer libraries: build with `cargo build --release --features peers`");
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
        Some(super::peers::measure(&gpu, &timer, &args.log2_sizes, &distributions, args.runs)?)
    } else {
        None
    };
    #[cfg(not(feature = "peers"))]
    let peers: Option<Peers> = None;
    print_table(&rows, peers.as_ref());
    if let Some(path) = &args.json {
        write_json(path, &gpu, args.runs, &rows, peers.as_ref())?;
    }
    Ok(())
}

/// How our rows name a sorter: its path and strategy.
fn sort_name(sorter: &RadixSorter) -> String {
    let strategy = match sorter.onesweep_from() {
        Some(0) => SortStrategy::OneSweep.name().to_string(),
        None => SortStrategy::ReduceThenScan.name().to_string(),
        Some(from) => format!("onesweep from {from} keys"),
    };
    format!("{}, {strategy}", sorter.path().name())
}

/// A peer library's rows, keys then pairs for each length and distribution, like ours.
// Only `--peers` makes one, and only a build with the `peers` feature has it.
#[cfg_attr(not(feature = "peers"), allow(dead_code))]
pub(super) struct Peers {
    /// Its short name, for column headers and JSON keys.
    pub(super) name: &'static str,
    /// What exactly was measured, printed above the table.
    pub(super) description: String,
    pub(super) rows: Vec<Row>,
}

/// Prints one measured row to stderr as it comes.
pub(super) fn progress(row: &Row) {
    eprintln!(
        "{} 2^{} {} {}: {} ms{}",
        row.who,
        row.len.trailing_zeros(),
        row.distribution.name(),
        if row.pairs { "pairs" } else { "keys" },
        row.ms_cell(),
        row.wrong.as_ref().map(|w| format!(" ({w})")).unwrap_or_default()
    );
}

/// The peer's row of the same length, distribution and kind.
fn peer_of<'a>(row: &Row, peers: &'a Peers) -> Option<&'a Row> {
    peers.rows.iter().find(|p| p.len == row.len && p.distribution == row.distribution && p.pairs == row.pairs)
}

/// Our throughput over the peer's, where both results are correct.
fn ratio(row: &Row, peers: Option<&Peers>) -> Option<f64> {
    let peer = peer_of(row, peers?)?;
    Some(row.rate_g()? / peer.rate_g()?)
}

/// The table: one line per path, length and distribution; with peers, their lines follow
/// ours, and ours gain a column of our throughput over the peer's.
fn print_table(rows: &[Row], peers: Option<&Peers>) {
    let Some(peers) = peers else {
        println!("| sort | keys | distribution | keys only, ms | G keys/s | pairs, ms | G pairs/s |");
        println!("| --- | ---: | --- | ---: | ---: | ---: | ---: |");
        for pair in rows.chunks(2) {
            let (k, p) = (&pair[0], &pair[1]);
            println!(
                "| {} | 2^{} | {} | {} | {} | {} | {} |",
                k.who,
                k.len.trailing_zeros(),
                k.distribution.name(),
                k.ms_cell(),
                k.rate_cell(),
                p.ms_cell(),
                p.rate_cell()
            );
        }
        return;
    };
    println!("peer: {}", peers.description);
    let name = peers.name;
    println!(
        "| sort | keys | distribution | keys only, ms | G keys/s | ours / {name} | pairs, ms | G pairs/s | ours / {name} |"
    );
    println!("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    let ours = rows.chunks(2).map(|pair| (pair, true));
    for (pair, is_ours) in ours.chain(peers.rows.chunks(2).map(|pair| (pair, false))) {
        let (k, p) = (&pair[0], &pair[1]);
        let cell = |r: &Row| match ratio(r, Some(peers)) {
            Some(x) if is_ours => format!("{x:.2}x"),
            _ => String::from("-"),
        };
        println!(
            "| {} | 2^{} | {} | {} | {} | {} | {} | {} | {} |",
            k.who,
            k.len.trailing_zeros(),
            k.distribution.name(),
            k.ms_cell(),
            k.rate_cell(),
            cell(k),
            p.ms_cell(),
            p.rate_cell(),
            cell(p)
        );
    }
    for r in peers.rows.iter().filter(|r| r.wrong.is_some()) {
        println!(
            "{} 2^{} {} {}: {}: {}",
            r.who,
            r.len.trailing_zeros(),
            r.distribution.name(),
            if r.pairs { "pairs" } else { "keys" },
            r.rate_cell(),
            r.wrong.as_deref().unwrap_or_default()
        );
    }
}

/// `text` as the inside of a JSON string.
fn json_escape(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '"' => String::from("\\\""),
            '\\' => String::from("\\\\"),
            c if c.is_control() => format!("\\u{:04x}", u32::from(c)),
            c => c.to_string(),
        })
        .collect()
}

/// Writes every row as JSON; with peers, ours gain `vs_<peer>` (our throughput over theirs,
/// `null` where either is missing or wrong) and the peer's rows say whether they were correct.
fn write_json(
    path: &std::path::Path,
    gpu: &Gpu,
    runs: u32,
    rows: &[Row],
    peers: Option<&Peers>,
) -> anyhow::Result<()> {
    let number = |x: Option<f64>, digits: usize| x.map_or(String::from("null"), |x| format!("{x:.digits$}"));
    let entry = |r: &Row, extra: String| {
        format!(
            "  {{\"sort\": \"{}\", \"len\": {}, \"distribution\": \"{}\", \"pairs\": {}, \"median_ms\": {}, \"g_per_s\": {}{extra}}}",
            json_escape(&r.who),
            r.len,
            r.distribution.name(),
            r.pairs,
            number(r.time.map(|t| t.as_secs_f64() * 1e3), 6),
            number(r.rate_g(), 4),
        )
    };
    let mut entries: Vec<String> = rows
        .iter()
        .map(|r| {
            let extra = peers
                .map_or(String::new(), |p| format!(", \"vs_{}\": {}", p.name, number(ratio(r, Some(p)), 4)));
            entry(r, extra)
        })
        .collect();
    let mut header = String::new();
    if let Some(peers) = peers {
        header = format!(", \"peer\": \"{}\"", json_escape(&peers.description));
        entries.extend(peers.rows.iter().map(|r| {
            let error =
                r.wrong.as_ref().map_or(String::new(), |w| format!(", \"error\": \"{}\"", json_escape(w)));
            entry(r, format!(", \"correct\": {}{error}", r.wrong.is_none()))
        }));
    }
    let json = format!(
        "{{\"gpu\": \"{}\", \"runs\": {runs}{header}, \"results\": [\n{}\n]}}\n",
        gpu.describe().replace('"', "'"),
        entries.join(",\n")
    );
    std::fs::write(path, json).with_context(|| format!("cannot write '{}'", path.display()))
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
    println!("| sort | keys | kernel | GPU ms (median, all passes) | share |");
    println!("| --- | ---: | --- | ---: | ---: |");
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
                    "| {} | 2^{log2} | {kernel} | {:.3} | {:.0}% |",
                    sort_name(sorter),
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
    let values = if pairs { Some(read_u32s(gpu, &bench.values, 0, keys.len())?) } else { None };
    if let Some(why) = mismatch(keys, &got, values.as_deref()) {
        bail!("the GPU sort of {} {} is wrong: {why}", keys.len(), if pairs { "pairs" } else { "keys" });
    }
    Ok(())
}

/// Why `got` (with `values`, the input positions that travelled with the keys, for pairs) is
/// not the stable sort of `keys`, or `None` when it is.
pub(super) fn mismatch(keys: &[u32], got: &[u32], values: Option<&[u32]>) -> Option<String> {
    let mut want = keys.to_vec();
    want.sort_unstable();
    if got.len() != want.len() {
        return Some(format!("{} keys came back, not {}", got.len(), want.len()));
    }
    let differ = got.iter().zip(&want).filter(|(g, w)| g != w).count();
    if differ > 0 {
        let first = got.iter().zip(&want).position(|(g, w)| g != w).unwrap_or_default();
        return Some(format!("{differ} keys differ from the CPU sort (the first at index {first})"));
    }
    let values = values?;
    let moved = values.iter().zip(got).position(|(&v, &k)| keys.get(v as usize) != Some(&k));
    if let Some(i) = moved {
        return Some(format!("value {} at index {i} does not belong to key {}", values[i], got[i]));
    }
    let unstable = got.windows(2).zip(values.windows(2)).position(|(k, v)| k[0] == k[1] && v[0] >= v[1]);
    unstable.map(|i| format!("equal keys out of input order at index {i} (unstable)"))
}

#[cfg(test)]
mod tests {
    use super::mismatch;

    #[test]
    fn mismatch_accepts_the_stable_sort_and_names_every_kind_of_wrong_result() {
        let keys = [3, 1, 3, 0];
        assert_eq!(mismatch(&keys, &[0, 1, 3, 3], None), None);
        assert_eq!(mismatch(&keys, &[0, 1, 3, 3], Some(&[3, 1, 0, 2])), None);
        assert!(mismatch(&keys, &[0, 1, 3], None).expect("short").contains("3 keys came back"));
        assert!(mismatch(&keys, &[0, 3, 1, 3], None).expect("order").contains("2 keys differ"));
        assert!(mismatch(&keys, &[0, 1, 3, 3], Some(&[3, 1, 0, 9])).expect("garbage").contains("index 3"));
        assert!(mismatch(&keys, &[0, 1, 3, 3], Some(&[3, 0, 0, 2])).expect("moved").contains("index 1"));
        assert!(mismatch(&keys, &[0, 1, 3, 3], Some(&[3, 1, 2, 0])).expect("unstable").contains("unstable"));
    }
}
