//! The bitonic network's plan within intervals, made on the GPU from an interval-id texture
//! (interval ids found there too, so no map crosses from the CPU): per position its interval
//! (start << 16 | length - 1), and per line its units of `sort_blocks` — exactly `Plan::new` in
//! `src/algorithms/bitonic_plan.rs`, each line's units in its own fixed slots, unused ones empty.
//!
//! One invocation a line walks it in order: packing intervals into units needs every earlier
//! interval of the line, and a line's walk reads each id once.

/// Mirrors `PlanParams` in `src/algorithms/bitonic_plan.rs`.
struct PlanParams {
    /// 0: rows, 1: columns.
    axis: u32,
    /// Positions per line.
    line_len: u32,
    /// Lines.
    line_count: u32,
    /// Positions a unit holds at most (the block of `sort_blocks` within intervals).
    block: u32,
    /// Unit slots per line (enough for any map: see `slots_per_line`).
    slots: u32,
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
}

@group(0) @binding(0) var ids: texture_2d<u32>;
@group(0) @binding(1) var<uniform> params: PlanParams;
/// Per position (line-major), its interval: start << 16 | (length - 1).
@group(0) @binding(2) var<storage, read_write> bounds: array<u32>;
/// Per line, `slots` units: line, first position, length (0 in an unused slot), 0.
@group(0) @binding(3) var<storage, read_write> units: array<vec4<u32>>;

fn id_at(line: u32, pos: u32) -> u32 {
    let at = select(vec2<u32>(pos, line), vec2<u32>(line, pos), params.axis == 1u);
    return textureLoad(ids, at, 0).r;
}

/// Writes unit `start`, `len` of `line` into the next slot (`next`), if any is left; returns
/// the slot after.
fn emit(line: u32, start: u32, len: u32, next: u32, end: u32) -> u32 {
    if (next < end) {
        units[next] = vec4<u32>(line, start, len, 0u);
    }
    return next + 1u;
}

/// Emits an interval longer than a block as blocks from its start.
fn emit_blocks(line: u32, start: u32, len: u32, first_slot: u32, end: u32) -> u32 {
    var next = first_slot;
    for (var first = 0u; first < len; first += params.block) {
        next = emit(line, start + first, min(params.block, len - first), next, end);
    }
    return next;
}

@compute @workgroup_size(64)
fn bitonic_plan(@builtin(global_invocation_id) gid: vec3<u32>) {
    let line = gid.x;
    if (line >= params.line_count) {
        return;
    }
    let len = params.line_len;
    let row = line * len;
    var next = line * params.slots;
    let end = next + params.slots;
    // The chunk of whole intervals being packed: its start and length (0: none yet).
    var chunk_start = 0u;
    var chunk_len = 0u;
    var interval_start = 0u;
    var id = id_at(line, 0u);
    for (var pos = 0u; pos < len; pos += 1u) {
        var next_id = id;
        if (pos + 1u < len) {
            next_id = id_at(line, pos + 1u);
        }
        if (pos + 1u == len || next_id != id) {
            // The interval [interval_start, pos] ends here.
            let interval_len = pos + 1u - interval_start;
            for (var p = interval_start; p <= pos; p += 1u) {
                bounds[row + p] = (interval_start << 16u) | (interval_len - 1u);
            }
            if (interval_len > params.block) {
                if (chunk_len != 0u) {
                    next = emit(line, chunk_start, chunk_len, next, end);
                    chunk_len = 0u;
                }
                next = emit_blocks(line, interval_start, interval_len, next, end);
            } else if (chunk_len != 0u && chunk_len + interval_len <= params.block) {
                chunk_len += interval_len;
            } else {
                if (chunk_len != 0u) {
                    next = emit(line, chunk_start, chunk_len, next, end);
                }
                chunk_start = interval_start;
                chunk_len = interval_len;
            }
            interval_start = pos + 1u;
        }
        id = next_id;
    }
    if (chunk_len != 0u) {
        next = emit(line, chunk_start, chunk_len, next, end);
    }
    // The slots left stay empty: `sort_blocks` leaves a unit of no positions at once.
    for (; next < end; next += 1u) {
        units[next] = vec4<u32>(line, 0u, 0u, 0u);
    }
}
