//! What the sort's GPU tests share: the sorters of every path and strategy a GPU runs, keys
//! uploaded, and a sort checked against the CPU's stable sort by Rust's own ordering of the
//! keys (`u32::cmp`, `i32::cmp`, `f32::total_cmp`), never by the crate's own transform.

use super::{TestGpu as Gpu, read_u32s};
use std::cmp::Ordering;
use wgpu::util::DeviceExt;
use wgpu_radix_sort::{
    KeyKind, RadixSorter, SegmentedSorter, SortError, SortJob, SortPath, SortStrategy, TILE, TileOrder,
    TileWidths,
};

/// How the sort must order two keys of `kind`, by Rust's own ordering of that type: `u32::cmp`,
/// `i32::cmp`, and `f32::total_cmp` for floats (-NaN < -inf < ... < -0.0 < +0.0 < ... < +inf <
/// +NaN, NaNs among themselves by their bits: the crate's documented rule); reversed when
/// `descending`. With `key_bits` below 32 only the low bits of the key as the sort documents
/// it are compared: an i32's flipped sign bit is then not among them, and a negative float's
/// bits are complemented (sign-magnitude made two's-complement-like), a positive one's kept.
pub fn rust_order(a: u32, b: u32, kind: KeyKind, descending: bool, key_bits: u32) -> Ordering {
    let ascending = if key_bits == 32 {
        match kind {
            KeyKind::U32 => a.cmp(&b),
            KeyKind::I32 => (a as i32).cmp(&(b as i32)),
            KeyKind::F32 => f32::from_bits(a).total_cmp(&f32::from_bits(b)),
        }
    } else {
        let mask = (1u32 << key_bits) - 1;
        let low = |k: u32| match kind {
            KeyKind::F32 if f32::from_bits(k).is_sign_negative() => !k & mask,
            _ => k & mask,
        };
        low(a).cmp(&low(b))
    };
    if descending { ascending.reverse() } else { ascending }
}

/// `keys` with their indices, stably sorted as the sort must order them.
pub fn expected_order(keys: &[u32], kind: KeyKind, descending: bool, key_bits: u32) -> Vec<(u32, u32)> {
    let mut expected: Vec<(u32, u32)> = keys.iter().copied().zip(0..).collect();
    expected.sort_by(|&(a, _), &(b, _)| rust_order(a, b, kind, descending, key_bits));
    expected
}

/// Floats every float sort must hold: both zeros, infinities, the smallest normals and
/// subnormals, equal keys, and NaNs of both signs with different payloads (quiet and
/// signalling, the largest payloads), as bits.
#[allow(dead_code, reason = "the device-wide sort's tests of lengths use no floats")]
pub fn awkward_floats() -> Vec<u32> {
    let mut floats: Vec<u32> =
        [0.0f32, -0.0, 1.5, -1.5, f32::INFINITY, f32::NEG_INFINITY, 1e-38, -1e-38, 7.0, 7.0]
            .iter()
            .map(|f| f.to_bits())
            .collect();
    floats.extend([
        1,
        0x8000_0001,
        f32::MIN_POSITIVE.to_bits(),
        (-f32::MIN_POSITIVE).to_bits(),
        0,
        0x8000_0000,
    ]);
    floats.extend([
        0x7fc0_0000,
        0xffc0_0000,
        0x7f80_0001,
        0xff80_0001,
        0x7fff_ffff,
        0xffff_ffff,
        0x7fc0_0000,
    ]);
    floats
}

/// Where `sorters` switches from reduce-then-scan to OneSweep.
const SWITCH_AT: u32 = 1000;

