//! The row lens reads what the GPU holds: after every step of every algorithm, the line it
//! reads back equals the CPU model's line (pixels, keys, the state before the step), and what
//! it reports of the step does too (odd-even's compared and swapped pairs, the bubble's phases
//! and early exit, a radix pass's digits, prefix sums and destinations); on awkward sizes,
//! rows and columns, within intervals and at an angle, on every backend under test.

mod common;
#[path = "common/lens_steps.rs"]
mod lens_steps;

use common::on_every_gpu;
use image::RgbaImage;
use lens_steps::{read, step};
use shadersort::algorithms::bubble::Bubble;
use shadersort::algorithms::bubble::DEFAULT_PHASES_PER_STEP;
use shadersort::algorithms::odd_even::{OddEven, PassKind};
use shadersort::algorithms::radix::plan::{RadixPlan, Sequences};
use shadersort::algorithms::radix::{Radix, RadixSettings};
use shadersort::algorithms::request::StartRequest;
use shadersort::algorithms::{Algorithm, Pipelines, SortRun};
use shadersort::angle::scatter::LineScatter;
use shadersort::angle::{Angle, Lines};
use shadersort::intervals::{Cell, IntervalMap};
use shadersort::keys::SortKey;
use shadersort::keys::options::{Axis, Scope, SortOptions};
use shadersort::keys::radix_key::RadixKey;
use shadersort::lens::{LensLine, LensProbe, LensReading, StepReading};
use shadersort::picture::patterns::random_image;
use shadersort::reference::bitonic::bitonic_stages;
use shadersort::reference::radix::{destinations, radix_steps, radix_steps_within, read_sequences};
use shadersort::reference::{self, odd_even_pairs};

/// Line `index` of `picture` along `axis`.
fn model_line(picture: &RgbaImage, axis: Axis, index: u32) -> Vec<[u8; 4]> {
    reference::lines(picture, axis)[index as usize].clone()
}

/// The lines the lens is checked on: the first, one in the middle, the last.
fn some_lines(count: u32) -> Vec<u32> {
    let mut lines = vec![0, count / 2, count - 1];
    lines.dedup();
    lines
}

fn pixels(reading: &LensReading) -> Vec<[u8; 4]> {
    reading.cells.iter().map(|c| c.pixel).collect()
}

#[test]
fn odd_even_lens_shows_each_pass_pairs_and_swaps_as_the_model_has_them() {
    on_every_gpu(|gpu| {
        let mut probe = LensProbe::new(gpu);
        let odd_even = OddEven::new(gpu);
        for (w, h, axis, key) in [
            (1, 1, Axis::Rows, SortKey::Luma),
            (13, 3, Axis::Rows, SortKey::Hue),
            (4, 9, Axis::Columns, SortKey::Red),
            (65, 2, Axis::Rows, SortKey::Luma),
        ] {
            let input = random_image(w, h, u64::from(w * 31 + h));
            let options = SortOptions { key, axis, ..Default::default() };
            let what = format!("{w}x{h} {options:?}");
            let mut run =
                odd_even.start(gpu, StartRequest::new(&input, options).pass_kind(PassKind::Compute));
            let count = options.line_count(w, h);
            let mut model = input.clone();
            for index in some_lines(count) {
                let start = read(gpu, &mut probe, &run, (w, h), axis, index);
                assert_eq!(start.step, StepReading::Start, "{what}");
                assert!(start.cells.iter().all(|c| c.before.is_none()), "{what}");
                assert_eq!(pixels(&start), model_line(&input, axis, index), "{what}");
            }
            for iteration in 0..run.total_steps() {
                let before = model.clone();
                reference::odd_even_pass(&mut model, &options, iteration);
                step(gpu, &mut run);
                for index in some_lines(count) {
                    let lens = read(gpu, &mut probe, &run, (w, h), axis, index);
                    let (now, was) = (model_line(&model, axis, index), model_line(&before, axis, index));
                    assert_eq!(lens.step, StepReading::OddEven { iteration }, "{what}");
                    assert_eq!(pixels(&lens), now, "{what} pass {iteration} line {index}");
                    let befores: Vec<_> = lens.cells.iter().map(|c| c.before.unwrap()).collect();
                    assert_eq!(befores, was, "{what} pass {iteration}: the state before");
                    assert!(lens.cells.iter().all(|c| c.key == key.of(c.pixel)), "{what}: keys");
                    let pairs: Vec<usize> =
                        odd_even_pairs(iteration, now.len()).into_iter().map(|(l, _)| l).collect();
                    assert_eq!(lens.compared(), pairs, "{what} pass {iteration}: compared pairs");
                    for l in pairs {
                        let swapped = key.of(was[l]) > key.of(was[l + 1]);
                        assert_eq!(lens.swapped(l), swapped, "{what} pass {iteration}: pair at {l}");
                    }
                }
            }
        }
    });
    crate::common::ci::passed();
}

