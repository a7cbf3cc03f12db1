//! The kernel each odd-even step runs, for the shader panel, and the work it costs: one compute
//! dispatch over the picture, or one draw of its fragments, with the step's parity.

use super::PassKind;
use super::{OddEvenRun, PassParams, WORKGROUP_SIZE};
use crate::algorithms::interval_texture::intervals_constant;
use crate::algorithms::kernel_view::{Dispatch, Grid};
use crate::algorithms::work::{Work, neighbour_pairs};
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

impl OddEvenRun {
    /// The work of step `step` besides its swaps. Every pixel's invocation loads its pixel and
    /// stores one; one of a pair loads its partner too and compares the two keys, so a pair is
    /// compared twice, once in each of its pixels' invocations. A compute workgroup passes one
    /// barrier (before adding its swaps to the step's count); fragments pass none.
    pub(super) fn work(&self, step: u32) -> Work {
        let size = self.pictures.state(0).size();
        let (len, lines) = match self.options.axis {
            crate::keys::options::Axis::Rows => (size.width, size.height),
            crate::keys::options::Axis::Columns => (size.height, size.width),
        };
        let pixels = u64::from(size.width) * u64::from(size.height);
        let pairs = neighbour_pairs(step, len) * u64::from(lines);
        let barriers = match self.kind {
            PassKind::Compute => {
                u64::from(size.width.div_ceil(WORKGROUP_SIZE[0]) * size.height.div_ceil(WORKGROUP_SIZE[1]))
            }
            PassKind::Fragment => 0,
        };
        Work::of(2 * pairs, (pixels + 2 * pairs, pixels), barriers)
    }
}
