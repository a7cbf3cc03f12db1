//! Intervals found on the GPU: the interval id of every pixel of a picture, exactly as
//! `IntervalMap::compute` makes them on the CPU (`src/intervals/`) along rows or columns, for every
//! interval rule (whole lines, threshold, edges, random lengths) with or without a mask, or along
//! the rows of line space for lines at an angle, as `LineSpace::interval_map` makes them. Composed
//! after `sort_key.wgsl` and `u64.wgsl`.
//!
//! Each pixel is a cell as on the CPU: fixed (outside the threshold, on an edge, or black in the
//! mask), the start of a random interval, or joining the interval before it. A pixel begins an
//! interval when it is not a joining cell or the pixel before it on its line is fixed; its id
//! counts the beginnings before it and its own, from 0 at the line's first pixel. One workgroup a
//! line: each invocation counts the beginnings of its share of consecutive positions, the workgroup
//! scans the counts, and each invocation numbers its share from where the scan puts it.

/// Mirrors `IntervalParams` in `src/algorithms/found_intervals.rs`.
struct IntervalParams {
    /// `RULE_*`: how the intervals are cut.
    rule: u32,
    /// The interval key (threshold and edges).
    key: u32,
    /// Threshold: the key values inside are `lo ..= lo + span` (empty: `lo` past every key).
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
    /// 1 when the mask's black pixels are fixed.
    masked: u32,
    /// Edges: a pixel whose squared Sobel magnitude exceeds this (low, high) is fixed.
    limit_low: u32,
    limit_high: u32,
    /// Random: the seed (low, high), the shortest interval and how many lengths there are.
    seed_low: u32,
    seed_high: u32,
    min_len: u32,
    len_count: u32,
    /// 1 for line space: each cell reads the picture pixel `cells` names (padding fixed).
    angled: u32,
}

const RULE_WHOLE: u32 = 0u;
const RULE_THRESHOLD: u32 = 1u;
const RULE_EDGES: u32 = 2u;
const RULE_RANDOM: u32 = 3u;

/// The cells a pixel can be, as `Cell` in `src/intervals/mod.rs`.
const FIXED: u32 = 0u;
const START: u32 = 1u;
const JOIN: u32 = 2u;

/// A line-space cell of padding (`NO_PIXEL` in `src/angle/line_space.rs`).
const NO_PIXEL: u32 = 0xffffffffu;

/// Invocations per workgroup.
const WORKGROUP: u32 = 256u;
/// Words of the random intervals' starts of one line: lines up to 32768 pixels
/// (`MAX_RANDOM_LINE` in `src/algorithms/found_intervals.rs`).
const START_WORDS: u32 = 1024u;

@group(0) @binding(0) var picture: texture_2d<u32>;
@group(0) @binding(1) var<uniform> params: IntervalParams;
@group(0) @binding(2) var ids: texture_storage_2d<r32uint, write>;
/// 1 where the mask is white (a 1x1 stand-in when there is no mask).
@group(0) @binding(3) var mask: texture_2d<u32>;
/// Line space: the picture pixel (row-major) of each cell (a 1x1 stand-in along the axes).
@group(0) @binding(4) var cells: texture_2d<u32>;

/// Per invocation, its beginnings, then the scan of them.
var<workgroup> counts: array<u32, WORKGROUP>;
/// Random intervals: one bit a position of the line, set where an interval starts.
var<workgroup> starts: array<u32, START_WORDS>;

fn coord(line: u32, pos: u32) -> vec2<u32> {
    return select(vec2<u32>(pos, line), vec2<u32>(line, pos), params.axis == 1u);
}

/// The interval key at `at` moved by `(dx, dy)`, the border repeated outward.
fn key_near(at: vec2<u32>, dx: i32, dy: i32) -> i32 {
    let size = vec2<i32>(textureDimensions(picture));
    let p = clamp(vec2<i32>(at) + vec2<i32>(dx, dy), vec2<i32>(0), size - 1);
    return i32(sort_key(textureLoad(picture, p, 0).rgb, params.key));
}

