//! What the radix benchmark and its peers share: a measured row, the input buffers of one
//! measurement, the peer library's rows, and the check that a result is the stable sort.

use crate::gpu::Gpu;
use crate::gpu::readback::read_u32s;
use crate::gpu::timing::GpuTimer;
use anyhow::bail;
use std::time::Duration;
use wgpu::util::DeviceExt;
use wgpu_radix_sort::distribution::Distribution;
use wgpu_radix_sort::{RadixSorter, SortJob, SortScratch};

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
    pub(super) fn rate_g(&self) -> Option<f64> {
        match (self.time, &self.wrong) {
            (Some(time), None) => Some(f64::from(self.len) / time.as_secs_f64() / 1e9),
            _ => None,
        }
    }

    /// The median time in milliseconds for the table, or `-`.
    pub(super) fn ms_cell(&self) -> String {
        self.time.map_or(String::from("-"), |t| format!("{:.3}", t.as_secs_f64() * 1e3))
    }

    /// "subgroups, onesweep 2^20 uniform pairs": who sorted what, in words.
    pub(super) fn label(&self) -> String {
        let what = if self.pairs { "pairs" } else { "keys" };
        format!("{} 2^{} {} {what}", self.who, self.len.trailing_zeros(), self.distribution.name())
    }

    /// The rate for the table, or why there is none.
    pub(super) fn rate_cell(&self) -> String {
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
    /// The low bits of each key that are sorted.
    pub(super) key_bits: u32,
    /// Where the sort reads its length on the GPU (`record_indirect`), if it does.
    pub(super) length: Option<wgpu::Buffer>,
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
            key_bits: 32,
            length: None,
        }
    }

    /// The same buffers, each sort reading its length from a GPU buffer where `indirect`.
    pub(super) fn with_length_on_gpu(self, gpu: &Gpu, indirect: bool) -> Self {
        let length = indirect.then(|| {
            gpu.device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("bench::length"),
                contents: bytemuck::bytes_of(&self.len),
                usage: wgpu::BufferUsages::STORAGE,
            })
        });
        Bench { length, ..self }
    }

    /// The same buffers, sorting only the low `key_bits` of each key.
    pub(super) fn with_key_bits(self, key_bits: u32) -> Self {
        Bench { key_bits, ..self }
    }

    /// Encodes the copy of the pristine input into the sorted buffers (values too for pairs),
    /// outside any timed span.
    pub(super) fn encode_reset(&self, encoder: &mut wgpu::CommandEncoder, pairs: bool) {
        let bytes = u64::from(self.len) * 4;
        encoder.copy_buffer_to_buffer(&self.pristine_keys, 0, &self.keys, 0, bytes);
        if pairs {
            encoder.copy_buffer_to_buffer(&self.pristine_values, 0, &self.values, 0, bytes);
        }
    }

    /// GPU time of one sort from fresh input (the copy back is outside the timed span).
    pub(super) fn time(
        &self,
        gpu: &Gpu,
        sorter: &RadixSorter,
        scratch: &SortScratch,
        timer: &GpuTimer,
        pairs: bool,
    ) -> anyhow::Result<Duration> {
        self.time_with(gpu, timer, pairs, |encoder, job| {
            match &self.length {
                Some(length) => sorter.record_indirect(&gpu.device, encoder, job, length, 0, scratch)?,
                None => sorter.record(&gpu.device, encoder, job, scratch)?,
            }
            Ok(())
        })
    }

    /// GPU time of what `record` records for the job of these buffers (keys, or pairs), from
    /// fresh input.
    pub(super) fn time_with(
        &self,
        gpu: &Gpu,
        timer: &GpuTimer,
        pairs: bool,
        record: impl FnOnce(&mut wgpu::CommandEncoder, &SortJob<'_>) -> anyhow::Result<()>,
    ) -> anyhow::Result<Duration> {
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        self.encode_reset(&mut encoder, true);
        let job = if pairs {
            SortJob::pairs(&self.keys, &self.values, self.len)
        } else {
            SortJob::keys(&self.keys, self.len)
        };
        let job = SortJob { key_bits: self.key_bits, ..job };
        timer.start(&mut encoder);
        record(&mut encoder, &job)?;
        timer.stop(&mut encoder);
        gpu.queue.submit([encoder.finish()]);
        Ok(Duration::from_secs_f64(timer.read_ms(gpu)? / 1e3))
    }
}

