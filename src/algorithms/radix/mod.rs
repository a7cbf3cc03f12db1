//! The radix view: LSD radix sort of every line (or of the whole picture as one sequence),
//! one step per digit pass, or per stage of a pass's scatter when sub-steps are shown. Each
//! pass is the classic histogram (`count_digits`), prefix sum (`scan_counts`) and stable
//! scatter of `shaders/radix.wgsl`, moving whole pixels between two textures.
//!
//! Within intervals each pixel carries its interval id through the passes, in a second pair of
//! textures ping-ponged with the pictures, and the key is composite: the interval id above the key
//! (`RadixKey::interval_bits`), whose digits LSD sorts last.
//!
//! The whole-picture scope sorts one sequence of W x H pixels. Without sub-steps each of its
//! steps is a device-wide sort of the input by the key bits sorted so far
//! ([`image`]): the same states, pass by pass, at the speed of `crates/wgpu-radix-sort`.
//! Shown in stages (or too large for one device sort), it runs the three kernels above with a
//! single workgroup scanning every tile's counts: correct for every size, not fast. Lines sorted
//! where nobody watches the steps (`RadixSettings::device_sorted_lines`) take the same way on
//! the segmented sort, each line a segment, where a workgroup holds a line.

mod carried;
pub mod image;
mod pipelines;
pub mod plan;
mod run;
mod settings;
mod tiling;

pub use pipelines::Radix;
pub use run::RadixRun;
pub use settings::{RadixSettings, SUB_STEPS};
pub use tiling::{RadixParams, TILE_CHUNK, Tiling};
