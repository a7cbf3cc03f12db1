//! Odd-even transposition sort: one pass per step over every line, two textures ping-ponged,
//! as a compute kernel or as a fragment shader rendering into the other texture.

use super::interval_texture::{self, IntervalMapError, IntervalTexture};
use super::lens_view::{LensStep, LensView};
use super::ping_pong::PingPong;
use super::request::StartRequest;
use super::step_ledger::{STEP_RING, StepLedger, ledger_in_field};
use super::swap_counters::SwapCounters;
use super::{RunSettings, SortRun};
use crate::gpu::Gpu;
use crate::gpu::bindings::{storage_target, uint_texture};
use crate::gpu::kernel::{compute_pass, compute_pipeline};
use crate::gpu::shaders::{Compiled, ODD_EVEN_PROGRAM, begin_fullscreen_pass, fullscreen_pipeline};
use crate::gpu::texture::PICTURE_FORMAT;
use crate::intervals::IntervalMap;
use crate::keys::options::SortOptions;
use wgpu::util::DeviceExt;

mod kernels;

/// `WORKGROUP_WIDTH` x `WORKGROUP_HEIGHT` of `odd_even_compute` (checked by a test).
pub const WORKGROUP_SIZE: [u32; 2] = [16, 16];

/// The left member of the first pair that odd-even pass `pass` compares: pixel `x` pairs with
/// `x - 1` when `x` has the pass's parity, so the pairs are `(x - 1, x)` with `x ≡ pass (mod 2)`
/// (`shaders/odd_even.wgsl`).
pub fn first_left(pass: u32) -> usize {
    1 - (pass as usize & 1)
}

/// How a pass is run on the GPU; both give bit-identical textures after every pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(not(target_arch = "wasm32"), derive(clap::ValueEnum))]
pub enum PassKind {
    /// A compute kernel reads one texture and stores into the other.
    #[default]
    Compute,
    /// A fragment shader samples one texture and renders into the other.
    Fragment,
}

impl PassKind {
    /// The other pass kind (the viewers' T key).
    pub fn toggled(self) -> PassKind {
        match self {
            PassKind::Compute => PassKind::Fragment,
            PassKind::Fragment => PassKind::Compute,
        }
    }

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            PassKind::Compute => "compute",
            PassKind::Fragment => "fragment",
        }
    }
}

impl StartRequest<'_> {
    /// The same request with odd-even passes of `kind`.
    pub fn pass_kind(self, kind: PassKind) -> Self {
        StartRequest { settings: RunSettings { pass_kind: kind, ..self.settings }, ..self }
    }
}

/// Mirrors `PassParams` in `shaders/odd_even.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct PassParams {
    /// `SortKey::id`.
    pub key: u32,
    /// 1 for descending order.
    pub descending: u32,
    /// `Axis` as u32: 0 rows, 1 columns.
    pub axis: u32,
    /// The iteration number modulo 2.
    pub parity: u32,
}

/// The odd-even pipelines, built once per device: each kind twice, `[whole lines, in intervals]`
/// (the `INTERVALS` override of `shaders/intervals.wgsl`).
pub struct OddEven {
    compute_layout: wgpu::BindGroupLayout,
    compute: [wgpu::ComputePipeline; 2],
    /// The fragment pass, where the adapter can run it.
    fragment: Option<FragmentPass>,
    compiled: Compiled,
}

/// The fragment pass's layout, and its pipelines, built by the first run that uses them (a
/// sort by compute passes never does).
struct FragmentPass {
    layout: wgpu::BindGroupLayout,
    pipeline_layout: wgpu::PipelineLayout,
    module: wgpu::ShaderModule,
    pipelines: std::sync::OnceLock<[wgpu::RenderPipeline; 2]>,
}

impl FragmentPass {
    /// The pipelines, `[whole lines, in intervals]`, built on first use.
    fn pipelines(&self, gpu: &Gpu) -> &[wgpu::RenderPipeline; 2] {
        self.pipelines.get_or_init(|| {
            [false, true].map(|with_intervals| {
                fullscreen_pipeline(
                    gpu,
                    &format!("odd_even::fragment[{}]", usize::from(with_intervals)),
                    &self.pipeline_layout,
                    &self.module,
                    "odd_even_fragment",
                    PICTURE_FORMAT.into(),
                    &[interval_texture::intervals_constant(with_intervals)],
                )
            })
        })
    }
}

