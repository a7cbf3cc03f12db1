//! One picture being radix sorted: its textures, counts and plan, and the steps it records.

use super::carried::CarriedIntervals;
use super::image::ImageSteps;
use super::pipelines::Radix;
use super::plan::{RadixPlan, Sequences, stage_limit};
use super::tiling::{RadixParams, TILE_CHUNK, Tiling};
use crate::algorithms::SortRun;
use crate::algorithms::interval_texture::{self, IntervalMapError};
use crate::algorithms::lens_view::{LensStep, LensView, RadixPass};
use crate::algorithms::map_source::MapSource;
use crate::algorithms::params_ring::ParamsRing;
use crate::algorithms::ping_pong::PingPong;
use crate::algorithms::request::StartRequest;
use crate::algorithms::step_ledger::{STEP_RING, StepLedger, ledger_in_field};
use crate::algorithms::swap_counters::SwapCounters;
use crate::gpu::Gpu;
use crate::gpu::kernel::compute_pass;
use crate::intervals::IntervalMap;
use crate::keys::options::{Axis, Scope};

mod kernels;
use kernels::Kernel;

impl Radix {
    /// Starts sorting the request's picture with its radix settings. Within intervals, by the
    /// composite key, interval id above the key; the ids of intervals found on the GPU are given
    /// as many bits as any id of a line could take, so the steps may be more than with the CPU's
    /// map of them, and the sorted picture is the same. Errors when the ids and the key need
    /// more than 32 bits, or the scope is the whole picture.
    ///
    /// # Panics
    /// When the map is for another picture size or axis (`Pipelines::start` checks).
    pub fn start(&self, gpu: &Gpu, request: StartRequest<'_>) -> Result<RadixRun, IntervalMapError> {
        RadixRun::new(self, gpu, request, 1)
    }

    /// [`Radix::start`] with tiles of at least `min_chunks` chunks: longer tiles than small
    /// pictures get, so that tests reach the multi-chunk path on small inputs.
    pub fn start_with_chunks(
        &self,
        gpu: &Gpu,
        request: StartRequest<'_>,
        min_chunks: u32,
    ) -> Result<RadixRun, IntervalMapError> {
        RadixRun::new(self, gpu, request, min_chunks)
    }
}

/// One picture being radix sorted.
pub struct RadixRun {
    /// For writing a step's parameters when it is recorded.
    queue: wgpu::Queue,
    count: wgpu::ComputePipeline,
    scan: wgpu::ComputePipeline,
    scatter: wgpu::ComputePipeline,
    dim: wgpu::ComputePipeline,
    /// The layout of `bind_groups`, to make them again for new interval-id textures.
    layout: wgpu::BindGroupLayout,
    pictures: PingPong,
    bind_groups: [wgpu::BindGroup; 2],
    params: ParamsRing,
    counts: wgpu::Buffer,
    counters: SwapCounters,
    /// The steps on the crate's sorts (the whole picture, or lines), where they apply.
    image: Option<ImageSteps>,
    intervals: CarriedIntervals,
    plan: RadixPlan,
    sequences: Sequences,
    tiling: Tiling,
    /// Most workgroups along one dispatch dimension.
    max_groups: u32,
    ledger: StepLedger,
    notice: Option<String>,
    /// The program, for the shader panel.
    compiled: crate::gpu::shaders::Compiled,
}

