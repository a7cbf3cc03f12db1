//! The sort engine: one per device, owning every kernel family the sorts run (each algorithm's
//! pipelines, the line scatter, the interval finder, the 4:2:0 conversions of clips' frames),
//! each built the first time it is needed
//! and shared from then on; the one way a sort is started ([`Engine::start`]); and the one
//! driver of runs that wait for their swap counts ([`drive`]). Every front end (stills, clips,
//! live sources, the window's and the page's lanes, the recorders, the benchmarks) starts its
//! sorts here.

pub mod drive;
pub mod plan;
#[cfg(not(target_arch = "wasm32"))]
pub mod yuv420;

use crate::algorithms::found_intervals::IntervalsKernel;
use crate::algorithms::interval_texture::IntervalMapError;
use crate::algorithms::request::StartRequest;
use crate::algorithms::{Algorithm, Pipelines, SortRun};
use crate::angle::Lines;
use crate::angle::scatter::LineScatter;
use crate::gpu::Gpu;
use crate::keys::options::{Axis, SortOptions};
pub use plan::Started;
use std::sync::{Arc, OnceLock};
#[cfg(not(target_arch = "wasm32"))]
use yuv420::{Yuv420Kernel, Yuv420Reader};

/// The kernels of one device, built lazily.
pub struct Engine {
    gpu: Arc<Gpu>,
    /// Each algorithm's pipelines, in [`Algorithm::ALL`]'s order.
    pipelines: [OnceLock<Pipelines>; 4],
    scatter: OnceLock<LineScatter>,
    found_intervals: OnceLock<IntervalsKernel>,
    #[cfg(not(target_arch = "wasm32"))]
    yuv420_reader: OnceLock<Yuv420Reader>,
    #[cfg(not(target_arch = "wasm32"))]
    yuv420_kernel: OnceLock<Yuv420Kernel>,
}

impl Engine {
    /// An engine on `gpu`; nothing is built yet.
    pub fn new(gpu: Arc<Gpu>) -> Self {
        Engine {
            gpu,
            pipelines: Default::default(),
            scatter: OnceLock::new(),
            found_intervals: OnceLock::new(),
            #[cfg(not(target_arch = "wasm32"))]
            yuv420_reader: OnceLock::new(),
            #[cfg(not(target_arch = "wasm32"))]
            yuv420_kernel: OnceLock::new(),
        }
    }

    /// The device.
    pub fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    /// The device, shared.
    pub fn shared_gpu(&self) -> &Arc<Gpu> {
        &self.gpu
    }

    /// `algorithm`'s pipelines, built on first use.
    pub fn pipelines(&self, algorithm: Algorithm) -> &Pipelines {
        let index = Algorithm::ALL.iter().position(|&a| a == algorithm).expect("every algorithm is listed");
        self.pipelines[index].get_or_init(|| Pipelines::new(&self.gpu, algorithm))
    }

    /// The kernels that gather lines at an angle or along a path into line space and back.
    pub fn scatter(&self) -> &LineScatter {
        self.scatter.get_or_init(|| LineScatter::new(&self.gpu))
    }

    /// The kernel that finds intervals on the GPU.
    pub fn found_intervals(&self) -> &IntervalsKernel {
        self.found_intervals.get_or_init(|| IntervalsKernel::new(&self.gpu))
    }

    /// The kernel that turns decoded 4:2:0 frames into pictures to sort (clips are native).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn yuv420_reader(&self) -> &Yuv420Reader {
        self.yuv420_reader.get_or_init(|| Yuv420Reader::new(&self.gpu))
    }

    /// The kernel that turns sorted pictures into 4:2:0 frames to encode.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn yuv420_kernel(&self) -> &Yuv420Kernel {
        self.yuv420_kernel.get_or_init(|| Yuv420Kernel::new(&self.gpu))
    }

    /// Starts `algorithm` exactly as asked, along `lines` within the request's intervals (a CPU
    /// map or intervals the GPU finds), for a caller that checked beforehand that it can
    /// ([`Lines::check`]); the error says why not otherwise.
    pub fn start_exactly(
        &self,
        lines: &Lines,
        algorithm: Algorithm,
        request: StartRequest<'_>,
    ) -> Result<Box<dyn SortRun>, IntervalMapError> {
        lines.start(&self.gpu, self.pipelines(algorithm), self.scatter(), request)
    }

    /// Starts `algorithm` on the request's picture along `lines` and within the request's
    /// intervals, as far as the algorithm can follow them ([`plan::plan`] decides and says why
    /// not); should the start fail all the same, along the picture's rows, with the reason.
    pub fn start<'a>(&self, lines: &Lines, algorithm: Algorithm, request: StartRequest<'a>) -> Started<'a> {
        let (options, settings) = (request.options, request.settings);
        let (planned, intervals, notice) =
            plan::plan(lines, algorithm, options, &settings, request.intervals.cpu_map());
        let pipelines = self.pipelines(algorithm);
        match planned.start(&self.gpu, pipelines, self.scatter(), request.clone().within(intervals)) {
            Ok(run) => Started { run, lines: planned, intervals, notice },
            Err(e) => {
                let rows = StartRequest { options: SortOptions { axis: Axis::Rows, ..options }, ..request };
                Started {
                    run: pipelines.start(&self.gpu, rows.within(None)).expect("whole lines fit"),
                    lines: Lines::Axis(Axis::Rows),
                    intervals: None,
                    notice: Some(plan::whole_lines_notice(algorithm, &e)),
                }
            }
        }
    }
}
