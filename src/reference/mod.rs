//! The CPU model of every algorithm, pass by pass: the oracle the GPU is tested against.

pub mod bitonic;
pub mod paths;
pub mod radix;

use crate::intervals::IntervalMap;
use crate::keys::options::{Axis, LineLayout, SortOptions};
use image::RgbaImage;

fn pixels_mut(img: &mut RgbaImage) -> &mut [[u8; 4]] {
    bytemuck::cast_slice_mut(img.as_mut())
}

fn pixels(img: &RgbaImage) -> &[[u8; 4]] {
    bytemuck::cast_slice(img.as_raw())
}

/// Every line of the picture as a list of pixels (rows or columns, as `axis` says).
pub fn lines(img: &RgbaImage, axis: Axis) -> Vec<Vec<[u8; 4]>> {
    let layout = LineLayout::new(img.width(), img.height(), axis);
    let px = pixels(img);
    (0..layout.count).map(|line| (0..layout.len).map(|pos| px[layout.index(line, pos)]).collect()).collect()
}

/// The pairs `(x - 1, x)` that odd-even iteration `iteration` compares in a line of `len`: pixel
/// `x` pairs with `x - 1` when `x` and the iteration have the same parity.
pub fn odd_even_pairs(iteration: u32, len: usize) -> Vec<(usize, usize)> {
    (1..len).filter(|&x| x % 2 == iteration as usize % 2).map(|x| (x - 1, x)).collect()
}

/// One odd-even transposition pass over every line; returns the number of swaps.
pub fn odd_even_pass(img: &mut RgbaImage, options: &SortOptions, iteration: u32) -> u64 {
    odd_even_pass_within(img, options, None, iteration)
}

/// One odd-even pass in which a pair swaps only when its left key is greater and both pixels lie in
/// the same interval of `intervals` (every line is one interval without a map); returns the swaps.
///
/// # Panics
/// When the map is for another size or axis.
pub fn odd_even_pass_within(
    img: &mut RgbaImage,
    options: &SortOptions,
    intervals: Option<&IntervalMap>,
    iteration: u32,
) -> u64 {
    let layout = LineLayout::new(img.width(), img.height(), options.axis);
    if let Some(intervals) = intervals {
        check_map(img, options.axis, intervals);
    }
    let same_interval = |a: usize, b: usize| intervals.is_none_or(|r| r.ids()[a] == r.ids()[b]);
    let px = pixels_mut(img);
    let mut swaps = 0;
    for line in 0..layout.count {
        for (left, right) in odd_even_pairs(iteration, layout.len) {
            let (a, b) = (layout.index(line, left), layout.index(line, right));
            if options.order_key(px[a]) > options.order_key(px[b]) && same_interval(a, b) {
                px.swap(a, b);
                swaps += 1;
            }
        }
    }
    swaps
}

/// The state after the first `passes` odd-even passes.
pub fn odd_even_passes(img: &RgbaImage, options: &SortOptions, passes: u32) -> RgbaImage {
    odd_even_passes_within(img, options, None, passes)
}

/// The state after the first `passes` odd-even passes within `intervals`.
pub fn odd_even_passes_within(
    img: &RgbaImage,
    options: &SortOptions,
    intervals: Option<&IntervalMap>,
    passes: u32,
) -> RgbaImage {
    let mut state = img.clone();
    for i in 0..passes {
        odd_even_pass_within(&mut state, options, intervals, i);
    }
    state
}

fn check_map(img: &RgbaImage, axis: Axis, intervals: &IntervalMap) {
    assert_eq!(
        (img.width(), img.height(), axis),
        (intervals.width(), intervals.height(), intervals.axis()),
        "the interval map is for another picture or axis"
    );
}

/// Every interval of `intervals` stably sorted by `key`, every other pixel where it was.
pub fn sort_intervals_by(
    img: &RgbaImage,
    intervals: &IntervalMap,
    key: impl Fn([u8; 4]) -> u32,
) -> RgbaImage {
    check_map(img, intervals.axis(), intervals);
    let layout = intervals.layout();
    let mut out = img.clone();
    let px = pixels_mut(&mut out);
    for line in 0..layout.count {
        for interval in intervals.intervals(line) {
            let mut values: Vec<[u8; 4]> = interval.clone().map(|p| px[layout.index(line, p)]).collect();
            values.sort_by_key(|&p| key(p));
            for (pos, v) in interval.zip(values) {
                px[layout.index(line, pos)] = v;
            }
        }
    }
    out
}

