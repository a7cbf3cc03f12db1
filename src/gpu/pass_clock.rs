//! Where a run's GPU time goes: while a benchmark holds the clock, every compute pass begun through
//! [`compute_pass`](super::kernel::compute_pass) writes timestamp queries at its start and end,
//! read back at the end as a table by pass label, with the time no timed pass ran (copies,
//! clears, passes of other crates, the GPU waiting for work).
//!
//! One GPU at a time: the clock is started on a device, and only that device's passes may be
//! begun until it is finished.

use super::Gpu;
use super::readback::map_and_read;
use std::sync::Mutex;

/// Query sets the clock takes at most: 4096 queries each, two a pass.
const MOST_SETS: usize = 16;

/// The most passes timed; later ones run untimed.
pub const MOST_PASSES: usize = MOST_SETS * (wgpu::QUERY_SET_MAX_QUERIES as usize / 2);

/// The running clock: query sets filled in order, and the label of each pass timed.
struct Clock {
    device: wgpu::Device,
    sets: Vec<wgpu::QuerySet>,
    labels: Vec<String>,
}

static CLOCK: Mutex<Option<Clock>> = Mutex::new(None);

fn clock() -> std::sync::MutexGuard<'static, Option<Clock>> {
    CLOCK.lock().unwrap_or_else(|p| p.into_inner())
}

/// Starts timing every compute pass on `gpu`; `false` (and nothing timed) where the device has no
/// timestamp queries.
pub fn start(gpu: &Gpu) -> bool {
    if !gpu.device.features().contains(wgpu::Features::TIMESTAMP_QUERY) {
        return false;
    }
    *clock() = Some(Clock { device: gpu.device.clone(), sets: Vec::new(), labels: Vec::new() });
    true
}

/// The timestamp writes of a pass labelled `label` while the clock runs (and has queries left).
pub(crate) fn timestamp_writes(label: &str) -> Option<(wgpu::QuerySet, u32)> {
    let mut clock = clock();
    let clock = clock.as_mut()?;
    let per_set = wgpu::QUERY_SET_MAX_QUERIES / 2;
    let index = clock.labels.len() as u32;
    let (set, at) = (index / per_set, index % per_set);
    if set as usize == clock.sets.len() {
        if clock.sets.len() == MOST_SETS {
            return None;
        }
        let queries = clock.device.create_query_set(&wgpu::QuerySetDescriptor {
            label: Some("pass_clock::queries"),
            ty: wgpu::QueryType::Timestamp,
            count: wgpu::QUERY_SET_MAX_QUERIES,
        });
        clock.sets.push(queries);
    }
    clock.labels.push(label.to_string());
    Some((clock.sets[set as usize].clone(), 2 * at))
}

/// One pass as timed: its label and its start and end in nanoseconds of the GPU's clock.
#[derive(Clone, Debug)]
pub struct TimedPass {
    /// The pass's label.
    pub label: String,
    /// Start, in nanoseconds.
    pub start_ns: f64,
    /// End, in nanoseconds.
    pub end_ns: f64,
}

/// Stops the clock and reads every pass's times back from `gpu` (waiting for its work); `None`
/// when the clock was not running.
pub fn finish(gpu: &Gpu) -> Option<Vec<TimedPass>> {
    let Clock { sets, labels, .. } = clock().take()?;
    let period = f64::from(gpu.queue.get_timestamp_period());
    let per_set = wgpu::QUERY_SET_MAX_QUERIES / 2;
    let mut passes = Vec::with_capacity(labels.len());
    for (set, labels) in sets.iter().zip(labels.chunks(per_set as usize)) {
        let queries = 2 * labels.len() as u32;
        let bytes = u64::from(queries) * 8;
        let buffer = |label, usage| {
            gpu.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: bytes,
                usage,
                mapped_at_creation: false,
            })
        };
        let resolved =
            buffer("pass_clock::resolved", wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC);
        let staging =
            buffer("pass_clock::staging", wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ);
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        encoder.resolve_query_set(set, 0..queries, &resolved, 0);
        encoder.copy_buffer_to_buffer(&resolved, 0, &staging, 0, bytes);
        gpu.queue.submit([encoder.finish()]);
        map_and_read(gpu, &staging, bytes, |bytes| {
            let ticks: &[u64] = bytemuck::cast_slice(bytes);
            for (label, pair) in labels.iter().zip(ticks.chunks_exact(2)) {
                passes.push(TimedPass {
                    label: label.clone(),
                    start_ns: pair[0] as f64 * period,
                    end_ns: pair[1] as f64 * period,
                });
            }
        })
        .ok()?;
    }
    Some(passes)
}

/// Each label's passes: how many, and their GPU time in milliseconds, most time first.
pub fn by_label(passes: &[TimedPass]) -> Vec<(String, usize, f64)> {
    let mut labels: Vec<(String, usize, f64)> = Vec::new();
    for pass in passes {
        let ms = (pass.end_ns - pass.start_ns).max(0.0) / 1e6;
        match labels.iter_mut().find(|(label, ..)| *label == pass.label) {
            Some((_, count, total)) => (*count, *total) = (*count + 1, *total + ms),
            None => labels.push((pass.label.clone(), 1, ms)),
        }
    }
    labels.sort_by(|a, b| b.2.total_cmp(&a.2));
    labels
}

/// From the first pass's start to the last one's end, and of that the time some timed pass ran,
/// in milliseconds.
pub fn span_and_busy(passes: &[TimedPass]) -> (f64, f64) {
    let mut spans: Vec<(f64, f64)> = passes.iter().map(|p| (p.start_ns, p.end_ns.max(p.start_ns))).collect();
    spans.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (Some(first), Some(last)) = (spans.first(), spans.iter().map(|s| s.1).reduce(f64::max)) else {
        return (0.0, 0.0);
    };
    let (mut busy, mut open) = (0.0, *first);
    for &(start, end) in &spans[1..] {
        if start > open.1 {
            busy += open.1 - open.0;
            open = (start, end);
        } else {
            open.1 = open.1.max(end);
        }
    }
    busy += open.1 - open.0;
    ((last - first.0) / 1e6, busy / 1e6)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pass(label: &str, start_ns: f64, end_ns: f64) -> TimedPass {
        TimedPass { label: label.into(), start_ns, end_ns }
    }

    #[test]
    fn busy_time_counts_overlapping_passes_once() {
        let passes = [pass("a", 0.0, 2e6), pass("b", 1e6, 3e6), pass("a", 5e6, 6e6)];
        assert_eq!(span_and_busy(&passes), (6.0, 4.0));
        assert_eq!(span_and_busy(&[]), (0.0, 0.0));
        let labels = by_label(&passes);
        assert_eq!(labels, vec![("a".to_string(), 2, 3.0), ("b".to_string(), 1, 2.0)]);
    }
}