/// A sorter of every path the GPU runs with each strategy, OneSweep with its fallback forced,
/// one that switches strategy at 1000 keys, and OneSweep with tiles in workgroup order (what
/// NVIDIA GPUs run; the software GPUs take tickets by default): both paths on lavapipe
/// (subgroups of 8, or 16 with `LP_NATIVE_VECTOR_WIDTH=512`, as `.ci/run` runs them again), the
/// portable one on GL, which has no subgroups and must say so.
pub fn sorters(gpu: &Gpu) -> Vec<RadixSorter> {
    let mut sorters = Vec::new();
    let mut add = |path| {
        for strategy in [SortStrategy::ReduceThenScan, SortStrategy::OneSweep] {
            sorters.push(RadixSorter::with_path_and_strategy(&gpu.device, path, strategy)?);
        }
        sorters.push(RadixSorter::with_look_back_spins(&gpu.device, path, 1)?);
        sorters.push(RadixSorter::with_onesweep_from(&gpu.device, path, SWITCH_AT)?);
        sorters.push(RadixSorter::with_tile_order(&gpu.device, path, TileOrder::WorkgroupOrder)?);
        if path == SortPath::Subgroups {
            // The OneSweep sorters above keep short sorts' keys (and values) in workgroup memory
            // (every length here is short); this one never does.
            let last = sorters.last().expect("pushed above");
            assert!(last.keys_in_order_up_to() > 300_001, "{}", gpu.describe());
            let sorter = RadixSorter::with_keys_in_order_up_to(&gpu.device, path, 0)?;
            assert_eq!(sorter.keys_in_order_up_to(), 0);
            sorters.push(sorter);
            // OneSweep in wider workgroups than 256 at every length, of two widths that
            // lavapipe's workgroup memory holds with subgroups of 8 or 16 (the H100 runs 512 and
            // 384 with subgroups of 32): invocations past the 256 digits, tiles of 4608 keys and
            // of 4224 (4352 with subgroups of 16, whose multiple a width must be); and the
            // histogram in blocks of 5120 keys.
            let lanes = SortPath::subgroup_size(&gpu.device).expect("the subgroup path runs");
            let widths = TileWidths {
                keys: 288,
                pairs: 264_u32.next_multiple_of(lanes),
                pairs_from: 0,
                histogram: 320,
            };
            let sorter = RadixSorter::with_tile_widths(&gpu.device, path, widths)?;
            assert_eq!(
                (sorter.tile_len(5, false), sorter.tile_len(5, true)),
                (288 * 16, widths.pairs * 16),
                "{}",
                gpu.describe()
            );
            sorters.push(sorter);
            // A width that is no multiple of the subgroup size is refused: that kernel stays
            // narrow.
            let uneven = TileWidths { pairs: widths.pairs + lanes / 2, ..widths };
            let narrow = RadixSorter::with_tile_widths(&gpu.device, path, uneven)?;
            assert_eq!(narrow.tile_len(5, true), TILE, "{}", gpu.describe());
        }
        Ok::<_, SortError>(())
    };
    add(SortPath::Portable).unwrap();
    match add(SortPath::Subgroups) {
        Ok(()) => {}
        Err(e) => {
            assert_eq!(e, SortError::NoSubgroups);
            // GL has no subgroups; lavapipe on a CPU without AVX (or asked for 128-bit vectors)
            // has subgroups of 4, narrower than the path takes.
            let info = gpu.adapter.get_info();
            assert!(
                info.backend == wgpu::Backend::Gl || info.subgroup_max_size < 8,
                "only GL and subgroups narrower than 8 lack the subgroup path here: {}",
                gpu.describe()
            );
        }
    }
    // The software GPUs allow 32 KiB of workgroup memory per workgroup: both paths reorder
    // tiles there (the subgroup path with lavapipe's subgroups of 8 needs 26 KiB, of 16 less).
    // Tiles written directly to their slots are tested with less memory, below.
    for sorter in &sorters {
        assert!(sorter.reorders(), "{:?} on {}", sorter.path(), gpu.describe());
    }
    if gpu.adapter.get_info().backend == wgpu::Backend::Vulkan
        && gpu.adapter.get_info().subgroup_max_size >= 8
    {
        assert_eq!(sorters.len(), 12, "lavapipe runs the subgroup path");
        assert_eq!(RadixSorter::new(&gpu.device).path(), SortPath::Subgroups, "and picks it");
    }
    if gpu.adapter.get_info().device_type == wgpu::DeviceType::Cpu {
        // Software GPUs need not run workgroups side by side, so they never wait by default.
        assert_eq!(RadixSorter::new(&gpu.device).onesweep_from(), None);
    }
    sorters
}

pub fn upload(gpu: &Gpu, data: &[u32]) -> wgpu::Buffer {
    // A buffer of at least 4 bytes, so even an empty sort has something to bind.
    let contents: Vec<u32> = if data.is_empty() { vec![0] } else { data.to_vec() };
    gpu.device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("test keys"),
        contents: bytemuck::cast_slice(&contents),
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
    })
}

