//! Single-workgroup bubble (odd-even transposition) sort: one workgroup sorts one whole line
//! (row or column) in workgroup memory, phase after phase, and stops as soon as a pair of
//! phases made no swap.
//!
//! Composed after `sort_key.wgsl` and `intervals.wgsl` (see `src/gpu/shaders.rs`): a pair swaps only within
//! an interval of the interval map, as in `odd_even.wgsl`.
//!
//! Uniformity: `workgroupBarrier()` must be reached by every invocation of the workgroup, so it
//! may only sit in uniform control flow. A plain load of a `var<workgroup>` is not uniform in
//! WGSL (another invocation may write it at any time), so the textbook early exit
//! `if (swaps == 0u) { break; }` followed by a barrier is rejected by WGSL's uniformity
//! analysis (Tint, in browsers; naga 30 does not check barriers, see tests/shaders.rs).
//! `workgroupUniformLoad` loads a workgroup variable behind a barrier and its result is uniform
//! by definition, so the exit below keeps every barrier in uniform control flow and still stops
//! after the first phase pair without a swap.

/// Mirrors `BubbleParams` in `src/algorithms/bubble.rs`.
struct BubbleParams {
    key: u32,
    descending: u32,
    /// 0: rows, 1: columns.
    axis: u32,
    /// The global index of the first phase of this dispatch (its parity decides the pairs).
    first_phase: u32,
    /// Phases to run at most.
    phases: u32,
    /// Phases after which every line is sorted: the longest interval's length.
    line_phases: u32,
    _pad0: u32,
    _pad1: u32,
}

/// Invocations per workgroup, set by the pipeline to the most the device allows (up to 1024):
/// more invocations mean fewer trips round the pair loop of each phase. That matters beyond
/// speed on Mesa's llvmpipe/lavapipe, which silently end a loop after 65535 trips in one
/// dispatch (counted over all phases): 1024 invocations keep a full line well below that.
override WORKGROUP: u32 = 256u;

/// Longest line held in workgroup memory, set from the adapter's limits by the pipeline.
override ROW_CAPACITY: u32 = 4096u;

@group(0) @binding(0) var src: texture_2d<u32>;
@group(0) @binding(1) var<uniform> params: BubbleParams;
/// This step's slot: swaps, the number of lines found sorted, the most phases any line ran, the
/// phases all lines ran, and the lines that ran an odd number of phases (the step's work, counted
/// on the CPU from these: `src/algorithms/bubble/kernels.rs`).
@group(0) @binding(2) var<storage, read_write> counters: array<atomic<u32>, 5>;
@group(0) @binding(3) var dst: texture_storage_2d<rgba8uint, write>;
/// Per line, what this dispatch did to it, for the window's row lens: the phases it ran, and
/// 1 when it left early because a phase pair made no swap (else 0).
@group(0) @binding(5) var<storage, read_write> line_reports: array<vec2<u32>>;

/// The line, as packed rgba8 pixels.
var<workgroup> line: array<u32, ROW_CAPACITY>;
/// Swaps made by the current phase pair.
var<workgroup> pair_swaps: atomic<u32>;
/// `pair_swaps` copied out, for `workgroupUniformLoad`.
var<workgroup> pair_swapped: u32;

fn ordered(p: u32) -> u32 {
    return order_key(unpack4xU8(p).rgb, params.key, params.descending);
}

fn coord(line_index: u32, pos: u32) -> vec2<u32> {
    return select(vec2<u32>(pos, line_index), vec2<u32>(line_index, pos), params.axis == 1u);
}

/// One compare-exchange phase over line `index`: pairs (x - 1, x) with x of the phase's parity,
/// as in `odd_even.wgsl`; each invocation takes every WORKGROUP-th pair. Returns its swaps.
fn phase(p: u32, index: u32, len: u32, lid: u32) -> u32 {
    var swaps = 0u;
    // The left member of the first pair: 1 on even phases, 0 on odd ones.
    let first_left = 1u - (p & 1u);
    for (var left = first_left + 2u * lid; left + 1u < len; left += 2u * WORKGROUP) {
        let a = line[left];
        let b = line[left + 1u];
        if (ordered(a) > ordered(b) && same_interval(coord(index, left), coord(index, left + 1u))) { // compare-and-swap
            line[left] = b;
            line[left + 1u] = a;
            swaps += 1u;
        }
    }
    return swaps;
}

@compute @workgroup_size(WORKGROUP)
fn bubble(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let dims = textureDimensions(src);
    let len = select(dims.x, dims.y, params.axis == 1u);
    let index = wid.x;
    // The pipeline is only used for lines that fit (checked on the Rust side).
    for (var x = lid; x < len; x += WORKGROUP) {
        line[x] = pack4xU8(textureLoad(src, coord(index, x), 0));
    }
    if (lid == 0u) {
        atomicStore(&pair_swaps, 0u);
    }
    workgroupBarrier();

    var swaps = 0u;
    var done = 0u;
    var sorted = false;
    var left_early = false;
    // `done`, `params` and `workgroupUniformLoad` results are uniform, so every branch and
    // break below is taken by the whole workgroup together.
    loop {
        if (done >= params.phases) {
            break;
        }
        let first = params.first_phase + done;
        var mine = phase(first, index, len, lid);
        workgroupBarrier();
        done += 1u;
        if (done < params.phases) {
            mine += phase(first + 1u, index, len, lid);
            workgroupBarrier();
            done += 1u;
            // Both parities done: if neither phase swapped anything, the line is sorted.
            if (mine != 0u) {
                atomicAdd(&pair_swaps, mine);
            }
            workgroupBarrier();
            if (lid == 0u) {
                pair_swapped = atomicLoad(&pair_swaps);
                atomicStore(&pair_swaps, 0u);
            }
            // A barrier, then a load whose result is the same for every invocation.
            if (workgroupUniformLoad(&pair_swapped) == 0u) {
                sorted = true;
                left_early = true;
                break;
            }
        }
        swaps += mine;
    }
    // A line is also sorted once it has had as many phases as its longest interval has pixels.
    sorted = sorted || params.first_phase + done >= params.line_phases;

    for (var x = lid; x < len; x += WORKGROUP) {
        textureStore(dst, coord(index, x), unpack4xU8(line[x]));
    }
    if (swaps != 0u) {
        atomicAdd(&counters[0], swaps);
    }
    if (lid == 0u) {
        line_reports[index] = vec2<u32>(done, u32(left_early));
        if (sorted) {
            atomicAdd(&counters[1], 1u);
        }
        atomicMax(&counters[2], done);
        atomicAdd(&counters[3], done);
        atomicAdd(&counters[4], done & 1u);
    }
}
