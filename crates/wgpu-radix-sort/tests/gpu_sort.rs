//! The device-wide radix sort equals a CPU stable sort: every length from 0 to 300, selected
//! large lengths around tile boundaries, every distribution, both orders, and with values
//! (stability); on every backend under test. The kinds of key and `key_bits`: `gpu_keys.rs`.

mod gpus;

use gpus::checks::{check, sorters, upload};
use gpus::{TestGpu as Gpu, on_every_gpu, read_u32s};
use wgpu_radix_sort::distribution::Distribution;
use wgpu_radix_sort::{
    KeyKind, PASS_MODES_WORD, RadixSorter, SortError, SortJob, SortPath, SortStrategy, TileMemory,
};

/// Sorts `keys` ascending and returns the four passes' modes: 0 sorted, 1 only copied, 2 skipped.
fn pass_modes(gpu: &Gpu, sorter: &RadixSorter, keys: &[u32]) -> Vec<u32> {
    let key_buffer = upload(gpu, keys);
    let scratch = sorter.scratch(&gpu.device, keys.len() as u32, false).unwrap();
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    sorter
        .record(&gpu.device, &mut encoder, &SortJob::keys(&key_buffer, keys.len() as u32), &scratch)
        .unwrap();
    gpu.queue.submit([encoder.finish()]);
    read_u32s(gpu, scratch.histograms(), u64::from(PASS_MODES_WORD) * 4, 4)
}

#[test]
fn every_length_up_to_300_sorts_like_a_stable_sort() {
    on_every_gpu(|gpu| {
        for sorter in sorters(gpu) {
            for len in 0..=300usize {
                let distribution = Distribution::ALL[len % Distribution::ALL.len()];
                let keys = distribution.keys(len, len as u64);
                check(gpu, &sorter, &keys, KeyKind::U32, false, len % 3 == 0);
            }
        }
    });
    crate::gpus::ci::passed();
}

#[test]
fn lengths_around_tile_boundaries_and_every_distribution() {
    on_every_gpu(|gpu| {
        for sorter in sorters(gpu) {
            for (i, len) in
                [2047usize, 2048, 4095, 4096, 4097, 4609, 8192 + 1, 2 * 4224 + 1, 65536 + 7, 300_001]
                    .into_iter()
                    .enumerate()
            {
                for (j, distribution) in Distribution::ALL.into_iter().enumerate() {
                    let keys = distribution.keys(len, (i * 10 + j) as u64);
                    check(gpu, &sorter, &keys, KeyKind::U32, (i + j) % 4 == 1, (i + j) % 2 == 0);
                }
            }
        }
    });
    crate::gpus::ci::passed();
}

/// Where a device allows less workgroup memory, the sort reorders tiles in workgroup memory
/// only where that fits, writes each key straight to its slot otherwise, and offers the
/// subgroup path only where its counters fit: still a stable sort, on both paths and
/// strategies. wgpu's default 16 KiB keeps the portable path from reordering (and refuses
/// lavapipe's subgroups of 8, and keeps its subgroups of 16 from reordering); 23 KiB lets the
/// portable path and subgroups of 16 reorder but not subgroups of 8.
#[test]
fn devices_with_less_workgroup_memory_reorder_only_what_fits() {
    on_every_gpu(|full| {
        let mut written_directly = Vec::new();
        for limit in [16384, 23552] {
            let gpu = full.with_workgroup_memory(limit).unwrap();
            for path in [SortPath::Portable, SortPath::Subgroups] {
                let subgroup_size = match path {
                    SortPath::Portable => None,
                    SortPath::Subgroups => match SortPath::subgroup_size(&full.device) {
                        Some(size) => Some(size),
                        None => continue,
                    },
                };
                if TileMemory::new(subgroup_size, false).bytes > limit {
                    let refused =
                        RadixSorter::with_path_and_strategy(&gpu.device, path, SortStrategy::OneSweep);
                    assert_eq!(refused.err(), Some(SortError::NoSubgroups), "{path:?} in {limit} bytes");
                    assert_eq!(RadixSorter::new(&gpu.device).path(), SortPath::Portable);
                    continue;
                }
                let reorders = TileMemory::new(subgroup_size, true).bytes <= limit;
                if !reorders {
                    written_directly.push(path);
                }
                for strategy in [SortStrategy::ReduceThenScan, SortStrategy::OneSweep] {
                    let sorter = RadixSorter::with_path_and_strategy(&gpu.device, path, strategy).unwrap();
                    assert_eq!(sorter.reorders(), reorders, "{path:?} in {limit} bytes");
                    for (i, len) in [1usize, 257, 4097, 65536 + 7].into_iter().enumerate() {
                        for (j, distribution) in Distribution::ALL.into_iter().enumerate() {
                            let keys = distribution.keys(len, (i * 10 + j) as u64);
                            check(&gpu, &sorter, &keys, KeyKind::U32, (i + j) % 3 == 1, (i + j) % 2 == 0);
                        }
                    }
                }
            }
            gpu.check().unwrap_or_else(|e| panic!("{}: {e}", gpu.describe()));
        }
        // The portable path wrote tiles directly at 16 KiB; subgroups of 8 did at 23 KiB (16
        // KiB refuses them), subgroups of 16 at 16 KiB, and subgroups of 32 reorder at both.
        let expected = if matches!(SortPath::subgroup_size(&full.device), Some(8 | 16)) { 2 } else { 1 };
        assert_eq!(written_directly.len(), expected, "{written_directly:?} on {}", full.describe());
    });
    crate::gpus::ci::passed();
}

