//! Copies a picture texture (rgba8uint, what the sorts work on) into an rgba8unorm texture the
//! window can show, texel for texel: no filtering, no resampling.

@group(0) @binding(0) var picture: texture_2d<u32>;

@vertex
fn fullscreen_vertex(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    let uv = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4<f32>(uv * 2.0 - 1.0, 0.0, 1.0);
}

@fragment
fn to_unorm(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    let p = textureLoad(picture, vec2<u32>(position.xy), 0);
    return vec4<f32>(p) / 255.0;
}
