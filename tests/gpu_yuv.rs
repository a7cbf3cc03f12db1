//! Sorted frames turned into 4:2:0 on the GPU for an encoder: the planes equal the CPU model
//! (`shadersort::video::yuv::to_yuv420`) byte for byte, for both matrices, on sizes that are and
//! are not whole 8x2 blocks or workgroups, on colours at the ends of the range, and with one
//! writer reused across frames of different sizes; on every backend under test.

mod common;

use common::on_every_gpu;
use image::RgbaImage;
use shadersort::gpu::texture::picture_texture;
use shadersort::picture::patterns::random_image;
use shadersort::video::yuv::{Matrix, to_yuv420};
use shadersort::video::yuv_gpu::Yuv420Writer;

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
        let mut writer = Yuv420Writer::new(gpu);
        let mut staging = None;
        for (i, &(w, h)) in sizes.iter().enumerate() {
            assert!(Yuv420Writer::fits(gpu, (w, h)));
            for (picture, what) in
                [(random_image(w, h, 40 + i as u64), "random"), (extremes(w, h), "extremes")]
            {
                for matrix in [Matrix::Bt601, Matrix::Bt709] {
                    let texture = picture_texture(gpu, &picture, "test::yuv420");
                    let pending = writer.start_read(gpu, &texture, matrix, staging.take());
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
}
