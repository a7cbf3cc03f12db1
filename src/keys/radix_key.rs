//! The radix view's integer key: the sort key quantised to a chosen number of bits, and its
//! digits. Mirrored by `radix_key` and `radix_digit` in `shaders/radix.wgsl`.
//!
//! Every sort key is an integer already (`src/keys/mod.rs`); its exact width is the bits of its
//! largest value (luma 18, hue 19, saturation 16, value and the channels 8). Keeping fewer
//! bits drops the low ones (`key >> (exact - bits)`), which merges neighbouring keys into one
//! and so keeps their input order. With the exact width the radix view sorts exactly like the
//! other algorithms. Descending order sorts `2^bits - 1 - q`, which reverses the order and
//! keeps ties in input order, like the complement the comparison sorts use.
//!
//! Sorting within intervals, the key is composite: the pixel's interval id above the quantised key,
//! `interval << bits | key`, with as many interval bits as the largest interval id needs. The
//! interval id's digits are the most significant, so LSD sorts by them last: earlier passes may
//! carry pixels across intervals, the last ones put every pixel back into its own interval, in key
//! order.

use crate::keys::SortKey;
use crate::keys::options::SortOptions;

/// Digit widths the radix view offers: 2, 4, 16 or 256 buckets per pass.
pub const DIGIT_BITS: [u32; 4] = [1, 2, 4, 8];

/// The digit width after `bits` in [`DIGIT_BITS`], wrapping around (the viewers' D key).
pub fn next_digit_bits(bits: u32) -> u32 {
    let at = DIGIT_BITS.iter().position(|&b| b == bits).unwrap_or(0);
    DIGIT_BITS[(at + 1) % DIGIT_BITS.len()]
}
/// The digit width used when none is asked for: 16 buckets, a handful of passes for every
/// key (5 for luma), each one a visible step.
pub const DEFAULT_DIGIT_BITS: u32 = 4;

/// How many bits hold every value of `key` exactly.
pub fn exact_bits(key: SortKey) -> u32 {
    u32::BITS - key.max_value().leading_zeros()
}

/// A sort key quantised to `bits` bits, in sorting order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RadixKey {
    /// The key, order and axis.
    pub options: SortOptions,
    /// Bits kept, 1..=[`exact_bits`].
    pub bits: u32,
    /// Bits of the interval id above the key (0 without intervals); `bits + interval_bits <= 32`.
    pub interval_bits: u32,
}

impl RadixKey {
    /// The key of `options` with `bits` bits, `None` for the exact key; errors name the range.
    pub fn new(options: SortOptions, bits: Option<u32>) -> Result<Self, String> {
        let exact = exact_bits(options.key);
        let bits = bits.unwrap_or(exact);
        if !(1..=exact).contains(&bits) {
            return Err(format!(
                "--key-bits {bits} is out of range for the {} key: use 1 to {exact} ({exact} keeps it exact)",
                options.key
            ));
        }
        Ok(RadixKey { options, bits, interval_bits: 0 })
    }

    /// The same key with interval ids of `interval_bits` bits above it; errors say why it does not
    /// fit 32 bits and what to do.
    pub fn with_interval_bits(self, interval_bits: u32) -> Result<Self, String> {
        let total = self.bits + interval_bits;
        if total > u32::BITS {
            let fix = match u32::BITS.checked_sub(interval_bits).filter(|&b| b > 0) {
                Some(fewer) => {
                    format!("pass --key-bits {fewer} (or fewer) or a smaller picture (--max-size)")
                }
                None => "pass a smaller picture (--max-size)".into(),
            };
            return Err(format!(
                "the radix view sorts each interval by its interval id above the key, and {interval_bits} bits of interval ids and {} bits of {} need {total} bits, more than 32; {fix}",
                self.bits, self.options.key
            ));
        }
        Ok(RadixKey { interval_bits, ..self })
    }

    /// Low bits dropped from the sort key.
    pub fn shift(&self) -> u32 {
        exact_bits(self.options.key) - self.bits
    }

    /// The largest quantised key.
    pub fn mask(&self) -> u32 {
        ((1u64 << self.bits) - 1) as u32
    }

    /// The quantised key of `pixel` in sorting order.
    pub fn of(&self, pixel: [u8; 4]) -> u32 {
        let q = self.options.key.of(pixel) >> self.shift();
        if self.options.descending { self.mask() - q } else { q }
    }

    /// The composite key of `pixel` in interval `interval`: `interval << bits | of(pixel)`.
    pub fn in_interval(&self, pixel: [u8; 4], interval: u32) -> u32 {
        debug_assert!(
            u64::from(interval) < 1 << self.interval_bits,
            "interval id {interval} needs more than {} bits",
            self.interval_bits
        );
        if self.interval_bits == 0 { self.of(pixel) } else { interval << self.bits | self.of(pixel) }
    }

    /// Digit passes for digits of `digit_bits` bits: the key's, then the interval id's.
    pub fn passes(&self, digit_bits: u32) -> u32 {
        (self.bits + self.interval_bits).div_ceil(digit_bits)
    }

