//! `shadersort bench sorts`: GPU time to sort every row of a picture completely, per algorithm,
//! from timestamp queries, median of several runs after warm-up, with ratios in the same run.

use super::{median, parse_size};
use crate::algorithms::bitonic::{Bitonic, BitonicTuning};
use crate::algorithms::odd_even::{OddEven, PassKind};
use crate::algorithms::radix::RadixSettings;
use crate::algorithms::request::StartRequest;
use crate::algorithms::{Algorithm, Pipelines, RunSettings, SortRun};
use crate::engine::drive::Driver;
use crate::gpu::readback::read_texture;
use crate::gpu::timing::GpuTimer;
use crate::gpu::{Gpu, GpuError};
use crate::keys::options::{Scope, SortOptions};
use crate::picture::patterns::random_image;
use crate::reference::stable_sort;
use anyhow::Context;
use std::time::Duration;

/// What to measure.
#[derive(Clone, Debug, clap::Args)]
pub struct SortBenchArgs {
    /// Picture sizes, WIDTHxHEIGHT, comma separated (rows are sorted, so WIDTH is the row length).
    #[arg(long, value_delimiter = ',', default_value = "1024x1024,4096x1024")]
    pub sizes: Vec<String>,
    /// Timed runs per measurement (the median is reported), after two warm-up runs.
    #[arg(long, default_value_t = 10)]
    pub runs: u32,
    /// Which sorts to time, comma separated [default: all]: odd-even-compute,
    /// odd-even-fragment, bubble, radix-4, radix-8, radix-segments (each step one segmented
    /// sort of the rows, as sorts nobody watches run), radix-image (the whole picture as one
    /// sequence, not just its rows), bitonic.
    #[arg(long, value_delimiter = ',', value_parser = CONTENDERS.map(|c| c.name))]
    pub only: Vec<String>,
    /// Also time the bitonic network with each of these numbers of comparators per invocation
    /// and stage (the workgroup size it is built with), comma separated.
    #[arg(long, value_delimiter = ',', hide = true)]
    pub bitonic_pairs: Vec<u32>,
    /// Also time the bitonic network without `sort_lines` (every line through `sort_blocks`).
    #[arg(long, hide = true)]
    pub bitonic_without_held_ranks: bool,
    /// Also time the bitonic network with `sort_lines` taking every stage past an invocation's
    /// own positions through workgroup memory (no subgroup shuffles).
    #[arg(long, hide = true)]
    pub bitonic_without_shuffles: bool,
    /// Also time the bitonic network with `sort_lines` not counting its exchanges (what
    /// counting costs; the swap counts then read 0).
    #[arg(long, hide = true)]
    pub bitonic_without_counts: bool,

    /// Time only the first N steps of each sort (what a part of the sort costs; the result is
    /// then not checked).
    #[arg(long, hide = true)]
    pub steps: Option<u32>,
}

/// One way of sorting that is measured.
#[derive(Clone, Copy, Debug)]
struct Contender {
    algorithm: Algorithm,
    settings: RunSettings,
    name: &'static str,
    label: &'static str,
}

/// The radix view sorting every row by the exact luma key.
const fn radix(digit_bits: u32) -> RunSettings {
    RunSettings {
        pass_kind: PassKind::Compute,
        phases_per_step: 2,
        radix: RadixSettings { digit_bits, ..RadixSettings::DEFAULT },
    }
}

/// What every contender starts from; each one reads only its own fields.
const DEFAULTS: RunSettings = radix(4);

