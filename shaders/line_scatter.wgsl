//! The scatter of a sort at an angle: every picture pixel takes the texel of line space that
//! holds it (its *place*, looked up per pixel), so the sorted lines go back to where they pass
//! through the picture. The places are a permutation onto the line-space texels that are not
//! padding, so each line-space pixel lands exactly once and padding nowhere.

/// Workgroup size; `WORKGROUP_SIZE` in `src/angle/scatter.rs` (checked by a test).
const WORKGROUP_WIDTH: u32 = 16u;
const WORKGROUP_HEIGHT: u32 = 16u;

/// The sort's state: one line per row, left-aligned, padded.
@group(0) @binding(0) var line_space: texture_2d<u32>;
/// For each picture pixel, the row-major index of its texel in line space.
@group(0) @binding(1) var places: texture_2d<u32>;
/// The picture the window shows and the recorder reads.
@group(0) @binding(2) var picture: texture_storage_2d<rgba8uint, write>;

@compute @workgroup_size(WORKGROUP_WIDTH, WORKGROUP_HEIGHT)
fn scatter_lines(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(picture);
    if (id.x >= size.x || id.y >= size.y) {
        return;
    }
    let place = textureLoad(places, id.xy, 0).x;
    let width = textureDimensions(line_space).x;
    textureStore(picture, id.xy, textureLoad(line_space, vec2<u32>(place % width, place / width), 0));
}
