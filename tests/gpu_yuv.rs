//! 4:2:0 on the GPU, both ways. Decoded frames turned into pictures equal the CPU model
//! (`shadersort::picture::yuv::to_rgba`) texel for texel on awkward sizes (1x1, 1xN, Nx1, odd,
//! 63/64/65). Sorted frames turned into 4:2:0 for an encoder equal the model (`to_yuv420`) byte
//! for byte on sizes that are and are not whole 8x2 blocks or workgroups, on colours at the
//! ends of the range, with one writer reused across frames of different sizes. Both matrices, on
//! every backend under test.

mod common;

use common::on_every_gpu;
use image::RgbaImage;
use shadersort::algorithms::ping_pong::StartPicture;
use shadersort::engine::yuv420::{Yuv420Kernel, Yuv420Reader, Yuv420Writer};
use shadersort::gpu::readback::read_texture;
use shadersort::gpu::texture::picture_texture;
use shadersort::picture::patterns::SplitMix64;
use shadersort::picture::patterns::random_image;
use shadersort::picture::yuv::{Matrix, Yuv420Size, to_rgba, to_yuv420};

#[test]
fn decoded_420_frames_become_the_pictures_the_cpu_model_makes() {
    let sizes = [(1, 1), (1, 9), (9, 1), (2, 2), (37, 23), (63, 65), (64, 64), (65, 63), (257, 3)];
    on_every_gpu(|gpu| {
        let reader = Yuv420Reader::new(gpu);
        let mut rng = SplitMix64::new(7);
        // As in a clip: each frame after the first of a size takes the last one's texture and
        // upload buffers.
        gpu.keep_spares(true);
        for (width, height) in sizes {
            let size = Yuv420Size { width, height };
            assert!(Yuv420Reader::fits(gpu, size));
            for matrix in [Matrix::Bt601, Matrix::Bt709, Matrix::Bt601] {
                // Random bytes, extremes included: every clamp is reached.
                let planes: Vec<u8> = (0..size.bytes()).map(|_| rng.next_u32() as u8).collect();
                let StartPicture::Spare(texture) = reader.picture(gpu, &planes, size, matrix) else {
                    panic!("a frame converted on the GPU is a spare texture")
                };
                let picture = read_texture(gpu, &texture).unwrap();
                let mut expected = Vec::new();
                to_rgba(&planes, size, matrix, &mut expected);
                if let Some(at) = picture.as_raw().iter().zip(&expected).position(|(a, b)| a != b) {
                    let (x, y) = ((at / 4) as u32 % width, (at / 4) as u32 / width);
                    panic!(
                        "{width}x{height} {matrix:?}: pixel ({x}, {y}) is {:?}, the model says {:?}",
                        picture.get_pixel(x, y).0,
                        &expected[at / 4 * 4..][..4]
                    );
                }
            }
        }
        gpu.keep_spares(false);
    });
    crate::common::ci::passed();
}

/// Black, white and the primaries and secondaries, pixel by pixel: the clamps and the extremes.
fn extremes(width: u32, height: u32) -> RgbaImage {
    let colours =
        [[0, 0, 0], [255, 255, 255], [255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 0], [0, 255, 255]];
    RgbaImage::from_fn(width, height, |x, y| {
        let c = colours[((x * 3 + y * 5) % colours.len() as u32) as usize];
        image::Rgba([c[0], c[1], c[2], 255])
    })
}

#[test]
fn frames_in_420_equal_the_cpu_model_byte_for_byte() {
    let sizes =
        [(2, 2), (2, 70), (70, 2), (8, 8), (62, 46), (64, 64), (66, 34), (130, 2), (1026, 6), (514, 258)];
    on_every_gpu(|gpu| {
        let kernel = Yuv420Kernel::new(gpu);
        let mut writer = Yuv420Writer::default();
        let mut staging = None;
        for (i, &(w, h)) in sizes.iter().enumerate() {
            assert!(Yuv420Writer::fits(gpu, (w, h)));
            for (picture, what) in
                [(random_image(w, h, 40 + i as u64), "random"), (extremes(w, h), "extremes")]
            {
                for matrix in [Matrix::Bt601, Matrix::Bt709] {
                    let texture = picture_texture(gpu, &picture, "test::yuv420");
                    let pending = writer.start_read(gpu, &kernel, &texture, matrix, staging.take());
                    let (planes, buffer) = pending.finish(gpu).unwrap();
                    staging = Some(buffer);
                    let expected = to_yuv420(&picture, matrix);
                    assert_eq!(planes.len(), expected.len(), "{w}x{h}");
                    if let Some(at) = planes.iter().zip(&expected).position(|(a, b)| a != b) {
                        panic!(
                            "{what} {w}x{h} {matrix:?}: byte {at} of {} is {}, the model says {}",
                            planes.len(),
                            planes[at],
                            expected[at]
                        );
                    }
                }
            }
        }
    });
    crate::common::ci::passed();
}

#[test]
fn odd_sides_and_oversized_planes_are_left_to_the_cpu() {
    on_every_gpu(|gpu| {
        assert!(!Yuv420Writer::fits(gpu, (3, 2)));
        assert!(!Yuv420Writer::fits(gpu, (2, 3)));
        let limits = gpu.device.limits();
        let side = limits.max_texture_dimension_2d;
        let huge = u64::from(side) * u64::from(side) * 3 / 2 > limits.max_storage_buffer_binding_size;
        assert_eq!(Yuv420Writer::fits(gpu, (side, side)), !huge);
    });
    crate::common::ci::passed();
}
