//! Keys in sorting order, shared by the device-wide sort and the segmented one: both programs
//! declare `params` with `key_kind` (0: u32, 1: f32 bit patterns, 2: i32) and `descending`.
//!
//! The key transforms are XORs with masks that are uniform across a pass, so that a pass that
//! transforms nothing (the masks zero) spends two or three instructions a key on them, where
//! comparisons and selects took six on an H100 at every read and write of a key (numbers:
//! docs/benchmarks/radix-history.md in the repository). The order of a key `k` is `k ^
//! (sign_fill(k) & sign_mask(true)) ^ flip_mask(true)`:
//! - f32 keys: negative floats reverse their order (all bits flip), positive ones go above them
//!   (the sign bit flips): the sign bit always flips, the others where the sign is set;
//! - i32 keys: the sign bit always flips, and nothing else;
//! - descending: every bit flips once more.

/// Every bit set where `x`'s sign bit is.
fn sign_fill(x: u32) -> u32 {
    return bitcast<u32>(bitcast<i32>(x) >> 31u);
}

/// The bits a negative key's sign flips (`on`: this transform applies).
fn sign_mask(on: bool) -> u32 {
    return select(0u, 0x7fffffffu, on && params.key_kind == 1u);
}

/// The bits every key flips (`on`: this transform applies).
fn flip_mask(on: bool) -> u32 {
    return select(0u, 0x80000000u, on && params.key_kind != 0u) ^ descending_mask(on);
}

/// All bits where the transform applies and the order is descending.
fn descending_mask(on: bool) -> u32 {
    return select(0u, 0xffffffffu, on && params.descending != 0u);
}

/// `k` in sorting order where `on`, else as it is. Mirrors `sort_order_key` in `src/job.rs`.
fn to_order(k: u32, on: bool) -> u32 {
    return k ^ (sign_fill(k) & sign_mask(on)) ^ flip_mask(on);
}

/// The inverse of `to_order` where `on`, else `t`. With the descending flip undone, the sign
/// bit tells a positive float (set) from a negative one, whose other bits flip back too.
fn from_order(t: u32, on: bool) -> u32 {
    return t ^ flip_mask(on) ^ ((sign_fill(t) ^ ~descending_mask(on)) & sign_mask(on));
}
