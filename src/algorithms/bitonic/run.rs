//! One picture being sorted by the bitonic network: its plan, textures and counters, and the
//! dispatches its steps record.

use super::layout::{BitonicParams, LINE_RANK_BITS, RankWords, bits_of};
use super::lengths::IntervalLengths;
use super::pipelines::{Bitonic, BlockPipeline, GLOBAL_WORKGROUP};
use super::plan::{GpuPlan, Plan, PlanKernel};
use super::stage::stage_count;
use crate::algorithms::SortRun;
use crate::algorithms::interval_texture::{self, IntervalMapError, IntervalTexture};
use crate::algorithms::lens_view::{LensStep, LensView};
use crate::algorithms::map_source::MapSource;
use crate::algorithms::params_ring::ParamsRing;
use crate::algorithms::ping_pong::PingPong;
use crate::algorithms::request::StartRequest;
use crate::algorithms::step_ledger::{STEP_RING, StepLedger, ledger_in_field};
use crate::algorithms::swap_counters::{AddedSince, SwapCounters};
use crate::gpu::Gpu;
use crate::gpu::kernel::compute_pass;
use crate::intervals::IntervalMap;
use crate::keys::options::SortOptions;
use wgpu::util::DeviceExt;

mod kernels;
use kernels::UnitKernel;

impl Bitonic {
    /// Starts sorting the request's picture. Within intervals found on the GPU the plan is made
    /// there too, and the steps are those of the longest interval a line could hold (a stage
    /// beyond an interval's own network leaves it as it is): the sorted picture is the same.
    ///
    /// # Panics
    /// When the map is for another picture size or axis (`Pipelines::start` checks).
    pub fn start(&self, gpu: &Gpu, request: StartRequest<'_>) -> BitonicRun {
        BitonicRun::new(self, gpu, request)
    }
}

/// One picture being sorted by the bitonic network.
pub struct BitonicRun {
    queue: wgpu::Queue,
    device: wgpu::Device,
    layout: wgpu::BindGroupLayout,
    /// `sort_blocks` without and with intervals, for this run's rank layout.
    blocks: [BlockPipeline; 2],
    /// `sort_lines` for this run's lines, where they take it (one-word ranks, and the device
    /// holds a line that way).
    lines: Option<BlockPipeline>,
    global: wgpu::ComputePipeline,
    /// The program, for the shader panel.
    compiled: crate::gpu::shaders::Compiled,
    pictures: PingPong,
    params: ParamsRing,
    /// Per step, the exchanges made and the `sort_lines` workgroups that could not shuffle.
    counters: SwapCounters,
    /// The counters are zeroed at a restart only: what each step added to each.
    added: [AddedSince; 2],
    /// How many intervals have each length, what the work is counted from; unknown for a plan
    /// made on the GPU until its lengths come back with the first counts.
    lengths: Option<IntervalLengths>,
    /// A plan made on the GPU: its lengths, copied after the counts (`encode_swap_copy`).
    gpu_lengths: Option<wgpu::Buffer>,
    origins: wgpu::Buffer,
    bounds: wgpu::Buffer,
    units: wgpu::Buffer,
    unit_count: u32,
    bind_groups: [wgpu::BindGroup; 2],
    intervals: IntervalTexture,
    options: SortOptions,
    line_len: u32,
    line_count: u32,
    wide: bool,
    max_groups: u32,
    ledger: StepLedger,
    /// Dispatches since the start: the state is in texture `dispatches % 2`.
    dispatches: u32,
    /// Stages the last dispatch ran.
    last_dispatch_stages: u32,
    /// The first step and the stages of each dispatch since the start (the shader panel finds
    /// a step's dispatch here).
    dispatch_log: Vec<(u32, u32)>,
}

