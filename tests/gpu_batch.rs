//! A batch's pipeline on every backend under test, its GPU slow to open: the readers decode as
//! many pictures as the batch has room for and wait for the GPU holding them; with room for one
//! picture, for three, and for every picture, each comes out as the CPU model sorts it, under
//! its own name, and the batch ends.

#[path = "common/ci.rs"]
mod ci;

use clap::Parser;
use shadersort::cli::Cli;
use shadersort::engine::Engine;
use shadersort::gpu::Gpu;
use shadersort::keys::options::SortOptions;
use shadersort::media::batch::{Batch, Outcome, Report, gather};
use shadersort::picture::patterns::random_image;
use shadersort::reference::{lines_are_permutations, stable_sort};
use std::sync::Arc;
use std::time::Duration;

/// Awkward sizes, one picture each.
const SIZES: [(u32, u32); 9] = [(1, 1), (9, 1), (1, 9), (63, 4), (64, 3), (65, 5), (33, 17), (2, 2), (40, 7)];

#[test]
fn pictures_read_while_the_gpu_opens_wait_for_it_then_all_are_sorted() {
    let backends = wgpu::Backends::from_env().unwrap_or(wgpu::Backends::VULKAN | wgpu::Backends::GL);
    for backend in backends.iter() {
        for room in [1, 3, SIZES.len()] {
            let dir = tempfile::tempdir().unwrap();
            let (inputs, out) = (dir.path().join("in"), dir.path().join("out"));
            std::fs::create_dir_all(&inputs).unwrap();
            let pictures: Vec<_> = SIZES
                .iter()
                .enumerate()
                .map(|(k, &(w, h))| {
                    let mut picture = random_image(w, h, 40 + k as u64);
                    picture.pixels_mut().for_each(|p| p[3] = 255);
                    let name = format!("p{k}-{w}x{h}.png");
                    picture.save(inputs.join(&name)).unwrap();
                    (name, picture)
                })
                .collect();
            let out_dir = format!("{}/", out.display());
            let cli = Cli::parse_from(["shadersort", inputs.to_str().unwrap(), "--out", &out_dir]);
            let settings = cli.settings();
            let batch = settings.batch.clone().expect("a folder into a folder is a batch");
            let found = gather(&batch.inputs, false, &out, None).unwrap();
            // On a thread of its own, so that readers stuck waiting fail the test rather than hang it.
            let (done, result) = std::sync::mpsc::channel();
            std::thread::spawn(move || {
                let run = Batch {
                    settings: &settings,
                    batch: &batch,
                    jobs: &found.jobs,
                    mask: None,
                    room,
                    cancel: Default::default(),
                };
                // The GPU opens after the readers have filled the batch's room.
                let open = || {
                    std::thread::sleep(Duration::from_millis(400));
                    Ok(Engine::new(Arc::new(Gpu::headless_on(backend)?)))
                };
                let mut outcomes = Vec::new();
                let adapter = run.run(open, |report| {
                    if let Report::Done(index, outcome) = report {
                        outcomes.push((index, outcome));
                    }
                });
                let _ = done.send(adapter.map(|a| (a, outcomes)).map_err(|e| format!("{e:#}")));
            });
            let finished = result.recv_timeout(Duration::from_secs(120));
            let finished =
                finished.unwrap_or_else(|_| panic!("{backend:?} room {room}: the batch never finished"));
            let (adapter, mut outcomes) = finished.unwrap_or_else(|e| panic!("{backend:?} room {room}: {e}"));
            ci::ran("gpu", &adapter);
            outcomes.sort_by_key(|(index, _)| *index);
            let written: Vec<_> = (0..SIZES.len()).map(|k| (k, Outcome::Written { clip: false })).collect();
            assert_eq!(outcomes, written, "{adapter} room {room}");
            for (name, picture) in &pictures {
                let output = image::open(out.join(name)).unwrap().to_rgba8();
                assert!(
                    lines_are_permutations(picture, &output, SortOptions::default().axis),
                    "{adapter} {name}"
                );
                assert!(
                    output == stable_sort(picture, &SortOptions::default()),
                    "{adapter} room {room} {name}: not the model's"
                );
            }
        }
    }
    ci::passed();
}
