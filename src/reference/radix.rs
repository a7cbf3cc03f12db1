//! The CPU model of the radix view: LSD radix sort, one stable counting-sort pass per digit,
//! with the scatter of a pass optionally split into stages for viewing.

use super::{pixels, pixels_mut};
use crate::algorithms::radix::plan::{RadixPlan, Sequences};
use crate::intervals::IntervalMap;
use crate::keys::options::{Axis, Scope};
use crate::keys::radix_key::RadixKey;
use image::RgbaImage;

/// The pixels' row-major indices along each sequence, from the definition: every row left to
/// right or every column top to bottom; with the whole picture's scope, all of them joined into
/// one sequence in that order.
fn positions(seqs: &Sequences) -> Vec<Vec<usize>> {
    let (w, h) = (seqs.width as usize, seqs.height as usize);
    let lines: Vec<Vec<usize>> = match seqs.axis {
        Axis::Rows => (0..h).map(|y| (0..w).map(|x| y * w + x).collect()).collect(),
        Axis::Columns => (0..w).map(|x| (0..h).map(|y| y * w + x).collect()).collect(),
    };
    match seqs.scope {
        Scope::Rows => lines,
        Scope::Image => vec![lines.concat()],
    }
}

/// The pixels of every sequence, in order.
pub fn read_sequences(seqs: Sequences, img: &RgbaImage) -> Vec<Vec<[u8; 4]>> {
    let px = pixels(img);
    positions(&seqs).iter().map(|seq| seq.iter().map(|&i| px[i]).collect()).collect()
}

/// The end of stage `stage` of `stages` of a scatter of `len` positions: stage s scatters
/// positions ceil(len·(s-1)/stages) up to ceil(len·s/stages).
fn stage_end(len: usize, stage: u32, stages: u32) -> usize {
    (len * stage as usize).div_ceil(stages as usize)
}

/// A pixel still waiting to be overwritten, as a staged scatter shows it: a quarter of its
/// brightness, and with `twin_indices` its palette index moved to the dimmed twin (alpha is
/// kept otherwise). Mirrors `dim` in `shaders/radix.wgsl`.
pub fn dim([r, g, b, a]: [u8; 4], twin_indices: bool) -> [u8; 4] {
    [r >> 2, g >> 2, b >> 2, if twin_indices { a | 0x80 } else { a }]
}

/// Where the pixels of `sequence` go in digit pass `pass`: a stable counting sort by digit
/// (histogram, exclusive prefix sum, then each pixel to its digit's next free slot, in order).
pub fn destinations(sequence: &[[u8; 4]], key: &RadixKey, digit_bits: u32, pass: u32) -> Vec<usize> {
    destinations_within(sequence, &vec![0; sequence.len()], key, digit_bits, pass)
}

/// [`destinations`] by the digits of the composite key: `intervals[i]` is the interval id that
/// pixel `sequence[i]` carries.
pub fn destinations_within(
    sequence: &[[u8; 4]],
    intervals: &[u32],
    key: &RadixKey,
    digit_bits: u32,
    pass: u32,
) -> Vec<usize> {
    let digits: Vec<usize> = sequence
        .iter()
        .zip(intervals)
        .map(|(&p, &interval)| key.digit_in_interval(p, interval, pass, digit_bits) as usize)
        .collect();
    let mut next = vec![0usize; 1 << digit_bits];
    for &d in &digits {
        next[d] += 1;
    }
    let mut sum = 0;
    for slot in next.iter_mut() {
        (*slot, sum) = (sum, sum + *slot);
    }
    digits
        .iter()
        .map(|&d| {
            next[d] += 1;
            next[d] - 1
        })
        .collect()
}

/// The state after the first `steps` steps of `plan` and the pixels moved by each step (a
/// pixel moves when its destination differs from its position). Within a pass, stage `s`
/// scatters positions `stage_limit(s - 1)..stage_limit(s)` of every sequence; before the first
/// stage the target shows the pass's input dimmed, unless a single stage fills it at once.
pub fn radix_steps(img: &RgbaImage, seqs: Sequences, plan: &RadixPlan, steps: u32) -> (RgbaImage, Vec<u64>) {
    radix_steps_within(img, seqs, plan, None, steps)
}

