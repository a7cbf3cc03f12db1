//! The sort's choices per device: how tiles are ranked ([`SortPath`]), how scatter slots are
//! found ([`SortStrategy`]), in which order OneSweep's tiles are numbered ([`TileOrder`]), and
//! the workgroup memory those choices need ([`TileMemory`]).

use super::{
    ITEMS, PORTABLE_GROUP, RADIX, TILE, WIDE_HISTOGRAM_WORKGROUP, WIDE_KEYS_WORKGROUP, WIDE_PAIRS_FROM,
    WIDE_PAIRS_WORKGROUP, WORKGROUP,
};
/// The workgroup memory of the kernels that sort tiles (`scatter` and `onesweep`), which
/// decides how many workgroups a GPU core holds at once and, on an H100, how much L1 cache is
/// left beside them (numbers: docs/benchmarks/radix-history.md in the repository).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TileMemory {
    /// Whether each tile is put in digit order in workgroup memory before it is written
    /// (`REORDER` in the shader).
    pub reorder: bool,
    /// Words of the tile order at the start of the shader's `tile_memory` (`REORDER_WORDS`): a
    /// tile's 16-bit indices, two to a word, or 1.
    pub reorder_words: u32,
    /// Bytes of all the workgroup variables the kernels for pairs use (those for keys only use
    /// no more).
    pub bytes: u32,
}

impl TileMemory {
    /// The layout for a ranking (a subgroup size, or none for the portable one) in workgroups
    /// of [`WORKGROUP`] invocations.
    pub fn new(subgroup_size: Option<u32>, reorder: bool) -> Self {
        Self::for_width(subgroup_size, reorder, WORKGROUP)
    }

    /// The layout for a ranking in workgroups of `workgroup` invocations (at least RADIX; the
    /// portable ranking runs only RADIX), whose tiles take `ITEMS` keys an invocation.
    pub fn for_width(subgroup_size: Option<u32>, reorder: bool, workgroup: u32) -> Self {
        let reorder_words = if reorder { workgroup * ITEMS / 2 } else { 1 };
        // tile_histogram and tile_start, then shared_mode, shared_ticket and stuck_tile.
        let common = 2 * RADIX + 3;
        let words = match subgroup_size {
            // warp_totals; tile_memory as pairs lay it out (keys-only sorts take no more): the
            // tile order, whose words take the ballots until the reorder, then the subgroups'
            // counts; or, with no tile order, the counts and then the ballots.
            Some(size) => {
                workgroup / 8
                    + if reorder {
                        reorder_words + warp_words(size, workgroup)
                    } else {
                        reorder_words + warp_words(size, workgroup) + ballot_words(workgroup)
                    }
            }
            // group_counts, round_digits, scan_space; tile_memory holds the tile order.
            None => (workgroup / PORTABLE_GROUP) * RADIX + 2 * workgroup + reorder_words,
        };
        Self { reorder, reorder_words, bytes: 4 * (common + words) }
    }

    /// Bytes of the workgroup variables of OneSweep's kernels for short sorts on the subgroup
    /// path (`KEYS_IN_ORDER` in the shader): the tile order holds the keys, a word each (then
    /// the values), and the counts and ballots share its words until the reorder.
    pub fn keys_in_order_bytes(subgroup_size: u32) -> u32 {
        let common = 2 * RADIX + 3;
        4 * (common
            + WORKGROUP / 8
            + (warp_words(subgroup_size, WORKGROUP) + ballot_words(WORKGROUP)).max(TILE))
    }

    /// The reordering layout where the device's workgroup memory holds it, else the other;
    /// none if neither fits.
    pub fn for_device(device: &wgpu::Device, subgroup_size: Option<u32>) -> Option<Self> {
        let limit = device.limits().max_compute_workgroup_storage_size;
        [true, false].into_iter().map(|reorder| Self::new(subgroup_size, reorder)).find(|m| m.bytes <= limit)
    }
}

