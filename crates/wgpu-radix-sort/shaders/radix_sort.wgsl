//! Device-wide LSD radix sort of u32 keys, optionally with u32 values: 8-bit digits, four
//! passes. The shared part: parameters, bindings, key transforms, the histograms, both ways of
//! finding each tile's output slots, and loading and writing a tile. A ranking file composed
//! after it (`radix_sort_portable.wgsl` or `radix_sort_subgroups.wgsl`) says how a tile's keys
//! are ranked, sizes `tile_memory` (`TILE_MEMORY_WORDS`; `COUNTS_IN_ORDER` where its counts
//! share the tile order's words; `KEYS_IN_ORDER` and `VALUES_IN_ORDER` where the order holds
//! keys and values instead of indices) and defines the `scatter` and `onesweep` entry points.
//!
//! 1. `histogram_all` reads the keys once: all four digits' histograms, and whether any key is
//!    smaller than the one before it.
//! 2. `scan_histograms` turns each histogram into exclusive offsets (where each digit value
//!    starts), zeroing the counts for the next sort, and picks each pass's mode: SKIP all passes
//!    when the input is already sorted, COPY a pass whose digit is the same for every key (the
//!    stable pass moves nothing, but the keys must reach the other buffer), else SORT.
//! For each pass, one of two strategies finds where each tile's keys of each digit go:
//! - Reduce-then-scan: `count_tiles` counts each tile's digits (tile_counts[digit * tiles +
//!   tile]), `scan_tiles` scans each digit's row into first output slots, `scatter` ranks and
//!   writes. No workgroup ever waits for another.
//! - OneSweep (decoupled look-back, Adinets & Merrill 2022): `onesweep` takes tiles in the
//!   order workgroups start (or their own order: `WORKGROUP_ORDER`), ranks its tile, publishes
//!   its digit counts at once, puts the tile in digit order, then reads its predecessors'
//!   published counts: one pass over the keys. A workgroup whose look-back has taken `SPINS`
//!   steps counts the keys of the tile it has reached itself instead ("decoupled fallback"), so
//!   no workgroup ever waits without bound on another, even on adapters that do not guarantee
//!   forward progress.
//!
//! A tile's positions past the end of the keys rank as digit 255 (`item_digit`).
//!
//! Keys are transformed as the first pass reads them (f32 and i32 to an order-preserving u32,
//! and the complement for descending order) and transformed back as the last pass writes them.

/// Mirrors `SortParams` in `src/job.rs`.
struct SortParams {
    len: u32,
    tiles: u32,
    /// Bit position of this pass's digit.
    shift: u32,
    /// Which of the four digit histograms this pass uses.
    pass_index: u32,
    /// Transform keys as they are read (the first pass reads the caller's keys).
    transform_in: u32,
    /// Undo the transform as keys are written (the last pass writes the caller's buffer).
    transform_out: u32,
    /// 0: u32 keys, 1: f32 bit patterns, 2: i32.
    key_kind: u32,
    /// 1: largest key first.
    descending: u32,
    /// 1: values travel with the keys.
    has_values: u32,
    /// Words in each half of `status`: 256 for each tile the scratch holds.
    status_half: u32,
    /// The bits of the (transformed) key that are sorted: digits and order see only these.
    key_mask: u32,
    _pad: u32,
}

const RADIX: u32 = 256u;
/// Invocations per workgroup of the kernels that sort tiles: at least RADIX, the first RADIX of
/// them also standing for a digit value each (its tile count, start, status word and
/// look-back). The pipeline may set more for the subgroup path's OneSweep kernels of long sorts
/// (`TileWidths` in `src/choices.rs`: bigger tiles, so fewer status words and look-backs per
/// key). The histogram kernels do not take this width (see `HISTOGRAM_GROUP`).
override WORKGROUP: u32 = 256u;
/// Keys per invocation in a tile (a multiple of 4: their digits are packed four to a word).
const ITEMS: u32 = 16u;
const_assert ITEMS % 4u == 0u;
/// Keys per tile.
override TILE: u32 = WORKGROUP * ITEMS;
/// Invocations per workgroup of `histogram_all` (the pipeline may set more where the device
/// allows them: 512 counted faster on an H100; numbers: docs/benchmarks/radix-history.md in the
/// repository).
override HISTOGRAM_GROUP: u32 = 256u;
/// Keys each histogram workgroup counts at a time.
override HISTOGRAM_BLOCK: u32 = HISTOGRAM_GROUP * ITEMS;