const CONTENDERS: [Contender; 8] = [
    Contender {
        algorithm: Algorithm::OddEven,
        settings: DEFAULTS,
        name: "odd-even-compute",
        label: "odd-even, compute (W passes)",
    },
    Contender {
        algorithm: Algorithm::OddEven,
        settings: RunSettings { pass_kind: PassKind::Fragment, ..DEFAULTS },
        name: "odd-even-fragment",
        label: "odd-even, fragment (W passes)",
    },
    Contender {
        algorithm: Algorithm::Bubble,
        settings: RunSettings { phases_per_step: u32::MAX, ..DEFAULTS },
        name: "bubble",
        label: "bubble, one dispatch",
    },
    Contender {
        algorithm: Algorithm::Radix,
        settings: radix(4),
        name: "radix-4",
        label: "radix, 4-bit digits (5 passes)",
    },
    Contender {
        algorithm: Algorithm::Radix,
        settings: radix(8),
        name: "radix-8",
        label: "radix, 8-bit digits (3 passes)",
    },
    Contender {
        algorithm: Algorithm::Radix,
        settings: RunSettings {
            radix: RadixSettings { digit_bits: 8, device_sorted_lines: true, ..RadixSettings::DEFAULT },
            ..DEFAULTS
        },
        name: "radix-segments",
        label: "radix, 8-bit digits (3 passes), each step a segmented sort",
    },
    Contender {
        algorithm: Algorithm::Radix,
        settings: RunSettings {
            radix: RadixSettings { scope: Scope::Image, ..RadixSettings::DEFAULT },
            ..DEFAULTS
        },
        name: "radix-image",
        label: "radix, whole picture, 4-bit digits (5 passes)",
    },
    Contender {
        algorithm: Algorithm::Bitonic,
        settings: DEFAULTS,
        name: "bitonic",
        label: "bitonic network (all stages at once)",
    },
];

/// GPU time of one complete sort: every step, in batches the swap counters allow, summing the
/// timestamped span of each batch (gaps between submissions are not GPU work).
fn time_sort(
    gpu: &Gpu,
    timer: &GpuTimer,
    run: &mut dyn SortRun,
    driver: &Driver,
    steps: u32,
) -> anyhow::Result<Duration> {
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    run.restart(&mut encoder);
    gpu.queue.submit([encoder.finish()]);
    let mut total_ms = 0.0;
    let target = run.total_steps().min(steps);
    while run.steps_done() < target {
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        timer.start(&mut encoder);
        // One span: no more steps than the counters hold, so the driver submits nothing inside it.
        let n = run.ledger().room(target - run.steps_done());
        pollster::block_on(driver.advance(gpu, run, &mut encoder, n, |_| Ok::<(), GpuError>(())))?;
        timer.stop(&mut encoder);
        gpu.queue.submit([encoder.finish()]);
        total_ms += timer.read_ms(gpu)?;
        driver.collect(gpu, run)?;
    }
    Ok(Duration::from_secs_f64(total_ms / 1e3))
}

