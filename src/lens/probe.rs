//! Reading one line of a run's GPU state for the lens: `shaders/lens.wgsl` run over the run's
//! own textures and buffers ([`LensView`]), and the result copied back.

use super::line::LensLine;
use super::reading::{LensCell, LensReading, StepReading};
use crate::algorithms::lens_view::{LensStep, LensView};
use crate::gpu::bindings::{compute_buffer, uint_texture};
use crate::gpu::kernel::{bind_group, encode_dispatch, one_kernel, uniform};
use crate::gpu::readback::map_and_read;
use crate::gpu::shaders::LENS_PROGRAM;
use crate::gpu::{Gpu, GpuError};
use crate::keys::options::Axis;

/// Words per position in the kernel's output (`CELL_WORDS` in `shaders/lens.wgsl`).
const CELL_WORDS: usize = 6;
/// Invocations per workgroup of the kernel.
const WORKGROUP: u32 = 64;
/// Marks a word that does not apply (`NONE` in `shaders/lens.wgsl`).
const NONE: u32 = u32::MAX;

/// Mirrors `LensParams` in `shaders/lens.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, bytemuck::Pod, bytemuck::Zeroable)]
struct LensParams {
    key: u32,
    origin_x: u32,
    origin_y: u32,
    unit_x: u32,
    unit_y: u32,
    len: u32,
    has_before: u32,
    has_intervals: u32,
    radix: u32,
    descending: u32,
    key_shift: u32,
    key_mask: u32,
    digit_shift: u32,
    digit_mask: u32,
    interval_shift: u32,
    carried_intervals: u32,
    seq: u32,
    seq_first: u32,
    seq_len: u32,
    whole_picture: u32,
    columns: u32,
    tiles: u32,
    tile_len: u32,
    extra_first: u32,
    extra_stride: u32,
    extra_count: u32,
    pad: [u32; 2],
}

/// The lens kernel, built once per device.
pub struct LensProbe {
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::ComputePipeline,
    /// A 1x1 interval-id texture bound where a run has no intervals.
    no_intervals: wgpu::Texture,
    /// A one-word buffer bound where a run has nothing extra to copy.
    no_extra: wgpu::Buffer,
    /// The kernel's output and its staging copy, kept from read to read and grown as lines need.
    output: Option<Output>,
}

/// The kernel's output buffer and the buffer it is read back through, for up to `words` words.
struct Output {
    words: usize,
    buffer: wgpu::Buffer,
    staging: wgpu::Buffer,
}

