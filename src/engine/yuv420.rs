//! 4:2:0 on the GPU, both ways. Decoded frames are uploaded as 4:2:0 and turned into the
//! picture a sort starts from (`shaders/yuv420_to_rgba.wgsl`, equal to
//! [`to_rgba`](crate::picture::yuv::to_rgba)); sorted frames are turned into 4:2:0
//! (`shaders/rgba_to_yuv420.wgsl`, equal to [`to_yuv420`](crate::picture::yuv::to_yuv420)) and read back
//! as such. 1.5 bytes a pixel cross the bus and the pipes instead of 4, and neither the CPU nor
//! ffmpeg converts.

use crate::algorithms::ping_pong::StartPicture;
use crate::gpu::bindings::{compute_buffer, storage_target, uint_texture};
use crate::gpu::kernel::{bind_group, encode_dispatch, one_kernel, uniform};
use crate::gpu::readback::{PendingMap, staging_at_least};
use crate::gpu::recycle::Recycler;
use crate::gpu::shaders::{RGBA_TO_YUV420_PROGRAM, YUV420_TO_RGBA_PROGRAM};
use crate::gpu::texture::{PICTURE_FORMAT, create_picture_texture};
use crate::gpu::{Gpu, GpuError};
use crate::picture::yuv::{Matrix, ToRgb, Yuv420Size, to_yuv_coefficients};

/// Mirrors `Yuv420Params` in `shaders/rgba_to_yuv420.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Yuv420Params {
    width: u32,
    height: u32,
    luma_row_words: u32,
    chroma_row_words: u32,
    cb_start: u32,
    cr_start: u32,
    blocks_x: u32,
    blocks_y: u32,
    luma: [i32; 4],
    cb: [i32; 4],
    cr: [i32; 4],
}

/// Mirrors `RgbaParams` in `shaders/yuv420_to_rgba.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct RgbaParams {
    width: u32,
    height: u32,
    chroma_width: u32,
    cb_start: u32,
    cr_start: u32,
    cy: i32,
    crv: i32,
    cgu: i32,
    cgv: i32,
    cbu: i32,
    pad: [u32; 2],
}

/// The side of `yuv420_to_rgba`'s square workgroups.
const RGBA_WORKGROUP_SIDE: u32 = 16;

/// The kernel that turns uploaded 4:2:0 frames into pictures to sort (the engine's:
/// [`Engine::yuv420_reader`](super::Engine::yuv420_reader)).
pub struct Yuv420Reader {
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::ComputePipeline,
    /// The last frames' planes and parameters buffers, written again by the next frames.
    uploads: Recycler<Yuv420Size, Upload>,
    /// The last frames' pictures. Kept apart from the runs' spares: a run at an angle takes
    /// textures of its line space's size, and one recycler keeps one size.
    pictures: Recycler<(u32, u32), wgpu::Texture>,
}

/// Where a frame's planes and conversion parameters are uploaded.
struct Upload {
    planes: wgpu::Buffer,
    params: wgpu::Buffer,
}

impl Yuv420Reader {
    /// Builds the kernel on `gpu`.
    pub fn new(gpu: &Gpu) -> Self {
        let (layout, pipeline) = one_kernel(
            gpu,
            &YUV420_TO_RGBA_PROGRAM,
            "yuv420_to_rgba",
            &[
                compute_buffer(0, wgpu::BufferBindingType::Storage { read_only: true }, false),
                compute_buffer(1, wgpu::BufferBindingType::Uniform, false),
                storage_target(2, PICTURE_FORMAT),
            ],
            "yuv420_to_rgba",
            Default::default(),
        );
        let keep = gpu.spares_switch();
        Yuv420Reader { layout, pipeline, uploads: Recycler::new(keep), pictures: Recycler::new(keep) }
    }

