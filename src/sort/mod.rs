//! A device-wide radix sort for wgpu programs: sorts a buffer of u32 (or f32) keys, alone or
//! with u32 values, ascending or descending, stably, recorded into the caller's encoder.
//!
//! ```no_run
//! # fn demo(device: &wgpu::Device, queue: &wgpu::Queue, keys: &wgpu::Buffer, len: u32) -> Result<(), shadersort::sort::SortError> {
//! use shadersort::sort::{RadixSorter, SortJob};
//! let sorter = RadixSorter::new(device);
//! let scratch = sorter.scratch(device, len, false)?;
//! let mut encoder = device.create_command_encoder(&Default::default());
//! sorter.record(device, &mut encoder, &SortJob::keys(keys, len), &scratch)?;
//! queue.submit([encoder.finish()]);
//! # Ok(()) }
//! ```
//!
//! 8-bit digits (`shaders/radix_sort.wgsl`): one read of the keys builds all four histograms
//! and notices sorted input (then nothing else runs) and digits that are the same for every
//! key (then that pass only copies). Each remaining pass is a stable scatter whose output
//! slots come from one of two [`SortStrategy`]s: reduce-then-scan, where no workgroup waits
//! on another, or OneSweep, a single pass with decoupled look-back whose waits are bounded by
//! a fallback, so it is correct on every adapter too. Two [`SortPath`]s differ in how a tile's
//! keys are ranked. The sorter picks both from the adapter; the caller may force either.
//! Where the device's workgroup memory allows, each tile's digit order is built there (as
//! 16-bit indices) before the tile is written, so neighbouring invocations write neighbouring
//! slots; otherwise each key goes straight to its slot.

pub mod distribution;

use crate::gpu::bindings::compute_buffer;
use crate::gpu::shaders::{RADIX_SORT_PROGRAM, RADIX_SORT_SUBGROUPS_PROGRAM};
use std::ops::Range;
use wgpu::util::DeviceExt;

/// Keys per tile (`TILE` in `shaders/radix_sort.wgsl`).
pub const TILE: u32 = 4096;
/// Digit values per pass.
const RADIX: u32 = 256;
/// Digit passes over a 32-bit key.
const PASSES: u32 = 4;
/// Words of the histograms buffer: four histograms, a OneSweep tile ticket and a mode per
/// pass, and the unsorted flag (`TICKETS`, `MODES`, `UNSORTED` in the shader).
const HISTOGRAM_WORDS: u32 = RADIX * PASSES + 2 * PASSES + 1;
/// The word of the histograms buffer where the four passes' modes start (`MODES` in the
/// shader): 0 sorts the pass, 1 only copies it (its digit is the same for every key), 2 skips
/// it (the input was already sorted).
#[doc(hidden)]
pub const PASS_MODES_WORD: u32 = RADIX * PASSES + PASSES;
/// Workgroups of the histogram kernel at most (each takes every this-many-th tile).
const HISTOGRAM_GROUPS: u32 = 1024;
/// Status reads a OneSweep workgroup waits for a predecessor before counting its keys itself
/// (`SPINS` in the shader).
const LOOK_BACK_SPINS: u32 = 256;
/// OneSweep's status words keep counts in 30 bits.
const ONESWEEP_MAX_LEN: u32 = (1 << 30) - 1;
/// The first length the default sorter sorts with OneSweep where the device runs it: on an
/// H100, reduce-then-scan is faster up to 2^22 keys (0.346 against 0.379 ms) and OneSweep from
/// 2^24 (1.076 against 1.100 ms; pairs 1.240 against 1.571) (BENCHMARKS.md).
pub const ONESWEEP_FROM: u32 = 1 << 23;
/// Invocations per workgroup (`WORKGROUP` in the shader).
const WORKGROUP: u32 = 256;
// The histogram kernels give each digit value an invocation.
const _: () = assert!(WORKGROUP == RADIX);
/// Invocations that rank their keys together in the portable ranking (`GROUP` there).
const PORTABLE_GROUP: u32 = 32;

/// The workgroup memory of the kernels that sort tiles (`scatter` and `onesweep`), which
/// decides how many workgroups a GPU core holds at once.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TileMemory {
    /// Whether each tile is put in digit order in workgroup memory before it is written
    /// (`REORDER` in the shader).
    pub reorder: bool,
    /// Words of the shader's `tile_order` (`REORDER_WORDS`): a tile's 16-bit indices, two to a
    /// word, or 1.
    pub reorder_words: u32,
    /// Bytes of all the workgroup variables the kernels use.
    pub bytes: u32,
}

