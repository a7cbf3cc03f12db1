//! The WGSL sort keys equal the Rust mirror on all 2^24 RGB values, on every backend under test.

mod common;

use common::on_every_gpu;
use image::RgbaImage;
use shadersort::gpu::texture::picture_texture;
use shadersort::keys::SortKey;
use shadersort::keys::extract::KeyExtractor;
use shadersort::keys::options::SortOptions;

/// A 4096x4096 picture holding every RGB value once (alpha varies and must not matter).
fn every_rgb() -> RgbaImage {
    RgbaImage::from_fn(4096, 4096, |x, y| {
        let i = y * 4096 + x;
        image::Rgba([i as u8, (i >> 8) as u8, (i >> 16) as u8, (i * 7) as u8])
    })
}

#[test]
fn gpu_keys_equal_cpu_keys_on_every_rgb_value() {
    let picture = every_rgb();
    on_every_gpu(|gpu| {
        let extractor = KeyExtractor::new(gpu);
        let texture = picture_texture(gpu, &picture, "every_rgb");
        for key in SortKey::ALL {
            for descending in [false, true] {
                let options = SortOptions { key, descending, ..Default::default() };
                let gpu_keys = extractor.keys(gpu, &texture, &options).unwrap();
                assert_eq!(gpu_keys.len(), 1 << 24);
                let mismatch =
                    picture.pixels().zip(&gpu_keys).position(|(p, &k)| options.order_key(p.0) != k);
                if let Some(i) = mismatch {
                    let p = picture.as_raw()[i * 4..i * 4 + 3].to_vec();
                    panic!("{key} (descending {descending}): RGB {p:?}: GPU {} != CPU {}", gpu_keys[i], {
                        options.order_key([p[0], p[1], p[2], 0])
                    });
                }
            }
        }
    });
    crate::common::ci::passed();
}
