//! Bitonic rows: each interval of each line sorted by the bitonic network
//! (`src/reference/bitonic.rs` is the CPU model and says what every stage does). Composed after
//! `sort_key.wgsl`.
//!
//! `sort_blocks` runs a range of stages on units of at most BLOCK positions held in workgroup
//! memory: a whole line, a block of a line, or a chunk of whole intervals (`units`). Every stage it
//! runs stays within aligned blocks of BLOCK positions of each interval, so a unit needs nothing
//! from outside. `global_stage` runs one stage whose comparators reach further, in global memory. A
//! dispatch of either reads the state from `src` and writes all of it to `dst`.
//!
//! Pixels are ranked by key, then by their origin (where they stood in their line before the
//! first stage), kept per position in `origins` between dispatches. The rank is one word,
//! key above origin, where both fit 32 bits; WIDE keeps the origin in a second word.

/// Mirrors `BitonicParams` in `src/algorithms/bitonic.rs`.
struct BitonicParams {
    key: u32,
    descending: u32,
    /// 0: rows, 1: columns.
    axis: u32,
    /// Positions per line.
    line_len: u32,
    /// Stages this dispatch runs (`sort_blocks`; `global_stage` runs one).
    stages: u32,
    /// The first stage: merge and distance exponents (`Stage` in the CPU model).
    merge: u32,
    distance: u32,
    /// 1 when `origins` holds the origins (else this is the first stage and each pixel's origin
    /// is where it stands).
    load_origins: u32,
    /// 1 when a later dispatch reads `origins`.
    store_origins: u32,
    /// 1 when `bounds` holds the intervals (else every line is one interval).
    has_intervals: u32,
    /// Bits of the origin in the one-word rank.
    origin_bits: u32,
    /// The key's largest value: a descending rank is `key_max - key`.
    key_max: u32,
    /// Workgroups along x of a `sort_blocks` dispatch (units are numbered row by row).
    groups_x: u32,
    /// Units in `units`.
    unit_count: u32,
    _pad0: u32,
    _pad1: u32,
}

/// Invocations per workgroup of `sort_blocks`, set from the device's limits.
override WORKGROUP: u32 = 256u;
/// Positions a unit holds at most: a power of two that fits workgroup memory.
override BLOCK: u32 = 1024u;
/// Whether the rank takes two words (key, origin): BLOCK, else 1.
override WIDE_CAPACITY: u32 = 1u;
/// Whether intervals are kept per position in workgroup memory: BLOCK, else 1.
override INTERVALS_CAPACITY: u32 = 1u;

@group(0) @binding(0) var src: texture_2d<u32>;
@group(0) @binding(1) var<uniform> params: BitonicParams;
/// This step's slot: exchanges made, then the `sort_lines` workgroups whose subgroups could not
/// shuffle (each took its stages within a subgroup through workgroup memory: barriers the CPU
/// cannot foresee, `BitonicRun::work`).
@group(0) @binding(2) var<storage, read_write> counters: array<atomic<u32>, 2>;
@group(0) @binding(3) var dst: texture_storage_2d<rgba8uint, write>;
/// The picture before the first stage: a unit's pixels are fetched from it by origin (from `src`
/// where nothing has moved yet: `original_pixel`).
@group(0) @binding(4) var input: texture_2d<u32>;
/// Per position (line-major), the origin of the pixel standing there.
@group(0) @binding(5) var<storage, read_write> origins: array<u32>;
/// Per position (line-major), its interval: start << 16 | (length - 1).
@group(0) @binding(6) var<storage, read> bounds: array<u32>;
/// The units of `sort_blocks`: line, first position, length.
@group(0) @binding(7) var<storage, read> units: array<vec4<u32>>;

/// Per position of the unit, the rank's first word: key above origin, or the key (WIDE).
var<workgroup> ranks: array<u32, BLOCK>;
/// Per position, the origin (WIDE only).
var<workgroup> wide_origins: array<u32, WIDE_CAPACITY>;
/// Per position, its interval (with intervals only).
var<workgroup> interval_of: array<u32, INTERVALS_CAPACITY>;
var<workgroup> exchanges: atomic<u32>;