#[test]
fn within_intervals_the_lens_compares_only_pairs_of_one_interval() {
    on_every_gpu(|gpu| {
        let mut probe = LensProbe::new(gpu);
        let (w, h) = (23, 2);
        let input = random_image(w, h, 5);
        let options = SortOptions::default();
        // Intervals of five, every seventh pixel fixed.
        let intervals = IntervalMap::build(w, h, Axis::Rows, |_, pos, _| match pos {
            p if p % 7 == 6 => Cell::Fixed,
            p if p % 5 == 0 => Cell::Start,
            _ => Cell::Join,
        });
        let mut run =
            OddEven::new(gpu).start(gpu, StartRequest::new(&input, options).within(Some(&intervals)));
        for iteration in 0..3 {
            step(gpu, &mut run);
            let lens = read(gpu, &mut probe, &run, (w, h), Axis::Rows, 1);
            let ids: Vec<u32> = (0..w).map(|x| intervals.id(x, 1)).collect();
            assert_eq!(lens.cells.iter().map(|c| c.interval).collect::<Vec<_>>(), ids);
            let expected: Vec<usize> = odd_even_pairs(iteration, w as usize)
                .into_iter()
                .filter(|&(l, r)| ids[l] == ids[r])
                .map(|(l, _)| l)
                .collect();
            assert_eq!(lens.compared(), expected, "pass {iteration}");
        }
    });
    crate::common::ci::passed();
}

/// The phases the bubble kernel runs on one line in a dispatch of `budget` phases from
/// `first`, and whether it leaves early: the CPU model of its loop, on the line alone.
fn bubble_model(line: &mut RgbaImage, options: &SortOptions, first: u32, budget: u32) -> (u32, bool) {
    let mut done = 0;
    while done < budget {
        let mut swaps = reference::odd_even_pass(line, options, first + done);
        done += 1;
        if done < budget {
            swaps += reference::odd_even_pass(line, options, first + done);
            done += 1;
            if swaps == 0 {
                return (done, true);
            }
        }
    }
    (done, false)
}

#[test]
fn bubble_lens_reports_the_phases_each_line_ran_and_its_early_exit() {
    on_every_gpu(|gpu| {
        let mut probe = LensProbe::new(gpu);
        let bubble = Bubble::new(gpu);
        for (w, h, axis, budget) in [(9, 3, Axis::Rows, 2), (3, 17, Axis::Columns, 4), (40, 2, Axis::Rows, 3)]
        {
            // Line 0 already sorted (it leaves at once), the others random.
            let mut input = random_image(w, h, 11);
            let options = SortOptions { axis, ..Default::default() };
            input = {
                let sorted = reference::stable_sort(&input, &options);
                RgbaImage::from_fn(w, h, |x, y| {
                    let first_line = if axis == Axis::Rows { y == 0 } else { x == 0 };
                    *if first_line { sorted.get_pixel(x, y) } else { input.get_pixel(x, y) }
                })
            };
            let what = format!("{w}x{h} {axis:?} {budget} phases");
            let mut run = bubble
                .start_in_workgroups(gpu, StartRequest::new(&input, options).phases_per_step(budget))
                .unwrap();
            let (len, count) = (options.line_len(w, h), options.line_count(w, h));
            let line_image = |picture: &RgbaImage, index: u32| {
                let line = model_line(picture, axis, index);
                let (lw, lh) = if axis == Axis::Rows { (len, 1) } else { (1, len) };
                RgbaImage::from_raw(lw, lh, line.concat()).unwrap()
            };
            let mut lines: Vec<RgbaImage> = (0..count).map(|i| line_image(&input, i)).collect();
            let mut k = 0;
            while run.steps_done() < run.total_steps() {
                step(gpu, &mut run);
                let first = k * budget;
                let this_budget = budget.min(len - first);
                for index in some_lines(count) {
                    let (ran, left_early) =
                        bubble_model(&mut lines[index as usize], &options, first, this_budget);
                    let lens = read(gpu, &mut probe, &run, (w, h), axis, index);
                    assert_eq!(
                        lens.step,
                        StepReading::Bubble {
                            first_phase: first,
                            budget: this_budget,
                            ran,
                            left_early,
                            line_phases: len
                        },
                        "{what} step {} line {index}",
                        k + 1
                    );
                    let expected: Vec<[u8; 4]> =
                        bytemuck::cast_slice(lines[index as usize].as_raw()).to_vec();
                    assert_eq!(pixels(&lens), expected, "{what} step {} line {index}", k + 1);
                }
                // The lines not looked at still move on in the model.
                for index in (0..count).filter(|i| !some_lines(count).contains(i)) {
                    bubble_model(&mut lines[index as usize], &options, first, this_budget);
                }
                k += 1;
            }
        }
    });
    crate::common::ci::passed();
}

