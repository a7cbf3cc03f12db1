//! Threshold intervals: a pixel is sorted when its interval key lies inside a range given in
//! fractions of the key's range, so one threshold means the same for every key.

use super::Cell;
use crate::keys::SortKey;
use image::RgbaImage;
use std::str::FromStr;

/// An inclusive range `lo..=hi` of fractions of a key's range (0 is the key's smallest value,
/// 1 its largest, [`SortKey::max_value`]); `0 <= lo <= hi <= 1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Threshold {
    lo: f64,
    hi: f64,
}

impl Threshold {
    /// The threshold used when none is given: the middle of the range.
    pub const DEFAULT: Threshold = Threshold { lo: 0.25, hi: 0.75 };
    /// Every value: all pixels are sorted.
    pub const ALL: Threshold = Threshold { lo: 0.0, hi: 1.0 };

    /// `lo..=hi`; the message says what is wrong and how to write it.
    pub fn new(lo: f64, hi: f64) -> Result<Self, String> {
        const FORM: &str =
            "give LO..HI with 0 <= LO <= HI <= 1, fractions of the key's range (like 0.25..0.75)";
        for v in [lo, hi] {
            if !(0.0..=1.0).contains(&v) {
                return Err(format!("{v} is outside 0..1; {FORM}"));
            }
        }
        if lo > hi {
            return Err(format!("LO {lo} is above HI {hi}; {FORM}"));
        }
        Ok(Threshold { lo, hi })
    }

    /// The lower end.
    pub fn lo(&self) -> f64 {
        self.lo
    }

    /// The upper end.
    pub fn hi(&self) -> f64 {
        self.hi
    }

    /// Whether `value` of `key` lies inside: `lo * max <= value <= hi * max`.
    pub fn contains(&self, key: SortKey, value: u32) -> bool {
        let (v, max) = (f64::from(value), f64::from(key.max_value()));
        self.lo * max <= v && v <= self.hi * max
    }

    /// The values of `key` inside, as whole numbers: exactly those [`Threshold::contains`]
    /// holds (an empty range when none is), so a frame is tested with two integer compares.
    pub fn key_values(&self, key: SortKey) -> std::ops::RangeInclusive<u32> {
        let max = f64::from(key.max_value());
        // Both products lie in 0..=max, so the casts are exact after ceil and floor.
        (self.lo * max).ceil() as u32..=(self.hi * max).floor() as u32
    }
}

impl FromStr for Threshold {
    type Err = String;

    /// `LO..HI`, for example `0.25..0.75`.
    fn from_str(s: &str) -> Result<Self, String> {
        let (lo, hi) = parse_range(s)?;
        Threshold::new(lo, hi)
    }
}

/// A sweep of the threshold for an animation (the "melting" effect): frame `k` of `frames` is
/// sorted within the threshold `0..t`, `t` going evenly from `from` to `to` (either may be the
/// larger: a sweep can play backwards).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ThresholdSweep {
    /// `t` of the first frame.
    pub from: f64,
    /// `t` of the last frame.
    pub to: f64,
    /// Frames, at least 2.
    pub frames: u32,
}

impl ThresholdSweep {
    /// Frames when none are asked for: one second at 30 frames per second.
    pub const DEFAULT_FRAMES: u32 = 30;

    /// A sweep from `from` to `to` in `frames` frames.
    ///
    /// # Panics
    /// When an end is outside 0..=1 or there are fewer than 2 frames.
    pub fn new(from: f64, to: f64, frames: u32) -> Self {
        assert!(
            (0.0..=1.0).contains(&from) && (0.0..=1.0).contains(&to),
            "sweep ends {from}..{to} outside 0..1"
        );
        assert!(frames >= 2, "a sweep has at least 2 frames");
        ThresholdSweep { from, to, frames }
    }

    /// The threshold of frame `frame` (0-based): `0..t`.
    pub fn threshold(&self, frame: u32) -> Threshold {
        let last = self.frames - 1;
        let t = if frame >= last {
            self.to
        } else {
            self.from + (self.to - self.from) * f64::from(frame) / f64::from(last)
        };
        Threshold::new(0.0, t.clamp(0.0, 1.0)).expect("0 <= t <= 1")
    }
}

/// `A..B` as two numbers, without checking their order or range.
pub fn parse_range(s: &str) -> Result<(f64, f64), String> {
    let number = |t: &str| t.trim().parse::<f64>().ok().filter(|v| v.is_finite());
    match s.split_once("..").map(|(a, b)| (number(a), number(b))) {
        Some((Some(a), Some(b))) => Ok((a, b)),
        _ => Err(format!("'{s}' is not a range like 0.25..0.75 (two fractions of the key's range)")),
    }
}

/// For every pixel (row-major), whether its `key` lies outside `threshold`: the fixed pixels.
pub fn outside(picture: &RgbaImage, key: SortKey, threshold: Threshold) -> Vec<bool> {
    cells(picture, key, threshold).into_iter().map(|c| c == Cell::Fixed).collect()
}

