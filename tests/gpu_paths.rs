//! Sorting along paths on the GPU: rings, rays (about a pixel apart, or a few), the spiral and
//! the Hilbert curve, through every algorithm (odd-even compute and fragment, bubble, the radix
//! view, the bitonic network in the device's blocks and in blocks of 16), equal the CPU model
//! after every step, in line space and in the picture, every line a permutation of its pixels;
//! whole lines, within a threshold, edges and masks; centres in the middle, at a corner, off
//! the picture; awkward sizes. A one-sequence path too long for a texture row wraps, and the
//! radix view sorts it as one sequence, after every digit pass the model's; other algorithms and
//! intervals are refused with the reason.

mod common;
#[path = "common/laid_lines.rs"]
mod laid_lines;

use common::on_every_gpu;
use laid_lines::{Case, Kit, check_all, step_through};
use shadersort::algorithms::interval_texture::IntervalMapError;
use shadersort::algorithms::radix::plan::{RadixPlan, Sequences};
use shadersort::algorithms::request::StartRequest;
use shadersort::algorithms::{RunSettings, SortRun};
use shadersort::angle::AngledRun;
use shadersort::angle::path_space::line_space;
use shadersort::gpu::readback::read_texture;
use shadersort::intervals::{IntervalMode, IntervalSettings, Mask, Threshold};
use shadersort::keys::SortKey;
use shadersort::keys::options::{Axis, Scope, SortOptions};
use shadersort::keys::radix_key::RadixKey;
use shadersort::paths::{Centre, Path, PathKind};
use shadersort::picture::patterns::{SplitMix64, random_image};
use shadersort::reference::radix::radix_steps_within;
use std::sync::Arc;

/// A case along `path` on seeded noise of `size`.
fn along(
    path: Path,
    size: (u32, u32),
    key: SortKey,
    descending: bool,
    settings: &IntervalSettings,
    mask: Option<&Mask>,
) -> Case {
    let space = line_space(path.into(), size, 16384).unwrap();
    assert!(!space.is_wrapped(), "{path}: these cases fit a row");
    let seed = u64::from(size.0 * 31 + size.1) + path.kind as u64 * 1000;
    let what = format!(
        "{path} {}x{} {key:?} descending {descending} {:?} mask {}",
        size.0,
        size.1,
        settings.relevant(),
        mask.is_some()
    );
    Case::laid(what, space, random_image(size.0, size.1, seed), (key, descending), settings, mask)
}

#[test]
fn every_algorithm_matches_the_model_along_every_path() {
    let threshold = IntervalSettings {
        mode: IntervalMode::Threshold,
        threshold: Threshold::new(0.2, 0.8).unwrap(),
        ..Default::default()
    };
    let edges = IntervalSettings { mode: IntervalMode::Edges, edge_level: 0.35, ..Default::default() };
    let none = IntervalSettings::default();
    let at = |x, y| Centre::at(x, y).unwrap();
    let path = |kind, centre, rays| Path { kind, centre, rays };
    let middle = |size| Centre::middle(size);
    let cases = [
        (path(PathKind::Rings, middle((17, 9)), None), (17, 9), SortKey::Luma, false, &none, false),
        (path(PathKind::Rings, at(0.0, 0.0), None), (13, 4), SortKey::Hue, true, &threshold, false),
        (path(PathKind::Rings, at(-6.0, 30.0), None), (9, 14), SortKey::Red, false, &edges, true),
        (path(PathKind::Rays, middle((12, 12)), None), (12, 12), SortKey::Luma, false, &none, false),
        (path(PathKind::Rays, at(3.3, 1.7), Some(5)), (23, 6), SortKey::Saturation, true, &threshold, true),
        (path(PathKind::Rays, at(40.0, -5.0), None), (11, 8), SortKey::Value, false, &none, false),
        (path(PathKind::Spiral, middle((9, 7)), None), (9, 7), SortKey::Luma, false, &none, false),
        (path(PathKind::Spiral, at(1.0, 6.5), None), (8, 5), SortKey::Blue, true, &threshold, true),
        (path(PathKind::Hilbert, middle((7, 6)), None), (7, 6), SortKey::Luma, true, &edges, false),
        (path(PathKind::Hilbert, middle((5, 9)), None), (5, 9), SortKey::Green, false, &none, false),
        (path(PathKind::Rings, middle((1, 1)), None), (1, 1), SortKey::Luma, false, &none, false),
        (path(PathKind::Rays, middle((1, 9)), None), (1, 9), SortKey::Luma, false, &none, false),
        (path(PathKind::Rings, middle((9, 1)), None), (9, 1), SortKey::Luma, true, &none, false),
        (path(PathKind::Rings, middle((65, 3)), None), (65, 3), SortKey::Luma, false, &threshold, false),
    ];
    on_every_gpu(|gpu| {
        let kit = Kit::new(gpu);
        for (i, (path, size, key, descending, settings, masked)) in cases.iter().enumerate() {
            let mut rng = SplitMix64::new(i as u64);
            let mask =
                masked.then(|| Mask::from_fn(size.0, size.1, |_, _| !rng.next_u32().is_multiple_of(3)));
            check_all(gpu, &kit, &along(*path, *size, *key, *descending, settings, mask.as_ref()));
        }
    });
    crate::common::ci::passed();
}

