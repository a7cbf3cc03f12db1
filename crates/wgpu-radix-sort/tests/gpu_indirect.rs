//! Sorts whose length is read on the GPU (`RadixSorter::record_indirect`): lengths of 0, 1, 2,
//! around tiles, the capacity and past it, read at different offsets of one buffer; the keys up
//! to the length sorted as the CPU sorts them, the rest untouched; the scratch left ready for
//! the next sort; by every sorter the tests build, on every backend under test.

mod gpus;

use gpus::checks::{awkward_floats, rust_order, sorters, upload};
use gpus::{TestGpu, on_every_gpu, read_u32s};
use wgpu_radix_sort::distribution::Distribution;
use wgpu_radix_sort::{KeyKind, RadixSorter, SortError, SortJob, TILE};

/// The capacity the sorts are recorded for: past two tiles.
const CAPACITY: u32 = 2 * TILE + 100;

/// `keys` sorted by `sorter` with the length read from word `word` of `lengths`, checked
/// against the CPU: the first `min(length, CAPACITY)` keys (and values) are the stable sort of
/// those keys, and the rest are as they were.
fn check_indirect(
    gpu: &TestGpu,
    sorter: &RadixSorter,
    keys: &[u32],
    lengths: &[u32],
    word: usize,
    kind: KeyKind,
) {
    let len = (lengths[word] as usize).min(keys.len());
    let what = format!("length {} (word {word}), {kind:?}, {:?}", lengths[word], sorter.path());
    let key_buffer = upload(gpu, keys);
    let indices: Vec<u32> = (0..keys.len() as u32).collect();
    let value_buffer = upload(gpu, &indices);
    let length_buffer = upload(gpu, lengths);
    let scratch = sorter.scratch(&gpu.device, CAPACITY, true).unwrap();
    let job =
        SortJob { kind, descending: word % 2 == 1, ..SortJob::pairs(&key_buffer, &value_buffer, CAPACITY) };
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    sorter
        .record_indirect(&gpu.device, &mut encoder, &job, &length_buffer, 4 * word as u64, &scratch)
        .unwrap();
    gpu.queue.submit([encoder.finish()]);
    let mut expected: Vec<(u32, u32)> = keys.iter().copied().zip(0..).collect();
    expected[..len].sort_by(|&(a, _), &(b, _)| rust_order(a, b, kind, job.descending, 32));
    let got_keys = read_u32s(gpu, &key_buffer, 0, keys.len());
    let got_values = read_u32s(gpu, &value_buffer, 0, keys.len());
    let want_keys: Vec<u32> = expected.iter().map(|&(k, _)| k).collect();
    let want_values: Vec<u32> = expected.iter().map(|&(_, v)| v).collect();
    assert!(got_keys == want_keys, "{what}: keys differ from the stable sort of the first {len}");
    assert!(got_values == want_values, "{what}: values differ");
    // The scratch is left as a sort leaves it: a sort of the whole capacity right after is
    // right too.
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    sorter.record(&gpu.device, &mut encoder, &SortJob::keys(&key_buffer, CAPACITY), &scratch).unwrap();
    gpu.queue.submit([encoder.finish()]);
    let mut all = keys.to_vec();
    all.sort();
    assert!(read_u32s(gpu, &key_buffer, 0, keys.len()) == all, "{what}: the next sort is wrong");
}

#[test]
fn lengths_read_on_the_gpu_sort_that_many_keys() {
    let lengths = [0, 1, 2, 300, TILE, TILE + 1, CAPACITY - 1, CAPACITY, CAPACITY + 5000, u32::MAX];
    on_every_gpu(|gpu| {
        for (s, sorter) in sorters(gpu).into_iter().enumerate() {
            for word in 0..lengths.len() {
                let distribution = Distribution::ALL[(s + word) % Distribution::ALL.len()];
                let mut keys = distribution.keys(CAPACITY as usize, (s * 31 + word) as u64);
                let kind = [KeyKind::U32, KeyKind::F32, KeyKind::I32][word % 3];
                if kind == KeyKind::F32 {
                    // Zeros, infinities and NaNs, spread over the first keys so short lengths
                    // sort them too.
                    for (i, float) in awkward_floats().into_iter().enumerate() {
                        keys[i * 7 % 40] = float;
                    }
                }
                check_indirect(gpu, &sorter, &keys, &lengths, word, kind);
            }
        }
    });
    crate::gpus::ci::passed();
}

