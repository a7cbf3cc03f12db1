//! 64-bit unsigned integers for WGSL, which has none: a value is `vec2<u32>(low, high)`. Just
//! what the kernels that find intervals need to match the CPU's `u64` arithmetic bit for bit: the
//! edges' squared Sobel magnitudes and the random intervals' SplitMix64 generator
//! (`src/picture/patterns.rs`).

/// The full 64-bit product of two 32-bit numbers, from four 16-bit products.
fn mul_wide(a: u32, b: u32) -> vec2<u32> {
    let a0 = a & 0xffffu;
    let a1 = a >> 16u;
    let b0 = b & 0xffffu;
    let b1 = b >> 16u;
    let p00 = a0 * b0;
    let p01 = a0 * b1;
    let p10 = a1 * b0;
    let p11 = a1 * b1;
    let mid = (p00 >> 16u) + (p01 & 0xffffu) + (p10 & 0xffffu);
    return vec2<u32>((mid << 16u) | (p00 & 0xffffu), p11 + (p01 >> 16u) + (p10 >> 16u) + (mid >> 16u));
}

/// `a + b`, wrapping.
fn add64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    let low = a.x + b.x;
    return vec2<u32>(low, a.y + b.y + select(0u, 1u, low < a.x));
}

/// `a * b`, wrapping (the low 64 bits of the product).
fn mul64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    let low = mul_wide(a.x, b.x);
    return vec2<u32>(low.x, low.y + a.x * b.y + a.y * b.x);
}

/// `a >> n` for `0 < n < 32`.
fn shr64(a: vec2<u32>, n: u32) -> vec2<u32> {
    return vec2<u32>((a.x >> n) | (a.y << (32u - n)), a.y >> n);
}

/// `a > b`.
fn greater64(a: vec2<u32>, b: vec2<u32>) -> bool {
    return a.y > b.y || (a.y == b.y && a.x > b.x);
}

/// `a % m` for `m > 0`: long division a bit at a time, keeping the remainder below `m` (a
/// remainder whose doubling passes 32 bits is at least `m`, and the wrapping subtraction then
/// gives the true one).
fn rem64(a: vec2<u32>, m: u32) -> u32 {
    var r = 0u;
    for (var i = 0u; i < 64u; i += 1u) {
        let word = select(a.x, a.y, i < 32u);
        let bit = (word >> (31u - (i & 31u))) & 1u;
        let carry = r >> 31u;
        r = (r << 1u) | bit;
        if (carry == 1u || r >= m) {
            r -= m;
        }
    }
    return r;
}

/// SplitMix64's increment.
const SPLITMIX_GAMMA: vec2<u32> = vec2<u32>(0x7f4a7c15u, 0x9e3779b9u);

/// SplitMix64's output for the state `z` (after the increment), as `SplitMix64::next_u64`.
fn splitmix_mix(state: vec2<u32>) -> vec2<u32> {
    var z = state;
    z = mul64(z ^ shr64(z, 30u), vec2<u32>(0x1ce4e5b9u, 0xbf58476du));
    z = mul64(z ^ shr64(z, 27u), vec2<u32>(0x133111ebu, 0x94d049bbu));
    return z ^ shr64(z, 31u);
}
