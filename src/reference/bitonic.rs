//! The CPU model of the bitonic rows: the bitonic sorting network, stage by stage, on each
//! interval of each line (every line is one interval without an interval map).
//!
//! The network is the form whose comparators all put the smaller element first: merging blocks of
//! 2^k begins with the "flip" stage, which compares position `a` of each block with position `2^k -
//! 1 - a`, and goes on with half-cleaners at distances 2^(k-2), ..., 1. An interval of `len` pixels
//! is sorted by the network of the next power of two with every comparator that reaches past the
//! interval left out: the left-out positions would hold padding that sorts after every pixel, and
//! such a comparator never exchanges, so no pixel ever leaves its interval. Every interval takes
//! the stages of the longest interval's network (a shorter interval is sorted before the stages it
//! does not need, and they leave it as it is).
//!
//! Pixels are compared by key, then by where they stood in their line before the first stage
//! (their origin): the order is total, so the network's result is the stable sort.

use super::{check_map, pixels_mut};
use crate::intervals::IntervalMap;
use crate::keys::options::{LineLayout, SortOptions};
use image::RgbaImage;
use std::ops::Range;

/// One stage of the network: merging blocks of `2^merge`, comparing at distance `2^distance`
/// (the flip stage when `distance + 1 == merge`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stage {
    /// Merges sorted halves into blocks of 2^merge (1-based).
    pub merge: u32,
    /// Compares positions 2^distance apart (the flip stage: mirrored within the block).
    pub distance: u32,
}

impl Stage {
    /// Stage `index` (0-based) of every network: for merge 1, 2, ... the distances merge - 1
    /// down to 0.
    pub fn at(index: u32) -> Stage {
        let mut merge = 1;
        let mut first = 0;
        while first + merge <= index {
            first += merge;
            merge += 1;
        }
        Stage { merge, distance: merge - 1 - (index - first) }
    }

    /// Whether this is the first stage of its merge, which mirrors each block.
    pub fn is_flip(self) -> bool {
        self.distance + 1 == self.merge
    }

    /// The position a comparator of this stage pairs with `a` (both relative to the interval's
    /// start), when `a` is the comparator's first member and its partner lies within an interval of
    /// `len` pixels.
    pub fn partner(self, a: u32, len: u32) -> Option<u32> {
        let b = if self.is_flip() { a ^ ((1 << self.merge) - 1) } else { a ^ (1 << self.distance) };
        (b > a && b < len).then_some(b)
    }

    /// Whether every comparator of this stage stays within aligned blocks of `block` positions
    /// (a power of two), so a workgroup holding such a block runs it in workgroup memory.
    pub fn fits_block(self, block: u32) -> bool {
        2u64 << self.distance <= u64::from(block)
    }

    /// "merge 2^3, distance 2^1": the stage in the window's words.
    pub fn describe(self) -> String {
        if self.is_flip() {
            format!("merge 2^{}, flip (distance 2^{})", self.merge, self.distance)
        } else {
            format!("merge 2^{}, distance 2^{}", self.merge, self.distance)
        }
    }
}

/// Stages of the network that sorts intervals of up to `max_len` pixels: m(m + 1)/2 where 2^m is
/// the next power of two.
pub fn stage_count(max_len: u32) -> u32 {
    let m = max_len.max(1).next_power_of_two().trailing_zeros();
    m * (m + 1) / 2
}

/// A picture being sorted by the network: its pixels and where each stood before the first
/// stage.
#[derive(Clone, Debug)]
pub struct BitonicModel {
    state: RgbaImage,
    /// Per pixel (row-major), its position along its line before the first stage.
    origins: Vec<u32>,
    options: SortOptions,
    /// Per line, its intervals.
    intervals: Vec<Vec<Range<usize>>>,
    stages: u32,
    stages_done: u32,
}

impl BitonicModel {
    /// Starts sorting `picture` within `intervals` (every line whole with `None`).
    ///
    /// # Panics
    /// When the map is for another size or axis.
    pub fn new(picture: &RgbaImage, options: SortOptions, intervals: Option<&IntervalMap>) -> Self {
        let layout = LineLayout::new(picture.width(), picture.height(), options.axis);
        if let Some(map) = intervals {
            check_map(picture, options.axis, map);
        }
        let line_intervals: Vec<Vec<Range<usize>>> = (0..layout.count)
            .map(|line| {
                intervals.map_or_else(|| std::iter::once(0..layout.len).collect(), |map| map.intervals(line))
            })
            .collect();
        let max_len = intervals.map_or(layout.len as u32, IntervalMap::max_interval_len);
        let mut origins = vec![0; layout.count * layout.len];
        for line in 0..layout.count {
            for pos in 0..layout.len {
                origins[layout.index(line, pos)] = pos as u32;
            }
        }
        BitonicModel {
            state: picture.clone(),
            origins,
            options,
            intervals: line_intervals,
            stages: stage_count(max_len),
            stages_done: 0,
        }
    }

    /// Stages after which every interval is sorted.
    pub fn stages(&self) -> u32 {
        self.stages
    }

    /// The picture now.
    pub fn state(&self) -> &RgbaImage {
        &self.state
    }