impl TileMemory {
    /// The layout for a ranking (a subgroup size, or none for the portable one).
    pub fn new(subgroup_size: Option<u32>, reorder: bool) -> Self {
        let reorder_words = if reorder { TILE / 2 } else { 1 };
        // tile_histogram and tile_start, then shared_mode, shared_ticket, stuck_tile, stuck_plain.
        let common = 2 * RADIX + 4;
        let ranking = match subgroup_size {
            // warp_counts, warp_totals.
            Some(size) => warp_words(size) + 32,
            // group_counts, round_digits, scan_space.
            None => (WORKGROUP / PORTABLE_GROUP) * RADIX + 2 * WORKGROUP,
        };
        Self { reorder, reorder_words, bytes: 4 * (common + reorder_words + ranking) }
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
fn warp_words(subgroup_size: u32) -> u32 {
    (WORKGROUP / subgroup_size) * RADIX / 2
}

/// How the scatter ranks the keys of a tile; both give the same, stable result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum SortPath {
    /// Groups of 32 invocations compare digits in workgroup memory: needs nothing special.
    Portable,
    /// Subgroup ballots find equal digits: needs `Features::SUBGROUP` and a subgroup size fixed
    /// at 8, 16 or 32 (NVIDIA 32, lavapipe 8; not GL).
    Subgroups,
}

impl SortPath {
    /// The name used on the command line and in tables.
    pub fn name(self) -> &'static str {
        match self {
            SortPath::Portable => "portable",
            SortPath::Subgroups => "subgroups",
        }
    }

    /// The subgroup size the fast path would run with on `device`, if it can run there (it
    /// also needs the workgroup memory for its counters).
    pub fn subgroup_size(device: &wgpu::Device) -> Option<u32> {
        let info = device.adapter_info();
        let size = info.subgroup_min_size;
        (device.features().contains(wgpu::Features::SUBGROUP)
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum SortStrategy {
    /// Count every tile's digits, scan the counts, then scatter: three dispatches per pass,
    /// and no workgroup ever waits for another.
    ReduceThenScan,
    /// One dispatch per pass: each tile publishes its digit counts and reads its
    /// predecessors' (decoupled look-back). A workgroup that waits too long for a predecessor
    /// counts that tile's keys itself, so it finishes even where workgroups need not make
    /// progress side by side; it is only fast where they do.
    #[value(name = "onesweep")]
    OneSweep,
}

impl SortStrategy {
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
        const FORWARD_PROGRESS_VENDORS: [u32; 4] = [0x10de, 0x1002, 0x8086, 0x106b];
        let info = device.adapter_info();
        let gpu = matches!(info.device_type, wgpu::DeviceType::DiscreteGpu | wgpu::DeviceType::IntegratedGpu);
        if gpu && info.backend != wgpu::Backend::Gl && FORWARD_PROGRESS_VENDORS.contains(&info.vendor) {
            SortStrategy::OneSweep
        } else {
            SortStrategy::ReduceThenScan
        }
    }
}

/// What the keys are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum KeyKind {
    /// Unsigned 32-bit integers.
    #[default]
    U32,
    /// IEEE 754 single-precision floats, as their bits: -inf < negatives < -0.0 < +0.0 <
    /// positives < +inf; NaNs sort by their bits (negative ones first, positive ones last).
    F32,
}

/// Mirrors `SortParams` in `shaders/radix_sort.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct SortParams {
    /// Keys to sort.
    pub len: u32,
    /// Tiles of [`TILE`] keys.
    pub tiles: u32,
    /// Bit position of the pass's digit.
    pub shift: u32,
    /// The pass, 0 to 3.
    pub pass_index: u32,
    /// 1: transform keys as they are read.
    pub transform_in: u32,
    /// 1: undo the transform as keys are written.
    pub transform_out: u32,
    /// 1: f32 keys.
    pub float_keys: u32,
    /// 1: largest first.
    pub descending: u32,
    /// 1: values travel with the keys.
    pub has_values: u32,
    /// Padding to 48 bytes.
    pub pad: [u32; 3],
}

/// The key as the sort orders it: f32 bits made order-preserving, complemented for descending
/// order. Mirrors `to_order` in the shader.
pub fn sort_order_key(key: u32, kind: KeyKind, descending: bool) -> u32 {
    let t = match kind {
        KeyKind::U32 => key,
        KeyKind::F32 if key & 0x8000_0000 != 0 => !key,
        KeyKind::F32 => key | 0x8000_0000,
    };
    if descending { !t } else { t }
}