/// [`radix_steps`] within the intervals of `intervals`: each pixel carries the interval id of the
/// position it started at, and the digits are those of the composite key (interval id above the
/// key, see `RadixKey::in_interval`). The interval id's digits come last, so earlier passes may
/// move pixels across intervals; after the last one every interval holds its own pixels, sorted.
///
/// # Panics
/// When there is a map and the sequences are not the map's lines, or its ids need more bits
/// than the key has room for (`plan.key.interval_bits`).
pub fn radix_steps_within(
    img: &RgbaImage,
    seqs: Sequences,
    plan: &RadixPlan,
    intervals: Option<&IntervalMap>,
    steps: u32,
) -> (RgbaImage, Vec<u64>) {
    if let Some(intervals) = intervals {
        assert_eq!(seqs.scope, Scope::Rows, "intervals are sorted within lines");
        assert_eq!(
            (intervals.width(), intervals.height(), intervals.axis()),
            (seqs.width, seqs.height, seqs.axis)
        );
        assert!(
            intervals.interval_bits() <= plan.key.interval_bits,
            "the key has no room for the interval ids"
        );
    }
    let mut current = img.clone();
    let mut target = img.clone();
    let mut ids =
        intervals.map_or_else(|| vec![0; seqs.width as usize * seqs.height as usize], |r| r.ids().to_vec());
    let mut target_ids = ids.clone();
    let mut moved = Vec::new();
    let positions = positions(&seqs);
    let len = positions.first().map_or(0, Vec::len);
    let total = plan.key.passes(plan.digit_bits) * plan.stages;
    for step in 0..steps.min(total) {
        let (pass, stage) = (step / plan.stages, step % plan.stages + 1);
        if stage == 1 && plan.stages > 1 {
            for (t, &c) in pixels_mut(&mut target).iter_mut().zip(pixels(&current)) {
                *t = dim(c, plan.twin_indices);
            }
        }
        let (from, to) = (stage_end(len, stage - 1, plan.stages), stage_end(len, stage, plan.stages));
        let mut count = 0;
        let sequences = read_sequences(seqs, &current);
        let out = pixels_mut(&mut target);
        for (sequence, at) in sequences.iter().zip(&positions) {
            let sequence_ids: Vec<u32> = at.iter().map(|&i| ids[i]).collect();
            let dest = destinations_within(sequence, &sequence_ids, &plan.key, plan.digit_bits, pass);
            for pos in from..to {
                out[at[dest[pos]]] = sequence[pos];
                target_ids[at[dest[pos]]] = sequence_ids[pos];
                count += u64::from(dest[pos] != pos);
            }
        }
        moved.push(count);
        if stage == plan.stages {
            std::mem::swap(&mut current, &mut target);
            std::mem::swap(&mut ids, &mut target_ids);
        }
    }
    let shown = if steps.min(total).is_multiple_of(plan.stages) { current } else { target };
    (shown, moved)
}

/// Every sequence stably sorted by the quantised key: what a complete radix sort produces.
pub fn stable_sort_by_radix_key(img: &RgbaImage, seqs: Sequences, key: &RadixKey) -> RgbaImage {
    let mut out = img.clone();
    let px = pixels_mut(&mut out);
    for (mut sequence, at) in read_sequences(seqs, img).into_iter().zip(positions(&seqs)) {
        sequence.sort_by_key(|&p| key.of(p));
        for (p, i) in sequence.into_iter().zip(at) {
            px[i] = p;
        }
    }
    out
}