fn coord(line: u32, pos: u32) -> vec2<u32> {
    return select(vec2<u32>(pos, line), vec2<u32>(line, pos), params.axis == 1u);
}

/// The pixel that stood at position `origin` of `line` before the first stage. Before a
/// dispatch's first stage moves anything (`load_origins` 0), `src` holds the picture as it was,
/// so the pixel is read there: from the line just loaded, which the caches still hold, not from
/// a second texture.
fn original_pixel(line: u32, origin: u32) -> vec4<u32> {
    if (params.load_origins == 0u) {
        return textureLoad(src, coord(line, origin), 0);
    }
    return textureLoad(input, coord(line, origin), 0);
}

/// The key in rank order: ascending, or `key_max - key` (the same order as `order_key`'s
/// complement, in as few bits as the key).
fn rank_key(pixel: vec4<u32>) -> u32 {
    let k = sort_key(pixel.rgb, params.key);
    return select(k, params.key_max - k, params.descending != 0u);
}

/// What stage `merge`, `distance` pairs position `a` of an interval with: the bits it flips.
fn partner_mask(merge: u32, distance: u32) -> u32 {
    return select(1u << distance, (1u << merge) - 1u, distance + 1u == merge);
}

fn interval_start_len(word: u32) -> vec2<u32> {
    return vec2<u32>(word >> 16u, (word & 0xffffu) + 1u);
}

/// Whether the pixel at unit position x ranks after the one at y.
fn ranks_after(x: u32, y: u32) -> bool {
    if (WIDE_CAPACITY > 1u) {
        return ranks[x] > ranks[y] || (ranks[x] == ranks[y] && wide_origins[x] > wide_origins[y]);
    }
    return ranks[x] > ranks[y];
}

fn exchange(x: u32, y: u32) {
    let r = ranks[x];
    ranks[x] = ranks[y];
    ranks[y] = r;
    if (WIDE_CAPACITY > 1u) {
        let o = wide_origins[x];
        wide_origins[x] = wide_origins[y];
        wide_origins[y] = o;
    }
}

fn origin_at(x: u32) -> u32 {
    if (WIDE_CAPACITY > 1u) {
        return wide_origins[x];
    }
    return ranks[x] & ((1u << params.origin_bits) - 1u);
}

/// One stage over a unit starting at line position `start` (aligned to the stage's blocks
/// where the line is one interval): returns this invocation's exchanges.
fn unit_stage(merge: u32, distance: u32, start: u32, len: u32, lid: u32) -> u32 {
    var made = 0u;
    let mask = partner_mask(merge, distance);
    if (INTERVALS_CAPACITY > 1u) {
        // Intervals start anywhere: every position looks for a partner after it in its own
        // interval.
        for (var x = lid; x < len; x += WORKGROUP) {
            let interval = interval_start_len(interval_of[x]);
            let a = start + x - interval.x;
            let b = a ^ mask;
            if (b > a && b < interval.y) {
                let y = x + (b - a);
                if (ranks_after(x, y)) { // compare-and-swap
                    exchange(x, y);
                    made += 1u;
                }
            }
        }
    } else {
        // The line is one interval and the unit is aligned: enumerate the pairs of the network of
        // the next power of two. The first member of pair p is p with a 0 put in at bit
        // `distance` (for the flip, `distance` is merge - 1 too); its partner differs there.
        let pairs = (1u << (32u - countLeadingZeros(len - 1u))) / 2u;
        for (var p = lid; p < pairs; p += WORKGROUP) {
            let a = ((p >> distance) << (distance + 1u)) | (p & ((1u << distance) - 1u));
            let b = a ^ mask;
            if (b < len) {
                if (ranks_after(a, b)) { // compare-and-swap
                    exchange(a, b);
                    made += 1u;
                }
            }
        }
    }
    return made;
}