/// Whether the adapter can run the fragment pass, which counts swaps by writing a storage
/// buffer from the fragment shader (desktop GPUs and Mesa's software GPUs can; GLES 3.0-class
/// adapters cannot).
pub fn fragment_pass_supported(gpu: &Gpu) -> bool {
    gpu.adapter.get_downlevel_capabilities().flags.contains(wgpu::DownlevelFlags::FRAGMENT_WRITABLE_STORAGE)
}

fn layout_entries(with_storage_target: bool) -> Vec<wgpu::BindGroupLayoutEntry> {
    let stages = wgpu::ShaderStages::COMPUTE | wgpu::ShaderStages::FRAGMENT;
    let mut entries = vec![
        uint_texture(0, stages),
        wgpu::BindGroupLayoutEntry {
            binding: 1,
            visibility: stages,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: false,
                min_binding_size: wgpu::BufferSize::new(std::mem::size_of::<PassParams>() as u64),
            },
            count: None,
        },
        wgpu::BindGroupLayoutEntry {
            binding: 2,
            visibility: stages,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Storage { read_only: false },
                has_dynamic_offset: true,
                min_binding_size: wgpu::BufferSize::new(4),
            },
            count: None,
        },
    ];
    entries.push(uint_texture(4, stages));
    if with_storage_target {
        entries.push(storage_target(3, PICTURE_FORMAT));
    }
    entries
}

impl OddEven {
    /// Builds the compute pipelines; the fragment pass's wait for a run that uses them.
    pub fn new(gpu: &Gpu) -> Self {
        let device = &gpu.device;
        let compiled = ODD_EVEN_PROGRAM.compile(device);
        let module = compiled.module.clone();
        let compute_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("odd_even::compute_layout"),
            entries: &layout_entries(true),
        });
        let pipeline_layout = |layout: &wgpu::BindGroupLayout, label| {
            device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some(label),
                bind_group_layouts: &[Some(layout)],
                immediate_size: 0,
            })
        };
        let compute_pipeline_layout = pipeline_layout(&compute_layout, "odd_even::compute_pipeline_layout");
        let compute = [false, true].map(|with_intervals| {
            let label = format!("odd_even::compute[{}]", usize::from(with_intervals));
            let constants = [interval_texture::intervals_constant(with_intervals)];
            let options = wgpu::PipelineCompilationOptions { constants: &constants, ..Default::default() };
            compute_pipeline(gpu, &label, &compute_pipeline_layout, &module, "odd_even_compute", options)
        });
        let fragment = fragment_pass_supported(gpu).then(|| {
            let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some("odd_even::fragment_layout"),
                entries: &layout_entries(false),
            });
            let pipeline_layout = pipeline_layout(&layout, "odd_even::fragment_pipeline_layout");
            FragmentPass { layout, pipeline_layout, module: module.clone(), pipelines: Default::default() }
        });
        OddEven { compute_layout, compute, fragment, compiled }
    }

    /// Starts sorting the request's picture: uploads it and prepares both ping-pong directions.
    /// A pair swaps only inside an interval, and the longest interval's length in passes sorts
    /// every interval (within intervals found on the GPU, as many passes as a line is long).
    /// Where the adapter cannot run the fragment pass, it runs compute passes, with a notice.
    ///
    /// # Panics
    /// When the map is for another picture size or axis (`Pipelines::start` checks).
    pub fn start(&self, gpu: &Gpu, request: StartRequest<'_>) -> OddEvenRun {
        request.check().expect("an interval map for this picture");
        let StartRequest { picture, options, settings, intervals: source } = request;
        let kind = settings.pass_kind;
        let (width, height) = picture.dimensions();
        let (kind, notice) = match (kind, &self.fragment) {
            (PassKind::Fragment, None) => (
                PassKind::Compute,
                Some(
                    "this GPU cannot write storage buffers from fragment shaders, which the fragment pass counts swaps with; it runs as compute passes instead"
                        .to_string(),
                ),
            ),
            _ => (kind, None),
        };
        let layout = match (kind, &self.fragment) {
            (PassKind::Fragment, Some(fragment)) => &fragment.layout,
            _ => &self.compute_layout,
        };
        // Parameters `p` run iterations of parity `p`.
        let params = [0usize, 1].map(|p| {
            let params = PassParams::of(options, p as u32);
            gpu.device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(&format!("odd_even::params[{p}]")),
                contents: bytemuck::bytes_of(&params),
                usage: wgpu::BufferUsages::UNIFORM,
            })
        });
        let pictures = PingPong::start(gpu, picture, "odd_even");
        let counters = SwapCounters::new(gpu, STEP_RING, 1, "odd_even::swap_counters");
        let interval_texture =
            IntervalTexture::from_source(gpu, source, pictures.input(), "odd_even::intervals");
        let bind_groups = bind_groups(gpu, layout, &pictures, &params, &counters, &interval_texture, kind);
        let mut run = OddEvenRun {
            kind,
            compute: self.compute.clone(),
            fragment: match kind {
                PassKind::Fragment => self.fragment.as_ref().map(|f| f.pipelines(gpu).clone()),
                PassKind::Compute => None,
            },
            layout: layout.clone(),
            options,
            line_len: options.line_len(width, height),
            params,
            intervals: interval_texture,
            pictures,
            bind_groups,
            counters,
            ledger: StepLedger::default(),
            previous_swaps: None,
            notice,
            compiled: self.compiled.clone(),
        };
        run.restart_ledger(source.longest_interval(run.line_len));
        run
    }
}