/// Words of `histograms`: four histograms of counts, which are zero between sorts
/// (`scan_histograms` zeroes them as it reads them, so no sort needs to clear them first); each
/// digit's first slot for each pass (`STARTS`); one OneSweep tile ticket per pass, one mode per
/// pass, and the unsorted flag (zero between sorts too). Mirrors `HISTOGRAM_WORDS` in Rust.
const STARTS: u32 = 4u * RADIX;
const TICKETS: u32 = STARTS + 4u * RADIX;
const MODES: u32 = TICKETS + 4u;
const UNSORTED: u32 = MODES + 4u;
/// Pass modes.
const SORT: u32 = 0u;
const COPY: u32 = 1u;
const SKIP: u32 = 2u;

/// OneSweep status words: flag in the top two bits, a count below.
const AGGREGATE: u32 = 0x40000000u;
const INCLUSIVE: u32 = 0x80000000u;
const COUNT_MASK: u32 = 0x3fffffffu;
/// Steps of a look-back (each reads `LOOK_BACK_WORDS` predecessors' words) before the workgroup
/// counts the keys of the tile it has reached itself. Every step counts, not only those that
/// found nothing new: the simpler loop sorted faster on an H100 (numbers:
/// docs/benchmarks/radix-history.md in the repository). A walk that moves on never needs many:
/// the first tiles of a pass find tile 0's inclusive count within a few dozen steps, and later
/// ones within a few.
override SPINS: u32 = 256u;
/// Predecessors' status words the look-back reads per step (the array in `look_back_prefix` is
/// written out for six): six sorted as fast as any count from 1 to 8 on an H100 (numbers:
/// docs/benchmarks/radix-history.md in the repository).
const LOOK_BACK_WORDS: u32 = 6u;

@group(0) @binding(0) var<uniform> params: SortParams;
@group(0) @binding(1) var<storage, read> keys_in: array<u32>;
@group(0) @binding(2) var<storage, read_write> keys_out: array<u32>;
@group(0) @binding(3) var<storage, read> values_in: array<u32>;
@group(0) @binding(4) var<storage, read_write> values_out: array<u32>;
/// See the `STARTS`, `TICKETS`, `MODES` and `UNSORTED` offsets.
@group(0) @binding(5) var<storage, read_write> histograms: array<atomic<u32>>;
/// Reduce-then-scan, per pass: tile_counts[digit * tiles + tile], then first output slots.
@group(0) @binding(6) var<storage, read_write> tile_counts: array<u32>;
/// OneSweep: two halves of `params.status_half` words, status[half * status_half + tile * RADIX +
/// digit]; even passes use the first half, odd passes the second (`status_word`). Each pass
/// clears its tiles' words in the half the next pass uses, which nothing reads while it runs,
/// and the last pass clears the first half for the next sort: the first half is zero between
/// sorts, so a sort needs no clear of its own and runs as one compute pass.
@group(0) @binding(7) var<storage, read_write> status: array<atomic<u32>>;

/// The key at `pos` in sorting order where the pass transforms its input (`transform_in`),
/// else as it is (`to_order` in `keys.wgsl`).
fn read_key(pos: u32) -> u32 {
    return to_order(keys_in[pos], params.transform_in != 0u);
}

/// The inverse of `read_key`'s transform where the pass transforms its output
/// (`transform_out`), else the key.
fn output_key(t: u32) -> u32 {
    return from_order(t, params.transform_out != 0u);
}

fn digit(key: u32) -> u32 {
    return ((key & params.key_mask) >> params.shift) & (RADIX - 1u);
}

fn tile_index(wid: vec3<u32>, groups: vec3<u32>) -> u32 {
    return wid.y * groups.x + wid.x;
}

var<workgroup> all_counts: array<atomic<u32>, 1024>;
var<workgroup> tile_unsorted: atomic<u32>;

