//! `bench radix --profile`: each kernel's share of a keys-only sort, from a timestamp around
//! every dispatch.

use super::rows::Bench;
use super::{RadixBenchArgs, sort_name};
use crate::bench::{median, warm_up};
use crate::gpu::Gpu;
use crate::gpu::readback::read_u32s;
use crate::gpu::timing::GpuTimer;
use anyhow::ensure;
use std::time::Duration;
use wgpu_radix_sort::distribution::Distribution;
use wgpu_radix_sort::{RadixSorter, SortJob};

/// Prints each kernel's share of a keys-only sort of uniform keys.
pub(super) fn profile(
    gpu: &Gpu,
    sorters: &[RadixSorter],
    timer: &GpuTimer,
    args: &RadixBenchArgs,
) -> anyhow::Result<()> {
    let count = 2 * wgpu_radix_sort::DISPATCHES;
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
            let keys = Distribution::Uniform.keys(len as usize, 2026);
            let bench = Bench::new(gpu, &keys).with_key_bits(args.key_bits);
            let mut per_kernel: Vec<(&'static str, Vec<Duration>)> = Vec::new();
            warm_up(|| bench.time(gpu, sorter, &scratch, timer, false).map(|_| ()))?;
            for _ in 0..args.runs {
                let mut encoder = gpu.device.create_command_encoder(&Default::default());
                encoder.copy_buffer_to_buffer(&bench.pristine_keys, 0, &bench.keys, 0, u64::from(len) * 4);
                let kernels = sorter.record_profiled(
                    &gpu.device,
                    &mut encoder,
                    &SortJob { key_bits: args.key_bits, ..SortJob::keys(&bench.keys, len) },
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
