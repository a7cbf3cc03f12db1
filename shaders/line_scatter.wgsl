//! The two permutations of a sort at an angle, one kernel: every texel `written` takes the
//! texel of `source` whose row-major index `indices` holds for it, or padding for `NO_TEXEL`.
//! Scatter: `source` is line space, `indices` each picture pixel's *place* there (a permutation
//! onto the texels that are not padding, so each lands exactly once and padding nowhere).
//! Gather: `source` is the picture, `indices` the pixel each line-space cell holds.

/// Workgroup size; `WORKGROUP_SIZE` in `src/angle/scatter.rs` (checked by a test).
const WORKGROUP_WIDTH: u32 = 16u;
const WORKGROUP_HEIGHT: u32 = 16u;

/// An index that names no texel: the texel written is padding (0, 0, 0, 0), `PADDING` in
/// `src/angle/line_space.rs`.
const NO_TEXEL: u32 = 0xffffffffu;

/// The texels read: line space (scatter) or the picture (gather).
@group(0) @binding(0) var source: texture_2d<u32>;
/// For each texel written, the row-major index of its texel in `source`, or `NO_TEXEL`.
@group(0) @binding(1) var indices: texture_2d<u32>;
/// The texels written: the picture the window shows and the recorder reads (scatter), or line
/// space (gather).
@group(0) @binding(2) var written: texture_storage_2d<rgba8uint, write>;

@compute @workgroup_size(WORKGROUP_WIDTH, WORKGROUP_HEIGHT)
fn scatter_lines(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(written);
    if (id.x >= size.x || id.y >= size.y) {
        return;
    }
    let at = textureLoad(indices, id.xy, 0).x;
    var texel = vec4<u32>(0u);
    if (at != NO_TEXEL) {
        let width = textureDimensions(source).x;
        texel = textureLoad(source, vec2<u32>(at % width, at / width), 0);
    }
    textureStore(written, id.xy, texel);
}