impl LensProbe {
    /// Builds the kernel.
    pub fn new(gpu: &Gpu) -> Self {
        let device = &gpu.device;
        let (layout, pipeline) = one_kernel(
            gpu,
            &LENS_PROGRAM,
            "lens",
            &[
                uint_texture(0, wgpu::ShaderStages::COMPUTE),
                uint_texture(1, wgpu::ShaderStages::COMPUTE),
                uint_texture(2, wgpu::ShaderStages::COMPUTE),
                uint_texture(3, wgpu::ShaderStages::COMPUTE),
                compute_buffer(4, wgpu::BufferBindingType::Uniform, false),
                compute_buffer(5, wgpu::BufferBindingType::Storage { read_only: false }, false),
                compute_buffer(6, wgpu::BufferBindingType::Storage { read_only: true }, false),
            ],
            "read_line",
            Default::default(),
        );
        let no_intervals =
            crate::algorithms::interval_texture::interval_id_texture(gpu, 1, 1, "lens::no_intervals");
        let no_extra = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("lens::no_extra"),
            size: 4,
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        });
        LensProbe { layout, pipeline, no_intervals, no_extra, output: None }
    }

    /// The output buffers, made anew only when `words` no longer fit.
    fn output(&mut self, device: &wgpu::Device, words: usize) -> &Output {
        if self.output.as_ref().is_none_or(|o| o.words < words) {
            let words = words.next_power_of_two();
            let buffer = |label, usage| {
                device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some(label),
                    size: (words * 4) as u64,
                    usage,
                    mapped_at_creation: false,
                })
            };
            self.output = Some(Output {
                words,
                buffer: buffer("lens::out", wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC),
                staging: buffer("lens::staging", wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ),
            });
        }
        self.output.as_ref().expect("just made")
    }

    /// Encodes reading `line` of the run whose state `view` shows into the first
    /// [`LensRead::bytes`] of `staging` (a copy-destination buffer at least that long; see
    /// [`LensProbe::read_bytes`]). Once the commands have run, [`LensRead::reading`] makes the
    /// reading from those bytes: a frame that encodes a read needs not wait for it.
    pub fn encode(
        &mut self,
        gpu: &Gpu,
        encoder: &mut wgpu::CommandEncoder,
        view: &LensView<'_>,
        line: &LensLine,
        staging: &wgpu::Buffer,
    ) -> LensRead {
        let (params, extra) = self.params(view, line);
        let read = LensRead::of(view, line, params);
        let words = read.words();
        let device = &gpu.device;
        // A uniform of its own, so that reads of several lanes can share one submission.
        let uniform = uniform(gpu, "lens::params", &params);
        self.output(device, words.max(1));
        let out = &self.output.as_ref().expect("made above").buffer;
        let texture_view = |t: &wgpu::Texture| t.create_view(&Default::default());
        let views = [
            texture_view(view.state),
            texture_view(view.before.unwrap_or(view.state)),
            texture_view(view.intervals.unwrap_or(&self.no_intervals)),
            texture_view(match &view.step {
                LensStep::Radix { input_intervals: Some(ids), .. } => ids,
                _ => &self.no_intervals,
            }),
        ];
        // The four views at 0..=3, then the uniform, the output and the extra words.
        let resources = views.iter().map(wgpu::BindingResource::TextureView).chain([
            uniform.as_entire_binding(),
            out.as_entire_binding(),
            extra.unwrap_or(&self.no_extra).as_entire_binding(),
        ]);
        let bind_group = bind_group(device, "lens::bind_group", &self.layout, resources);
        encode_dispatch(
            encoder,
            "lens::read",
            &self.pipeline,
            &bind_group,
            [line.len.max(params.extra_count).div_ceil(WORKGROUP), 1, 1],
        );
        encoder.copy_buffer_to_buffer(out, 0, staging, 0, read.bytes());
        read
    }

    /// Bytes a read of `line` of the run whose state `view` shows copies back.
    pub fn read_bytes(&self, view: &LensView<'_>, line: &LensLine) -> u64 {
        LensRead::of(view, line, self.params(view, line).0).bytes()
    }

    /// Reads `line` of the run whose state `view` shows, waiting for the GPU.
    pub fn read(&mut self, gpu: &Gpu, view: &LensView<'_>, line: &LensLine) -> Result<LensReading, GpuError> {
        let bytes = self.read_bytes(view, line);
        self.output(&gpu.device, (bytes / 4) as usize);
        let staging = self.output.as_ref().expect("made above").staging.clone();
        let mut encoder =
            gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("lens::read") });
        let read = self.encode(gpu, &mut encoder, view, line, &staging);
        gpu.queue.submit([encoder.finish()]);
        let mut reading = None;
        map_and_read(gpu, &staging, bytes, |data| reading = Some(read.reading(data)))?;
        Ok(reading.expect("read above"))
    }

    /// The kernel's parameters for `line` of `view`, and the buffer it copies extra words from.
    fn params<'a>(&self, view: &LensView<'a>, line: &LensLine) -> (LensParams, Option<&'a wgpu::Buffer>) {
        let mut params = LensParams {
            key: view.options.key.id(),
            origin_x: line.origin.0,
            origin_y: line.origin.1,
            unit_x: line.unit.0,
            unit_y: line.unit.1,
            len: line.len,
            has_before: view.before.is_some().into(),
            has_intervals: view.intervals.is_some().into(),
            columns: (view.axis == Axis::Columns).into(),
            seq: line.index,
            ..Default::default()
        };
        let extra = match &view.step {
            LensStep::OddEven | LensStep::Bitonic { .. } => None,
            LensStep::Bubble { reports, .. } => {
                (params.extra_first, params.extra_stride, params.extra_count) = (line.index * 2, 1, 2);
                Some(*reports)
            }
            LensStep::Radix { pass: None, .. } => None,
            LensStep::Radix { pass: Some(radix), counts, input_intervals, whole_picture, .. } => {
                params.radix = if counts.is_some() { 2 } else { 1 };
                params.descending = radix.descending;
                params.key_shift = radix.key_shift;
                params.key_mask = radix.key_mask;
                params.digit_shift = radix.digit_shift;
                params.digit_mask = radix.digit_mask;
                params.interval_shift = radix.interval_shift;
                params.carried_intervals = input_intervals.is_some().into();
                params.whole_picture = (*whole_picture).into();
                params.seq_len = radix.seq_len;
                params.tiles = radix.tiles;
                params.tile_len = radix.tile_len;
                if *whole_picture {
                    params.seq = 0;
                    params.seq_first = line.index * line.len;
                }
                let buckets = radix.digit_mask + 1;
                (params.extra_first, params.extra_stride) = (params.seq * buckets * radix.tiles, radix.tiles);
                params.extra_count = if counts.is_some() { buckets } else { 0 };
                *counts
            }
        };
        (params, extra)
    }
}

