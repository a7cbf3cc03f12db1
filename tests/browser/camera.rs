//! The camera in the page: with Chromium's fake camera (`--use-fake-device-for-media-stream`,
//! the permission given by `--use-fake-ui-for-media-stream`), `?source=camera` shows the camera
//! live with every frame sorted: Space pauses on a frame and S downloads it, sorted along its
//! rows by luma, and a frame paused on a moment later differs.

use super::{Page, wait_for};
use serde_json::json;
use shadersort::keys::options::SortOptions;
use std::time::Duration;

pub fn source_camera_shows_the_camera_sorted_live(page: &Page, port: u16) {
    page.browser.call("POST", "url", json!({"url": format!("http://127.0.0.1:{port}/?source=camera")}));
    wait_for("the page to start", Duration::from_secs(120), || {
        !page.browser.script("return window.shadersortReady || null", json!([])).is_null()
    });
    // A new page: its log starts again.
    page.log_from.set(0);
    page.expect_log("showing the camera live, every frame sorted; Space pauses on a frame");
    // Two frames a moment apart, each paused on and saved (the first download moved away, so
    // that the second lands under the same name).
    let mut saved: Vec<image::RgbaImage> = Vec::new();
    for _ in 0..2 {
        std::thread::sleep(Duration::from_millis(1500));
        page.keys(&[" "]);
        page.expect_log("paused on the frame shown");
        page.keys(&["s"]);
        page.expect_log("saved camera-bitonic-luma-pass");
        let log = page.browser.log();
        let at = log.rfind("saved camera-").expect("logged above") + "saved ".len();
        let name = log[at..].split(".png").next().unwrap().to_string() + ".png";
        let frame = page.downloaded_picture(&name);
        std::fs::remove_file(page.downloads.path().join(&name)).unwrap();
        let rows = SortOptions::default();
        assert!(shadersort::reference::is_sorted(&frame, &rows), "{name} is not sorted along its rows");
        let first = frame.get_pixel(0, frame.height() / 2);
        assert!(frame.pixels().any(|p| p != first), "{name} is one colour: no camera frame");
        saved.push(frame);
        page.keys(&[" "]);
    }
    assert!(saved[0] != saved[1], "the camera's frames do not change on the page");
}
