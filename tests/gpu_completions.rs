//! When submitted work finished, seen without waiting: every watched submission is reported
//! done, in order, with times that follow it, while the test itself never polls the device (the
//! service's own poller does).

mod common;

use common::on_every_gpu;
use shadersort::gpu::completions::Completions;
use std::time::{Duration, Instant};

#[test]
fn watched_submissions_are_seen_done_in_order_without_the_caller_polling() {
    on_every_gpu(|gpu| {
        let mut completions = Completions::default();
        let buffer = gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("test::completions"),
            size: 1 << 20,
            usage: wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let submitted = Instant::now();
        for tag in 0..5u32 {
            let mut encoder = gpu.device.create_command_encoder(&Default::default());
            encoder.clear_buffer(&buffer, 0, None);
            gpu.queue.submit([encoder.finish()]);
            completions.watch(gpu, tag);
        }
        assert_eq!(completions.pending(), 5);
        let mut seen = Vec::new();
        let started = Instant::now();
        while seen.len() < 5 {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "only {seen:?} of 5 submissions seen done after 20 s: nothing polled the device"
            );
            seen.extend(completions.take());
            std::thread::sleep(Duration::from_millis(5));
        }
        let tags: Vec<u32> = seen.iter().map(|(tag, _)| *tag).collect();
        assert_eq!(tags, [0, 1, 2, 3, 4], "submissions are seen done in the order they ran");
        assert!(seen.windows(2).all(|w| w[0].1 <= w[1].1), "each is seen done no sooner than the one before");
        assert!(seen[0].1 >= submitted, "seen done before it was submitted");
        assert_eq!(completions.pending(), 0);
        assert!(completions.take().is_empty(), "each completion is handed over once");
    });
    crate::common::ci::passed();
}