/// Every interval stably sorted by the options' key: what every complete sort within intervals
/// produces.
pub fn stable_sort_within(img: &RgbaImage, options: &SortOptions, intervals: &IntervalMap) -> RgbaImage {
    assert_eq!(options.axis, intervals.axis(), "the interval map is for the other axis");
    sort_intervals_by(img, intervals, |p| options.order_key(p))
}

/// Whether every pixel that cannot move (an interval of one pixel) is in `after` where it is in
/// `before`.
pub fn fixed_pixels_stay(before: &RgbaImage, after: &RgbaImage, intervals: &IntervalMap) -> bool {
    let (b, a) = (pixels(before), pixels(after));
    b.len() == a.len() && (0..b.len()).all(|i| intervals.can_move(i) || b[i] == a[i])
}

/// Every line stably sorted by the options' key: what every complete sort must produce.
pub fn stable_sort(img: &RgbaImage, options: &SortOptions) -> RgbaImage {
    let layout = LineLayout::new(img.width(), img.height(), options.axis);
    let mut out = img.clone();
    let px = pixels_mut(&mut out);
    for line in 0..layout.count {
        let mut values: Vec<[u8; 4]> = (0..layout.len).map(|p| px[layout.index(line, p)]).collect();
        values.sort_by_key(|&p| options.order_key(p));
        for (pos, v) in values.into_iter().enumerate() {
            px[layout.index(line, pos)] = v;
        }
    }
    out
}

/// Whether every line is in (non-strict) key order.
pub fn is_sorted(img: &RgbaImage, options: &SortOptions) -> bool {
    lines(img, options.axis)
        .iter()
        .all(|line| line.windows(2).all(|w| options.order_key(w[0]) <= options.order_key(w[1])))
}