impl RadixRun {
    fn new(
        radix: &Radix,
        gpu: &Gpu,
        request: StartRequest<'_>,
        min_chunks: u32,
    ) -> Result<Self, IntervalMapError> {
        request.check().expect("an interval map for this picture");
        let StartRequest { picture, options, settings, intervals: source } = request;
        let settings = settings.radix;
        assert!(
            crate::keys::radix_key::DIGIT_BITS.contains(&settings.digit_bits),
            "digit bits {} are not one of 1, 2, 4, 8",
            settings.digit_bits
        );
        let (width, height) = picture.dimensions();
        let interval_bits = match source {
            MapSource::Cpu(intervals) => intervals.map(IntervalMap::interval_bits),
            MapSource::Gpu(_, found) => Some(found.interval_bits(width, height)),
        };
        let (key, notice) = settings.key_with_interval_bits(options, interval_bits)?;
        let plan = RadixPlan {
            key,
            digit_bits: settings.digit_bits,
            stages: settings.stages(),
            twin_indices: settings.twin_indices,
        };
        let sequences = Sequences { width, height, axis: options.axis, scope: settings.scope };
        let tiling =
            Tiling::new(sequences.count() as u32, sequences.len() as u32, settings.digit_bits, min_chunks);
        let pictures = PingPong::start(gpu, picture, "radix");
        let device = &gpu.device;
        let params = ParamsRing::new(gpu, std::mem::size_of::<RadixParams>(), STEP_RING, "radix::params");
        let counters = SwapCounters::new(gpu, STEP_RING, 1, "radix::moved");
        let mut carried = match source {
            MapSource::Cpu(intervals) => CarriedIntervals::new(gpu, intervals),
            MapSource::Gpu(_, found) => {
                let len = if found.axis == Axis::Rows { width } else { height };
                CarriedIntervals::written_on_gpu(gpu, width, height, len)
            }
        };
        // Within intervals only lines go to the segmented sort: the whole picture's scope has none.
        let image = (plan.stages == 1 && (interval_bits.is_none() || settings.scope == Scope::Rows))
            .then(|| {
                let segment_len = match settings.scope {
                    Scope::Image => sequences.count() * sequences.len(),
                    Scope::Rows if settings.device_sorted_lines => sequences.len(),
                    Scope::Rows => return None,
                } as u32;
                // Built on the first run that sorts this way (never by the window's lines).
                let pipelines = radix.image_pipelines(gpu);
                let short = settings.scope == Scope::Image || segment_len <= pipelines.line_len();
                let steps = (&pictures, &counters, carried.map.view());
                short.then(|| ImageSteps::new(pipelines, gpu, steps, segment_len, STEP_RING)).flatten()
            })
            .flatten();
        // The view's own kernels carry the ids through their passes (lines on the segmented
        // sort read the map alone) and keep their counts here (a placeholder when they do not run).
        if image.is_none() {
            carried.carry(gpu);
        }
        let counts =
            counts_buffer(gpu, if image.is_some() { 4 } else { tiling.counts(settings.digit_bits) * 4 });
        let bind_groups = bind_groups(gpu, &radix.layout, &pictures, &params, &counts, &counters, &carried);
        let mut run = RadixRun {
            queue: gpu.queue.clone(),
            count: radix.count.clone(),
            scan: radix.scan.clone(),
            scatter: radix.scatter.clone(),
            dim: radix.dim.clone(),
            layout: radix.layout.clone(),
            pictures,
            bind_groups,
            params,
            counts,
            counters,
            image,
            intervals: carried,
            plan,
            sequences,
            tiling,
            max_groups: device.limits().max_compute_workgroups_per_dimension,
            ledger: StepLedger::default(),
            notice,
            compiled: radix.compiled.clone(),
        };
        let mut encoder =
            device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("radix::start") });
        if let MapSource::Gpu(kernel, found) = source {
            kernel.encode(gpu, &mut encoder, run.pictures.input(), run.intervals.map.texture(), found);
        }
        run.intervals.encode_restart(&mut encoder);
        gpu.queue.submit([encoder.finish()]);
        run.restart_ledger();
        Ok(run)
    }

    /// Step 0 of the plan's steps: a sequence (or the longest interval) of one pixel is sorted
    /// before the first pass.
    fn restart_ledger(&mut self) {
        let longest = self.intervals.max_interval_len.unwrap_or(self.sequences.len() as u32);
        self.ledger.restart(self.plan.steps(), longest <= 1);
    }

    /// The digit width, stages and key of this run.
    pub fn plan(&self) -> RadixPlan {
        self.plan
    }

    /// The sequences sorted.
    pub fn sequences(&self) -> Sequences {
        self.sequences
    }

    /// Whether each step is a sort of the crate (the whole picture, or its lines:
    /// [`super::image`]) rather than the view's own kernels.
    pub fn device_sorted(&self) -> bool {
        self.image.is_some()
    }

    /// How the sequences are cut into tiles.
    pub fn tiling(&self) -> Tiling {
        self.tiling
    }

    fn step_params(&self, step: u32) -> RadixParams {
        let (pass, stage) = (step / self.plan.stages, step % self.plan.stages + 1);
        let options = self.plan.key.options;
        let len = self.sequences.len();
        RadixParams {
            key: options.key.id(),
            descending: options.descending.into(),
            axis: options.axis as u32,
            scope: self.sequences.scope as u32,
            key_shift: self.plan.key.shift(),
            key_mask: self.plan.key.mask(),
            digit_shift: pass * self.plan.digit_bits,
            digit_mask: (1 << self.plan.digit_bits) - 1,
            seq_len: len as u32,
            tiles: self.tiling.tiles,
            all_tiles: self.tiling.all_tiles,
            chunks: self.tiling.chunks,
            scatter_begin: stage_limit(len, stage - 1, self.plan.stages) as u32,
            scatter_end: stage_limit(len, stage, self.plan.stages) as u32,
            twin_indices: self.plan.twin_indices.into(),
            intervals: self.intervals.map.enabled().into(),
            interval_shift: self.plan.key.bits,
            pad: [0; 3],
        }
    }

    /// Workgroups for one per tile, spread over two dimensions when there are many.
    fn tile_groups(&self) -> (u32, u32) {
        let x = self.tiling.all_tiles.min(self.max_groups);
        (x, self.tiling.all_tiles.div_ceil(x))
    }
}