/// Whether every sequence of `after` holds exactly the pixels of the same sequence of `before`.
pub fn sequences_are_permutations(before: &RgbaImage, after: &RgbaImage, seqs: Sequences) -> bool {
    before.dimensions() == after.dimensions()
        && read_sequences(seqs, before).into_iter().zip(read_sequences(seqs, after)).all(|(mut a, mut b)| {
            a.sort_unstable();
            b.sort_unstable();
            a == b
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keys::SortKey;
    use crate::keys::options::SortOptions;
    use crate::picture::patterns::random_image;

    fn seqs(img: &RgbaImage, axis: Axis, scope: Scope) -> Sequences {
        Sequences { width: img.width(), height: img.height(), axis, scope }
    }

    #[test]
    fn sequence_indices_visit_every_pixel_once() {
        for (w, h) in [(1, 1), (1, 7), (7, 1), (5, 3), (4, 6)] {
            for axis in [Axis::Rows, Axis::Columns] {
                for scope in [Scope::Rows, Scope::Image] {
                    let s = Sequences { width: w, height: h, axis, scope };
                    let mut seen: Vec<usize> = positions(&s).concat();
                    assert_eq!(positions(&s).len(), s.count(), "{s:?}");
                    assert!(positions(&s).iter().all(|p| p.len() == s.len()), "{s:?}");
                    seen.sort_unstable();
                    assert_eq!(seen, (0..(w * h) as usize).collect::<Vec<_>>(), "{s:?}");
                }
            }
        }
        // Column-major scanline order walks down each column first.
        let s = Sequences { width: 3, height: 2, axis: Axis::Columns, scope: Scope::Image };
        assert_eq!(positions(&s), [[0, 3, 1, 4, 2, 5]]);
    }

    /// LSD works only because every pass is stable: after all passes the picture equals a
    /// stable sort by the whole key, for every digit width, key, order, axis and scope.
    #[test]
    fn every_digit_width_ends_in_the_stable_sort() {
        let img = random_image(13, 7, 11);
        for key in SortKey::ALL {
            for descending in [false, true] {
                for axis in [Axis::Rows, Axis::Columns] {
                    for scope in [Scope::Rows, Scope::Image] {
                        for digit_bits in crate::keys::radix_key::DIGIT_BITS {
                            let options = SortOptions { key, descending, axis };
                            let radix = RadixKey::new(options, None).unwrap();
                            let plan = RadixPlan { key: radix, digit_bits, stages: 1, twin_indices: false };
                            let s = seqs(&img, axis, scope);
                            let (done, _) = radix_steps(&img, s, &plan, plan.steps());
                            assert_eq!(done, stable_sort_by_radix_key(&img, s, &radix), "{plan:?} {scope:?}");
                            if scope == Scope::Rows {
                                assert_eq!(done, super::super::stable_sort(&img, &options));
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn each_pass_is_a_stable_counting_sort_by_its_digit() {
        let options = SortOptions { key: SortKey::Red, ..Default::default() };
        let key = RadixKey::new(options, None).unwrap();
        // Reds 0x21, 0x12, 0x31, 0x02: low nibbles 1, 2, 1, 2.
        let row = [[0x21, 0, 0, 0], [0x12, 1, 0, 0], [0x31, 2, 0, 0], [0x02, 3, 0, 0]];
        assert_eq!(destinations(&row, &key, 4, 0), [0, 2, 1, 3]);
        assert_eq!(destinations(&row, &key, 4, 1), [2, 1, 3, 0]);
    }

    #[test]
    fn staged_scatters_end_where_a_single_scatter_does() {
        let img = random_image(9, 4, 3);
        let key = RadixKey::new(SortOptions::default(), Some(8)).unwrap();
        let whole = RadixPlan { key, digit_bits: 2, stages: 1, twin_indices: false };
        let staged = RadixPlan { stages: 3, ..whole };
        let s = seqs(&img, Axis::Rows, Scope::Rows);
        for pass in 0..=whole.passes() {
            let (a, moved_a) = radix_steps(&img, s, &whole, pass);
            let (b, moved_b) = radix_steps(&img, s, &staged, pass * 3);
            assert_eq!(a, b);
            let sums: Vec<u64> = moved_b.chunks(3).map(|c| c.iter().sum()).collect();
            assert_eq!(moved_a, sums);
        }
        // Mid-pass, the scattered pixels sit at their destinations and the rest is dimmed.
        let (mid, _) = radix_steps(&img, s, &staged, 1);
        let (after, _) = radix_steps(&img, s, &whole, 1);
        let dest = destinations(&read_sequences(s, &img)[0], &key, 2, 0);
        let first_stage = 3;
        for x in 0..9 {
            let scattered = dest[..first_stage].contains(&x);
            let expected = if scattered {
                after.get_pixel(x as u32, 0).0
            } else {
                dim(img.get_pixel(x as u32, 0).0, false)
            };
            assert_eq!(mid.get_pixel(x as u32, 0).0, expected, "x {x}");
        }
    }

    /// Within intervals, the composite key's last passes put every pixel back into its interval:
    /// the end is each interval stably sorted, for every digit width, with thresholds, edges and
    /// random intervals along rows and columns; the odd-even model ends in the same picture.
    #[test]
    fn intervals_end_sorted_within_themselves_for_every_digit_width() {
        use crate::intervals::{IntervalMode, IntervalSettings, Threshold};
        let img = random_image(29, 6, 12);
        for mode in [IntervalMode::None, IntervalMode::Threshold, IntervalMode::Edges, IntervalMode::Random] {
            for axis in [Axis::Rows, Axis::Columns] {
                let settings = IntervalSettings {
                    mode,
                    threshold: Threshold::new(0.3, 0.8).unwrap(),
                    interval_length: crate::intervals::IntervalLength::new(2, 9).unwrap(),
                    ..Default::default()
                };
                let intervals = IntervalMap::compute(&img, axis, &settings, None).unwrap();
                let options = SortOptions { key: SortKey::Hue, descending: axis == Axis::Columns, axis };
                let key = RadixKey::new(options, None)
                    .unwrap()
                    .with_interval_bits(intervals.interval_bits())
                    .unwrap();
                let expected = super::super::stable_sort_within(&img, &options, &intervals);
                let odd_even = super::super::odd_even_passes_within(
                    &img,
                    &options,
                    Some(&intervals),
                    intervals.max_interval_len(),
                );
                assert_eq!(odd_even, expected, "{mode:?} {axis:?}");
                for digit_bits in crate::keys::radix_key::DIGIT_BITS {
                    let plan = RadixPlan { key, digit_bits, stages: 1, twin_indices: false };
                    let s = seqs(&img, axis, Scope::Rows);
                    for steps in 0..plan.steps() {
                        let (state, _) = radix_steps_within(&img, s, &plan, Some(&intervals), steps);
                        assert!(sequences_are_permutations(&img, &state, s));
                    }
                    let (done, _) = radix_steps_within(&img, s, &plan, Some(&intervals), plan.steps());
                    assert_eq!(done, expected, "{mode:?} {axis:?} {digit_bits}-bit digits");
                }
            }
        }
    }

    #[test]
    fn sequences_stay_permutations_and_image_scope_mixes_rows() {
        let img = random_image(6, 5, 8);
        let key = RadixKey::new(SortOptions::default(), None).unwrap();
        let plan = RadixPlan { key, digit_bits: 1, stages: 1, twin_indices: false };
        let image = seqs(&img, Axis::Rows, Scope::Image);
        for steps in 0..=plan.steps() {
            let (state, _) = radix_steps(&img, image, &plan, steps);
            assert!(sequences_are_permutations(&img, &state, image));
        }
        let (done, _) = radix_steps(&img, image, &plan, plan.steps());
        let keys: Vec<u32> = done.pixels().map(|p| key.of(p.0)).collect();
        assert!(keys.windows(2).all(|w| w[0] <= w[1]), "the whole picture is one ascending sequence");
        assert!(!super::super::lines_are_permutations(&img, &done, Axis::Rows));
    }
}