    /// Whether a frame of `size` can be converted here: its planes fit one storage buffer
    /// (others are converted on the CPU).
    pub fn fits(gpu: &Gpu, size: Yuv420Size) -> bool {
        let limits = gpu.device.limits();
        let bytes = (size.bytes() as u64).next_multiple_of(4);
        bytes <= limits.max_storage_buffer_binding_size && bytes <= limits.max_buffer_size
    }

    /// A picture texture holding the 4:2:0 frame `planes` ([`Yuv420Size::bytes`] layout) of
    /// `size` (one that [`Yuv420Reader::fits`]) converted with `matrix`; the conversion is
    /// submitted before this returns. The texture and the upload's buffers are taken from the
    /// spares of earlier frames where there are.
    pub fn picture(
        &self,
        gpu: &Gpu,
        planes: &[u8],
        size: Yuv420Size,
        matrix: Matrix,
    ) -> StartPicture<'static> {
        assert_eq!(planes.len(), size.bytes(), "a whole 4:2:0 frame");
        assert!(Self::fits(gpu, size), "{size:?} fits the GPU's conversion from 4:2:0");
        let device = &gpu.device;
        let c = ToRgb::of(matrix);
        let (cw, ch) = size.chroma();
        let luma = size.width * size.height;
        let params = RgbaParams {
            width: size.width,
            height: size.height,
            chroma_width: cw,
            cb_start: luma,
            cr_start: luma + cw * ch,
            cy: c.cy,
            crv: c.crv,
            cgu: c.cgu,
            cgv: c.cgv,
            cbu: c.cbu,
            pad: [0; 2],
        };
        let make = || {
            let buffer = |label, bytes: usize, usage| {
                device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some(label),
                    // Whole words: the shader reads the planes a word at a time.
                    size: (bytes as u64).next_multiple_of(4),
                    usage: usage | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                })
            };
            Some(Upload {
                planes: buffer("yuv420_to_rgba::planes", size.bytes(), wgpu::BufferUsages::STORAGE),
                params: buffer(
                    "yuv420_to_rgba::params",
                    std::mem::size_of::<RgbaParams>(),
                    wgpu::BufferUsages::UNIFORM,
                ),
            })
        };
        let upload = self.uploads.take(size, make).expect("made where there is no spare");
        let mut encoder =
            device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("yuv420_to_rgba") });
        write_words(gpu, &upload.planes, planes);
        gpu.queue.write_buffer(&upload.params, 0, bytemuck::bytes_of(&params));
        let make = || Some(create_picture_texture(gpu, size.width, size.height, "yuv420_to_rgba::picture"));
        let picture = self.pictures.take((size.width, size.height), make).expect("made where there is none");
        let view = picture.create_view(&Default::default());
        let bind_group = bind_group(
            device,
            "yuv420_to_rgba::bind_group",
            &self.layout,
            [
                upload.planes.as_entire_binding(),
                upload.params.as_entire_binding(),
                wgpu::BindingResource::TextureView(&view),
            ],
        );
        let groups = |side: u32| side.div_ceil(RGBA_WORKGROUP_SIDE);
        encode_dispatch(
            &mut encoder,
            "yuv420_to_rgba",
            &self.pipeline,
            &bind_group,
            [groups(size.width), groups(size.height), 1],
        );
        gpu.queue.submit([encoder.finish()]);
        // The upload goes back to the spares now: the next frame's writes are ordered after
        // this submission.
        StartPicture::Spare(std::sync::Arc::new(picture))
    }
}

/// Writes `bytes` at the start of `buffer`, the last word padded with zeros (writes are whole
/// words).
fn write_words(gpu: &Gpu, buffer: &wgpu::Buffer, bytes: &[u8]) {
    let whole = bytes.len() / 4 * 4;
    gpu.queue.write_buffer(buffer, 0, &bytes[..whole]);
    if whole < bytes.len() {
        let mut last = [0u8; 4];
        last[..bytes.len() - whole].copy_from_slice(&bytes[whole..]);
        gpu.queue.write_buffer(buffer, whole as u64, &last);
    }
}