@compute @workgroup_size(WORKGROUP)
fn sort_blocks(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let unit_index = wid.y * params.groups_x + wid.x;
    if (unit_index >= params.unit_count) {
        // The whole workgroup leaves together: no barrier is skipped by only some.
        return;
    }
    let unit = units[unit_index];
    let line = unit.x;
    let start = unit.y;
    let len = unit.z;
    let row = line * params.line_len;
    for (var x = lid; x < len; x += WORKGROUP) {
        let pos = start + x;
        var origin = pos;
        if (params.load_origins != 0u) {
            origin = origins[row + pos];
        }
        let key = rank_key(textureLoad(src, coord(line, pos), 0));
        if (WIDE_CAPACITY > 1u) {
            ranks[x] = key;
            wide_origins[x] = origin;
        } else {
            ranks[x] = (key << params.origin_bits) | origin;
        }
        if (INTERVALS_CAPACITY > 1u) {
            interval_of[x] = bounds[row + pos];
        }
    }
    if (lid == 0u) {
        atomicStore(&exchanges, 0u);
    }
    workgroupBarrier();

    var made = 0u;
    var merge = params.merge;
    var distance = params.distance;
    // `params` is uniform, so every invocation runs the same stages and meets every barrier.
    for (var s = 0u; s < params.stages; s += 1u) {
        made += unit_stage(merge, distance, start, len, lid);
        workgroupBarrier();
        if (distance == 0u) {
            merge += 1u;
            distance = merge - 1u;
        } else {
            distance -= 1u;
        }
    }
    if (made != 0u) {
        atomicAdd(&exchanges, made);
    }

    for (var x = lid; x < len; x += WORKGROUP) {
        let pos = start + x;
        let origin = origin_at(x);
        textureStore(dst, coord(line, pos), original_pixel(line, origin));
        if (params.store_origins != 0u) {
            origins[row + pos] = origin;
        }
    }
    add_exchanges_to_step(lid, 1u);
}

/// Once every invocation has added its exchanges to the workgroup's, each counted `times`
/// times, adds those to this step's counter (called by every invocation, in uniform control
/// flow).
fn add_exchanges_to_step(lid: u32, times: u32) {
    workgroupBarrier();
    if (lid == 0u) {
        let total = atomicLoad(&exchanges) / times;
        if (total != 0u) {
            atomicAdd(&counters[0], total);
        }
    }
}

/// Whether the pixel `p` with origin `po` ranks after `q` with origin `qo`.
fn pixel_ranks_after(p: vec4<u32>, po: u32, q: vec4<u32>, qo: u32) -> bool {
    let kp = rank_key(p);
    let kq = rank_key(q);
    return kp > kq || (kp == kq && po > qo);
}

/// One stage in global memory: the first member of each comparator exchanges both pixels (and
/// their origins) or copies them; a position without a comparator copies itself.
@compute @workgroup_size(64, 1, 1)
fn global_stage(@builtin(global_invocation_id) gid: vec3<u32>) {
    let pos = gid.x;
    let line = gid.y;
    let lines = select(textureDimensions(src).y, textureDimensions(src).x, params.axis == 1u);
    if (pos >= params.line_len || line >= lines) {
        return;
    }
    let row = line * params.line_len;
    var interval = vec2<u32>(0u, params.line_len);
    if (params.has_intervals != 0u) {
        interval = interval_start_len(bounds[row + pos]);
    }
    let a = pos - interval.x;
    let b = a ^ partner_mask(params.merge, params.distance);
    if (b < a) {
        // The comparator's first member writes both.
        return;
    }
    let p = textureLoad(src, coord(line, pos), 0);
    if (b >= interval.y) {
        textureStore(dst, coord(line, pos), p);
        return;
    }
    let other = pos + (b - a);
    let q = textureLoad(src, coord(line, other), 0);
    let po = origins[row + pos];
    let qo = origins[row + other];
    if (pixel_ranks_after(p, po, q, qo)) { // compare-and-swap
        textureStore(dst, coord(line, pos), q);
        textureStore(dst, coord(line, other), p);
        origins[row + pos] = qo;
        origins[row + other] = po;
        atomicAdd(&counters[0], 1u);
    } else {
        textureStore(dst, coord(line, pos), p);
        textureStore(dst, coord(line, other), q);
    }
}
