//! The sound of a step, as docs/algorithms.md ("The sound of a step") defines it: the pixels a
//! step moved on one line sound as short triangle tones whose pitch follows their key, in the
//! line's order. The window, the page and recordings all make their samples here; only how they
//! are played or written differs.

pub mod line;

/// The sample rate of a recording's sound.
pub const RECORDING_RATE: u32 = 48_000;

/// The most tones one step sounds.
const MOST_TONES: usize = 12;

/// The shortest a tone is, in milliseconds, while a step has fewer than [`MOST_TONES`].
const TONE_MS: u32 = 30;

/// The lowest pitch (A2), that of the smallest key; the largest key sounds four octaves higher.
const LOWEST_HZ: f64 = 110.0;

/// Octaves from the smallest key's pitch to the largest's.
const OCTAVES: f64 = 4.0;

/// The pitch of `key` out of `key_max`, in hertz.
pub fn pitch(key: u32, key_max: u32) -> f64 {
    LOWEST_HZ * (OCTAVES * f64::from(key) / f64::from(key_max.max(1))).exp2()
}

/// Appends the `samples` samples at `rate` of a step that moved pixels whose keys (out of
/// `key_max`) are `moved`, in the line's order: silence when it moved none.
pub fn step(moved: &[u32], key_max: u32, samples: usize, rate: u32, out: &mut Vec<i16>) {
    let start = out.len();
    out.resize(start + samples, 0);
    let m = moved.len();
    if m == 0 || samples == 0 {
        return;
    }
    let shortest = (TONE_MS * rate / 1000).max(1) as usize;
    let n = m.min(MOST_TONES).min((samples / shortest).max(1));
    for i in 0..n {
        let key = moved[i * m / n];
        let (from, to) = (i * samples / n, (i + 1) * samples / n);
        tone(pitch(key, key_max), rate, &mut out[start + from..start + to]);
    }
}

/// Fills `out` with one tone of `hz` at `rate`: a triangle from a 32-bit phase, at half of full
/// scale, rising and falling over 5 ms at its ends.
fn tone(hz: f64, rate: u32, out: &mut [i16]) {
    let len = out.len();
    let step = (hz * 4_294_967_296.0 / f64::from(rate)).round() as u32;
    let ramp = ((rate / 200) as usize).min(len / 2);
    if ramp == 0 {
        out.fill(0);
        return;
    }
    let mut phase = 0u32;
    for (j, sample) in out.iter_mut().enumerate() {
        let t = (phase >> 16) as i64;
        let wave = if t < 32768 { 2 * t - 32768 } else { 98303 - 2 * t };
        let envelope = j.min(len - 1 - j).min(ramp) as i64;
        *sample = (wave * envelope / (2 * ramp as i64)) as i16;
        phase = phase.wrapping_add(step);
    }
}

/// Where each frame of a recording at `fps` starts, in samples at `rate`: frame `k` sounds from
/// `frame_start(k)` to `frame_start(k + 1)`.
pub fn frame_start(frame: u64, fps: u32, rate: u32) -> u64 {
    frame * u64::from(rate) / u64::from(fps.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tone_is_a_triangle_under_its_envelope() {
        // 1 kHz at 48 kHz: 48 samples a period, a phase step of 2^32 / 48.
        let mut out = vec![0i16; 960];
        tone(1000.0, 48_000, &mut out);
        let ramp = 240;
        assert_eq!(out[0], 0, "the envelope starts at 0");
        // Sample 480 (ten whole periods in) is at phase 0 up to rounding: the trough, -32768,
        // at the envelope's top (half of full scale).
        assert!((out[480] as i32 + 16384).abs() <= 2, "{}", out[480]);
        // A quarter period later the triangle crosses 0 rising; half a period, its crest.
        assert!(out[480 + 12].abs() <= 2 && (out[480 + 24] as i32 - 16384).abs() <= 2);
        assert_eq!(out[959], 0, "and ends at 0");
        assert!(out[..ramp].iter().all(|s| s.abs() <= 16384));
        assert!(out.iter().all(|s| (-16384..=16384).contains(s)));
    }

    #[test]
    fn a_step_spreads_at_most_twelve_tones_over_its_samples_in_the_lines_order() {
        let rate = 48_000;
        let max = 255;
        // 3 moved pixels over 0.3 s: three tones of 0.1 s each.
        let mut out = Vec::new();
        step(&[0, 255, 0], max, 14_400, rate, &mut out);
        assert_eq!(out.len(), 14_400);
        let mut alone = vec![0i16; 4800];
        tone(pitch(255, max), rate, &mut alone);
        assert_eq!(&out[4800..9600], alone.as_slice(), "the second tone is the largest key's");
        // 40 moved over 0.09 s: three 30 ms tones, of the pixels at 0, 13 and 26.
        let keys: Vec<u32> = (0..40).collect();
        let mut out = Vec::new();
        step(&keys, 64, 4320, rate, &mut out);
        let mut third = vec![0i16; 1440];
        tone(pitch(26, 64), rate, &mut third);
        assert_eq!(&out[2880..], third.as_slice());
        // Nothing moved: silence of the step's length, after what was there.
        let mut out = vec![7i16];
        step(&[], max, 100, rate, &mut out);
        assert_eq!(out, [[7].as_slice(), &[0; 100]].concat());
        // Frames start on whole samples at any rate.
        assert_eq!((frame_start(1, 30, rate), frame_start(3, 7, rate)), (1600, 20_571));
        assert_eq!((pitch(0, max), pitch(max, max)), (110.0, 1760.0));
    }
}
