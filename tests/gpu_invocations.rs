//! Who handled each pixel of the lens's line in the last step, as the shader panel says it: the
//! position it was compared with and whether the two swapped equal the CPU model's step, and the
//! invocation named runs over that position as the kernel's own loops say (the global id of an
//! odd-even invocation is its texel, a bitonic pair's first member is its global invocation or
//! its pair's index, a radix scatter's tile and lane hold it). Odd-even, bubble, bitonic (global
//! stages, blocks and held lines) and radix, rows and columns, whole lines and intervals.

mod common;
#[path = "common/lens_steps.rs"]
mod lens_steps;

use common::on_every_gpu;
use lens_steps::{read, step};
use shadersort::algorithms::RunSettings;
use shadersort::algorithms::SortRun;
use shadersort::algorithms::bitonic::Bitonic;
use shadersort::algorithms::bubble::Bubble;
use shadersort::algorithms::kernel_view::Grid;
use shadersort::algorithms::odd_even::{OddEven, PassKind};
use shadersort::algorithms::radix::{Radix, RadixSettings};
use shadersort::algorithms::request::StartRequest;
use shadersort::intervals::{Cell, IntervalMap};
use shadersort::keys::options::{Axis, Scope, SortOptions};
use shadersort::lens::LensProbe;
use shadersort::lens::invocation::handled;
use shadersort::picture::patterns::random_image;
use shadersort::reference::bitonic::BitonicModel;
use shadersort::reference::{self, odd_even_pairs, odd_even_pass_within};

/// Whether positions `a` and `b` of a line exchanged their pixels between `before` and `after`.
fn model_exchanged(before: &[[u8; 4]], after: &[[u8; 4]], a: usize, b: usize) -> bool {
    before[a] != before[b] && after[a] == before[b] && after[b] == before[a]
}

/// Intervals of up to five in every odd line, every seventh pixel fixed; even lines whole.
fn some_intervals(w: u32, h: u32, axis: Axis) -> IntervalMap {
    IntervalMap::build(w, h, axis, |line, pos, _| match pos {
        p if line % 2 == 1 && p % 7 == 6 => Cell::Fixed,
        p if line % 2 == 1 && p % 5 == 0 => Cell::Start,
        _ => Cell::Join,
    })
}

/// Each line's model pair of every position in `ranges` (its intervals) under `pairs`.
fn partners(
    len: usize,
    ranges: &[std::ops::Range<usize>],
    pairs: impl Fn(usize) -> Vec<(usize, usize)>,
) -> Vec<Option<usize>> {
    let mut partner = vec![None; len];
    for range in ranges {
        for (a, b) in pairs(range.len()) {
            partner[range.start + a] = Some(range.start + b);
            partner[range.start + b] = Some(range.start + a);
        }
    }
    partner
}

