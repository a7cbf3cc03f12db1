//! Other libraries' radix sorts in `shadersort bench radix --peers` (feature `peers`): lampshade
//! 0.13 from crates.io, keys only and key-value pairs, on the same keys and timed the same way as
//! ours; a wrong result or an error becomes a row that says so, never the end of the benchmark.

use super::rows::{Bench, Peers, Row, mismatch, progress};
use crate::bench::{median, warm_up};
use crate::gpu::Gpu;
use crate::gpu::readback::read_u32s;
use crate::gpu::timing::GpuTimer;
use anyhow::ensure;
use std::time::Duration;
use wgpu_radix_sort::distribution::Distribution;

/// lampshade's two sorters on our device, built once.
struct Lampshade {
    /// Keys only: sorts an input buffer into a distinct output buffer.
    keys: lampshade::Sorter,
    /// Pairs: sorts separate key and value buffers in place, like ours.
    pairs: lampshade::KeyValueSoaSorter,
}

impl Lampshade {
    fn new(gpu: &Gpu) -> Self {
        let info = gpu.adapter.get_info();
        Lampshade {
            keys: lampshade::Sorter::new_for_adapter(&gpu.device, &gpu.queue, &info),
            pairs: lampshade::KeyValueSoaSorter::new(&gpu.device, &gpu.queue),
        }
    }

    fn describe(&self) -> String {
        format!(
            "lampshade 0.13 (crates.io); keys only: Sorter::new_for_adapter, record_sort from the input \
             buffer into a second buffer (its 8-bit path on NVIDIA Vulkan discrete GPUs with 32-wide \
             subgroups, else its portable 2-bit path); pairs: KeyValueSoaSorter::new, prepare_sort once, \
             then record_reserved_sort in place on separate key and value buffers ({} backend); both \
             recorded into our encoder between our two timestamps",
            if self.pairs.is_accelerated() { "native 8-bit SoA" } else { "portable pack/sort/unpack" }
        )
    }
}

/// Runs `work` (recording and submitting a peer's commands) inside wgpu error scopes, so that a
/// validation or memory error of the peer becomes its row's error instead of the device's first
/// error, which would fail every later measurement of ours.
fn caught<T>(gpu: &Gpu, work: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    let memory = gpu.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
    let validation = gpu.device.push_error_scope(wgpu::ErrorFilter::Validation);
    let result = work();
    let invalid = pollster::block_on(validation.pop());
    let out_of_memory = pollster::block_on(memory.pop());
    match invalid.or(out_of_memory) {
        Some(e) => {
            Err(format!("wgpu error: {}", e.to_string().split_whitespace().collect::<Vec<_>>().join(" ")))
        }
        None => result,
    }
}

/// One length and distribution: the keys, their buffers, and lampshade's output for keys only.
struct Case<'a> {
    keys: &'a [u32],
    bench: &'a Bench,
    output: &'a wgpu::Buffer,
}

/// GPU time of one lampshade sort from fresh input: the copy of the input is recorded before the
/// first timestamp, the sort between the two, as ours is.
fn time_once(
    gpu: &Gpu,
    timer: &GpuTimer,
    lamp: &mut Lampshade,
    case: &Case,
    pairs: bool,
) -> Result<Duration, String> {
    let (bench, output) = (case.bench, case.output);
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    bench.encode_reset(&mut encoder, pairs);
    caught(gpu, || {
        timer.start(&mut encoder);
        let recorded = if pairs {
            lamp.pairs.record_reserved_sort(&mut encoder, &bench.keys, &bench.values, bench.len)
        } else {
            lamp.keys.record_sort(&mut encoder, &bench.keys, output, bench.len)
        };
        recorded.map_err(|e| format!("lampshade refused: {e}"))?;
        timer.stop(&mut encoder);
        gpu.queue.submit([encoder.finish()]);
        Ok(())
    })?;
    timer.read_ms(gpu).map(|ms| Duration::from_secs_f64(ms / 1e3)).map_err(|e| e.to_string())
}

/// Measures one kind (keys or pairs) on one set of keys: warm-up, `runs` timed sorts, the median,
/// then the last result checked against the CPU sort.
fn measure_one(
    gpu: &Gpu,
    timer: &GpuTimer,
    lamp: &mut Lampshade,
    case: &Case,
    pairs: bool,
    runs: u32,
) -> (Option<Duration>, Option<String>) {
    let Case { keys, bench, output } = *case;
    if pairs
        && let Err(e) = caught(gpu, || {
            lamp.pairs
                .prepare_sort(&bench.keys, &bench.values, bench.len)
                .map_err(|e| format!("lampshade refused: {e}"))
        })
    {
        return (None, Some(e));
    }
    let mut once = || time_once(gpu, timer, lamp, case, pairs);
    if let Err(e) = warm_up(|| once().map(|_| ()).map_err(anyhow::Error::msg)) {
        return (None, Some(e.to_string()));
    }
    let samples: Result<Vec<Duration>, String> = (0..runs).map(|_| once()).collect();
    let time = match samples {
        Ok(samples) => median(samples),
        Err(e) => return (None, Some(e)),
    };
    let sorted = if pairs { &bench.keys } else { output };
    let got = read_u32s(gpu, sorted, 0, keys.len());
    let values = if pairs { Some(read_u32s(gpu, &bench.values, 0, keys.len())) } else { None };
    let wrong = match (got, values.transpose()) {
        (Ok(got), Ok(values)) => mismatch(keys, &got, values.as_deref()),
        (Err(e), _) | (_, Err(e)) => Some(format!("cannot read the result back: {e}")),
    };
    (Some(time), wrong)
}

/// Measures lampshade on every length and distribution of the benchmark, with the keys ours
/// sorted (the same seeds).
pub(super) fn measure(
    gpu: &Gpu,
    timer: &GpuTimer,
    log2_sizes: &[u32],
    distributions: &[Distribution],
    runs: u32,
) -> anyhow::Result<Peers> {
    let mut lamp = Lampshade::new(gpu);
    let mut rows = Vec::new();
    for &log2 in log2_sizes {
        ensure!(log2 <= 31, "2^{log2} keys do not fit a u32 length");
        let len = 1u32 << log2;
        let output = gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("bench::peers::lampshade_output"),
            size: u64::from(len) * 4,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        for &distribution in distributions {
            let keys = distribution.keys(len as usize, 2026 + u64::from(log2));
            let bench = Bench::new(gpu, &keys);
            let case = Case { keys: &keys, bench: &bench, output: &output };
            for pairs in [false, true] {
                let (time, wrong) = measure_one(gpu, timer, &mut lamp, &case, pairs, runs);
                let row = Row { who: String::from("lampshade"), len, distribution, pairs, time, wrong };
                progress(&row);
                rows.push(row);
            }
        }
    }
    // A peer's failure was caught in its own error scope; anything left is ours to report.
    gpu.check()?;
    Ok(Peers { name: "lampshade", description: lamp.describe(), rows })
}