/// Runs the benchmark and prints a table.
pub fn run(args: &SortBenchArgs) -> anyhow::Result<()> {
    let gpu = Gpu::headless()?;
    let timer = GpuTimer::new(&gpu).context(
        "this adapter has no timestamp queries between passes (GL has none); use a Vulkan, Metal or DX12 GPU",
    )?;
    println!("GPU: {}", gpu.describe());
    println!("median of {} runs after 2 warm-ups; random pixels, rows sorted by luma", args.runs);
    let engine = crate::engine::Engine::new(std::sync::Arc::new(gpu));
    let gpu = engine.gpu();
    let mut rows = Vec::new();
    for size in &args.sizes {
        let (w, h) = parse_size(size)?;
        let picture = random_image(w, h, 2026);
        let mut times = Vec::new();
        let chosen =
            CONTENDERS.iter().filter(|c| args.only.is_empty() || args.only.iter().any(|n| n == c.name));
        let bitonic = *CONTENDERS.iter().find(|c| c.algorithm == Algorithm::Bitonic).expect("a bitonic row");
        let paired = args.bitonic_pairs.iter().map(|&pairs| {
            let tuning = BitonicTuning { pairs_per_invocation: Some(pairs), ..BitonicTuning::default() };
            (format!("bitonic network, {pairs} pairs per invocation"), tuning)
        });
        let blocks_only = args.bitonic_without_held_ranks.then(|| {
            let tuning = BitonicTuning { held_ranks: false, ..BitonicTuning::default() };
            ("bitonic network, sort_blocks only".to_string(), tuning)
        });
        let no_shuffles = args.bitonic_without_shuffles.then(|| {
            let tuning = BitonicTuning { shuffles: false, ..BitonicTuning::default() };
            ("bitonic network, no shuffles".to_string(), tuning)
        });
        let no_counts = args.bitonic_without_counts.then(|| {
            let tuning = BitonicTuning { count_exchanges: false, ..BitonicTuning::default() };
            ("bitonic network, exchanges not counted".to_string(), tuning)
        });
        let variants = paired.chain(blocks_only).chain(no_shuffles).chain(no_counts);
        let tunings = variants.map(|(label, tuning)| {
            let label: &'static str = label.leak();
            (label, Pipelines::Bitonic(Bitonic::with_tuning(gpu, tuning)), bitonic)
        });
        let jobs: Vec<(&'static str, Option<Pipelines>, Contender)> =
            chosen.map(|c| (c.label, None, *c)).chain(tunings.map(|(l, p, c)| (l, Some(p), c))).collect();
        for (label, own, contender) in &jobs {
            let pipes = own.as_ref().unwrap_or_else(|| engine.pipelines(contender.algorithm));
            let request = StartRequest::new(&picture, SortOptions::default()).settings(contender.settings);
            let mut run = pipes.start(gpu, request)?;
            let note = run.notice().map(|n| format!(" ({n})")).unwrap_or_default();
            let driver = Driver::new(run.as_ref());
            let mut samples = Vec::new();
            for i in 0..args.runs + 2 {
                let t = time_sort(gpu, &timer, run.as_mut(), &driver, args.steps.unwrap_or(u32::MAX))?;
                if i >= 2 {
                    samples.push(t);
                }
            }
            gpu.check()?;
            let whole_picture =
                contender.algorithm == Algorithm::Radix && contender.settings.radix.scope == Scope::Image;
            anyhow::ensure!(
                whole_picture
                    || args.steps.is_some()
                    || read_texture(gpu, run.state())? == stable_sort(&picture, &SortOptions::default()),
                "{label} left {w}x{h} unsorted"
            );
            times.push((*label, median(samples), note));
        }
        times.push((ONE_PASS, pass_time(gpu, &timer, &picture, args.runs)?, String::new()));
        rows.push((w, h, times));
    }
    println!(
        "| picture | algorithm | GPU ms (median) | GB/s (picture read + written once) | time / radix 8-bit | time / one pass |"
    );
    println!("| --- | --- | ---: | ---: | ---: | ---: |");
    for (w, h, times) in rows {
        let of = |prefix: &str| times.iter().find(|(l, _, _)| l.starts_with(prefix)).map(|t| t.1);
        let (radix8, one_pass) = (of("radix, 8-bit"), of(ONE_PASS));
        let bytes = 2.0 * 4.0 * f64::from(w) * f64::from(h);
        for (label, time, note) in &times {
            let ratio = |base: Option<Duration>| {
                base.map_or(String::from("-"), |b| format!("{:.2}x", time.as_secs_f64() / b.as_secs_f64()))
            };
            println!(
                "| {w}x{h} | {label}{note} | {:.4} | {:.0} | {} | {} |",
                time.as_secs_f64() * 1e3,
                bytes / time.as_secs_f64() / 1e9,
                ratio(radix8),
                ratio(one_pass)
            );
        }
    }
    Ok(())
}

/// The row of the bound every row sort is held against: one pass that reads every pixel once
/// and writes it once (a texture-to-texture copy is no bound: on NVIDIA's Vulkan driver it is
/// far slower than a compute pass; numbers: docs/benchmarks/row-sorts-history.md).
const ONE_PASS: &str = "one odd-even pass (reads and writes each pixel once: the bound)";

/// Median GPU time of one odd-even compute pass over the picture, from spans of 16 passes.
fn pass_time(gpu: &Gpu, timer: &GpuTimer, picture: &image::RgbaImage, runs: u32) -> anyhow::Result<Duration> {
    let mut run = OddEven::new(gpu).start(gpu, StartRequest::new(picture, SortOptions::default()));
    let driver = Driver::new(&run);
    let mut samples = Vec::new();
    for i in 0..runs + 2 {
        let t = super::pass::time_passes(gpu, timer, &mut run, &driver, 16)?;
        if i >= 2 {
            samples.push(t);
        }
    }
    Ok(median(samples))
}