#[test]
fn radix_lens_shows_each_pass_digits_prefix_sums_and_destinations() {
    on_every_gpu(|gpu| {
        let mut probe = LensProbe::new(gpu);
        let radix = Radix::new(gpu);
        for (w, h, axis, digit_bits, sub_steps, scope) in [
            (1, 1, Axis::Rows, 4, false, Scope::Rows),
            (70, 3, Axis::Rows, 4, false, Scope::Rows),
            (3, 63, Axis::Columns, 8, true, Scope::Rows),
            // Three tiles per line.
            (600, 2, Axis::Rows, 2, false, Scope::Rows),
            // The whole picture, on the view's own kernels (stages) and on the device-wide sort.
            (17, 5, Axis::Rows, 4, true, Scope::Image),
            (17, 5, Axis::Columns, 4, false, Scope::Image),
        ] {
            let input = random_image(w, h, u64::from(w + 7 * h));
            let options = SortOptions { key: SortKey::Luma, axis, ..Default::default() };
            let settings =
                RadixSettings { digit_bits, sub_steps, scope, key_bits: Some(12), ..Default::default() };
            let what = format!("{w}x{h} {axis:?} {digit_bits}-bit {scope:?} sub-steps {sub_steps}");
            let mut run = radix.start(gpu, StartRequest::new(&input, options).radix(settings)).unwrap();
            let plan: RadixPlan = run.plan();
            let seqs = Sequences { width: w, height: h, axis, scope };
            let count = options.line_count(w, h);
            while run.steps_done() < run.total_steps() {
                step(gpu, &mut run);
                let k = run.steps_done();
                let (pass, stage) = ((k - 1) / plan.stages, (k - 1) % plan.stages + 1);
                let (now, _) = radix_steps(&input, seqs, &plan, k);
                let (pass_input, _) = radix_steps(&input, seqs, &plan, pass * plan.stages);
                let input_seqs = read_sequences(seqs, &pass_input);
                for index in some_lines(count) {
                    let lens = read(gpu, &mut probe, &run, (w, h), axis, index);
                    let at = format!("{what} step {k} line {index}");
                    assert_eq!(pixels(&lens), model_line(&now, axis, index), "{at}");
                    let was = model_line(&pass_input, axis, index);
                    let digits: Vec<u32> = was.iter().map(|&p| plan.key.digit(p, pass, digit_bits)).collect();
                    assert_eq!(
                        lens.cells.iter().map(|c| c.digit.unwrap()).collect::<Vec<_>>(),
                        digits,
                        "{at}"
                    );
                    // The sequence the line lies in, and where the line starts in it.
                    let (seq, first) = if scope == Scope::Image {
                        (0, (index * lens.line.len) as usize)
                    } else {
                        (index as usize, 0)
                    };
                    let sequence = &input_seqs[seq];
                    let whole = destinations(sequence, &plan.key, digit_bits, pass);
                    let slots: Vec<Option<u32>> = lens.cells.iter().map(|c| c.slot).collect();
                    let StepReading::Radix { prefix, stage: read_stage, .. } = &lens.step else {
                        panic!("{at}: {:?}", lens.step)
                    };
                    assert_eq!(*read_stage, stage, "{at}");
                    if run.device_sorted() {
                        assert!(prefix.is_none() && slots.iter().all(Option::is_none), "{at}");
                        continue;
                    }
                    let expected: Vec<Option<u32>> =
                        whole[first..first + was.len()].iter().map(|&s| Some(s as u32)).collect();
                    assert_eq!(slots, expected, "{at}: destinations");
                    let mut histogram = vec![0u32; 1 << digit_bits];
                    for &p in sequence {
                        histogram[plan.key.digit(p, pass, digit_bits) as usize] += 1;
                    }
                    assert_eq!(lens.histogram().unwrap(), histogram, "{at}: histogram");
                    let starts: Vec<u32> = histogram
                        .iter()
                        .scan(0, |sum, &c| {
                            let s = *sum;
                            *sum += c;
                            Some(s)
                        })
                        .collect();
                    assert_eq!(prefix.as_ref().unwrap(), &starts, "{at}: prefix sums");
                }
            }
        }
    });
    crate::common::ci::passed();
}

