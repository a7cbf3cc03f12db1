//! The subgroup ranking for `radix_sort.wgsl` (composed after it): each subgroup finds the
//! keys of its round that share a digit from eight ballots (one per digit bit) instead of
//! comparing digits in workgroup memory, and needs no barrier per round. The ballots of all 16
//! rounds come at once from a bit transpose of the lanes' digits across the subgroup
//! (`store_ballots`). Used where the adapter has subgroups of one fixed size from 8 to 32
//! (NVIDIA: 32, lavapipe: 8).
//!
//! naga takes subgroup operations without `enable subgroups;` (and rejects the directive);
//! Tint wants it, so the Tint check in shadersort's tests/shaders.rs (the repository's top) adds it.

/// Subgroups per workgroup: WORKGROUP / the subgroup size, set by the pipeline.
override WARPS: u32 = 8u;
/// WARPS * 128: two 16-bit counters per word for each subgroup's 256 digit values.
override WARP_WORDS: u32 = 1024u;
/// Lanes per subgroup (the pipeline sets `WARPS`, so this is a constant to the driver).
override WIDTH: u32 = WORKGROUP / WARPS;
// `rank_run` ranks 16 keys per invocation.
const_assert ITEMS == 16u;

/// Until the tile is reordered, `tile_memory` also holds each subgroup's count per digit (16 bits
/// each, WARP_WORDS words at COUNTS_AT: keys ranked so far, then the subgroup's offset among the
/// tile's keys with that digit) and each subgroup's ballots of its 16 rounds (BALLOT_WORDS at
/// BALLOTS_AT: which of its lanes' keys have each digit bit set), as `store_ballots` leaves them:
/// 4 * WIDTH words a subgroup, one per lane for each four rounds.
///
/// Ranking reads a round's eight ballots from workgroup memory instead of asking the subgroup
/// eight times: on an H100 each `subgroupBallot` compiled to about seven instructions, the
/// active mask computed again for each.
///
/// On an H100 a workgroup of more than about 15.5 KiB ran the sort slower, and one of at most
/// 11.5 KiB sorted keys faster but pairs slower (numbers: docs/benchmarks/radix-history.md in
/// the repository). So where the tile is reordered, the ballots take the tile order's words
/// until then (`count_groups` clears them again), and for keys-only sorts (`SHARED_COUNTS`) the
/// counts do too: 10 KiB a workgroup with subgroups of 32, against 14 KiB for pairs.
override SHARED_COUNTS: bool = false;
/// The counts share the tile order's words, so `reorder_tile` finds every position before it
/// clears the order.
override COUNTS_IN_ORDER: bool = SHARED_COUNTS && REORDER;
/// Set, with `SHARED_COUNTS` and `REORDER`, for short sorts (`KEYS_IN_ORDER_UP_TO` in
/// `src/lib.rs`): each invocation keeps its keys in registers through the ranking, and the tile
/// order holds the keys themselves, a word each (TILE words), then the values: the write
/// gathers nothing from the input. It takes 18 KiB and more registers, so fewer workgroups fit
/// an SM: faster while the whole sort's tiles run at once, slower beyond.
override KEYS_IN_ORDER: bool = false;
/// Set with `KEYS_IN_ORDER` in the kernel for pairs: the values follow the keys through the
/// tile order. (One kernel for both, testing the sort's parameter, ran keys-only sorts slower
/// on an H100; numbers: docs/benchmarks/radix-history.md in the repository.)
override VALUES_IN_ORDER: bool = false;
/// Four words per invocation (at most TILE / 2: the tile order's words hold them).
override BALLOT_WORDS: u32 = 4u * WORKGROUP;
override COUNTS_AT: u32 = select(REORDER_WORDS, 0u, SHARED_COUNTS);
override BALLOTS_AT: u32 = select(select(REORDER_WORDS + WARP_WORDS, 0u, REORDER), WARP_WORDS, SHARED_COUNTS);
override TILE_MEMORY_WORDS: u32 = select(
    select(REORDER_WORDS + WARP_WORDS + BALLOT_WORDS, REORDER_WORDS + WARP_WORDS, REORDER),
    max(WARP_WORDS + BALLOT_WORDS, select(REORDER_WORDS, TILE, KEYS_IN_ORDER)),
    SHARED_COUNTS,
);

