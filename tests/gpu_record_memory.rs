//! The browser's recorder ([`record_in_memory`]: each frame awaited, compressed in turn) makes
//! the same GIF and animated PNG, byte for byte, as the native one ([`record`]: a capture ring
//! and worker threads, into a file), and the same PNG frames (in a zip archive rather than a
//! folder), for every algorithm, with frames spaced, scaled, held and cut short once the picture
//! is known sorted; and it stops when asked.

mod common;

use image::RgbaImage;
use shadersort::algorithms::radix::RadixSettings;
use shadersort::algorithms::request::StartRequest;
use shadersort::algorithms::{Algorithm, Pipelines, RunSettings, SortRun};
use shadersort::gpu::Gpu;
use shadersort::keys::SortKey;
use shadersort::keys::options::{Axis, SortOptions};
use shadersort::picture::patterns::random_image;
use shadersort::record::in_memory::record_in_memory;
use shadersort::record::{RecordError, RecordFormat, RecordTarget, Recorded};
use shadersort::settings::RecordSettings;
use std::io::Read;

fn start<'a>(
    gpu: &'a Gpu,
    pipelines: &'a Pipelines,
    options: SortOptions,
    settings: RunSettings,
) -> impl FnOnce(&RgbaImage) -> Box<dyn SortRun> + 'a {
    move |picture| pipelines.start(gpu, StartRequest::new(picture, options).settings(settings)).unwrap()
}

#[test]
fn in_memory_recordings_equal_the_files_for_every_algorithm_and_format() {
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
        let formats = [RecordFormat::Gif, RecordFormat::Apng, RecordFormat::Frames];
        let cases =
            cases.into_iter().enumerate().flat_map(|case| formats.map(|format| (case.clone(), format)));
        for ((i, (algorithm, run_settings, record, (w, h), axis)), format) in cases {
            let pipelines = Pipelines::new(gpu, algorithm);
            let options = SortOptions { key: SortKey::Luma, descending: i % 2 == 1, axis };
            // A picture sorted after a few passes, so the early end is exercised too.
            let picture = if i == 0 { nearly_sorted(w, h, options) } else { random_image(w, h, i as u64) };
            let name = match format {
                RecordFormat::Gif => format!("case{i}.gif"),
                RecordFormat::Apng => format!("case{i}.png"),
                RecordFormat::Frames => format!("case{i}-frames/"),
                RecordFormat::Video => unreachable!("a video is not recorded in memory"),
            };
            let path = dir.path().join(&name);
            let record =
                RecordSettings { dimmed_twins: record.dimmed_twins && format == RecordFormat::Gif, ..record };
            let run_settings = format.run_settings(run_settings, algorithm);
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
            let in_memory = pollster::block_on(record_in_memory(
                gpu,
                &picture,
                start(gpu, &pipelines, options, run_settings),
                &record,
                format,
                &format!("case{i}-frames.zip"),
                |done, most| {
                    reported.push((done, most));
                    true
                },
            ))
            .unwrap();
            let case = format!("case {i}: {algorithm:?} {w}x{h} {format:?}");
            if format == RecordFormat::Frames {
                let files = unzipped(&in_memory.bytes);
                let on_disk: Vec<_> = (0..on_file.recorded.frames)
                    .map(|k| {
                        let file = format!("frame-{k:05}.png");
                        (format!("case{i}-frames/{file}"), std::fs::read(path.join(file)).unwrap())
                    })
                    .collect();
                assert!(files == on_disk, "{case}: the zip's files are not the folder's");
            } else {
                assert!(in_memory.bytes == std::fs::read(&path).unwrap(), "{case}: the files differ");
            }
            // Frames, spacing, when it was found sorted and the palette: all the same. The file's
            // capture ring runs a few steps ahead of the frames it takes, so it may have run
            // more steps past the one that showed the picture sorted.
            let recorded = in_memory.recorded;
            let steps_run = on_file.recorded.steps_run;
            assert_eq!(Recorded { steps_run, ..recorded }, on_file.recorded, "{case}");
            assert!(
                recorded.steps_run <= steps_run,
                "{case}: {} steps in memory, {steps_run} to a file",
                recorded.steps_run
            );
            assert_eq!(recorded.format, format, "{case}");
            assert!(recorded.frames >= 2, "{case}: {} frames", recorded.frames);
            assert_eq!(reported.last().map(|r| r.0), Some(recorded.frames), "{case}: progress {reported:?}");
            if i == 0 {
                let sorted_after = recorded.sorted_after.expect("a nearly sorted picture is found sorted");
                assert!(recorded.frames < w, "{case}: {} frames for {sorted_after} passes", recorded.frames);
            }
        }
    });
    crate::common::ci::passed();
}

#[test]
fn an_in_memory_recording_stops_when_asked() {
    common::on_every_gpu(|gpu| {
        let pipelines = Pipelines::new(gpu, Algorithm::OddEven);
        let picture = random_image(40, 5, 7);
        let mut calls = 0;
        let result = pollster::block_on(record_in_memory(
            gpu,
            &picture,
            start(gpu, &pipelines, SortOptions::default(), RunSettings::default()),
            &RecordSettings::default(),
            RecordFormat::Apng,
            "stopped.png",
            |_, _| {
                calls += 1;
                calls < 3
            },
        ));
        assert!(matches!(result, Err(RecordError::Cancelled)), "{result:?}");
        assert_eq!(calls, 3);
    });
    crate::common::ci::passed();
}

/// A zip archive's files, (name, contents), in order, as the `zip` crate reads them.
fn unzipped(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).expect("a zip archive");
    (0..archive.len())
        .map(|k| {
            let mut file = archive.by_index(k).unwrap();
            let mut contents = Vec::new();
            file.read_to_end(&mut contents).unwrap();
            (file.name().unwrap().into_owned(), contents)
        })
        .collect()
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
