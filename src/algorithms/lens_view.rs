//! What a run shows the row lens (`src/lens/`): the GPU textures and buffers that hold its
//! lines' state as the run keeps them, and what its last step did. Nothing is copied for the
//! lens; it reads the run's own state.

use super::interval_texture::IntervalTexture;
use super::ping_pong::PingPong;
use crate::keys::options::{Axis, SortOptions};

/// The GPU state of a run, as the row lens reads it.
pub struct LensView<'a> {
    /// The state now, in sequence space: each line is a row or a column of it (`axis`).
    pub state: &'a wgpu::Texture,
    /// The state before the last step (odd-even, bubble), or the input of the digit pass under
    /// way or just done (radix); `None` before the first step.
    pub before: Option<&'a wgpu::Texture>,
    /// Whether the lines are the rows or the columns of `state`.
    pub axis: Axis,
    /// The interval map: the interval id of every position (`None` without intervals).
    pub intervals: Option<&'a wgpu::Texture>,
    /// Key and order.
    pub options: SortOptions,
    /// Steps done.
    pub steps_done: u32,
    /// What the algorithm's last step was.
    pub step: LensStep<'a>,
}

impl<'a> LensView<'a> {
    /// The view of a run whose every step rewrites every texel of `pictures` (odd-even, bubble):
    /// the state after `steps_done` steps, and the one before it in the other texture.
    pub fn of_ping_pong(
        pictures: &'a PingPong,
        intervals: &'a IntervalTexture,
        options: SortOptions,
        steps_done: u32,
        step: LensStep<'a>,
    ) -> Self {
        LensView {
            state: pictures.state(steps_done),
            before: (steps_done > 0).then(|| pictures.state(steps_done - 1)),
            axis: options.axis,
            intervals: intervals.enabled().then(|| intervals.texture()),
            options,
            steps_done,
            step,
        }
    }
}

/// What the last step of a run did, by algorithm.
pub enum LensStep<'a> {
    /// Odd-even transposition: step `k` was the pass of iteration `k - 1`.
    OddEven,
    /// The single-workgroup bubble: each step a dispatch of a budget of phases.
    Bubble {
        /// Phases per step (the budget).
        phases_per_step: u32,
        /// Phases after which every line is sorted (the longest interval's length).
        line_phases: u32,
        /// Per line, two words the last dispatch wrote: the phases it ran, and 1 when the line
        /// left early because a phase pair made no swap.
        reports: &'a wgpu::Buffer,
    },
    /// The bitonic network: step `k` was stage `k - 1` (`super::bitonic::stage::Stage::at`).
    Bitonic {
        /// Stages in all.
        stages: u32,
    },
    /// LSD radix: steps are digit passes, or stages of a pass's scatter.
    Radix {
        /// The pass under way or just done (`None` before the first).
        pass: Option<RadixPass>,
        /// Per sequence, digit-major, the exclusive prefix sums of the digit counts of that pass
        /// (`shaders/radix.wgsl`); `None` where the whole-picture steps run on the device-wide
        /// sort, which keeps no per-digit counts.
        counts: Option<&'a wgpu::Buffer>,
        /// The interval ids the pass's input pixels carry (`None` without intervals).
        input_intervals: Option<&'a wgpu::Texture>,
        /// Bits per digit.
        digit_bits: u32,
        /// Digit passes in all, and stages per pass.
        passes: u32,
        /// Scatter stages per digit pass.
        stages: u32,
        /// Whether the whole picture is one sequence.
        whole_picture: bool,
    },
}

/// A radix digit pass as the lens reads it: the digit rule and the tiling of its counts
/// (the fields of `RadixParams` that say which digit a pixel has and where its counts are).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RadixPass {
    /// 1 for descending order.
    pub descending: u32,
    /// Low bits dropped from the sort key, and 2^key_bits - 1.
    pub key_shift: u32,
    /// See `key_shift`.
    pub key_mask: u32,
    /// The pass's digit: `(key >> digit_shift) & digit_mask`.
    pub digit_shift: u32,
    /// See `digit_shift`.
    pub digit_mask: u32,
    /// Where the interval id sits in the composite key.
    pub interval_shift: u32,
    /// Pixels per sequence.
    pub seq_len: u32,
    /// Tiles per sequence, and pixels per tile.
    pub tiles: u32,
    /// See `tiles`.
    pub tile_len: u32,
}
