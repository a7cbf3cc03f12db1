//! The GPU scatter of a sort at an angle (`shaders/line_scatter.wgsl`): one compute pass that
//! puts the line-space picture back into the picture, through each pixel's place in line space.
//! Built once per device; [`super::AngledRun`] encodes it after every batch of steps, so the
//! window, the recorder and `--out` all read the same picture. The same kernel gathers a picture
//! already on the GPU into line space (through each cell's pixel), so no picture crosses from
//! the CPU to start.

use super::LineSpace;
use crate::gpu::Gpu;
use crate::gpu::bindings::{storage_target, uint_texture};
use crate::gpu::kernel::{bind_group, compute_pipeline_on, encode_dispatch, kernel_layouts};
use crate::gpu::recycle::Recycled;
use crate::gpu::shaders::LINE_SCATTER_PROGRAM;
use crate::gpu::texture::PICTURE_FORMAT;

/// `WORKGROUP_WIDTH` x `WORKGROUP_HEIGHT` of `scatter_lines` (checked by a test).
pub const WORKGROUP_SIZE: [u32; 2] = [16, 16];

/// The texel format of the places texture: one row-major line-space index per picture pixel.
pub const PLACES_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::R32Uint;

/// A line space's index tables on the GPU, uploaded once per line space and device and kept
/// for every run along it: a clip's frames then upload nothing but themselves.
#[derive(Clone, Debug)]
pub struct LineTables {
    /// The device they live on ([`Gpu::id`]).
    gpu: u64,
    /// Each line-space cell's picture pixel (what the gather and the intervals kernel read).
    pub cells: wgpu::Texture,
    /// Each picture pixel's line-space cell (what the scatter reads).
    pub places: wgpu::Texture,
}

impl LineSpace {
    /// The index tables of this line space on `gpu`: uploaded on first use and kept (made
    /// afresh, not kept, for a second device).
    pub fn tables(&self, gpu: &Gpu) -> LineTables {
        let upload = || LineTables {
            gpu: gpu.id(),
            cells: index_texture(gpu, self.size(), self.cells(), "line_space::cells"),
            places: index_texture(gpu, self.picture_size(), self.places(), "line_space::places"),
        };
        let kept = self.tables.get_or_init(upload);
        if kept.gpu == gpu.id() { kept.clone() } else { upload() }
    }
}

/// The scatter pipeline and its bind group layout, made once per device; the pipeline is
/// built when the first scatter is encoded, so sorts along rows or columns never build it.
#[derive(Clone)]
pub struct LineScatter {
    pipeline: std::sync::Arc<std::sync::OnceLock<wgpu::ComputePipeline>>,
    build: std::sync::Arc<Builder>,
    layout: wgpu::BindGroupLayout,
}

/// What building the pipeline takes.
struct Builder {
    device: wgpu::Device,
    layout: wgpu::PipelineLayout,
    cache: Option<wgpu::PipelineCache>,
}

impl LineScatter {
    /// Makes the layout; the pipeline waits for the first scatter.
    pub fn new(gpu: &Gpu) -> Self {
        let device = &gpu.device;
        let texture = |binding| uint_texture(binding, wgpu::ShaderStages::COMPUTE);
        let (layout, pipeline_layout) = kernel_layouts(
            device,
            "line_scatter",
            &[texture(0), texture(1), storage_target(2, PICTURE_FORMAT)],
        );
        let build =
            Builder { device: device.clone(), layout: pipeline_layout, cache: gpu.pipeline_cache().cloned() };
        // In the browser wgpu's objects stay on the page's one thread, so the Arc is never shared.
        #[cfg_attr(
            target_arch = "wasm32",
            allow(
                clippy::arc_with_non_send_sync,
                reason = "in the browser wgpu's objects stay on the page's one thread"
            )
        )]
        let build = std::sync::Arc::new(build);
        LineScatter { pipeline: Default::default(), build, layout }
    }

    /// The pipeline, built on first use.
    fn pipeline(&self) -> &wgpu::ComputePipeline {
        self.pipeline.get_or_init(|| {
            let Builder { device, layout, cache } = &*self.build;
            compute_pipeline_on(
                device,
                cache.as_ref(),
                "line_scatter::pipeline",
                Some(layout),
                &LINE_SCATTER_PROGRAM.module(device),
                "scatter_lines",
                Default::default(),
            )
        })
    }

    /// `picture` (a picture texture of the line space's picture size) gathered into a picture
    /// texture of line space (a last run's of that size, or a new one), padding
    /// [`super::line_space::PADDING`]: the GPU twin of [`LineSpace::gather`], encoded and
    /// submitted now.
    pub fn gather(
        &self,
        gpu: &Gpu,
        space: &LineSpace,
        picture: &wgpu::Texture,
    ) -> Recycled<(u32, u32), wgpu::Texture> {
        assert_eq!((picture.width(), picture.height()), space.picture_size(), "gather: another picture size");
        let size = space.size();
        let cells = space.tables(gpu).cells;
        // Every texel is written, padding too, so the last run's texture of this size will do.
        let make =
            || Some(crate::gpu::texture::create_picture_texture(gpu, size.0, size.1, "line_gather::lines"));
        let lines = gpu.picture_spares.take(size, make).expect("made where there is no spare");
        let binding = self.bind(&gpu.device, picture, &cells, &lines);
        let mut encoder = gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("line_gather::encoder") });
        self.encode(&mut encoder, &binding, size);
        gpu.queue.submit([encoder.finish()]);
        lines
    }

    /// The binding that scatters `line_space` (a picture texture of the line space's size)
    /// through `places` into `picture`, or gathers (a picture, a line space's cells, line space);
    /// keep it as long as the textures.
    pub fn bind(
        &self,
        device: &wgpu::Device,
        line_space: &wgpu::Texture,
        places: &wgpu::Texture,
        picture: &wgpu::Texture,
    ) -> wgpu::BindGroup {
        let views = [line_space, places, picture].map(|t| t.create_view(&Default::default()));
        bind_group(
            device,
            "line_scatter::bind_group",
            &self.layout,
            views.iter().map(wgpu::BindingResource::TextureView),
        )
    }

    /// Encodes the scatter that `binding` describes into a `width` x `height` picture.
    pub fn encode(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        binding: &wgpu::BindGroup,
        (width, height): (u32, u32),
    ) {
        encode_dispatch(
            encoder,
            "line_scatter::pass",
            self.pipeline(),
            binding,
            [width.div_ceil(WORKGROUP_SIZE[0]), height.div_ceil(WORKGROUP_SIZE[1]), 1],
        );
    }
}

/// `indices` (row-major, one per texel) uploaded as an index texture of `width` x `height`.
fn index_texture(gpu: &Gpu, (width, height): (u32, u32), indices: &[u32], label: &str) -> wgpu::Texture {
    let texture = crate::gpu::texture::create_texture_2d(
        gpu,
        (width, height),
        PLACES_FORMAT,
        wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        label,
    );
    gpu.queue.write_texture(
        texture.as_image_copy(),
        bytemuck::cast_slice(indices),
        wgpu::TexelCopyBufferLayout {
            offset: 0,
            bytes_per_row: Some(width * 4),
            rows_per_image: Some(height),
        },
        texture.size(),
    );
    texture
}