/// A spiral of 35 x 20 pixels in rows of 512: wrapped, the radix view sorts it as one sequence,
/// after every digit pass the model's (the wrapped picture sorted as one whole picture); the
/// other algorithms, and intervals, are refused.
#[test]
fn a_wrapped_sequence_is_the_radix_views_and_sorts_whole() {
    let size = (35, 20);
    let picture = random_image(size.0, size.1, 5);
    for kind in [PathKind::Spiral, PathKind::Hilbert] {
        let path = Path::around_middle(kind, size);
        let space = Arc::new(line_space(path.into(), size, 512).unwrap());
        assert!(space.is_wrapped(), "{path}");
        let lines = space.gather(&picture);
        let options = SortOptions::default();
        on_every_gpu(|gpu| {
            let kit = Kit::new(gpu);
            let start = |pipelines, within| {
                AngledRun::start(
                    gpu,
                    pipelines,
                    &kit.scatter,
                    space.clone(),
                    StartRequest::new(&picture, options).within(within),
                )
            };
            let run = start(&kit.radix, None).unwrap();
            let key = RadixKey::new(options, None).unwrap();
            let plan = RadixPlan {
                key,
                digit_bits: RunSettings::default().radix.digit_bits,
                stages: 1,
                twin_indices: false,
            };
            let seqs = Sequences { width: size.0, height: size.1, axis: Axis::Rows, scope: Scope::Image };
            let run = step_through(gpu, run, |run, step, _| {
                let (model, _) = radix_steps_within(&lines, seqs, &plan, None, step);
                assert!(read_texture(gpu, run.line_state()).unwrap() == model, "{path}: digit pass {step}");
                assert!(
                    read_texture(gpu, run.state()).unwrap() == space.scatter(&model),
                    "{path}: pass {step} scattered"
                );
            });
            // The end: the sequence stably sorted, laid back along the path.
            let mut sequence: Vec<[u8; 4]> = lines.pixels().map(|p| p.0).collect();
            sequence.sort_by_key(|&p| options.order_key(p));
            let sorted = image::RgbaImage::from_raw(size.0, size.1, sequence.concat()).unwrap();
            assert!(read_texture(gpu, run.state()).unwrap() == space.scatter(&sorted), "{path}: the end");
            for pipelines in [&kit.odd_even, &kit.bubble, &kit.bitonic] {
                assert!(matches!(
                    start(pipelines, None).err(),
                    Some(IntervalMapError::LongSequence { length: 700 })
                ));
            }
            let map = shadersort::intervals::IntervalMap::build(size.0, size.1, Axis::Rows, |_, _, _| {
                shadersort::intervals::Cell::Join
            });
            assert!(matches!(
                start(&kit.radix, Some(&map)).err(),
                Some(IntervalMapError::LongSequence { .. })
            ));
        });
    }
    crate::common::ci::passed();
}
