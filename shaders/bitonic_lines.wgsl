//! `sort_lines`: `sort_blocks` for whole lines without runs whose ranks fit one word, with the
//! ranks held in registers. Composed after `bitonic.wgsl`, whose stages it runs and whose states
//! it makes, exactly.
//!
//! Invocation t holds positions HELD x t ... HELD x t + HELD - 1 of the line (positions past its
//! end hold the largest rank, which no comparator moves: the same as leaving those comparators
//! out). A stage whose partners lie within HELD positions runs in the invocation's registers; a
//! further one goes through workgroup memory: each invocation writes its ranks and, after a
//! barrier, reads its partners'. Loads and stores are coalesced (neighbouring invocations,
//! neighbouring positions) and go through workgroup memory to and from the invocations that
//! hold the positions.
//!
//! The workgroup memory is one word a position, no more than `sort_blocks` takes: on an H100 a
//! second buffer (one barrier a stage instead of two) made it slower, not faster
//! (BENCHMARKS.md).

/// Positions an invocation holds.
const HELD: u32 = 16u;
/// Words of `line_ranks`: HELD x WORKGROUP, or 1 when `sort_lines` is not built.
override LINE_CAPACITY: u32 = 1u;
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

var<workgroup> line_ranks: array<u32, LINE_CAPACITY>;

/// Where position `p` stands in `line_ranks`: within each row of 32 words the positions are
/// rotated by the row's number, so that accesses HELD positions apart spread over the banks.
fn line_slot(p: u32) -> u32 {
    return (p & ~31u) | ((p + (p >> 5u)) & 31u);
}

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
/// Exchanges this invocation made.
var<private> made: u32;
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
        made += select(0u, 1u, x > y);
    }
}

/// A stage whose partners lie within the invocation (mask 1, 2, 4 or 8 for a half-cleaner; 1, 3,
/// 7 or 15 for a flip).
fn held_stage(mask: u32) {
    switch mask {
        case 1u: {
            held_exchange(&r0, &r1);
            held_exchange(&r2, &r3);
            held_exchange(&r4, &r5);
            held_exchange(&r6, &r7);
            held_exchange(&r8, &r9);
            held_exchange(&r10, &r11);
            held_exchange(&r12, &r13);
            held_exchange(&r14, &r15);
        }
        case 2u: {
            held_exchange(&r0, &r2);
            held_exchange(&r1, &r3);
            held_exchange(&r4, &r6);
            held_exchange(&r5, &r7);
            held_exchange(&r8, &r10);
            held_exchange(&r9, &r11);
            held_exchange(&r12, &r14);
            held_exchange(&r13, &r15);
        }
        case 3u: {
            held_exchange(&r0, &r3);
            held_exchange(&r1, &r2);
            held_exchange(&r4, &r7);
            held_exchange(&r5, &r6);
            held_exchange(&r8, &r11);
            held_exchange(&r9, &r10);
            held_exchange(&r12, &r15);
            held_exchange(&r13, &r14);
        }
        case 4u: {
            held_exchange(&r0, &r4);
            held_exchange(&r1, &r5);
            held_exchange(&r2, &r6);
            held_exchange(&r3, &r7);
            held_exchange(&r8, &r12);
            held_exchange(&r9, &r13);
            held_exchange(&r10, &r14);
            held_exchange(&r11, &r15);
        }
        case 7u: {
            held_exchange(&r0, &r7);
            held_exchange(&r1, &r6);
            held_exchange(&r2, &r5);
            held_exchange(&r3, &r4);
            held_exchange(&r8, &r15);
            held_exchange(&r9, &r14);
            held_exchange(&r10, &r13);
            held_exchange(&r11, &r12);
        }
        case 8u: {
            held_exchange(&r0, &r8);
            held_exchange(&r1, &r9);
            held_exchange(&r2, &r10);
            held_exchange(&r3, &r11);
            held_exchange(&r4, &r12);
            held_exchange(&r5, &r13);
            held_exchange(&r6, &r14);
            held_exchange(&r7, &r15);
        }
        default: {
            // 15: the flip of a merge of 16.
            held_exchange(&r0, &r15);
            held_exchange(&r1, &r14);
            held_exchange(&r2, &r13);
            held_exchange(&r3, &r12);
            held_exchange(&r4, &r11);
            held_exchange(&r5, &r10);
            held_exchange(&r6, &r9);
            held_exchange(&r7, &r8);
        }
    }
}

/// The rank of the pixel at `pos` of `line` (the largest rank past the line's end, `len`).
fn load_rank(line: u32, row: u32, pos: u32, len: u32) -> u32 {
    if (pos >= len) {
        return 0xffffffffu;
    }
    var origin = pos;
    if (params.load_origins != 0u) {
        origin = origins[row + pos];
    }
    return (rank_key(textureLoad(src, coord(line, pos), 0)) << params.origin_bits) | origin;
}

/// Writes the pixel whose rank is `rank` at `pos` (nothing past the line's end).
fn store_rank(line: u32, row: u32, pos: u32, len: u32, rank: u32) {
    if (pos >= len) {
        return;
    }
    let origin = rank & ((1u << params.origin_bits) - 1u);
    textureStore(dst, coord(line, pos), textureLoad(input, coord(line, origin), 0));
    if (params.store_origins != 0u) {
        origins[row + pos] = origin;
    }
}

