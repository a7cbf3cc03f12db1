//! `sort_lines`: `sort_blocks` for whole lines without intervals whose ranks take at most 31 bits,
//! with the ranks held in registers. Composed after `bitonic.wgsl`, whose stages it runs and whose
//! states it makes, exactly.
//!
//! Invocation t holds positions HELD x t ... HELD x t + HELD - 1 of the line (positions past its
//! end hold ranks above every pixel's, which no comparator moves: the same as leaving those
//! comparators out). A stage whose partners lie within HELD positions runs in the invocation's
//! registers, one within a subgroup on shuffles (`bitonic_shuffle.wgsl`), a further one through
//! workgroup memory: each invocation writes its ranks and, after a barrier, reads its
//! partner's. Loads and stores are coalesced (neighbouring invocations, neighbouring positions)
//! and go through workgroup memory to and from the invocations that hold the positions.
//!
//! What keeps it fast (each step measured in docs/benchmarks/bitonic-history.md): the loads'
//! texture reads issued together, before any rank is made, and the gathers' eight at a time
//! before those pixels are written, since NVIDIA's compiler otherwise had each wait for the one
//! before; merges 1 to 4 written out and one loop over the rest whose stages choose only between
//! shuffles and workgroup memory; workgroup memory reached by row and constant word (no bounds
//! check per word); a comparator across invocations is one comparison, one select and one add on
//! each side, and one within registers counts its exchange from the sign of a difference.
//! NVIDIA's machine code for a kernel can be read with `benchmarks/pipeline_stats` (CACHE=).

/// Positions an invocation holds.
const HELD: u32 = 16u;
// `store_eight` runs twice a line.
const_assert HELD == 16u;
/// Merges in the network of a line of HELD x WORKGROUP positions (its log2): a dispatch that
/// runs all of them takes `whole_network`. 9 or more where `sort_lines` is built (at least
/// HELD x 32 positions), 0 where it is not.
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
// (an array measured the same on an H100; numbers: docs/benchmarks/bitonic-history.md).
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
    *a = min(x, y); // compare-and-swap
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

/// The rank of `texel`, the pixel at `pos` of the line whose origins start at `row`: below 2^31, as
/// `sort_lines` takes only keys and origins of at most 31 bits. Past the line's end (`len`) the
/// ranks are above every pixel's, unique and ascending (2^31 - HELD x WORKGROUP + pos), so that no
/// comparator moves them and no two ranks are equal. A pixel's rank is below 2^31 - HELD x
/// WORKGROUP + len: its origin is below `len`; where key and origin take all 31 bits the origin
/// takes at least 12 (no key is wider than 19), so HELD x WORKGROUP, the next power of two from
/// `len` or 512, is at most 2^origin_bits; with fewer bits the rank is below 2^30. Positions past
/// the end load the line's last pixel and drop it, so that no load waits on a branch.
fn texel_rank(texel: vec4<u32>, row: u32, pos: u32, len: u32) -> u32 {
    let at = min(pos, len - 1u);
    var origin = at;
    if (params.load_origins != 0u) {
        origin = origins[row + at];
    }
    let rank = (rank_key(texel) << params.origin_bits) | origin;
    return select(0x80000000u - (HELD * WORKGROUP - pos), rank, pos < len);
}

/// The texel at `pos` of `line`, or the line's last past its end (see `texel_rank`).
fn line_texel(line: u32, pos: u32, len: u32) -> vec4<u32> {
    return textureLoad(src, coord(line, min(pos, len - 1u)), 0);
}

/// The colour channels of a texel in one word (red lowest).
fn pack_rgb(texel: vec4<u32>) -> u32 {
    return texel.r | (texel.g << 8u) | (texel.b << 16u);
}

/// `texel_rank` of a texel packed by `pack_rgb`.
fn packed_rank(packed: u32, row: u32, pos: u32, len: u32) -> u32 {
    let texel = vec4<u32>(packed & 0xffu, (packed >> 8u) & 0xffu, packed >> 16u, 0u);
    return texel_rank(texel, row, pos, len);
}

/// The origin a rank names, within the line.
fn rank_origin(rank: u32, len: u32) -> u32 {
    return min(rank & ((1u << params.origin_bits) - 1u), len - 1u);
}

/// The origin whose pixel goes to position `pos` (read from `line_ranks`).
fn held_origin(pos: u32, len: u32) -> u32 {
    return rank_origin(line_ranks[pos / HELD][pos % HELD], len);
}

/// Writes `pixel`, from `origin`, at `pos` (nothing past the line's end).
fn write_pixel(line: u32, row: u32, pos: u32, len: u32, origin: u32, pixel: vec4<u32>) {
    if (pos >= len) {
        return;
    }
    textureStore(dst, coord(line, pos), pixel);
    if (params.store_origins != 0u) {
        origins[row + pos] = origin;
    }
}