/// Whether every line of `after` holds exactly the pixels of the same line of `before`.
pub fn lines_are_permutations(before: &RgbaImage, after: &RgbaImage, axis: Axis) -> bool {
    if before.dimensions() != after.dimensions() {
        return false;
    }
    lines(before, axis).into_iter().zip(lines(after, axis)).all(|(mut a, mut b)| {
        a.sort_unstable();
        b.sort_unstable();
        a == b
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keys::SortKey;
    use crate::picture::patterns::random_image;

    /// One row of the given reds; green records each pixel's original position, so stability
    /// is visible.
    pub(super) fn red_row(values: &[u8]) -> RgbaImage {
        let mut img = RgbaImage::new(values.len() as u32, 1);
        for (x, &v) in values.iter().enumerate() {
            img.put_pixel(x as u32, 0, image::Rgba([v, x as u8, 0, 255]));
        }
        img
    }

    /// Ascending by red, along rows.
    pub(super) fn red_opts() -> SortOptions {
        SortOptions { key: SortKey::Red, ..Default::default() }
    }

    /// Every row of zeros and ones (as reds) of 1 to `max_len` pixels: by the 0-1 principle, a
    /// comparator network that sorts all of them sorts every row of those lengths.
    pub(super) fn zero_one_rows(max_len: usize) -> impl Iterator<Item = Vec<u8>> {
        (1..=max_len).flat_map(|len| {
            (0u32..1 << len).map(move |bits| (0..len).map(|i| (bits >> i & 1) as u8).collect())
        })
    }

    /// Random pictures of several sizes (one pixel, odd and power-of-two widths, tall ones),
    /// each with every key, order and axis.
    pub(super) fn every_direction_cases() -> Vec<(RgbaImage, SortOptions)> {
        let mut cases = Vec::new();
        for (w, h, seed) in [(1, 1, 1), (2, 3, 2), (17, 5, 3), (64, 4, 4), (65, 9, 5), (7, 70, 6)] {
            let img = random_image(w, h, seed);
            for key in SortKey::ALL {
                for descending in [false, true] {
                    for axis in [Axis::Rows, Axis::Columns] {
                        cases.push((img.clone(), SortOptions { key, descending, axis }));
                    }
                }
            }
        }
        cases
    }

    #[test]
    fn pass_zero_pairs_one_two_and_pass_one_pairs_zero_one() {
        let mut img = red_row(&[3, 2, 1, 0]);
        odd_even_pass(&mut img, &red_opts(), 0);
        let reds: Vec<u8> = img.pixels().map(|p| p[0]).collect();
        assert_eq!(reds, [3, 1, 2, 0], "pass 0 compares (1,2) only; 3 has no partner");
        odd_even_pass(&mut img, &red_opts(), 1);
        let reds: Vec<u8> = img.pixels().map(|p| p[0]).collect();
        assert_eq!(reds, [1, 3, 0, 2], "pass 1 compares (0,1) and (2,3)");
    }

    /// By the 0-1 principle, a comparator network sorts every input if it sorts every input of
    /// zeros and ones; W passes of odd-even transposition are such a network, so this exhausts
    /// the proof for every width up to 14.
    #[test]
    fn width_passes_sort_every_zero_one_row() {
        for values in zero_one_rows(14) {
            let img = red_row(&values);
            let sorted = odd_even_passes(&img, &red_opts(), img.width());
            assert_eq!(sorted, stable_sort(&img, &red_opts()), "{values:?}");
        }
    }

    #[test]
    fn width_passes_sort_random_pictures_stably_in_every_direction() {
        for (img, opts) in every_direction_cases() {
            let (w, h) = img.dimensions();
            let got = odd_even_passes(&img, &opts, opts.line_len(w, h));
            assert_eq!(got, stable_sort(&img, &opts), "{w}x{h} {opts:?}");
            assert!(is_sorted(&got, &opts));
            assert!(lines_are_permutations(&img, &got, opts.axis));
        }
    }

    #[test]
    fn fewer_than_width_passes_can_leave_a_row_unsorted() {
        // The reversed row is the worst case: it needs every one of its W passes.
        let img = red_row(&[9, 8, 7, 6, 5, 4, 3, 2, 1]);
        assert!(!is_sorted(&odd_even_passes(&img, &red_opts(), 8), &red_opts()));
        assert!(is_sorted(&odd_even_passes(&img, &red_opts(), 9), &red_opts()));
    }

    /// A one-row interval map from letters: `F` a fixed pixel, `S` a pixel that starts an
    /// interval, anything else one that joins the interval before it.
    pub(super) fn intervals_of(cells: &str) -> IntervalMap {
        use crate::intervals::Cell;
        let cells: Vec<Cell> = cells
            .chars()
            .map(|c| match c {
                'F' => Cell::Fixed,
                'S' => Cell::Start,
                _ => Cell::Join,
            })
            .collect();
        IntervalMap::build(cells.len() as u32, 1, Axis::Rows, |_, pos, _| cells[pos])
    }

    #[test]
    fn pairs_across_an_interval_boundary_never_swap() {
        // Intervals [0, 1], [2] fixed, [3, 4] started anew at 3, [5].
        let intervals = intervals_of("JJFSJS");
        let mut img = red_row(&[5, 4, 3, 2, 1, 0]);
        let before = img.clone();
        for i in 0..6 {
            odd_even_pass_within(&mut img, &red_opts(), Some(&intervals), i);
            assert!(fixed_pixels_stay(&before, &img, &intervals));
        }
        let reds: Vec<u8> = img.pixels().map(|p| p[0]).collect();
        assert_eq!(reds, [4, 5, 3, 1, 2, 0], "each interval sorted on its own");
        assert_eq!(img, stable_sort_within(&before, &red_opts(), &intervals));
        // Without a map the same passes sort the whole row.
        let whole = odd_even_passes_within(&before, &red_opts(), None, 6);
        assert_eq!(whole, stable_sort(&before, &red_opts()));
    }

    /// The 0-1 principle again, inside intervals: an interval of L pixels starting at an even or an
    /// odd position is sorted by any L consecutive passes starting with pass 0, whatever stands
    /// around it; so the longest interval's length in passes sorts every interval.
    #[test]
    fn max_interval_len_passes_sort_every_zero_one_interval_at_either_parity() {
        for len in 1..=10usize {
            for offset in [0usize, 1] {
                // A fixed pixel before the interval when it starts at 1, and one after it.
                let cells = format!("{}S{}F", "F".repeat(offset), "J".repeat(len - 1));
                let intervals = intervals_of(&cells);
                assert_eq!(intervals.max_interval_len() as usize, len.max(1));
                for bits in 0u32..(1 << len) {
                    let mut values = vec![9u8; offset];
                    values.extend((0..len).map(|i| (bits >> i & 1) as u8));
                    values.push(0);
                    let img = red_row(&values);
                    let sorted = odd_even_passes_within(
                        &img,
                        &red_opts(),
                        Some(&intervals),
                        intervals.max_interval_len(),
                    );
                    assert_eq!(sorted, stable_sort_within(&img, &red_opts(), &intervals), "{cells} {bits:b}");
                }
            }
        }
    }

    #[test]
    fn swaps_are_counted_once_per_pair() {
        let mut img = red_row(&[1, 0, 1, 0, 1]);
        assert_eq!(odd_even_pass(&mut img, &red_opts(), 1), 2);
        assert_eq!(odd_even_pass(&mut img, &red_opts(), 1), 0);
    }
}
