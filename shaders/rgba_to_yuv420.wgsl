//! A sorted frame turned into 8-bit 4:2:0 for an encoder, exactly as `to_yuv420` does on the CPU
//! (`src/picture/yuv.rs`): limited range, 16-bit fixed-point coefficients given by the CPU, each
//! chroma sample the rounded mean of its 2x2 block. Frames have even sides.
//!
//! The planes go into one buffer of words, each row padded to a whole number of 8-pixel blocks
//! (the CPU drops the padding as it reads them back): luma rows of `luma_row_words`, then the
//! Cb rows, then the Cr rows, of `chroma_row_words`. One invocation converts a block of 8x2
//! pixels and writes whole words: two luma words in each of its two rows, one Cb and one Cr
//! word. Pixels past the right edge repeat the last column, into padding nobody reads.

/// Mirrors `Yuv420Params` in `src/engine/yuv420.rs`.
struct Yuv420Params {
    width: u32,
    height: u32,
    luma_row_words: u32,
    chroma_row_words: u32,
    /// The first word of the Cb plane, and of the Cr plane.
    cb_start: u32,
    cr_start: u32,
    /// Blocks of 8x2 pixels across and down.
    blocks_x: u32,
    blocks_y: u32,
    /// Coefficients times 2^16 of R, G and B (w unused): luma, Cb, Cr.
    luma: vec4<i32>,
    cb: vec4<i32>,
    cr: vec4<i32>,
}

@group(0) @binding(0) var picture: texture_2d<u32>;
@group(0) @binding(1) var<uniform> params: Yuv420Params;
@group(0) @binding(2) var<storage, read_write> planes: array<u32>;

/// One half in 16-bit fixed point, for rounding to nearest.
const HALF: i32 = 32768;

/// The RGB of a pixel, the last column standing in for those past it.
fn rgb_at(x: u32, y: u32) -> vec3<i32> {
    let texel = textureLoad(picture, vec2<u32>(min(x, params.width - 1u), y), 0);
    return vec3<i32>(texel.rgb);
}

fn luma_of(rgb: vec3<i32>) -> u32 {
    return u32(clamp((dot(params.luma.xyz, rgb) + (16 << 16u) + HALF) >> 16u, 0, 255));
}

/// A chroma sample from the sum of its block's four pixels: the weighed sum over 4 · 2^16.
fn chroma_of(weights: vec3<i32>, sum: vec3<i32>) -> u32 {
    return u32(clamp((dot(weights, sum) + (128 << 18u) + (1 << 17u)) >> 18u, 0, 255));
}

/// The 2x2 pixels at column `x` of rows `y` and `y + 1`: their two luma bytes of each row (in
/// the low 16 bits, left first), their Cb and their Cr.
fn pair(x: u32, y: u32) -> vec4<u32> {
    let a = rgb_at(x, y);
    let b = rgb_at(x + 1u, y);
    let c = rgb_at(x, y + 1u);
    let d = rgb_at(x + 1u, y + 1u);
    let sum = a + b + c + d;
    return vec4<u32>(
        luma_of(a) | (luma_of(b) << 8u),
        luma_of(c) | (luma_of(d) << 8u),
        chroma_of(params.cb.xyz, sum),
        chroma_of(params.cr.xyz, sum),
    );
}

@compute @workgroup_size(64)
fn rgba_to_yuv420(@builtin(global_invocation_id) id: vec3<u32>) {
    let bx = id.x;
    let by = id.y;
    if bx >= params.blocks_x || by >= params.blocks_y {
        return;
    }
    let x = bx * 8u;
    let y = by * 2u;
    let p0 = pair(x, y);
    let p1 = pair(x + 2u, y);
    let p2 = pair(x + 4u, y);
    let p3 = pair(x + 6u, y);
    let top = y * params.luma_row_words + bx * 2u;
    let bottom = top + params.luma_row_words;
    planes[top] = p0.x | (p1.x << 16u);
    planes[top + 1u] = p2.x | (p3.x << 16u);
    planes[bottom] = p0.y | (p1.y << 16u);
    planes[bottom + 1u] = p2.y | (p3.y << 16u);
    let chroma = by * params.chroma_row_words + bx;
    planes[params.cb_start + chroma] = p0.z | (p1.z << 8u) | (p2.z << 16u) | (p3.z << 24u);
    planes[params.cr_start + chroma] = p0.w | (p1.w << 8u) | (p2.w << 16u) | (p3.w << 24u);
}
