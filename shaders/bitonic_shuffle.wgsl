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
    // Each register meets the partner's same register in a half-cleaner, its mirrored one
    // (HELD - 1 - i) in a flip; every invocation sends what its partner asks for.
    let flip = mask % HELD != 0u;
    let o0 = subgroupShuffleXor(select(r0, r15, flip), across);
    let o1 = subgroupShuffleXor(select(r1, r14, flip), across);
    let o2 = subgroupShuffleXor(select(r2, r13, flip), across);
    let o3 = subgroupShuffleXor(select(r3, r12, flip), across);
    let o4 = subgroupShuffleXor(select(r4, r11, flip), across);
    let o5 = subgroupShuffleXor(select(r5, r10, flip), across);
    let o6 = subgroupShuffleXor(select(r6, r9, flip), across);
    let o7 = subgroupShuffleXor(select(r7, r8, flip), across);
    let o8 = subgroupShuffleXor(select(r8, r7, flip), across);
    let o9 = subgroupShuffleXor(select(r9, r6, flip), across);
    let o10 = subgroupShuffleXor(select(r10, r5, flip), across);
    let o11 = subgroupShuffleXor(select(r11, r4, flip), across);
    let o12 = subgroupShuffleXor(select(r12, r3, flip), across);
    let o13 = subgroupShuffleXor(select(r13, r2, flip), across);
    let o14 = subgroupShuffleXor(select(r14, r1, flip), across);
    let o15 = subgroupShuffleXor(select(r15, r0, flip), across);
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