/// Each workgroup of `histogram_all` counts every `num_workgroups`-th block of
/// `HISTOGRAM_BLOCK` keys into workgroup memory and adds to the global histograms once: fewer
/// global atomics on the same 1024 words.
@compute @workgroup_size(HISTOGRAM_GROUP)
fn histogram_all(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    for (var b = lid; b < 4u * RADIX; b += HISTOGRAM_GROUP) {
        atomicStore(&all_counts[b], 0u);
    }
    if (lid == 0u) {
        atomicStore(&tile_unsorted, 0u);
    }
    workgroupBarrier();
    var descents = false;
    let blocks = (params.len + HISTOGRAM_BLOCK - 1u) / HISTOGRAM_BLOCK;
    for (var block = wid.x; block < blocks; block += groups.x) {
        // All loads first, so their latencies overlap.
        var keys: array<u32, ITEMS>;
        for (var i = 0u; i < ITEMS; i += 1u) {
            let pos = block * HISTOGRAM_BLOCK + i * HISTOGRAM_GROUP + lid;
            keys[i] = read_key(min(pos, params.len - 1u));
        }
        // Each key against the next, until the invocation has found one smaller than the key
        // before it: unsorted keys show one in the first block, and the later blocks read
        // nothing more (faster on an H100 than reading every next key; numbers:
        // docs/benchmarks/radix-history.md in the repository). Past the end, both reads are of
        // the last key.
        if (!descents) {
            var next: array<u32, ITEMS>;
            for (var i = 0u; i < ITEMS; i += 1u) {
                let pos = block * HISTOGRAM_BLOCK + i * HISTOGRAM_GROUP + lid;
                next[i] = read_key(min(pos + 1u, params.len - 1u));
            }
            for (var i = 0u; i < ITEMS; i += 1u) {
                descents = descents || (next[i] & params.key_mask) < (keys[i] & params.key_mask);
            }
        }
        for (var i = 0u; i < ITEMS; i += 1u) {
            let pos = block * HISTOGRAM_BLOCK + i * HISTOGRAM_GROUP + lid;
            if (pos < params.len) {
                let key = keys[i] & params.key_mask;
                for (var p = 0u; p < 4u; p += 1u) {
                    atomicAdd(&all_counts[p * RADIX + ((key >> (8u * p)) & 0xffu)], 1u);
                }
            }
        }
    }
    if (descents) {
        atomicStore(&tile_unsorted, 1u);
    }
    workgroupBarrier();
    for (var b = lid; b < 4u * RADIX; b += HISTOGRAM_GROUP) {
        let count = atomicLoad(&all_counts[b]);
        if (count != 0u) {
            atomicAdd(&histograms[b], count);
        }
    }
    if (lid == 0u && atomicLoad(&tile_unsorted) != 0u) {
        atomicStore(&histograms[UNSORTED], 1u);
    }
}

var<workgroup> scan_space: array<u32, WORKGROUP>;

/// Exclusive prefix sum of one value per invocation across the workgroup (Hillis-Steele).
fn workgroup_exclusive_scan(value: u32, lid: u32) -> u32 {
    scan_space[lid] = value;
    workgroupBarrier();
    for (var offset = 1u; offset < WORKGROUP; offset *= 2u) {
        var add = 0u;
        if (lid >= offset) {
            add = scan_space[lid - offset];
        }
        workgroupBarrier();
        scan_space[lid] += add;
        workgroupBarrier();
    }
    let inclusive = scan_space[lid];
    workgroupBarrier();
    return inclusive - value;
}

var<workgroup> constant_digit: array<atomic<u32>, 4>;
var<workgroup> input_unsorted: u32;
/// The four passes' counts of one digit value per invocation, scanned together.
var<workgroup> pass_scan_space: array<vec4<u32>, RADIX>;

/// Turns the counts into each digit's first slot (`STARTS`) and picks each pass's mode, leaving
/// the counts and the unsorted flag zero for the next sort. The four histograms are scanned at
/// once, a pass in each lane of a vector: 16 barriers instead of 64.
@compute @workgroup_size(RADIX)
fn scan_histograms(@builtin(local_invocation_index) lid: u32) {
    if (lid < 4u) {
        atomicStore(&constant_digit[lid], 0u);
    }
    if (lid == 0u) {
        input_unsorted = atomicExchange(&histograms[UNSORTED], 0u);
    }
    let counts = vec4<u32>(
        atomicExchange(&histograms[lid], 0u),
        atomicExchange(&histograms[RADIX + lid], 0u),
        atomicExchange(&histograms[2u * RADIX + lid], 0u),
        atomicExchange(&histograms[3u * RADIX + lid], 0u),
    );
    pass_scan_space[lid] = counts;
    workgroupBarrier();
    for (var p = 0u; p < 4u; p += 1u) {
        if (counts[p] == params.len) {
            atomicStore(&constant_digit[p], 1u);
        }
    }
    // Hillis-Steele, inclusive.
    for (var offset = 1u; offset < RADIX; offset *= 2u) {
        var add = vec4<u32>();
        if (lid >= offset) {
            add = pass_scan_space[lid - offset];
        }
        workgroupBarrier();
        pass_scan_space[lid] += add;
        workgroupBarrier();
    }
    let starts = pass_scan_space[lid] - counts;
    for (var p = 0u; p < 4u; p += 1u) {
        atomicStore(&histograms[STARTS + p * RADIX + lid], starts[p]);
    }
    if (lid < 4u) {
        var mode = select(SORT, COPY, atomicLoad(&constant_digit[lid]) != 0u);
        if (input_unsorted == 0u) {
            mode = SKIP;
        }
        atomicStore(&histograms[MODES + lid], mode);
        atomicStore(&histograms[TICKETS + lid], 0u);
    }
}