/// Why a sort cannot be recorded.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SortError {
    /// More keys than the device can bind.
    #[error("{len} keys are more than this device can sort at once (at most {max}); sort it in parts")]
    TooLong {
        /// Keys asked for.
        len: u32,
        /// The limit.
        max: u32,
    },
    /// The scratch was made for fewer keys, or without values.
    #[error("the scratch holds {capacity} keys{}, but the sort needs {len}{}; make it with RadixSorter::scratch", if *.has_values { " with values" } else { "" }, if *.needs_values { " with values" } else { "" })]
    ScratchTooSmall {
        /// Keys the scratch holds.
        capacity: u32,
        /// Whether it holds values.
        has_values: bool,
        /// Keys to sort.
        len: u32,
        /// Whether the sort has values.
        needs_values: bool,
    },
    /// The scratch was made by a sorter that would not run this sort's strategy at this
    /// length, so it lacks that strategy's per-tile words.
    #[error(
        "the scratch has no room for {strategy}'s per-tile words for {len} keys: it was made by a sorter that does not run {strategy} at that length; make it with this sorter's scratch()"
    )]
    ScratchStrategy {
        /// The strategy this sorter runs at this length.
        strategy: &'static str,
        /// The sort's length.
        len: u32,
    },
    /// The subgroup path was asked for on a device that cannot run it.
    #[error(
        "this GPU cannot run the subgroup path (it needs subgroups of one fixed size from 8 to 32, and the workgroup memory for their counters); use SortPath::Portable"
    )]
    NoSubgroups,
    /// The device's workgroup memory is smaller than the smallest tile layout.
    #[error(
        "the sort needs {needed} bytes of workgroup memory per workgroup, but this device allows {limit}; request the adapter's limits (max_compute_workgroup_storage_size) when creating the device"
    )]
    WorkgroupMemory {
        /// Bytes the smallest layout needs.
        needed: u32,
        /// The device's `max_compute_workgroup_storage_size`.
        limit: u32,
    },
    /// A buffer is smaller than `len` u32s, or lacks STORAGE usage.
    #[error(
        "the {what} buffer must be a STORAGE buffer of at least {needed} bytes (it has {size} bytes, usage {usage:?})"
    )]
    BadBuffer {
        /// "keys" or "values".
        what: &'static str,
        /// Bytes needed.
        needed: u64,
        /// Bytes it has.
        size: u64,
        /// Its usage.
        usage: wgpu::BufferUsages,
    },
}

/// One sort to record: the caller's buffers and how to order them.
#[derive(Clone, Copy, Debug)]
pub struct SortJob<'a> {
    /// The keys, sorted in place.
    pub keys: &'a wgpu::Buffer,
    /// Values moved with their keys, in place.
    pub values: Option<&'a wgpu::Buffer>,
    /// How many keys (from the start of the buffer).
    pub len: u32,
    /// u32 or f32 keys.
    pub kind: KeyKind,
    /// Largest first (ties still keep their order).
    pub descending: bool,
}

impl<'a> SortJob<'a> {
    /// Sorts the first `len` u32 keys of `keys` ascending.
    pub fn keys(keys: &'a wgpu::Buffer, len: u32) -> Self {
        SortJob { keys, values: None, len, kind: KeyKind::U32, descending: false }
    }

    /// Sorts the first `len` keys ascending and moves the values with them.
    pub fn pairs(keys: &'a wgpu::Buffer, values: &'a wgpu::Buffer, len: u32) -> Self {
        SortJob { values: Some(values), ..Self::keys(keys, len) }
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
    /// relies on the same) and where it was 1% faster at 2^26 keys on an H100; tickets elsewhere.
    pub fn best_for(device: &wgpu::Device) -> Self {
        const NVIDIA: u32 = 0x10de;
        if device.adapter_info().vendor == NVIDIA { TileOrder::WorkgroupOrder } else { TileOrder::Tickets }
    }
}

/// Buffers a sort works in, made once for up to `capacity` keys and reused.
pub struct SortScratch {
    capacity: u32,
    /// Tiles of the longest sort with each strategy it has per-tile words for.
    reduce_then_scan_tiles: u32,
    onesweep_tiles: u32,
    keys: wgpu::Buffer,
    values: Option<wgpu::Buffer>,
    /// Bound in place of values when a sort has none (one read-only, one written).
    no_values: [wgpu::Buffer; 2],
    histograms: wgpu::Buffer,
    /// Reduce-then-scan's per-tile counts (a placeholder for OneSweep).
    tile_counts: wgpu::Buffer,
    /// OneSweep's per-tile status words (a placeholder for reduce-then-scan).
    status: wgpu::Buffer,
    params: wgpu::Buffer,
    params_stride: u64,
}

impl SortScratch {
    /// Keys it can sort.
    pub fn capacity(&self) -> u32 {
        self.capacity
    }