/// The CPU model of `algorithm` (default settings) after `steps` steps on the line-space
/// picture `lines`, within `map` (whole lines, the padding fixed), as an angled run sorts it.
fn angled_model(
    algorithm: Algorithm,
    lines: &RgbaImage,
    options: SortOptions,
    map: &IntervalMap,
    steps: u32,
) -> RgbaImage {
    match algorithm {
        Algorithm::OddEven => reference::odd_even_passes_within(lines, &options, Some(map), steps),
        Algorithm::Bubble => {
            let phases = (steps * DEFAULT_PHASES_PER_STEP).min(map.max_interval_len());
            reference::odd_even_passes_within(lines, &options, Some(map), phases)
        }
        Algorithm::Radix => {
            let settings = RadixSettings::default();
            let key = RadixKey::new(options, settings.key_bits)
                .unwrap()
                .with_interval_bits(map.interval_bits())
                .unwrap();
            let plan = RadixPlan { key, digit_bits: settings.digit_bits, stages: 1, twin_indices: false };
            let (width, height) = lines.dimensions();
            let seqs = Sequences { width, height, axis: Axis::Rows, scope: Scope::Rows };
            radix_steps_within(lines, seqs, &plan, Some(map), steps).0
        }
        Algorithm::Bitonic => bitonic_stages(lines, options, Some(map), steps),
    }
}

/// At an angle the lens reads the line through the point as the CPU model has it after the
/// same steps (and, where it shows one, the state before the last step), for every algorithm,
/// through points on every line: the line found by searching line space for the point, not by
/// the lens's own lookup.
#[test]
fn at_an_angle_the_lens_reads_the_line_through_the_point() {
    on_every_gpu(|gpu| {
        let mut probe = LensProbe::new(gpu);
        let scatter = LineScatter::new(gpu);
        let (w, h) = (19, 11);
        let input = random_image(w, h, 3);
        let lines = Lines::new(Angle::new(30.0).unwrap(), (w, h), 4096).unwrap();
        let Lines::Laid(space) = &lines else { panic!("30° has lines at an angle") };
        let gathered = space.gather(&input);
        let whole = space.whole_lines().expect("lines at 30° are padded");
        let (line_width, count) = space.size();
        for algorithm in Algorithm::ALL {
            let pipelines = Pipelines::new(gpu, algorithm);
            let options = lines.sort_options(SortOptions::default());
            let mut run = lines.start(gpu, &pipelines, &scatter, StartRequest::new(&input, options)).unwrap();
            let steps = 3.min(run.total_steps());
            for _ in 0..steps {
                step(gpu, run.as_mut());
            }
            let now = angled_model(algorithm, &gathered, options, whole, steps);
            let was = angled_model(algorithm, &gathered, options, whole, steps - 1);
            // Every line begins on the picture's border: points there reach every line.
            let border =
                (0..w).flat_map(|x| [(x, 0), (x, h - 1)]).chain((0..h).flat_map(|y| [(0, y), (w - 1, y)]));
            for point in border.chain([(9, 5), (3, 9)]) {
                let index = (point.1 * w + point.0) as usize;
                let on =
                    |l: u32| (0..line_width).find(|&p| space.pixel_at(l as usize, p as usize) == Some(index));
                let through = (0..count).find(|&l| on(l).is_some()).expect("every pixel lies on a line");
                // The model's line: its row of line space up to the padding.
                let model_row = |state: &RgbaImage| -> Vec<[u8; 4]> {
                    (0..line_width)
                        .take_while(|&p| space.pixel_at(through as usize, p as usize).is_some())
                        .map(|p| state.get_pixel(p, through).0)
                        .collect()
                };
                let line = LensLine::through(&lines, (w, h), point);
                let lens = probe.read(gpu, &run.lens_view(), &line).unwrap();
                let what = format!("{algorithm:?} through {point:?}, {steps} steps");
                assert_eq!(pixels(&lens), model_row(&now), "{what}");
                let befores: Vec<_> = lens.cells.iter().filter_map(|c| c.before).collect();
                if !befores.is_empty() {
                    assert_eq!(befores, model_row(&was), "{what}: the state before");
                }
            }
        }
    });
    crate::common::ci::passed();
}

