//! A sort along lines at an angle or along a path: any algorithm's run on the line-space
//! picture, its state scattered back into the picture on the GPU after every batch of steps. A
//! path's one sequence wrapped from row to row is the radix view's, sorted as a whole picture.
//!
//! [`AngledRun`] is a [`SortRun`] like any other, so the window, the recorder, `--out` and the
//! tests drive it unchanged: its [`SortRun::state`] is always the picture, in image space. The
//! run inside sorts the rows of line space, always within intervals that fix the padding at the end
//! of short lines (the interval map, one of whole lines, or intervals the GPU finds in line
//! space), so the padding never moves and never joins a line's interval.

use super::LineSpace;
use super::scatter::LineScatter;
use crate::algorithms::found_intervals::{FoundIntervals, LineCells};
use crate::algorithms::interval_texture::IntervalMapError;
use crate::algorithms::map_source::MapSource;
use crate::algorithms::ping_pong::StartPicture;
use crate::algorithms::request::StartRequest;
use crate::algorithms::step_ledger::StepLedger;
use crate::algorithms::swap_counters::SwapCounters;
use crate::algorithms::{Pipelines, SortRun};
use crate::gpu::Gpu;
use crate::gpu::recycle::Recycled;
use crate::intervals::IntervalMap;
use crate::keys::options::{Axis, Scope, SortOptions};
use std::sync::Arc;

/// Scatter bindings kept, one per line-space state texture the inner run has shown.
const MAX_BINDINGS: usize = 4;

/// One picture sorted along the lines of a [`LineSpace`].
pub struct AngledRun {
    inner: Box<dyn SortRun>,
    /// Line space gathered from the picture: the inner run's input, given back to the spares
    /// with this run.
    _lines: Recycled<(u32, u32), wgpu::Texture>,
    space: Arc<LineSpace>,
    device: wgpu::Device,
    scatter: LineScatter,
    places: wgpu::Texture,
    /// The state in image space: what [`SortRun::state`] returns.
    picture: crate::algorithms::ping_pong::InputTexture,
    bindings: Vec<(wgpu::Texture, wgpu::BindGroup)>,
}

impl AngledRun {
    /// Starts the run `request` asks for along the lines of `space` with `pipelines`. Its picture
    /// (on the CPU, uploaded, or a picture texture already on the GPU, which becomes the run's
    /// picture) is sorted within a map of line space, as [`LineSpace::interval_map`] makes (whole
    /// lines with none), or intervals the GPU finds in line space from the picture (any axis
    /// given is taken as line space's rows). The GPU gathers line space from the picture. The
    /// options' axis is ignored: line space is sorted by rows.
    pub fn start(
        gpu: &Gpu,
        pipelines: &Pipelines,
        scatter: &LineScatter,
        space: Arc<LineSpace>,
        request: StartRequest<'_>,
    ) -> Result<Self, IntervalMapError> {
        let StartRequest { picture, options, mut settings, intervals: source } = request;
        let radix = matches!(pipelines, Pipelines::Radix(_));
        if space.is_wrapped() {
            // One sequence wrapped from row to row: the radix view sorts it as a whole picture.
            if !radix || !matches!(source, MapSource::Cpu(None)) {
                return Err(IntervalMapError::LongSequence { length: space.places().len() as u64 });
            }
            settings.radix.scope = Scope::Image;
        } else if radix && settings.radix.scope == Scope::Image {
            return Err(IntervalMapError::WholePictureAtAngle);
        }
        let options = SortOptions { axis: Axis::Rows, ..options };
        let picture = picture.into_texture(gpu, "angle::picture");
        let tables = space.tables(gpu);
        let source = match source {
            MapSource::Cpu(intervals) => MapSource::Cpu(intervals.or(space.whole_lines())),
            MapSource::Gpu(kernel, found) => {
                let angled = Some(LineCells { picture: &picture, cells: &tables.cells });
                MapSource::Gpu(kernel, FoundIntervals { axis: Axis::Rows, angled, ..found })
            }
        };
        let lines = scatter.gather(gpu, &space, &picture);
        let start = StartPicture::Texture((*lines).clone());
        let inner =
            pipelines.start(gpu, StartRequest { picture: start, options, settings, intervals: source })?;
        let mut run = AngledRun {
            inner,
            _lines: lines,
            places: tables.places,
            space,
            device: gpu.device.clone(),
            scatter: scatter.clone(),
            picture,
            bindings: Vec::new(),
        };
        // Bind the first state now, so the first steps only reuse it.
        run.binding();
        Ok(run)
    }

