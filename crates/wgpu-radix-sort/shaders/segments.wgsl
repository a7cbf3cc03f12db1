//! Segmented sort: the keys cut into segments of `segment_len` (the last may be shorter), each
//! sorted on its own, stably, alone or with values. Composed after `keys.wgsl`.
//!
//! Segments up to a workgroup's `BLOCK` keys: `sort_segments` loads `BLOCK / span` whole segments
//! into workgroup memory (each padded to `span`, its length rounded up to a power of two, with
//! keys that sort last). Each invocation sorts its own run of `RUN` keys in registers
//! (odd-even transposition), then runs are merged pairwise, doubling, within each segment
//! (merge path: each invocation finds where its outputs begin by a binary search, then merges
//! them). Comparisons see the sorted bits of the key; every step takes the earlier key on a
//! tie, so the sort is stable without breaking ties by place. With values, each key carries
//! its place in its segment (16 bits, two to a word) instead of its value, and each value is
//! gathered from its key's place at the end: a value moves once, not every round.
//!
//! Longer segments go through the device-wide sort (`src/segments/long.rs`): `long_start`
//! copies the keys and numbers them, the numbered keys are sorted, `long_segment_ids` replaces
//! each key by its segment, a stable sort of those puts the segments back in order with each
//! one's keys sorted, and `long_gather` and `long_finish` move keys and values to their places.

/// Mirrors `SegmentParams` in `src/segments/mod.rs`.
struct SegmentParams {
    /// Keys in all the segments.
    len: u32,
    segment_len: u32,
    /// `segment_len` rounded up to a power of two (at most `BLOCK`).
    span: u32,
    /// 0: u32 keys, 1: f32 bit patterns, 2: i32.
    key_kind: u32,
    /// 1: largest key first.
    descending: u32,
    /// The bits of the key (in sorting order) that are sorted.
    key_mask: u32,
    /// 1: values travel with the keys.
    has_values: u32,
    _pad: u32,
}

@group(0) @binding(0) var<uniform> params: SegmentParams;
@group(0) @binding(1) var<storage, read_write> keys: array<u32>;
@group(0) @binding(2) var<storage, read_write> values: array<u32>;
/// The long path's keys as the device-wide sort sorts them: the caller's keys, then segments.
@group(0) @binding(3) var<storage, read_write> order_keys: array<u32>;
/// The long path's key numbers: where each key came from.
@group(0) @binding(4) var<storage, read_write> order_index: array<u32>;
/// The long path's values, gathered in their sorted places.
@group(0) @binding(5) var<storage, read_write> gathered_values: array<u32>;

/// Invocations per workgroup of the long path's kernels, and the fewest of `sort_segments`.
const GROUP: u32 = 256u;
/// The most keys a workgroup sorts (`WORKGROUP_SORT_MAX` in `src/segments/mod.rs`), and the
/// most an invocation sorts in registers.
const MOST_BLOCK: u32 = 4096u;
const MOST_RUN: u32 = MOST_BLOCK / GROUP;
/// Invocations per workgroup of `sort_segments`: `GROUP`, or more where the device allows, so
/// that each sorts fewer keys in registers.
override SORT_GROUP: u32 = 256u;
/// Keys per workgroup of `sort_segments`: a power of two from 1024 to `MOST_BLOCK`.
override BLOCK: u32 = 2048u;
/// Whether values travel with the keys.
override WITH_VALUES: bool = true;
/// Keys each invocation sorts in registers and merges per round.
override RUN: u32 = BLOCK / SORT_GROUP;
/// Whether slots are skewed (`skewed`): where the device's workgroup memory holds the extra
/// words.
override SKEW: bool = true;
/// Words of the block's keys: with `SKEW`, a word more for every 32.
override SKEWED: u32 = BLOCK + select(0u, BLOCK / 32u, SKEW);
/// `SKEWED` for keys alone; with values, the words of the places too, two to a word, skewed
/// the same way.
override BLOCK_WORDS: u32 = SKEWED + select(0u, SKEWED / 2u, WITH_VALUES);

/// The keys of the workgroup's segments at [0, SKEWED), each at its `skewed` slot; then
/// (`WITH_VALUES`) each key's place in its segment, two to a word, the word of slots 2w and
/// 2w + 1 at SKEWED + skewed(w).
var<workgroup> block: array<u32, BLOCK_WORDS>;

/// The place in its segment of the key at slot `p` (`WITH_VALUES`).
fn place_at(p: u32) -> u32 {
    return (block[SKEWED + skewed(p >> 1u)] >> ((p & 1u) * 16u)) & 0xffffu;
}

/// Writes the invocation's run of keys `k` (and places `v`) to its slots from `base`.
fn store_run(base: u32, k: ptr<function, array<u32, MOST_RUN>>, v: ptr<function, array<u32, MOST_RUN>>) {
    for (var i = 0u; i < RUN; i++) {
        block[skewed(base + i)] = (*k)[i];
    }
    if WITH_VALUES {
        for (var j = 0u; j < RUN / 2u; j++) {
            block[SKEWED + skewed((base >> 1u) + j)] = (*v)[2u * j] | ((*v)[2u * j + 1u] << 16u);
        }
    }
}

/// Where slot `p` of the block is kept: with `SKEW`, a word skipped after every 32, so that
/// the runs of `RUN` slots (a divisor of 32) that neighbouring invocations read and write fall
/// in different memory banks.
fn skewed(p: u32) -> u32 {
    return p + select(0u, p >> 5u, SKEW);
}

/// Whether `b` sorts before `a`: by the sorted bits alone.
fn before(b: u32, a: u32) -> bool {
    return (b & params.key_mask) < (a & params.key_mask);
}