var<workgroup> shared_mode: u32;

/// This pass's mode, uniform across the workgroup.
fn pass_mode(lid: u32) -> u32 {
    if (lid == 0u) {
        shared_mode = atomicLoad(&histograms[MODES + params.pass_index]);
    }
    return workgroupUniformLoad(&shared_mode);
}

var<workgroup> tile_histogram: array<atomic<u32>, RADIX>;

/// Counts tile `tile`'s digits into `tile_histogram`.
fn count_tile_digits(tile: u32, lid: u32) {
    if (lid < RADIX) {
        atomicStore(&tile_histogram[lid], 0u);
    }
    workgroupBarrier();
    // All loads first, so their latencies overlap.
    var digits: array<u32, ITEMS>;
    for (var i = 0u; i < ITEMS; i += 1u) {
        let pos = tile * TILE + i * WORKGROUP + lid;
        digits[i] = select(RADIX, digit(read_key(min(pos, params.len - 1u))), pos < params.len);
    }
    for (var i = 0u; i < ITEMS; i += 1u) {
        if (digits[i] < RADIX) {
            atomicAdd(&tile_histogram[digits[i]], 1u);
        }
    }
    workgroupBarrier();
}

@compute @workgroup_size(WORKGROUP)
fn count_tiles(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let tile = tile_index(wid, groups);
    if (tile >= params.tiles || pass_mode(lid) != SORT) {
        return;
    }
    count_tile_digits(tile, lid);
    if (lid < RADIX) {
        tile_counts[lid * params.tiles + tile] = atomicLoad(&tile_histogram[lid]);
    }
}

/// One workgroup per digit value: its row of tile counts becomes first output slots.
@compute @workgroup_size(WORKGROUP)
fn scan_tiles(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    if (pass_mode(lid) != SORT) {
        return;
    }
    let d = wid.x;
    let base = d * params.tiles;
    let per = (params.tiles + WORKGROUP - 1u) / WORKGROUP;
    let begin = min(lid * per, params.tiles);
    let end = min(begin + per, params.tiles);
    var sum = 0u;
    for (var t = begin; t < end; t += 1u) {
        sum += tile_counts[base + t];
    }
    var running = atomicLoad(&histograms[STARTS + params.pass_index * RADIX + d])
        + workgroup_exclusive_scan(sum, lid);
    for (var t = begin; t < end; t += 1u) {
        let count = tile_counts[base + t];
        tile_counts[base + t] = running;
        running += count;
    }
}

/// A pass whose digit is the same for every key moves each key to where it already is.
fn copy_tile(tile: u32, lid: u32) {
    for (var i = 0u; i < ITEMS; i += 1u) {
        let pos = tile * TILE + i * WORKGROUP + lid;
        if (pos < params.len) {
            keys_out[pos] = output_key(read_key(pos));
            if (params.has_values != 0u) {
                values_out[pos] = values_in[pos];
            }
        }
    }
}

var<workgroup> shared_ticket: u32;

/// OneSweep numbers tiles in the order workgroups are numbered instead of taking tickets,
/// where the GPU is known to start them in that order (NVIDIA; set by `src/choices.rs`). A
/// GPU that started them out of order would still sort correctly, through the look-back's
/// fallback, only slower.
override WORKGROUP_ORDER: bool = false;

/// The tile this workgroup sorts, or `params.tiles` or more for none. Handles SKIP and COPY
/// passes itself, and clears OneSweep's status words for the next pass. OneSweep numbers tiles
/// in the order workgroups get here (unless `WORKGROUP_ORDER`), so every tile a workgroup looks
/// back on belongs to a workgroup that has started.
fn tile_to_sort(wid: vec3<u32>, groups: vec3<u32>, lid: u32, look_back: bool) -> u32 {
    if (look_back) {
        clear_next_status(wid, groups, lid);
        if (lid == 0u) {
            atomicStore(&stuck_tile, 0u);
        }
    }
    // Cleared before the first barrier (pass_mode's), which the ranking would otherwise need
    // for itself (faster for pairs on an H100; numbers: docs/benchmarks/radix-history.md in the
    // repository).
    clear_counts(lid);
    if (REORDER && !COUNTS_IN_ORDER) {
        clear_tile_order(lid);
    }
    let tile = tile_index(wid, groups);
    let mode = pass_mode(lid);
    if (mode == SKIP || tile >= params.tiles) {
        return params.tiles;
    }
    if (mode == COPY) {
        copy_tile(tile, lid);
        return params.tiles;
    }
    if (!look_back || WORKGROUP_ORDER) {
        return tile;
    }
    if (lid == 0u) {
        shared_ticket = atomicAdd(&histograms[TICKETS + params.pass_index], 1u);
    }
    return workgroupUniformLoad(&shared_ticket);
}

