//! What the shader panel shows of each step, held to the compiled programs and to the steps'
//! definitions: every algorithm and pass kind, along rows and columns, whole lines and within
//! intervals, after every step. The text is the program's own (the shared text the device
//! compiled), its entry point is one of its own with that stage and workgroup size (naga reads
//! the text), the uniform fills the `params` struct, and its words, the grid and the steps are
//! those the algorithm's definition gives for that step.

mod common;

use common::on_every_gpu;
use common::steps::{every_pipeline, start};
use shadersort::algorithms::kernel_view::{Dispatch, Grid};
use shadersort::algorithms::map_source::MapSource;
use shadersort::algorithms::odd_even::PassKind;
use shadersort::algorithms::radix::RadixSettings;
use shadersort::algorithms::{Algorithm, Pipelines, RunSettings, SortRun};
use shadersort::controls::kernel_text::annotate;
use shadersort::engine::drive::Driver;
use shadersort::gpu::Gpu;
use shadersort::gpu::shaders::{
    BITONIC_PROGRAM, BITONIC_SUBGROUPS_PROGRAM, BUBBLE_PROGRAM, ODD_EVEN_PROGRAM, Program,
    RADIX_IMAGE_PROGRAM, RADIX_PROGRAM,
};
use shadersort::intervals::{IntervalMap, IntervalMode, IntervalSettings};
use shadersort::keys::SortKey;
use shadersort::keys::options::{Axis, SortOptions};
use shadersort::picture::patterns::random_image;
use std::sync::Arc;

/// The entry point `name` of `source`, parsed by naga.
fn entry(module: &naga::Module, name: &str) -> naga::EntryPoint {
    module
        .entry_points
        .iter()
        .find(|e| e.name == name)
        .unwrap_or_else(|| panic!("no entry point {name}"))
        .clone()
}

/// The size in bytes of the type of the `var<uniform> params`.
fn params_size(module: &naga::Module) -> u32 {
    let (_, global) = module
        .global_variables
        .iter()
        .find(|(_, g)| g.name.as_deref() == Some("params") && g.space == naga::AddressSpace::Uniform)
        .expect("a uniform named params");
    module.types[global.ty].inner.size(module.to_ctx())
}

/// The stage `index` of every bitonic network, from the definition: for merges of blocks of 2,
/// 4, 8, ... the distances from half the block down to 1.
fn network_stage(index: u32) -> (u32, u32) {
    (1u32..)
        .flat_map(|merge| (0..merge).rev().map(move |distance| (merge, distance)))
        .nth(index as usize)
        .unwrap()
}

/// What every dispatch must be, whatever the algorithm: `program`'s text (the very text other
/// steps share), one of its entry points with its stage and workgroup size, a whole `params`.
fn check_common(d: &Dispatch, program: &Program, shared: &mut Option<Arc<str>>, what: &str) {
    assert_eq!(&*d.source, program.source(), "{what}: not the text of {}", program.name);
    assert_eq!((d.program, d.files), (program.name, program.files), "{what}");
    match shared {
        Some(text) if text.as_ptr() == d.source.as_ptr() || !Arc::ptr_eq(text, &d.source) => {
            assert!(Arc::ptr_eq(text, &d.source), "{what}: a copy of the text, not the compiled one")
        }
        _ => *shared = Some(d.source.clone()),
    }
    let module = naga::front::wgsl::parse_str(&d.source).unwrap();
    let e = entry(&module, d.entry);
    match d.grid {
        Grid::Compute { workgroup_size, .. } => {
            assert_eq!(e.stage, naga::ShaderStage::Compute, "{what}");
            let overridden = e.workgroup_size_overrides.is_some_and(|o| o[0].is_some());
            let expected = if overridden {
                let size = d.constants.iter().find(|(n, _)| *n == "WORKGROUP").expect("WORKGROUP set").1;
                [size as u32, 1, 1]
            } else {
                e.workgroup_size
            };
            assert_eq!(workgroup_size, expected, "{what}: {} workgroup size", d.entry);
        }
        Grid::Fragment { .. } => assert_eq!(e.stage, naga::ShaderStage::Fragment, "{what}"),
    }
    assert_eq!(d.uniform.len() as u32 * 4, params_size(&module), "{what}: the params struct, whole");
    // The panel's text: the entry's line, a note of every uniform word, the program's every file.
    let panel = annotate(d);
    let lines: Vec<&str> = d.source.lines().collect();
    assert!(lines[panel.entry_line].contains(&format!("fn {}(", d.entry)), "{what}: the entry's line");
    let values: Vec<String> = d.uniform.iter().map(|w| format!("= {w}")).collect();
    let noted: Vec<&String> =
        panel.notes.iter().map(|(_, n)| n).filter(|n| !n.contains("(pipeline)")).collect();
    assert_eq!(noted.len(), values.len(), "{what}: a note a uniform word");
    assert_eq!(panel.files.iter().map(|f| f.name).collect::<Vec<_>>(), d.files, "{what}: the files");
    assert!(!panel.marked.is_empty(), "{what}: lines that compare and swap, or scatter");
}