/// The bitonic lens shows each stage's line and the state before it as the model has them, the
/// stage by number, the pairs it compared within each interval (as the model's stage pairs them
/// from the interval's start) and exactly the exchanges the model made.
#[test]
fn bitonic_lens_shows_each_stage_pairs_and_exchanges_as_the_model_has_them() {
    use shadersort::algorithms::bitonic::Bitonic;
    use shadersort::reference::bitonic::BitonicModel;
    on_every_gpu(|gpu| {
        let mut probe = LensProbe::new(gpu);
        let bitonic = Bitonic::with_max_block(gpu, 8);
        let (w, h) = (23, 3);
        let input = random_image(w, h, 17);
        let options = SortOptions::default();
        // Intervals of up to five, every seventh pixel fixed, in line 1; the others whole.
        let intervals = IntervalMap::build(w, h, Axis::Rows, |line, pos, _| match pos {
            p if line == 1 && p % 7 == 6 => Cell::Fixed,
            p if line == 1 && p % 5 == 0 => Cell::Start,
            _ => Cell::Join,
        });
        for map in [None, Some(&intervals)] {
            let mut run = bitonic.start(gpu, StartRequest::new(&input, options).within(map));
            let mut model = BitonicModel::new(&input, options, map);
            let mut before = input.clone();
            while run.steps_done() < run.total_steps() {
                step(gpu, &mut run);
                let index = run.steps_done() - 1;
                let exchanges = model.step();
                for line in 0..h {
                    let lens = read(gpu, &mut probe, &run, (w, h), Axis::Rows, line);
                    let what = format!("stage {index}, line {line}, intervals {}", map.is_some());
                    assert_eq!(
                        lens.step,
                        StepReading::Bitonic { index, stages: run.total_steps() },
                        "{what}"
                    );
                    assert_eq!(pixels(&lens), model_line(model.state(), Axis::Rows, line), "{what}");
                    let earlier: Vec<_> = lens.cells.iter().map(|c| c.before.unwrap()).collect();
                    assert_eq!(earlier, model_line(&before, Axis::Rows, line), "{what}");
                    let mut expected = Vec::new();
                    let ranges = map.map_or_else(
                        || std::iter::once(0..w as usize).collect(),
                        |m| m.intervals(line as usize),
                    );
                    let stage = model.stage(index);
                    for range in ranges {
                        for (a, b) in stage.comparators(range.len()) {
                            expected.push((range.start + a, range.start + b));
                        }
                    }
                    assert_eq!(lens.stage_pairs(), expected, "{what}");
                    let exchanged = lens.stage_pairs().iter().filter(|&&(a, b)| lens.exchanged(a, b)).count();
                    let changed = lens.changed().len();
                    assert_eq!(changed, 2 * exchanged, "{what}: every change is an exchange of a pair");
                }
                assert_eq!(u64::from(run.stats().last_step_swaps.unwrap()), exchanges, "stage {index}");
                before = model.state().clone();
            }
        }
    });
    crate::common::ci::passed();
}