/// The digits of the invocation's keys of the tile, four to a word, their ranks, two to a word
/// (a rank is below TILE), and how many of its keys there are. Keys and values are read again
/// as they are written, so the tile keeps only what ranking needs in registers; with
/// `KEYS_IN_ORDER` it keeps the keys instead of their digits.
var<private> tile_digits: array<u32, ITEMS / 4u>;
var<private> tile_ranks: array<u32, ITEMS / 2u>;
var<private> tile_items: u32;
var<private> tile_keys: array<u32, ITEMS>;

/// The rank of the invocation's key `i` among the earlier keys of its group with its digit.
fn item_rank(i: u32) -> u32 {
    return (tile_ranks[i / 2u] >> (16u * (i % 2u))) & 0xffffu;
}

/// Sets `item_rank(i)`; ranks are set in order of `i`.
fn set_item_rank(i: u32, rank: u32) {
    if (i % 2u == 0u) {
        tile_ranks[i / 2u] = rank;
    } else {
        tile_ranks[i / 2u] |= rank << 16u;
    }
}

/// The digit of the invocation's key `i`. Positions past the end count as digit RADIX - 1
/// (`item_digit_of`, as the digits are packed): they come after every key of the tile, so
/// they rank after its last digit's keys and take the tile's last positions in digit order,
/// which are never written. (Only the last tile has them, and no tile looks back on its
/// counts.) Ranking then needs no ballot for them.
fn item_digit(i: u32) -> u32 {
    if (KEYS_IN_ORDER) {
        return item_digit_of(tile_keys[i], i);
    }
    return (tile_digits[i / 4u] >> (8u * (i % 4u))) & 0xffu;
}

/// The digit `item_digit` gives the invocation's key `i`, from the key.
fn item_digit_of(key: u32, i: u32) -> u32 {
    return select(RADIX - 1u, digit(key), i < tile_items);
}

/// Each digit's first output slot for this tile (first the tile's count of it).
var<workgroup> tile_start: array<u32, RADIX>;

/// Set where the device's workgroup memory holds the tile's order (`TileMemory` in
/// `src/choices.rs`): the tile is put in digit order in workgroup memory first, so
/// neighbouring invocations write neighbouring slots, keys and values alike. Otherwise each key
/// is written straight to its slot.
override REORDER: bool = false;
/// TILE / 2 when `REORDER`, else 1 (so a tile written directly needs no tile order).
override REORDER_WORDS: u32 = 1u;
/// The tile in digit order (its first `REORDER_WORDS`), as 16-bit indices into the tile, two to
/// a word (filled with atomicOr, so it is cleared first). Indices rather than keys halve the
/// memory, and on an H100 a workgroup of more than about 15.5 KiB runs the sort markedly slower
/// (numbers: docs/benchmarks/radix-history.md in the repository); keys and values are read
/// again from the input, where the tile was just read, as they are written. The ranking file
/// sizes it (`TILE_MEMORY_WORDS`) and may keep its own counts there until the tile is
/// reordered.
var<workgroup> tile_memory: array<atomic<u32>, TILE_MEMORY_WORDS>;

/// Each digit's first position in the tile in digit order, set by the ranking file's
/// `scan_digits`. It shares `tile_histogram`, which only the look-back's fallback uses, and
/// only after the tile is reordered.
fn set_local_start(d: u32, position: u32) {
    atomicStore(&tile_histogram[d], position);
}

fn local_start(d: u32) -> u32 {
    return atomicLoad(&tile_histogram[d]);
}

