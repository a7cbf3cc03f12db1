//! The kinds of key and the bits sorted, against a CPU stable sort by the same order: f32 keys
//! ordered as floats, i32 as integers, both orders, with values; only the low `key_bits` of each
//! key, every width around a byte; on every backend under test.

mod gpus;

use gpus::checks::{awkward_floats, check, check_bits, sorters, upload};
use gpus::{TestGpu, on_every_gpu, read_u32s};
use wgpu_radix_sort::distribution::Distribution;
use wgpu_radix_sort::{KeyKind, RadixSorter, SortJob, TILE};

/// `keys` of `kind` sorted ascending by the sorter the device gets by default, read back.
fn sorted_by_default(gpu: &TestGpu, keys: &[u32], kind: KeyKind) -> Vec<u32> {
    let sorter = RadixSorter::new(&gpu.device);
    let buffer = upload(gpu, keys);
    let scratch = sorter.scratch(&gpu.device, keys.len() as u32, false).unwrap();
    let job = SortJob { kind, ..SortJob::keys(&buffer, keys.len() as u32) };
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    sorter.record(&gpu.device, &mut encoder, &job, &scratch).unwrap();
    gpu.queue.submit([encoder.finish()]);
    read_u32s(gpu, &buffer, 0, keys.len())
}

#[test]
fn float_keys_sort_as_floats_in_both_orders_with_stable_values() {
    let mut keys = awkward_floats();
    keys.extend(Distribution::Uniform.keys(5000, 9).into_iter().map(|k| ((k as i32 as f32) / 1e6).to_bits()));
    keys.extend((0..100).map(|i| ((i % 7) as f32 - 3.0).to_bits()));
    keys.extend(awkward_floats());
    on_every_gpu(|gpu| {
        for sorter in sorters(gpu) {
            for descending in [false, true] {
                check(gpu, &sorter, &keys, KeyKind::F32, descending, true);
            }
        }
        // And the result reads as floats in total order: -NaN first, -0.0 before +0.0, +NaN last.
        let sorted: Vec<f32> =
            sorted_by_default(gpu, &keys, KeyKind::F32).into_iter().map(f32::from_bits).collect();
        assert!(sorted.windows(2).all(|w| w[0].total_cmp(&w[1]).is_le()), "not ascending as floats");
        let first_zero = sorted.iter().position(|&f| f == 0.0).unwrap();
        assert_eq!(sorted[first_zero].to_bits(), 0x8000_0000, "-0.0 before +0.0");
        assert_eq!((sorted[0].to_bits(), sorted[sorted.len() - 1].to_bits()), (0xffff_ffff, 0x7fff_ffff));
    });
    crate::gpus::ci::passed();
}

#[test]
fn signed_keys_sort_as_integers_in_both_orders_with_stable_values() {
    let mut ints = vec![0i32, -1, 1, i32::MIN, i32::MAX, i32::MIN + 1, i32::MAX - 1, -256, 256, -65536];
    ints.extend(Distribution::Uniform.keys(5000, 11).into_iter().map(|k| k as i32));
    ints.extend((0..300).map(|i| (i % 9) - 4));
    let keys: Vec<u32> = ints.iter().map(|&i| i as u32).collect();
    on_every_gpu(|gpu| {
        for sorter in sorters(gpu) {
            for descending in [false, true] {
                check(gpu, &sorter, &keys, KeyKind::I32, descending, true);
            }
        }
        // And the result reads as ordered integers.
        let sorted: Vec<i32> =
            sorted_by_default(gpu, &keys, KeyKind::I32).into_iter().map(|k| k as i32).collect();
        let mut expected = ints.clone();
        expected.sort();
        assert_eq!(sorted, expected);
    });
    crate::gpus::ci::passed();
}

#[test]
fn only_the_low_key_bits_are_sorted_in_as_few_passes() {
    on_every_gpu(|gpu| {
        for sorter in sorters(gpu) {
            for (i, bits) in [1, 4, 7, 8, 9, 12, 15, 16, 17, 23, 24, 25, 31, 32].into_iter().enumerate() {
                let len = [300, 4096 + 17, 2 * TILE as usize + 1][i % 3];
                let distribution = Distribution::ALL[i % Distribution::ALL.len()];
                let keys = distribution.keys(len, i as u64 + 40);
                let kind = [KeyKind::U32, KeyKind::I32, KeyKind::F32][i % 3];
                check_bits(gpu, &sorter, &keys, (kind, bits), i % 4 == 1, i % 2 == 0);
            }
        }
        // Keys sorted in their low bits but not in their high ones: the input counts as
        // sorted (nothing moves), and ties in the low bits keep their order.
        let sorter = RadixSorter::new(&gpu.device);
        let keys: Vec<u32> =
            (0..5000u32).map(|i| (i.wrapping_mul(2654435761) & 0xffff_0000) | (i / 20)).collect();
        check_bits(gpu, &sorter, &keys, (KeyKind::U32, 16), false, true);
    });
    crate::gpus::ci::passed();
}
