//! Draws a lane's picture (an rgba8uint texture, what the sorts work on) into the window at the
//! shared zoom, texel for texel: each screen pixel shows the picture pixel under its centre, with
//! no filtering and no conversion pass in between.

/// Mirrors `PictureParams` in `src/app/display.rs`.
struct PictureParams {
    /// The picture's top-left corner on the target, in pixels.
    origin: vec2<f32>,
    /// Picture pixels per target pixel along x and y (0.5 shows each picture pixel 2x2).
    texels_per_pixel: vec2<f32>,
}

/// True where the target stores linear values (an sRGB surface): the picture's sRGB-encoded
/// values are decoded first, so the target encodes them back to what the file holds.
override SRGB_TARGET: bool = false;

@group(0) @binding(0) var picture: texture_2d<u32>;
@group(0) @binding(1) var<uniform> params: PictureParams;

/// A triangle that covers the viewport; the scissor keeps it inside the picture's clip rect.
@vertex
fn fullscreen_vertex(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    let uv = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4<f32>(uv * 2.0 - 1.0, 0.0, 1.0);
}

fn linear_from_srgb(c: vec3<f32>) -> vec3<f32> {
    return select(pow((c + 0.055) / 1.055, vec3<f32>(2.4)), c / 12.92, c <= vec3<f32>(0.04045));
}

@fragment
fn draw_picture(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    let texel = floor((position.xy - params.origin) * params.texels_per_pixel);
    let dims = vec2<f32>(textureDimensions(picture));
    if (any(texel < vec2<f32>(0.0)) || any(texel >= dims)) {
        discard;
    }
    let p = vec4<f32>(textureLoad(picture, vec2<u32>(texel), 0)) / 255.0;
    if (SRGB_TARGET) {
        return vec4<f32>(linear_from_srgb(p.rgb), p.a);
    }
    return p;
}
