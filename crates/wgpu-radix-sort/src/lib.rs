//! A device-wide radix sort for wgpu programs: sorts a buffer of u32, i32 or f32 keys, alone
//! or with u32 values, ascending or descending, stably, recorded into the caller's encoder.
//!
//! ```no_run
//! # fn demo(device: &wgpu::Device, queue: &wgpu::Queue, keys: &wgpu::Buffer, len: u32) -> Result<(), wgpu_radix_sort::SortError> {
//! use wgpu_radix_sort::{RadixSorter, SortJob};
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
//!
//! [`RadixSorter::record_indirect`] reads the length from a GPU buffer when the sort runs
//! (`shaders/indirect.wgsl` computes the workgroup counts). [`SegmentedSorter`] sorts many segments of one length at once, each on its own (every row
//! of a matrix): in workgroup memory up to [`WORKGROUP_SORT_MAX`] keys a segment, through the
//! device-wide sort beyond (`shaders/segments.wgsl`).

mod choices;
mod dispatch;
pub mod distribution;
mod indirect;
mod job;
mod kernels;
mod scratch;
mod segments;
pub mod shaders;
mod sorter;

pub use choices::{SortPath, SortStrategy, TileMemory, TileOrder, TileWidths};
pub use dispatch::DISPATCHES;
pub use job::{KeyKind, SortError, SortJob, SortParams, SortScratch, sort_order_key};
pub use segments::{SegmentScratch, SegmentedSorter, WORKGROUP_SORT_MAX};
pub use sorter::RadixSorter;

/// Keys per tile of a workgroup of 256 invocations (`TILE` in
/// `shaders/radix_sort.wgsl`), and per block of the histogram kernel. OneSweep's kernels for
/// long sorts on the subgroup path may take wider tiles ([`TileWidths`]).
pub const TILE: u32 = WORKGROUP * ITEMS;
/// Keys per invocation in a tile (`ITEMS` in the shader).
const ITEMS: u32 = 16;
/// Digit values per pass.
const RADIX: u32 = 256;
/// Digit passes over a 32-bit key.
const PASSES: u32 = 4;
/// Words of the histograms buffer: four histograms of counts, four of digit starts, a OneSweep
/// tile ticket and a mode per pass, and the unsorted flag (`STARTS`, `TICKETS`, `MODES`,
/// `UNSORTED` in the shader).
const HISTOGRAM_WORDS: u32 = 2 * RADIX * PASSES + 2 * PASSES + 1;
/// The word of the histograms buffer where the four passes' modes start (`MODES` in the
/// shader): 0 sorts the pass, 1 only copies it (its digit is the same for every key), 2 skips
/// it (the input was already sorted).
#[doc(hidden)]
pub const PASS_MODES_WORD: u32 = 2 * RADIX * PASSES + PASSES;
/// Workgroups of the histogram kernel: a quarter of the tiles, within these bounds (and no more
/// than the tiles). Each workgroup adds its 1024 counts to the global words once, so fewer
/// workgroups make fewer global atomics, but each reads more tiles in turn: on an H100 fewer
/// workgroups paid at 2^22 keys and more at 2^26 (numbers: docs/benchmarks/radix-history.md in
/// the repository).
const HISTOGRAM_GROUPS: std::ops::RangeInclusive<u32> = 256..=1024;
/// Look-back steps a OneSweep workgroup takes before it counts the keys of the tile it has
/// reached itself (`SPINS` in the shader).
const LOOK_BACK_SPINS: u32 = 256;
/// OneSweep's status words keep counts in 30 bits.
const ONESWEEP_MAX_LEN: u32 = (1 << 30) - 1;
/// The first length the default sorter sorts with OneSweep where the device runs it: every
/// length. Since a sort records one compute pass and no clears, OneSweep beat reduce-then-scan
/// on an H100 at every length measured, from 2^14 keys to 2^26 (numbers:
/// docs/benchmarks/radix-history.md in the repository).
pub const ONESWEEP_FROM: u32 = 0;
/// The longest sort that OneSweep on the subgroup path sorts with each tile's keys kept in
/// registers and put in digit order in workgroup memory (`KEYS_IN_ORDER` in the shader), then
/// the values the same way, where the device's workgroup memory holds them: the write then
/// gathers nothing from the input, but the kernels need 18 KiB and about twice the registers of
/// the other keys kernel, so half as many workgroups run at once. It pays while a pass's tiles
/// all run at once: on an H100 up to 2^20 keys (256 tiles), not at 2^21 (numbers:
/// docs/benchmarks/radix-history.md in the repository).
pub const KEYS_IN_ORDER_UP_TO: u32 = 1 << 20;
/// Invocations per workgroup of the kernels that sort tiles, unless widened (`WORKGROUP` in the
/// shader).
const WORKGROUP: u32 = 256;
/// Invocations per workgroup of OneSweep's kernel for keys-only sorts longer than
/// [`KEYS_IN_ORDER_UP_TO`] on NVIDIA GPUs (subgroups of 32): tiles of 8192 keys. 512 was the
/// fastest width measured on an H100: at the same registers an invocation, two workgroups of
/// 512 fit an SM where four of 256 did, in half as many tiles. Its tile order holds 16-bit
/// indices (16 KiB), so the write reads each key from the input again: with the tile's keys in
/// workgroup memory instead (32 KiB), NVIDIA's driver ran one workgroup an SM and the sort was
/// slower (numbers: docs/benchmarks/radix-history.md in the repository).
const WIDE_KEYS_WORKGROUP: u32 = 512;
/// Invocations per workgroup of OneSweep's kernel for pairs sorts of at least
/// [`WIDE_PAIRS_FROM`] keys on NVIDIA GPUs (subgroups of 32): tiles of 6144 keys. 384 was the
/// fastest width measured on an H100: two workgroups of 384 fit an SM, as many invocations as
/// three of 256 in bigger tiles, where one of 512 fits alone (numbers:
/// docs/benchmarks/radix-history.md in the repository).
const WIDE_PAIRS_WORKGROUP: u32 = 384;
/// The first length of pairs sorted with [`WIDE_PAIRS_WORKGROUP`]: on an H100 the wider tiles
/// were slower at 2^22 pairs and faster from 2^23 (numbers: docs/benchmarks/radix-history.md in
/// the repository).
const WIDE_PAIRS_FROM: u32 = 1 << 23;
/// Invocations per workgroup of the histogram kernel beside the wide kernels: on an H100, 512
/// counted keys faster than 256 from 2^22 keys to 2^26 (numbers:
/// docs/benchmarks/radix-history.md in the repository).
const WIDE_HISTOGRAM_WORKGROUP: u32 = 512;
// The histogram kernels give each digit value an invocation.
const _: () = assert!(WORKGROUP == RADIX);
/// Invocations that rank their keys together in the portable ranking (`GROUP` there).
const PORTABLE_GROUP: u32 = 32;