/// Lavapipe's subgroups are as wide as asked: `LP_NATIVE_VECTOR_WIDTH / 32` lanes (`.ci/run`
/// asks for 256 bits, then 512), so each CI pass proves the ballot width it names, and the
/// width goes into the test ledger. Unset, the width is the CPU's (8 lanes with AVX, 4 without,
/// which gets no subgroup path), so only a width asked for is checked.
#[test]
fn lavapipe_subgroups_are_as_wide_as_asked() {
    let asked = std::env::var("LP_NATIVE_VECTOR_WIDTH").ok().map(|bits| {
        bits.parse::<u32>().unwrap_or_else(|_| panic!("LP_NATIVE_VECTOR_WIDTH={bits:?} is no number of bits"))
            / 32
    });
    on_every_gpu(|gpu| {
        let info = gpu.adapter.get_info();
        if info.backend != wgpu::Backend::Vulkan || !info.name.starts_with("llvmpipe") {
            return;
        }
        let lanes = SortPath::subgroup_size(&gpu.device);
        if let Some(asked) = asked {
            // Subgroups of 4 (128-bit vectors, a CPU without AVX) are narrower than the
            // subgroup path takes: it is refused there, and the portable path sorts.
            let expected = (asked >= 8).then_some(asked);
            assert_eq!(lanes, expected, "subgroups LP_NATIVE_VECTOR_WIDTH asks for, on {}", gpu.describe());
            assert_eq!(gpu.adapter.get_info().subgroup_max_size, asked, "{}", gpu.describe());
        }
        gpus::ci::ran("radix sort subgroups", &lanes.map_or("none".into(), |n| n.to_string()));
    });
    crate::gpus::ci::passed();
}

/// Sorted input skips every pass and a digit shared by all keys only copies: a descent missed
/// anywhere (inside a row of 256, across rows and tiles, at the very end) or a constant digit
/// misjudged would leave keys out of order.
#[test]
fn sorted_input_and_constant_digits_take_the_short_ways_correctly() {
    let len = 5000usize;
    let sorted: Vec<u32> = (0..len as u32).map(|i| i * 3).collect();
    let mut inputs = vec![sorted.clone(), vec![7; len]];
    for swap in [0, 255, 256, 2047, len - 2] {
        let mut nearly = sorted.clone();
        nearly.swap(swap, swap + 1);
        inputs.push(nearly);
    }
    // Only the top digit varies; only the low one varies (and descending turns both around).
    inputs.push((0..len as u32).map(|i| (((i * 7919) % 256) << 24) | 0x00ab_cdef).collect());
    inputs.push((0..len as u32).map(|i| 0x1234_5600 | ((i * 31) % 256)).collect());
    // What the histogram finds: sorted and constant inputs skip every pass, one descent
    // anywhere sorts every pass, and a constant digit's pass only copies.
    let (sort, copy, skip) = (0, 1, 2);
    let mut modes = vec![vec![skip; 4], vec![skip; 4]];
    modes.extend(std::iter::repeat_n(vec![sort, sort, copy, copy], 5));
    modes.extend([vec![copy, copy, copy, sort], vec![sort, copy, copy, copy]]);
    on_every_gpu(|gpu| {
        for sorter in sorters(gpu) {
            for (i, keys) in inputs.iter().enumerate() {
                check(gpu, &sorter, keys, KeyKind::U32, false, true);
                check(gpu, &sorter, keys, KeyKind::U32, i % 2 == 0, i % 3 == 0);
                assert_eq!(pass_modes(gpu, &sorter, keys), modes[i], "input {i}, {:?}", sorter.path());
            }
        }
    });
    crate::gpus::ci::passed();
}

