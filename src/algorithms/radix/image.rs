//! The radix view's steps on the sorts of `crates/wgpu-radix-sort`: the whole picture on the
//! device-wide sort, each line on the segmented sort.
//!
//! After k passes of b-bit digits, LSD radix sort has put a sequence in stable order of the
//! low k x b bits of its key. So step k of the view is the input sorted, stably, by those
//! bits: `shaders/radix_image.wgsl` gathers every pixel's masked key and position (lines one
//! after another along the axis), the crate's sort orders the pairs (the whole picture as one
//! segment, or each line as one), and a second kernel places the pixels, counting those that
//! moved since the step before.
//!
//! Used without sub-steps (a staged scatter needs the view's own kernels): for the whole-picture
//! scope without intervals when the picture fits one sort (where the view's own kernels scan
//! every tile's counts in a single workgroup), and for lines that a workgroup holds, within
//! intervals or not, when nobody watches the steps (`RadixSettings::device_sorted_lines`: the
//! lens reads destinations from the view's own kernels). [`super::RadixRun`] decides. Since
//! every step sorts the input anew, a run nobody watches goes to its end in one step
//! ([`super::RadixRun`]'s `encode_to_end`).

use crate::algorithms::kernel_view::{Dispatch, Grid};
use crate::algorithms::params_ring::ParamsRing;
use crate::algorithms::ping_pong::PingPong;
use crate::algorithms::swap_counters::SwapCounters;
use crate::algorithms::work::Work;
use crate::gpu::Gpu;
use crate::gpu::bindings::{compute_buffer, storage_target, uint_texture};
use crate::gpu::kernel::{bind_group, compute_pipeline, encode_dispatch_at, kernel_layouts};
use crate::gpu::recycle::{Recycled, Recycler};
use crate::gpu::shaders::RADIX_IMAGE_PROGRAM;
use crate::gpu::texture::PICTURE_FORMAT;
use crate::keys::radix_key::RadixKey;
use std::sync::Arc;
use wgpu_radix_sort::{RadixSorter, SegmentScratch, SegmentedSorter, SortJob};

/// Pixels per workgroup (`GROUP` in `shaders/radix_image.wgsl`).
const GROUP: u32 = 256;

/// Mirrors `ImageStepParams` in `shaders/radix_image.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct ImageStepParams {
    /// `SortKey::id`.
    pub key: u32,
    /// 1 for descending order.
    pub descending: u32,
    /// `Axis` as u32.
    pub axis: u32,
    /// Low bits dropped from the sort key.
    pub key_shift: u32,
    /// 2^key_bits - 1.
    pub key_mask: u32,
    /// The key bits sorted after the step.
    pub step_mask: u32,
    /// Pixels in the picture.
    pub len: u32,
    /// 1 on the first step after a restart, or on a step made from the input alone.
    pub first_step: u32,
    /// 1 when the interval id sits above the key.
    pub with_intervals: u32,
    /// Where the interval id sits in the composite key: the key's bits.
    pub interval_shift: u32,
    /// Pads the struct to 16-byte multiples, as uniforms need.
    pub pad: [u32; 2],
}

impl ImageStepParams {
    /// The parameters of the step that makes `passes_done` digit passes of `digit_bits` bits.
    pub fn new(key: &RadixKey, digit_bits: u32, passes_done: u32, len: u32) -> Self {
        let options = key.options;
        let sorted_bits = passes_done.saturating_mul(digit_bits);
        ImageStepParams {
            key: options.key.id(),
            descending: options.descending.into(),
            axis: options.axis as u32,
            key_shift: key.shift(),
            key_mask: key.mask(),
            step_mask: if sorted_bits >= 32 { u32::MAX } else { (1 << sorted_bits) - 1 },
            len,
            first_step: u32::from(passes_done == 1),
            with_intervals: u32::from(key.interval_bits > 0),
            interval_shift: key.bits,
            pad: [0; 2],
        }
    }
}

