//! `sort_lines`' stages whose partners lie in the same subgroup, exchanged with subgroup
//! shuffles instead of through workgroup memory: no barrier, no workgroup memory traffic.
//! Composed with `bitonic_lines.wgsl` where the adapter has subgroups of one fixed size
//! (`bitonic_no_shuffle.wgsl` stands in elsewhere).
//!
//! Invocation t holds positions HELD x t ... HELD x t + HELD - 1, so the partner of position
//! p = HELD x t + i under `mask` (p ^ mask) is register i ^ (mask % HELD) of invocation
//! t ^ (mask / HELD): a half-cleaner (mask a power of two of HELD or more) pairs the same
//! register, a flip (mask 2^k - 1, k > 4) the mirrored one. The invocation with the lower
//! positions keeps the smaller rank, as in `shared_exchange`.
//!
//! naga takes subgroup operations without `enable subgroups;` (and rejects the directive);
//! Tint wants it, so the Tint check in tests/shaders.rs adds it.

/// Whether shuffling by `m` (below the subgroup size) reaches invocation `lid ^ m` for every
/// invocation of this subgroup: lanes laid out as `local_invocation_index` modulo the
/// subgroup size, as on every GPU measured, but not promised by WGSL. Checked bit by bit
/// (shuffles by XOR compose).
fn shuffles_work(lid: u32) -> bool {
    var ok = true;
    for (var bit = 1u; bit < SUBGROUP_SIZE; bit <<= 1u) {
        // Every lane shuffles (no `&&` before it), as shuffles require.
        let partner = subgroupShuffleXor(lid, bit);
        ok = ok && partner == (lid ^ bit);
    }
    return subgroupAll(ok);
}

/// The new rank of one register: `mine` against the partner's `other`.
fn shuffled_exchange(lower: bool, mine: u32, other: u32) -> u32 {
    if (COUNT_EXCHANGES) {
        made += select(0u, 1u, lower && mine > other);
    }
    return select(max(mine, other), min(mine, other), lower);
}

/// One stage whose `mask` is at least HELD and below HELD x SUBGROUP_SIZE.
fn shuffle_stage(mask: u32, lid: u32) {
    let across = mask / HELD;
    // The positions of the invocation with this bit clear are the lower ones.
    let lower = (lid & (1u << firstLeadingBit(across))) == 0u;
    if (mask % HELD == 0u) {
        let o0 = subgroupShuffleXor(r0, across);
        let o1 = subgroupShuffleXor(r1, across);
        let o2 = subgroupShuffleXor(r2, across);
        let o3 = subgroupShuffleXor(r3, across);
        let o4 = subgroupShuffleXor(r4, across);
        let o5 = subgroupShuffleXor(r5, across);
        let o6 = subgroupShuffleXor(r6, across);
        let o7 = subgroupShuffleXor(r7, across);
        let o8 = subgroupShuffleXor(r8, across);
        let o9 = subgroupShuffleXor(r9, across);
        let o10 = subgroupShuffleXor(r10, across);
        let o11 = subgroupShuffleXor(r11, across);
        let o12 = subgroupShuffleXor(r12, across);
        let o13 = subgroupShuffleXor(r13, across);
        let o14 = subgroupShuffleXor(r14, across);
        let o15 = subgroupShuffleXor(r15, across);
        r0 = shuffled_exchange(lower, r0, o0);
        r1 = shuffled_exchange(lower, r1, o1);
        r2 = shuffled_exchange(lower, r2, o2);
        r3 = shuffled_exchange(lower, r3, o3);
        r4 = shuffled_exchange(lower, r4, o4);
        r5 = shuffled_exchange(lower, r5, o5);
        r6 = shuffled_exchange(lower, r6, o6);
        r7 = shuffled_exchange(lower, r7, o7);
        r8 = shuffled_exchange(lower, r8, o8);
        r9 = shuffled_exchange(lower, r9, o9);
        r10 = shuffled_exchange(lower, r10, o10);
        r11 = shuffled_exchange(lower, r11, o11);
        r12 = shuffled_exchange(lower, r12, o12);
        r13 = shuffled_exchange(lower, r13, o13);
        r14 = shuffled_exchange(lower, r14, o14);
        r15 = shuffled_exchange(lower, r15, o15);
    } else {
        // A flip: register i meets the partner's register HELD - 1 - i.
        let o0 = subgroupShuffleXor(r15, across);
        let o1 = subgroupShuffleXor(r14, across);
        let o2 = subgroupShuffleXor(r13, across);
        let o3 = subgroupShuffleXor(r12, across);
        let o4 = subgroupShuffleXor(r11, across);
        let o5 = subgroupShuffleXor(r10, across);
        let o6 = subgroupShuffleXor(r9, across);
        let o7 = subgroupShuffleXor(r8, across);
        let o8 = subgroupShuffleXor(r7, across);
        let o9 = subgroupShuffleXor(r6, across);
        let o10 = subgroupShuffleXor(r5, across);
        let o11 = subgroupShuffleXor(r4, across);
        let o12 = subgroupShuffleXor(r3, across);
        let o13 = subgroupShuffleXor(r2, across);
        let o14 = subgroupShuffleXor(r1, across);
        let o15 = subgroupShuffleXor(r0, across);
        r0 = shuffled_exchange(lower, r0, o0);
        r1 = shuffled_exchange(lower, r1, o1);
        r2 = shuffled_exchange(lower, r2, o2);
        r3 = shuffled_exchange(lower, r3, o3);
        r4 = shuffled_exchange(lower, r4, o4);
        r5 = shuffled_exchange(lower, r5, o5);
        r6 = shuffled_exchange(lower, r6, o6);
        r7 = shuffled_exchange(lower, r7, o7);
        r8 = shuffled_exchange(lower, r8, o8);
        r9 = shuffled_exchange(lower, r9, o9);
        r10 = shuffled_exchange(lower, r10, o10);
        r11 = shuffled_exchange(lower, r11, o11);
        r12 = shuffled_exchange(lower, r12, o12);
        r13 = shuffled_exchange(lower, r13, o13);
        r14 = shuffled_exchange(lower, r14, o14);
        r15 = shuffled_exchange(lower, r15, o15);
    }
}
