//! `sort_lines`: `sort_blocks` for whole lines without runs whose ranks take at most 31 bits,
//! with the ranks held in registers. Composed after `bitonic.wgsl`, whose stages it runs and whose states
//! it makes, exactly.
//!
//! Invocation t holds positions HELD x t ... HELD x t + HELD - 1 of the line (positions past its
//! end hold ranks above every pixel's, which no comparator moves: the same as leaving those
//! comparators out). A stage whose partners lie within HELD positions runs in the invocation's
//! registers, one within a subgroup on shuffles (`bitonic_shuffle.wgsl`), a further one through
//! workgroup memory: each invocation writes its ranks and, after a barrier, reads its
//! partner's. Loads and stores are coalesced (neighbouring invocations, neighbouring positions)
//! and go through workgroup memory to and from the invocations that hold the positions.
//!
//! What made it fast on an H200 (BENCHMARKS.md has each step): a dispatch of the whole network
//! runs loops with constant bounds, so the compiler settles every stage's kind; workgroup memory
//! is reached by row and constant word (no bounds check per word, 42 registers instead of 83);
//! a comparator across invocations is one comparison, one select and one add on each side, and
//! one within registers counts its exchange from the sign of a difference.

/// Positions an invocation holds.
const HELD: u32 = 16u;
/// Merges in the network of a line of HELD x WORKGROUP positions (its log2): a dispatch that
/// runs all of them takes `whole_network`, whose loops have constant bounds. 0: none does.
override MERGES: u32 = 0u;
/// Rows of `line_ranks`: WORKGROUP, or 1 where `sort_lines` is not built.
override LINE_ROWS: u32 = 1u;
/// The subgroup size where stages within a subgroup run on shuffles (`bitonic_shuffle.wgsl`),
/// else 1.
override SUBGROUP_SIZE: u32 = 1u;
/// Masks below this run on shuffles: HELD x SUBGROUP_SIZE, or 0 without them.
override SHUFFLE_REACH: u32 = 0u;
/// Invocations of this workgroup whose subgroup's lanes do not follow
/// `local_invocation_index`: any, and the workgroup takes no stage on shuffles.
var<workgroup> shuffle_misfits: atomic<u32>;
/// 1 when the workgroup takes stages on shuffles (read by all through `workgroupUniformLoad`).
var<workgroup> shuffles_ok: u32;

/// Words of a row of `line_ranks`: one more than HELD, so that the invocations of a subgroup,
/// reading or writing the same register, meet different banks.
const ROW_WORDS: u32 = HELD + 1u;
/// The line's ranks while they go between invocations: row t holds invocation t's, register i
/// in word i. Registers are named by constants, so only the row is checked against the bounds
/// and the words of a row are reached at constant offsets from it.
var<workgroup> line_ranks: array<array<u32, ROW_WORDS>, LINE_ROWS>;

// The ranks an invocation holds, one variable each, so that no index is computed at run time
// (an array measured the same on an H100).
var<private> r0: u32;
var<private> r1: u32;
var<private> r2: u32;
var<private> r3: u32;
var<private> r4: u32;
var<private> r5: u32;
var<private> r6: u32;
var<private> r7: u32;
var<private> r8: u32;
var<private> r9: u32;
var<private> r10: u32;
var<private> r11: u32;
var<private> r12: u32;
var<private> r13: u32;
var<private> r14: u32;
var<private> r15: u32;
/// Exchanges of comparators across invocations that this invocation took part in (each is
/// counted by both sides).
var<private> made: u32;
/// Exchanges of comparators within this invocation's registers.
var<private> made_within: u32;
/// Whether exchanges are counted (the step's swap count): off only to measure what counting
/// costs (`bench sorts --bitonic-without-counts`).
override COUNT_EXCHANGES: bool = true;

/// The comparator of held ranks `a` (the lower position) and `b`.
fn held_exchange(a: ptr<private, u32>, b: ptr<private, u32>) {
    let x = *a;
    let y = *b;
    *a = min(x, y);
    *b = max(x, y);
    if (COUNT_EXCHANGES) {
        // Ranks are below 2^31, so the sign of y - x is set exactly when x > y: one subtraction
        // and one shift-and-add, instead of a comparison, a select and an add.
        made_within += (y - x) >> 31u;
    }
}

/// Mask 1: neighbours (a half-cleaner of 2, and the flip of a merge of 2).
fn held_half_1() {
    held_exchange(&r0, &r1);
    held_exchange(&r2, &r3);
    held_exchange(&r4, &r5);
    held_exchange(&r6, &r7);
    held_exchange(&r8, &r9);
    held_exchange(&r10, &r11);
    held_exchange(&r12, &r13);
    held_exchange(&r14, &r15);
}

