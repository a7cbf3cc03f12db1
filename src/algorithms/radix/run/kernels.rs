//! The kernels each radix step runs, for the step itself and the shader panel, and the work
//! they cost: a digit pass's first stage counts the digits of every tile, scans the counts and
//! (with several stages) dims the pixels still to place; every stage scatters its share of the
//! sequence.

use super::{RadixRun, TILE_CHUNK};
use crate::algorithms::kernel_view::{Dispatch, Grid};
use crate::algorithms::work::Work;

/// One of the radix program's kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kernel {
    Count,
    Scan,
    Dim,
    Scatter,
}

impl Kernel {
    fn entry(self) -> &'static str {
        match self {
            Kernel::Count => "count_digits",
            Kernel::Scan => "scan_counts",
            Kernel::Dim => "dim",
            Kernel::Scatter => "scatter",
        }
    }

    /// Invocations in a workgroup (`@workgroup_size` in `shaders/radix.wgsl`).
    fn workgroup_size(self) -> [u32; 3] {
        match self {
            Kernel::Dim => [16, 16, 1],
            _ => [TILE_CHUNK, 1, 1],
        }
    }
}

impl RadixRun {
    /// The kernels step `step` dispatches, in order, with their workgroups.
    pub(super) fn step_kernels(&self, step: u32) -> Vec<(Kernel, [u32; 3])> {
        let (groups_x, groups_y) = self.tile_groups();
        let tiles = [groups_x, groups_y, 1];
        let mut kernels = Vec::with_capacity(4);
        if step.is_multiple_of(self.plan.stages) {
            kernels.push((Kernel::Count, tiles));
            kernels.push((Kernel::Scan, [self.sequences.count() as u32, 1, 1]));
            if self.plan.stages > 1 {
                let (width, height) = (self.sequences.width, self.sequences.height);
                kernels.push((Kernel::Dim, [width.div_ceil(16), height.div_ceil(16), 1]));
            }
        }
        kernels.push((Kernel::Scatter, tiles));
        kernels
    }

    /// Step `step`'s kernels with their uniform: on the crate's sort, the gather and the place
    /// around it.
    pub(super) fn kernels(&self, step: u32) -> Vec<Dispatch> {
        if let Some(image) = &self.image {
            return image.kernels(&self.plan.key, self.plan.digit_bits, step);
        }
        let params = self.step_params(step);
        self.step_kernels(step)
            .into_iter()
            .map(|(kernel, workgroups)| {
                let grid = Grid::Compute { workgroups, workgroup_size: kernel.workgroup_size() };
                Dispatch::new(&self.compiled, kernel.entry(), grid, &params, Vec::new(), step..step + 1)
            })
            .collect()
    }
}

impl RadixRun {
    /// The work of step `step` besides the pixels it moved (on the crate's sorts:
    /// `ImageSteps::work`). LSD radix compares no keys. Counted per kernel the step dispatches,
    /// pixels 4 bytes each; the interval ids the pixels carry, the counts and the parameters
    /// are not counted:
    ///
    /// - `count_digits`, a workgroup per tile: loads each pixel of its tile; two barriers.
    /// - `scan_counts`, a workgroup per sequence: counts only; a barrier after its sums and two
    ///   per round of its scan (log2 of its 256 invocations).
    /// - `dim`: loads and stores every pixel; no barriers.
    /// - `scatter`, a workgroup per tile: loads each pixel of its tile and stores those of the
    ///   stage's share of every sequence; a barrier after loading the slots, two per chunk.
    pub(super) fn work(&self, step: u32) -> Work {
        if let Some(image) = &self.image {
            return image.work(step);
        }
        let sequences = self.sequences.count() as u64;
        let pixels = sequences * self.sequences.len() as u64;
        let tiles = u64::from(self.tiling.all_tiles);
        let params = self.step_params(step);
        let share = sequences * u64::from(params.scatter_end - params.scatter_begin);
        let (mut read, mut written, mut barriers) = (0, 0, 0);
        for (kernel, _) in self.step_kernels(step) {
            let (r, w, b) = match kernel {
                Kernel::Count => (pixels, 0, 2 * tiles),
                Kernel::Scan => (0, 0, sequences * (1 + 2 * u64::from(TILE_CHUNK.ilog2()))),
                Kernel::Dim => (pixels, pixels, 0),
                Kernel::Scatter => (pixels, share, tiles * (1 + 2 * u64::from(self.tiling.chunks))),
            };
            (read, written, barriers) = (read + r, written + w, barriers + b);
        }
        Work::of(0, (read, written), barriers)
    }
}
