//! The browser's recorder ([`record_gif_in_memory`]: each frame awaited, compressed in turn)
//! makes the same GIF, byte for byte, as the native one ([`record_gif`]: a capture ring and
//! worker threads, into a file), for every algorithm, with frames spaced, scaled, held and cut
//! short once the picture is known sorted; and it stops when asked.

mod common;

use image::RgbaImage;
use shadersort::algorithms::radix::RadixSettings;
use shadersort::algorithms::request::StartRequest;
use shadersort::algorithms::{Algorithm, Pipelines, RunSettings, SortRun};
use shadersort::gpu::Gpu;
use shadersort::keys::SortKey;
use shadersort::keys::options::{Axis, SortOptions};
use shadersort::picture::patterns::random_image;
use shadersort::record::in_memory::record_gif_in_memory;
use shadersort::record::{RecordError, RecordSettings, RecordTarget};

fn start<'a>(
    gpu: &'a Gpu,
    pipelines: &'a Pipelines,
    options: SortOptions,
    settings: RunSettings,
) -> impl FnOnce(&RgbaImage) -> Box<dyn SortRun> + 'a {
    move |picture| pipelines.start(gpu, StartRequest::new(picture, options).settings(settings)).unwrap()
}

#[test]
fn the_in_memory_gif_equals_the_file_gif_for_every_algorithm() {
    let dir = tempfile::tempdir().unwrap();
    common::on_every_gpu(|gpu| {
        // (algorithm, run settings, record settings, picture, options)
        let radix_stages = RunSettings {
            radix: RadixSettings { sub_steps: true, ..RadixSettings::default() },
            ..RunSettings::default()
        }
        .for_recording(Algorithm::Radix);
        let cases = [
            (Algorithm::OddEven, RunSettings::default(), RecordSettings::default(), (37, 9), Axis::Rows),
            (
                Algorithm::OddEven,
                RunSettings::default(),
                RecordSettings { every: Some(4), scale: 2, hold_seconds: 0.5, fps: 12, ..Default::default() },
                (21, 30),
                Axis::Columns,
            ),
            (
                Algorithm::Bubble,
                RunSettings { phases_per_step: 3, ..RunSettings::default() },
                RecordSettings::default(),
                (65, 4),
                Axis::Rows,
            ),
            (
                Algorithm::Radix,
                radix_stages,
                RecordSettings { dimmed_twins: true, ..Default::default() },
                (33, 7),
                Axis::Rows,
            ),
            (Algorithm::Bitonic, RunSettings::default(), RecordSettings::default(), (45, 6), Axis::Columns),
        ];
        for (i, (algorithm, run_settings, record, (w, h), axis)) in cases.into_iter().enumerate() {
            let pipelines = Pipelines::new(gpu, algorithm);
            let options = SortOptions { key: SortKey::Luma, descending: i % 2 == 1, axis };
            // A picture sorted after a few passes, so the early end is exercised too.
            let picture = if i == 0 { nearly_sorted(w, h, options) } else { random_image(w, h, i as u64) };
            let path = dir.path().join(format!("case{i}.gif"));
            let target = RecordTarget::prepare(&path).unwrap();
            let on_file = shadersort::record::record(
                gpu,
                &picture,
                start(gpu, &pipelines, options, run_settings),
                &record,
                target,
                |_, _| true,
            )
            .unwrap();
            let mut reported = Vec::new();
            let in_memory = pollster::block_on(record_gif_in_memory(
                gpu,
                &picture,
                start(gpu, &pipelines, options, run_settings),
                &record,
                "case.gif",
                |done, most| {
                    reported.push((done, most));
                    true
                },
            ))
            .unwrap();
            let file_bytes = std::fs::read(&path).unwrap();
            let case = format!("case {i}: {algorithm:?} {w}x{h}");
            assert!(in_memory.bytes == file_bytes, "{case}: the GIFs differ");
            assert_eq!(in_memory.frames, on_file.frames, "{case}");
            assert_eq!(in_memory.sorted_after, on_file.sorted_after, "{case}");
            assert!(on_file.frames >= 2, "{case}: {} frames", on_file.frames);
            assert_eq!(reported.last().map(|r| r.0), Some(in_memory.frames), "{case}: progress {reported:?}");
            if i == 0 {
                let sorted_after = in_memory.sorted_after.expect("a nearly sorted picture is found sorted");
                assert!(
                    in_memory.frames < w,
                    "{case}: {} frames for {sorted_after} passes",
                    in_memory.frames
                );
            }
        }
    });
}

#[test]
fn an_in_memory_recording_stops_when_asked() {
    common::on_every_gpu(|gpu| {
        let pipelines = Pipelines::new(gpu, Algorithm::OddEven);
        let picture = random_image(40, 5, 7);
        let mut calls = 0;
        let result = pollster::block_on(record_gif_in_memory(
            gpu,
            &picture,
            start(gpu, &pipelines, SortOptions::default(), RunSettings::default()),
            &RecordSettings::default(),
            "stopped.gif",
            |_, _| {
                calls += 1;
                calls < 3
            },
        ));
        assert!(matches!(result, Err(RecordError::Cancelled)), "{result:?}");
        assert_eq!(calls, 3);
    });
}

/// Each line sorted but for its first two pixels swapped: sorted after a few passes of 37.
fn nearly_sorted(w: u32, h: u32, options: SortOptions) -> RgbaImage {
    let mut picture = shadersort::reference::stable_sort(&random_image(w, h, 99), &options);
    for y in 0..h {
        let (a, b) = (*picture.get_pixel(0, y), *picture.get_pixel(1, y));
        picture.put_pixel(0, y, b);
        picture.put_pixel(1, y, a);
    }
    picture
}
