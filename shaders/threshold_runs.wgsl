//! Threshold runs found on the GPU: the run id of every pixel of a picture whose runs are the
//! pixels with their interval key inside a threshold, exactly as `RunMap::compute` makes them on
//! the CPU (`src/intervals/`). Composed after `key.wgsl`.
//!
//! A pixel begins a run when it or the pixel before it on its line is outside (an outside pixel
//! is a run of its own); its id counts the beginnings before it and its own, from 0 at the
//! line's first pixel. One workgroup a line: each invocation counts the beginnings of its share
//! of consecutive positions, the workgroup scans the counts, and each invocation numbers its
//! share from where the scan puts it.

/// Mirrors `ThresholdParams` in `src/algorithms/threshold_runs.rs`.
struct ThresholdParams {
    /// The interval key.
    key: u32,
    /// The key values inside: `lo ..= lo + span` (an empty threshold: `lo` past every key).
    lo: u32,
    span: u32,
    /// 0: rows, 1: columns.
    axis: u32,
    /// Positions per line.
    line_len: u32,
    /// Lines.
    line_count: u32,
    /// Workgroups along x (lines are numbered row by row of workgroups).
    groups_x: u32,
    _pad: u32,
}

/// Invocations per workgroup.
const WORKGROUP: u32 = 256u;

@group(0) @binding(0) var picture: texture_2d<u32>;
@group(0) @binding(1) var<uniform> params: ThresholdParams;
@group(0) @binding(2) var ids: texture_storage_2d<r32uint, write>;

/// Per invocation, its beginnings, then the scan of them.
var<workgroup> counts: array<u32, WORKGROUP>;

fn coord(line: u32, pos: u32) -> vec2<u32> {
    return select(vec2<u32>(pos, line), vec2<u32>(line, pos), params.axis == 1u);
}

/// Whether the pixel at `pos` of `line` has its interval key inside the threshold (one unsigned
/// compare: values below `lo` wrap around to above `span`).
fn inside(line: u32, pos: u32) -> bool {
    let pixel = textureLoad(picture, coord(line, pos), 0);
    return sort_key(pixel.rgb, params.key) - params.lo <= params.span;
}

@compute @workgroup_size(WORKGROUP)
fn threshold_runs(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let line = wid.y * params.groups_x + wid.x;
    if (line >= params.line_count) {
        // The whole workgroup leaves together: no barrier is skipped by only some.
        return;
    }
    let len = params.line_len;
    let share = (len + WORKGROUP - 1u) / WORKGROUP;
    let first = min(lid * share, len);
    let end = min(first + share, len);
    // Whether the pixel before this share is inside (none before the line's first).
    var before_inside = false;
    if (first > 0u && first < len) {
        before_inside = inside(line, first - 1u);
    }
    var begun = 0u;
    var previous = before_inside;
    for (var pos = first; pos < end; pos += 1u) {
        let now = inside(line, pos);
        begun += select(0u, 1u, pos > 0u && !(now && previous));
        previous = now;
    }
    counts[lid] = begun;
    workgroupBarrier();
    // Inclusive scan of the counts.
    for (var reach = 1u; reach < WORKGROUP; reach <<= 1u) {
        var add = 0u;
        if (lid >= reach) {
            add = counts[lid - reach];
        }
        workgroupBarrier();
        counts[lid] += add;
        workgroupBarrier();
    }
    var id = counts[lid] - begun;
    previous = before_inside;
    for (var pos = first; pos < end; pos += 1u) {
        let now = inside(line, pos);
        id += select(0u, 1u, pos > 0u && !(now && previous));
        textureStore(ids, coord(line, pos), vec4<u32>(id, 0u, 0u, 0u));
        previous = now;
    }
}