/// Sorts one tile. Groups of `width` invocations own consecutive runs of the tile, and a
/// group takes `width` keys per round; the ranking file ranks each key among its group's keys
/// with the same digit (`rank_run`), then gives each group its offset among the tile's keys
/// (`group_offset`), leaving the tile's count of each digit in `tile_start`.
fn sort_tile(tile: u32, lid: u32, group: u32, lane: u32, width: u32, look_back: bool) {
    let begin = tile * TILE + group * width * ITEMS;
    let first = begin + lane;
    tile_items = select(0u, min(ITEMS, (params.len - first + width - 1u) / width), first < params.len);
    var keys: array<u32, ITEMS>;
    for (var i = 0u; i < ITEMS; i += 1u) {
        keys[i] = read_key(min(first + i * width, params.len - 1u));
    }
    if (KEYS_IN_ORDER) {
        tile_keys = keys;
    } else {
        for (var q = 0u; q < ITEMS / 4u; q += 1u) {
            let i = 4u * q;
            tile_digits[q] = item_digit_of(keys[i], i) | (item_digit_of(keys[i + 1u], i + 1u) << 8u)
                | (item_digit_of(keys[i + 2u], i + 2u) << 16u) | (item_digit_of(keys[i + 3u], i + 3u) << 24u);
        }
    }
    rank_run(lid, group, lane, width);
    count_groups(lid);
    // Invocations past the digits (a workgroup wider than RADIX) carry digit RADIX - 1's
    // values but publish, look up and store nothing for it.
    let d = min(lid, RADIX - 1u);
    let is_digit = lid < RADIX;
    let total = tile_start[d];
    if (look_back && is_digit) {
        // As soon as the tile's counts are known, so that later tiles looking back find them
        // sooner (faster on an H100 than publishing after the reorder; numbers:
        // docs/benchmarks/radix-history.md in the repository).
        publish_aggregate(tile, d, total);
    }
    var own_local_start = 0u;
    if (REORDER) {
        own_local_start = reorder_tile(lid, group, lane, width);
    }
    var start = atomicLoad(&histograms[STARTS + params.pass_index * RADIX + d]);
    if (look_back) {
        start += look_back_prefix(tile, lid, total);
    } else {
        start = tile_counts[d * params.tiles + tile];
    }
    if (REORDER) {
        write_reordered(tile, lid, start - own_local_start, first, width);
    } else {
        write_directly(lid, group, first, width, start);
    }
}

/// Puts the tile in digit order in `tile_memory`: each key's index in the tile (or, with
/// `KEYS_IN_ORDER`, the key) goes to its position in digit order. Returns where digit `lid`
/// starts. Where the ranking's counts share the tile order's words (`COUNTS_IN_ORDER`), all
/// positions are found first (in place of the ranks), then the order is cleared (keys need no
/// clear: each position takes a whole word); elsewhere it was cleared as the tile began.
fn reorder_tile(lid: u32, group: u32, lane: u32, width: u32) -> u32 {
    scan_digits(lid, group, lane, width);
    if (COUNTS_IN_ORDER) {
        for (var j = 0u; j < ITEMS / 2u; j += 1u) {
            tile_ranks[j] = item_position(2u * j, group) | (item_position(2u * j + 1u, group) << 16u);
        }
        workgroupBarrier();
        if (KEYS_IN_ORDER) {
            for (var i = 0u; i < ITEMS; i += 1u) {
                if (i < tile_items) {
                    atomicStore(&tile_memory[item_rank(i)], tile_keys[i]);
                }
            }
            return local_start(min(lid, RADIX - 1u));
        }
        clear_tile_order(lid);
        workgroupBarrier();
    }
    // A whole tile's keys need no test (without them, and with past-end digits set as they are
    // packed, keys-only sorts ran faster on an H100; numbers: docs/benchmarks/radix-history.md
    // in the repository).
    if (tile_items == ITEMS) {
        for (var i = 0u; i < ITEMS; i += 1u) {
            order_item(i, group, lane, width);
        }
    } else {
        for (var i = 0u; i < ITEMS; i += 1u) {
            if (i < tile_items) {
                order_item(i, group, lane, width);
            }
        }
    }
    return local_start(min(lid, RADIX - 1u));
}

/// Puts the invocation's key `i` (its index in the tile) at its position in the tile order.
fn order_item(i: u32, group: u32, lane: u32, width: u32) {
    var position = item_rank(i);
    if (!COUNTS_IN_ORDER) {
        position = item_position(i, group);
    }
    let index = group * width * ITEMS + i * width + lane;
    atomicOr(&tile_memory[position / 2u], index << (16u * (position & 1u)));
}

/// Zeroes the tile order for the reorder's atomicOr.
fn clear_tile_order(lid: u32) {
    for (var w = lid; w < REORDER_WORDS; w += WORKGROUP) {
        atomicStore(&tile_memory[w], 0u);
    }
}

/// Where the invocation's key `i` goes in the tile in digit order (below 3 * TILE for a position
/// past the end, so it fits in 16 bits too).
fn item_position(i: u32, group: u32) -> u32 {
    let d = item_digit(i);
    return item_rank(i) + local_start(d) + group_offset(group, d);
}