/// What a encoded read needs to make its reading from the kernel's output, owned, so that the
/// run may step on before the bytes come back.
pub struct LensRead {
    line: LensLine,
    params: LensParams,
    has_before: bool,
    key_max: u32,
    steps_done: u32,
    step: StepShape,
}

/// A [`LensStep`] without the GPU buffers it points to.
enum StepShape {
    OddEven,
    Bitonic { stages: u32 },
    Bubble { phases_per_step: u32, line_phases: u32 },
    Radix { digit_bits: u32, passes: u32, stages: u32, whole_picture: bool },
}

impl LensRead {
    fn of(view: &LensView<'_>, line: &LensLine, params: LensParams) -> Self {
        let step = match &view.step {
            LensStep::OddEven => StepShape::OddEven,
            LensStep::Bitonic { stages } => StepShape::Bitonic { stages: *stages },
            LensStep::Bubble { phases_per_step, line_phases, .. } => {
                StepShape::Bubble { phases_per_step: *phases_per_step, line_phases: *line_phases }
            }
            LensStep::Radix { digit_bits, passes, stages, whole_picture, .. } => StepShape::Radix {
                digit_bits: *digit_bits,
                passes: *passes,
                stages: *stages,
                whole_picture: *whole_picture,
            },
        };
        LensRead {
            line: line.clone(),
            params,
            has_before: view.before.is_some(),
            key_max: view.options.key.max_value(),
            steps_done: view.steps_done,
            step,
        }
    }

    /// Words the kernel writes: the cells, then the extra words.
    fn words(&self) -> usize {
        self.line.len as usize * CELL_WORDS + self.params.extra_count as usize
    }

    /// Bytes copied back.
    pub fn bytes(&self) -> u64 {
        (self.words().max(1) * 4) as u64
    }

    /// The reading, from the bytes the encoded copy brought back.
    pub fn reading(&self, bytes: &[u8]) -> LensReading {
        let words: Vec<u32> = bytes[..self.words() * 4]
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes(w.try_into().expect("four bytes")))
            .collect();
        decode(self, &words)
    }
}

/// The reading from the kernel's output words.
fn decode(read: &LensRead, words: &[u32]) -> LensReading {
    let (line, params) = (&read.line, &read.params);
    let (cells, extra) = words.split_at(line.len as usize * CELL_WORDS);
    let option = |w: u32| (w != NONE).then_some(w);
    let cells = cells
        .chunks_exact(CELL_WORDS)
        .map(|c| LensCell {
            pixel: c[0].to_le_bytes(),
            key: c[1],
            interval: c[2],
            before: read.has_before.then(|| c[3].to_le_bytes()),
            digit: option(c[4]),
            slot: option(c[5]),
        })
        .collect();
    let k = read.steps_done;
    let step = match &read.step {
        _ if k == 0 => StepReading::Start,
        StepShape::OddEven => StepReading::OddEven { iteration: k - 1 },
        StepShape::Bitonic { stages } => StepReading::Bitonic { index: k - 1, stages: *stages },
        StepShape::Bubble { phases_per_step, line_phases } => {
            let first_phase = (k - 1) * phases_per_step;
            StepReading::Bubble {
                first_phase,
                budget: (*phases_per_step).min(line_phases.saturating_sub(first_phase)),
                ran: extra[0],
                left_early: extra[1] != 0,
                line_phases: *line_phases,
            }
        }
        StepShape::Radix { digit_bits, passes, stages, whole_picture } => StepReading::Radix {
            pass: (k - 1) / stages,
            passes: *passes,
            stage: (k - 1) % stages + 1,
            stages: *stages,
            digit_bits: *digit_bits,
            prefix: (params.extra_count > 0).then(|| extra.to_vec()),
            sequence_len: params.seq_len,
            whole_picture: *whole_picture,
        },
    };
    LensReading { line: line.clone(), cells, key_max: read.key_max, steps_done: k, step }
}
