//! LSD radix sort of every sequence (each line, or the whole picture in scanline order), one
//! digit pass at a time, moving whole pixels between two textures: the classic three kernels.
//!
//! 1. `count_digits`: each tile of a sequence counts its pixels per digit value.
//! 2. `scan_counts`: per sequence, an exclusive prefix sum over the counts laid out digit-major
//!    (all tiles' counts of digit 0, then of digit 1, ...), which gives every (digit, tile) the
//!    first slot its pixels go to.
//! 3. `scatter`: each tile sends its pixels to those slots in input order. Within a tile, a
//!    pixel's rank is the number of earlier pixels of the tile with the same digit, so pixels
//!    with equal digits keep their order: the scatter is stable, which is what LSD needs.
//!
//! Within intervals every pixel carries its interval id (`src_intervals` to `dst_intervals`, moved
//! with it) and the key is composite, the interval id above the key: its digits come last, so
//! earlier passes may move pixels across intervals and the last ones put every pixel back into its
//! interval.
//!
//! `dim` shows the target of a pass being overwritten: the pass's input at quarter brightness,
//! before the first stage of a scatter shown in stages. Composed after `sort_key.wgsl`.

/// Mirrors `RadixParams` in `src/algorithms/radix.rs`.
struct RadixParams {
    key: u32,
    descending: u32,
    /// 0: rows, 1: columns.
    axis: u32,
    /// 0: each line is a sequence, 1: the whole picture is one.
    scope: u32,
    /// Low bits dropped from the sort key.
    key_shift: u32,
    /// 2^key_bits - 1.
    key_mask: u32,
    /// pass * digit_bits.
    digit_shift: u32,
    /// 2^digit_bits - 1: the digit values are 0..=digit_mask.
    digit_mask: u32,
    /// Pixels per sequence.
    seq_len: u32,
    /// Tiles per sequence.
    tiles: u32,
    /// Sequences times tiles.
    all_tiles: u32,
    /// Tile chunks: a tile holds TILE_CHUNK * chunks pixels.
    chunks: u32,
    /// Positions scatter_begin..scatter_end of each sequence are scattered by this dispatch.
    scatter_begin: u32,
    scatter_end: u32,
    /// 1: the alpha byte is a recorder palette index below 128, and a waiting pixel takes the
    /// index of its dimmed twin, index + 128.
    twin_indices: u32,
    /// 1: pixels carry interval ids (`src_intervals`, `dst_intervals`) above their keys; 0: no
    /// intervals.
    intervals: u32,
    /// Where the interval id sits in the composite key: the key's bits.
    interval_shift: u32,
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
}

/// Pixels a workgroup handles at once, one per invocation.
const TILE_CHUNK: u32 = 256u;
/// Most digit values: 8-bit digits.
const MAX_BUCKETS: u32 = 256u;

@group(0) @binding(0) var src: texture_2d<u32>;
@group(0) @binding(1) var<uniform> params: RadixParams;
/// This step's slot: pixels moved.
@group(0) @binding(2) var<storage, read_write> moved: atomic<u32>;
@group(0) @binding(3) var dst: texture_storage_2d<rgba8uint, write>;
/// Per sequence, digit-major: counts[seq * buckets * tiles + digit * tiles + tile].
@group(0) @binding(4) var<storage, read_write> counts: array<u32>;
/// The interval id each pixel of `src` carries (1x1 and unused without intervals).
@group(0) @binding(5) var src_intervals: texture_2d<u32>;
/// The interval ids of `dst`, written with the pixels.
@group(0) @binding(6) var dst_intervals: texture_storage_2d<r32uint, write>;

/// The texel of position `pos` of sequence `seq`. Mirrors `Sequences::index`.
fn texel(seq: u32, pos: u32) -> vec2<u32> {
    let dims = textureDimensions(src);
    if (params.scope == 1u) {
        if (params.axis == 1u) {
            return vec2<u32>(pos / dims.y, pos % dims.y);
        }
        return vec2<u32>(pos % dims.x, pos / dims.x);
    }
    return select(vec2<u32>(pos, seq), vec2<u32>(seq, pos), params.axis == 1u);
}

/// The interval id the pixel at texel `t` of `src` carries (0 without intervals).
fn interval_of(t: vec2<u32>) -> u32 {
    if (params.intervals == 0u) {
        return 0u;
    }
    return textureLoad(src_intervals, t, 0).r;
}

/// The quantised key in sorting order, with the interval id above it. Mirrors
/// `RadixKey::in_interval`.
fn radix_key(c: vec3<u32>, interval: u32) -> u32 {
    let q = sort_key(c, params.key) >> params.key_shift;
    return (interval << params.interval_shift) | select(q, params.key_mask - q, params.descending != 0u);
}

/// This pass's digit of a pixel in interval `interval`. Mirrors `RadixKey::digit_in_interval`.
fn radix_digit(c: vec3<u32>, interval: u32) -> u32 {
    return (radix_key(c, interval) >> params.digit_shift) & params.digit_mask;
}

/// The tile a workgroup works on (dispatches are two-dimensional when there are many tiles).
fn tile_of(wid: vec3<u32>, groups: vec3<u32>) -> u32 {
    return wid.y * groups.x + wid.x;
}

var<workgroup> histogram: array<atomic<u32>, MAX_BUCKETS>;