    /// The line space the run sorts.
    pub fn space(&self) -> &LineSpace {
        &self.space
    }

    /// The state in line space, one line per row (for tests: the picture is [`SortRun::state`]).
    pub fn line_state(&self) -> &wgpu::Texture {
        self.inner.state()
    }

    /// The scatter binding that reads the inner run's current state, made on first use.
    fn binding(&mut self) -> &wgpu::BindGroup {
        let state = self.inner.state().clone();
        let at = match self.bindings.iter().position(|(t, _)| *t == state) {
            Some(at) => at,
            None => {
                if self.bindings.len() == MAX_BINDINGS {
                    self.bindings.remove(0);
                }
                let binding = self.scatter.bind(&self.device, &state, &self.places, &self.picture);
                self.bindings.push((state, binding));
                self.bindings.len() - 1
            }
        };
        &self.bindings[at].1
    }

    /// Encodes the scatter of the inner run's current state into the picture.
    fn encode_scatter(&mut self, encoder: &mut wgpu::CommandEncoder) {
        let size = self.space.picture_size();
        let scatter = self.scatter.clone();
        scatter.encode(encoder, self.binding(), size);
    }
}

impl SortRun for AngledRun {
    fn ledger(&self) -> &StepLedger {
        self.inner.ledger()
    }

    fn ledger_mut(&mut self) -> &mut StepLedger {
        self.inner.ledger_mut()
    }

    fn encode_from(&mut self, encoder: &mut wgpu::CommandEncoder, first: u32, n: u32) {
        self.inner.encode_from(encoder, first, n);
        self.encode_scatter(encoder);
    }

    fn encode_to_end(&mut self, encoder: &mut wgpu::CommandEncoder) -> bool {
        let made = self.inner.encode_to_end(encoder);
        if made {
            self.encode_scatter(encoder);
        }
        made
    }

    fn counters(&self) -> &SwapCounters {
        self.inner.counters()
    }

    /// The inner run's: it may read back more than its counters (the lengths of the intervals
    /// the bitonic network's plan found on the GPU).
    fn swap_readback_size(&self, n: u32) -> u64 {
        self.inner.swap_readback_size(n)
    }

    fn encode_swap_copy(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        first: u32,
        n: u32,
        staging: &wgpu::Buffer,
        offset: u64,
    ) {
        self.inner.encode_swap_copy(encoder, first, n, staging, offset);
    }

    fn accept_swaps(&mut self, bytes: &[u8]) {
        self.inner.accept_swaps(bytes);
    }

    fn state(&self) -> &wgpu::Texture {
        &self.picture
    }

    fn restart(&mut self, encoder: &mut wgpu::CommandEncoder) {
        self.inner.restart(encoder);
        self.encode_scatter(encoder);
    }

    fn set_intervals(&mut self, gpu: &Gpu, intervals: Option<&IntervalMap>) -> Result<(), IntervalMapError> {
        self.inner.set_intervals(gpu, intervals.or(self.space.whole_lines()))
    }

    fn detects_sorted_early(&self) -> bool {
        self.inner.detects_sorted_early()
    }

    fn notice(&self) -> Option<&str> {
        self.inner.notice()
    }

    /// The inner run's view: the lens reads lines in line space, one per row.
    fn lens_view(&self) -> crate::algorithms::lens_view::LensView<'_> {
        self.inner.lens_view()
    }

    /// The inner run's kernels, over line space (the scatter back into the picture is not a
    /// step's).
    fn kernels_of_step(&self, step: u32) -> Vec<crate::algorithms::kernel_view::Dispatch> {
        self.inner.kernels_of_step(step)
    }
}
