//! The radix view's steps on the sorts of `crates/wgpu-radix-sort`
//! (`src/algorithms/radix/image.rs`): the whole picture on the device-wide sort, or each line
//! on the segmented sort. After k passes of b-bit digits, LSD radix sort has put a sequence in
//! stable order of the low k x b bits of its key, so step k sorts the input's (masked key,
//! position) pairs, the positions in scanline order along the axis (a line's pixels one after
//! another), and places the pixels where the pairs say. Composed after `sort_key.wgsl`.
//!
//! 1. `gather`: every pixel's quantised key (within intervals, its interval id above it, as the
//!    view's own kernels compose it), masked to the bits sorted so far, and its position in the
//!    sequence (scanline order along the axis).
//! 2. The device-wide sort of the pairs.
//! 3. `place`: position j takes the input pixel that pair j names, and counts it as moved when
//!    it sat elsewhere after the step before.

/// Mirrors `ImageStepParams` in `src/algorithms/radix_image.rs`.
struct ImageStepParams {
    key: u32,
    descending: u32,
    /// 0: rows, 1: columns (the sequence is the picture in scanline order along the axis).
    axis: u32,
    /// Low bits dropped from the sort key.
    key_shift: u32,
    /// 2^key_bits - 1.
    key_mask: u32,
    /// The key bits sorted after this step: 2^(k x digit bits) - 1, or all 32.
    step_mask: u32,
    /// Pixels in the picture.
    len: u32,
    /// 1 on the first step after a restart (or a step made from the input alone): every pixel
    /// starts at its own position.
    first_step: u32,
    /// 1: the interval id (`intervals`) sits above the key; 0: no intervals.
    with_intervals: u32,
    /// Where the interval id sits in the composite key: the key's bits.
    interval_shift: u32,
    _pad0: u32,
    _pad1: u32,
}

/// Pixels per workgroup.
const GROUP: u32 = 256u;

/// The input picture (never written: every step starts from it).
@group(0) @binding(0) var input: texture_2d<u32>;
@group(0) @binding(1) var<uniform> params: ImageStepParams;
/// This step's slot: pixels moved.
@group(0) @binding(2) var<storage, read_write> moved: atomic<u32>;
/// The state after this step.
@group(0) @binding(3) var dst: texture_storage_2d<rgba8uint, write>;
@group(0) @binding(4) var<storage, read_write> keys: array<u32>;
/// Input positions, sorted with the keys.
@group(0) @binding(5) var<storage, read_write> positions: array<u32>;
/// Where each input pixel sits after the latest step.
@group(0) @binding(6) var<storage, read_write> placed: array<u32>;
/// The interval id of each input pixel (1x1 and unread without intervals).
@group(0) @binding(7) var intervals: texture_2d<u32>;

/// The texel at position `pos` of the sequence. Mirrors `Sequences::index` (whole picture).
fn texel(pos: u32) -> vec2<u32> {
    let dims = textureDimensions(input);
    if (params.axis == 1u) {
        return vec2<u32>(pos / dims.y, pos % dims.y);
    }
    return vec2<u32>(pos % dims.x, pos / dims.x);
}

/// The sequence position of an invocation (dispatches are two-dimensional when large).
fn position_of(wid: vec3<u32>, groups: vec3<u32>, lid: u32) -> u32 {
    return (wid.y * groups.x + wid.x) * GROUP + lid;
}

@compute @workgroup_size(GROUP)
fn gather(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let i = position_of(wid, groups, lid);
    if (i >= params.len) {
        return;
    }
    // The radix view's key (`radix_key` in radix.wgsl). Mirrors `RadixKey::in_interval`.
    let t = texel(i);
    let q = sort_key(textureLoad(input, t, 0).rgb, params.key) >> params.key_shift;
    var key = select(q, params.key_mask - q, params.descending != 0u);
    if (params.with_intervals != 0u) {
        key |= textureLoad(intervals, t, 0).r << params.interval_shift;
    }
    keys[i] = key & params.step_mask;
    positions[i] = i;
    if (params.first_step != 0u) {
        placed[i] = i;
    }
}

var<workgroup> group_moves: atomic<u32>;

@compute @workgroup_size(GROUP)
fn place(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    if (lid == 0u) {
        atomicStore(&group_moves, 0u);
    }
    workgroupBarrier();
    let j = position_of(wid, groups, lid);
    if (j < params.len) {
        let origin = positions[j];
        textureStore(dst, texel(j), textureLoad(input, texel(origin), 0)); // scatter
        // Only this invocation reads or writes `placed[origin]`: the pairs are a permutation.
        if (placed[origin] != j) {
            atomicAdd(&group_moves, 1u);
        }
        placed[origin] = j;
    }
    workgroupBarrier();
    if (lid == 0u) {
        let n = atomicLoad(&group_moves);
        if (n != 0u) {
            atomicAdd(&moved, n);
        }
    }
}