@compute @workgroup_size(TILE_CHUNK)
fn count_digits(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let tile = tile_of(wid, groups);
    // Uniform: the whole workgroup leaves together.
    if (tile >= params.all_tiles) {
        return;
    }
    let seq = tile / params.tiles;
    let t = tile % params.tiles;
    let buckets = params.digit_mask + 1u;
    atomicStore(&histogram[lid], 0u);
    workgroupBarrier();
    let begin = t * TILE_CHUNK * params.chunks;
    for (var c = 0u; c < params.chunks; c += 1u) {
        let pos = begin + c * TILE_CHUNK + lid;
        if (pos < params.seq_len) {
            let t = texel(seq, pos);
            let d = radix_digit(textureLoad(src, t, 0).rgb, interval_of(t));
            atomicAdd(&histogram[d], 1u);
        }
    }
    workgroupBarrier();
    if (lid < buckets) {
        counts[(seq * buckets + lid) * params.tiles + t] = atomicLoad(&histogram[lid]);
    }
}

var<workgroup> partial_sums: array<u32, TILE_CHUNK>;

@compute @workgroup_size(TILE_CHUNK)
fn scan_counts(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let n = (params.digit_mask + 1u) * params.tiles;
    let base = wid.x * n;
    // Each invocation sums a contiguous span of the sequence's counts ...
    let per = (n + TILE_CHUNK - 1u) / TILE_CHUNK;
    let begin = min(lid * per, n);
    let end = min(begin + per, n);
    var sum = 0u;
    for (var i = begin; i < end; i += 1u) {
        sum += counts[base + i];
    }
    // ... the spans' sums are scanned across the workgroup (Hillis-Steele, inclusive) ...
    partial_sums[lid] = sum;
    workgroupBarrier();
    for (var offset = 1u; offset < TILE_CHUNK; offset *= 2u) {
        var add = 0u;
        if (lid >= offset) {
            add = partial_sums[lid - offset];
        }
        workgroupBarrier();
        partial_sums[lid] += add;
        workgroupBarrier();
    }
    // ... and each span is rewritten as exclusive prefix sums starting from its span's offset.
    var running = partial_sums[lid] - sum;
    for (var i = begin; i < end; i += 1u) {
        let count = counts[base + i];
        counts[base + i] = running;
        running += count;
    }
}

/// Each digit's next free slot in the sequence, for the tile being scattered.
var<workgroup> next_slot: array<u32, MAX_BUCKETS>;
/// The digits of the chunk being scattered (MAX_BUCKETS for positions past the end).
var<workgroup> chunk_digits: array<u32, TILE_CHUNK>;
/// How many pixels of the chunk have each digit.
var<workgroup> chunk_counts: array<atomic<u32>, MAX_BUCKETS>;

@compute @workgroup_size(TILE_CHUNK)
fn scatter(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let tile = tile_of(wid, groups);
    if (tile >= params.all_tiles) {
        return;
    }
    let seq = tile / params.tiles;
    let t = tile % params.tiles;
    let buckets = params.digit_mask + 1u;
    if (lid < buckets) {
        next_slot[lid] = counts[(seq * buckets + lid) * params.tiles + t];
    }
    atomicStore(&chunk_counts[lid], 0u);
    workgroupBarrier();
    var my_moves = 0u;
    let begin = t * TILE_CHUNK * params.chunks;
    for (var c = 0u; c < params.chunks; c += 1u) {
        let pos = begin + c * TILE_CHUNK + lid;
        let inside = pos < params.seq_len;
        var pixel = vec4<u32>(0u);
        var interval = 0u;
        var d = MAX_BUCKETS;
        if (inside) {
            let t = texel(seq, pos);
            pixel = textureLoad(src, t, 0);
            interval = interval_of(t);
            d = radix_digit(pixel.rgb, interval);
            atomicAdd(&chunk_counts[d], 1u);
        }
        chunk_digits[lid] = d;
        workgroupBarrier();
        if (inside) {
            // Stable rank: earlier pixels of the chunk with the same digit go first.
            var rank = 0u;
            for (var j = 0u; j < lid; j += 1u) {
                rank += u32(chunk_digits[j] == d);
            }
            let slot = next_slot[d] + rank;
            if (pos >= params.scatter_begin && pos < params.scatter_end) {
                textureStore(dst, texel(seq, slot), pixel); // scatter
                if (params.intervals != 0u) {
                    textureStore(dst_intervals, texel(seq, slot), vec4<u32>(interval, 0u, 0u, 0u));
                }
                my_moves += u32(slot != pos);
            }
        }
        workgroupBarrier();
        // The chunk's pixels took their slots: the next chunk starts after them.
        if (lid < buckets) {
            next_slot[lid] += atomicLoad(&chunk_counts[lid]);
        }
        atomicStore(&chunk_counts[lid], 0u);
        workgroupBarrier();
    }
    if (my_moves != 0u) {
        atomicAdd(&moved, my_moves);
    }
}

/// A pixel waiting to be overwritten: a quarter of its brightness (and its dimmed twin's
/// palette index when recording). Mirrors `dim` in `src/reference/radix.rs`.
@compute @workgroup_size(16, 16)
fn dim(@builtin(global_invocation_id) gid: vec3<u32>) {
    let dims = textureDimensions(src);
    if (gid.x < dims.x && gid.y < dims.y) {
        let c = textureLoad(src, gid.xy, 0);
        let a = select(c.a, c.a | 0x80u, params.twin_indices != 0u);
        textureStore(dst, gid.xy, vec4<u32>(c.rgb >> vec3<u32>(2u), a));
    }
}
