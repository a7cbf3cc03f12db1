//! The work models of `tests/gpu_work_network.rs`: what each kernel of the bitonic network and
//! of the radix view costs, written from the kernels' definitions.

pub mod bitonic;
pub mod radix;
