//! The subgroup ranking for `radix_sort.wgsl` (composed after it): each subgroup finds the
//! keys of its round that share a digit with eight ballots (one per digit bit) instead of
//! comparing digits in workgroup memory, and needs no barrier per round. Used where the
//! adapter has subgroups of one fixed size from 8 to 32 (NVIDIA: 32, lavapipe: 8).
//!
//! naga takes subgroup operations without `enable subgroups;` (and rejects the directive);
//! Tint wants it, so the Tint check in shadersort's tests/shaders.rs (the repository's top) adds it.

/// Subgroups per workgroup: 256 / the subgroup size, set by the pipeline.
override WARPS: u32 = 8u;
/// WARPS * 128: two 16-bit counters per word for each subgroup's 256 digit values.
override WARP_WORDS: u32 = 1024u;
// `rank_run` ranks 16 keys per invocation.
const_assert ITEMS == 16u;

/// Per subgroup and digit (16 bits each): keys ranked so far, then the subgroup's offset among
/// the tile's keys with that digit.
var<workgroup> warp_counts: array<atomic<u32>, WARP_WORDS>;

fn half_of(word: u32, d: u32) -> u32 {
    return (word >> (16u * (d & 1u))) & 0xffffu;
}


/// Clears the counts `rank_run` adds to (`tile_to_sort` does, before its first barrier).
fn clear_counts(lid: u32) {
    for (var w = lid; w < WARP_WORDS; w += WORKGROUP) {
        atomicStore(&warp_counts[w], 0u);
    }
}

/// Ranks the invocation's key `i` (a constant) among the earlier keys of its subgroup with its
/// digit: `lanes` are the subgroup's lanes, `below` the lanes before this one.
fn rank_item(i: u32, warp: u32, lane: u32, lanes: u32, below: u32) {
    let d = item_digit(i);
    // The lanes of this round whose keys have digit d: agree on all eight bits.
    var peers = lanes;
    for (var b = 0u; b < 8u; b += 1u) {
        let bit = ((d >> b) & 1u) == 1u;
        let ones = subgroupBallot(bit).x;
        peers &= select(~ones, ones, bit);
    }
    // The lowest peer moves the subgroup's count for d on and tells the others where it was.
    let leader = countTrailingZeros(peers);
    var before_round = 0u;
    if (leader == lane) {
        let old = atomicAdd(&warp_counts[warp * 128u + d / 2u], countOneBits(peers) << (16u * (d & 1u)));
        before_round = half_of(old, d);
    }
    let running = subgroupShuffle(before_round, leader);
    tile_ranks[i] = running + countOneBits(peers & below);
}

/// Ranks each of the invocation's keys among the earlier keys of its subgroup with its digit.
/// The rounds are written out: in a loop, which NVIDIA's compiler kept, every round chose its
/// digit and its rank's register at run time (a comparison and a move for each of the 16).
fn rank_run(lid: u32, warp: u32, lane: u32, width: u32) {
    let below = (1u << lane) - 1u;
    // Every lane of the subgroup (positions past the end have a digit too: `item_digit`).
    let lanes = select(0xffffffffu, (1u << width) - 1u, width < 32u);
    rank_item(0u, warp, lane, lanes, below);
    rank_item(1u, warp, lane, lanes, below);
    rank_item(2u, warp, lane, lanes, below);
    rank_item(3u, warp, lane, lanes, below);
    rank_item(4u, warp, lane, lanes, below);
    rank_item(5u, warp, lane, lanes, below);
    rank_item(6u, warp, lane, lanes, below);
    rank_item(7u, warp, lane, lanes, below);
    rank_item(8u, warp, lane, lanes, below);
    rank_item(9u, warp, lane, lanes, below);
    rank_item(10u, warp, lane, lanes, below);
    rank_item(11u, warp, lane, lanes, below);
    rank_item(12u, warp, lane, lanes, below);
    rank_item(13u, warp, lane, lanes, below);
    rank_item(14u, warp, lane, lanes, below);
    rank_item(15u, warp, lane, lanes, below);
    workgroupBarrier();
}

/// Turns the subgroups' counts into offsets (subgroups own consecutive runs), two digits per
/// invocation, and leaves the tile's count of each digit in `tile_start`.
fn count_groups(lid: u32) {
    if (lid < RADIX / 2u) {
        var low = 0u;
        var high = 0u;
        for (var w = 0u; w < WARPS; w += 1u) {
            let word = atomicLoad(&warp_counts[w * 128u + lid]);
            atomicStore(&warp_counts[w * 128u + lid], low | (high << 16u));
            low += word & 0xffffu;
            high += word >> 16u;
        }
        tile_start[2u * lid] = low;
        tile_start[2u * lid + 1u] = high;
    }
    workgroupBarrier();
}

/// Each subgroup's total of the tile's counts, for `scan_digits`.
var<workgroup> warp_totals: array<u32, 32>;

/// Each digit's first position in the tile in digit order (`set_local_start`): a subgroup scan
/// over the digits, invocation `warp * width + lane` taking that digit.
fn scan_digits(lid: u32, warp: u32, lane: u32, width: u32) {
    let d = warp * width + lane;
    let count = tile_start[d];
    let inclusive = subgroupInclusiveAdd(count);
    if (lane == width - 1u) {
        warp_totals[warp] = inclusive;
    }
    workgroupBarrier();
    var before = 0u;
    for (var w = 0u; w < warp; w += 1u) {
        before += warp_totals[w];
    }
    set_local_start(d, before + inclusive - count);
    workgroupBarrier();
}

/// Where subgroup `warp`'s keys with digit `d` start among the tile's.
fn group_offset(warp: u32, d: u32) -> u32 {
    return half_of(atomicLoad(&warp_counts[warp * 128u + d / 2u]), d);
}

@compute @workgroup_size(WORKGROUP)
fn scatter(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
    @builtin(subgroup_invocation_id) lane: u32,
    @builtin(subgroup_size) size: u32,
    @builtin(subgroup_id) warp: u32,
) {
    let tile = tile_to_sort(wid, groups, lid, false);
    if (tile < params.tiles) {
        sort_tile(tile, lid, warp, lane, size, false);
    }
}

@compute @workgroup_size(WORKGROUP)
fn onesweep(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
    @builtin(subgroup_invocation_id) lane: u32,
    @builtin(subgroup_size) size: u32,
    @builtin(subgroup_id) warp: u32,
) {
    let tile = tile_to_sort(wid, groups, lid, true);
    if (tile < params.tiles) {
        sort_tile(tile, lid, warp, lane, size, true);
    }
}