/// The gather and place pipelines and the segmented sorter (with the device-wide sorter
/// inside), built once per device (on the first run that sorts this way), and the buffers of
/// runs gone, for the next of the same size (a clip's frames).
pub struct ImagePipelines {
    layout: wgpu::BindGroupLayout,
    gather: wgpu::ComputePipeline,
    place: wgpu::ComputePipeline,
    /// The program, for the shader panel.
    compiled: crate::gpu::shaders::Compiled,
    sorter: SegmentedSorter,
    buffers: Recycler<(u32, u32), StepBuffers>,
}

/// The buffers one picture's steps use, by (pixels, segment length): every entry is written
/// before it is read in a step from the input, so a run may take the last one's.
struct StepBuffers {
    keys: wgpu::Buffer,
    positions: wgpu::Buffer,
    placed: wgpu::Buffer,
    scratch: SegmentScratch,
}

impl ImagePipelines {
    /// Builds the two kernels and the fastest sorters for the device.
    pub fn new(gpu: &Gpu) -> Self {
        let device = &gpu.device;
        let compiled = RADIX_IMAGE_PROGRAM.compile(device);
        let module = &compiled.module;
        let storage = wgpu::BufferBindingType::Storage { read_only: false };
        let (layout, pipeline_layout) = kernel_layouts(
            device,
            "radix_image",
            &[
                uint_texture(0, wgpu::ShaderStages::COMPUTE),
                compute_buffer(1, wgpu::BufferBindingType::Uniform, true),
                compute_buffer(2, storage, true),
                storage_target(3, PICTURE_FORMAT),
                compute_buffer(4, storage, false),
                compute_buffer(5, storage, false),
                compute_buffer(6, storage, false),
                uint_texture(7, wgpu::ShaderStages::COMPUTE),
            ],
        );
        let pipeline = |entry_point: &str| {
            let label = format!("radix_image::{entry_point}");
            compute_pipeline(gpu, &label, &pipeline_layout, module, entry_point, Default::default())
        };
        ImagePipelines {
            gather: pipeline("gather"),
            place: pipeline("place"),
            compiled: compiled.clone(),
            layout,
            sorter: SegmentedSorter::with_sorter(device, RadixSorter::new(device))
                .expect("WebGPU's least workgroup memory holds the segmented sort's smallest block"),
            buffers: Recycler::new(gpu.spares_switch()),
        }
    }

    /// The most pixels one picture may have for this way of sorting.
    pub fn max_len(&self) -> u32 {
        self.sorter.sorter().max_len()
    }

    /// The longest line whose steps sort in workgroup memory.
    pub fn line_len(&self) -> u32 {
        self.sorter.workgroup_len(true)
    }
}

/// The buffers and bind groups of one picture sorted this way.
pub struct ImageSteps {
    pipelines: Arc<ImagePipelines>,
    device: wgpu::Device,
    params: ParamsRing,
    buffers: Recycled<(u32, u32), StepBuffers>,
    /// Pixels sorted as one: a line, or the whole picture.
    segment_len: u32,
    /// Group `d` writes the state texture `d`.
    bind_groups: [wgpu::BindGroup; 2],
    len: u32,
    groups: (u32, u32),
}