/// Bind group `p` runs iterations of parity `p`: it reads state[p] and writes state[1 - p].
fn bind_groups(
    gpu: &Gpu,
    layout: &wgpu::BindGroupLayout,
    pictures: &PingPong,
    params: &[wgpu::Buffer; 2],
    counters: &SwapCounters,
    intervals: &IntervalTexture,
    kind: PassKind,
) -> [wgpu::BindGroup; 2] {
    [0usize, 1].map(|p| {
        let mut entries = vec![
            wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::TextureView(pictures.view(p)),
            },
            wgpu::BindGroupEntry { binding: 1, resource: params[p].as_entire_binding() },
            wgpu::BindGroupEntry { binding: 2, resource: counters.binding() },
            wgpu::BindGroupEntry {
                binding: 4,
                resource: wgpu::BindingResource::TextureView(intervals.view()),
            },
        ];
        if kind == PassKind::Compute {
            entries.push(wgpu::BindGroupEntry {
                binding: 3,
                resource: wgpu::BindingResource::TextureView(pictures.view(1 - p)),
            });
        }
        gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(&format!("odd_even::bind_group[{p}]")),
            layout,
            entries: &entries,
        })
    })
}

/// One picture being sorted by odd-even passes.
pub struct OddEvenRun {
    kind: PassKind,
    /// Without and with an interval map.
    compute: [wgpu::ComputePipeline; 2],
    /// Present whenever `kind` is `Fragment`: without and with an interval map.
    fragment: Option<[wgpu::RenderPipeline; 2]>,
    /// The layout of `bind_groups`, to make them again for a new interval-map texture.
    layout: wgpu::BindGroupLayout,
    /// Key, order and axis.
    options: SortOptions,
    line_len: u32,
    /// `PassParams` of each parity.
    params: [wgpu::Buffer; 2],
    intervals: IntervalTexture,
    pictures: PingPong,
    bind_groups: [wgpu::BindGroup; 2],
    counters: SwapCounters,
    ledger: StepLedger,
    /// Swaps of the last step whose count was read.
    previous_swaps: Option<u32>,
    notice: Option<String>,
    /// The program, for the shader panel.
    compiled: Compiled,
}

impl OddEvenRun {
    /// The same run, carrying a message for the user (when it stands in for another algorithm).
    pub fn with_notice(mut self, notice: String) -> Self {
        self.notice = Some(notice);
        self
    }