    /// The buffer that holds the last sort's pass modes at `PASS_MODES_WORD`, so that tests can
    /// check the short ways were taken.
    #[doc(hidden)]
    pub fn histograms(&self) -> &wgpu::Buffer {
        &self.histograms
    }
}

/// The radix sort's pipelines for one device.
pub struct RadixSorter {
    layout: wgpu::BindGroupLayout,
    histogram_all: wgpu::ComputePipeline,
    scan_histograms: wgpu::ComputePipeline,
    passes: PassPipelines,
    path: SortPath,
    memory: TileMemory,
    max_len: u32,
    max_groups: u32,
}

impl RadixSorter {
    /// Builds the pipelines of the fastest path for the device, and of the fastest strategy
    /// for each length (see [`RadixSorter::with_path`]).
    pub fn new(device: &wgpu::Device) -> Self {
        Self::with_path(device, SortPath::best_for(device)).expect("the best path runs")
    }

    /// Builds the pipelines of `path`, or says why the device cannot run the path. Where
    /// [`SortStrategy::best_for`] the device is OneSweep, the sorter runs reduce-then-scan
    /// below [`ONESWEEP_FROM`] keys and OneSweep from there; elsewhere always reduce-then-scan.
    pub fn with_path(device: &wgpu::Device, path: SortPath) -> Result<Self, SortError> {
        let onesweep_from = match SortStrategy::best_for(device) {
            SortStrategy::OneSweep => Some(ONESWEEP_FROM),
            SortStrategy::ReduceThenScan => None,
        };
        Self::build(device, path, onesweep_from, LOOK_BACK_SPINS, TileOrder::best_for(device))
    }

    /// A sorter of `path` that runs reduce-then-scan below `onesweep_from` keys and OneSweep
    /// from there, whatever the device: how the tests cross the switch with small sorts.
    #[doc(hidden)]
    pub fn with_onesweep_from(
        device: &wgpu::Device,
        path: SortPath,
        onesweep_from: u32,
    ) -> Result<Self, SortError> {
        Self::build(device, path, Some(onesweep_from), LOOK_BACK_SPINS, TileOrder::best_for(device))
    }

    /// Builds the pipelines of `path` and `strategy`, used for every length, or says why the
    /// device cannot run the path. Every strategy runs on every device.
    pub fn with_path_and_strategy(
        device: &wgpu::Device,
        path: SortPath,
        strategy: SortStrategy,
    ) -> Result<Self, SortError> {
        let onesweep_from = match strategy {
            SortStrategy::OneSweep => Some(0),
            SortStrategy::ReduceThenScan => None,
        };
        Self::build(device, path, onesweep_from, LOOK_BACK_SPINS, TileOrder::best_for(device))
    }

    /// A OneSweep sorter that waits only `spins` status reads (at least 1) for a predecessor
    /// before counting its keys itself: with 1, the fallback runs nearly every time a
    /// predecessor is late, which is how the tests check it.
    #[doc(hidden)]
    pub fn with_look_back_spins(
        device: &wgpu::Device,
        path: SortPath,
        spins: u32,
    ) -> Result<Self, SortError> {
        Self::build(device, path, Some(0), spins.max(1), TileOrder::best_for(device))
    }

    /// A OneSweep sorter that numbers its tiles in `order`, whatever the device: how the tests
    /// check workgroup order where it is not the default.
    #[doc(hidden)]
    pub fn with_tile_order(
        device: &wgpu::Device,
        path: SortPath,
        order: TileOrder,
    ) -> Result<Self, SortError> {
        Self::build(device, path, Some(0), LOOK_BACK_SPINS, order)
    }