    /// Runs the next stage; returns the exchanges it made (none once every stage has run).
    pub fn step(&mut self) -> u64 {
        if self.stages_done == self.stages {
            return 0;
        }
        let stage = Stage::at(self.stages_done);
        self.stages_done += 1;
        let layout = LineLayout::new(self.state.width(), self.state.height(), self.options.axis);
        let options = self.options;
        let px = pixels_mut(&mut self.state);
        let mut exchanges = 0;
        for (line, intervals) in self.intervals.iter().enumerate() {
            for interval in intervals {
                let len = interval.len() as u32;
                for a in 0..len {
                    let Some(b) = stage.partner(a, len) else { continue };
                    let i = layout.index(line, interval.start + a as usize);
                    let j = layout.index(line, interval.start + b as usize);
                    let rank = |p: usize| (options.order_key(px[p]), self.origins[p]);
                    if rank(i) > rank(j) {
                        px.swap(i, j);
                        self.origins.swap(i, j);
                        exchanges += 1;
                    }
                }
            }
        }
        exchanges
    }
}

/// The picture after the first `stages` stages within `intervals`.
pub fn bitonic_stages(
    picture: &RgbaImage,
    options: SortOptions,
    intervals: Option<&IntervalMap>,
    stages: u32,
) -> RgbaImage {
    let mut model = BitonicModel::new(picture, options, intervals);
    for _ in 0..stages {
        model.step();
    }
    model.state
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keys::options::Axis;
    use crate::reference::tests::{every_direction_cases, intervals_of, red_opts, red_row, zero_one_rows};
    use crate::reference::{fixed_pixels_stay, lines_are_permutations, stable_sort, stable_sort_within};

    #[test]
    fn stages_count_merges_then_distances() {
        let names: Vec<(u32, u32)> = (0..6).map(Stage::at).map(|s| (s.merge, s.distance)).collect();
        assert_eq!(names, [(1, 0), (2, 1), (2, 0), (3, 2), (3, 1), (3, 0)]);
        assert_eq!([1, 2, 3, 4, 5, 8, 9, 1920].map(stage_count), [0, 1, 3, 3, 6, 6, 10, 66]);
        assert!(Stage::at(0).is_flip() && !Stage::at(2).is_flip());
    }

    #[test]
    fn the_flip_mirrors_each_block_and_half_cleaners_pair_at_their_distance() {
        let flip = Stage { merge: 3, distance: 2 };
        let pairs: Vec<(u32, u32)> = (0..8).filter_map(|a| flip.partner(a, 8).map(|b| (a, b))).collect();
        assert_eq!(pairs, [(0, 7), (1, 6), (2, 5), (3, 4)]);
        let half = Stage { merge: 3, distance: 1 };
        let pairs: Vec<(u32, u32)> = (0..8).filter_map(|a| half.partner(a, 8).map(|b| (a, b))).collect();
        assert_eq!(pairs, [(0, 2), (1, 3), (4, 6), (5, 7)]);
        // Past the interval's end there is no comparator.
        assert_eq!(flip.partner(1, 6), None);
        assert!(half.fits_block(4) && !half.fits_block(2));
    }

    /// The 0-1 principle: a comparator network sorts every input if it sorts every input of
    /// zeros and ones, so this proves the network (with comparators past the end left out)
    /// for every length up to 13.
    #[test]
    fn the_network_sorts_every_zero_one_line() {
        for values in zero_one_rows(13) {
            let img = red_row(&values);
            let sorted = bitonic_stages(&img, red_opts(), None, stage_count(img.width()));
            assert_eq!(sorted, stable_sort(&img, &red_opts()), "{values:?}");
        }
    }

    #[test]
    fn random_pictures_end_stably_sorted_in_every_direction() {
        for (img, opts) in every_direction_cases() {
            let mut model = BitonicModel::new(&img, opts, None);
            for _ in 0..model.stages() {
                model.step();
                assert!(lines_are_permutations(&img, model.state(), opts.axis));
            }
            assert_eq!(model.state(), &stable_sort(&img, &opts), "{:?} {opts:?}", img.dimensions());
        }
    }

    #[test]
    fn intervals_sort_as_segments_and_fixed_pixels_never_move() {
        // Intervals [0, 3), [3] fixed, [4, 9) started anew at 4, [9, 11).
        let intervals = intervals_of("JJJFSJJJJSJ");
        let img = red_row(&[9, 3, 5, 0, 8, 8, 1, 7, 2, 6, 4]);
        let mut model = BitonicModel::new(&img, red_opts(), Some(&intervals));
        assert_eq!(model.stages(), stage_count(5));
        for _ in 0..model.stages() {
            model.step();
            assert!(fixed_pixels_stay(&img, model.state(), &intervals));
            for range in intervals.intervals(0) {
                let mut a: Vec<_> = range.clone().map(|x| img.get_pixel(x as u32, 0).0).collect();
                let mut b: Vec<_> = range.map(|x| model.state().get_pixel(x as u32, 0).0).collect();
                a.sort_unstable();
                b.sort_unstable();
                assert_eq!(a, b, "no pixel leaves its interval");
            }
        }
        assert_eq!(model.state(), &stable_sort_within(&img, &red_opts(), &intervals));
    }

    #[test]
    fn the_last_stages_after_the_end_change_nothing() {
        let img = red_row(&[3, 1, 2]);
        let mut model = BitonicModel::new(&img, red_opts(), None);
        for _ in 0..model.stages() {
            model.step();
        }
        let done = model.state().clone();
        assert_eq!(model.step(), 0);
        assert_eq!(model.state(), &done);
        assert!(lines_are_permutations(&img, &done, Axis::Rows));
    }
}
