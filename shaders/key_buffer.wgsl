//! Writes the sort key of every texel of a picture into a buffer, in scanline order.
//!
//! Composed after `sort_key.wgsl`. Used to prove the WGSL keys equal the Rust mirror, and by sorts
//! that work on keys rather than on textures.

/// Mirrors `KeyParams` in `src/keys/extract.rs`.
struct KeyParams {
    key: u32,
    descending: u32,
    _pad0: u32,
    _pad1: u32,
}

@group(0) @binding(0) var picture: texture_2d<u32>;
@group(0) @binding(1) var<uniform> params: KeyParams;
@group(0) @binding(2) var<storage, read_write> keys: array<u32>;

@compute @workgroup_size(16, 16)
fn extract_keys(@builtin(global_invocation_id) gid: vec3<u32>) {
    let dims = textureDimensions(picture);
    if (all(gid.xy < dims)) {
        let p = textureLoad(picture, gid.xy, 0);
        keys[gid.y * dims.x + gid.x] = order_key(p.rgb, params.key, params.descending);
    }
}