fn half_of(word: u32, d: u32) -> u32 {
    return (word >> (16u * (d & 1u))) & 0xffffu;
}

/// Clears the counts `rank_run` adds to (`tile_to_sort` does, before its first barrier).
fn clear_counts(lid: u32) {
    for (var w = lid; w < WARP_WORDS; w += WORKGROUP) {
        atomicStore(&tile_memory[COUNTS_AT + w], 0u);
    }
}

fn store_ballot(w: u32, x: u32) {
    atomicStore(&tile_memory[BALLOTS_AT + w], x);
}

fn ballot(w: u32) -> u32 {
    return atomicLoad(&tile_memory[BALLOTS_AT + w]);
}

/// One step of the transpose: lanes `s` apart swap the bits whose index differs from their own
/// lane in bit `s` (`low` has the bits whose index has bit `s` clear).
fn swap_blocks(x: u32, lane: u32, s: u32, low: u32) -> u32 {
    let other = subgroupShuffleXor(x, s);
    if ((lane & s) == 0u) {
        return (x & low) | ((other & low) << s);
    }
    return ((other >> s) & low) | (x & ~low);
}

/// Stores the ballots of rounds 4q to 4q + 3. The lanes' digits of those rounds, four to a
/// word, form a WIDTH x 32 bit matrix; transposed in WIDTH x WIDTH blocks across the subgroup,
/// lane j's block c holds the ballot of round 4q + c * WIDTH / 8 + j / 8 and digit bit j % 8.
fn store_ballots(q: u32, warp: u32, lane: u32) {
    var x = item_digit(4u * q) | (item_digit(4u * q + 1u) << 8u) | (item_digit(4u * q + 2u) << 16u)
        | (item_digit(4u * q + 3u) << 24u);
    if (WIDTH > 16u) {
        x = swap_blocks(x, lane, 16u, 0x0000ffffu);
    }
    if (WIDTH > 8u) {
        x = swap_blocks(x, lane, 8u, 0x00ff00ffu);
    }
    x = swap_blocks(x, lane, 4u, 0x0f0f0f0fu);
    x = swap_blocks(x, lane, 2u, 0x33333333u);
    x = swap_blocks(x, lane, 1u, 0x55555555u);
    store_ballot(4u * warp * WIDTH + q * WIDTH + lane, x);
}

/// Ballot `word` of a round, kept to its block: the round's `c`th block of the subgroup's words.
fn block(word: u32, c: u32) -> u32 {
    if (WIDTH == 32u) {
        return word;
    }
    return (word >> (c * WIDTH)) & (0xffffffffu >> (32u - WIDTH));
}

/// The lanes whose bit `b` of their digit agrees with `d`'s, given the ballot `ones` of that bit.
fn agree(ones: u32, d: u32, b: u32) -> u32 {
    return select(~ones, ones, ((d >> b) & 1u) != 0u);
}

