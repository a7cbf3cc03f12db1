//! The bitonic network's plan within intervals, made on the GPU from an interval-id texture
//! (interval ids found there too, so no map crosses from the CPU): per position its interval
//! (start << 16 | length - 1), and per line its units of `sort_blocks` — exactly `Plan::new` in
//! `src/algorithms/bitonic_plan.rs`, each line's units in its own fixed slots, unused ones empty.
//!
//! One workgroup a line. Its invocations find every position's interval together, each over a
//! chunk of the line, the chunks joined by a scan of where the intervals around them start and
//! end; then one invocation packs the line's intervals into units, stepping from interval to
//! interval (packing needs every earlier interval of the line, but not every position), and all
//! of them clear the slots left. The packing reads the intervals' starts from workgroup memory,
//! where all the invocations gather them a round of `ROUND` positions at a time: read from the
//! bounds in storage, each interval waited for the one before it.

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
/// Per length (0 to `line_len`), how many intervals of the picture have it: what the steps'
/// work is counted from on the CPU (`IntervalLengths`), which never sees these intervals.
@group(0) @binding(4) var<storage, read_write> lengths: array<atomic<u32>>;

fn id_at(line: u32, pos: u32) -> u32 {
    let at = select(vec2<u32>(pos, line), vec2<u32>(line, pos), params.axis == 1u);
    return textureLoad(ids, at, 0).r;
}

/// Whether an interval starts at `pos` (its id differs from the one before).
fn starts_at(line: u32, pos: u32) -> bool {
    return pos == 0u || id_at(line, pos) != id_at(line, pos - 1u);
}