/// OneSweep's passes take turns with two halves of the status words, and each clears its tiles'
/// words in the half the next pass uses; the last pass clears the first half, which must be zero
/// as a sort begins (no sort clears anything itself). Checked by reading the words back: a sort
/// whose last two passes only copy (keys below 2^16, so neither writes a status word) leaves
/// both halves zero, though the second began as garbage; a sort whose four passes all sort
/// leaves the first half zero. Then sorts of other lengths reuse the scratch, and a sorted input
/// after them skips every pass. After every sort the histograms' counts and the unsorted flag are
/// zero again.
#[test]
fn each_onesweep_pass_clears_the_status_words_of_the_next() {
    let len = 5 * 4096 - 7;
    let mut narrow: Vec<u32> = (0..len).map(|i| i * 3).collect();
    narrow.swap(100, 9000);
    let wide = Distribution::Uniform.keys(len as usize, 3);
    on_every_gpu(|gpu| {
        for sorter in sorters(gpu).iter().filter(|s| s.onesweep_from().is_some_and(|from| from <= 4097)) {
            let scratch = sorter.scratch(&gpu.device, len, false).unwrap();
            let half = 5 * 256;
            assert_eq!(scratch.status().size(), 2 * half * 4, "two halves of 256 words per tile");
            let garbage = vec![0xdead_beefu32; half as usize];
            gpu.queue.write_buffer(scratch.status(), half * 4, bytemuck::cast_slice(&garbage));
            let sort = |keys: &[u32]| {
                let buffer = upload(gpu, keys);
                let mut encoder = gpu.device.create_command_encoder(&Default::default());
                let job = SortJob::keys(&buffer, keys.len() as u32);
                sorter.record(&gpu.device, &mut encoder, &job, &scratch).unwrap();
                gpu.queue.submit([encoder.finish()]);
                let mut sorted = keys.to_vec();
                sorted.sort_unstable();
                assert_eq!(
                    read_u32s(gpu, &buffer, 0, keys.len()),
                    sorted,
                    "{:?} on {}",
                    sorter.path(),
                    gpu.describe()
                );
                let counts = read_u32s(gpu, scratch.histograms(), 0, 4 * 256);
                assert!(counts.iter().all(|&c| c == 0), "counts left for the next sort");
                // The unsorted flag follows the four modes.
                let unsorted = read_u32s(gpu, scratch.histograms(), u64::from(PASS_MODES_WORD + 4) * 4, 1);
                assert_eq!(unsorted, [0], "the unsorted flag");
            };
            let set_words = |from: u64| {
                let words = read_u32s(gpu, scratch.status(), from * 4, half as usize);
                words.iter().filter(|&&w| w != 0).count()
            };
            sort(&narrow);
            assert_eq!((set_words(0), set_words(half)), (0, 0), "{:?} on {}", sorter.path(), gpu.describe());
            sort(&wide);
            assert_eq!(set_words(0), 0, "the first half after four sorting passes");
            assert_ne!(set_words(half), 0, "the last pass's own words");
            for n in [4097, 3 * 4096 + 1, len] {
                sort(&wide[..n as usize]);
            }
            // The unsorted flag was left zero too: sorted keys skip every pass.
            sort(&(0..len).collect::<Vec<u32>>());
            let modes = read_u32s(gpu, scratch.histograms(), u64::from(PASS_MODES_WORD) * 4, 4);
            assert_eq!(modes, [2; 4], "{:?} on {}", sorter.path(), gpu.describe());
        }
    });
    crate::gpus::ci::passed();
}