/// Mask 2: a half-cleaner of 4.
fn held_half_2() {
    held_exchange(&r0, &r2);
    held_exchange(&r1, &r3);
    held_exchange(&r4, &r6);
    held_exchange(&r5, &r7);
    held_exchange(&r8, &r10);
    held_exchange(&r9, &r11);
    held_exchange(&r12, &r14);
    held_exchange(&r13, &r15);
}

/// Mask 3: the flip of a merge of 4.
fn held_flip_4() {
    held_exchange(&r0, &r3);
    held_exchange(&r1, &r2);
    held_exchange(&r4, &r7);
    held_exchange(&r5, &r6);
    held_exchange(&r8, &r11);
    held_exchange(&r9, &r10);
    held_exchange(&r12, &r15);
    held_exchange(&r13, &r14);
}

/// Mask 4: a half-cleaner of 8.
fn held_half_4() {
    held_exchange(&r0, &r4);
    held_exchange(&r1, &r5);
    held_exchange(&r2, &r6);
    held_exchange(&r3, &r7);
    held_exchange(&r8, &r12);
    held_exchange(&r9, &r13);
    held_exchange(&r10, &r14);
    held_exchange(&r11, &r15);
}

/// Mask 7: the flip of a merge of 8.
fn held_flip_8() {
    held_exchange(&r0, &r7);
    held_exchange(&r1, &r6);
    held_exchange(&r2, &r5);
    held_exchange(&r3, &r4);
    held_exchange(&r8, &r15);
    held_exchange(&r9, &r14);
    held_exchange(&r10, &r13);
    held_exchange(&r11, &r12);
}

/// Mask 8: a half-cleaner of 16.
fn held_half_8() {
    held_exchange(&r0, &r8);
    held_exchange(&r1, &r9);
    held_exchange(&r2, &r10);
    held_exchange(&r3, &r11);
    held_exchange(&r4, &r12);
    held_exchange(&r5, &r13);
    held_exchange(&r6, &r14);
    held_exchange(&r7, &r15);
}

/// Mask 15: the flip of a merge of 16.
fn held_flip_16() {
    held_exchange(&r0, &r15);
    held_exchange(&r1, &r14);
    held_exchange(&r2, &r13);
    held_exchange(&r3, &r12);
    held_exchange(&r4, &r11);
    held_exchange(&r5, &r10);
    held_exchange(&r6, &r9);
    held_exchange(&r7, &r8);
}

/// A stage whose partners lie within the invocation (mask 1, 2, 4 or 8 for a half-cleaner; 1, 3,
/// 7 or 15 for a flip).
fn held_stage(mask: u32) {
    switch mask {
        case 1u: { held_half_1(); }
        case 2u: { held_half_2(); }
        case 3u: { held_flip_4(); }
        case 4u: { held_half_4(); }
        case 7u: { held_flip_8(); }
        case 8u: { held_half_8(); }
        default: { held_flip_16(); }
    }
}

/// The half-cleaners of distance `distance` (below 4) down to 0 of a merge, in a row: the rest
/// of the merge, without a stage's dispatch between them.
fn held_tail(distance: u32) {
    if (distance >= 3u) {
        held_half_8();
    }
    if (distance >= 2u) {
        held_half_4();
    }
    if (distance >= 1u) {
        held_half_2();
    }
    held_half_1();
}

/// The rank of the pixel at `pos` of `line`: below 2^31, as `sort_lines` takes only keys and
/// origins of at most 31 bits. Past the line's end (`len`) the ranks are above every pixel's,
/// unique and ascending (2^31 - HELD x WORKGROUP + pos), so that no comparator moves them and no
/// two ranks are equal. A pixel's rank is below 2^31 - HELD x WORKGROUP + len: its origin is
/// below `len`; where key and origin take all 31 bits the origin takes at least 12 (no key is
/// wider than 19), so HELD x WORKGROUP, the next power of two from `len` or 512, is at most
/// 2^origin_bits; with fewer bits the rank is below 2^30. Positions past the end load the
/// line's last pixel and drop it, so that no load waits on a branch and the compiler can issue
/// all of an invocation's loads at once.
fn load_rank(line: u32, row: u32, pos: u32, len: u32) -> u32 {
    let at = min(pos, len - 1u);
    var origin = at;
    if (params.load_origins != 0u) {
        origin = origins[row + at];
    }
    let rank = (rank_key(textureLoad(src, coord(line, at), 0)) << params.origin_bits) | origin;
    return select(0x80000000u - (HELD * WORKGROUP - pos), rank, pos < len);
}

