//! A device-wide radix sort for wgpu programs: sorts a buffer of u32 (or f32) keys, alone or
//! with u32 values, ascending or descending, stably, recorded into the caller's encoder.
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

mod choices;
mod dispatch;
pub mod distribution;
mod job;
mod kernels;
mod scratch;
pub mod shaders;
mod sorter;

pub use choices::{SortPath, SortStrategy, TileMemory, TileOrder, TileWidths};
pub use dispatch::DISPATCHES;
pub use job::{KeyKind, SortError, SortJob, SortParams, SortScratch, sort_order_key};
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
/// workgroups make fewer global atomics, but each reads more tiles in turn: on an H100, 264
/// workgroups instead of 1024 sorted 2^22 keys 3% faster, and 1024 sorted 2^26 keys 1% faster
/// than 264 (BENCHMARKS.md).
const HISTOGRAM_GROUPS: std::ops::RangeInclusive<u32> = 256..=1024;
/// Look-back steps a OneSweep workgroup takes before it counts the keys of the tile it has
/// reached itself (`SPINS` in the shader).
const LOOK_BACK_SPINS: u32 = 256;
/// OneSweep's status words keep counts in 30 bits.
const ONESWEEP_MAX_LEN: u32 = (1 << 30) - 1;
/// The first length the default sorter sorts with OneSweep where the device runs it: every
/// length. Since a sort records one compute pass and no clears, OneSweep is the faster strategy
/// on an H100 at every length measured, from 2^14 keys (0.058 against 0.085 ms) through 2^20
/// (0.090 against 0.112) to 2^26 (2.31 against 2.94 ms) (BENCHMARKS.md).
pub const ONESWEEP_FROM: u32 = 0;
/// The longest sort that OneSweep on the subgroup path sorts with each tile's keys kept in
/// registers and put in digit order in workgroup memory (`KEYS_IN_ORDER` in the shader), then
/// the values the same way, where the device's workgroup memory holds them: the write then
/// gathers nothing from the input, but the kernels need 18 KiB and about 120 registers an
/// invocation on an H100 (the other keys kernel 64), so half as many workgroups run at once. It
/// pays while a pass's tiles all run at once: on an H100, 2^12 keys sorted in 0.047 ms instead
/// of 0.053 and pairs in 0.052 instead of 0.057, 2^20 keys (256 tiles) in 0.079 instead of
/// 0.086 and pairs in 0.096 instead of 0.102, but 2^21 keys in 0.131 instead of 0.126
/// (BENCHMARKS.md).
pub const KEYS_IN_ORDER_UP_TO: u32 = 1 << 20;
/// Invocations per workgroup of the kernels that sort tiles, unless widened (`WORKGROUP` in the
/// shader).
const WORKGROUP: u32 = 256;
/// Invocations per workgroup of OneSweep's kernel for keys-only sorts longer than
/// [`KEYS_IN_ORDER_UP_TO`] on NVIDIA GPUs (subgroups of 32): tiles of 8192 keys. On an H100 it
/// sorted 2^26 keys in 2.18-2.20 ms instead of 2.29 (the same 64 registers an invocation, so two
/// workgroups of 512 fit an SM where four of 256 did); 384 invocations took 2.37 ms (72
/// registers), 768 2.58 and 1024 6.04 (BENCHMARKS.md); with today's shaders 384 took 2.08 ms
/// against 2.05 (56 registers, room for three workgroups an SM). Its tile order holds 16-bit
/// indices (16 KiB), so the write reads each key from the input again: with the tile's keys in
/// workgroup memory instead (32 KiB), NVIDIA's driver ran one workgroup an SM and the sort took
/// 2.47 ms or more.
const WIDE_KEYS_WORKGROUP: u32 = 512;
/// Invocations per workgroup of OneSweep's kernel for pairs sorts of at least
/// [`WIDE_PAIRS_FROM`] keys on NVIDIA GPUs (subgroups of 32): tiles of 6144 keys. On an H100 it
/// sorted 2^26 pairs in 2.96-2.98 ms instead of 3.22 (at 76 registers an invocation two
/// workgroups of 384 fit an SM: as many invocations as three of 256 at 70, in bigger tiles); 512
/// invocations took 3.59 ms (76 registers: one workgroup an SM), 768 3.23 (BENCHMARKS.md).
const WIDE_PAIRS_WORKGROUP: u32 = 384;
/// The first length of pairs sorted with [`WIDE_PAIRS_WORKGROUP`]: on an H100 the wider tiles
/// were slower at 2^22 pairs (0.261 against 0.256 ms) and faster from 2^23 (0.440 against
/// 0.450; 2^24: 0.806 against 0.838) (BENCHMARKS.md).
const WIDE_PAIRS_FROM: u32 = 1 << 23;
/// Invocations per workgroup of the histogram kernel beside the wide kernels: on an H100 it
/// counted 2^22 keys in 19 us instead of 21 and 2^26 in 0.166 ms instead of 0.172, and 2^22
/// keys sorted in 0.199 ms instead of 0.203 (BENCHMARKS.md).
const WIDE_HISTOGRAM_WORKGROUP: u32 = 512;
// The histogram kernels give each digit value an invocation.
const _: () = assert!(WORKGROUP == RADIX);
/// Invocations that rank their keys together in the portable ranking (`GROUP` there).
const PORTABLE_GROUP: u32 = 32;
