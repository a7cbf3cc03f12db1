//! What a step dispatched, as the shader panel shows it: the compiled program's text, the entry
//! point, the dispatch's size, the step's uniform words and the pipeline's constants.

use crate::gpu::shaders::Compiled;
use std::ops::Range;
use std::sync::Arc;

/// One kernel a step ran.
#[derive(Clone, Debug, PartialEq)]
pub struct Dispatch {
    /// The program's name ([`crate::gpu::shaders::Program::name`]).
    pub program: &'static str,
    /// The files the program was joined from, in order.
    pub files: &'static [&'static str],
    /// The WGSL text exactly as compiled.
    pub source: Arc<str>,
    /// The entry point.
    pub entry: &'static str,
    /// How it ran: workgroups of invocations, or fragments of a draw.
    pub grid: Grid,
    /// The words of the step's `params` uniform, in the struct's order.
    pub uniform: Vec<u32>,
    /// The pipeline's overridable constants, by name.
    pub constants: Vec<(&'static str, f64)>,
    /// The steps this dispatch ran (several when one dispatch runs several stages).
    pub steps: Range<u32>,
}

/// How a kernel ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grid {
    /// A compute dispatch: workgroups, and invocations in each.
    Compute {
        /// Workgroups along x, y and z.
        workgroups: [u32; 3],
        /// Invocations in a workgroup along x, y and z.
        workgroup_size: [u32; 3],
    },
    /// A draw over a target of this width and height: one fragment a texel.
    Fragment {
        /// Width and height of the target.
        size: (u32, u32),
    },
}

impl Grid {
    /// Invocations (or fragments) in all.
    pub fn invocations(&self) -> u64 {
        match *self {
            Grid::Compute { workgroups, workgroup_size } => {
                workgroups.iter().chain(&workgroup_size).map(|&n| u64::from(n)).product()
            }
            Grid::Fragment { size } => u64::from(size.0) * u64::from(size.1),
        }
    }
}

impl Dispatch {
    /// A dispatch of `entry` in `compiled`, with `params` as its uniform, for `steps`.
    pub fn new<P: bytemuck::Pod>(
        compiled: &Compiled,
        entry: &'static str,
        grid: Grid,
        params: &P,
        constants: Vec<(&'static str, f64)>,
        steps: Range<u32>,
    ) -> Dispatch {
        Dispatch {
            program: compiled.program.name,
            files: compiled.program.files,
            source: compiled.source.clone(),
            entry,
            grid,
            uniform: bytemuck::cast_slice(bytemuck::bytes_of(params)).to_vec(),
            constants,
            steps,
        }
    }
}