/// Ranks the invocation's key `i` (a constant) among the earlier keys of its subgroup with its
/// digit: `lanes` are the subgroup's lanes, `below` the lanes before this one.
fn rank_item(i: u32, warp: u32, lane: u32, lanes: u32, below: u32) {
    let d = item_digit(i);
    // Where `store_ballots` left round i's eight ballots: lanes 8k to 8k + 7 of block c.
    let per_block = WIDTH / 8u;
    let c = (i % 4u) / per_block;
    let first = 4u * warp * WIDTH + (i / 4u) * WIDTH + 8u * ((i % 4u) % per_block);
    // The lanes of this round whose keys have digit d: agree on all eight bits.
    let peers = agree(block(ballot(first), c), d, 0u) & agree(block(ballot(first + 1u), c), d, 1u)
        & agree(block(ballot(first + 2u), c), d, 2u) & agree(block(ballot(first + 3u), c), d, 3u)
        & agree(block(ballot(first + 4u), c), d, 4u) & agree(block(ballot(first + 5u), c), d, 5u)
        & agree(block(ballot(first + 6u), c), d, 6u) & agree(block(ballot(first + 7u), c), d, 7u) & lanes;
    // The highest peer moves the subgroup's count for d on and tells the others where it was
    // (the highest: one instruction on an H100, where the lowest took three).
    let leader = 31u - countLeadingZeros(peers);
    var before_round = 0u;
    if (leader == lane) {
        let old = atomicAdd(&tile_memory[COUNTS_AT + warp * 128u + d / 2u], countOneBits(peers) << (16u * (d & 1u)));
        before_round = half_of(old, d);
    }
    let running = subgroupShuffle(before_round, leader);
    set_item_rank(i, running + countOneBits(peers & below));
}

/// Ranks each of the invocation's keys among the earlier keys of its subgroup with its digit.
/// The rounds are written out: in a loop, which NVIDIA's compiler kept, every round chose its
/// digit and its rank's register at run time (a comparison and a move for each of the 16).
fn rank_run(lid: u32, warp: u32, lane: u32, width: u32) {
    let below = (1u << lane) - 1u;
    // Every lane of the subgroup (positions past the end have a digit too: `item_digit`).
    let lanes = select(0xffffffffu, (1u << width) - 1u, width < 32u);
    store_ballots(0u, warp, lane);
    store_ballots(1u, warp, lane);
    store_ballots(2u, warp, lane);
    store_ballots(3u, warp, lane);
    workgroupBarrier();
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
    // The ballots' words of the tile order, cleared for the reorder's atomicOr (with shared
    // counts, `reorder_tile` clears the order itself).
    if (REORDER && !SHARED_COUNTS) {
        for (var w = lid; w < BALLOT_WORDS; w += WORKGROUP) {
            atomicStore(&tile_memory[BALLOTS_AT + w], 0u);
        }
    }
    if (lid < RADIX / 2u) {
        var low = 0u;
        var high = 0u;
        for (var w = 0u; w < WARPS; w += 1u) {
            let word = atomicLoad(&tile_memory[COUNTS_AT + w * 128u + lid]);
            atomicStore(&tile_memory[COUNTS_AT + w * 128u + lid], low | (high << 16u));
            low += word & 0xffffu;
            high += word >> 16u;
        }
        tile_start[2u * lid] = low;
        tile_start[2u * lid + 1u] = high;
    }
    workgroupBarrier();
}

/// Room for each subgroup's total: as many as subgroups of 8 make. (Workgroup arrays take a
/// named override as their size: naga cannot size one by an expression of overrides.)
override WARP_TOTALS: u32 = WORKGROUP / 8u;
/// Each subgroup's total of the tile's counts, for `scan_digits`.
var<workgroup> warp_totals: array<u32, WARP_TOTALS>;

/// Each digit's first position in the tile in digit order (`set_local_start`): a subgroup scan
/// over the digits, invocation `warp * width + lane` taking that digit.
fn scan_digits(lid: u32, warp: u32, lane: u32, width: u32) {
    let d = warp * width + lane;
    var count = 0u;
    if (d < RADIX) {
        count = tile_start[d];
    }
    let inclusive = subgroupInclusiveAdd(count);
    if (lane == width - 1u) {
        warp_totals[warp] = inclusive;
    }
    workgroupBarrier();
    var before = 0u;
    for (var w = 0u; w < warp; w += 1u) {
        before += warp_totals[w];
    }
    if (d < RADIX) {
        set_local_start(d, before + inclusive - count);
    }
    workgroupBarrier();
}

/// Where subgroup `warp`'s keys with digit `d` start among the tile's.
fn group_offset(warp: u32, d: u32) -> u32 {
    return half_of(atomicLoad(&tile_memory[COUNTS_AT + warp * 128u + d / 2u]), d);
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