/// Writes positions `first` x WORKGROUP + lid and the seven after it at steps of WORKGROUP,
/// gathering each pixel from its origin (within the line, so the gathers need not wait on a
/// branch). All eight gathers are issued before any pixel is written: written one by one in a
/// loop, each gather waited for the write before it (a storage texture might be the sampled
/// one, for all the compiler knows), sixteen round trips to the cache in a row.
fn store_eight(first: u32, line: u32, row: u32, len: u32, lid: u32) {
    let p0 = first * WORKGROUP + lid;
    let p1 = p0 + WORKGROUP;
    let p2 = p1 + WORKGROUP;
    let p3 = p2 + WORKGROUP;
    let p4 = p3 + WORKGROUP;
    let p5 = p4 + WORKGROUP;
    let p6 = p5 + WORKGROUP;
    let p7 = p6 + WORKGROUP;
    let o0 = held_origin(p0, len);
    let o1 = held_origin(p1, len);
    let o2 = held_origin(p2, len);
    let o3 = held_origin(p3, len);
    let o4 = held_origin(p4, len);
    let o5 = held_origin(p5, len);
    let o6 = held_origin(p6, len);
    let o7 = held_origin(p7, len);
    let x0 = original_pixel(line, o0);
    let x1 = original_pixel(line, o1);
    let x2 = original_pixel(line, o2);
    let x3 = original_pixel(line, o3);
    let x4 = original_pixel(line, o4);
    let x5 = original_pixel(line, o5);
    let x6 = original_pixel(line, o6);
    let x7 = original_pixel(line, o7);
    write_pixel(line, row, p0, len, o0, x0);
    write_pixel(line, row, p1, len, o1, x1);
    write_pixel(line, row, p2, len, o2, x2);
    write_pixel(line, row, p3, len, o3, x3);
    write_pixel(line, row, p4, len, o4, x4);
    write_pixel(line, row, p5, len, o5, x5);
    write_pixel(line, row, p6, len, o6, x6);
    write_pixel(line, row, p7, len, o7, x7);
}

/// The new rank of one side of a comparator: `mine` against the partner's `other`, where
/// `lower` says whether this side holds the lower position (which keeps the smaller rank).
/// Ranks are unique (padding included), so a side takes its partner's rank exactly when the
/// comparator exchanges, and both sides count it: one comparison, one select, one add.
fn exchanged(lower: bool, mine: u32, other: u32) -> u32 {
    let take = (mine > other) == lower; // compare-and-swap
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

/// A stage across invocations (`mask` HELD or more): on shuffles where they reach, else
/// through workgroup memory.
fn across_stage(mask: u32, lid: u32, shuffles: bool) {
    if (shuffles && mask < SHUFFLE_REACH) {
        shuffle_stage(mask, lid);
    } else {
        shared_stage(mask, lid);
    }
}

/// Every stage of the network, merge by merge. Merges 1 to 4 lie within an invocation's
/// registers and are written out; each further merge is its flip, its half-cleaners beyond an
/// invocation's positions (both across invocations), then the four half-cleaners within its
/// registers. Written as one loop over those merges, so that NVIDIA's compiler keeps the ranks
/// in the same registers from stage to stage (the network written out whole took twice the
/// registers there and ran slower; numbers: docs/benchmarks/bitonic-history.md).
fn whole_network(lid: u32, shuffles: bool) {
    held_half_1();
    held_flip_4();
    held_half_1();
    held_flip_8();
    held_tail(1u);
    held_flip_16();
    held_tail(2u);
    for (var merge = 5u; merge <= MERGES; merge += 1u) {
        across_stage((1u << merge) - 1u, lid, shuffles);
        for (var mask = 1u << (merge - 2u); mask >= HELD; mask >>= 1u) {
            across_stage(mask, lid, shuffles);
        }
        held_tail(3u);
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
    // The texels first, packed into `line_ranks` by a loop of loads alone, whose sixteen reads
    // the compiler issues together; then each slot's rank in place. (Loaded and ranked in one
    // loop, each load waited for the rank's branches before the next was issued: sixteen
    // memory round trips in a row.)
    for (var k = 0u; k < HELD; k += 1u) {
        let pos = k * WORKGROUP + lid;
        line_ranks[pos / HELD][pos % HELD] = pack_rgb(line_texel(line, pos, len));
    }
    for (var k = 0u; k < HELD; k += 1u) {
        let pos = k * WORKGROUP + lid;
        let slot = &line_ranks[pos / HELD][pos % HELD];
        *slot = packed_rank(*slot, row, pos, len);
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
        if (SHUFFLE_REACH > 0u && shuffles_ok == 0u) {
            // Counted for the step's work: this workgroup's shuffle stages pass barriers.
            atomicAdd(&counters[1], 1u);
        }
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
    store_eight(0u, line, row, len, lid);
    store_eight(8u, line, row, len, lid);
    // Each exchange was counted twice.
    add_exchanges_to_step(lid, 2u);
}