/// Words of the subgroup ranking's counters: two 16-bit counters per word for each subgroup's
/// 256 digit values (`WARP_WORDS` in the shader).
pub(super) fn warp_words(subgroup_size: u32, workgroup: u32) -> u32 {
    (workgroup / subgroup_size) * RADIX / 2
}

/// Words of the subgroup ranking's ballots (`BALLOT_WORDS` in the shader): each subgroup's 16
/// rounds of eight, four words an invocation for any subgroup size.
fn ballot_words(workgroup: u32) -> u32 {
    4 * workgroup
}

/// NVIDIA's PCI vendor id, as adapters report it.
const NVIDIA: u32 = 0x10de;

/// The workgroup widths of OneSweep's kernels for long sorts on the subgroup path: keys-only
/// sorts longer than those that keep their keys in workgroup memory take `keys` invocations a
/// workgroup, pairs sorts of at least `pairs_from` keys `pairs`; the rest [`WORKGROUP`]. The
/// histogram kernel takes `histogram`.
/// Wider tiles publish and look back on fewer status words per key, but a wider workgroup needs
/// more registers and workgroup memory at once, so fewer may fit a GPU core.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TileWidths {
    pub keys: u32,
    pub pairs: u32,
    pub pairs_from: u32,
    pub histogram: u32,
}

impl TileWidths {
    /// Every kernel [`WORKGROUP`] invocations wide.
    pub const NARROW: Self = Self { keys: WORKGROUP, pairs: WORKGROUP, pairs_from: 0, histogram: WORKGROUP };

    /// The widths measured fastest on an H100 ([`WIDE_KEYS_WORKGROUP`], [`WIDE_PAIRS_WORKGROUP`]
    /// from [`WIDE_PAIRS_FROM`] keys, [`WIDE_HISTOGRAM_WORKGROUP`]) on NVIDIA GPUs with
    /// subgroups of 32 (`subgroup_size`); narrow elsewhere: other subgroup sizes multiply the
    /// counters a wider workgroup needs, other GPUs' register files and schedulers were not
    /// measured, and the portable ranking runs only narrow workgroups.
    pub fn best_for(device: &wgpu::Device, subgroup_size: Option<u32>) -> Self {
        match subgroup_size {
            Some(32) if device.adapter_info().vendor == NVIDIA => Self {
                keys: WIDE_KEYS_WORKGROUP,
                pairs: WIDE_PAIRS_WORKGROUP,
                pairs_from: WIDE_PAIRS_FROM,
                histogram: WIDE_HISTOGRAM_WORKGROUP,
            },
            _ => Self::NARROW,
        }
    }
}

/// How the scatter ranks the keys of a tile; both give the same, stable result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SortPath {
    /// Groups of 32 invocations compare digits in workgroup memory: needs nothing special.
    Portable,
    /// Subgroup ballots find equal digits: needs `Features::SUBGROUP` and a subgroup size fixed
    /// at 8, 16 or 32 (NVIDIA 32, lavapipe 8; not GL).
    Subgroups,
}

impl SortPath {
    /// Both paths.
    pub const ALL: [SortPath; 2] = [SortPath::Portable, SortPath::Subgroups];

    /// The path [`SortPath::name`] names.
    pub fn named(name: &str) -> Option<SortPath> {
        Self::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The name used on the command line and in tables.
    pub fn name(self) -> &'static str {
        match self {
            SortPath::Portable => "portable",
            SortPath::Subgroups => "subgroups",
        }
    }

    /// The subgroup size the fast path would run with on `device`, if it can run there (it
    /// also needs the workgroup memory for its counters). Never in the browser: its WGSL
    /// compiler wants `enable subgroups;`, which naga (reading the same source natively) refuses.
    pub fn subgroup_size(device: &wgpu::Device) -> Option<u32> {
        let info = device.adapter_info();
        let size = info.subgroup_min_size;
        (info.backend != wgpu::Backend::BrowserWebGpu
            && device.features().contains(wgpu::Features::SUBGROUP)
            && size == info.subgroup_max_size
            && [8, 16, 32].contains(&size)
            && TileMemory::for_device(device, Some(size)).is_some())
        .then_some(size)
    }