    /// Sorts within `intervals` from now on: uploads the map, and sets the passes to the longest
    /// interval's length.
    fn use_intervals(&mut self, gpu: &Gpu, intervals: Option<&IntervalMap>) {
        if self.intervals.set(gpu, intervals) {
            self.bind_groups = bind_groups(
                gpu,
                &self.layout,
                &self.pictures,
                &self.params,
                &self.counters,
                &self.intervals,
                self.kind,
            );
        }
        self.restart_ledger(intervals.map_or(self.line_len, IntervalMap::max_interval_len));
    }

    /// Step 0 of a sort whose longest interval is `longest` pixels: an interval of L pixels is
    /// sorted by any L consecutive passes (the 0-1 principle), one of a pixel before any.
    fn restart_ledger(&mut self, longest: u32) {
        self.previous_swaps = None;
        self.ledger.restart(longest, longest <= 1);
    }

    fn encode_compute(&self, encoder: &mut wgpu::CommandEncoder, first: u32, n: u32) {
        let size = self.pictures.state(0).size();
        let mut pass = compute_pass(encoder, "odd_even::compute_passes");
        pass.set_pipeline(&self.compute[usize::from(self.intervals.enabled())]);
        for step in first..first + n {
            let parity = (step % 2) as usize;
            pass.set_bind_group(0, &self.bind_groups[parity], &[self.counters.dynamic_offset(step)]);
            pass.dispatch_workgroups(
                size.width.div_ceil(WORKGROUP_SIZE[0]),
                size.height.div_ceil(WORKGROUP_SIZE[1]),
                1,
            );
        }
    }

    fn encode_fragment(&self, encoder: &mut wgpu::CommandEncoder, first: u32, n: u32) {
        let fragment = self.fragment.as_ref().expect("fragment runs start only where the pass is supported");
        let fragment = &fragment[usize::from(self.intervals.enabled())];
        for step in first..first + n {
            let parity = (step % 2) as usize;
            let mut pass =
                begin_fullscreen_pass(encoder, self.pictures.view(1 - parity), "odd_even::fragment_pass");
            pass.set_pipeline(fragment);
            pass.set_bind_group(0, &self.bind_groups[parity], &[self.counters.dynamic_offset(step)]);
            pass.draw(0..3, 0..1);
        }
    }
}

impl SortRun for OddEvenRun {
    ledger_in_field!();

    fn encode_from(&mut self, encoder: &mut wgpu::CommandEncoder, first: u32, n: u32) {
        self.counters.encode_clear(encoder, first, n);
        match self.kind {
            PassKind::Compute => self.encode_compute(encoder, first, n),
            PassKind::Fragment => self.encode_fragment(encoder, first, n),
        }
    }

    fn counters(&self) -> &SwapCounters {
        &self.counters
    }

    fn kernels_of_step(&self, step: u32) -> Vec<super::kernel_view::Dispatch> {
        self.kernels(step)
    }

    fn accept_swaps(&mut self, bytes: &[u8]) {
        for swaps in self.counters.decode(bytes) {
            let step = self.ledger.take(swaps, self.work(self.ledger.next_to_take()));
            // Two consecutive passes without a swap cover both parities: every adjacent pair
            // is in order, so the state before them is sorted.
            if swaps == 0 && self.previous_swaps == Some(0) {
                self.ledger.sorted_after(step - 1);
            }
            self.previous_swaps = Some(swaps);
        }
        self.ledger.settle();
    }

    fn notice(&self) -> Option<&str> {
        self.notice.as_deref()
    }

    fn state(&self) -> &wgpu::Texture {
        self.pictures.state(self.ledger.done())
    }

    fn lens_view(&self) -> LensView<'_> {
        LensView::of_ping_pong(
            &self.pictures,
            &self.intervals,
            self.options,
            self.ledger.done(),
            LensStep::OddEven,
        )
    }

    fn restart(&mut self, encoder: &mut wgpu::CommandEncoder) {
        self.pictures.encode_restart(encoder);
        self.restart_ledger(self.ledger.total());
    }

    fn set_intervals(&mut self, gpu: &Gpu, intervals: Option<&IntervalMap>) -> Result<(), IntervalMapError> {
        interval_texture::check_map(intervals, self.pictures.size(), self.options.axis)?;
        self.use_intervals(gpu, intervals);
        Ok(())
    }
}
