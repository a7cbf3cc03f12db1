//! The row lens: one line of a run, read back from the run's own GPU state after any step, with
//! what the step did to it (the pairs an odd-even pass compared and swapped, a bubble
//! dispatch's phases and early exit, a radix pass's digits, counts and destinations). The
//! window draws it under the picture; the tests hold it against the CPU model.

pub mod invocation;
pub mod line;
pub mod probe;
pub mod reading;

pub use line::LensLine;
pub use probe::{LensProbe, LensRead};
pub use reading::{LensCell, LensReading, StepReading};