impl BitonicRun {
    fn new(bitonic: &Bitonic, gpu: &Gpu, request: StartRequest<'_>) -> Self {
        request.check().expect("an interval map for this picture");
        let StartRequest { picture, options, intervals: source, .. } = request;
        let (width, height) = picture.dimensions();
        let line_len = options.line_len(width, height);
        let line_count = options.line_count(width, height);
        let wide = bits_of(options.key.max_value()) + bits_of(line_len.saturating_sub(1)) > 32;
        // Whole lines take blocks no larger than the line (less workgroup memory, more
        // workgroups at once); units within intervals pack whole intervals into the largest block.
        let whole = RankWords { wide, intervals: false };
        let within_intervals = RankWords { wide, intervals: true };
        let line_block = bitonic.device_block(whole).min(line_len.max(2).next_power_of_two());
        let blocks = [
            bitonic.block_pipeline(whole, line_block),
            bitonic.block_pipeline(within_intervals, bitonic.device_block(within_intervals)),
        ];
        let rank_bits = bits_of(options.key.max_value()) + bits_of(line_len.saturating_sub(1));
        let lines = if rank_bits > LINE_RANK_BITS { None } else { bitonic.lines_pipeline(line_len) };
        let device = &gpu.device;
        let origins = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("bitonic::origins"),
            size: u64::from(line_len) * u64::from(line_count) * 4,
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        });
        let pictures = PingPong::start(gpu, picture, "bitonic");
        let params = ParamsRing::new(gpu, std::mem::size_of::<BitonicParams>(), STEP_RING, "bitonic::params");
        let counters = SwapCounters::new(gpu, STEP_RING, 2, "bitonic::counters");
        let placeholder = |label| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: 16,
                usage: wgpu::BufferUsages::STORAGE,
                mapped_at_creation: false,
            })
        };
        let (bounds, units) = (placeholder("bitonic::bounds"), placeholder("bitonic::units"));
        let bind_groups =
            bind_groups(device, &bitonic.layout, &pictures, &params, &counters, [&origins, &bounds, &units]);
        let mut run = BitonicRun {
            queue: gpu.queue.clone(),
            device: device.clone(),
            layout: bitonic.layout.clone(),
            blocks,
            lines,
            global: bitonic.global.clone(),
            compiled: bitonic.compiled.clone(),
            pictures,
            params,
            counters,
            added: [AddedSince::new(STEP_RING), AddedSince::new(STEP_RING)],
            lengths: None,
            gpu_lengths: None,
            origins,
            bounds,
            units,
            unit_count: 0,
            bind_groups,
            intervals: IntervalTexture::new(gpu, None, "bitonic::intervals"),
            options,
            line_len,
            line_count,
            wide,
            max_groups: device.limits().max_compute_workgroups_per_dimension,
            ledger: StepLedger::default(),
            dispatches: 0,
            last_dispatch_stages: 0,
            dispatch_log: Vec::new(),
        };
        match source {
            MapSource::Cpu(intervals) => run.use_intervals(gpu, intervals),
            MapSource::Gpu(kernel, found) => {
                assert_eq!(found.axis, options.axis, "intervals found along the sort's axis");
                let plan_kernel = bitonic.plan_kernel.get_or_init(|| PlanKernel::new(gpu));
                run.use_gpu_intervals(gpu, |encoder, input, ids, plan| {
                    kernel.encode(gpu, encoder, input, ids, found);
                    plan_kernel.encode(gpu, encoder, ids, plan);
                });
            }
        }
        run
    }

    /// Sorts within intervals that `find` records finding on the GPU (from the input picture into
    /// the interval-id texture, then the plan from those): the map and the plan never leave the
    /// GPU, and the steps are those of an interval as long as a line.
    fn use_gpu_intervals(
        &mut self,
        gpu: &Gpu,
        find: impl FnOnce(&mut wgpu::CommandEncoder, &wgpu::Texture, &wgpu::Texture, &GpuPlan),
    ) {
        let (width, height) = (self.pictures.input().width(), self.pictures.input().height());
        self.intervals = IntervalTexture::written_on_gpu(gpu, width, height, "bitonic::intervals");
        let block = self.block().block;
        let plan = GpuPlan::new(gpu, self.options.axis, (self.line_len, self.line_count), block);
        let mut encoder = gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("bitonic::gpu_intervals"),
        });
        find(&mut encoder, self.pictures.input(), self.intervals.texture(), &plan);
        gpu.queue.submit([encoder.finish()]);
        self.unit_count = plan.unit_count;
        (self.lengths, self.gpu_lengths) = (None, Some(plan.lengths));
        self.set_plan_buffers(plan.bounds, plan.units);
        self.restart_ledger(stage_count(self.line_len));
    }

    /// Sorts within `intervals` from now on: uploads the map, the intervals per position and the
    /// units.
    fn use_intervals(&mut self, gpu: &Gpu, intervals: Option<&IntervalMap>) {
        self.intervals.set(gpu, intervals);
        let block = self.block().block;
        let plan = Plan::new(self.line_len, self.line_count, intervals, block);
        let storage = |label, contents: &[u8]| {
            gpu.device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: if contents.is_empty() { &[0; 16] } else { contents },
                usage: wgpu::BufferUsages::STORAGE,
            })
        };
        self.unit_count = plan.units.len() as u32;
        (self.lengths, self.gpu_lengths) = (Some(plan.lengths), None);
        self.set_plan_buffers(
            storage("bitonic::bounds", bytemuck::cast_slice(&plan.bounds)),
            storage("bitonic::units", bytemuck::cast_slice(&plan.units)),
        );
        let longest = intervals.map_or(self.line_len, IntervalMap::max_interval_len);
        self.restart_ledger(stage_count(longest));
    }

    /// Binds the plan's `bounds` and `units` from now on.
    fn set_plan_buffers(&mut self, bounds: wgpu::Buffer, units: wgpu::Buffer) {
        (self.bounds, self.units) = (bounds, units);
        self.bind_groups = bind_groups(
            &self.device,
            &self.layout,
            &self.pictures,
            &self.params,
            &self.counters,
            [&self.origins, &self.bounds, &self.units],
        );
    }

    fn block(&self) -> &BlockPipeline {
        &self.blocks[usize::from(self.intervals.enabled())]
    }

    /// Step 0 of a network of `stages` (none: every interval is one pixel, already sorted).
    fn restart_ledger(&mut self, stages: u32) {
        self.ledger.restart(stages, stages == 0);
    }

    /// Whether each rank takes two words in workgroup memory (the key's bits and the origin's
    /// do not fit one).
    pub fn wide(&self) -> bool {
        self.wide
    }

    /// Encodes one dispatch from step `first`: the stages from there that stay within a block
    /// (at most `budget`), or the one stage that does not. Returns the stages it ran.
    fn encode_dispatch(&mut self, pass: &mut wgpu::ComputePass<'_>, first: u32, budget: u32) -> u32 {
        let planned = self.plan_dispatch(first, budget);
        let stages = planned.params.stages;
        let offset = self.params.write(&self.queue, first, &planned.params);
        let counter = self.counters.dynamic_offset(first + stages - 1);
        pass.set_bind_group(0, &self.bind_groups[(self.dispatches % 2) as usize], &[offset, counter]);
        pass.set_pipeline(match planned.kernel {
            UnitKernel::Lines => &self.lines.as_ref().expect("planned where there is one").pipeline,
            UnitKernel::Blocks => &self.block().pipeline,
            UnitKernel::Global => &self.global,
        });
        let [x, y, z] = planned.workgroups;
        pass.dispatch_workgroups(x, y, z);
        self.dispatches += 1;
        self.last_dispatch_stages = stages;
        self.dispatch_log.push((first, stages));
        stages
    }
}