/// Whether the pixel at `at` lies on an edge: `gx² + gy²` of the Sobel kernels above the limit
/// (`src/intervals/edges.rs`); each gradient is below 2^21, so the squares need 64 bits.
fn on_edge(at: vec2<u32>) -> bool {
    let gx = (key_near(at, 1, -1) + 2 * key_near(at, 1, 0) + key_near(at, 1, 1))
        - (key_near(at, -1, -1) + 2 * key_near(at, -1, 0) + key_near(at, -1, 1));
    let gy = (key_near(at, -1, 1) + 2 * key_near(at, 0, 1) + key_near(at, 1, 1))
        - (key_near(at, -1, -1) + 2 * key_near(at, 0, -1) + key_near(at, 1, -1));
    let ax = u32(abs(gx));
    let ay = u32(abs(gy));
    let squared = add64(mul_wide(ax, ax), mul_wide(ay, ay));
    return greater64(squared, vec2<u32>(params.limit_low, params.limit_high));
}

/// The cell of the pixel at `pos` of `line`.
fn cell(line: u32, pos: u32) -> u32 {
    var at = coord(line, pos);
    if (params.angled == 1u) {
        let pixel = textureLoad(cells, vec2<u32>(pos, line), 0).x;
        if (pixel == NO_PIXEL) {
            return FIXED;
        }
        let width = textureDimensions(picture).x;
        at = vec2<u32>(pixel % width, pixel / width);
    }
    var fixed = false;
    if (params.rule == RULE_THRESHOLD) {
        // One unsigned compare: values below `lo` wrap around to above `span`.
        let pixel = textureLoad(picture, at, 0);
        fixed = sort_key(pixel.rgb, params.key) - params.lo > params.span;
    } else if (params.rule == RULE_EDGES) {
        fixed = on_edge(at);
    }
    if (params.masked == 1u && textureLoad(mask, at, 0).x == 0u) {
        fixed = true;
    }
    if (fixed) {
        return FIXED;
    }
    if (params.rule == RULE_RANDOM && ((starts[pos >> 5u] >> (pos & 31u)) & 1u) == 1u) {
        return START;
    }
    return JOIN;
}

/// Whether a pixel of cell `now` at `pos` begins an interval after a pixel of cell `before`.
fn begins(pos: u32, now: u32, before: u32) -> bool {
    return pos > 0u && (now != JOIN || before == FIXED);
}

/// Marks where the random intervals of `line` start, as `random::interval_starts` does: the line's
/// own SplitMix64 generator, seeded with draw `line` of the generator seeded with the seed, draws
/// each interval's length as `min_len + draw % len_count`.
fn mark_random_starts(line: u32) {
    let seed = vec2<u32>(params.seed_low, params.seed_high);
    var state = splitmix_mix(add64(seed, mul64(vec2<u32>(line + 1u, 0u), SPLITMIX_GAMMA)));
    let len = params.line_len;
    var pos = 0u;
    loop {
        starts[pos >> 5u] |= 1u << (pos & 31u);
        state = add64(state, SPLITMIX_GAMMA);
        let step = params.min_len + rem64(splitmix_mix(state), params.len_count);
        if (step >= len - pos) {
            break;
        }
        pos += step;
    }
}

@compute @workgroup_size(WORKGROUP)
fn find_intervals(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let line = wid.y * params.groups_x + wid.x;
    if (line >= params.line_count) {
        // The whole workgroup leaves together: no barrier is skipped by only some.
        return;
    }
    let len = params.line_len;
    if (params.rule == RULE_RANDOM) {
        for (var word = lid; word < START_WORDS; word += WORKGROUP) {
            starts[word] = 0u;
        }
        workgroupBarrier();
        // The lengths come one after another from one generator: one invocation walks them.
        if (lid == 0u) {
            mark_random_starts(line);
        }
        workgroupBarrier();
    }
    let share = (len + WORKGROUP - 1u) / WORKGROUP;
    let first = min(lid * share, len);
    let end = min(first + share, len);
    // The cell before this share (none before the line's first: it counts as fixed, and
    // position 0 begins nothing anyway).
    var before = FIXED;
    if (first > 0u && first < len) {
        before = cell(line, first - 1u);
    }
    var begun = 0u;
    var previous = before;
    for (var pos = first; pos < end; pos += 1u) {
        let now = cell(line, pos);
        begun += select(0u, 1u, begins(pos, now, previous));
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
    previous = before;
    for (var pos = first; pos < end; pos += 1u) {
        let now = cell(line, pos);
        id += select(0u, 1u, begins(pos, now, previous));
        textureStore(ids, coord(line, pos), vec4<u32>(id, 0u, 0u, 0u));
        previous = now;
    }
}