    /// `onesweep_from`: the first length sorted with OneSweep (none: always reduce-then-scan).
    fn build(
        device: &wgpu::Device,
        path: SortPath,
        onesweep_from: Option<u32>,
        spins: u32,
        tile_order: TileOrder,
    ) -> Result<Self, SortError> {
        let subgroup_size = match path {
            SortPath::Portable => None,
            SortPath::Subgroups => Some(SortPath::subgroup_size(device).ok_or(SortError::NoSubgroups)?),
        };
        let program = if subgroup_size.is_some() { RADIX_SORT_SUBGROUPS_PROGRAM } else { RADIX_SORT_PROGRAM };
        // Every loop of the sort ends (see the method).
        let module = program.module_without_loop_bounding(device);
        let read = wgpu::BufferBindingType::Storage { read_only: true };
        let write = wgpu::BufferBindingType::Storage { read_only: false };
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("sort::layout"),
            entries: &[
                compute_buffer(0, wgpu::BufferBindingType::Uniform, true),
                compute_buffer(1, read, false),
                compute_buffer(2, write, false),
                compute_buffer(3, read, false),
                compute_buffer(4, write, false),
                compute_buffer(5, write, false),
                compute_buffer(6, write, false),
                compute_buffer(7, write, false),
            ],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("sort::pipeline_layout"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let memory = TileMemory::for_device(device, subgroup_size).ok_or(SortError::WorkgroupMemory {
            needed: TileMemory::new(subgroup_size, false).bytes,
            limit: device.limits().max_compute_workgroup_storage_size,
        })?;
        let mut constants = vec![
            ("SPINS", f64::from(spins)),
            ("WORKGROUP_ORDER", f64::from(u8::from(tile_order == TileOrder::WorkgroupOrder))),
            ("REORDER", f64::from(u8::from(memory.reorder))),
            ("REORDER_WORDS", f64::from(memory.reorder_words)),
        ];
        if let Some(size) = subgroup_size {
            constants.extend([
                ("WARPS", f64::from(WORKGROUP / size)),
                ("WARP_WORDS", f64::from(warp_words(size))),
            ]);
        }
        let pipeline_with = |entry_point: &str, constants: &[(&str, f64)]| {
            device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(&format!("sort::{entry_point}")),
                layout: Some(&pipeline_layout),
                module: &module,
                entry_point: Some(entry_point),
                compilation_options: wgpu::PipelineCompilationOptions {
                    constants,
                    // Every kernel writes its workgroup memory before reading it.
                    zero_initialize_workgroup_memory: false,
                },
                cache: None,
            })
        };
        let pipeline = |entry_point: &str| pipeline_with(entry_point, &[]);
        let limits = device.limits();
        let binding_keys = limits.max_storage_buffer_binding_size.min(limits.max_buffer_size) / 4;
        let mut max_len = u32::try_from(binding_keys).unwrap_or(u32::MAX);
        let reduce_then_scan = (onesweep_from != Some(0)).then(|| ReduceThenScan {
            count_tiles: pipeline("count_tiles"),
            scan_tiles: pipeline("scan_tiles"),
            scatter: pipeline_with("scatter", &constants),
        });
        let onesweep = onesweep_from.map(|_| pipeline_with("onesweep", &constants));
        if onesweep.is_some() {
            max_len = max_len.min(ONESWEEP_MAX_LEN);
        }
        let passes = PassPipelines { reduce_then_scan, onesweep, onesweep_from };
        Ok(RadixSorter {
            histogram_all: pipeline("histogram_all"),
            scan_histograms: pipeline("scan_histograms"),
            passes,
            layout,
            path,
            memory,
            max_len,
            max_groups: limits.max_compute_workgroups_per_dimension,
        })
    }

    /// The path this sorter runs.
    pub fn path(&self) -> SortPath {
        self.path
    }

    /// Whether each tile is put in digit order in workgroup memory before it is written, so
    /// that neighbouring invocations write neighbouring slots: where the device's workgroup
    /// memory holds the tile's order and the ranking's counters (`TileMemory`), else each key
    /// goes straight to its slot.
    pub fn reorders(&self) -> bool {
        self.memory.reorder
    }

    /// The strategy this sorter runs for sorts of `len` keys.
    pub fn strategy_for(&self, len: u32) -> SortStrategy {
        match self.passes.onesweep_from {
            Some(from) if len >= from => SortStrategy::OneSweep,
            _ => SortStrategy::ReduceThenScan,
        }
    }

    /// The first length this sorter sorts with OneSweep (none: it always runs
    /// reduce-then-scan).
    pub fn onesweep_from(&self) -> Option<u32> {
        self.passes.onesweep_from
    }