impl SortRun for RadixRun {
    ledger_in_field!();

    fn encode_from(&mut self, encoder: &mut wgpu::CommandEncoder, first: u32, n: u32) {
        self.counters.encode_clear(encoder, first, n);
        if let Some(image) = &self.image {
            for step in first..first + n {
                let counter = self.counters.dynamic_offset(step);
                image.encode_step(
                    encoder,
                    &self.queue,
                    &self.plan.key,
                    self.plan.digit_bits,
                    (step, false),
                    counter,
                );
            }
            return;
        }
        let mut pass = compute_pass(encoder, "radix::steps");
        for step in first..first + n {
            // Each step has a slot of its own in the ring (see `STEP_RING`).
            let offset = self.params.write(&self.queue, step, &self.step_params(step));
            let digit_pass = step / self.plan.stages;
            let direction = (digit_pass % 2) as usize;
            pass.set_bind_group(
                0,
                &self.bind_groups[direction],
                &[offset, self.counters.dynamic_offset(step)],
            );
            for (kernel, [x, y, z]) in self.step_kernels(step) {
                pass.set_pipeline(match kernel {
                    Kernel::Count => &self.count,
                    Kernel::Scan => &self.scan,
                    Kernel::Dim => &self.dim,
                    Kernel::Scatter => &self.scatter,
                });
                pass.dispatch_workgroups(x, y, z);
            }
        }
    }

    fn counters(&self) -> &SwapCounters {
        &self.counters
    }

    fn kernels_of_step(&self, step: u32) -> Vec<crate::algorithms::kernel_view::Dispatch> {
        self.kernels(step)
    }

    fn accept_swaps(&mut self, bytes: &[u8]) {
        for moved in self.counters.decode(bytes) {
            let work = self.work(self.ledger.next_to_take());
            self.ledger.take(moved, work);
        }
        self.ledger.settle();
    }

    fn state(&self) -> &wgpu::Texture {
        self.pictures.state(self.ledger.done().div_ceil(self.plan.stages))
    }