impl SortRun for BitonicRun {
    ledger_in_field!();

    /// Steps recorded together share dispatches where their stages fit one block; the
    /// exchanges of a shared dispatch are counted at its last step.
    fn encode_from(&mut self, encoder: &mut wgpu::CommandEncoder, first: u32, n: u32) {
        let mut pass = compute_pass(encoder, "bitonic::steps");
        let mut done = first;
        while done < first + n {
            done += self.encode_dispatch(&mut pass, done, first + n - done);
        }
    }

    fn counters(&self) -> &SwapCounters {
        &self.counters
    }

    fn kernels_of_step(&self, step: u32) -> Vec<crate::algorithms::kernel_view::Dispatch> {
        self.kernels(step)
    }

    /// The counts, then a plan made on the GPU its lengths (the same size every time).
    fn swap_readback_size(&self, n: u32) -> u64 {
        self.counters.copy_size(n) + self.gpu_lengths.as_ref().map_or(0, wgpu::Buffer::size)
    }

    fn encode_swap_copy(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        first: u32,
        n: u32,
        staging: &wgpu::Buffer,
        offset: u64,
    ) {
        self.counters.encode_copy(encoder, first, n, staging, offset);
        if let Some(lengths) = &self.gpu_lengths {
            let after = offset + self.counters.copy_size(n);
            encoder.copy_buffer_to_buffer(lengths, 0, staging, after, lengths.size());
        }
    }

