//! The segmented sort against each segment's CPU stable sort: awkward segment lengths and
//! counts (1, around 63/64/65, 256 and a workgroup's sizes, a last segment shorter than the
//! rest), ties, every kind of key, both orders, part of the key's bits, with values; sorted in
//! workgroup memory and through the device-wide sort (by every sorter the tests build, with
//! and without OneSweep's waits), and within the workgroup memory a default device allows; on
//! every backend under test.

mod gpus;

use gpus::checks::{awkward_floats, check_segments, sorters, upload};
use gpus::{TestGpu, on_every_gpu};
use wgpu_radix_sort::distribution::Distribution;
use wgpu_radix_sort::{KeyKind, SegmentedSorter, SortError, SortJob, WORKGROUP_SORT_MAX};

/// (keys, segment length): single keys, pairs, lengths around 63/64/65 and 256, a segment
/// of one, one segment of everything, and last segments shorter than the rest.
const SHAPES: [(usize, u32); 12] = [
    (1, 1),
    (2, 2),
    (9, 1),
    (1000, 2),
    (7 * 63, 63),
    (5 * 64, 64),
    (3 * 65 + 20, 65),
    (4 * 256 + 255, 256),
    (3 * 257, 257),
    (3 * 1000 + 1, 1000),
    (700, 700),
    (2 * 1920 + 17, 1920),
];

/// Every shape, cycling through kinds, orders, key bits and distributions (ties among them):
/// whole keys of every kind in both orders among them; floats with zeros, infinities and NaNs.
fn check_shapes(gpu: &TestGpu, sorter: &SegmentedSorter, with_values: bool) {
    for (i, &(len, segment_len)) in SHAPES.iter().enumerate() {
        let distribution = Distribution::ALL[i % Distribution::ALL.len()];
        let mut keys = distribution.keys(len, i as u64 + 7);
        let kind = [KeyKind::U32, KeyKind::I32, KeyKind::F32][i % 3];
        if kind == KeyKind::F32 {
            for (slot, float) in keys.iter_mut().step_by(3).zip(awkward_floats()) {
                *slot = float;
            }
        }
        let bits = [32, 16, 32, 7][i % 4];
        check_segments(gpu, sorter, &keys, segment_len, (kind, bits), (i / 2) % 2 == 1, with_values);
    }
}

#[test]
fn workgroup_memory_sorts_each_segment_stably() {
    on_every_gpu(|gpu| {
        let sorter = SegmentedSorter::new(&gpu.device).unwrap();
        // The software GPUs hold the most keys a workgroup takes, with their values.
        assert_eq!(sorter.workgroup_len(true), WORKGROUP_SORT_MAX, "{}", gpu.describe());
        for with_values in [false, true] {
            check_shapes(gpu, &sorter, with_values);
        }
        // Segments of exactly a workgroup's keys, and many tiny ones in a workgroup.
        let keys = Distribution::Uniform.keys(2 * WORKGROUP_SORT_MAX as usize + 5, 3);
        check_segments(gpu, &sorter, &keys, WORKGROUP_SORT_MAX, (KeyKind::U32, 32), false, false);
        check_segments(gpu, &sorter, &keys, WORKGROUP_SORT_MAX, (KeyKind::F32, 32), true, true);
        check_segments(gpu, &sorter, &keys, 3, (KeyKind::U32, 32), false, true);
    });
    crate::gpus::ci::passed();
}

#[test]
fn long_segments_sort_through_the_device_wide_sort() {
    on_every_gpu(|gpu| {
        // Every sorter the tests build (both strategies, OneSweep's fallback forced, both
        // paths): the software GPUs run OneSweep's waits only when asked, so the long path is
        // checked with and without a forward-progress guarantee.
        for (i, inner) in sorters(gpu).into_iter().enumerate() {
            let sorter = SegmentedSorter::with_workgroup_len(&gpu.device, inner, 1).unwrap();
            check_shapes(gpu, &sorter, i % 2 == 0);
        }
        // Segments longer than any workgroup holds, by the default sorter.
        let sorter = SegmentedSorter::new(&gpu.device).unwrap();
        let keys = Distribution::FewDistinct.keys(3 * (WORKGROUP_SORT_MAX as usize + 1) + 9, 5);
        check_segments(gpu, &sorter, &keys, WORKGROUP_SORT_MAX + 1, (KeyKind::I32, 32), false, true);
        check_segments(gpu, &sorter, &keys, WORKGROUP_SORT_MAX + 1, (KeyKind::U32, 12), true, false);
        // One segment, with a scratch made for exactly that: the device-wide sort as it is.
        check_segments(gpu, &sorter, &keys, keys.len() as u32, (KeyKind::F32, 32), true, true);
        check_segments(gpu, &sorter, &keys, u32::MAX, (KeyKind::U32, 20), false, false);
    });
    crate::gpus::ci::passed();
}

#[test]
fn a_default_device_sorts_shorter_pairs_in_workgroup_memory() {
    on_every_gpu(|gpu| {
        let small = gpu.with_workgroup_memory(16384).unwrap();
        let sorter = SegmentedSorter::new(&small.device).unwrap();
        assert_eq!((sorter.workgroup_len(false), sorter.workgroup_len(true)), (4096, 2048));
        // Segments of 3840 (a 2160x3840 picture's rows): keys alone in workgroup memory,
        // pairs through the device-wide sort.
        let keys = Distribution::Uniform.keys(2 * 3840 + 100, 9);
        check_segments(&small, &sorter, &keys, 3840, (KeyKind::U32, 32), false, false);
        check_segments(&small, &sorter, &keys, 3840, (KeyKind::U32, 32), false, true);
        small.check().unwrap();
    });
    crate::gpus::ci::passed();
}

#[test]
fn bad_segment_jobs_are_refused() {
    on_every_gpu(|gpu| {
        let sorter = SegmentedSorter::new(&gpu.device).unwrap();
        let keys = upload(gpu, &[3; 10_000]);
        let short = sorter.scratch(&gpu.device, 10_000, 100, false).unwrap();
        let job = SortJob::keys(&keys, 10_000);
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        assert_eq!(sorter.record(&gpu.device, &mut encoder, &job, 0, &short), Err(SortError::SegmentLen));
        // A scratch made for short segments has no long path's buffers.
        let long = WORKGROUP_SORT_MAX * 2;
        assert_eq!(
            sorter.record(&gpu.device, &mut encoder, &job, long, &short),
            Err(SortError::SegmentScratch { len: 10_000, segment_len: long, values: false })
        );
        let small = sorter.scratch(&gpu.device, 5_000, long, false).unwrap();
        assert_eq!(
            sorter.record(&gpu.device, &mut encoder, &job, long, &small),
            Err(SortError::SegmentScratch { len: 10_000, segment_len: long, values: false })
        );
        // One made for one segment has no buffers for several.
        let whole = sorter.scratch(&gpu.device, 10_000, 10_000, false).unwrap();
        assert_eq!(
            sorter.record(&gpu.device, &mut encoder, &job, long, &whole),
            Err(SortError::SegmentScratch { len: 10_000, segment_len: long, values: false })
        );
        let bits = SortJob { key_bits: 0, ..job };
        assert_eq!(
            sorter.record(&gpu.device, &mut encoder, &bits, 100, &short),
            Err(SortError::KeyBits { bits: 0 })
        );
    });
    crate::gpus::ci::passed();
}
