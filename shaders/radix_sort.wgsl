//! Device-wide LSD radix sort of u32 keys, optionally with u32 values: 8-bit digits, four
//! passes, reduce-then-scan. No workgroup ever waits for another, so it is correct on adapters
//! without forward-progress guarantees (lavapipe, mobile GPUs) and needs no subgroups (GL).
//!
//! 1. `histogram_all` reads the keys once and counts all four digits' histograms.
//! 2. `scan_histograms` turns each into exclusive offsets: where each digit value starts.
//! For each pass:
//! 3. `count_tiles` counts each tile's digits, digit-major: tile_counts[digit * tiles + tile].
//! 4. `scan_tiles` scans each digit's row of tile counts and adds the digit's start, so every
//!    (digit, tile) knows its first slot in the output.
//! 5. `scatter` ranks each tile's keys stably and writes them (and their values) to their slots.
//!
//! Stable ranking without subgroups: a tile's 256 invocations form 8 groups of 32; each group
//! owns a contiguous run of the tile and ranks its 32 keys of a round by comparing with the
//! group's other 31 digits in workgroup memory; per-group running counts, then a scan over the
//! groups, give every key its place among the tile's keys with the same digit, in input order.
//!
//! Keys are transformed as the first pass reads them (f32 to an order-preserving u32, and the
//! complement for descending order) and transformed back as the last pass writes them.

/// Mirrors `SortParams` in `src/sort/mod.rs`.
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
    /// 1: the keys are f32 bit patterns.
    float_keys: u32,
    /// 1: largest key first.
    descending: u32,
    /// 1: values travel with the keys.
    has_values: u32,
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
}

const RADIX: u32 = 256u;
/// Invocations per workgroup: one per digit value in the histogram kernels.
const WORKGROUP: u32 = 256u;
/// Keys per invocation in a tile.
const ITEMS: u32 = 8u;
/// Keys per tile.
const TILE: u32 = 2048u;
/// Invocations that rank their keys together.
const GROUP: u32 = 32u;
/// Groups per workgroup.
const GROUPS: u32 = 8u;

@group(0) @binding(0) var<uniform> params: SortParams;
@group(0) @binding(1) var<storage, read> keys_in: array<u32>;
@group(0) @binding(2) var<storage, read_write> keys_out: array<u32>;
@group(0) @binding(3) var<storage, read> values_in: array<u32>;
@group(0) @binding(4) var<storage, read_write> values_out: array<u32>;
/// Four histograms of 256 counts, then (after `scan_histograms`) each digit value's start.
@group(0) @binding(5) var<storage, read_write> histograms: array<atomic<u32>>;
/// Per pass: tile_counts[digit * tiles + tile], then (after `scan_tiles`) first output slots.
@group(0) @binding(6) var<storage, read_write> tile_counts: array<u32>;

/// The key in sorting order. Mirrors `sort_order_key` in `src/sort/mod.rs`.
fn to_order(k: u32) -> u32 {
    var t = k;
    if (params.float_keys != 0u) {
        // Negative floats reverse their order; positive ones go above them.
        t = select(k | 0x80000000u, ~k, (k & 0x80000000u) != 0u);
    }
    return select(t, ~t, params.descending != 0u);
}

/// Inverse of `to_order`.
fn from_order(t: u32) -> u32 {
    var k = select(t, ~t, params.descending != 0u);
    if (params.float_keys != 0u) {
        k = select(~k, k & 0x7fffffffu, (k & 0x80000000u) != 0u);
    }
    return k;
}

fn read_key(pos: u32) -> u32 {
    let k = keys_in[pos];
    return select(k, to_order(k), params.transform_in != 0u);
}

fn digit(key: u32) -> u32 {
    return (key >> params.shift) & (RADIX - 1u);
}

fn tile_index(wid: vec3<u32>, groups: vec3<u32>) -> u32 {
    return wid.y * groups.x + wid.x;
}

var<workgroup> all_counts: array<atomic<u32>, 1024>;

