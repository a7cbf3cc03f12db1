//! One odd-even transposition pass over every line (row or column), as a compute kernel and as
//! a fragment shader; both call `odd_even_step`, so they compute the same texels.
//!
//! Composed after `sort_key.wgsl` and `intervals.wgsl` (see `src/gpu/shaders.rs`). Pixels are `rgba8uint`
//! texels: no float conversion touches them, so a pass only ever copies whole pixels, bit for bit.

/// Mirrors `PassParams` in `src/algorithms/odd_even.rs`.
struct PassParams {
    /// `KEY_*` id from sort_key.wgsl.
    key: u32,
    /// 1 for descending order.
    descending: u32,
    /// 0: rows, 1: columns.
    axis: u32,
    /// The iteration number modulo 2.
    parity: u32,
}

/// Compute workgroup size; `WORKGROUP_SIZE` in `src/algorithms/odd_even.rs` (checked by a test).
const WORKGROUP_WIDTH: u32 = 16u;
const WORKGROUP_HEIGHT: u32 = 16u;

@group(0) @binding(0) var src: texture_2d<u32>;
@group(0) @binding(1) var<uniform> params: PassParams;
/// This pass's swap counter: one slot of a ring, chosen by a dynamic offset.
@group(0) @binding(2) var<storage, read_write> swaps: atomic<u32>;
/// Compute only: the other texture of the ping-pong pair.
@group(0) @binding(3) var dst: texture_storage_2d<rgba8uint, write>;

struct Step {
    pixel: vec4<u32>,
    /// True for the left member of a pair that swapped, so each swap is counted once.
    counts_swap: bool,
}

fn ordered(p: vec4<u32>) -> u32 {
    return order_key(p.rgb, params.key, params.descending);
}

/// The new value of the texel at `coord`. Position `x` along the line pairs with `x - 1` when `x`
/// and the iteration have the same parity, else with `x + 1`; a texel without a partner keeps its
/// value. Both members of a pair evaluate `ordered(left) > ordered(right)` and `same_interval` on the
/// same two texels, so a pair either swaps whole pixels or keeps both: nothing is duplicated or
/// lost, equal keys never swap (the sort is stable), and no pixel leaves its interval.
fn odd_even_step(coord: vec2<u32>) -> Step {
    let dims = textureDimensions(src);
    let columns = params.axis == 1u;
    let pos = select(coord.x, coord.y, columns);
    let len = select(dims.x, dims.y, columns);
    let unit = select(vec2<u32>(1u, 0u), vec2<u32>(0u, 1u), columns);
    let me = textureLoad(src, coord, 0);
    if ((pos & 1u) == params.parity) {
        if (pos == 0u) {
            return Step(me, false);
        }
        let left = textureLoad(src, coord - unit, 0);
        if (ordered(left) > ordered(me) && same_interval(coord - unit, coord)) { // compare-and-swap
            return Step(left, false);
        }
    } else {
        if (pos + 1u >= len) {
            return Step(me, false);
        }
        let right = textureLoad(src, coord + unit, 0);
        if (ordered(me) > ordered(right) && same_interval(coord, coord + unit)) { // compare-and-swap
            return Step(right, true);
        }
    }
    return Step(me, false);
}

var<workgroup> workgroup_swaps: atomic<u32>;

@compute @workgroup_size(WORKGROUP_WIDTH, WORKGROUP_HEIGHT)
fn odd_even_compute(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let dims = textureDimensions(src);
    if (all(gid.xy < dims)) {
        let step = odd_even_step(gid.xy);
        textureStore(dst, gid.xy, step.pixel);
        if (step.counts_swap) {
            atomicAdd(&workgroup_swaps, 1u);
        }
    }
    // Every invocation reaches this barrier: the branch above has closed (uniform control flow).
    workgroupBarrier();
    if (lid == 0u) {
        let n = atomicLoad(&workgroup_swaps);
        if (n != 0u) {
            atomicAdd(&swaps, n);
        }
    }
}

/// A triangle that covers the whole render target.
@vertex
fn fullscreen_vertex(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    let uv = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4<f32>(uv * 2.0 - 1.0, 0.0, 1.0);
}

@fragment
fn odd_even_fragment(@builtin(position) position: vec4<f32>) -> @location(0) vec4<u32> {
    let step = odd_even_step(vec2<u32>(position.xy));
    if (step.counts_swap) {
        atomicAdd(&swaps, 1u);
    }
    return step.pixel;
}