    /// The fastest path `device` can run.
    pub fn best_for(device: &wgpu::Device) -> SortPath {
        if Self::subgroup_size(device).is_some() { SortPath::Subgroups } else { SortPath::Portable }
    }
}

/// How each pass finds where a tile's keys go; both give the same, stable result everywhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SortStrategy {
    /// Count every tile's digits, scan the counts, then scatter: three dispatches per pass,
    /// and no workgroup ever waits for another.
    ReduceThenScan,
    /// One dispatch per pass: each tile publishes its digit counts and reads its
    /// predecessors' (decoupled look-back). A workgroup that waits too long for a predecessor
    /// counts that tile's keys itself, so it finishes even where workgroups need not make
    /// progress side by side; it is only fast where they do.
    OneSweep,
}

impl SortStrategy {
    /// Both strategies.
    pub const ALL: [SortStrategy; 2] = [SortStrategy::ReduceThenScan, SortStrategy::OneSweep];

    /// The strategy [`SortStrategy::name`] names.
    pub fn named(name: &str) -> Option<SortStrategy> {
        Self::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The name used on the command line and in tables.
    pub fn name(self) -> &'static str {
        match self {
            SortStrategy::ReduceThenScan => "reduce-then-scan",
            SortStrategy::OneSweep => "onesweep",
        }
    }

    /// OneSweep on GPUs whose running workgroups are known to make progress side by side
    /// (NVIDIA, AMD, Intel and Apple, not through GL); reduce-then-scan elsewhere (software
    /// rasterisers, mobile GPUs, GL), where waiting on another workgroup may mean waiting for
    /// the fallback every time.
    pub fn best_for(device: &wgpu::Device) -> SortStrategy {
        const FORWARD_PROGRESS_VENDORS: [u32; 4] = [NVIDIA, 0x1002, 0x8086, 0x106b];
        let info = device.adapter_info();
        let gpu = matches!(info.device_type, wgpu::DeviceType::DiscreteGpu | wgpu::DeviceType::IntegratedGpu);
        if gpu && info.backend != wgpu::Backend::Gl && FORWARD_PROGRESS_VENDORS.contains(&info.vendor) {
            SortStrategy::OneSweep
        } else {
            SortStrategy::ReduceThenScan
        }
    }
}

/// How OneSweep numbers its tiles (`WORKGROUP_ORDER` in the shader). A tile looks back on
/// the tiles numbered before it, so they should belong to workgroups that have started.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TileOrder {
    /// Each workgroup takes a ticket as it starts: right on every GPU, for one atomic and one
    /// barrier per tile.
    Tickets,
    /// Workgroup i sorts tile i: for GPUs that start workgroups in their order. Elsewhere it
    /// still sorts correctly (a workgroup that waits too long counts a predecessor's keys
    /// itself) but slower.
    WorkgroupOrder,
}

impl TileOrder {
    /// Workgroup order on NVIDIA GPUs, which start workgroups in order (CUB's single-pass scan
    /// relies on the same): tiles skip the ticket's atomic and barrier, which paid on an H100
    /// (numbers: docs/benchmarks/radix-history.md in the repository). Tickets elsewhere.
    pub fn best_for(device: &wgpu::Device) -> Self {
        if device.adapter_info().vendor == NVIDIA { TileOrder::WorkgroupOrder } else { TileOrder::Tickets }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_and_strategies_are_found_by_their_names_and_only_by_them() {
        for path in SortPath::ALL {
            assert_eq!(SortPath::named(path.name()), Some(path));
        }
        for strategy in SortStrategy::ALL {
            assert_eq!(SortStrategy::named(strategy.name()), Some(strategy));
        }
        assert_eq!(SortStrategy::named("onesweep"), Some(SortStrategy::OneSweep));
        assert_eq!(SortPath::named("fast"), None);
        assert_eq!(SortStrategy::named("OneSweep"), None);
    }
}
