//! The sound of a step as docs/algorithms.md ("The sound of a step") defines it, written from
//! that text for the tests (tests/cli/record_sound.rs, tests/window/sound.rs) and sharing nothing
//! with `shadersort::sound`: the triangle, its pitch by key, the tones a step's moved pixels
//! make, at 48000 Hz (recordings, and the window's ALSA output).
#![allow(dead_code, reason = "each test binary uses part of this module")]

use shadersort::keys::SortKey;

/// A recording's sample rate.
pub const RATE: usize = 48_000;

/// The wave of a 32-bit phase: a triangle from -32768 up to 32767 and back.
pub fn triangle(phase: u32) -> i32 {
    let t = (phase >> 16) as i32;
    if t < 32768 { 2 * t - 32768 } else { 98303 - 2 * t }
}

/// The pitch of key `k` of a key whose largest value is `max`: 110 · 2^(4k/K) Hz.
pub fn pitch(k: u32, max: u32) -> f64 {
    110.0 * 2f64.powf(4.0 * f64::from(k) / f64::from(max))
}

/// The phase step of a tone of `f` Hz: round(f · 2^32 / R).
pub fn phase_step(f: f64) -> u32 {
    (f * 4_294_967_296.0 / RATE as f64).round() as u32
}

/// A tone of `f` Hz, `len` samples long, with its 5 ms envelope.
pub fn tone(f: f64, len: usize) -> Vec<i16> {
    let step = phase_step(f);
    let a = (RATE / 200).min(len / 2) as i64;
    let sample = |j: usize| {
        let wave = i64::from(triangle((j as u32).wrapping_mul(step)));
        let rise = (j as i64).min((len - 1 - j) as i64).min(a);
        // Integer division in Rust truncates toward zero, as the definition asks.
        if a == 0 { 0 } else { (wave * rise / (2 * a)) as i16 }
    };
    (0..len).map(sample).collect()
}

/// The tones of a step of `s` samples in which `m` positions moved: for each, the index of its
/// position among the moved ones, and its first and end samples within the step.
pub fn tones(m: usize, s: usize) -> Vec<(usize, usize, usize)> {
    let t = 30 * RATE / 1000;
    let n = m.min(12).min((s / t).max(1));
    (0..n).map(|i| (i * m / n, i * s / n, (i + 1) * s / n)).collect()
}

/// The positions of a line whose pixel (all four bytes) differs from the line before.
pub fn moved(before: &[[u8; 4]], now: &[[u8; 4]]) -> Vec<usize> {
    (0..now.len()).filter(|&p| before[p] != now[p]).collect()
}

/// The samples of a step `s` samples long in which the line went from `before` to `now`, its
/// pitch following `key`.
pub fn step_sound(before: &[[u8; 4]], now: &[[u8; 4]], key: SortKey, s: usize) -> Vec<i16> {
    let mut out = vec![0; s];
    let positions = moved(before, now);
    for (index, from, to) in tones(positions.len(), s) {
        let f = pitch(key.of(now[positions[index]]), key.max_value());
        out[from..to].copy_from_slice(&tone(f, to - from));
    }
    out
}
