//! Interval sorting: which pixels of each line are sorted together.
//!
//! A [`IntervalMap`] is computed once on the CPU, from the input picture (and an optional
//! [`Mask`]), before any pass: it gives every pixel the id of its *interval*, unique per interval
//! within its line and non-decreasing along the line. The sorts never compare pixels of different
//! intervals (odd-even and bubble swap two neighbours only when they share an interval id; the
//! radix view sorts by the interval id above the key), so each interval is sorted on its own and a
//! pixel in an interval of its own never moves. The map stays fixed while the pixels move.
//!
//! Intervals come from one [`IntervalMode`] and the mask together:
//! - `none`: every line is one interval (the plain sort);
//! - `threshold`: intervals of pixels whose interval key lies inside a [`Threshold`]; the others
//!   are fixed ([`threshold`]);
//! - `edges`: pixels on strong edges are fixed and split the intervals between them ([`edges`]);
//! - `random`: intervals of seeded random lengths ([`random`]);
//! - a mask's black pixels are fixed in every mode ([`mask`]).
//!
//! [`IntervalMap::build`] takes any per-pixel rule, and [`IntervalMap::compute_on`] the interval rules on
//! cells that need not be the picture's own, so other layouts make maps of their own: line
//! space at an angle (`crate::angle`) takes the threshold, edges and mask from the picture and
//! fixes its padding. [`overlay`] draws a map over its picture.

pub mod edges;
mod map;
pub mod mask;
pub mod overlay;
pub mod painting;
pub mod random;
pub mod threshold;

use crate::keys::SortKey;

pub use map::IntervalMap;
pub use mask::Mask;
pub use random::IntervalLength;
pub use threshold::Threshold;

/// How the intervals of each line are cut (a mask applies on top of every mode).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(not(target_arch = "wasm32"), derive(clap::ValueEnum))]
pub enum IntervalMode {
    /// Every line is one interval: the whole line is sorted.
    #[default]
    None,
    /// Intervals of pixels whose interval key lies inside the threshold; the others stay fixed.
    Threshold,
    /// Pixels on strong edges (Sobel magnitude of the interval key above the edge level) stay
    /// fixed and split the intervals between them.
    Edges,
    /// Intervals of random lengths, reproducible from a seed.
    Random,
}

impl IntervalMode {
    /// Every mode, in the order the window cycles through them.
    pub const ALL: [IntervalMode; 4] =
        [IntervalMode::None, IntervalMode::Threshold, IntervalMode::Edges, IntervalMode::Random];

    /// The mode after this one in [`IntervalMode::ALL`], wrapping around.
    pub fn next(self) -> IntervalMode {
        let at = Self::ALL.iter().position(|&m| m == self).unwrap_or(0);
        Self::ALL[(at + 1) % Self::ALL.len()]
    }

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            IntervalMode::None => "none",
            IntervalMode::Threshold => "threshold",
            IntervalMode::Edges => "edges",
            IntervalMode::Random => "random",
        }
    }
}

/// Everything that decides the intervals except the mask. Each mode reads only its own fields.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IntervalSettings {
    /// How the intervals are cut.
    pub mode: IntervalMode,
    /// The key the threshold and the edges are computed on (any sort key; the sort's own key
    /// is separate).
    pub key: SortKey,
    /// `threshold`: the range of the interval key that is sorted, inclusive.
    pub threshold: Threshold,
    /// `edges`: a pixel whose Sobel magnitude exceeds this fraction of the largest possible
    /// one is fixed (see [`edges`]).
    pub edge_level: f64,
    /// `random`: the seed.
    pub seed: u64,
    /// `random`: the range interval lengths are drawn from.
    pub interval_length: IntervalLength,
}

/// The edge level used when none is given.
pub const DEFAULT_EDGE_LEVEL: f64 = 0.1;

impl Default for IntervalSettings {
    fn default() -> Self {
        IntervalSettings {
            mode: IntervalMode::None,
            key: SortKey::Luma,
            threshold: Threshold::DEFAULT,
            edge_level: DEFAULT_EDGE_LEVEL,
            seed: 0,
            interval_length: IntervalLength::DEFAULT,
        }
    }
}

impl IntervalSettings {
    /// The same settings with every field the mode does not read set to its default, so two
    /// settings that make the same intervals compare equal (a new seed changes nothing in threshold
    /// mode).
    pub fn relevant(&self) -> IntervalSettings {
        let d = IntervalSettings::default();
        let mode = self.mode;
        let keyed = matches!(mode, IntervalMode::Threshold | IntervalMode::Edges);
        IntervalSettings {
            mode,
            key: if keyed { self.key } else { d.key },
            threshold: if mode == IntervalMode::Threshold { self.threshold } else { d.threshold },
            edge_level: if mode == IntervalMode::Edges { self.edge_level } else { d.edge_level },
            seed: if mode == IntervalMode::Random { self.seed } else { d.seed },
            interval_length: if mode == IntervalMode::Random {
                self.interval_length
            } else {
                d.interval_length
            },
        }
    }
}

