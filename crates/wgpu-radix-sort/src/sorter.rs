//! [`RadixSorter`]: the sort's pipelines for one device (and each digit pass's, per strategy),
//! built for the path and strategies the device runs best or those the caller forces, and the
//! entry points that record a sort (its scratch buffers: `scratch.rs`).

use super::choices::{SortPath, SortStrategy, TileMemory, TileOrder, TileWidths, warp_words};
use super::job::{SortError, SortJob, SortScratch};
use super::kernels::{PassPipelines, ReduceThenScan, TileKernel, WideKernel};
use super::{ITEMS, KEYS_IN_ORDER_UP_TO, LOOK_BACK_SPINS, ONESWEEP_FROM, ONESWEEP_MAX_LEN, TILE, WORKGROUP};
use crate::shaders::{compute_buffer, compute_pipeline};
/// The radix sort's pipelines for one device.
pub struct RadixSorter {
    pub(super) layout: wgpu::BindGroupLayout,
    pub(super) histogram_all: wgpu::ComputePipeline,
    /// Keys each workgroup of `histogram_all` counts at a time (`HISTOGRAM_BLOCK`).
    pub(super) histogram_block: u32,
    pub(super) scan_histograms: wgpu::ComputePipeline,
    pub(super) passes: PassPipelines,
    pub(super) path: SortPath,
    pub(super) memory: TileMemory,
    pub(super) max_len: u32,
    pub(super) max_groups: u32,
    /// The kernel that sets up sorts whose length is read on the GPU.
    pub(super) indirect: super::kernels::IndirectSetup,
}

impl RadixSorter {
    /// Builds the pipelines of the fastest path for the device, and of the fastest strategy
    /// for each length (see [`RadixSorter::with_path`]).
    pub fn new(device: &wgpu::Device) -> Self {
        Self::with_path(device, SortPath::best_for(device)).expect("the best path runs")
    }

    /// Builds the pipelines of `path`, or says why the device cannot run the path. Where
    /// [`SortStrategy::best_for`] the device is OneSweep, the sorter runs reduce-then-scan
    /// below [`ONESWEEP_FROM`] keys (now none) and OneSweep from there; elsewhere always
    /// reduce-then-scan.
    pub fn with_path(device: &wgpu::Device, path: SortPath) -> Result<Self, SortError> {
        let onesweep_from = match SortStrategy::best_for(device) {
            SortStrategy::OneSweep => Some(ONESWEEP_FROM),
            SortStrategy::ReduceThenScan => None,
        };
        Self::build(device, path, Build { onesweep_from, ..Build::defaults(device) })
    }

    /// A sorter of `path` that runs reduce-then-scan below `onesweep_from` keys and OneSweep
    /// from there, whatever the device: how the tests cross the switch with small sorts.
    #[doc(hidden)]
    pub fn with_onesweep_from(
        device: &wgpu::Device,
        path: SortPath,
        onesweep_from: u32,
    ) -> Result<Self, SortError> {
        Self::build(device, path, Build { onesweep_from: Some(onesweep_from), ..Build::defaults(device) })
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
        Self::build(device, path, Build { onesweep_from, ..Build::defaults(device) })
    }

    /// A OneSweep sorter whose look-back takes only `spins` steps (at least 1) before counting
    /// the keys of the tile it has reached itself: with 1, the fallback runs nearly every time a
    /// look-back does not end at once, which is how the tests check it.
    #[doc(hidden)]
    pub fn with_look_back_spins(
        device: &wgpu::Device,
        path: SortPath,
        spins: u32,
    ) -> Result<Self, SortError> {
        Self::build(device, path, Build { spins: spins.max(1), ..Build::defaults(device) })
    }

    /// A OneSweep sorter that numbers its tiles in `order`, whatever the device: how the tests
    /// check workgroup order where it is not the default.
    #[doc(hidden)]
    pub fn with_tile_order(
        device: &wgpu::Device,
        path: SortPath,
        order: TileOrder,
    ) -> Result<Self, SortError> {
        Self::build(device, path, Build { tile_order: order, ..Build::defaults(device) })
    }

    /// A OneSweep sorter whose sorts of up to `len` keys keep each tile's keys in
    /// workgroup memory (see [`KEYS_IN_ORDER_UP_TO`]; 0: none), where the path and device allow
    /// it: how the tests check both kernels with small sorts.
    #[doc(hidden)]
    pub fn with_keys_in_order_up_to(
        device: &wgpu::Device,
        path: SortPath,
        len: u32,
    ) -> Result<Self, SortError> {
        Self::build(device, path, Build { keys_in_order_up_to: len, ..Build::defaults(device) })
    }

    /// A OneSweep sorter whose kernels for long sorts are `widths` wide, where the path and
    /// device allow it (on the subgroup path, a multiple of the subgroup size), and that keeps
    /// no sort's keys in workgroup memory (so the wide kernels take keys-only sorts of every
    /// length): how the tests check wide tiles on adapters that would not choose them.
    #[doc(hidden)]
    pub fn with_tile_widths(
        device: &wgpu::Device,
        path: SortPath,
        widths: TileWidths,
    ) -> Result<Self, SortError> {
        Self::build(
            device,
            path,
            Build { widths: Some(widths), keys_in_order_up_to: 0, ..Build::defaults(device) },
        )
    }