impl ImageSteps {
    /// Buffers for the picture of `pictures` sorted in segments of `segment_len` pixels (a
    /// line, or all of them), or `None` when it has more pixels than one sort takes. `intervals`
    /// holds each input pixel's interval id (read where the key has interval bits). `slots` is
    /// how many steps may be outstanding (the parameter ring's size).
    pub fn new(
        pipelines: Arc<ImagePipelines>,
        gpu: &Gpu,
        (pictures, counters, intervals): (&PingPong, &SwapCounters, &wgpu::TextureView),
        segment_len: u32,
        slots: u32,
    ) -> Option<Self> {
        let size = pictures.input().size();
        let len = u32::try_from(u64::from(size.width) * u64::from(size.height)).ok()?;
        if len > pipelines.max_len() {
            return None;
        }
        let device = &gpu.device;
        let make = || -> Option<StepBuffers> {
            let scratch = pipelines.sorter.scratch(device, len, segment_len, true).ok()?;
            let buffer = |label: &str| {
                device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some(label),
                    size: u64::from(len.max(1)) * 4,
                    usage: wgpu::BufferUsages::STORAGE,
                    mapped_at_creation: false,
                })
            };
            Some(StepBuffers {
                keys: buffer("radix_image::keys"),
                positions: buffer("radix_image::positions"),
                placed: buffer("radix_image::placed"),
                scratch,
            })
        };
        let buffers = pipelines.buffers.take((len, segment_len), make)?;
        let params =
            ParamsRing::new(gpu, std::mem::size_of::<ImageStepParams>(), slots, "radix_image::params");
        let input = pictures.input().create_view(&Default::default());
        let bind_groups = [0, 1].map(|d| {
            bind_group(
                device,
                &format!("radix_image::bind_group[{d}]"),
                &pipelines.layout,
                [
                    wgpu::BindingResource::TextureView(&input),
                    params.binding(),
                    counters.binding(),
                    wgpu::BindingResource::TextureView(pictures.view(d)),
                    buffers.keys.as_entire_binding(),
                    buffers.positions.as_entire_binding(),
                    buffers.placed.as_entire_binding(),
                    wgpu::BindingResource::TextureView(intervals),
                ],
            )
        });
        let workgroups = len.div_ceil(GROUP);
        let x = workgroups.clamp(1, device.limits().max_compute_workgroups_per_dimension);
        Some(ImageSteps {
            pipelines,
            device: device.clone(),
            params,
            buffers,
            segment_len,
            bind_groups,
            len,
            groups: (x, workgroups.div_ceil(x)),
        })
    }

    /// Encodes step `step` (0-based; it makes `step + 1` digit passes of `digit_bits` bits of
    /// `key`): its result goes to state texture `(step + 1) % 2`, its moved pixels to the
    /// counter slot at `counter_offset`, counted from the step before, or from the input where
    /// `from_input` (a step made without the ones before it).
    pub fn encode_step(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        queue: &wgpu::Queue,
        key: &RadixKey,
        digit_bits: u32,
        (step, from_input): (u32, bool),
        counter_offset: u32,
    ) {
        let params = self.step_params(key, digit_bits, (step, from_input));
        let offset = self.params.write(queue, step, &params);
        let bind_group = &self.bind_groups[((step + 1) % 2) as usize];
        let (x, y) = self.groups;
        let offsets = [offset, counter_offset];
        let gather = &self.pipelines.gather;
        encode_dispatch_at(encoder, "radix_image::gather", gather, bind_group, &offsets, [x, y, 1]);
        let job = SortJob::pairs(&self.buffers.keys, &self.buffers.positions, self.len);
        self.pipelines
            .sorter
            .record(&self.device, encoder, &job, self.segment_len, &self.buffers.scratch)
            .expect("the scratch holds the picture in these segments");
        let place = &self.pipelines.place;
        encode_dispatch_at(encoder, "radix_image::place", place, bind_group, &offsets, [x, y, 1]);
    }
}

impl ImageSteps {
    /// The parameters of step `step`, made from the step before or, `from_input`, the input.
    fn step_params(
        &self,
        key: &RadixKey,
        digit_bits: u32,
        (step, from_input): (u32, bool),
    ) -> ImageStepParams {
        let mut params = ImageStepParams::new(key, digit_bits, step + 1, self.len);
        params.first_step |= u32::from(from_input);
        params
    }