/// Also with a sorter that runs OneSweep for the first sort and reduce-then-scan for the
/// second, from one scratch.
#[test]
fn two_sorts_in_one_encoder_share_a_scratch() {
    on_every_gpu(|gpu| {
        let path = SortPath::best_for(&gpu.device);
        let switching = RadixSorter::with_onesweep_from(&gpu.device, path, 4000).unwrap();
        assert_eq!(switching.strategy_for(5000), SortStrategy::OneSweep);
        assert_eq!(switching.strategy_for(3000), SortStrategy::ReduceThenScan);
        for sorter in [RadixSorter::new(&gpu.device), switching] {
            let (a, b) = (Distribution::Uniform.keys(5000, 1), Distribution::Uniform.keys(3000, 2));
            let (buffer_a, buffer_b) = (upload(gpu, &a), upload(gpu, &b));
            let scratch = sorter.scratch(&gpu.device, 5000, false).unwrap();
            let mut encoder = gpu.device.create_command_encoder(&Default::default());
            sorter.record(&gpu.device, &mut encoder, &SortJob::keys(&buffer_a, 5000), &scratch).unwrap();
            let down = SortJob { descending: true, ..SortJob::keys(&buffer_b, 3000) };
            sorter.record(&gpu.device, &mut encoder, &down, &scratch).unwrap();
            gpu.queue.submit([encoder.finish()]);
            let (mut want_a, mut want_b) = (a.clone(), b.clone());
            want_a.sort_unstable();
            want_b.sort_unstable_by(|x, y| y.cmp(x));
            assert_eq!(read_u32s(gpu, &buffer_a, 0, 5000), want_a);
            assert_eq!(read_u32s(gpu, &buffer_b, 0, 3000), want_b);
        }
    });
    crate::gpus::ci::passed();
}

#[test]
fn misuse_is_refused_with_an_error_not_a_panic() {
    let gpu = &gpus::gpus()[0];
    let sorter = RadixSorter::new(&gpu.device);
    let too_many = sorter.max_len().saturating_add(1);
    if too_many > sorter.max_len() {
        assert!(matches!(sorter.scratch(&gpu.device, too_many, false), Err(SortError::TooLong { .. })));
    }
    let keys = upload(gpu, &[3, 1, 2]);
    let small = sorter.scratch(&gpu.device, 2, false).unwrap();
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    let err = sorter.record(&gpu.device, &mut encoder, &SortJob::keys(&keys, 3), &small).unwrap_err();
    assert!(err.to_string().contains("holds 2 keys"), "{err}");
    let scratch = sorter.scratch(&gpu.device, 8, false).unwrap();
    let err = sorter.record(&gpu.device, &mut encoder, &SortJob::keys(&keys, 8), &scratch).unwrap_err();
    assert!(matches!(err, SortError::BadBuffer { what: "keys", .. }), "{err}");
    let err =
        sorter.record(&gpu.device, &mut encoder, &SortJob::pairs(&keys, &keys, 3), &scratch).unwrap_err();
    assert!(err.to_string().contains("with values"), "{err}");
    for bits in [0, 33] {
        let job = SortJob { key_bits: bits, ..SortJob::keys(&keys, 3) };
        let err = sorter.record(&gpu.device, &mut encoder, &job, &scratch).unwrap_err();
        assert_eq!(err, SortError::KeyBits { bits }, "{err}");
    }
    let other = match sorter.strategy_for(3) {
        SortStrategy::OneSweep => SortStrategy::ReduceThenScan,
        SortStrategy::ReduceThenScan => SortStrategy::OneSweep,
    };
    let other = RadixSorter::with_path_and_strategy(&gpu.device, SortPath::Portable, other).unwrap();
    let err = other.record(&gpu.device, &mut encoder, &SortJob::keys(&keys, 3), &scratch).unwrap_err();
    assert!(matches!(err, SortError::ScratchStrategy { .. }), "{err}");
    // A scratch from a sorter that never runs OneSweep, for a length where this one does.
    let switching = RadixSorter::with_onesweep_from(&gpu.device, SortPath::Portable, 2).unwrap();
    let plain =
        RadixSorter::with_path_and_strategy(&gpu.device, SortPath::Portable, SortStrategy::ReduceThenScan)
            .unwrap()
            .scratch(&gpu.device, 8, false)
            .unwrap();
    let err = switching.record(&gpu.device, &mut encoder, &SortJob::keys(&keys, 3), &plain).unwrap_err();
    assert!(err.to_string().contains("onesweep's per-tile words for 3 keys"), "{err}");
    crate::gpus::ci::passed();
}