    fn lens_view(&self) -> LensView<'_> {
        // The digit pass under way or just done, and its input (the other texture).
        let pass = self.ledger.done().checked_sub(1).map(|step| step / self.plan.stages);
        let intervals = self.intervals.map.enabled();
        LensView {
            state: self.state(),
            before: pass.map(|p| self.pictures.state(p)),
            axis: self.sequences.axis,
            intervals: intervals.then(|| self.intervals.map.texture()),
            options: self.plan.key.options,
            steps_done: self.ledger.done(),
            step: LensStep::Radix {
                pass: self.ledger.done().checked_sub(1).map(|step| {
                    let p = self.step_params(step);
                    RadixPass {
                        descending: p.descending,
                        key_shift: p.key_shift,
                        key_mask: p.key_mask,
                        digit_shift: p.digit_shift,
                        digit_mask: p.digit_mask,
                        interval_shift: p.interval_shift,
                        seq_len: p.seq_len,
                        tiles: p.tiles,
                        tile_len: TILE_CHUNK * p.chunks,
                    }
                }),
                counts: self.image.is_none().then_some(&self.counts),
                input_intervals: pass.filter(|_| intervals).map(|p| &self.intervals.ids[(p % 2) as usize]),
                digit_bits: self.plan.digit_bits,
                passes: self.plan.passes(),
                stages: self.plan.stages,
                whole_picture: self.sequences.scope == Scope::Image,
            },
        }
    }

    fn restart(&mut self, encoder: &mut wgpu::CommandEncoder) {
        self.pictures.encode_restart(encoder);
        self.intervals.encode_restart(encoder);
        self.restart_ledger();
    }

    fn set_intervals(&mut self, gpu: &Gpu, intervals: Option<&IntervalMap>) -> Result<(), IntervalMapError> {
        interval_texture::check_map(intervals, self.pictures.size(), self.sequences.axis)?;
        // The key without interval bits, then with this map's (checked before anything changes).
        let key = crate::keys::radix_key::RadixKey { interval_bits: 0, ..self.plan.key };
        let key = match intervals {
            None => key,
            Some(_) if self.sequences.scope == Scope::Image => return Err(IntervalMapError::WholePicture),
            Some(map) => key.with_interval_bits(map.interval_bits()).map_err(IntervalMapError::KeyTooWide)?,
        };
        self.plan.key = key;
        // Lines on the segmented sort read the map they started with: within a new one the
        // view's own kernels sort, with counts of their own.
        let own_kernels = intervals.is_some() && self.image.take().is_some();
        if own_kernels {
            self.counts = counts_buffer(gpu, self.tiling.counts(self.plan.digit_bits) * 4);
        }
        let replaced = self.intervals.set(gpu, intervals);
        // The view's own kernels carry the ids through their passes: made now where they start.
        let carried = self.image.is_none() && self.intervals.carry(gpu);
        if replaced || carried || own_kernels {
            self.bind_groups = bind_groups(
                gpu,
                &self.layout,
                &self.pictures,
                &self.params,
                &self.counts,
                &self.counters,
                &self.intervals,
            );
        }
        Ok(())
    }

    fn encode_to_end(&mut self, encoder: &mut wgpu::CommandEncoder) -> bool {
        let Some(image) = &self.image else { return false };
        let total = self.ledger.total();
        if self.ledger.done() < total {
            let last = total - 1;
            self.counters.encode_clear(encoder, last, 1);
            let counter = self.counters.dynamic_offset(last);
            image.encode_step(
                encoder,
                &self.queue,
                &self.plan.key,
                self.plan.digit_bits,
                (last, true),
                counter,
            );
            self.ledger.skip_to_end();
        }
        true
    }

    fn notice(&self) -> Option<&str> {
        self.notice.as_deref()
    }
}

/// The buffer of the view's own kernels' counts, `bytes` long.
fn counts_buffer(gpu: &Gpu, bytes: u64) -> wgpu::Buffer {
    gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("radix::counts"),
        size: bytes,
        usage: wgpu::BufferUsages::STORAGE,
        mapped_at_creation: false,
    })
}

/// The two step bind groups (see `PingPong::step_bind_groups`): the counts at binding 4, and
/// group `d` reads the interval ids of texture `d` (5) and writes those of `1 - d` (6).
fn bind_groups(
    gpu: &Gpu,
    layout: &wgpu::BindGroupLayout,
    pictures: &PingPong,
    params: &ParamsRing,
    counts: &wgpu::Buffer,
    counters: &SwapCounters,
    intervals: &CarriedIntervals,
) -> [wgpu::BindGroup; 2] {
    pictures.step_bind_groups(&gpu.device, layout, "radix", params.binding(), counters.binding(), |d| {
        vec![
            wgpu::BindGroupEntry { binding: 4, resource: counts.as_entire_binding() },
            wgpu::BindGroupEntry {
                binding: 5,
                resource: wgpu::BindingResource::TextureView(&intervals.views[d]),
            },
            wgpu::BindGroupEntry {
                binding: 6,
                resource: wgpu::BindingResource::TextureView(&intervals.views[1 - d]),
            },
        ]
    })
}