/// Steps `run` one at a time and holds the kernels of each step to `name`'s definition.
/// `radix_stages`: the steps of a radix digit pass.
fn check_run(
    gpu: &Gpu,
    (name, radix_stages): (&str, u32),
    mut run: Box<dyn SortRun>,
    (options, longest): (SortOptions, u32),
    what: &str,
) -> Vec<String> {
    let (w, h) = (run.state().width(), run.state().height());
    let lines = match options.axis {
        Axis::Rows => h,
        Axis::Columns => w,
    };
    let line_len = options.line_len(w, h);
    let head = vec![options.key.id(), u32::from(options.descending), options.axis as u32];
    let words = |tail: &[u32]| [head.as_slice(), tail].concat();
    let mut shared = None;
    let driver = Driver::new(run.as_ref());
    let mut seen = Vec::new();
    while run.steps_done() < run.total_steps() {
        let k = run.steps_done();
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        assert_eq!(run.encode_steps(&mut encoder, 1), 1);
        gpu.queue.submit([encoder.finish()]);
        driver.collect(gpu, run.as_mut()).unwrap();
        let ds = run.kernels_of_step(k);
        let what = format!("{what}, step {k}");
        let entries: Vec<&str> = ds.iter().map(|d| d.entry).collect();
        seen.extend(entries.iter().map(|e| e.to_string()));
        assert!(!ds.is_empty(), "{what}: no kernel");
        for d in &ds {
            let program = match d.program {
                n if n == RADIX_IMAGE_PROGRAM.name => RADIX_IMAGE_PROGRAM,
                n if n == BITONIC_SUBGROUPS_PROGRAM.name => BITONIC_SUBGROUPS_PROGRAM,
                n if n == BITONIC_PROGRAM.name => BITONIC_PROGRAM,
                n if n == RADIX_PROGRAM.name => RADIX_PROGRAM,
                n if n == BUBBLE_PROGRAM.name => BUBBLE_PROGRAM,
                _ => ODD_EVEN_PROGRAM,
            };
            check_common(d, &program, &mut shared, &what);
        }
        let d = &ds[0];
        let intervals = f64::from(u8::from(run.lens_view().intervals.is_some()));
        match name {
            "odd-even" | "odd-even fragment" => {
                assert_eq!(d.program, ODD_EVEN_PROGRAM.name, "{what}");
                assert_eq!(d.uniform, words(&[k % 2]), "{what}: the pass's parity");
                let grid = if name == "odd-even" {
                    Grid::Compute {
                        workgroups: [w.div_ceil(16), h.div_ceil(16), 1],
                        workgroup_size: [16, 16, 1],
                    }
                } else {
                    Grid::Fragment { size: (w, h) }
                };
                assert_eq!((ds.len(), d.grid, d.steps.clone()), (1, grid, k..k + 1), "{what}");
                assert_eq!(d.constants, vec![("INTERVALS", intervals)], "{what}");
            }
            "bubble" => {
                assert_eq!((ds.len(), d.program, d.entry), (1, BUBBLE_PROGRAM.name, "bubble"), "{what}");
                let phases = 3.min(longest - 3 * k);
                assert_eq!(d.uniform, words(&[3 * k, phases, longest, 0, 0]), "{what}: the step's phases");
                let Grid::Compute { workgroups, .. } = d.grid else { panic!("{what}: a compute kernel") };
                assert_eq!(
                    (workgroups, d.steps.clone()),
                    ([lines, 1, 1], k..k + 1),
                    "{what}: a workgroup a line"
                );
            }
            "radix" => {
                if d.program == RADIX_IMAGE_PROGRAM.name {
                    assert_eq!(entries, ["gather", "place"], "{what}");
                } else {
                    let stages = radix_stages;
                    let expected: &[&str] = match (k % stages, stages) {
                        (0, 1) => &["count_digits", "scan_counts", "scatter"],
                        (0, _) => &["count_digits", "scan_counts", "dim", "scatter"],
                        _ => &["scatter"],
                    };
                    assert_eq!(entries, expected, "{what}");
                    let digit_bits = RadixSettings::DEFAULT.digit_bits;
                    assert_eq!(d.uniform[6], k / stages * digit_bits, "{what}: the digit's shift");
                }
                assert!(ds.iter().all(|x| x.steps == (k..k + 1)), "{what}");
            }
            _ => {
                assert_eq!(ds.len(), 1, "{what}");
                assert!(d.steps.contains(&k), "{what}: the dispatch ran this step");
                let (merge, distance) = network_stage(d.steps.start);
                assert_eq!(d.uniform[3..7], [line_len, d.steps.len() as u32, merge, distance], "{what}");
                if d.entry == "global_stage" {
                    let Grid::Compute { workgroups, .. } = d.grid else { panic!("{what}: a compute kernel") };
                    assert_eq!((workgroups, d.steps.len()), ([line_len.div_ceil(64), lines, 1], 1), "{what}");
                }
            }
        }
    }
    seen
}