/// A peer library's rows, keys then pairs for each length and distribution, like ours.
// Only `--peers` makes one, and only a build with the `peers` feature has it.
#[cfg_attr(not(feature = "peers"), allow(dead_code, reason = "only the peers feature makes one"))]
pub(super) struct Peers {
    /// Its short name, for column headers and JSON keys.
    pub(super) name: &'static str,
    /// What exactly was measured, printed above the table.
    pub(super) description: String,
    pub(super) rows: Vec<Row>,
}

/// Prints one measured row to stderr as it comes.
pub(super) fn progress(row: &Row) {
    let wrong = row.wrong.as_ref().map(|w| format!(" ({w})")).unwrap_or_default();
    eprintln!("{}: {} ms{wrong}", row.label(), row.ms_cell());
}

/// Checks the last sort against a CPU sort, so a fast wrong answer cannot be reported.
pub(super) fn verify(gpu: &Gpu, bench: &Bench, keys: &[u32], pairs: bool) -> anyhow::Result<()> {
    verify_segments(gpu, bench, keys, pairs, keys.len().max(1))
}

/// Checks the last sort of each `segment_len` keys on its own against a CPU sort of each.
pub(super) fn verify_segments(
    gpu: &Gpu,
    bench: &Bench,
    keys: &[u32],
    pairs: bool,
    segment_len: usize,
) -> anyhow::Result<()> {
    let got = read_u32s(gpu, &bench.keys, 0, keys.len())?;
    let values = if pairs { Some(read_u32s(gpu, &bench.values, 0, keys.len())?) } else { None };
    let len = keys.len();
    for (segment, (keys, got)) in keys.chunks(segment_len).zip(got.chunks(segment_len)).enumerate() {
        let start = (segment * segment_len) as u32;
        // The input positions as places in the segment (a key from another segment: none).
        let places: Option<Vec<u32>> = values.as_ref().map(|values| {
            let values = &values[start as usize..start as usize + keys.len()];
            values.iter().map(|&v| v.checked_sub(start).unwrap_or(u32::MAX)).collect()
        });
        if let Some(why) = mismatch_in_bits(keys, got, places.as_deref(), bench.key_bits) {
            let what = if pairs { "pairs" } else { "keys" };
            let place = if len > segment_len { format!(" in segment {segment}") } else { String::new() };
            bail!("the GPU sort of {len} {what} is wrong{place}: {why}");
        }
    }
    Ok(())
}

/// Why `got` (with `values`, the input positions that travelled with the keys, for pairs) is
/// not the stable sort of `keys`, or `None` when it is.
#[cfg_attr(not(feature = "peers"), allow(dead_code, reason = "the peers compare whole keys"))]
pub(super) fn mismatch(keys: &[u32], got: &[u32], values: Option<&[u32]>) -> Option<String> {
    mismatch_in_bits(keys, got, values, 32)
}

/// As [`mismatch`], for a sort of the low `key_bits` of each key (keys equal in them keep their
/// order).
fn mismatch_in_bits(keys: &[u32], got: &[u32], values: Option<&[u32]>, key_bits: u32) -> Option<String> {
    let mask = u32::MAX >> (32 - key_bits);
    let mut want = keys.to_vec();
    want.sort_by_key(|&k| k & mask);
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
    let unstable =
        got.windows(2).zip(values.windows(2)).position(|(k, v)| k[0] & mask == k[1] & mask && v[0] >= v[1]);
    unstable.map(|i| format!("equal keys out of input order at index {i} (unstable)"))
}

#[cfg(test)]
mod tests {
    use super::{mismatch, mismatch_in_bits};

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
        // In the low bit alone: 0 < 1 = 3 = 3, in input order.
        let low = [3, 1, 3, 0];
        assert_eq!(mismatch_in_bits(&low, &[0, 3, 1, 3], Some(&[3, 0, 1, 2]), 1), None);
        assert!(mismatch_in_bits(&low, &[0, 1, 3, 3], None, 1).expect("order").contains("keys differ"));
        let swapped = mismatch_in_bits(&low, &[0, 3, 1, 3], Some(&[3, 2, 1, 0]), 1);
        assert!(swapped.expect("unstable").contains("unstable"));
    }
}