    /// Digit `pass` (0 = least significant) of `pixel`'s key.
    pub fn digit(&self, pixel: [u8; 4], pass: u32, digit_bits: u32) -> u32 {
        self.digit_in_interval(pixel, 0, pass, digit_bits)
    }

    /// Digit `pass` (0 = least significant) of the composite key of `pixel` in interval `interval`.
    pub fn digit_in_interval(&self, pixel: [u8; 4], interval: u32, pass: u32, digit_bits: u32) -> u32 {
        (self.in_interval(pixel, interval) >> (pass * digit_bits)) & ((1 << digit_bits) - 1)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_d_key_cycles_through_every_digit_width() {
        let widths: Vec<u32> =
            std::iter::successors(Some(1), |&b| Some(super::next_digit_bits(b))).take(5).collect();
        assert_eq!(widths, [1, 2, 4, 8, 1]);
    }

    use super::*;
    use crate::keys::options::Axis;

    fn options(key: SortKey, descending: bool) -> SortOptions {
        SortOptions { key, descending, axis: Axis::Rows }
    }

    #[test]
    fn exact_widths_hold_every_key() {
        let widths: Vec<_> = SortKey::ALL.iter().map(|&k| exact_bits(k)).collect();
        assert_eq!(widths, [18, 19, 16, 8, 8, 8, 8]);
        for key in SortKey::ALL {
            assert!(u64::from(key.max_value()) < 1 << exact_bits(key));
            assert!(u64::from(key.max_value()) >= 1 << (exact_bits(key) - 1));
        }
    }

    /// The exact key orders pixels exactly as the comparison sorts' order key does.
    #[test]
    fn the_exact_key_orders_like_the_order_key() {
        let pixels: Vec<[u8; 4]> =
            (0..4096u32).map(|i| [(i * 37) as u8, ((i * 101) >> 3) as u8, ((i * 7) >> 2) as u8, 9]).collect();
        for key in SortKey::ALL {
            for descending in [false, true] {
                let o = options(key, descending);
                let radix = RadixKey::new(o, None).unwrap();
                for w in pixels.windows(2) {
                    let (a, b) = (w[0], w[1]);
                    assert_eq!(radix.of(a).cmp(&radix.of(b)), o.order_key(a).cmp(&o.order_key(b)), "{o:?}");
                }
            }
        }
    }

    #[test]
    fn fewer_bits_coarsen_the_key_monotonically() {
        let o = options(SortKey::Red, false);
        let four = RadixKey::new(o, Some(4)).unwrap();
        assert_eq!(
            (four.of([0x0f, 0, 0, 0]), four.of([0x10, 0, 0, 0]), four.of([0xff, 0, 0, 0])),
            (0, 1, 15)
        );
        let down = RadixKey::new(SortOptions { descending: true, ..o }, Some(4)).unwrap();
        assert_eq!((down.of([0x0f, 0, 0, 0]), down.of([0xff, 0, 0, 0])), (15, 0));
        assert_eq!(four.passes(1), 4);
        assert_eq!(RadixKey::new(options(SortKey::Luma, false), None).unwrap().passes(4), 5);
        assert_eq!(four.digit([0xb0, 0, 0, 0], 1, 2), 0b10);
    }

    #[test]
    fn interval_ids_sit_above_the_key_and_add_passes() {
        let key = RadixKey::new(options(SortKey::Red, false), None).unwrap().with_interval_bits(3).unwrap();
        assert_eq!(key.in_interval([0x12, 0, 0, 0], 5), 0x512);
        assert_eq!(key.passes(4), 3, "8 key bits and 3 interval bits in 4-bit digits");
        assert_eq!(key.digit_in_interval([0x12, 0, 0, 0], 5, 2, 4), 5);
        assert_eq!(key.digit([0x12, 0, 0, 0], 2, 4), 0);
        // A higher interval always sorts after a lower one, whatever the keys.
        assert!(key.in_interval([0xff, 0, 0, 0], 1) < key.in_interval([0, 0, 0, 0], 2));
        let down = RadixKey::new(options(SortKey::Red, true), None).unwrap().with_interval_bits(1).unwrap();
        assert_eq!(down.in_interval([0xff, 0, 0, 0], 1), 0x100);
    }

    #[test]
    fn keys_and_interval_ids_must_fit_32_bits_and_the_error_says_how() {
        let hue = RadixKey::new(options(SortKey::Hue, false), None).unwrap();
        assert_eq!(hue.with_interval_bits(13).unwrap().passes(8), 4);
        let e = hue.with_interval_bits(14).unwrap_err();
        assert!(e.contains("33 bits") && e.contains("--key-bits 18") && e.contains("--max-size"), "{e}");
        let e =
            RadixKey::new(options(SortKey::Red, false), Some(1)).unwrap().with_interval_bits(32).unwrap_err();
        assert!(!e.contains("--key-bits") && e.contains("--max-size"), "{e}");
    }

    #[test]
    fn bits_outside_the_key_are_refused_with_the_range() {
        let o = options(SortKey::Saturation, false);
        let err = RadixKey::new(o, Some(17)).unwrap_err();
        assert!(err.contains("1 to 16"), "{err}");
        assert!(RadixKey::new(o, Some(0)).is_err());
        assert!(RadixKey::new(o, Some(16)).is_ok());
    }
}