/// Sorts `keys` (with their indices as values when `with_values`) on the GPU and compares with
/// a CPU stable sort by the same order key.
#[allow(dead_code, reason = "the segment tests check segments")]
pub fn check(
    gpu: &Gpu,
    sorter: &RadixSorter,
    keys: &[u32],
    kind: KeyKind,
    descending: bool,
    with_values: bool,
) {
    check_bits(gpu, sorter, keys, (kind, 32), descending, with_values);
}

/// As [`check`], sorting only the low `key_bits` of each key as the sort orders it.
#[allow(dead_code, reason = "the segment tests check segments")]
pub fn check_bits(
    gpu: &Gpu,
    sorter: &RadixSorter,
    keys: &[u32],
    (kind, key_bits): (KeyKind, u32),
    descending: bool,
    with_values: bool,
) {
    let len = keys.len() as u32;
    let what = format!(
        "{len} keys, {kind:?}, {key_bits} bits, descending {descending}, values {with_values}, {:?} {:?}",
        sorter.path(),
        sorter.strategy_for(len)
    );
    let key_buffer = upload(gpu, keys);
    let indices: Vec<u32> = (0..len).collect();
    let value_buffer = upload(gpu, &indices);
    let scratch = sorter.scratch(&gpu.device, len, with_values).unwrap();
    let values = with_values.then_some(&value_buffer);
    let job = SortJob { keys: &key_buffer, values, len, kind, descending, key_bits };
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    sorter.record(&gpu.device, &mut encoder, &job, &scratch).unwrap();
    gpu.queue.submit([encoder.finish()]);
    let got = read_u32s(gpu, &key_buffer, 0, keys.len());

    let expected = expected_order(keys, kind, descending, key_bits);
    let expected_keys: Vec<u32> = expected.iter().map(|&(k, _)| k).collect();
    assert!(got == expected_keys, "{what}: keys differ from the stable sort");
    if with_values {
        let values = read_u32s(gpu, &value_buffer, 0, keys.len());
        let expected_values: Vec<u32> = expected.iter().map(|&(_, v)| v).collect();
        assert!(values == expected_values, "{what}: values differ (the sort is not stable)");
    }
}

/// Sorts each segment of `segment_len` keys on its own on the GPU (with their indices as
/// values when `with_values`) and compares with a CPU stable sort of each by the same order
/// key; every key and value is compared, so a key that left its segment fails too.
#[allow(dead_code, reason = "only the segment tests sort segments")]
pub fn check_segments(
    gpu: &Gpu,
    sorter: &SegmentedSorter,
    keys: &[u32],
    segment_len: u32,
    (kind, key_bits): (KeyKind, u32),
    descending: bool,
    with_values: bool,
) {
    let len = keys.len() as u32;
    let what = format!(
        "{len} keys in segments of {segment_len}, {kind:?}, {key_bits} bits, descending {descending}, values {with_values}, workgroup sort up to {}",
        sorter.workgroup_len(with_values)
    );
    let key_buffer = upload(gpu, keys);
    let indices: Vec<u32> = (0..len).collect();
    let value_buffer = upload(gpu, &indices);
    let scratch = sorter.scratch(&gpu.device, len, segment_len, with_values).unwrap();
    let values = with_values.then_some(&value_buffer);
    let job = SortJob { keys: &key_buffer, values, len, kind, descending, key_bits };
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    sorter.record(&gpu.device, &mut encoder, &job, segment_len, &scratch).unwrap();
    gpu.queue.submit([encoder.finish()]);
    let got = read_u32s(gpu, &key_buffer, 0, keys.len());

    let mut expected: Vec<(u32, u32)> = keys.iter().copied().zip(0..).collect();
    for segment in expected.chunks_mut(segment_len as usize) {
        segment.sort_by(|&(a, _), &(b, _)| rust_order(a, b, kind, descending, key_bits));
    }
    let expected_keys: Vec<u32> = expected.iter().map(|&(k, _)| k).collect();
    if got != expected_keys {
        let first = got.iter().zip(&expected_keys).position(|(a, b)| a != b).unwrap_or(0);
        panic!("{what}: keys differ from each segment's stable sort from key {first}");
    }
    if with_values {
        let values = read_u32s(gpu, &value_buffer, 0, keys.len());
        let expected_values: Vec<u32> = expected.iter().map(|&(_, v)| v).collect();
        assert!(values == expected_values, "{what}: values differ (the sort is not stable)");
    }
}