/// A compute pass of the caller's own, recorded before the sort in the same encoder, writes
/// the length the sort reads (word 1 = 3 x word 0 + 7): keys alone, of each kind, in part of
/// their bits, by every sorter; the keys past the length stay as they were.
#[test]
fn a_length_written_by_a_gpu_pass_sorts_keys_alone_in_their_low_bits() {
    let source = "@group(0) @binding(0) var<storage, read_write> lengths: array<u32>;
        @compute @workgroup_size(1) fn main() { lengths[1] = lengths[0] * 3u + 7u; }";
    on_every_gpu(|gpu| {
        let module = gpu.device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("writes a length"),
            source: wgpu::ShaderSource::Wgsl(source.into()),
        });
        let pipeline = gpu.device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("writes a length"),
            layout: None,
            module: &module,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            cache: None,
        });
        for (s, sorter) in sorters(gpu).into_iter().enumerate() {
            for (i, (seed_len, kind, key_bits)) in [
                (1000, KeyKind::U32, 12),
                (TILE, KeyKind::I32, 9),
                (0, KeyKind::F32, 24),
                (CAPACITY, KeyKind::U32, 32),
            ]
            .into_iter()
            .enumerate()
            {
                let mut keys =
                    Distribution::ALL[(s + i) % Distribution::ALL.len()].keys(CAPACITY as usize, i as u64);
                if kind == KeyKind::F32 {
                    for (slot, float) in keys.iter_mut().step_by(2).zip(awkward_floats()) {
                        *slot = float;
                    }
                }
                let key_buffer = upload(gpu, &keys);
                let lengths = upload(gpu, &[seed_len, 0]);
                let bind_group = gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: None,
                    layout: &pipeline.get_bind_group_layout(0),
                    entries: &[wgpu::BindGroupEntry { binding: 0, resource: lengths.as_entire_binding() }],
                });
                let scratch = sorter.scratch(&gpu.device, CAPACITY, false).unwrap();
                let job = SortJob {
                    kind,
                    key_bits,
                    descending: i % 2 == 1,
                    ..SortJob::keys(&key_buffer, CAPACITY)
                };
                let mut encoder = gpu.device.create_command_encoder(&Default::default());
                {
                    let mut pass = encoder.begin_compute_pass(&Default::default());
                    pass.set_pipeline(&pipeline);
                    pass.set_bind_group(0, &bind_group, &[]);
                    pass.dispatch_workgroups(1, 1, 1);
                }
                sorter.record_indirect(&gpu.device, &mut encoder, &job, &lengths, 4, &scratch).unwrap();
                gpu.queue.submit([encoder.finish()]);
                let len = ((seed_len * 3 + 7) as usize).min(keys.len());
                let mut expected = keys.clone();
                expected[..len].sort_by(|&a, &b| rust_order(a, b, kind, job.descending, key_bits));
                let what = format!("length {len}, {kind:?}, {key_bits} bits, {:?}", sorter.path());
                assert!(read_u32s(gpu, &key_buffer, 0, keys.len()) == expected, "{what}: keys differ");
            }
        }
    });
    crate::gpus::ci::passed();
}

#[test]
fn a_length_buffer_that_cannot_be_read_is_refused() {
    on_every_gpu(|gpu| {
        let sorter = RadixSorter::new(&gpu.device);
        let keys = upload(gpu, &[5, 4, 3]);
        let scratch = sorter.scratch(&gpu.device, 3, false).unwrap();
        let job = SortJob::keys(&keys, 3);
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        let mut refused = |buffer: &wgpu::Buffer, offset: u64| {
            let err = sorter
                .record_indirect(&gpu.device, &mut encoder, &job, buffer, offset, &scratch)
                .unwrap_err();
            assert!(matches!(err, SortError::BadBuffer { what: "length", .. }), "{err:?}");
        };
        let lengths = upload(gpu, &[3, 3]);
        refused(&lengths, 8);
        refused(&lengths, 2);
        let unbound = gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("not storage"),
            size: 4,
            usage: wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        refused(&unbound, 0);
    });
    crate::gpus::ci::passed();
}