/// Writes the reordered tile: position p, of digit d, goes to slot `shift[d] + p`, where
/// `shift` (this invocation's for digit `lid`) is the digit's first slot minus its first
/// position in the tile (wrapping). `first` and `width`: where the invocation's keys came from
/// (`sort_tile`).
fn write_reordered(tile: u32, lid: u32, shift: u32, first: u32, width: u32) {
    if (lid < RADIX) {
        tile_start[lid] = shift;
    }
    workgroupBarrier();
    let tile_len = min(TILE, params.len - tile * TILE);
    if (KEYS_IN_ORDER) {
        write_held_tile(tile_len, lid, first, width);
        return;
    }
    if (tile_len == TILE) {
        write_whole_tile(tile, lid);
        return;
    }
    for (var p = lid; p < tile_len; p += WORKGROUP) {
        let pos = tile * TILE + ordered_index(p);
        let key = read_key(pos);
        let slot = tile_start[digit(key)] + p;
        keys_out[slot] = output_key(key);
        if (params.has_values != 0u) {
            values_out[slot] = values_in[pos];
        }
    }
}

/// The index in the tile of the key at position `p` in digit order.
fn ordered_index(p: u32) -> u32 {
    return (atomicLoad(&tile_memory[p / 2u]) >> (16u * (p & 1u))) & 0xffffu;
}

/// `write_reordered` for a whole tile: all of an invocation's reads are issued before any
/// write. (In one loop, each read of the input waited for the write before it, which might
/// have been to the same memory for all the compiler knows: sixteen round trips in a row.)
fn write_whole_tile(tile: u32, lid: u32) {
    var origin: array<u32, ITEMS>;
    var keys: array<u32, ITEMS>;
    for (var k = 0u; k < ITEMS; k += 1u) {
        origin[k] = tile * TILE + ordered_index(k * WORKGROUP + lid);
        keys[k] = read_key(origin[k]);
    }
    var slots: array<u32, ITEMS>;
    for (var k = 0u; k < ITEMS; k += 1u) {
        slots[k] = tile_start[digit(keys[k])] + k * WORKGROUP + lid;
        keys_out[slots[k]] = output_key(keys[k]);
    }
    if (params.has_values != 0u) {
        var values: array<u32, ITEMS>;
        for (var k = 0u; k < ITEMS; k += 1u) {
            values[k] = values_in[origin[k]];
        }
        for (var k = 0u; k < ITEMS; k += 1u) {
            values_out[slots[k]] = values[k];
        }
    }
}

/// `write_reordered` where the tile order holds the keys (`KEYS_IN_ORDER`): the invocation
/// writes the keys at positions `lid`, `lid + WORKGROUP`, ... of the tile's `tile_len`; for
/// pairs (`VALUES_IN_ORDER`), the values then take the keys' places (each invocation stores its
/// own keys' values, read from the input where its keys were, at their positions, which
/// `tile_ranks` still holds) and go to the same slots. A whole tile's loops test no position
/// (with the test, short keys-only sorts took longer on an H100; numbers:
/// docs/benchmarks/radix-history.md in the repository).
fn write_held_tile(tile_len: u32, lid: u32, first: u32, width: u32) {
    var slots: array<u32, ITEMS>;
    if (tile_len == TILE) {
        for (var k = 0u; k < ITEMS; k += 1u) {
            slots[k] = write_held_key(k * WORKGROUP + lid);
        }
    } else {
        for (var k = 0u; k < ITEMS; k += 1u) {
            if (k * WORKGROUP + lid < tile_len) {
                slots[k] = write_held_key(k * WORKGROUP + lid);
            }
        }
    }
    if (!VALUES_IN_ORDER || params.has_values == 0u) {
        return;
    }
    workgroupBarrier();
    for (var i = 0u; i < ITEMS; i += 1u) {
        if (i < tile_items) {
            atomicStore(&tile_memory[item_rank(i)], values_in[first + i * width]);
        }
    }
    workgroupBarrier();
    if (tile_len == TILE) {
        for (var k = 0u; k < ITEMS; k += 1u) {
            values_out[slots[k]] = atomicLoad(&tile_memory[k * WORKGROUP + lid]);
        }
    } else {
        for (var k = 0u; k < ITEMS; k += 1u) {
            if (k * WORKGROUP + lid < tile_len) {
                values_out[slots[k]] = atomicLoad(&tile_memory[k * WORKGROUP + lid]);
            }
        }
    }
}

/// Writes the key at position `p` of the tile order (`KEYS_IN_ORDER`) to its slot; returns the
/// slot.
fn write_held_key(p: u32) -> u32 {
    let key = atomicLoad(&tile_memory[p]);
    let slot = tile_start[digit(key)] + p;
    keys_out[slot] = output_key(key);
    return slot;
}

