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

/// One stage of the network, as the definition above builds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NetworkStage {
    /// The aligned blocks it works in: 2, 4, 8, ...
    pub block: usize,
    /// The first stage of a merge: it mirrors each block.
    pub flip: bool,
    /// A half-cleaner's distance (half the block for the flip stage).
    pub distance: usize,
}

impl NetworkStage {
    /// The comparators (first, second) of this stage within an interval of `len` pixels,
    /// positions from its start, first members ascending; those reaching past the end left out.
    pub fn comparators(&self, len: usize) -> Vec<(usize, usize)> {
        let mut pairs = Vec::new();
        for start in (0..len).step_by(self.block) {
            for offset in 0..self.block / 2 {
                let (a, b) = if self.flip {
                    (start + offset, start + self.block - 1 - offset)
                } else {
                    // Half-cleaners of 2·distance positions side by side within the block.
                    let cleaner = start + offset / self.distance * 2 * self.distance;
                    let a = cleaner + offset % self.distance;
                    (a, a + self.distance)
                };
                if b < len {
                    pairs.push((a, b));
                }
            }
        }
        pairs
    }
}

/// The network that sorts intervals of up to `max_len` pixels: for blocks of 2, 4, ... up to
/// the next power of two, the flip stage and then half-cleaners at half its distance down to 1.
pub fn network(max_len: u32) -> Vec<NetworkStage> {
    let mut stages = Vec::new();
    let mut block = 2;
    while block / 2 < max_len as usize {
        stages.push(NetworkStage { block, flip: true, distance: block / 2 });
        let mut distance = block / 4;
        while distance >= 1 {
            stages.push(NetworkStage { block, flip: false, distance });
            distance /= 2;
        }
        block *= 2;
    }
    stages
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
    network: Vec<NetworkStage>,
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
            network: network(max_len),
            stages_done: 0,
        }
    }

    /// Stages after which every interval is sorted.
    pub fn stages(&self) -> u32 {
        self.network.len() as u32
    }

    /// Stage `index` of its network.
    pub fn stage(&self, index: u32) -> NetworkStage {
        self.network[index as usize]
    }

    /// The picture now.
    pub fn state(&self) -> &RgbaImage {
        &self.state
    }

    /// Runs the next stage; returns the exchanges it made (none once every stage has run).
    pub fn step(&mut self) -> u64 {
        let Some(&stage) = self.network.get(self.stages_done as usize) else { return 0 };
        self.stages_done += 1;
        let layout = LineLayout::new(self.state.width(), self.state.height(), self.options.axis);
        let options = self.options;
        let px = pixels_mut(&mut self.state);
        let mut exchanges = 0;
        for (line, intervals) in self.intervals.iter().enumerate() {
            for interval in intervals {
                for (a, b) in stage.comparators(interval.len()) {
                    let i = layout.index(line, interval.start + a);
                    let j = layout.index(line, interval.start + b);
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
    fn the_network_is_merges_then_distances() {
        let names: Vec<(usize, bool, usize)> =
            network(8).iter().map(|s| (s.block, s.flip, s.distance)).collect();
        assert_eq!(
            names,
            [(2, true, 1), (4, true, 2), (4, false, 1), (8, true, 4), (8, false, 2), (8, false, 1)]
        );
        assert_eq!([1, 2, 3, 4, 5, 8, 9, 1920].map(|n| network(n).len()), [0, 1, 3, 3, 6, 6, 10, 66]);
        assert_eq!(network(8)[3].comparators(8), [(0, 7), (1, 6), (2, 5), (3, 4)]);
        assert_eq!(network(8)[4].comparators(8), [(0, 2), (1, 3), (4, 6), (5, 7)]);
        // Past the interval's end there is no comparator.
        assert_eq!(network(8)[3].comparators(6), [(2, 5), (3, 4)]);
    }

    /// The 0-1 principle: a comparator network sorts every input if it sorts every input of
    /// zeros and ones, so this proves the network (with comparators past the end left out)
    /// for every length up to 13.
    #[test]
    fn the_network_sorts_every_zero_one_line() {
        for values in zero_one_rows(13) {
            let img = red_row(&values);
            let sorted = bitonic_stages(&img, red_opts(), None, network(img.width()).len() as u32);
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
        assert_eq!(model.stages(), network(5).len() as u32);
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