/// Pixels a kernel invocation converts along a row.
const BLOCK_WIDTH: u32 = 8;
/// Invocations per workgroup (`@workgroup_size` in the shader).
const WORKGROUP: u32 = 64;

/// Where the planes lie in the GPU's buffer: rows padded to whole blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PaddedPlanes {
    size: Yuv420Size,
    luma_row_bytes: u32,
}

impl PaddedPlanes {
    fn of(size: Yuv420Size) -> PaddedPlanes {
        PaddedPlanes { size, luma_row_bytes: size.width.next_multiple_of(BLOCK_WIDTH) }
    }

    fn chroma_row_bytes(self) -> u32 {
        self.luma_row_bytes / 2
    }

    fn luma_bytes(self) -> u64 {
        u64::from(self.luma_row_bytes) * u64::from(self.size.height)
    }

    fn chroma_bytes(self) -> u64 {
        u64::from(self.chroma_row_bytes()) * u64::from(self.size.height / 2)
    }

    fn bytes(self) -> u64 {
        self.luma_bytes() + 2 * self.chroma_bytes()
    }

    /// The planes without their padding, in ffmpeg's `rawvideo` layout.
    fn unpad(self, data: &[u8], out: &mut Vec<u8>) {
        let (w, cw) = (self.size.width as usize, self.size.width as usize / 2);
        let luma = self.luma_bytes() as usize;
        let chroma = self.chroma_bytes() as usize;
        let rows = |from: &[u8], pitch: u32, keep: usize, out: &mut Vec<u8>| {
            from.chunks_exact(pitch as usize).for_each(|row| out.extend_from_slice(&row[..keep]));
        };
        out.clear();
        out.reserve(self.size.bytes());
        rows(&data[..luma], self.luma_row_bytes, w, out);
        rows(&data[luma..luma + chroma], self.chroma_row_bytes(), cw, out);
        rows(&data[luma + chroma..luma + 2 * chroma], self.chroma_row_bytes(), cw, out);
    }
}

/// The kernel that turns sorted pictures into 4:2:0 planes (the engine's:
/// [`Engine::yuv420_kernel`](super::Engine::yuv420_kernel)).
pub struct Yuv420Kernel {
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::ComputePipeline,
}

impl Yuv420Kernel {
    /// Builds the kernel on `gpu`.
    pub fn new(gpu: &Gpu) -> Self {
        let (layout, pipeline) = one_kernel(
            gpu,
            &RGBA_TO_YUV420_PROGRAM,
            "yuv420",
            &[
                uint_texture(0, wgpu::ShaderStages::COMPUTE),
                compute_buffer(1, wgpu::BufferBindingType::Uniform, false),
                compute_buffer(2, wgpu::BufferBindingType::Storage { read_only: false }, false),
            ],
            "rgba_to_yuv420",
            Default::default(),
        );
        Yuv420Kernel { layout, pipeline }
    }
}

/// A stream of frames turned into 4:2:0 by the engine's kernel: the buffer the planes are written
/// into, used again for every frame (each frame's copy out is ordered before the next frame's
/// conversion).
#[derive(Default)]
pub struct Yuv420Writer {
    planes: Option<wgpu::Buffer>,
}

impl Yuv420Writer {
    /// Whether a `width` x `height` frame can be converted here: even sides, and planes that fit
    /// one storage buffer (others are converted on the CPU).
    pub fn fits(gpu: &Gpu, (width, height): (u32, u32)) -> bool {
        let limits = gpu.device.limits();
        let bytes = PaddedPlanes::of(Yuv420Size { width, height }).bytes();
        width % 2 == 0
            && height % 2 == 0
            && bytes <= limits.max_storage_buffer_binding_size
            && bytes <= limits.max_buffer_size
            && height / 2 <= limits.max_compute_workgroups_per_dimension
    }

