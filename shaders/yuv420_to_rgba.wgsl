//! A 4:2:0 frame turned into the RGBA picture a sort starts from, exactly as `to_rgba` does on
//! the CPU (`src/picture/yuv.rs`): limited range, 16-bit fixed-point coefficients given by the
//! CPU, each chroma sample shared by its 2x2 block (an odd side's last column or row alone).
//!
//! The planes are bytes as ffmpeg's `rawvideo` lays them out (luma, then Cb, then Cr, rows
//! unpadded), read four to a word. One invocation a pixel.

/// Mirrors `RgbaParams` in `src/engine/yuv420.rs`.
struct RgbaParams {
    width: u32,
    height: u32,
    chroma_width: u32,
    /// The first byte of the Cb plane, and of the Cr plane.
    cb_start: u32,
    cr_start: u32,
    /// Coefficients times 2^16: `R = cy·Y' + crv·V'`, `G = cy·Y' − cgu·U' − cgv·V'`,
    /// `B = cy·Y' + cbu·U'`.
    cy: i32,
    crv: i32,
    cgu: i32,
    cgv: i32,
    cbu: i32,
    _pad: vec2<u32>,
}

@group(0) @binding(0) var<storage, read> planes: array<u32>;
@group(0) @binding(1) var<uniform> params: RgbaParams;
@group(0) @binding(2) var picture: texture_storage_2d<rgba8uint, write>;

/// One half in 16-bit fixed point, for rounding to nearest.
const HALF: i32 = 32768;

fn byte_at(i: u32) -> i32 {
    return i32((planes[i >> 2u] >> ((i & 3u) * 8u)) & 0xffu);
}

fn channel(value: i32) -> u32 {
    return u32(clamp(value >> 16u, 0, 255));
}

@compute @workgroup_size(16, 16)
fn yuv420_to_rgba(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= params.width || id.y >= params.height {
        return;
    }
    let l = params.cy * (byte_at(id.y * params.width + id.x) - 16) + HALF;
    let c = (id.y / 2u) * params.chroma_width + id.x / 2u;
    let u = byte_at(params.cb_start + c) - 128;
    let v = byte_at(params.cr_start + c) - 128;
    let rgba = vec4<u32>(
        channel(l + params.crv * v),
        channel(l - params.cgu * u - params.cgv * v),
        channel(l + params.cbu * u),
        255u,
    );
    textureStore(picture, vec2<i32>(id.xy), rgba);
}