    /// The most keys one sort takes on this device: as many u32s as one storage binding holds
    /// (and at most 2^30 - 1 with OneSweep, whose status words keep counts in 30 bits).
    pub fn max_len(&self) -> u32 {
        self.max_len
    }

    /// Scratch buffers for sorts of up to `capacity` keys (with values if `with_values`).
    pub fn scratch(
        &self,
        device: &wgpu::Device,
        capacity: u32,
        with_values: bool,
    ) -> Result<SortScratch, SortError> {
        if capacity > self.max_len {
            return Err(SortError::TooLong { len: capacity, max: self.max_len });
        }
        let buffer = |label: &str, bytes: u64, usage: wgpu::BufferUsages| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: bytes.max(4),
                usage,
                mapped_at_creation: false,
            })
        };
        let storage = wgpu::BufferUsages::STORAGE;
        let keys_bytes = u64::from(capacity) * 4;
        // Per-tile words for the longest sort each strategy runs within the capacity.
        let tiles_for = |len: u32| len.div_ceil(TILE);
        let (reduce_then_scan_tiles, onesweep_tiles) = match self.passes.onesweep_from {
            None => (tiles_for(capacity), 0),
            Some(from) if capacity >= from => (tiles_for(from.saturating_sub(1)), tiles_for(capacity)),
            Some(_) => (tiles_for(capacity), 0),
        };
        let per_tile_bytes = |tiles: u32| u64::from(tiles) * u64::from(RADIX) * 4;
        let params_stride = (std::mem::size_of::<SortParams>() as u64)
            .next_multiple_of(u64::from(device.limits().min_uniform_buffer_offset_alignment));
        Ok(SortScratch {
            capacity,
            reduce_then_scan_tiles,
            onesweep_tiles,
            keys: buffer("sort::keys", keys_bytes, storage),
            values: with_values.then(|| buffer("sort::values", keys_bytes, storage)),
            no_values: [buffer("sort::no_values_in", 4, storage), buffer("sort::no_values_out", 4, storage)],
            histograms: buffer(
                "sort::histograms",
                u64::from(HISTOGRAM_WORDS) * 4,
                storage | wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC,
            ),
            tile_counts: buffer("sort::tile_counts", per_tile_bytes(reduce_then_scan_tiles), storage),
            status: buffer(
                "sort::status",
                per_tile_bytes(onesweep_tiles),
                storage | wgpu::BufferUsages::COPY_DST,
            ),
            params: buffer(
                "sort::params",
                params_stride * u64::from(PASSES),
                wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            ),
            params_stride,
        })
    }

    /// Records sorting `job` into `encoder`. The keys (and values) end sorted in the caller's
    /// buffers. Several sorts may be recorded into one encoder, each with its own scratch or
    /// one after another with the same scratch. Each call makes a small parameter upload (a slot per pass)
    /// and two bind groups (the caller's buffers may differ from call to call): CPU work only.
    pub fn record(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        job: &SortJob<'_>,
        scratch: &SortScratch,
    ) -> Result<(), SortError> {
        self.record_dispatches(device, encoder, job, scratch, None).map(|_| ())
    }

    /// [`RadixSorter::record`] with each dispatch in a compute pass of its own that writes
    /// timestamps 2k and 2k + 1 of `queries` (at least 2 x [`DISPATCHES`] of them; needs
    /// `Features::TIMESTAMP_QUERY`). Returns each dispatch's kernel name, in order (none for
    /// sorts of 0 or 1 keys).
    pub fn record_profiled(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        job: &SortJob<'_>,
        scratch: &SortScratch,
        queries: &wgpu::QuerySet,
    ) -> Result<Vec<&'static str>, SortError> {
        self.record_dispatches(device, encoder, job, scratch, Some(queries))
    }

    fn record_dispatches(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        job: &SortJob<'_>,
        scratch: &SortScratch,
        profile: Option<&wgpu::QuerySet>,
    ) -> Result<Vec<&'static str>, SortError> {
        let len = job.len;
        if len > self.max_len {
            return Err(SortError::TooLong { len, max: self.max_len });
        }
        if len > scratch.capacity || (job.values.is_some() && scratch.values.is_none()) {
            return Err(SortError::ScratchTooSmall {
                capacity: scratch.capacity,
                has_values: scratch.values.is_some(),
                len,
                needs_values: job.values.is_some(),
            });
        }
        let strategy = self.strategy_for(len);
        let scratch_tiles = match strategy {
            SortStrategy::ReduceThenScan => scratch.reduce_then_scan_tiles,
            SortStrategy::OneSweep => scratch.onesweep_tiles,
        };
        if len > 1 && len.div_ceil(TILE) > scratch_tiles {
            return Err(SortError::ScratchStrategy { strategy: strategy.name(), len });
        }
        let needed = u64::from(len) * 4;
        let check = |what, buffer: &wgpu::Buffer| {
            if buffer.size() < needed || !buffer.usage().contains(wgpu::BufferUsages::STORAGE) {
                return Err(SortError::BadBuffer {
                    what,
                    needed,
                    size: buffer.size(),
                    usage: buffer.usage(),
                });
            }
            Ok(())
        };
        check("keys", job.keys)?;
        if let Some(values) = job.values {
            check("values", values)?;
        }
        if len <= 1 {
            return Ok(Vec::new());
        }

        let tiles = len.div_ceil(TILE);
        let transformed = job.kind != KeyKind::U32 || job.descending;
        let params: Vec<u8> = (0..PASSES)
            .flat_map(|pass| {
                let p = SortParams {
                    len,
                    tiles,
                    shift: pass * 8,
                    pass_index: pass,
                    transform_in: u32::from(transformed && pass == 0),
                    transform_out: u32::from(transformed && pass == PASSES - 1),
                    float_keys: u32::from(job.kind == KeyKind::F32),
                    descending: u32::from(job.descending),
                    has_values: u32::from(job.values.is_some()),
                    pad: [0; 3],
                };
                let mut slot = bytemuck::bytes_of(&p).to_vec();
                slot.resize(scratch.params_stride as usize, 0);
                slot
            })
            .collect();
        // Copied within the encoder, so sorts recorded one after another each see their own.
        let staging = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("sort::params_upload"),
            contents: &params,
            usage: wgpu::BufferUsages::COPY_SRC,
        });
        encoder.copy_buffer_to_buffer(&staging, 0, &scratch.params, 0, params.len() as u64);
        encoder.clear_buffer(&scratch.histograms, 0, None);

        // Direction `d` reads buffer d and writes buffer 1 - d (0: the caller's, 1: scratch);
        // a sort without values binds two placeholders instead.
        let keys = [job.keys, &scratch.keys];
        let values = match (job.values, &scratch.values) {
            (Some(caller), Some(own)) => [caller, own],
            _ => [&scratch.no_values[0], &scratch.no_values[1]],
        };
        let bind_groups = [0usize, 1].map(|d| {
            let (values_in, values_out) = (values[d], values[1 - d]);
            device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some(&format!("sort::bind_group[{d}]")),
                layout: &self.layout,
                entries: &[
                    wgpu::BindGroupEntry {
                        binding: 0,
                        resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                            buffer: &scratch.params,
                            offset: 0,
                            size: wgpu::BufferSize::new(std::mem::size_of::<SortParams>() as u64),
                        }),
                    },
                    wgpu::BindGroupEntry { binding: 1, resource: keys[d].as_entire_binding() },
                    wgpu::BindGroupEntry { binding: 2, resource: keys[1 - d].as_entire_binding() },
                    wgpu::BindGroupEntry { binding: 3, resource: values_in.as_entire_binding() },
                    wgpu::BindGroupEntry { binding: 4, resource: values_out.as_entire_binding() },
                    wgpu::BindGroupEntry { binding: 5, resource: scratch.histograms.as_entire_binding() },
                    wgpu::BindGroupEntry { binding: 6, resource: scratch.tile_counts.as_entire_binding() },
                    wgpu::BindGroupEntry { binding: 7, resource: scratch.status.as_entire_binding() },
                ],
            })
        });

        let x = tiles.min(self.max_groups);
        let tile_groups = (x, tiles.div_ceil(x));
        let offset = |p: u32| (u64::from(p) * scratch.params_stride) as u32;
        let dispatch = |kernel, pipeline, direction, offset, groups| {
            Step::Dispatch(Dispatch { kernel, pipeline, direction, offset, groups })
        };
        let mut steps = vec![
            dispatch("histogram_all", &self.histogram_all, 0, 0, (tiles.min(HISTOGRAM_GROUPS), 1)),
            dispatch("scan_histograms", &self.scan_histograms, 0, 0, (1, 1)),
        ];
        for p in 0..PASSES {
            let (direction, offset) = ((p % 2) as usize, offset(p));
            match (strategy, &self.passes.reduce_then_scan, &self.passes.onesweep) {
                (SortStrategy::ReduceThenScan, Some(rts), _) => steps.extend([
                    dispatch("count_tiles", &rts.count_tiles, direction, offset, tile_groups),
                    dispatch("scan_tiles", &rts.scan_tiles, direction, offset, (RADIX, 1)),
                    dispatch("scatter", &rts.scatter, direction, offset, tile_groups),
                ]),
                (SortStrategy::OneSweep, _, Some(onesweep)) => steps.extend([
                    Step::ClearStatus(0..u64::from(tiles) * u64::from(RADIX) * 4),
                    dispatch("onesweep", onesweep, direction, offset, tile_groups),
                ]),
                _ => unreachable!("strategy_for picks a strategy whose pipelines were built"),
            }
        }
        let mut kernels = Vec::new();
        let mut pass: Option<wgpu::ComputePass<'_>> = None;
        for step in &steps {
            match step {
                Step::ClearStatus(range) => {
                    drop(pass.take());
                    encoder.clear_buffer(&scratch.status, range.start, Some(range.end - range.start));
                }
                Step::Dispatch(d) => {
                    let k = kernels.len() as u32;
                    kernels.push(d.kernel);
                    if profile.is_some() {
                        drop(pass.take());
                    }
                    let compute = pass.get_or_insert_with(|| {
                        encoder
                            .begin_compute_pass(&wgpu::ComputePassDescriptor {
                                label: Some(if profile.is_some() { d.kernel } else { "sort" }),
                                timestamp_writes: profile.map(|queries| wgpu::ComputePassTimestampWrites {
                                    query_set: queries,
                                    beginning_of_pass_write_index: Some(2 * k),
                                    end_of_pass_write_index: Some(2 * k + 1),
                                }),
                            })
                            .forget_lifetime()
                    });
                    d.record(compute, &bind_groups);
                }
            }
        }
        Ok(kernels)
    }
}