    /// Starts converting `picture` with `kernel` (an `Rgba8Uint` texture that [`Yuv420Writer::fits`]) and
    /// reading the planes back into `staging` (made, or made larger, when missing or too small).
    pub fn start_read(
        &mut self,
        gpu: &Gpu,
        kernel: &Yuv420Kernel,
        picture: &wgpu::Texture,
        matrix: Matrix,
        staging: Option<wgpu::Buffer>,
    ) -> PendingPlanes {
        let size = Yuv420Size { width: picture.width(), height: picture.height() };
        assert!(Self::fits(gpu, (size.width, size.height)), "{size:?} fits the GPU's 4:2:0 conversion");
        let layout = PaddedPlanes::of(size);
        let bytes = layout.bytes();
        let planes = match self.planes.take().filter(|b| b.size() >= bytes) {
            Some(planes) => planes,
            None => gpu.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("yuv420::planes"),
                size: bytes,
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            }),
        };
        let k = to_yuv_coefficients(matrix);
        let word = |bytes: u64| u32::try_from(bytes / 4).expect("planes fit a storage buffer");
        let params = Yuv420Params {
            width: size.width,
            height: size.height,
            luma_row_words: layout.luma_row_bytes / 4,
            chroma_row_words: layout.chroma_row_bytes() / 4,
            cb_start: word(layout.luma_bytes()),
            cr_start: word(layout.luma_bytes() + layout.chroma_bytes()),
            blocks_x: layout.luma_row_bytes / BLOCK_WIDTH,
            blocks_y: size.height / 2,
            luma: [k[0], k[1], k[2], 0],
            cb: [k[3], k[4], k[5], 0],
            cr: [k[6], k[7], k[8], 0],
        };
        let params = uniform(gpu, "yuv420::params", &params);
        let view = picture.create_view(&Default::default());
        let bind_group = bind_group(
            &gpu.device,
            "yuv420::bind_group",
            &kernel.layout,
            [
                wgpu::BindingResource::TextureView(&view),
                params.as_entire_binding(),
                planes.as_entire_binding(),
            ],
        );
        let staging = staging_at_least(gpu, staging, bytes, "yuv420::staging");
        let mut encoder =
            gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("yuv420") });
        encode_dispatch(
            &mut encoder,
            "rgba_to_yuv420",
            &kernel.pipeline,
            &bind_group,
            [workgroups_for(layout.luma_row_bytes / BLOCK_WIDTH), size.height / 2, 1],
        );
        encoder.copy_buffer_to_buffer(&planes, 0, &staging, 0, bytes);
        self.planes = Some(planes);
        PendingPlanes { map: PendingMap::submit(gpu, encoder, staging, bytes), layout }
    }
}

/// Workgroups along x for `blocks` blocks a row.
fn workgroups_for(blocks: u32) -> u32 {
    blocks.div_ceil(WORKGROUP)
}

/// A frame's 4:2:0 planes on their way to the CPU ([`Yuv420Writer::start_read`]).
pub struct PendingPlanes {
    map: PendingMap,
    layout: PaddedPlanes,
}

impl PendingPlanes {
    /// Waits for the copy and returns the planes (ffmpeg's `rawvideo` layout), with the staging
    /// buffer for the next read.
    pub fn finish(self, gpu: &Gpu) -> Result<(Vec<u8>, wgpu::Buffer), GpuError> {
        let mut out = Vec::new();
        let layout = self.layout;
        let staging = self.map.finish(gpu, |data| layout.unpad(data, &mut out))?;
        Ok((out, staging))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_padded_to_whole_blocks_and_unpadded_to_ffmpegs_layout() {
        let layout = PaddedPlanes::of(Yuv420Size { width: 6, height: 2 });
        assert_eq!((layout.luma_row_bytes, layout.chroma_row_bytes()), (8, 4));
        assert_eq!(layout.bytes(), 16 + 4 + 4);
        let data: Vec<u8> = (0..24).collect();
        let mut out = Vec::new();
        layout.unpad(&data, &mut out);
        assert_eq!(out, [0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 13, 16, 17, 18, 20, 21, 22]);
    }
}