/// Encodes every step of a bitonic `run` at once, so that stages within a block share
/// dispatches, and holds each step's kernel to the dispatch that ran it: the dispatches tile the
/// steps, each from the stage it starts at, with as many stages as it covers.
fn check_batched(gpu: &Gpu, mut run: Box<dyn SortRun>, what: &str) -> usize {
    let total = run.total_steps();
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    assert_eq!(run.encode_steps(&mut encoder, total), total);
    gpu.queue.submit([encoder.finish()]);
    let mut shared_steps = 0;
    let mut next = 0;
    while next < total {
        let ds = run.kernels_of_step(next);
        assert_eq!(ds.len(), 1, "{what}, step {next}");
        let d = &ds[0];
        assert_eq!(d.steps.start, next, "{what}: the dispatches tile the steps");
        let shown = |d: &Dispatch| (d.entry, d.steps.clone(), d.uniform.clone(), d.grid);
        for k in d.steps.clone() {
            let at_k: Vec<_> = run.kernels_of_step(k).iter().map(shown).collect();
            assert_eq!(at_k, vec![shown(d)], "{what}: step {k} is in the dispatch from {next}");
        }
        let (merge, distance) = network_stage(next);
        assert_eq!(d.uniform[4..7], [d.steps.len() as u32, merge, distance], "{what}, step {next}");
        shared_steps += d.steps.len() - 1;
        next = d.steps.end;
    }
    shared_steps
}

#[test]
fn every_step_shows_the_kernel_it_ran_as_compiled() {
    on_every_gpu(|gpu| {
        let mut all = every_pipeline(gpu);
        all.push(("radix", Pipelines::new(gpu, Algorithm::Radix)));
        let mut seen = std::collections::BTreeSet::new();
        let mut shared = 0;
        // Lines of 200 take bitonic's `sort_lines`.
        for (width, height, axis) in [(37, 9, Axis::Rows), (5, 65, Axis::Columns), (200, 3, Axis::Rows)] {
            let picture = random_image(width, height, 11);
            let options = SortOptions { key: SortKey::Luma, descending: axis == Axis::Columns, axis };
            let random = IntervalSettings { mode: IntervalMode::Random, ..Default::default() };
            let map = IntervalMap::compute(&picture, axis, &random, None).unwrap();
            for intervals in [None, Some(&map)] {
                for (name, pipelines) in &all {
                    // The radix view in one stage a digit, in four, and on the crate's sort.
                    let radix_kinds: &[(bool, bool, u32)] = if *name == "radix" {
                        &[(false, false, 1), (true, false, 4), (false, true, 1)]
                    } else {
                        &[(false, false, 1)]
                    };
                    for &(sub_steps, device_sorted_lines, stages) in radix_kinds {
                        let (pass_kind, phases) = match *name {
                            "odd-even fragment" => (PassKind::Fragment, 1),
                            "bubble" => (PassKind::Compute, 3),
                            _ => (PassKind::Compute, 1),
                        };
                        let radix =
                            RadixSettings { sub_steps, device_sorted_lines, ..RadixSettings::DEFAULT };
                        let settings = RunSettings { pass_kind, phases_per_step: phases, radix };
                        let run =
                            start(gpu, pipelines, &picture, options, settings, MapSource::Cpu(intervals));
                        let what =
                            format!("{name} {width}x{height} {axis:?} intervals {}", intervals.is_some());
                        let longest =
                            intervals.map_or(options.line_len(width, height), |m| m.max_interval_len());
                        seen.extend(check_run(gpu, (name, stages), run, (options, longest), &what));
                        if name.starts_with("bitonic") {
                            let run =
                                start(gpu, pipelines, &picture, options, settings, MapSource::Cpu(intervals));
                            shared += check_batched(gpu, run, &what);
                        }
                    }
                }
            }
        }
        // Every kernel of every program was reached.
        let all_entries = [
            "odd_even_compute",
            "odd_even_fragment",
            "bubble",
            "sort_blocks",
            "global_stage",
            "sort_lines",
            "count_digits",
            "scan_counts",
            "dim",
            "scatter",
            "gather",
            "place",
        ];
        let missed: Vec<_> = all_entries.iter().filter(|e| !seen.contains(**e)).collect();
        assert!(missed.is_empty(), "kernels no step ran: {missed:?}");
        assert!(shared > 0, "no bitonic dispatch ran several stages");
    });
    common::ci::passed();
}