/// Writes the pixel whose rank is `rank` at `pos` (nothing past the line's end; the gather
/// happens either way, from within the line, so that it need not wait on a branch).
fn store_rank(line: u32, row: u32, pos: u32, len: u32, rank: u32) {
    let origin = min(rank & ((1u << params.origin_bits) - 1u), len - 1u);
    let pixel = original_pixel(line, origin);
    if (pos >= len) {
        return;
    }
    textureStore(dst, coord(line, pos), pixel);
    if (params.store_origins != 0u) {
        origins[row + pos] = origin;
    }
}

/// The new rank of one side of a comparator: `mine` against the partner's `other`, where
/// `lower` says whether this side holds the lower position (which keeps the smaller rank).
/// Ranks are unique (padding included), so a side takes its partner's rank exactly when the
/// comparator exchanges, and both sides count it: one comparison, one select, one add.
fn exchanged(lower: bool, mine: u32, other: u32) -> u32 {
    let take = (mine > other) == lower;
    if (COUNT_EXCHANGES) {
        made += select(0u, 1u, take);
    }
    return select(mine, other, take);
}

/// Writes the held ranks to row `row` of `line_ranks`.
fn share_held(row: u32) {
    line_ranks[row][0] = r0;
    line_ranks[row][1] = r1;
    line_ranks[row][2] = r2;
    line_ranks[row][3] = r3;
    line_ranks[row][4] = r4;
    line_ranks[row][5] = r5;
    line_ranks[row][6] = r6;
    line_ranks[row][7] = r7;
    line_ranks[row][8] = r8;
    line_ranks[row][9] = r9;
    line_ranks[row][10] = r10;
    line_ranks[row][11] = r11;
    line_ranks[row][12] = r12;
    line_ranks[row][13] = r13;
    line_ranks[row][14] = r14;
    line_ranks[row][15] = r15;
}

/// Reads the held ranks from row `row` of `line_ranks`.
fn take_held(row: u32) {
    r0 = line_ranks[row][0];
    r1 = line_ranks[row][1];
    r2 = line_ranks[row][2];
    r3 = line_ranks[row][3];
    r4 = line_ranks[row][4];
    r5 = line_ranks[row][5];
    r6 = line_ranks[row][6];
    r7 = line_ranks[row][7];
    r8 = line_ranks[row][8];
    r9 = line_ranks[row][9];
    r10 = line_ranks[row][10];
    r11 = line_ranks[row][11];
    r12 = line_ranks[row][12];
    r13 = line_ranks[row][13];
    r14 = line_ranks[row][14];
    r15 = line_ranks[row][15];
}

/// One held rank against the partner's, word `word` of row `row` of `line_ranks`.
fn shared_exchange(lower: bool, rank: ptr<private, u32>, row: u32, word: u32) {
    *rank = exchanged(lower, *rank, line_ranks[row][word]);
}

/// A stage through workgroup memory: every invocation writes its ranks and, after a barrier,
/// reads its partner's (the same registers in a half-cleaner, the mirrored ones in a flip).
fn shared_stage(mask: u32, lid: u32) {
    // Every invocation has read the rows it now writes.
    workgroupBarrier();
    share_held(lid);
    workgroupBarrier();
    let across = mask / HELD;
    let lower = (lid & (1u << firstLeadingBit(across))) == 0u;
    let partner = lid ^ across;
    // `mask` is uniform: every invocation takes the same branch.
    if (mask % HELD != 0u) {
        shared_exchange(lower, &r0, partner, 15u);
        shared_exchange(lower, &r1, partner, 14u);
        shared_exchange(lower, &r2, partner, 13u);
        shared_exchange(lower, &r3, partner, 12u);
        shared_exchange(lower, &r4, partner, 11u);
        shared_exchange(lower, &r5, partner, 10u);
        shared_exchange(lower, &r6, partner, 9u);
        shared_exchange(lower, &r7, partner, 8u);
        shared_exchange(lower, &r8, partner, 7u);
        shared_exchange(lower, &r9, partner, 6u);
        shared_exchange(lower, &r10, partner, 5u);
        shared_exchange(lower, &r11, partner, 4u);
        shared_exchange(lower, &r12, partner, 3u);
        shared_exchange(lower, &r13, partner, 2u);
        shared_exchange(lower, &r14, partner, 1u);
        shared_exchange(lower, &r15, partner, 0u);
    } else {
        shared_exchange(lower, &r0, partner, 0u);
        shared_exchange(lower, &r1, partner, 1u);
        shared_exchange(lower, &r2, partner, 2u);
        shared_exchange(lower, &r3, partner, 3u);
        shared_exchange(lower, &r4, partner, 4u);
        shared_exchange(lower, &r5, partner, 5u);
        shared_exchange(lower, &r6, partner, 6u);
        shared_exchange(lower, &r7, partner, 7u);
        shared_exchange(lower, &r8, partner, 8u);
        shared_exchange(lower, &r9, partner, 9u);
        shared_exchange(lower, &r10, partner, 10u);
        shared_exchange(lower, &r11, partner, 11u);
        shared_exchange(lower, &r12, partner, 12u);
        shared_exchange(lower, &r13, partner, 13u);
        shared_exchange(lower, &r14, partner, 14u);
        shared_exchange(lower, &r15, partner, 15u);
    }
}

