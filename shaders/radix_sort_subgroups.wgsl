//! The fast path's scatter for `radix_sort.wgsl` (composed after it): the same stable ranking,
//! but each subgroup finds the keys of its round that share a digit with eight ballots (one per
//! digit bit) instead of comparing digits in workgroup memory, and needs no barrier per round.
//! Used where the adapter has subgroups of one fixed size from 8 to 32 (NVIDIA: 32, lavapipe: 8).
//!
//! naga takes subgroup operations without `enable subgroups;` (and rejects the directive);
//! Tint wants it, so the Tint check in tests/shaders.rs adds it.

/// Subgroups per workgroup: 256 / the subgroup size, set by the pipeline.
override WARPS: u32 = 8u;
/// WARPS * 128: two 16-bit counters per word for each subgroup's 256 digit values.
override WARP_WORDS: u32 = 1024u;

/// Per subgroup and digit (16 bits each): keys ranked so far, then the subgroup's offset among
/// the tile's keys with that digit.
var<workgroup> warp_counts: array<atomic<u32>, WARP_WORDS>;

fn half_of(word: u32, d: u32) -> u32 {
    return (word >> (16u * (d & 1u))) & 0xffffu;
}

@compute @workgroup_size(WORKGROUP)
fn scatter_subgroups(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
    @builtin(subgroup_invocation_id) lane: u32,
    @builtin(subgroup_size) size: u32,
    @builtin(subgroup_id) warp: u32,
) {
    let tile = tile_index(wid, groups);
    if (tile >= params.tiles) {
        return;
    }
    tile_start[lid] = tile_counts[lid * params.tiles + tile];
    for (var w = lid; w < WARP_WORDS; w += WORKGROUP) {
        atomicStore(&warp_counts[w], 0u);
    }
    workgroupBarrier();

    // A subgroup owns size * ITEMS consecutive keys of the tile and takes `size` per round.
    let begin = tile * TILE + warp * size * ITEMS;
    let below = (1u << lane) - 1u;
    var keys: array<u32, ITEMS>;
    var values: array<u32, ITEMS>;
    var digits: array<u32, ITEMS>;
    var ranks: array<u32, ITEMS>;
    for (var i = 0u; i < ITEMS; i += 1u) {
        let pos = begin + i * size + lane;
        let inside = pos < params.len;
        var key = 0u;
        if (inside) {
            key = read_key(pos);
            if (params.has_values != 0u) {
                values[i] = values_in[pos];
            }
        }
        let d = digit(key);
        // The lanes of this round whose keys have digit d: agree on all eight bits.
        var peers = subgroupBallot(inside).x;
        for (var b = 0u; b < 8u; b += 1u) {
            let bit = ((d >> b) & 1u) == 1u;
            let ones = subgroupBallot(inside && bit).x;
            peers &= select(~ones, ones, bit);
        }
        // The lowest peer moves the subgroup's count for d on and tells the others where it was.
        let leader = select(lane, countTrailingZeros(peers), inside);
        var before_round = 0u;
        if (inside && leader == lane) {
            let old = atomicAdd(&warp_counts[warp * 128u + d / 2u], countOneBits(peers) << (16u * (d & 1u)));
            before_round = half_of(old, d);
        }
        let running = subgroupShuffle(before_round, leader);
        keys[i] = key;
        digits[i] = select(RADIX, d, inside);
        ranks[i] = running + countOneBits(peers & below);
    }
    workgroupBarrier();
    // Subgroups own consecutive runs: offsets over the subgroups, two digits per invocation.
    if (lid < RADIX / 2u) {
        var low = 0u;
        var high = 0u;
        for (var w = 0u; w < WARPS; w += 1u) {
            let word = atomicLoad(&warp_counts[w * 128u + lid]);
            atomicStore(&warp_counts[w * 128u + lid], low | (high << 16u));
            low += word & 0xffffu;
            high += word >> 16u;
        }
    }
    workgroupBarrier();
    for (var i = 0u; i < ITEMS; i += 1u) {
        let d = digits[i];
        if (d < RADIX) {
            let offset = half_of(atomicLoad(&warp_counts[warp * 128u + d / 2u]), d);
            let slot = tile_start[d] + offset + ranks[i];
            keys_out[slot] = select(keys[i], from_order(keys[i]), params.transform_out != 0u);
            if (params.has_values != 0u) {
                values_out[slot] = values[i];
            }
        }
    }
}
