//! What a radix run sorts and how it is shown: the sequences (each line, or the whole picture
//! as one), the digit width and scatter stages per pass, and where a stage's scatter ends.
//! The CPU model (`crate::reference::radix`) reads sequences and stages on its own.

use crate::keys::options::{Axis, Scope};
use crate::keys::radix_key::RadixKey;

/// The sequences a radix sort orders: each line, or the whole picture in scanline order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sequences {
    /// Picture width.
    pub width: u32,
    /// Picture height.
    pub height: u32,
    /// Rows or columns: the lines, or the scanline order of the whole picture.
    pub axis: Axis,
    /// Lines or the whole picture.
    pub scope: Scope,
}

impl Sequences {
    /// How many sequences there are.
    pub fn count(&self) -> usize {
        match (self.scope, self.axis) {
            (Scope::Image, _) => 1,
            (Scope::Rows, Axis::Rows) => self.height as usize,
            (Scope::Rows, Axis::Columns) => self.width as usize,
        }
    }

    /// Pixels per sequence.
    pub fn len(&self) -> usize {
        let (w, h) = (self.width as usize, self.height as usize);
        match (self.scope, self.axis) {
            (Scope::Image, _) => w * h,
            (Scope::Rows, Axis::Rows) => w,
            (Scope::Rows, Axis::Columns) => h,
        }
    }

    /// Whether the sequences are empty (a picture without pixels).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// How a radix sort is shown: digit width and scatter stages per pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RadixPlan {
    /// The quantised key.
    pub key: RadixKey,
    /// Bits per digit.
    pub digit_bits: u32,
    /// Steps per digit pass: 1, or more to show the scatter in stages.
    pub stages: u32,
    /// The picture's alpha is a recorder palette index below 128: waiting pixels also get
    /// index + 128, their dimmed twin (see `record::palette::quantize_with_dimmed_twins`).
    pub twin_indices: bool,
}

impl RadixPlan {
    /// Digit passes.
    pub fn passes(&self) -> u32 {
        self.key.passes(self.digit_bits)
    }

    /// Steps of the whole sort.
    pub fn steps(&self) -> u32 {
        self.passes() * self.stages
    }
}

/// The positions of a sequence of `len` scattered once stage `stage` of `stages` is done:
/// `0..stage_limit`. Mirrored on the GPU through `RadixParams::scatter_end`.
pub fn stage_limit(len: usize, stage: u32, stages: u32) -> usize {
    (len as u64 * u64::from(stage)).div_ceil(u64::from(stages)) as usize
}