    fn build(device: &wgpu::Device, path: SortPath, choices: Build) -> Result<Self, SortError> {
        let Build { onesweep_from, spins, tile_order, keys_in_order_up_to, widths } = choices;
        let subgroup_size = match path {
            SortPath::Portable => None,
            SortPath::Subgroups => Some(SortPath::subgroup_size(device).ok_or(SortError::NoSubgroups)?),
        };
        // Every loop of the sort ends (see the function).
        let module = crate::shaders::module(device, subgroup_size.is_some());
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
        let pipeline_layout = crate::shaders::pipeline_layout(device, "sort::pipeline_layout", &layout);
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
                ("WARP_WORDS", f64::from(warp_words(size, WORKGROUP))),
            ]);
        }
        let pipeline_with = |entry_point: &str, constants: &[(&str, f64)]| {
            compute_pipeline(device, ("sort", &pipeline_layout, &module), entry_point, constants)
        };
        let pipeline = |entry_point: &str| pipeline_with(entry_point, &[]);
        let limits = device.limits();
        let binding_keys = limits.max_storage_buffer_binding_size.min(limits.max_buffer_size) / 4;
        let mut max_len = u32::try_from(binding_keys).unwrap_or(u32::MAX);
        // The kernels that sort tiles, for keys only and for pairs: the subgroup path lays out
        // its workgroup memory for each (`SHARED_COUNTS` in the shader), and OneSweep's may
        // keep short sorts' keys in it (`KEYS_IN_ORDER`).
        let keys_in_order = keys_in_order_up_to > 0
            && memory.reorder
            && subgroup_size.is_some_and(|size| {
                TileMemory::keys_in_order_bytes(size) <= limits.max_compute_workgroup_storage_size
            });
        // OneSweep's kernels for long sorts may be wider, where the subgroup path runs and the
        // device holds a wide workgroup's invocations and its reordered tile.
        let widths = match (subgroup_size, onesweep_from) {
            (Some(size), Some(_)) => widths.unwrap_or(TileWidths::best_for(device, Some(size))),
            _ => TileWidths::NARROW,
        };
        let holds_invocations = |width: u32| {
            width <= limits.max_compute_invocations_per_workgroup
                && width <= limits.max_compute_workgroup_size_x
        };
        // A wide kernel's subgroups each rank a whole run of its keys, so its width is a
        // multiple of the subgroup size.
        let runs_wide = |width: u32| {
            width > WORKGROUP
                && subgroup_size.is_none_or(|size| width.is_multiple_of(size))
                && holds_invocations(width)
                && TileMemory::for_width(subgroup_size, true, width).bytes
                    <= limits.max_compute_workgroup_storage_size
        };
        let histogram_group = if holds_invocations(widths.histogram) { widths.histogram } else { WORKGROUP };
        // The overrides of a kernel `width` invocations wide: the narrow ones, or a reordered
        // tile of the width's keys and the subgroups' counters for it.
        let constants_for = |width: u32| {
            let mut constants = constants.clone();
            if let (Some(size), true) = (subgroup_size, width != WORKGROUP) {
                let set = |constants: &mut Vec<(&str, f64)>, name: &str, value: u32| {
                    let slot = constants.iter_mut().find(|(n, _)| *n == name).expect("a narrow override");
                    slot.1 = f64::from(value);
                };
                set(&mut constants, "REORDER", 1);
                set(
                    &mut constants,
                    "REORDER_WORDS",
                    TileMemory::for_width(subgroup_size, true, width).reorder_words,
                );
                set(&mut constants, "WARPS", width / size);
                set(&mut constants, "WARP_WORDS", warp_words(size, width));
                constants.push(("WORKGROUP", f64::from(width)));
            }
            constants
        };
        let tile_kernel = |entry_point: &str, keys_in_order: bool, wide: bool| {
            // The tile order holds nothing but indices, holds keys, or holds keys and then values.
            let for_kind = |shared_counts: bool, in_order: Option<bool>, width: u32| {
                let mut constants = constants_for(width);
                if subgroup_size.is_some() {
                    constants.push(("SHARED_COUNTS", f64::from(u8::from(shared_counts))));
                    constants.push(("KEYS_IN_ORDER", f64::from(u8::from(in_order.is_some()))));
                    constants.push(("VALUES_IN_ORDER", f64::from(u8::from(in_order == Some(true)))));
                }
                pipeline_with(entry_point, &constants)
            };
            let wide_kernel = |shared_counts: bool, width: u32, from: u32| {
                (wide && runs_wide(width)).then(|| WideKernel {
                    pipeline: for_kind(shared_counts, None, width),
                    tile: width * ITEMS,
                    from,
                })
            };
            if subgroup_size.is_some() {
                TileKernel {
                    keys: for_kind(true, None, WORKGROUP),
                    pairs: for_kind(false, None, WORKGROUP),
                    in_order: keys_in_order.then(|| {
                        [for_kind(true, Some(false), WORKGROUP), for_kind(true, Some(true), WORKGROUP)]
                    }),
                    wide: [
                        wide_kernel(true, widths.keys, 0),
                        wide_kernel(false, widths.pairs, widths.pairs_from),
                    ],
                }
            } else {
                let both = for_kind(false, None, WORKGROUP);
                TileKernel { keys: both.clone(), pairs: both, in_order: None, wide: [None, None] }
            }
        };
        let reduce_then_scan = (onesweep_from != Some(0)).then(|| ReduceThenScan {
            count_tiles: pipeline("count_tiles"),
            scan_tiles: pipeline("scan_tiles"),
            scatter: tile_kernel("scatter", false, false),
        });
        let onesweep = onesweep_from.map(|_| tile_kernel("onesweep", keys_in_order, true));
        if onesweep.is_some() {
            max_len = max_len.min(ONESWEEP_MAX_LEN);
        }
        let keys_in_order_up_to =
            if keys_in_order && onesweep_from.is_some() { keys_in_order_up_to } else { 0 };
        let passes = PassPipelines { reduce_then_scan, onesweep, onesweep_from, keys_in_order_up_to };
        Ok(RadixSorter {
            histogram_all: pipeline_with("histogram_all", &[("HISTOGRAM_GROUP", f64::from(histogram_group))]),
            histogram_block: histogram_group * ITEMS,
            scan_histograms: pipeline("scan_histograms"),
            passes,
            layout,
            path,
            memory,
            max_len,
            max_groups: limits.max_compute_workgroups_per_dimension,
            indirect: super::kernels::IndirectSetup::new(device),
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

    /// The longest sort this sorter sorts with each tile's keys kept in workgroup
    /// memory (see [`KEYS_IN_ORDER_UP_TO`](super::KEYS_IN_ORDER_UP_TO)); 0 where it never does
    /// (the portable path, reduce-then-scan, or too little workgroup memory).
    pub fn keys_in_order_up_to(&self) -> u32 {
        self.passes.keys_in_order_up_to
    }

    /// Keys per tile in this sorter's sorts of `len` keys, with values or without: [`TILE`], or
    /// more where a wide kernel takes the sort (see [`TileWidths`]).
    #[doc(hidden)]
    pub fn tile_len(&self, len: u32, has_values: bool) -> u32 {
        match (self.strategy_for(len), self.onesweep_kernel(len, has_values)) {
            (SortStrategy::OneSweep, Some((_, tile))) => tile,
            _ => TILE,
        }
    }

    /// OneSweep's pipeline for a sort of `len` keys, with values or without, and the keys per
    /// tile it takes; none where the sorter built no OneSweep kernels.
    pub(super) fn onesweep_kernel(
        &self,
        len: u32,
        has_values: bool,
    ) -> Option<(&wgpu::ComputePipeline, u32)> {
        let short = len <= self.passes.keys_in_order_up_to;
        self.passes.onesweep.as_ref().map(|kernel| kernel.for_sort(has_values, len, short))
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

    /// Records sorting `job` into `encoder`. The keys (and values) end sorted in the caller's
    /// buffers. Several sorts may be recorded into one encoder, each with its own scratch or
    /// one after another with the same scratch. Each call makes a small uniform buffer of
    /// parameters (a slot per pass) and two bind groups (the caller's buffers may differ from
    /// call to call): CPU work only. It records one compute pass, and nothing else.
    pub fn record(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        job: &SortJob<'_>,
        scratch: &SortScratch,
    ) -> Result<(), SortError> {
        self.record_dispatches(device, encoder, job, scratch, None, None).map(|_| ())
    }

    /// [`RadixSorter::record`] with each dispatch in a compute pass of its own that writes
    /// timestamps 2k and 2k + 1 of `queries` (at least 2 x [`DISPATCHES`](super::DISPATCHES) of them; needs
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
        self.record_dispatches(device, encoder, job, scratch, Some(queries), None)
    }
}

/// What a sorter is built with besides its path.
struct Build {
    /// The first length sorted with OneSweep (none: always reduce-then-scan).
    onesweep_from: Option<u32>,
    /// Look-back steps before a OneSweep workgroup counts a predecessor's keys (`SPINS`).
    spins: u32,
    tile_order: TileOrder,
    /// The longest OneSweep sort to keep its tiles' keys in workgroup memory.
    keys_in_order_up_to: u32,
    /// The widths of OneSweep's kernels for long sorts (none: the best for the device).
    widths: Option<TileWidths>,
}

impl Build {
    /// OneSweep at every length, and the rest as the device runs best.
    fn defaults(device: &wgpu::Device) -> Self {
        Build {
            onesweep_from: Some(0),
            spins: LOOK_BACK_SPINS,
            tile_order: TileOrder::best_for(device),
            keys_in_order_up_to: KEYS_IN_ORDER_UP_TO,
            widths: None,
        }
    }
}