/// The pipelines of a digit pass for each strategy the sorter runs, and which runs when.
struct PassPipelines {
    reduce_then_scan: Option<ReduceThenScan>,
    onesweep: Option<wgpu::ComputePipeline>,
    /// The first length sorted with OneSweep (none: never).
    onesweep_from: Option<u32>,
}

/// Reduce-then-scan's three kernels.
struct ReduceThenScan {
    count_tiles: wgpu::ComputePipeline,
    scan_tiles: wgpu::ComputePipeline,
    scatter: wgpu::ComputePipeline,
}

/// Dispatches a sort records at most: 2, then 3 per digit pass (reduce-then-scan; OneSweep
/// records 1 per pass).
pub const DISPATCHES: u32 = 2 + 3 * PASSES;

/// One thing a sort records.
enum Step<'a> {
    Dispatch(Dispatch<'a>),
    /// Zero these bytes of OneSweep's status words (between compute passes).
    ClearStatus(Range<u64>),
}

/// One dispatch of a sort.
struct Dispatch<'a> {
    kernel: &'static str,
    pipeline: &'a wgpu::ComputePipeline,
    /// Which bind group: 0 reads the caller's buffers, 1 the scratch.
    direction: usize,
    /// The parameters' dynamic offset.
    offset: u32,
    groups: (u32, u32),
}

impl Dispatch<'_> {
    fn record(&self, pass: &mut wgpu::ComputePass<'_>, bind_groups: &[wgpu::BindGroup; 2]) {
        pass.set_bind_group(0, &bind_groups[self.direction], &[self.offset]);
        pass.set_pipeline(self.pipeline);
        pass.dispatch_workgroups(self.groups.0, self.groups.1, 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_keys_order_like_floats_and_descending_reverses() {
        let floats = [f32::NEG_INFINITY, -2.5, -1.0, -0.0, 0.0, 1e-30, 1.0, 3.5, f32::INFINITY];
        let keys: Vec<u32> =
            floats.iter().map(|f| sort_order_key(f.to_bits(), KeyKind::F32, false)).collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]), "{keys:x?}");
        let down: Vec<u32> = floats.iter().map(|f| sort_order_key(f.to_bits(), KeyKind::F32, true)).collect();
        assert!(down.windows(2).all(|w| w[0] > w[1]));
        assert!(sort_order_key(3, KeyKind::U32, false) < sort_order_key(4, KeyKind::U32, false));
        assert!(sort_order_key(3, KeyKind::U32, true) > sort_order_key(4, KeyKind::U32, true));
    }
}
