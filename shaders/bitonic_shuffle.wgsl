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

/// Register `a` against the partner's same register (a half-cleaner).
fn shuffle_same(lower: bool, across: u32, a: ptr<private, u32>) {
    let other = subgroupShuffleXor(*a, across);
    *a = exchanged(lower, *a, other);
}

/// Registers `a` and `b` (mirrored: HELD - 1 - i of each other) against the partner's `b` and
/// `a` (a flip): each invocation sends what its partner asks for.
fn shuffle_mirrored(lower: bool, across: u32, a: ptr<private, u32>, b: ptr<private, u32>) {
    let other_a = subgroupShuffleXor(*b, across);
    let other_b = subgroupShuffleXor(*a, across);
    *a = exchanged(lower, *a, other_a);
    *b = exchanged(lower, *b, other_b);
}

/// One stage whose `mask` is at least HELD and below HELD x SUBGROUP_SIZE.
fn shuffle_stage(mask: u32, lid: u32) {
    let across = mask / HELD;
    // The positions of the invocation with this bit clear are the lower ones.
    let lower = (lid & (1u << firstLeadingBit(across))) == 0u;
    // `mask` is uniform: every invocation of the workgroup takes the same branch.
    if (mask % HELD != 0u) {
        shuffle_mirrored(lower, across, &r0, &r15);
        shuffle_mirrored(lower, across, &r1, &r14);
        shuffle_mirrored(lower, across, &r2, &r13);
        shuffle_mirrored(lower, across, &r3, &r12);
        shuffle_mirrored(lower, across, &r4, &r11);
        shuffle_mirrored(lower, across, &r5, &r10);
        shuffle_mirrored(lower, across, &r6, &r9);
        shuffle_mirrored(lower, across, &r7, &r8);
    } else {
        shuffle_same(lower, across, &r0);
        shuffle_same(lower, across, &r1);
        shuffle_same(lower, across, &r2);
        shuffle_same(lower, across, &r3);
        shuffle_same(lower, across, &r4);
        shuffle_same(lower, across, &r5);
        shuffle_same(lower, across, &r6);
        shuffle_same(lower, across, &r7);
        shuffle_same(lower, across, &r8);
        shuffle_same(lower, across, &r9);
        shuffle_same(lower, across, &r10);
        shuffle_same(lower, across, &r11);
        shuffle_same(lower, across, &r12);
        shuffle_same(lower, across, &r13);
        shuffle_same(lower, across, &r14);
        shuffle_same(lower, across, &r15);
    }
}
