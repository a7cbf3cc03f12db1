//! Many inputs sorted in one run with the same settings, each into a folder under its own name:
//! the inputs gathered and named, the pipeline that reads, sorts and writes them over the CPU's
//! cores and one GPU, and what became of each. The terminal and the window each show it their way.

mod gate;
pub mod inputs;
mod outcomes;
mod pipeline;
mod reader;
mod sorting;
mod stages;

pub use inputs::{Inputs, Job, Kind, gather, nothing_found};
pub use outcomes::{Outcome, Outcomes, Report};
pub use pipeline::in_flight;
pub use stages::Batch;