/// Every pixel's cell (row-major) under `threshold` alone: inside joins the interval before it,
/// outside is fixed. One loop per key, so the key's formula is inlined into it (a 1080p frame
/// takes a few milliseconds, where a key chosen per pixel took three times as long).
pub fn cells(picture: &RgbaImage, key: SortKey, threshold: Threshold) -> Vec<Cell> {
    fn each(raw: &[u8], inside: std::ops::RangeInclusive<u32>, of: impl Fn([u8; 4]) -> u32) -> Vec<Cell> {
        let (lo, hi) = (*inside.start(), *inside.end());
        if lo > hi {
            return vec![Cell::Fixed; raw.len() / 4];
        }
        // One unsigned compare, no branch: values below `lo` wrap around to above `hi - lo`.
        let span = hi - lo;
        let cell = move |value: u32| if value.wrapping_sub(lo) <= span { Cell::Join } else { Cell::Fixed };
        raw.as_chunks::<4>().0.iter().map(|&p| cell(of(p))).collect()
    }
    let (raw, inside) = (picture.as_raw().as_slice(), threshold.key_values(key));
    match key {
        SortKey::Luma => each(raw, inside, |p| SortKey::Luma.of(p)),
        SortKey::Hue => each(raw, inside, |p| SortKey::Hue.of(p)),
        SortKey::Saturation => each(raw, inside, |p| SortKey::Saturation.of(p)),
        SortKey::Value => each(raw, inside, |p| SortKey::Value.of(p)),
        SortKey::Red => each(raw, inside, |p| SortKey::Red.of(p)),
        SortKey::Green => each(raw, inside, |p| SortKey::Green.of(p)),
        SortKey::Blue => each(raw, inside, |p| SortKey::Blue.of(p)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_inclusive_fractions_of_the_key() {
        let half = Threshold::new(0.5, 1.0).unwrap();
        // Red ranges over 0..=255: 0.5 * 255 = 127.5.
        assert!(!half.contains(SortKey::Red, 127));
        assert!(half.contains(SortKey::Red, 128) && half.contains(SortKey::Red, 255));
        // Luma ranges over 0..=255000.
        assert!(half.contains(SortKey::Luma, 127_500) && !half.contains(SortKey::Luma, 127_499));
        let ends = Threshold::new(0.0, 0.0).unwrap();
        assert!(ends.contains(SortKey::Hue, 0) && !ends.contains(SortKey::Hue, 1));
        let top = Threshold::new(1.0, 1.0).unwrap();
        assert!(top.contains(SortKey::Saturation, 65535) && !top.contains(SortKey::Saturation, 65534));
        assert!(
            SortKey::ALL
                .iter()
                .all(|&k| Threshold::ALL.contains(k, 0) && Threshold::ALL.contains(k, k.max_value()))
        );
    }

    #[test]
    fn the_whole_numbers_inside_are_exactly_the_values_contains_holds() {
        let thresholds =
            [(0.0, 1.0), (0.25, 0.75), (0.5, 0.5), (0.3, 0.3), (1.0, 1.0), (0.0, 0.0), (0.1, 0.9)];
        for (lo, hi) in thresholds {
            let t = Threshold::new(lo, hi).unwrap();
            for key in SortKey::ALL {
                let inside = t.key_values(key);
                for v in 0..=key.max_value() {
                    assert_eq!(inside.contains(&v), t.contains(key, v), "{key:?} {v} in {lo}..{hi}");
                }
            }
        }
    }

    #[test]
    fn thresholds_parse_and_bad_ones_say_why() {
        assert_eq!("0.2..0.9".parse::<Threshold>().unwrap(), Threshold::new(0.2, 0.9).unwrap());
        assert_eq!(" 0 .. 1 ".parse::<Threshold>().unwrap(), Threshold::ALL);
        let e = "0.8..0.2".parse::<Threshold>().unwrap_err();
        assert!(e.contains("LO 0.8 is above HI 0.2"), "{e}");
        let e = "0.5..1.5".parse::<Threshold>().unwrap_err();
        assert!(e.contains("1.5 is outside 0..1"), "{e}");
        assert!("-0.1..0.5".parse::<Threshold>().unwrap_err().contains("outside"));
        for bad in ["0.5", "a..b", "0.1..", "..0.3", "NaN..1", "0.1-0.2"] {
            assert!(bad.parse::<Threshold>().unwrap_err().contains("not a range"), "{bad}");
        }
    }

    #[test]
    fn a_sweep_goes_evenly_from_its_first_to_its_last_threshold() {
        let up = ThresholdSweep::new(0.2, 1.0, 5);
        for (k, hi) in [0.2, 0.4, 0.6, 0.8, 1.0].into_iter().enumerate() {
            assert!((up.threshold(k as u32).hi() - hi).abs() < 1e-12, "frame {k}");
        }
        assert_eq!(up.threshold(4).hi(), 1.0, "the last frame is exactly the end");
        assert!((0..5).all(|k| up.threshold(k).lo() == 0.0));
        let down = ThresholdSweep::new(0.7, 0.1, 2);
        assert_eq!((down.threshold(0).hi(), down.threshold(1).hi()), (0.7, 0.1));
    }

    #[test]
    fn pixels_outside_the_range_are_the_fixed_ones() {
        let img = RgbaImage::from_fn(4, 1, |x, _| image::Rgba([x as u8 * 80, 0, 0, 255]));
        let t = Threshold::new(0.3, 0.7).unwrap();
        // Reds 0, 80, 160, 240 of 255: 76.5..=178.5 holds 80 and 160.
        assert_eq!(outside(&img, SortKey::Red, t), [true, false, false, true]);
    }
}