@compute @workgroup_size(WORKGROUP)
fn histogram_all(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let tile = tile_index(wid, groups);
    if (tile >= params.tiles) {
        return;
    }
    for (var b = lid; b < 4u * RADIX; b += WORKGROUP) {
        atomicStore(&all_counts[b], 0u);
    }
    workgroupBarrier();
    for (var i = 0u; i < ITEMS; i += 1u) {
        let pos = tile * TILE + i * WORKGROUP + lid;
        if (pos < params.len) {
            let key = read_key(pos);
            for (var p = 0u; p < 4u; p += 1u) {
                atomicAdd(&all_counts[p * RADIX + ((key >> (8u * p)) & 0xffu)], 1u);
            }
        }
    }
    workgroupBarrier();
    for (var b = lid; b < 4u * RADIX; b += WORKGROUP) {
        let count = atomicLoad(&all_counts[b]);
        if (count != 0u) {
            atomicAdd(&histograms[b], count);
        }
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

@compute @workgroup_size(WORKGROUP)
fn scan_histograms(@builtin(local_invocation_index) lid: u32) {
    for (var p = 0u; p < 4u; p += 1u) {
        let count = atomicLoad(&histograms[p * RADIX + lid]);
        let start = workgroup_exclusive_scan(count, lid);
        atomicStore(&histograms[p * RADIX + lid], start);
    }
}

var<workgroup> tile_histogram: array<atomic<u32>, RADIX>;

@compute @workgroup_size(WORKGROUP)
fn count_tiles(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let tile = tile_index(wid, groups);
    if (tile >= params.tiles) {
        return;
    }
    atomicStore(&tile_histogram[lid], 0u);
    workgroupBarrier();
    for (var i = 0u; i < ITEMS; i += 1u) {
        let pos = tile * TILE + i * WORKGROUP + lid;
        if (pos < params.len) {
            atomicAdd(&tile_histogram[digit(read_key(pos))], 1u);
        }
    }
    workgroupBarrier();
    tile_counts[lid * params.tiles + tile] = atomicLoad(&tile_histogram[lid]);
}

/// One workgroup per digit value: its row of tile counts becomes first output slots.
@compute @workgroup_size(WORKGROUP)
fn scan_tiles(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let d = wid.x;
    let base = d * params.tiles;
    let per = (params.tiles + WORKGROUP - 1u) / WORKGROUP;
    let begin = min(lid * per, params.tiles);
    let end = min(begin + per, params.tiles);
    var sum = 0u;
    for (var t = begin; t < end; t += 1u) {
        sum += tile_counts[base + t];
    }
    var running = atomicLoad(&histograms[params.pass_index * RADIX + d])
        + workgroup_exclusive_scan(sum, lid);
    for (var t = begin; t < end; t += 1u) {
        let count = tile_counts[base + t];
        tile_counts[base + t] = running;
        running += count;
    }
}

/// Each digit's first output slot for this tile.
var<workgroup> tile_start: array<u32, RADIX>;
/// Per group and digit: keys ranked so far, then the group's offset among the tile's keys.
var<workgroup> group_counts: array<u32, 2048>;
/// The digits of the round being ranked (RADIX for positions past the end).
var<workgroup> round_digits: array<u32, WORKGROUP>;

@compute @workgroup_size(WORKGROUP)
fn scatter(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let tile = tile_index(wid, groups);
    if (tile >= params.tiles) {
        return;
    }
    tile_start[lid] = tile_counts[lid * params.tiles + tile];
    for (var g = 0u; g < GROUPS; g += 1u) {
        group_counts[g * RADIX + lid] = 0u;
    }
    workgroupBarrier();

    let group = lid / GROUP;
    let lane = lid % GROUP;
    // A group owns TILE / GROUPS consecutive keys and takes 32 of them per round.
    let group_begin = tile * TILE + group * GROUP * ITEMS;
    var keys: array<u32, ITEMS>;
    var values: array<u32, ITEMS>;
    var digits: array<u32, ITEMS>;
    var ranks: array<u32, ITEMS>;
    for (var i = 0u; i < ITEMS; i += 1u) {
        let pos = group_begin + i * GROUP + lane;
        let inside = pos < params.len;
        var key = 0u;
        var d = RADIX;
        if (inside) {
            key = read_key(pos);
            d = digit(key);
            if (params.has_values != 0u) {
                values[i] = values_in[pos];
            }
        }
        round_digits[lid] = d;
        workgroupBarrier();
        // Earlier keys of the group's round with the same digit, and all of them.
        var before = 0u;
        var same = 0u;
        for (var j = 0u; j < GROUP; j += 1u) {
            if (round_digits[group * GROUP + j] == d) {
                same += 1u;
                before += u32(j < lane);
            }
        }
        var running = 0u;
        if (inside) {
            running = group_counts[group * RADIX + d];
        }
        workgroupBarrier();
        // The first key of each digit in the round moves the group's count on.
        if (inside && before == 0u) {
            group_counts[group * RADIX + d] = running + same;
        }
        keys[i] = key;
        digits[i] = d;
        ranks[i] = running + before;
    }
    workgroupBarrier();
    // Groups own consecutive runs, so a group's keys follow those of the groups before it.
    var offset = 0u;
    for (var g = 0u; g < GROUPS; g += 1u) {
        let count = group_counts[g * RADIX + lid];
        group_counts[g * RADIX + lid] = offset;
        offset += count;
    }
    workgroupBarrier();
    for (var i = 0u; i < ITEMS; i += 1u) {
        let d = digits[i];
        if (d < RADIX) {
            let slot = tile_start[d] + group_counts[group * RADIX + d] + ranks[i];
            keys_out[slot] = select(keys[i], from_order(keys[i]), params.transform_out != 0u);
            if (params.has_values != 0u) {
                values_out[slot] = values[i];
            }
        }
    }
}
