//! Shift+G in the page: the pictures picked in the browser's dialog are sorted with the page's
//! settings (here the hue, chosen by K) and downloaded together as `sorted.zip`, each as the CPU
//! model says, under its own name in its own exact format (PNG for the rest); a file that is no
//! picture is skipped and named.

use super::Page;
use image::{DynamicImage, RgbaImage};
use serde_json::json;
use shadersort::keys::SortKey;
use shadersort::keys::options::SortOptions;
use shadersort::picture::patterns::random_image;
use shadersort::reference::{lines_are_permutations, stable_sort};
use std::io::Read;
use std::time::Duration;

/// Awkward sizes: each input's name, its name in the archive, size and seed.
const PICTURES: [(&str, &str, (u32, u32), u64); 5] = [
    ("a-1x1.png", "a-1x1.png", (1, 1), 11),
    ("b-9x1.bmp", "b-9x1.bmp", (9, 1), 12),
    ("c-1x9.png", "c-1x9.png", (1, 9), 13),
    ("d-65x5.jpg", "d-65x5.png", (65, 5), 14),
    ("e-33x17.png", "e-33x17.png", (33, 17), 15),
];

pub fn shift_g_sorts_the_pictures_picked_into_a_zip(page: &Page) {
    let dir = tempfile::tempdir().unwrap();
    let mut inputs = Vec::new();
    let mut paths = Vec::new();
    for (name, zipped, (w, h), seed) in PICTURES {
        let path = dir.path().join(name);
        let mut noise = random_image(w, h, seed);
        noise.pixels_mut().for_each(|p| p[3] = 255);
        DynamicImage::ImageRgba8(noise).to_rgb8().save(&path).unwrap();
        inputs.push((zipped, image::open(&path).unwrap().to_rgba8()));
        paths.push(path.display().to_string());
    }
    let broken = dir.path().join("f-broken.png");
    std::fs::write(&broken, b"not a PNG at all").unwrap();
    paths.push(broken.display().to_string());

    // K: the next key, hue; then Shift+G and the dialog's files, as a user picks them.
    page.keys(&["k"]);
    page.expect_log("hue");
    // A headless browser cancels a file chooser at once: intercepted, it stays open for the
    // driver to fill its input as a user picks files.
    let browser = &page.browser;
    browser.devtools("Page.setInterceptFileChooserDialog", json!({"enabled": true}));
    page.keys(&["Shift+G"]);
    // The dialog's file input, once the page has made it.
    let find = |css: &str| {
        let started = std::time::Instant::now();
        loop {
            let query = json!({"using": "css selector", "value": css});
            let answer = browser.call_fallible("POST", "element", query);
            let found = answer.ok().and_then(|v| v.as_object().and_then(|o| o.values().next().cloned()));
            if let Some(id) = found.as_ref().and_then(|id| id.as_str()) {
                return id.to_string();
            }
            let log = browser.log();
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "no '{css}' in the page after 30 s; its log:\n{log}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    };
    let input = find("#rfd-input");
    browser.call("POST", &format!("element/{input}/value"), json!({"text": paths.join("\n")}));
    browser.devtools("Page.setInterceptFileChooserDialog", json!({"enabled": false}));
    page.expect_log("sorted 5 of 6 pictures: downloaded sorted.zip; skipped 1: 'f-broken.png'");

    let bytes = page.download("sorted.zip");
    std::fs::remove_file(page.downloads.path().join("sorted.zip")).unwrap();
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).expect("a zip archive");
    let names: Vec<String> =
        (0..archive.len()).map(|k| archive.by_index(k).unwrap().name().unwrap().to_string()).collect();
    assert_eq!(
        names,
        PICTURES.map(|(_, zipped, ..)| format!("sorted/{zipped}")),
        "not each picture under its name"
    );
    let options = SortOptions { key: SortKey::Hue, ..SortOptions::default() };
    for (zipped, input) in &inputs {
        let mut file = archive.by_name(&format!("sorted/{zipped}")).unwrap();
        let mut encoded = Vec::new();
        file.read_to_end(&mut encoded).unwrap();
        let format = image::guess_format(&encoded).unwrap();
        let own = image::ImageFormat::from_path(zipped).unwrap();
        assert_eq!(format, own, "{zipped}: not in its own format");
        let output: RgbaImage = image::load_from_memory(&encoded).unwrap().to_rgba8();
        assert!(lines_are_permutations(input, &output, options.axis), "{zipped}: pixels were lost");
        assert!(output == stable_sort(input, &options), "{zipped}: not the model's picture");
    }
    // Back to the first key for the checks after this one: K through the other six.
    page.keys(&["k", "k", "k", "k", "k", "k"]);
    page.expect_log("luma");
}
