//! Bitonic rows: each interval of each line sorted by the bitonic network, one stage per step
//! (`shaders/bitonic.wgsl`; the CPU model is `crate::reference::bitonic`).
//!
//! Steps recorded together run as few dispatches as the network allows: consecutive stages
//! whose comparators stay within blocks of workgroup memory run in one `sort_blocks` dispatch
//! (a whole line of up to a block sorts in one), and each stage that reaches further runs as a
//! `global_stage` dispatch. A stage does the same whichever dispatch runs it, so stepping
//! one stage at a time shows exactly the states the fast path passes through.

mod layout;
#[doc(hidden)]
pub mod lengths;
mod pipelines;
pub mod plan;
mod run;
pub mod stage;

pub use layout::BitonicParams;
pub use pipelines::{Bitonic, BitonicTuning};
pub use run::BitonicRun;
