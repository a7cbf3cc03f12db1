//! Interval runs for the comparison sorts (odd-even, bubble): the run map, and the rule that
//! only pixels of the same run are ever swapped.
//!
//! Composed after `sort_key.wgsl` and before the kernel (see `src/gpu/shaders.rs`); the kernel's bind
//! group holds the run map at binding 4. Pixels move only within their run, so the run id of
//! a position never changes and the map is bound as it was computed, for every pass.

/// Whether the sort has a run map. Each kernel is built twice, with and without, so a sort of
/// whole lines compiles to no run check at all (on CPU adapters the check costs a third of the
/// bubble kernel's time).
override INTERVALS: bool = false;

/// The run id of every texel (`IntervalMap` in `src/intervals/`); a 1x1 stand-in without a map.
@group(0) @binding(4) var run_ids: texture_2d<u32>;

/// Whether the texels `a` and `b` lie in the same run: always without a map (every line is
/// one run), else when their run ids are equal. A pair swaps only when its keys are out of
/// order *and* this holds, so nothing crosses a run boundary and a pixel in a run of its own
/// never moves.
fn same_interval(a: vec2<u32>, b: vec2<u32>) -> bool {
    if (!INTERVALS) {
        return true;
    }
    return textureLoad(run_ids, a, 0).r == textureLoad(run_ids, b, 0).r;
}