/// One side of a comparator through workgroup memory: the rank at position `p`, `mine`, against
/// its partner's; returns the rank `p` keeps.
fn shared_exchange(p: u32, mask: u32, mine: u32) -> u32 {
    let q = p ^ mask;
    let other = line_ranks[line_slot(q)];
    let lower = p < q;
    if (COUNT_EXCHANGES) {
        made += select(0u, 1u, lower && mine > other);
    }
    return select(max(mine, other), min(mine, other), lower);
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
    let first = lid * HELD;
    // Loads and stores are coalesced (neighbouring invocations, neighbouring positions) and go
    // through workgroup memory to and from the invocations that hold them.
    for (var k = 0u; k < HELD; k += 1u) {
        let pos = k * WORKGROUP + lid;
        line_ranks[line_slot(pos)] = load_rank(line, row, pos, len);
    }
    workgroupBarrier();
    r0 = line_ranks[line_slot(first)];
    r1 = line_ranks[line_slot(first + 1u)];
    r2 = line_ranks[line_slot(first + 2u)];
    r3 = line_ranks[line_slot(first + 3u)];
    r4 = line_ranks[line_slot(first + 4u)];
    r5 = line_ranks[line_slot(first + 5u)];
    r6 = line_ranks[line_slot(first + 6u)];
    r7 = line_ranks[line_slot(first + 7u)];
    r8 = line_ranks[line_slot(first + 8u)];
    r9 = line_ranks[line_slot(first + 9u)];
    r10 = line_ranks[line_slot(first + 10u)];
    r11 = line_ranks[line_slot(first + 11u)];
    r12 = line_ranks[line_slot(first + 12u)];
    r13 = line_ranks[line_slot(first + 13u)];
    r14 = line_ranks[line_slot(first + 14u)];
    r15 = line_ranks[line_slot(first + 15u)];
    made = 0u;
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

    var merge = params.merge;
    var distance = params.distance;
    // `params` is uniform, so every invocation runs the same stages and meets every barrier.
    for (var s = 0u; s < params.stages; s += 1u) {
        let mask = partner_mask(merge, distance);
        if (mask < HELD) {
            held_stage(mask);
        } else if (shuffles && mask < SHUFFLE_REACH) {
            shuffle_stage(mask, lid);
        } else {
            // Every invocation has read the buffer it now writes.
            workgroupBarrier();
            line_ranks[line_slot(first)] = r0;
            line_ranks[line_slot(first + 1u)] = r1;
            line_ranks[line_slot(first + 2u)] = r2;
            line_ranks[line_slot(first + 3u)] = r3;
            line_ranks[line_slot(first + 4u)] = r4;
            line_ranks[line_slot(first + 5u)] = r5;
            line_ranks[line_slot(first + 6u)] = r6;
            line_ranks[line_slot(first + 7u)] = r7;
            line_ranks[line_slot(first + 8u)] = r8;
            line_ranks[line_slot(first + 9u)] = r9;
            line_ranks[line_slot(first + 10u)] = r10;
            line_ranks[line_slot(first + 11u)] = r11;
            line_ranks[line_slot(first + 12u)] = r12;
            line_ranks[line_slot(first + 13u)] = r13;
            line_ranks[line_slot(first + 14u)] = r14;
            line_ranks[line_slot(first + 15u)] = r15;
            workgroupBarrier();
            r0 = shared_exchange(first, mask, r0);
            r1 = shared_exchange(first + 1u, mask, r1);
            r2 = shared_exchange(first + 2u, mask, r2);
            r3 = shared_exchange(first + 3u, mask, r3);
            r4 = shared_exchange(first + 4u, mask, r4);
            r5 = shared_exchange(first + 5u, mask, r5);
            r6 = shared_exchange(first + 6u, mask, r6);
            r7 = shared_exchange(first + 7u, mask, r7);
            r8 = shared_exchange(first + 8u, mask, r8);
            r9 = shared_exchange(first + 9u, mask, r9);
            r10 = shared_exchange(first + 10u, mask, r10);
            r11 = shared_exchange(first + 11u, mask, r11);
            r12 = shared_exchange(first + 12u, mask, r12);
            r13 = shared_exchange(first + 13u, mask, r13);
            r14 = shared_exchange(first + 14u, mask, r14);
            r15 = shared_exchange(first + 15u, mask, r15);
        }
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
    workgroupBarrier();
    line_ranks[line_slot(first)] = r0;
    line_ranks[line_slot(first + 1u)] = r1;
    line_ranks[line_slot(first + 2u)] = r2;
    line_ranks[line_slot(first + 3u)] = r3;
    line_ranks[line_slot(first + 4u)] = r4;
    line_ranks[line_slot(first + 5u)] = r5;
    line_ranks[line_slot(first + 6u)] = r6;
    line_ranks[line_slot(first + 7u)] = r7;
    line_ranks[line_slot(first + 8u)] = r8;
    line_ranks[line_slot(first + 9u)] = r9;
    line_ranks[line_slot(first + 10u)] = r10;
    line_ranks[line_slot(first + 11u)] = r11;
    line_ranks[line_slot(first + 12u)] = r12;
    line_ranks[line_slot(first + 13u)] = r13;
    line_ranks[line_slot(first + 14u)] = r14;
    line_ranks[line_slot(first + 15u)] = r15;
    workgroupBarrier();
    for (var k = 0u; k < HELD; k += 1u) {
        let pos = k * WORKGROUP + lid;
        store_rank(line, row, pos, len, line_ranks[line_slot(pos)]);
    }
    add_exchanges_to_step(lid);
}
