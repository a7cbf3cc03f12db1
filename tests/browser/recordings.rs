//! The page's recorder in every format, on the page's GPU (the page module's hook, as G records
//! there): an animated PNG whose frames, as a browser composes them, are the CPU model's
//! passes, and a zip archive of PNG frames, one file per pass in one folder, each the model's.

use super::driver::WebDriver;
use image::RgbaImage;
use serde_json::json;
use shadersort::keys::options::SortOptions;
use shadersort::picture::patterns::random_image;
use shadersort::reference::{odd_even_passes, stable_sort};
use std::io::Read;

/// Each exact format, for an opaque picture (unchanged pixels drawn transparent over the last
/// frame) and one with alpha, at odd sizes.
pub fn every_exact_format_records_the_model(browser: &WebDriver) {
    let record = "const done = arguments[arguments.length - 1];
        import('./shadersort_web.js').then((m) => m.record_for_test(...Array.from(arguments).slice(0, 5)))
            .then(done, (e) => done('error: ' + (e.message || e)));";
    for (format, (w, h), seed, opaque) in [
        ("apng", (13, 5), 3, true),
        ("apng", (7, 3), 4, false),
        ("frames", (11, 4), 5, true),
        ("frames", (5, 2), 6, false),
    ] {
        let case = format!("{format} {w}x{h} opaque {opaque}");
        let answer = browser.async_script(record, json!([format, w, h, seed, opaque]));
        let hex = answer.as_str().unwrap_or_else(|| panic!("{case}: {answer}"));
        assert!(!hex.starts_with("error"), "{case}: {hex}");
        let bytes: Vec<u8> =
            (0..hex.len()).step_by(2).map(|k| u8::from_str_radix(&hex[k..k + 2], 16).unwrap()).collect();
        let mut picture = random_image(w, h, seed);
        if opaque {
            picture.pixels_mut().for_each(|p| p[3] = 255);
        }
        let frames = if format == "apng" { apng_frames(&bytes) } else { zipped_frames(&bytes) };
        // Every pass a frame, until the recorder knows the picture sorted.
        assert!(frames.len() >= 2, "{case}: {} frames", frames.len());
        for (k, frame) in frames.iter().enumerate() {
            let model = odd_even_passes(&picture, &SortOptions::default(), k as u32);
            assert!(*frame == model, "{case}: frame {k} is not the CPU model's pass {k}");
        }
        let sorted = stable_sort(&picture, &SortOptions::default());
        assert!(*frames.last().unwrap() == sorted, "{case}: the last frame is not the sorted picture");
    }
}

/// The frames of an animated PNG as a viewer shows them, by the `image` crate's decoder.
fn apng_frames(bytes: &[u8]) -> Vec<RgbaImage> {
    use image::AnimationDecoder;
    let decoder = image::codecs::png::PngDecoder::new(std::io::Cursor::new(bytes)).expect("a PNG");
    assert!(decoder.is_apng().unwrap(), "an animated PNG");
    let frames = decoder.apng().unwrap().into_frames().collect_frames().expect("its frames");
    frames.into_iter().map(image::Frame::into_buffer).collect()
}

/// The pictures of a zip archive of PNG frames, in the order of their names, each checked to lie
/// in the folder the page names.
fn zipped_frames(bytes: &[u8]) -> Vec<RgbaImage> {
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).expect("a zip archive");
    (0..archive.len())
        .map(|k| {
            let mut file = archive.by_index(k).unwrap();
            assert_eq!(file.name().unwrap(), format!("hook-frames/frame-{k:05}.png"));
            let mut png = Vec::new();
            file.read_to_end(&mut png).unwrap();
            image::load_from_memory(&png).unwrap().to_rgba8()
        })
        .collect()
}