    /// The work of step `step` besides the pixels it moved (made from the step before; a step
    /// made from the input alone is never counted). Keys, positions and places are 4 bytes a
    /// pixel like the pixels themselves: `placed`, where each input pixel sits, is counted as
    /// the per-pixel positions the sort moves are (it is their inverse). No key comparisons are
    /// counted: LSD radix compares none, and the crate's merge sort of short segments compares
    /// as many as its data makes it (it has no counters to tell).
    ///
    /// - `gather`: loads each pixel, stores its key and position (and, on the first step, its
    ///   place); no barriers.
    /// - The crate's sort of the (key, position) pairs: nothing for one pixel or segments of
    ///   one. In workgroup memory (`sort_segments`), each workgroup loads and stores its
    ///   segments' keys and positions once, and passes a barrier after loading, one after its
    ///   runs, two per merge round (from runs of keys / invocations to the segment's next power
    ///   of two) and a storage barrier before storing. On the device-wide sort (a whole picture
    ///   too long for a workgroup), whose passes and look-backs depend on the keys and on the
    ///   schedule, counted by construction: its histogram loads every key once and each of its
    ///   digit passes (one a byte of the 32-bit key) loads and stores every key and position
    ///   once; its barriers are not counted.
    /// - `place`: loads each position's pair's position, the input pixel it names and that
    ///   pixel's place; stores the pixel and its place; two barriers a workgroup.
    pub fn work(&self, step: u32) -> Work {
        let len = u64::from(self.len);
        let (x, y) = self.groups;
        let gather = (len, len * (2 + u64::from(step == 0)));
        let sort = self.sort_work();
        let place = Work::of(0, (3 * len, 2 * len), 2 * u64::from(x) * u64::from(y));
        Work::of(0, gather, 0) + sort + place
    }

    /// The work of the crate's sort of one step's pairs (see [`ImageSteps::work`]).
    fn sort_work(&self) -> Work {
        let segment = self.segment_len.min(self.len);
        let len = u64::from(self.len);
        if self.len <= 1 || segment == 1 {
            return Work::default();
        }
        let Some((block, invocations)) = self.pipelines.sorter.workgroup_sort_shape(segment, true) else {
            // 32-bit keys: four byte passes.
            const PASSES: u64 = 4;
            return Work::of(0, (len * (1 + 2 * PASSES), len * 2 * PASSES), 0);
        };
        let span = segment.next_power_of_two();
        let rounds = u64::from((span / (block / invocations)).max(1).ilog2());
        let groups = self.len.div_ceil(segment).div_ceil(block / span);
        let x = groups.clamp(1, self.device.limits().max_compute_workgroups_per_dimension);
        let workgroups = u64::from(x) * u64::from(groups.div_ceil(x));
        Work::of(0, (2 * len, 2 * len), workgroups * (3 + 2 * rounds))
    }

    /// The kernels of step `step` around the crate's sort of the keys they gather: the gather
    /// and the place.
    pub fn kernels(&self, key: &RadixKey, digit_bits: u32, step: u32) -> Vec<Dispatch> {
        let params = self.step_params(key, digit_bits, (step, false));
        let (x, y) = self.groups;
        let grid = Grid::Compute { workgroups: [x, y, 1], workgroup_size: [GROUP, 1, 1] };
        let compiled = &self.pipelines.compiled;
        ["gather", "place"]
            .map(|entry| Dispatch::new(compiled, entry, grid, &params, Vec::new(), step..step + 1))
            .to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keys::SortKey;
    use crate::keys::options::SortOptions;

    #[test]
    fn each_step_sorts_by_the_bits_of_the_passes_made() {
        let options = SortOptions { key: SortKey::Red, ..Default::default() };
        let key = RadixKey::new(options, None).unwrap();
        assert_eq!(ImageStepParams::new(&key, 4, 1, 9).step_mask, 0xf);
        assert_eq!(ImageStepParams::new(&key, 4, 2, 9).step_mask, 0xff);
        assert_eq!(ImageStepParams::new(&key, 8, 4, 9).step_mask, u32::MAX);
        assert_eq!(ImageStepParams::new(&key, 8, 5, 9).step_mask, u32::MAX);
        assert_eq!(ImageStepParams::new(&key, 1, 1, 9).first_step, 1);
        assert_eq!(ImageStepParams::new(&key, 1, 2, 9).first_step, 0);
    }
}
