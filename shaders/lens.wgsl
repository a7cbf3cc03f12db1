//! The row lens: one line of a run's state, read on the GPU where the run keeps it, for the
//! window to draw. Nothing here sorts; it reads what the sort left.
//!
//! For each position along the line it writes `CELL_WORDS` words: the pixel there now, its sort key
//! and interval id, the pixel there before the last step, and for a radix pass the digit of that
//! input pixel and the slot the pass's scatter sent it to. The slot follows the scatter's own rule
//! (`scatter` in `radix.wgsl`): the first slot of its digit and tile, read from the pass's counts,
//! plus the number of earlier pixels of the tile with the same digit. After the cells come
//! `extra_count` words copied from the run's buffer (the radix pass's prefix sums, or the bubble
//! dispatch's report of the line). Composed after `sort_key.wgsl`.

/// Mirrors `LensParams` in `src/lens/probe.rs`.
struct LensParams {
    key: u32,
    /// Texel of position 0, and the step from one position to the next.
    origin_x: u32,
    origin_y: u32,
    unit_x: u32,
    unit_y: u32,
    /// Positions on the line.
    len: u32,
    /// 1 when `before` holds the state before the last step (else it is `state` again).
    has_before: u32,
    /// 1 when `intervals` is an interval map (else a stand-in).
    has_intervals: u32,
    /// 0: no digits; 1: digits of the input pixels; 2: digits and scatter slots.
    radix: u32,
    /// The radix pass's parameters (see `RadixParams` in `radix.wgsl`).
    descending: u32,
    key_shift: u32,
    key_mask: u32,
    digit_shift: u32,
    digit_mask: u32,
    interval_shift: u32,
    /// 1 when the input pixels carry interval ids (`input_intervals`).
    carried_intervals: u32,
    /// The sequence the line lies in, where its position 0 lies in the sequence, and the
    /// sequence's length; 1 in `whole_picture` when the picture is one sequence.
    seq: u32,
    seq_first: u32,
    seq_len: u32,
    whole_picture: u32,
    /// 1 when sequences are columns (or the picture is read column by column).
    columns: u32,
    /// Tiles per sequence and pixels per tile.
    tiles: u32,
    tile_len: u32,
    /// Words copied from `extra` after the cells: `extra[extra_first + i * extra_stride]`.
    extra_first: u32,
    extra_stride: u32,
    extra_count: u32,
    _pad0: u32,
    _pad1: u32,
}

/// Words per position: pixel, key, interval id, pixel before, digit, slot.
const CELL_WORDS: u32 = 6u;
/// Marks a word that does not apply (no digit, no slot).
const NONE: u32 = 0xffffffffu;

@group(0) @binding(0) var state: texture_2d<u32>;
@group(0) @binding(1) var before: texture_2d<u32>;
@group(0) @binding(2) var intervals: texture_2d<u32>;
@group(0) @binding(3) var input_intervals: texture_2d<u32>;
@group(0) @binding(4) var<uniform> lens: LensParams;
@group(0) @binding(5) var<storage, read_write> out: array<u32>;
@group(0) @binding(6) var<storage, read> extra: array<u32>;

/// The texel of position `i` of the line.
fn line_texel(i: u32) -> vec2<u32> {
    return vec2<u32>(lens.origin_x + i * lens.unit_x, lens.origin_y + i * lens.unit_y);
}

/// The texel of position `pos` of the sequence. Mirrors `texel` in `radix.wgsl`.
fn sequence_texel(pos: u32) -> vec2<u32> {
    let dims = textureDimensions(before);
    if (lens.whole_picture == 1u) {
        if (lens.columns == 1u) {
            return vec2<u32>(pos / dims.y, pos % dims.y);
        }
        return vec2<u32>(pos % dims.x, pos / dims.x);
    }
    return select(vec2<u32>(pos, lens.seq), vec2<u32>(lens.seq, pos), lens.columns == 1u);
}

/// The radix pass's digit of the input pixel at texel `t`. Mirrors `radix_digit` in `radix.wgsl`.
fn input_digit(t: vec2<u32>) -> u32 {
    let c = textureLoad(before, t, 0).rgb;
    var interval = 0u;
    if (lens.carried_intervals == 1u) {
        interval = textureLoad(input_intervals, t, 0).r;
    }
    let q = sort_key(c, lens.key) >> lens.key_shift;
    let key = (interval << lens.interval_shift) | select(q, lens.key_mask - q, lens.descending != 0u);
    return (key >> lens.digit_shift) & lens.digit_mask;
}

@compute @workgroup_size(64)
fn read_line(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if (i < lens.extra_count) {
        out[lens.len * CELL_WORDS + i] = extra[lens.extra_first + i * lens.extra_stride];
    }
    if (i >= lens.len) {
        return;
    }
    let t = line_texel(i);
    let now = textureLoad(state, t, 0);
    let base = i * CELL_WORDS;
    out[base] = pack4xU8(now);
    out[base + 1u] = sort_key(now.rgb, lens.key);
    out[base + 2u] = select(0u, textureLoad(intervals, t, 0).r, lens.has_intervals == 1u);
    out[base + 3u] = select(0u, pack4xU8(textureLoad(before, t, 0)), lens.has_before == 1u);
    var digit = NONE;
    var slot = NONE;
    if (lens.radix != 0u) {
        digit = input_digit(t);
        if (lens.radix == 2u) {
            let pos = lens.seq_first + i;
            let tile = pos / lens.tile_len;
            let buckets = lens.digit_mask + 1u;
            slot = extra[(lens.seq * buckets + digit) * lens.tiles + tile];
            for (var q = tile * lens.tile_len; q < pos; q += 1u) {
                slot += u32(input_digit(sequence_texel(q)) == digit);
            }
        }
    }
    out[base + 4u] = digit;
    out[base + 5u] = slot;
}
