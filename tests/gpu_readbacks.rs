//! The read-back service no frame waits for: copies recorded with a frame's commands come back
//! whole, labelled and in the order they were recorded, only after their submission, and its
//! staging buffers are reused.

mod common;

use common::on_every_gpu;
use shadersort::gpu::Gpu;
use shadersort::gpu::readbacks::Readbacks;
use std::time::{Duration, Instant};

/// A buffer holding `words`, that copies can read.
fn source(gpu: &Gpu, words: &[u32]) -> wgpu::Buffer {
    let buffer = gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("test::source"),
        size: (words.len() * 4) as u64,
        usage: wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    gpu.queue.write_buffer(&buffer, 0, bytemuck::cast_slice(words));
    buffer
}

/// Records a copy of `bytes` of `from` (at `offset`) into a staging buffer of `readbacks`.
fn record(
    gpu: &Gpu,
    readbacks: &mut Readbacks<char>,
    encoder: &mut wgpu::CommandEncoder,
    from: &wgpu::Buffer,
    offset: u64,
    bytes: u64,
    tag: char,
) {
    let staging = readbacks.staging(gpu, bytes, tag);
    encoder.copy_buffer_to_buffer(from, offset, staging, 0, bytes);
}

/// What `take_ready` hands over until every read-back has come, polling as a frame loop would.
fn take_all(gpu: &Gpu, readbacks: &mut Readbacks<char>) -> Vec<(char, Vec<u32>)> {
    let mut got = Vec::new();
    let started = Instant::now();
    while readbacks.pending() > 0 {
        assert!(started.elapsed() < Duration::from_secs(60), "read-backs never arrived");
        readbacks
            .take_ready(gpu, |tag, bytes| got.push((tag, bytemuck::cast_slice(bytes).to_vec())))
            .unwrap();
        std::thread::sleep(Duration::from_millis(1));
    }
    got
}

#[test]
fn copies_come_back_labelled_in_order_after_their_submission_and_buffers_are_reused() {
    on_every_gpu(|gpu| {
        let words: Vec<u32> = (0..1000).map(|i| i * 7 + 3).collect();
        let from = source(gpu, &words);
        let mut readbacks = Readbacks::default();
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        record(gpu, &mut readbacks, &mut encoder, &from, 0, 16, 'a');
        record(gpu, &mut readbacks, &mut encoder, &from, 400, 2000, 'b');
        record(gpu, &mut readbacks, &mut encoder, &from, 3996, 4, 'c');
        // Nothing comes back before the commands holding the copies are submitted.
        gpu.device.poll(wgpu::PollType::Wait { submission_index: None, timeout: None }).unwrap();
        readbacks.take_ready(gpu, |tag, _| panic!("{tag} came back before its submission")).unwrap();
        assert_eq!(readbacks.pending(), 3);
        gpu.queue.submit([encoder.finish()]);
        readbacks.submitted();
        let got = take_all(gpu, &mut readbacks);
        let want = vec![('a', words[..4].to_vec()), ('b', words[100..600].to_vec()), ('c', vec![words[999]])];
        assert_eq!(got, want);

        // Later frames reuse the staging buffers: the same reads again make none.
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        record(gpu, &mut readbacks, &mut encoder, &from, 0, 16, 'a');
        record(gpu, &mut readbacks, &mut encoder, &from, 400, 2000, 'b');
        gpu.queue.submit([encoder.finish()]);
        readbacks.submitted();
        assert_eq!(take_all(gpu, &mut readbacks), want[..2]);
        assert_eq!(readbacks.buffers_made(), 3, "staging buffers are kept and reused");
    });
    crate::common::ci::passed();
}