/// Whether an interval ends at `pos` (its id differs from the one after).
fn ends_at(line: u32, pos: u32, len: u32) -> bool {
    return pos + 1u == len || id_at(line, pos) != id_at(line, pos + 1u);
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

/// A line's packing so far: the next slot, the line's slots' end, and the chunk of whole
/// intervals being packed (its start and length, 0: none yet).
struct Packing {
    line: u32,
    next: u32,
    end: u32,
    chunk_start: u32,
    chunk_len: u32,
}

/// Packs the interval of `len` positions from `start` (the line's next one).
fn pack(p: ptr<function, Packing>, start: u32, len: u32) {
    if (len > params.block) {
        if ((*p).chunk_len != 0u) {
            (*p).next = emit((*p).line, (*p).chunk_start, (*p).chunk_len, (*p).next, (*p).end);
            (*p).chunk_len = 0u;
        }
        (*p).next = emit_blocks((*p).line, start, len, (*p).next, (*p).end);
    } else if ((*p).chunk_len != 0u && (*p).chunk_len + len <= params.block) {
        (*p).chunk_len += len;
    } else {
        if ((*p).chunk_len != 0u) {
            (*p).next = emit((*p).line, (*p).chunk_start, (*p).chunk_len, (*p).next, (*p).end);
        }
        (*p).chunk_start = start;
        (*p).chunk_len = len;
    }
}

const WORKGROUP: u32 = 256u;
/// No position: a chunk without an interval's start (or end).
const NONE: u32 = 0xffffffffu;

/// Per chunk: the last interval start in it, then (scanned) the last at or before it.
var<workgroup> last_start: array<u32, WORKGROUP>;
/// Per chunk: the first interval end in it, then (scanned) the first at or after it.
var<workgroup> first_end: array<u32, WORKGROUP>;
/// The slot after the line's last unit, for the clearing of the rest.
var<workgroup> units_end: u32;
/// Positions whose interval starts one round of the packing gathers.
const ROUND: u32 = 2048u;
/// The interval starts of a round, in order.
var<workgroup> round_starts: array<u32, ROUND>;

@compute @workgroup_size(WORKGROUP)
fn bitonic_plan(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    // One workgroup a line, exactly `line_count` of them.
    let line = wid.x;
    let len = params.line_len;
    let row = line * len;
    let chunk = (len + WORKGROUP - 1u) / WORKGROUP;
    let first = min(lid * chunk, len);
    let past = min(first + chunk, len);
    // Where intervals start and end within this invocation's chunk.
    var mine_start = NONE;
    var mine_end = NONE;
    for (var pos = first; pos < past; pos += 1u) {
        if (starts_at(line, pos)) {
            mine_start = pos;
        }
        if (mine_end == NONE && ends_at(line, pos, len)) {
            mine_end = pos;
        }
    }
    last_start[lid] = mine_start;
    first_end[lid] = mine_end;
    workgroupBarrier();
    // The last start at or before each chunk (NONE counts as nothing: max over starts + 1) and
    // the first end at or after it, by doubling reaches.
    for (var reach = 1u; reach < WORKGROUP; reach <<= 1u) {
        var start = last_start[lid];
        var end = first_end[lid];
        if (lid >= reach) {
            let before = last_start[lid - reach];
            if (start == NONE || (before != NONE && before > start)) {
                start = before;
            }
        }
        if (lid + reach < WORKGROUP) {
            end = min(end, first_end[lid + reach]);
        }
        workgroupBarrier();
        last_start[lid] = start;
        first_end[lid] = end;
        workgroupBarrier();
    }
    // The interval around each position: its start carried from the left, its end looked for
    // to the right (each position looked at twice at most), past the chunk the scanned one.
    var start = NONE;
    if (lid > 0u) {
        start = last_start[lid - 1u];
    }
    var right_end = NONE;
    if (lid + 1u < WORKGROUP) {
        right_end = first_end[lid + 1u];
    }
    var end = NONE;
    for (var pos = first; pos < past; pos += 1u) {
        if (starts_at(line, pos)) {
            start = pos;
        }
        if (end == NONE || end < pos) {
            var q = pos;
            while (q < past && !ends_at(line, q, len)) {
                q += 1u;
            }
            end = select(right_end, q, q < past);
        }
        bounds[row + pos] = (start << 16u) | (end - start);
        if (start == pos) {
            atomicAdd(&lengths[end - start + 1u], 1u);
        }
    }
    // Each round gathers the interval starts among `ROUND` positions into workgroup memory, in
    // order (each invocation's share counted, the counts scanned), and one invocation packs
    // the intervals before them; the last interval is packed once the line's end is reached.
    var packing = Packing(line, line * params.slots, (line + 1u) * params.slots, 0u, 0u);
    var pending = NONE;
    let share = ROUND / WORKGROUP;
    workgroupBarrier();
    for (var base = 0u; base < len; base += ROUND) {
        let lo = min(base + lid * share, len);
        let hi = min(lo + share, len);
        var count = 0u;
        for (var pos = lo; pos < hi; pos += 1u) {
            count += u32(starts_at(line, pos));
        }
        last_start[lid] = count;
        workgroupBarrier();
        for (var reach = 1u; reach < WORKGROUP; reach <<= 1u) {
            var sum = last_start[lid];
            if (lid >= reach) {
                sum += last_start[lid - reach];
            }
            workgroupBarrier();
            last_start[lid] = sum;
            workgroupBarrier();
        }
        var at = last_start[lid] - count;
        for (var pos = lo; pos < hi; pos += 1u) {
            if (starts_at(line, pos)) {
                round_starts[at] = pos;
                at += 1u;
            }
        }
        workgroupBarrier();
        if (lid == 0u) {
            for (var k = 0u; k < last_start[WORKGROUP - 1u]; k += 1u) {
                let next_start = round_starts[k];
                if (pending != NONE) {
                    pack(&packing, pending, next_start - pending);
                }
                pending = next_start;
            }
        }
        workgroupBarrier();
    }
    if (lid == 0u) {
        if (pending != NONE) {
            pack(&packing, pending, len - pending);
        }
        if (packing.chunk_len != 0u) {
            packing.next = emit(line, packing.chunk_start, packing.chunk_len, packing.next, packing.end);
        }
        units_end = min(packing.next, packing.end);
    }
    // The slots left stay empty: `sort_blocks` leaves a unit of no positions at once.
    let used = workgroupUniformLoad(&units_end);
    for (var slot = used + lid; slot < (line + 1u) * params.slots; slot += WORKGROUP) {
        units[slot] = vec4<u32>(line, 0u, 0u, 0u);
    }
}
