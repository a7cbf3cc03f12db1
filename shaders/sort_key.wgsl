//! Sort keys: the prelude every sorting kernel is composed with.
//!
//! Each key is pure integer arithmetic on the 8-bit channels, so the GPU and the Rust
//! mirror in `src/keys/mod.rs` agree bit for bit on every adapter (a test compares all 2^24
//! RGB values). Key ids and constants must match `SortKey` in `src/keys/mod.rs`; a test
//! checks them through naga.

const KEY_LUMA: u32 = 0u;
const KEY_HUE: u32 = 1u;
const KEY_SATURATION: u32 = 2u;
const KEY_VALUE: u32 = 3u;
const KEY_RED: u32 = 4u;
const KEY_GREEN: u32 = 5u;
const KEY_BLUE: u32 = 6u;

/// One sixth of the hue circle in hue-key units.
const HUE_SECTOR: u32 = 65536u;
/// Largest saturation key (a fully saturated colour).
const SATURATION_MAX: u32 = 65535u;

/// Rec. 601 luma on the stored (gamma-encoded) values, scaled by 1000: 299 R + 587 G + 114 B.
fn luma_key(c: vec3<u32>) -> u32 {
    return 299u * c.r + 587u * c.g + 114u * c.b;
}

/// HSV hue: 0 for greys, otherwise 1 + the angle in units of 1/(6 * HUE_SECTOR) of a turn,
/// starting at red and going through yellow, green, cyan, blue and magenta.
fn hue_key(c: vec3<u32>) -> u32 {
    let hi = max(c.r, max(c.g, c.b));
    let lo = min(c.r, min(c.g, c.b));
    let d = hi - lo;
    if (d == 0u) {
        return 0u;
    }
    var h: u32;
    if (hi == c.r) {
        if (c.g >= c.b) {
            h = (c.g - c.b) * HUE_SECTOR / d;
        } else {
            h = 6u * HUE_SECTOR - (c.b - c.g) * HUE_SECTOR / d;
        }
    } else if (hi == c.g) {
        if (c.b >= c.r) {
            h = 2u * HUE_SECTOR + (c.b - c.r) * HUE_SECTOR / d;
        } else {
            h = 2u * HUE_SECTOR - (c.r - c.b) * HUE_SECTOR / d;
        }
    } else {
        if (c.r >= c.g) {
            h = 4u * HUE_SECTOR + (c.r - c.g) * HUE_SECTOR / d;
        } else {
            h = 4u * HUE_SECTOR - (c.g - c.r) * HUE_SECTOR / d;
        }
    }
    return h + 1u;
}

/// HSV saturation scaled to 0..=SATURATION_MAX; black has saturation 0.
fn saturation_key(c: vec3<u32>) -> u32 {
    let hi = max(c.r, max(c.g, c.b));
    let lo = min(c.r, min(c.g, c.b));
    if (hi == 0u) {
        return 0u;
    }
    return (hi - lo) * SATURATION_MAX / hi;
}

/// The key of one pixel (alpha never takes part).
fn sort_key(c: vec3<u32>, kind: u32) -> u32 {
    switch kind {
        case KEY_HUE: { return hue_key(c); }
        case KEY_SATURATION: { return saturation_key(c); }
        case KEY_VALUE: { return max(c.r, max(c.g, c.b)); }
        case KEY_RED: { return c.r; }
        case KEY_GREEN: { return c.g; }
        case KEY_BLUE: { return c.b; }
        default: { return luma_key(c); }
    }
}

/// The key in sorting order: ascending sorts compare `sort_key`, descending sorts compare
/// its bitwise complement, so every sort stays "swap when left > right" and stays stable.
fn order_key(c: vec3<u32>, kind: u32, descending: u32) -> u32 {
    let k = sort_key(c, kind);
    return select(k, ~k, descending != 0u);
}