/// One stage, by the positions its comparators pair (`partner_mask`).
fn line_stage(mask: u32, lid: u32, shuffles: bool) {
    if (mask < HELD) {
        held_stage(mask);
    } else if (shuffles && mask < SHUFFLE_REACH) {
        shuffle_stage(mask, lid);
    } else {
        shared_stage(mask, lid);
    }
}

/// Every stage of the network, merge by merge: the flip, the half-cleaners beyond an
/// invocation's positions, then the rest in registers. The loops' bounds are constants, so the
/// compiler can unroll them and settle each stage's kind while compiling.
fn whole_network(lid: u32, shuffles: bool) {
    for (var merge = 1u; merge <= MERGES; merge += 1u) {
        line_stage((1u << merge) - 1u, lid, shuffles);
        // Distances merge - 2 down to 4 (masks HELD and more).
        for (var above = merge; above > 5u; above -= 1u) {
            line_stage(1u << (above - 2u), lid, shuffles);
        }
        if (merge >= 2u) {
            held_tail(min(merge - 2u, 3u));
        }
    }
}

@compute @workgroup_size(WORKGROUP)
fn sort_lines(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let unit_index = wid.y * params.groups_x + wid.x;
    if (unit_index >= params.unit_count) {
        // The whole workgroup leaves together: no barrier is skipped by only some.
        return;
    }
    let unit = units[unit_index];
    let line = unit.x;
    let len = unit.z;
    let row = line * params.line_len;
    // Loads and stores are coalesced (neighbouring invocations, neighbouring positions) and go
    // through workgroup memory to and from the invocations that hold them.
    for (var k = 0u; k < HELD; k += 1u) {
        let pos = k * WORKGROUP + lid;
        line_ranks[pos / HELD][pos % HELD] = load_rank(line, row, pos, len);
    }
    workgroupBarrier();
    take_held(lid);
    made = 0u;
    made_within = 0u;
    if (lid == 0u) {
        atomicStore(&exchanges, 0u);
        atomicStore(&shuffle_misfits, 0u);
    }
    workgroupBarrier();
    if (SHUFFLE_REACH > 0u && !shuffles_work(lid)) {
        atomicAdd(&shuffle_misfits, 1u);
    }
    workgroupBarrier();
    if (lid == 0u) {
        shuffles_ok = select(0u, 1u, atomicLoad(&shuffle_misfits) == 0u);
    }
    // The same for every invocation, so the stages below stay in uniform control flow.
    let shuffles = SHUFFLE_REACH > 0u && workgroupUniformLoad(&shuffles_ok) == 1u;

    let whole = MERGES > 0u && params.merge == 1u && params.distance == 0u
        && params.stages == MERGES * (MERGES + 1u) / 2u;
    if (whole) {
        whole_network(lid, shuffles);
    } else {
        var merge = params.merge;
        var distance = params.distance;
        // `params` is uniform, so every invocation runs the same stages and meets every barrier.
        for (var s = 0u; s < params.stages; s += 1u) {
            let mask = partner_mask(merge, distance);
            if (mask < HELD && distance + 1u != merge && s + distance < params.stages) {
                // A half-cleaner in registers, and the merge's stages after it all in this
                // dispatch.
                held_tail(distance);
                s += distance;
                distance = 0u;
            } else {
                line_stage(mask, lid, shuffles);
            }
            if (distance == 0u) {
                merge += 1u;
                distance = merge - 1u;
            } else {
                distance -= 1u;
            }
        }
    }
    let counted = made + 2u * made_within;
    if (counted != 0u) {
        atomicAdd(&exchanges, counted);
    }
    workgroupBarrier();
    share_held(lid);
    workgroupBarrier();
    for (var k = 0u; k < HELD; k += 1u) {
        let pos = k * WORKGROUP + lid;
        store_rank(line, row, pos, len, line_ranks[pos / HELD][pos % HELD]);
    }
    // Each exchange was counted twice.
    add_exchanges_to_step(lid, 2u);
}
