//! Shift+G in the window: every picture in the folder the dialog answers is sorted with the
//! window's settings (here hue, descending, down the columns) into the folder beside it, each as
//! the CPU model says and under its own name; a file that is no picture is skipped and named in
//! the summary, the others done.

use super::{launch_with, wait_for};
use image::{DynamicImage, RgbaImage};
use shadersort::keys::SortKey;
use shadersort::keys::options::{Axis, SortOptions};
use shadersort::picture::patterns::random_image;
use shadersort::reference::{lines_are_permutations, stable_sort};
use std::path::Path;
use std::time::Duration;

/// Awkward sizes in the formats a batch keeps: each input's name, size and seed.
const PICTURES: [(&str, (u32, u32), u64); 5] = [
    ("a-1x1.png", (1, 1), 1),
    ("b-9x1.bmp", (9, 1), 2),
    ("c-1x9.png", (1, 9), 3),
    ("d-65x5.tif", (65, 5), 4),
    ("e-33x17.png", (33, 17), 5),
];

/// Noise of `size` saved as `path`, and as a decoder reads it back.
fn saved(path: &Path, (w, h): (u32, u32), seed: u64) -> RgbaImage {
    let mut noise = random_image(w, h, seed);
    noise.pixels_mut().for_each(|p| p[3] = 255);
    DynamicImage::ImageRgba8(noise).save(path).unwrap();
    image::open(path).unwrap().to_rgba8()
}

#[test]
fn shift_g_sorts_a_folder_with_the_windows_settings() {
    let mut inputs = Vec::new();
    let prepare = |dir: &Path| {
        let photos = dir.join("photos");
        std::fs::create_dir_all(&photos).unwrap();
        for (name, size, seed) in PICTURES {
            inputs.push((name, saved(&photos.join(name), size, seed)));
        }
        std::fs::write(photos.join("f-broken.png"), b"not a PNG at all").unwrap();
        random_image(64, 48, 17).save(dir.join("noise.png")).unwrap();
    };
    let args = ["--key", "hue", "--reverse", "--axis", "columns"];
    let answer = [("SHADERSORT_DIALOG_ANSWER", "photos")];
    let Some(s) = launch_with("vulkan", ("noise.png", &args), "pass 0/48", prepare, &answer) else { return };
    s.keys(&["shift+g"]);
    let summary = "sorted 5 of 6 inputs into";
    wait_for("the summary", Duration::from_secs(60), || s.log_text().contains(summary));
    let log = s.log_text();
    assert!(log.contains("skipped 1: '") && log.contains("f-broken.png"), "the skip is not named:\n{log}");
    let out = s.dir.path().join("photos-sorted");
    let mut written: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    written.sort();
    assert_eq!(written, PICTURES.map(|(name, ..)| name.to_string()), "not each picture under its own name");
    let options = SortOptions { key: SortKey::Hue, descending: true, axis: Axis::Columns };
    for (name, input) in &inputs {
        let output = image::open(out.join(name)).unwrap().to_rgba8();
        assert!(lines_are_permutations(input, &output, Axis::Columns), "{name}: pixels were lost");
        assert!(output == stable_sort(input, &options), "{name}: not the model's picture");
    }
    crate::clips::ci::passed();
}
