//! Intervals for the comparison sorts (odd-even, bubble): the interval map, and the rule that
//! only pixels of the same interval are ever swapped.
//!
//! Composed after `sort_key.wgsl` and before the kernel (see `src/gpu/shaders.rs`); the kernel's
//! bind group holds the interval map at binding 4. Pixels move only within their interval, so the
//! interval id of a position never changes and the map is bound as it was computed, for every pass.

/// Whether the sort has an interval map. Each kernel is built twice, with and without, so a sort of
/// whole lines compiles to no interval check at all (on CPU adapters the check costs a third of the
/// bubble kernel's time).
override INTERVALS: bool = false;

/// The interval id of every texel (`IntervalMap` in `src/intervals/`); a 1x1 stand-in without a
/// map.
@group(0) @binding(4) var interval_ids: texture_2d<u32>;

/// Whether the texels `a` and `b` lie in the same interval: always without a map (every line is one
/// interval), else when their interval ids are equal. A pair swaps only when its keys are out of
/// order *and* this holds, so nothing crosses an interval boundary and a pixel in an interval of
/// its own never moves.
fn same_interval(a: vec2<u32>, b: vec2<u32>) -> bool {
    if (!INTERVALS) {
        return true;
    }
    return textureLoad(interval_ids, a, 0).r == textureLoad(interval_ids, b, 0).r;
}