/// Writes each key (and value), read again from the input, straight to its slot: digit `lid`
/// of the tile starts at `start`.
fn write_directly(lid: u32, group: u32, first: u32, width: u32, start: u32) {
    if (lid < RADIX) {
        tile_start[lid] = start;
    }
    workgroupBarrier();
    for (var i = 0u; i < ITEMS; i += 1u) {
        if (i >= tile_items) {
            break;
        }
        let d = item_digit(i);
        let slot = tile_start[d] + group_offset(group, d) + item_rank(i);
        keys_out[slot] = output_key(read_key(first + i * width));
        if (params.has_values != 0u) {
            values_out[slot] = values_in[first + i * width];
        }
    }
}

/// The index of tile `tile`'s status word for digit `d` in this pass's half of `status`.
fn status_word(tile: u32, d: u32) -> u32 {
    return (params.pass_index % 2u) * params.status_half + tile * RADIX + d;
}

/// Zeroes the status words of tile `tile_index(wid, groups)` in the half the next pass uses (the
/// last pass: the next sort's first). Every pass's workgroups cover every tile, whatever its
/// mode.
fn clear_next_status(wid: vec3<u32>, groups: vec3<u32>, lid: u32) {
    let tile = tile_index(wid, groups);
    if (tile < params.tiles && lid < RADIX) {
        atomicStore(&status[((params.pass_index + 1u) % 2u) * params.status_half + tile * RADIX + lid], 0u);
    }
}

/// Publishes this tile's count of digit `d` for the tiles after it: an aggregate, or tile 0's
/// inclusive count (nothing comes before it).
fn publish_aggregate(tile: u32, d: u32, total: u32) {
    atomicStore(&status[status_word(tile, d)], select(AGGREGATE, INCLUSIVE, tile == 0u) | total);
}

/// 1 + the latest tile some invocation is stuck on this round; 0 for none. Zero as the
/// look-back begins (`tile_to_sort` clears it) and after each round.
var<workgroup> stuck_tile: atomic<u32>;

/// OneSweep's look-back for digit `lid`, after `publish_aggregate`: sums the counts of all
/// earlier tiles, publishes the running total, and returns the sum. Invocations past the digits
/// read and publish nothing, but count a stuck tile's keys with the others.
fn look_back_prefix(tile: u32, lid: u32, total: u32) -> u32 {
    let d = min(lid, RADIX - 1u);
    let is_digit = lid < RADIX;
    let own = status_word(tile, d);
    if (tile == 0u) {
        return 0u;
    }
    var prefix = 0u;
    // The tile whose status this invocation reads next. Tile 0 is inclusive from the start,
    // so the walk ends there at the latest.
    var next = tile - 1u;
    var done = !is_digit;
    loop {
        if (!done) {
            var steps = 0u;
            loop {
                // Six predecessors' words at once (tile 0 again where `next` is smaller; tile 0
                // is inclusive, so the walk stops at its first copy). Written out: filled in a
                // loop, the array took more registers and the sort far longer on an H100
                // (numbers: docs/benchmarks/radix-history.md in the repository).
                let words = array<u32, LOOK_BACK_WORDS>(
                    atomicLoad(&status[status_word(next, d)]),
                    atomicLoad(&status[status_word(next - min(next, 1u), d)]),
                    atomicLoad(&status[status_word(next - min(next, 2u), d)]),
                    atomicLoad(&status[status_word(next - min(next, 3u), d)]),
                    atomicLoad(&status[status_word(next - min(next, 4u), d)]),
                    atomicLoad(&status[status_word(next - min(next, 5u), d)]),
                );
                for (var k = 0u; k < LOOK_BACK_WORDS; k += 1u) {
                    let s = words[k];
                    if ((s & ~COUNT_MASK) == 0u) {
                        break;
                    }
                    prefix += s & COUNT_MASK;
                    if ((s & INCLUSIVE) != 0u) {
                        done = true;
                        break;
                    }
                    next -= 1u;
                }
                if (done) {
                    break;
                }
                steps += 1u;
                if (steps == SPINS) {
                    break;
                }
            }
            if (!done) {
                atomicMax(&stuck_tile, next + 1u);
            }
        }
        let stuck = workgroupUniformLoad(&stuck_tile);
        if (stuck == 0u) {
            break;
        }
        // Count the stuck tile's digits from its keys: what its workgroup will publish.
        if (lid == 0u) {
            atomicStore(&stuck_tile, 0u);
        }
        count_tile_digits(stuck - 1u, lid);
        if (!done && next == stuck - 1u) {
            prefix += atomicLoad(&tile_histogram[d]);
            if (next == 0u) {
                done = true;
            } else {
                next -= 1u;
            }
        }
    }
    if (is_digit) {
        atomicStore(&status[own], INCLUSIVE | (prefix + total));
    }
    return prefix;
}