/// What output file names carry for sorts within intervals: `-threshold` (the mode), `-mask` for a
/// mask alone around whole lines, nothing for the plain sort.
pub fn file_suffix(mode: IntervalMode, masked: bool) -> String {
    match (mode, masked) {
        (IntervalMode::None, false) => String::new(),
        (IntervalMode::None, true) => "-mask".into(),
        (mode, _) => format!("-{}", mode.name()),
    }
}

/// Why an interval map cannot be made.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum IntervalError {
    /// The mask's size is not the picture's.
    #[error(
        "the mask {mask} is {}x{} pixels but {picture} is {}x{}; give a mask of the picture's size (white is sorted, black stays)",
        mask_size.0, mask_size.1, picture_size.0, picture_size.1
    )]
    MaskSize {
        /// How messages name the mask.
        mask: String,
        /// Its width and height.
        mask_size: (u32, u32),
        /// How messages name the picture: `'photo.png'`, `the built-in picture coffee.png`.
        picture: String,
        /// Its width and height.
        picture_size: (u32, u32),
    },
}

/// The intervals of a map in numbers, for messages and the window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntervalSummary {
    /// Intervals of two pixels or more (the ones that sort anything).
    pub intervals: u64,
    /// The longest interval.
    pub longest: u32,
    /// Pixels in intervals of their own, which never move.
    pub fixed: u64,
}

impl std::fmt::Display for IntervalSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} intervals of up to {} pixels, {} pixels fixed",
            self.intervals, self.longest, self.fixed
        )
    }
}

/// What one pixel is to the intervals of its line. Kept here so that the map, which numbers the
/// cells, and the rules that make them (`threshold`) share it without importing each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// Stays where it is: an interval of its own, which also ends the interval before it.
    Fixed,
    /// Sortable, and begins a new interval.
    Start,
    /// Sortable, and joins the interval of the pixel before it (or begins one, at the start of the
    /// line or after a fixed pixel).
    Join,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keys::options::Axis;
    use crate::picture::patterns::random_image;

    #[test]
    fn only_the_fields_a_mode_reads_are_relevant() {
        let base = IntervalSettings {
            mode: IntervalMode::Threshold,
            key: SortKey::Hue,
            threshold: Threshold::new(0.1, 0.3).unwrap(),
            edge_level: 0.5,
            seed: 9,
            interval_length: IntervalLength::new(2, 3).unwrap(),
        };
        let other_seed = IntervalSettings { seed: 10, edge_level: 0.2, ..base };
        assert_eq!(base.relevant(), other_seed.relevant());
        let other_threshold = IntervalSettings { threshold: Threshold::ALL, ..base };
        assert_ne!(base.relevant(), other_threshold.relevant());
        let other_key = IntervalSettings { key: SortKey::Red, ..base };
        assert_ne!(base.relevant(), other_key.relevant());
        let random = IntervalSettings { mode: IntervalMode::Random, ..base };
        assert_eq!(random.relevant(), IntervalSettings { key: SortKey::Red, ..random }.relevant());
        assert_ne!(random.relevant(), IntervalSettings { seed: 10, ..random }.relevant());
        let edges = IntervalSettings { mode: IntervalMode::Edges, ..base };
        assert_ne!(edges.relevant(), IntervalSettings { edge_level: 0.2, ..edges }.relevant());
        assert_eq!(edges.relevant(), IntervalSettings { seed: 1, ..edges }.relevant());
        let none = IntervalSettings { mode: IntervalMode::None, ..base };
        assert_eq!(none.relevant(), IntervalSettings::default());
        // The relevant settings make the same intervals as the full ones.
        let img = random_image(17, 6, 3);
        for s in [base, random, edges, none] {
            let full = IntervalMap::compute(&img, Axis::Rows, &s, None).unwrap();
            assert_eq!(full, IntervalMap::compute(&img, Axis::Rows, &s.relevant(), None).unwrap());
        }
    }

    #[test]
    fn modes_cycle_and_name_their_files() {
        let mut mode = IntervalMode::None;
        for expected in IntervalMode::ALL.iter().cycle().skip(1).take(4) {
            mode = mode.next();
            assert_eq!(mode, *expected);
        }
        assert_eq!(file_suffix(IntervalMode::None, false), "");
        assert_eq!(file_suffix(IntervalMode::None, true), "-mask");
        assert_eq!(file_suffix(IntervalMode::Edges, true), "-edges");
    }
}