#[test]
fn odd_even_and_bubble_name_the_pair_and_the_invocation_of_each_pixel() {
    on_every_gpu(|gpu| {
        let mut probe = LensProbe::new(gpu);
        let (odd_even, bubble) = (OddEven::new(gpu), Bubble::new(gpu));
        for (w, h, axis) in [(37, 4, Axis::Rows), (3, 21, Axis::Columns)] {
            let input = random_image(w, h, u64::from(w + 7 * h));
            let options = SortOptions { axis, ..Default::default() };
            let map = some_intervals(w, h, axis);
            for intervals in [None, Some(&map)] {
                for name in ["odd-even", "bubble"] {
                    let request = StartRequest::new(&input, options).within(intervals);
                    let mut run: Box<dyn SortRun> = match name {
                        "odd-even" => Box::new(odd_even.start(gpu, request.pass_kind(PassKind::Compute))),
                        _ => Box::new(bubble.start_in_workgroups(gpu, request.phases_per_step(1)).unwrap()),
                    };
                    let mut model = input.clone();
                    while run.steps_done() < run.total_steps() {
                        let k = run.steps_done();
                        let before = model.clone();
                        odd_even_pass_within(&mut model, &options, intervals, k);
                        step(gpu, run.as_mut());
                        let dispatches = run.kernels_of_step(k);
                        for index in 0..options.line_count(w, h) {
                            let lens = read(gpu, &mut probe, run.as_ref(), (w, h), axis, index);
                            let (was, now) = (
                                &reference::lines(&before, axis)[index as usize],
                                &reference::lines(&model, axis)[index as usize],
                            );
                            let ranges = intervals.map_or_else(
                                || std::iter::once(0..was.len()).collect(),
                                |m| m.intervals(index as usize),
                            );
                            // The pairs of the whole line whose members share an interval.
                            let whole = partners(was.len(), std::slice::from_ref(&(0..was.len())), |len| {
                                odd_even_pairs(k, len)
                            });
                            let within = |pos: usize, p: usize| {
                                ranges.iter().any(|r| r.contains(&pos) && r.contains(&p))
                            };
                            let partner: Vec<_> =
                                (0..was.len()).map(|pos| whole[pos].filter(|&p| within(pos, p))).collect();
                            for pos in 0..was.len() {
                                let what = format!(
                                    "{name} {w}x{h} {axis:?} intervals {}, step {k}, line {index}, position {pos}",
                                    intervals.is_some()
                                );
                                let h = handled(&dispatches, &lens, pos)
                                    .unwrap_or_else(|| panic!("{what}: nothing handled"));
                                assert_eq!(h.partner, partner[pos], "{what}: the partner");
                                let swapped = partner[pos]
                                    .is_some_and(|p| model_exchanged(was, now, pos.min(p), pos.max(p)));
                                assert_eq!(h.swapped, Some(swapped), "{what}: swapped");
                                assert_eq!(h.moved, was[pos] != now[pos], "{what}: moved");
                                // The panel's sentence says the same.
                                let said = h.sentence(&lens, pos);
                                assert!(
                                    said.starts_with(&format!("Pixel {pos} of {}: ", lens.line.name)),
                                    "{said}"
                                );
                                assert_eq!(said.contains("swapped the two"), swapped, "{what}: {said}");
                                let with = partner[pos].map(|p| format!("compared it with pixel {p}"));
                                assert_eq!(
                                    with.is_some_and(|w| said.contains(&w)),
                                    partner[pos].is_some(),
                                    "{said}"
                                );
                                let (group, local) = h.invocation.unwrap_or_else(|| {
                                    assert!(
                                        name == "bubble" && partner[pos].is_none(),
                                        "{what}: no invocation"
                                    );
                                    ([index, 0, 0], [u32::MAX, 0, 0])
                                });
                                if name == "odd-even" {
                                    // The global id is the texel.
                                    let texel = if axis == Axis::Rows {
                                        (pos as u32, index)
                                    } else {
                                        (index, pos as u32)
                                    };
                                    assert_eq!(
                                        (group[0] * 16 + local[0], group[1] * 16 + local[1]),
                                        texel,
                                        "{what}"
                                    );
                                } else if let Some(p) = partner[pos] {
                                    // One workgroup a line; invocation i takes the pairs from 2i + first left.
                                    let left = pos.min(p) as u32;
                                    let first_left = 1 - k % 2;
                                    let Some(Grid::Compute { workgroup_size: [size, ..], .. }) =
                                        dispatches.last().map(|d| d.grid)
                                    else {
                                        panic!("{what}: a compute kernel")
                                    };
                                    assert_eq!(group, [index, 0, 0], "{what}");
                                    let rounds = (left - first_left).checked_sub(2 * local[0]);
                                    assert!(
                                        local[0] < size && rounds.is_some_and(|r| r % (2 * size) == 0),
                                        "{what}: {local:?}"
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
    });
    common::ci::passed();
}

/// Position `p` with a 0 put in at bit `d`: the first member of pair `p` of a half-cleaner or
/// flip at distance `d`, as `sort_blocks` enumerates them.
fn first_member(p: usize, d: usize) -> usize {
    ((p >> d) << (d + 1)) | (p & ((1 << d) - 1))
}

#[test]
fn bitonic_names_each_pixels_comparator_and_the_invocation_that_ran_it() {
    on_every_gpu(|gpu| {
        let mut probe = LensProbe::new(gpu);
        // Blocks of 8: stages reaching further run as global stages. Lines of 200 are held.
        let kits = [
            ("blocks of 8", Bitonic::with_max_block(gpu, 8), (23, 3)),
            ("held lines", Bitonic::new(gpu), (200, 2)),
        ];
        let mut entries = std::collections::BTreeSet::new();
        for (kit, bitonic, (w, h)) in &kits {
            let (w, h) = (*w, *h);
            let input = random_image(w, h, 17);
            let options = SortOptions::default();
            let map = some_intervals(w, h, Axis::Rows);
            for intervals in [None, Some(&map)] {
                let mut run = bitonic.start(gpu, StartRequest::new(&input, options).within(intervals));
                let mut model = BitonicModel::new(&input, options, intervals);
                while run.steps_done() < run.total_steps() {
                    let k = run.steps_done();
                    let before = model.state().clone();
                    model.step();
                    step(gpu, &mut run);
                    let dispatches = run.kernels_of_step(k);
                    let d = dispatches.last().unwrap();
                    entries.insert(d.entry);
                    for index in 0..h {
                        let lens = read(gpu, &mut probe, &run, (w, h), Axis::Rows, index);
                        let (was, now) = (
                            &reference::lines(&before, Axis::Rows)[index as usize],
                            &reference::lines(model.state(), Axis::Rows)[index as usize],
                        );
                        let ranges = intervals.map_or_else(
                            || std::iter::once(0..was.len()).collect(),
                            |m| m.intervals(index as usize),
                        );
                        let partner = partners(was.len(), &ranges, |len| model.stage(k).comparators(len));
                        for (pos, &partner) in partner.iter().enumerate() {
                            let what = format!(
                                "{kit} intervals {}, stage {k} ({}), line {index}, position {pos}",
                                intervals.is_some(),
                                d.entry
                            );
                            let h = handled(&dispatches, &lens, pos)
                                .unwrap_or_else(|| panic!("{what}: nothing handled"));
                            assert_eq!(h.partner, partner, "{what}: the partner");
                            let swapped = partner.map(|p| model_exchanged(was, now, pos.min(p), pos.max(p)));
                            assert_eq!(h.swapped, swapped, "{what}: swapped");
                            let first = partner.map_or(pos, |p| p.min(pos)) as u32;
                            let Grid::Compute { workgroup_size: [size, ..], .. } = d.grid else {
                                panic!("{what}")
                            };
                            let groups_x = d.uniform[12];
                            match (d.entry, h.invocation) {
                                ("global_stage", Some((group, local))) => {
                                    assert_eq!(
                                        (group[0] * size + local[0], group[1]),
                                        (first, index),
                                        "{what}"
                                    )
                                }
                                ("sort_lines", Some((group, local))) => {
                                    assert_eq!(
                                        group[1] * groups_x + group[0],
                                        index,
                                        "{what}: a line's unit"
                                    );
                                    assert!(
                                        (16 * local[0]..16 * local[0] + 16).contains(&(pos as u32)),
                                        "{what}"
                                    )
                                }
                                ("sort_blocks", Some((group, local))) => {
                                    let block =
                                        d.constants.iter().find(|(n, _)| *n == "BLOCK").unwrap().1 as u32;
                                    let unit = group[1] * groups_x + group[0];
                                    let unit_start = (unit - index * w.div_ceil(block)) * block;
                                    let distance = d.uniform[6] as usize;
                                    let covers = (0..block as usize).step_by(size as usize).any(|j| {
                                        first_member(local[0] as usize + j, distance) as u32 + unit_start
                                            == first
                                    });
                                    assert!(covers, "{what}: {group:?} {local:?}");
                                }
                                // Within intervals, units pack whole intervals: no invocation is named.
                                ("sort_blocks", None) => assert!(intervals.is_some(), "{what}"),
                                (entry, invocation) => panic!("{what}: {entry} named {invocation:?}"),
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(entries.into_iter().collect::<Vec<_>>(), ["global_stage", "sort_blocks", "sort_lines"]);
    });
    common::ci::passed();
}

#[test]
fn a_radix_scatter_names_the_tile_and_lane_of_each_pixel() {
    on_every_gpu(|gpu| {
        let mut probe = LensProbe::new(gpu);
        let radix = Radix::new(gpu);
        for (w, h, axis, chunks) in [(600, 3, Axis::Rows, 1), (5, 700, Axis::Columns, 2)] {
            let input = random_image(w, h, 5);
            let options = SortOptions { axis, ..Default::default() };
            let mut run = radix.start_with_chunks(gpu, StartRequest::new(&input, options), chunks).unwrap();
            while run.steps_done() < run.total_steps() {
                let k = run.steps_done();
                step(gpu, &mut run);
                let dispatches = run.kernels_of_step(k);
                let d = dispatches.last().unwrap();
                assert_eq!(d.entry, "scatter");
                let (tiles, chunks) = (d.uniform[9], d.uniform[11]);
                let Grid::Compute { workgroups, workgroup_size: [size, ..] } = d.grid else { panic!() };
                for index in [0, options.line_count(w, h) - 1] {
                    let lens = read(gpu, &mut probe, &run, (w, h), axis, index);
                    for pos in 0..lens.cells.len() {
                        let what = format!("{w}x{h} {axis:?} step {k} line {index} position {pos}");
                        let h = handled(&dispatches, &lens, pos).unwrap();
                        assert_eq!(
                            (h.partner, h.swapped),
                            (None, None),
                            "{what}: a scatter compares nothing"
                        );
                        let (group, local) = h.invocation.unwrap();
                        // The tile's chunks of `size` pixels, one pixel of each chunk a lane.
                        let tile = group[1] * workgroups[0] + group[0];
                        let (first, tile_len) = ((tile - index * tiles) * size * chunks, size * chunks);
                        let pos = pos as u32;
                        assert!(
                            tile >= index * tiles && (first..first + tile_len).contains(&pos),
                            "{what}: tile {tile}"
                        );
                        assert_eq!(pos % size, local[0], "{what}: the lane");
                    }
                }
            }
        }
    });
    common::ci::passed();
}

/// On the whole picture the crate's sort orders the gathered keys and `place` writes each
/// position of the sequence (row after row, or column after column): the lens's pixel is the
/// place invocation's whose sequence position is it.
#[test]
fn the_whole_picture_names_the_place_invocation_of_each_pixel() {
    on_every_gpu(|gpu| {
        let mut probe = LensProbe::new(gpu);
        let radix = Radix::new(gpu);
        for (w, h, axis) in [(37, 9, Axis::Rows), (5, 61, Axis::Columns)] {
            let input = random_image(w, h, 9);
            let options = SortOptions { axis, ..Default::default() };
            let radix_settings = RadixSettings { scope: Scope::Image, ..RadixSettings::DEFAULT };
            let settings = RunSettings { radix: radix_settings, ..Default::default() };
            let mut run = radix.start(gpu, StartRequest::new(&input, options).settings(settings)).unwrap();
            while run.steps_done() < run.total_steps() {
                let k = run.steps_done();
                step(gpu, &mut run);
                let dispatches = run.kernels_of_step(k);
                let entries: Vec<_> = dispatches.iter().map(|d| d.entry).collect();
                assert_eq!(entries, ["gather", "place"]);
                let Grid::Compute { workgroups, workgroup_size: [size, ..] } = dispatches[1].grid else {
                    panic!()
                };
                let len = options.line_len(w, h);
                for index in [0, options.line_count(w, h) - 1] {
                    let lens = read(gpu, &mut probe, &run, (w, h), axis, index);
                    for pos in 0..len {
                        let what = format!("{w}x{h} {axis:?} step {k} line {index} position {pos}");
                        let h = handled(&dispatches, &lens, pos as usize).unwrap();
                        assert_eq!((h.entry, h.partner, h.swapped), ("place", None, None), "{what}");
                        // `position_of` in shaders/radix_image.wgsl.
                        let (group, local) = h.invocation.unwrap();
                        let position = (group[1] * workgroups[0] + group[0]) * size + local[0];
                        assert_eq!(position, index * len + pos, "{what}");
                    }
                }
            }
        }
    });
    common::ci::passed();
}
