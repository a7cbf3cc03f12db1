//! Sorts whose length is read on the GPU (`src/indirect.rs`): `indirect_setup` reads the length,
//! clamps it to the capacity the sort was recorded for, and writes the length and tile count
//! that each pass's parameters take, and the workgroup counts of the sort's dispatches. A sort
//! of 0 or 1 keys dispatches no workgroups at all: nothing moves.

/// Mirrors `SetupParams` in `src/indirect.rs`.
struct SetupParams {
    /// The most keys the sort was recorded for.
    capacity: u32,
    /// The word of `lengths` that holds the length.
    len_word: u32,
    /// Keys per tile of the sort's tile kernel.
    tile: u32,
    /// Keys each workgroup of `histogram_all` counts at a time.
    histogram_block: u32,
    /// The most workgroups along one dimension: more tiles take rows of this many.
    max_groups: u32,
    /// The histogram kernel's workgroups: a quarter of its blocks, within these bounds.
    histogram_min: u32,
    histogram_max: u32,
    _pad: u32,
}

@group(0) @binding(0) var<uniform> setup: SetupParams;
@group(0) @binding(1) var<storage, read> lengths: array<u32>;
/// The length and tile count, then (x, y, z) workgroup counts: the histogram, its scan, each
/// pass's tile kernels, reduce-then-scan's scan of the tiles (`ARGS_*` in `src/indirect.rs`).
@group(0) @binding(2) var<storage, read_write> indirect: array<u32, 14>;

const RADIX: u32 = 256u;

fn write_groups(at: u32, x: u32, y: u32) {
    indirect[at] = x;
    indirect[at + 1u] = y;
    indirect[at + 2u] = 1u;
}

@compute @workgroup_size(1)
fn indirect_setup() {
    let len = min(lengths[setup.len_word], setup.capacity);
    let tiles = (len + setup.tile - 1u) / setup.tile;
    // 0 or 1: whether the sort runs at all.
    let runs = u32(len > 1u);
    indirect[0] = len;
    indirect[1] = tiles;
    let blocks = (len + setup.histogram_block - 1u) / setup.histogram_block;
    write_groups(2u, min(clamp(blocks / 4u, setup.histogram_min, setup.histogram_max), blocks) * runs, 1u);
    write_groups(5u, runs, 1u);
    let x = max(min(tiles, setup.max_groups), 1u);
    write_groups(8u, x * runs, (tiles + x - 1u) / x);
    write_groups(11u, RADIX * runs, 1u);
}