/// Where slot `slot` of workgroup `group` is in the keys, and whether it holds one (padding
/// past a segment's end or past the last segment holds none).
fn slot_place(group: u32, slot: u32) -> vec2<u32> {
    let span = params.span;
    let segment = group * (BLOCK / span) + slot / span;
    let pos = slot & (span - 1u);
    let at = segment * params.segment_len + pos;
    return vec2<u32>(at, u32(pos < params.segment_len && at < params.len));
}

@compute @workgroup_size(SORT_GROUP)
fn sort_segments(
    @builtin(local_invocation_index) lid: u32,
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let group = wid.y * groups.x + wid.x;
    let span = params.span;
    for (var i = 0u; i < RUN; i++) {
        let slot = i * SORT_GROUP + lid;
        let place = slot_place(group, slot);
        // Padding sorts after every key: all ones, and later than the segment's keys.
        var key = 0xffffffffu;
        if place.y != 0u {
            key = to_order(keys[place.x], true);
        }
        block[skewed(slot)] = key;
    }
    workgroupBarrier();
    // The invocation's own run, sorted in registers: odd-even transposition swaps only keys
    // out of order, so ties keep their order; no swap crosses a segment's end.
    let base = lid * RUN;
    var k: array<u32, MOST_RUN>;
    var v: array<u32, MOST_RUN>;
    for (var i = 0u; i < RUN; i++) {
        k[i] = block[skewed(base + i)];
        v[i] = (base + i) & (span - 1u);
    }
    for (var round = 0u; round < RUN; round++) {
        for (var h = 0u; h < RUN / 2u; h++) {
            let i = 2u * h + (round & 1u);
            if i + 1u < RUN && ((base + i + 1u) & (span - 1u)) != 0u && before(k[i + 1u], k[i]) {
                let key = k[i];
                k[i] = k[i + 1u];
                k[i + 1u] = key;
                let value = v[i];
                v[i] = v[i + 1u];
                v[i + 1u] = value;
            }
        }
    }
    store_run(base, &k, &v);
    workgroupBarrier();
    // Runs of `width` merged pairwise into runs of twice that, until a run is a segment.
    for (var width = RUN; width < span; width <<= 1u) {
        let first = base & ~(2u * width - 1u);
        let diagonal = base - first;
        let b_first = first + width;
        let b_end = b_first + width;
        // How many of the outputs before this invocation's come from the first run: the
        // first `a` such that its key comes after the second run's key it meets.
        var low = select(0u, diagonal - width, diagonal > width);
        var high = min(diagonal, width);
        while low < high {
            let mid = (low + high) >> 1u;
            if before(block[skewed(b_first + diagonal - 1u - mid)], block[skewed(first + mid)]) {
                high = mid;
            } else {
                low = mid + 1u;
            }
        }
        var a = first + low;
        var b = b_first + diagonal - low;
        // Each run's next key (its last once it is used up, never taken then).
        var ka = block[skewed(min(a, b_first - 1u))];
        var kb = block[skewed(min(b, b_end - 1u))];
        for (var i = 0u; i < RUN; i++) {
            let take_a = a < b_first && (b >= b_end || !before(kb, ka));
            k[i] = select(kb, ka, take_a);
            if WITH_VALUES {
                v[i] = place_at(select(b, a, take_a));
            }
            a += u32(take_a);
            b += u32(!take_a);
            let next = block[skewed(select(min(b, b_end - 1u), min(a, b_first - 1u), take_a))];
            ka = select(ka, next, take_a);
            kb = select(next, kb, take_a);
        }
        workgroupBarrier();
        store_run(base, &k, &v);
        workgroupBarrier();
    }
    // Each value gathered from its key's place, in this workgroup's own segments: every read
    // comes before any write.
    if WITH_VALUES {
        for (var i = 0u; i < RUN; i++) {
            let slot = i * SORT_GROUP + lid;
            let place = slot_place(group, slot);
            if place.y != 0u {
                v[i] = values[place.x - (slot & (span - 1u)) + place_at(slot)];
            }
        }
        storageBarrier();
    }
    for (var i = 0u; i < RUN; i++) {
        let slot = i * SORT_GROUP + lid;
        let place = slot_place(group, slot);
        if place.y != 0u {
            keys[place.x] = from_order(block[skewed(slot)], true);
            if WITH_VALUES {
                values[place.x] = v[i];
            }
        }
    }
}

/// The position the invocation stands for in a one-key-per-invocation grid.
fn grid_index(gid: vec3<u32>, groups: vec3<u32>) -> u32 {
    return gid.y * groups.x * GROUP + gid.x;
}

@compute @workgroup_size(GROUP)
fn long_start(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = grid_index(gid, groups);
    if i < params.len {
        order_keys[i] = keys[i];
        order_index[i] = i;
    }
}

@compute @workgroup_size(GROUP)
fn long_segment_ids(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = grid_index(gid, groups);
    if i < params.len {
        order_keys[i] = order_index[i] / params.segment_len;
    }
}

@compute @workgroup_size(GROUP)
fn long_gather(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = grid_index(gid, groups);
    if i < params.len {
        let source = order_index[i];
        order_keys[i] = keys[source];
        if params.has_values != 0u {
            gathered_values[i] = values[source];
        }
    }
}

@compute @workgroup_size(GROUP)
fn long_finish(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = grid_index(gid, groups);
    if i < params.len {
        keys[i] = order_keys[i];
        if params.has_values != 0u {
            values[i] = gathered_values[i];
        }
    }
}
