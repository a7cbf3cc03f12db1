//! How the radix view sorts besides key, order and axis: digit width, key bits, scope and
//! sub-steps, and the key they make.

use crate::algorithms::RunSettings;
use crate::algorithms::interval_texture::IntervalMapError;
use crate::algorithms::request::StartRequest;
use crate::intervals::IntervalMap;
use crate::keys::options::{Scope, SortOptions};
use crate::keys::radix_key::{DEFAULT_DIGIT_BITS, RadixKey, exact_bits};

/// Scatter stages per digit pass when sub-steps are shown.
pub const SUB_STEPS: u32 = 4;
/// How the radix view sorts, besides key, order and axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RadixSettings {
    /// Bits per digit: 1, 2, 4 or 8.
    pub digit_bits: u32,
    /// Bits of the quantised key; `None` keeps the key exact.
    pub key_bits: Option<u32>,
    /// Each line, or the whole picture.
    pub scope: Scope,
    /// Show each pass's scatter in [`SUB_STEPS`] stages.
    pub sub_steps: bool,
    /// The picture's alpha is a recorder palette index below 128, and pixels waiting in a
    /// staged scatter take the index of their dimmed twin (index + 128).
    pub twin_indices: bool,
    /// Each line's steps sorted by the segmented sort of `crates/wgpu-radix-sort` where a
    /// workgroup holds a line ([`super::image`]): the same states, faster, but the lens then
    /// reads no step's destinations. For sorts nobody watches step by step.
    pub device_sorted_lines: bool,
}

impl RadixSettings {
    /// Exact key, 4-bit digits, each line, no sub-steps.
    pub const DEFAULT: RadixSettings = RadixSettings {
        digit_bits: DEFAULT_DIGIT_BITS,
        key_bits: None,
        scope: Scope::Rows,
        sub_steps: false,
        twin_indices: false,
        device_sorted_lines: false,
    };
}

impl Default for RadixSettings {
    fn default() -> Self {
        RadixSettings::DEFAULT
    }
}

impl RadixSettings {
    /// Scatter stages per digit pass.
    pub fn stages(&self) -> u32 {
        if self.sub_steps { SUB_STEPS } else { 1 }
    }

    /// The quantised key for `options`, with the key bits clamped to what the key has (the
    /// window keeps its setting when the key changes); the message says when they were.
    pub fn key(&self, options: SortOptions) -> (RadixKey, Option<String>) {
        let exact = exact_bits(options.key);
        let bits = self.key_bits.map(|b| b.clamp(1, exact));
        let key = RadixKey::new(options, bits).expect("bits within the key's range");
        let notice = (bits != self.key_bits)
            .then(|| format!("the {} key has {exact} bits: the radix view keeps {}", options.key, key.bits));
        (key, notice)
    }

    /// [`RadixSettings::key`] with the interval ids of `intervals` above it: an error when they do
    /// not fit 32 bits together, or when the scope is the whole picture (intervals are parts of
    /// lines).
    pub fn key_within(
        &self,
        options: SortOptions,
        intervals: Option<&IntervalMap>,
    ) -> Result<(RadixKey, Option<String>), IntervalMapError> {
        self.key_with_interval_bits(options, intervals.map(IntervalMap::interval_bits))
    }

    /// [`RadixSettings::key`] with interval ids of `interval_bits` above it (none without
    /// intervals).
    pub(super) fn key_with_interval_bits(
        &self,
        options: SortOptions,
        interval_bits: Option<u32>,
    ) -> Result<(RadixKey, Option<String>), IntervalMapError> {
        let (key, notice) = self.key(options);
        let Some(interval_bits) = interval_bits else { return Ok((key, notice)) };
        if self.scope == Scope::Image {
            return Err(IntervalMapError::WholePicture);
        }
        let key = key.with_interval_bits(interval_bits).map_err(IntervalMapError::KeyTooWide)?;
        Ok((key, notice))
    }
}

impl StartRequest<'_> {
    /// The same request with the radix view's `radix` settings.
    pub fn radix(self, radix: RadixSettings) -> Self {
        StartRequest { settings: RunSettings { radix, ..self.settings }, ..self }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interval_ids_and_the_key_must_fit_32_bits_and_intervals_need_lines() {
        use crate::intervals::Cell;
        use crate::keys::options::Axis;
        let options = SortOptions { key: crate::keys::SortKey::Hue, ..Default::default() };
        // 16384 fixed pixels: interval ids up to 16383 (14 bits) above 19 bits of hue.
        let fixed = IntervalMap::build(16384, 1, Axis::Rows, |_, _, _| Cell::Fixed);
        let e = RadixSettings::default().key_within(options, Some(&fixed)).unwrap_err();
        assert!(
            matches!(e, IntervalMapError::KeyTooWide(_)) && e.to_string().contains("--key-bits 18"),
            "{e}"
        );
        let fewer = RadixSettings { key_bits: Some(18), ..Default::default() };
        assert_eq!(fewer.key_within(options, Some(&fixed)).unwrap().0.interval_bits, 14);
        let image = RadixSettings { scope: Scope::Image, ..Default::default() };
        let lines = IntervalMap::whole_lines(3, 3, Axis::Rows);
        assert_eq!(image.key_within(options, Some(&lines)).unwrap_err(), IntervalMapError::WholePicture);
        assert_eq!(image.key_within(options, None).unwrap().0.interval_bits, 0);
    }

    #[test]
    fn key_bits_beyond_the_key_are_clamped_with_a_notice() {
        let options = SortOptions { key: crate::keys::SortKey::Red, ..Default::default() };
        let settings = RadixSettings { key_bits: Some(16), ..Default::default() };
        let (key, notice) = settings.key(options);
        assert_eq!(key.bits, 8);
        assert!(notice.unwrap().contains("8 bits"));
        assert_eq!(RadixSettings::default().key(options).1, None);
    }
}