    fn accept_swaps(&mut self, bytes: &[u8]) {
        let appended = self.gpu_lengths.as_ref().map_or(0, |b| b.size() as usize);
        let (counts, lengths) = bytes.split_at(bytes.len() - appended);
        if self.lengths.is_none() {
            let words = lengths.chunks_exact(4).map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]));
            self.lengths = Some(IntervalLengths::from_histogram(&words.collect::<Vec<u32>>()));
        }
        let lengths = self.lengths.take().expect("known or just read");
        for words in self.counters.decode_slots(counts) {
            let slot = self.ledger.collected() % STEP_RING;
            let [swaps, misfits] = [0, 1].map(|word| self.added[word].take(slot, words[word]));
            let work = self.work(self.ledger.collected(), &lengths, (swaps, misfits));
            self.ledger.take(swaps, work);
        }
        self.lengths = Some(lengths);
        self.ledger.settle();
    }

    fn detects_sorted_early(&self) -> bool {
        false
    }

    fn state(&self) -> &wgpu::Texture {
        self.pictures.state(self.dispatches)
    }

    fn lens_view(&self) -> LensView<'_> {
        let one_stage = self.dispatches > 0 && self.last_dispatch_stages == 1;
        LensView {
            state: self.pictures.state(self.dispatches),
            before: one_stage.then(|| self.pictures.state(self.dispatches - 1)),
            axis: self.options.axis,
            intervals: self.intervals.enabled().then(|| self.intervals.texture()),
            options: self.options,
            steps_done: self.ledger.done(),
            step: LensStep::Bitonic { stages: self.ledger.total() },
        }
    }

    fn restart(&mut self, encoder: &mut wgpu::CommandEncoder) {
        self.pictures.encode_restart(encoder);
        self.counters.encode_clear_all(encoder);
        self.added.iter_mut().for_each(AddedSince::reset);
        self.dispatches = 0;
        self.last_dispatch_stages = 0;
        self.dispatch_log.clear();
        self.restart_ledger(self.ledger.total());
    }

    fn set_intervals(&mut self, gpu: &Gpu, intervals: Option<&IntervalMap>) -> Result<(), IntervalMapError> {
        interval_texture::check_map(intervals, self.pictures.size(), self.options.axis)?;
        self.use_intervals(gpu, intervals);
        Ok(())
    }
}

/// The two step bind groups (see `PingPong::step_bind_groups`), with the input picture at
/// binding 4 and the origins, intervals and units at 5, 6 and 7.
fn bind_groups(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    pictures: &PingPong,
    params: &ParamsRing,
    counters: &SwapCounters,
    [origins, bounds, units]: [&wgpu::Buffer; 3],
) -> [wgpu::BindGroup; 2] {
    let input = pictures.input().create_view(&Default::default());
    pictures.step_bind_groups(device, layout, "bitonic", params.binding(), counters.binding(), |_| {
        vec![
            wgpu::BindGroupEntry { binding: 4, resource: wgpu::BindingResource::TextureView(&input) },
            wgpu::BindGroupEntry { binding: 5, resource: origins.as_entire_binding() },
            wgpu::BindGroupEntry { binding: 6, resource: bounds.as_entire_binding() },
            wgpu::BindGroupEntry { binding: 7, resource: units.as_entire_binding() },
        ]
    })
}
