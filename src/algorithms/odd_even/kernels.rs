//! The kernel each odd-even step runs, for the shader panel: one compute dispatch over the
//! picture, or one draw of its fragments, with the step's parity.

use super::PassKind;
use super::{OddEvenRun, PassParams, WORKGROUP_SIZE};
use crate::algorithms::interval_texture::intervals_constant;
use crate::algorithms::kernel_view::{Dispatch, Grid};
use crate::keys::options::SortOptions;

impl PassParams {
    /// The parameters of a pass of `parity` sorting as `options` say.
    pub fn of(options: SortOptions, parity: u32) -> PassParams {
        PassParams {
            key: options.key.id(),
            descending: options.descending.into(),
            axis: options.axis as u32,
            parity,
        }
    }
}

impl OddEvenRun {
    /// Step `step`'s kernel: pass `step` compares the pairs whose left pixel has its parity.
    pub(super) fn kernels(&self, step: u32) -> Vec<Dispatch> {
        let size = self.pictures.state(0).size();
        let params = PassParams::of(self.options, step % 2);
        let (entry, grid) = match self.kind {
            PassKind::Compute => (
                "odd_even_compute",
                Grid::Compute {
                    workgroups: [
                        size.width.div_ceil(WORKGROUP_SIZE[0]),
                        size.height.div_ceil(WORKGROUP_SIZE[1]),
                        1,
                    ],
                    workgroup_size: [WORKGROUP_SIZE[0], WORKGROUP_SIZE[1], 1],
                },
            ),
            PassKind::Fragment => ("odd_even_fragment", Grid::Fragment { size: (size.width, size.height) }),
        };
        let constants = vec![intervals_constant(self.intervals.enabled())];
        vec![Dispatch::new(&self.compiled, entry, grid, &params, constants, step..step + 1)]
    }
}
