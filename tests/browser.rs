//! The page in a real browser, driven as a person drives it: `web/build.sh dev` builds it, a
//! local server serves it with a test picture, and headless Chromium (Debian's, on its bundled
//! SwiftShader: WebGPU without a GPU) opens `/?picture=lens.png` through chromedriver. Every
//! algorithm sorts noise of awkward sizes on the page's GPU exactly as the CPU model does (the
//! page module's hook). The page runs the window's own app: clicking the picture opens the row lens, whose bars on screen follow
//! the CPU model as keys step the sort; S downloads the state (equal to the model's pass) and the
//! page as shown; G downloads a GIF whose frames are the model's passes, and the page's recorder
//! makes animated PNGs and zips of PNG frames of the model's passes too; 4 chooses the bitonic
//! network, whose step S saves as the model's; B bends the lines into rings and a Shift+click
//! centres them, each end the model's; E paints a mask that S saves exactly, the sort following
//! it; a pinch zooms; side by side shows every lane; and
//! a browser without WebGPU gets the message saying so.
//!
//! Needs `chromium`, `chromedriver` and what `web/build.sh` installs for itself (the wasm32
//! target, wasm-bindgen-cli). Without them the test says so and passes, unless
//! `SHADERSORT_REQUIRE_BROWSER=1` (as `.ci/run` sets) makes that a failure.

use image::RgbaImage;
use serde_json::json;
use shadersort::algorithms::RunSettings;
use shadersort::controls::lane_plan::{LaneSync, lane_kinds};
use shadersort::keys::SortKey;
use shadersort::keys::options::{Axis, SortOptions};
use shadersort::named::Named;
use shadersort::picture::patterns::random_image;
use shadersort::record::palette::composite;
use shadersort::reference::bitonic::BitonicModel;
use shadersort::reference::{odd_even_passes, stable_sort};
use std::cell::Cell;
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[path = "browser/camera.rs"]
mod camera;
#[path = "common/ci.rs"]
mod ci;
#[path = "browser/driver.rs"]
mod driver;
#[path = "common/lens_bars.rs"]
mod lens_bars;
#[path = "browser/many.rs"]
mod many;
#[path = "browser/painting.rs"]
mod painting;
#[path = "browser/paths.rs"]
mod paths;
#[path = "browser/recordings.rs"]
mod recordings;

use driver::{WebDriver, browser, build_page, composite_frames, serve};
use lens_bars::bars_follow_the_model;

/// The line the lens inspects: 16 greys in a shuffled order, far apart in luma.
const ROW: u32 = 3;

/// The test picture: row [`ROW`] holds the greys, the other rows seeded noise; 112 pixels, so a
/// GIF's palette holds every colour exactly.
fn picture() -> RgbaImage {
    let order = [9, 2, 14, 5, 0, 11, 7, 15, 3, 12, 1, 8, 13, 6, 10, 4];
    let noise = shadersort::picture::patterns::random_image(16, 7, 9);
    RgbaImage::from_fn(16, 7, |x, y| {
        let v = 30 + 14 * order[x as usize] as u8;
        if y == ROW { image::Rgba([v, v, v, 255]) } else { *noise.get_pixel(x, y) }
    })
}

fn wait_for(what: &str, limit: Duration, mut check: impl FnMut() -> bool) {
    let started = Instant::now();
    while !check() {
        assert!(started.elapsed() < limit, "gave up waiting for {what} after {limit:?}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The page open in the browser, with where its downloads land.
struct Page {
    browser: WebDriver,
    downloads: tempfile::TempDir,
    /// How much of the log came before the last keys or click.
    log_from: Cell<usize>,
}

impl Page {
    /// Waits until a line logged since the last keys or click contains `needle`.
    fn expect_log(&self, needle: &str) {
        let log = || self.browser.log();
        wait_for(&format!("'{needle}' in the page's log"), Duration::from_secs(60), || {
            log().get(self.log_from.get()..).is_some_and(|new| new.contains(needle))
        });
    }

    fn keys(&self, keys: &[&str]) {
        self.log_from.set(self.browser.log().len());
        self.browser.press(keys);
    }

    fn click(&self, at: (u32, u32)) {
        self.log_from.set(self.browser.log().len());
        self.browser.click(at);
    }

    /// The downloaded file `name`, once the browser has finished writing it.
    fn download(&self, name: &str) -> Vec<u8> {
        let path = self.downloads.path().join(name);
        wait_for(&format!("the download {name}"), Duration::from_secs(60), || path.is_file());
        std::fs::read(path).unwrap()
    }

    /// Screenshots until `check` passes (the page draws a frame or more after a key), failing
    /// after 30 s with what the last screenshot showed instead.
    fn screenshot_until(&self, check: impl Fn(&RgbaImage) -> Result<(), String>) -> RgbaImage {
        let started = Instant::now();
        loop {
            let shot = self.browser.screenshot();
            match check(&shot) {
                Ok(()) => return shot,
                Err(why) if started.elapsed() > Duration::from_secs(30) => panic!("after 30 s: {why}"),
                Err(_) => std::thread::sleep(Duration::from_millis(100)),
            }
        }
    }

    fn downloaded_picture(&self, name: &str) -> RgbaImage {
        image::load_from_memory(&self.download(name)).unwrap_or_else(|e| panic!("{name}: {e}")).to_rgba8()
    }
}

/// The page's files and the test picture, in a folder of their own.
fn site(picture: &RgbaImage) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(build_page()).unwrap() {
        let from: PathBuf = entry.unwrap().path();
        std::fs::copy(&from, dir.path().join(from.file_name().unwrap())).unwrap();
    }
    picture.save(dir.path().join("lens.png")).unwrap();
    dir
}

#[test]
fn the_page_runs_the_window_app_in_headless_chromium() {
    let required = ci::switch("SHADERSORT_REQUIRE_BROWSER", "fail when the browser is missing");
    let (chromium, driver) = match browser() {
        Ok(tools) => tools,
        Err(why) if !required => {
            eprintln!("skipped: the browser test {why}");
            return;
        }
        Err(why) => panic!("SHADERSORT_REQUIRE_BROWSER=1 but the browser test {why}"),
    };
    let picture = picture();
    let site = site(&picture);
    let port = serve(site.path().to_path_buf());
    let profile = tempfile::tempdir().unwrap();
    // The fake camera plays a clip the test knows frame by frame.
    let clip = camera::Clip::new(profile.path());
    let page = Page {
        browser: WebDriver::start(&chromium, &driver, profile.path(), &[clip.flag()]),
        downloads: tempfile::tempdir().unwrap(),
        log_from: Cell::new(0),
    };
    let folder = page.downloads.path().display().to_string();
    page.browser
        .devtools("Browser.setDownloadBehavior", json!({"behavior": "allow", "downloadPath": folder}));
    page.browser.call("POST", "url", json!({"url": format!("http://127.0.0.1:{port}/?picture=lens.png")}));
    wait_for("the page to start", Duration::from_secs(120), || {
        !page.browser.script("return window.shadersortReady || null", json!([])).is_null()
    });
    let ready = page.browser.script("return window.shadersortReady", json!([]));
    assert_eq!(ready, "ready", "the page did not start; its log:\n{}", page.browser.log());
    page.expect_log("pass 0/16");
    let log = page.browser.log();
    let adapter =
        log.lines().find_map(|l| l.split_once("window on ")).map_or("no adapter logged", |(_, a)| a);
    // The ledger names the Chromium that ran the page, and the page's GPU.
    let version = ci::version_of(chromium.to_str().unwrap(), "--version");
    ci::ran("chromium", &format!("{version}, the page on {adapter}"));

    many::shift_g_sorts_the_pictures_picked_into_a_zip(&page);
    every_algorithm_sorts_like_the_model(&page);
    the_lens_follows_the_steps_and_s_downloads_the_model(&page, &picture);
    g_downloads_every_pass(&page, &picture);
    recordings::every_exact_format_records_the_model(&page.browser);
    four_chooses_the_bitonic_network(&page, &picture);
    shift_i_cycles_the_inputs_that_teach(&page);
    shift_m_hears_the_steps_through_web_audio(&page);
    paths::b_bends_the_lines_and_a_shift_click_centres_them(&page, &picture);
    painting::e_paints_the_mask_and_s_saves_it(&page, &picture);
    side_by_side_shows_every_lane(&page, &picture);
    end_goes_at_the_gpus_speed(&page, port);
    camera::source_camera_shows_the_camera_sorted_live(&page, port, &clip);
    without_webgpu_the_page_says_so(&page, port);
    crate::ci::passed();
}

/// Every algorithm sorts seeded noise of awkward sizes to the end on the page's GPU exactly as
/// the CPU model does (the page module's hook, on a device of its own).
fn every_algorithm_sorts_like_the_model(page: &Page) {
    let sort = "const done = arguments[arguments.length - 1];
        import('./shadersort_web.js').then((m) => m.sort_for_test(...Array.from(arguments).slice(0, 7)))
            .then(done, (e) => done('error: ' + (e.message || e)));";
    // One pixel, one row, one column, odd widths around 64, more than one 256-byte row of
    // texels, lines longer than a 256-invocation workgroup, a whole picture of several radix tiles.
    let sizes = [(1, 1), (1, 9), (9, 1), (63, 3), (65, 2), (67, 5), (257, 3), (129, 40)];
    let variants = ["odd-even", "odd-even:fragment", "bubble", "radix", "radix:8", "radix:image", "bitonic"];
    let orders = [("luma", false, false), ("hue", true, false), ("luma", false, true)];
    for (i, &(w, h)) in sizes.iter().enumerate() {
        for (j, spec) in variants.iter().enumerate() {
            let (key, descending, columns) = orders[(i + j) % orders.len()];
            let seed = (i * 10 + j) as u32;
            let answer = page.browser.async_script(sort, json!([spec, key, descending, columns, w, h, seed]));
            let hex = answer.as_str().unwrap_or_else(|| panic!("{spec} {w}x{h}: {answer}"));
            assert!(!hex.starts_with("error"), "{spec} {w}x{h}: {hex}");
            let bytes =
                (0..hex.len()).step_by(2).map(|k| u8::from_str_radix(&hex[k..k + 2], 16).unwrap()).collect();
            let got = RgbaImage::from_raw(w, h, bytes).expect("the page returned w*h*4 bytes");
            let input = random_image(w, h, u64::from(seed));
            let key = SortKey::from_name(key).unwrap();
            let options =
                SortOptions { key, descending, axis: if columns { Axis::Columns } else { Axis::Rows } };
            let model = if spec.ends_with(":image") {
                whole_picture_sorted(&input, &options)
            } else {
                stable_sort(&input, &options)
            };
            assert!(
                got == model,
                "{spec} {w}x{h} ({key:?}, descending {descending}, columns {columns}) differs from the CPU model"
            );
        }
    }
}

/// The whole picture as one sequence (row after row, or column after column), stably sorted:
/// what the whole-picture radix sort ends in.
fn whole_picture_sorted(input: &RgbaImage, options: &SortOptions) -> RgbaImage {
    let (w, h) = input.dimensions();
    let order: Vec<(u32, u32)> = match options.axis {
        Axis::Rows => (0..h).flat_map(|y| (0..w).map(move |x| (x, y))).collect(),
        Axis::Columns => (0..w).flat_map(|x| (0..h).map(move |y| (x, y))).collect(),
    };
    let mut pixels: Vec<[u8; 4]> = order.iter().map(|&(x, y)| input.get_pixel(x, y).0).collect();
    pixels.sort_by_key(|&p| options.order_key(p));
    let mut out = RgbaImage::new(w, h);
    for (&(x, y), p) in order.iter().zip(pixels) {
        out.put_pixel(x, y, image::Rgba(p));
    }
    out
}

/// Clicking the picture's middle opens the lens on its middle line; after each step the bars on
/// screen are the model's line; S downloads the state and, with the lens open, the page as shown;
/// J opens and closes the shader panel.
fn the_lens_follows_the_steps_and_s_downloads_the_model(page: &Page, picture: &RgbaImage) {
    let shot = page.browser.screenshot();
    let panel = shadersort::app::ui::PANEL_WIDTH as u32;
    page.click(((panel + shot.width()) / 2, shot.height() / 2));
    page.expect_log(&format!("lens on row {ROW} of 7 (16 pixels)"));
    page.keys(&["Right", "Right", "Right"]);
    page.expect_log("pass 3/16");
    page.screenshot_until(|shot| bars_follow_the_model(shot, picture, ROW, 3));
    page.keys(&["Left"]);
    page.expect_log("pass 2/16");
    page.screenshot_until(|shot| bars_follow_the_model(shot, picture, ROW, 2));

    page.keys(&["s"]);
    page.expect_log("the window as shown: lens-odd-even-luma-pass2-window.png");
    let options = SortOptions::default();
    let saved = page.downloaded_picture("lens-odd-even-luma-pass2.png");
    assert!(saved == odd_even_passes(picture, &options, 2), "S's download is not the model's pass 2");
    let view = page.downloaded_picture("lens-odd-even-luma-pass2-window.png");
    bars_follow_the_model(&view, picture, ROW, 2).unwrap_or_else(|why| panic!("the page as shown: {why}"));

    // J opens the shader panel over the pictures (its title bar right of the side panel, at
    // the top), and closes it.
    let title_bar = |shot: &RgbaImage| -> Vec<[u8; 4]> {
        let (x, width) = (panel + 24, 160.min(shot.width().saturating_sub(panel + 24)));
        (20..36).flat_map(|y| (x..x + width).map(move |x| shot.get_pixel(x, y).0)).collect()
    };
    let before = title_bar(&page.browser.screenshot());
    page.keys(&["j"]);
    page.expect_log("shader panel open");
    page.screenshot_until(|shot| match title_bar(shot) == before {
        true => Err("no shader panel over the pictures after J".into()),
        false => Ok(()),
    });
    page.keys(&["j"]);
    page.expect_log("shader panel closed");
}

/// G records the run from the input and downloads a GIF whose frames are the model's passes.
fn g_downloads_every_pass(page: &Page, picture: &RgbaImage) {
    page.keys(&["g"]);
    page.expect_log("downloaded lens-odd-even-luma.gif");
    let frames = composite_frames(&page.download("lens-odd-even-luma.gif"));
    let options = SortOptions::default();
    // The GIF shows each pixel over the recorder's black background, opaque.
    let shown = |state: &RgbaImage| {
        RgbaImage::from_fn(state.width(), state.height(), |x, y| {
            let [r, g, b] = composite(state.get_pixel(x, y).0, [0, 0, 0]);
            image::Rgba([r, g, b, 255])
        })
    };
    assert!(frames.len() >= 2, "{} frames", frames.len());
    for (k, (frame, _)) in frames.iter().enumerate() {
        let model = shown(&odd_even_passes(picture, &options, k as u32));
        assert!(*frame == model, "frame {k} of the page's GIF differs from the CPU model at pass {k}");
    }
    let sorted = shown(&stable_sort(picture, &options));
    assert!(frames.last().unwrap().0 == sorted, "the GIF's last frame is not the sorted picture");
}

/// 4 chooses the bitonic network; its first step, saved by S, is the model's.
fn four_chooses_the_bitonic_network(page: &Page, picture: &RgbaImage) {
    page.keys(&["4"]);
    page.expect_log("Bitonic network, rows by luma");
    page.keys(&["Right"]);
    page.expect_log("step 1/");
    page.keys(&["s"]);
    page.expect_log("lens-bitonic-luma-pass1.png");
    let mut model = BitonicModel::new(picture, SortOptions::default(), None);
    model.step();
    let saved = page.downloaded_picture("lens-bitonic-luma-pass1.png");
    assert!(saved == *model.state(), "S's download after a bitonic step is not the model's");
}

/// Shift+I shows each built-in input in turn, then the picture again.
fn shift_i_cycles_the_inputs_that_teach(page: &Page) {
    for title in ["random noise", "sorted", "reversed", "few distinct values", "nearly sorted", "sawtooth"] {
        page.keys(&["Shift+i"]);
        page.expect_log(&format!("input: {title} ("));
    }
    page.keys(&["Shift+i"]);
    page.expect_log("back to ");
}

/// Shift+M turns the sound on through Web Audio (the key press is the gesture the browser asks
/// for), the steps after it are heard on a line, and Shift+M turns it off. What the samples are
/// is the native window's test (tests/window/sound.rs): the page makes them with the same code.
fn shift_m_hears_the_steps_through_web_audio(page: &Page) {
    page.keys(&["Shift+m"]);
    page.expect_log("Hz, Web Audio)");
    // A step at a time, each shown before the next; one of them is heard (the first may be
    // taken as the line heard from, where the lens read it before the sound came on).
    let since = page.browser.log().len();
    for k in 1..=4 {
        page.keys(&["Right"]);
        page.expect_log(&format!("step {k}/"));
    }
    let heard = || page.browser.log().get(since..).is_some_and(|new| new.contains("heard "));
    let started = Instant::now();
    while !heard() && started.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(heard(), "no step was heard through Web Audio; the page's log:\n{}", page.browser.log());
    page.keys(&["Shift+m"]);
    page.expect_log("sound off");
}

/// Side by side, every lane shows the picture: as many copies of its lightest grey (opaque, on
/// the line the lens marks, so the lens is closed first) as there are lanes; V keeps them
/// together by time, and the keys step them so.
fn side_by_side_shows_every_lane(page: &Page, picture: &RgbaImage) {
    page.keys(&["l"]);
    page.expect_log("lens closed");
    a_pinch_zooms_the_picture(page, picture);
    page.keys(&["c"]);
    page.expect_log("side by side, sync by step");
    let lanes = lane_kinds(
        shadersort::algorithms::Algorithm::Bitonic,
        RunSettings::default(),
        true,
        LaneSync::ByStep,
    );
    let lightest = (0..16).map(|x| picture.get_pixel(x, ROW).0).max_by_key(|p| p[0]).unwrap();
    page.screenshot_until(|shot| match blocks_of(shot, lightest, shadersort::app::ui::PANEL_WIDTH as u32) {
        copies if copies == lanes.len() => Ok(()),
        copies => Err(format!("side by side shows {copies} pictures for {} lanes", lanes.len())),
    });
    // Kept together by time, the lanes step as the first one does, measured without waiting.
    page.keys(&["v"]);
    page.expect_log("side by side, sync by time");
    page.keys(&["Right", "Right"]);
    page.expect_log("step 2/");
}

/// On the built-in picture (600x400), 4 chooses the bitonic network and End goes to its end with
/// nothing shown between, so every step goes in one submission: the step reports go from the
/// first straight to the last (one step a frame took about 16 s on SwiftShader; at the GPU's
/// pace about 1 s, printed, not held: a loaded machine is slower).
fn end_goes_at_the_gpus_speed(page: &Page, port: u16) {
    page.browser.call("POST", "url", json!({"url": format!("http://127.0.0.1:{port}/")}));
    wait_for("the page to start", Duration::from_secs(120), || {
        !page.browser.script("return window.shadersortReady || null", json!([])).is_null()
    });
    page.log_from.set(0);
    page.expect_log("pass 0/600");
    page.keys(&["4"]);
    page.expect_log("step 0/55");
    let started = Instant::now();
    page.keys(&["End"]);
    page.expect_log("step 55/55");
    eprintln!("the page: 4 then End on the built-in picture reached step 55/55 in {:?}", started.elapsed());
    let log = page.browser.log();
    let reports: Vec<&str> =
        log[page.log_from.get()..].lines().filter_map(|l| l.split_once("] step ").map(|(_, r)| r)).collect();
    assert_eq!(reports, ["55/55"], "End on the bitonic network reported these steps: {reports:?}");
}

/// Two fingers closing on the picture zoom it out: its lightest grey, a block of screen pixels
/// per picture pixel, narrows; F fits it again. One finger drags it along; F puts it back.
fn a_pinch_zooms_the_picture(page: &Page, picture: &RgbaImage) {
    let lightest = (0..16).map(|x| picture.get_pixel(x, ROW).0).max_by_key(|p| p[0]).unwrap();
    let panel = shadersort::app::ui::PANEL_WIDTH as u32;
    // The picture fitted, as the lens closing left it.
    let shot = page.screenshot_until(|shot| {
        if lens_bars::lens_bars(shot, 16).is_some() {
            Err("the lens is still on screen".into())
        } else if widest_run(shot, lightest, panel) == 0 {
            Err("the picture's lightest grey is not on screen".into())
        } else {
            Ok(())
        }
    });
    let before = widest_run(&shot, lightest, panel);
    let centre = ((panel + shot.width()) / 2, shot.height() / 2);
    page.browser.pinch(centre, (centre.0 + 300, centre.1), (centre.0 + 30, centre.1));
    page.screenshot_until(|shot| match widest_run(shot, lightest, panel) {
        after if after + 4 <= before => Ok(()),
        after => Err(format!("a pinch left the picture's pixels {before} px wide, then {after} px")),
    });
    page.keys(&["f"]);
    let fitted = page.screenshot_until(|shot| match widest_run(shot, lightest, panel) {
        again if again == before => Ok(()),
        again => Err(format!("F fits the picture's pixels {again} px wide, not {before} as before")),
    });
    // One finger drags the picture along, as far as it went.
    let start = corner_of(&fitted, lightest, panel);
    page.browser.drag(centre, (centre.0 - 90, centre.1 + 40));
    page.screenshot_until(|shot| match corner_of(shot, lightest, panel) {
        moved if (moved.0 - start.0, moved.1 - start.1) == (-90, 40) => Ok(()),
        moved => {
            Err(format!("a one-finger drag moved the picture from {start:?} to {moved:?}, not by (-90, 40)"))
        }
    });
    page.keys(&["f"]);
    page.screenshot_until(|shot| match corner_of(shot, lightest, panel) {
        back if back == start => Ok(()),
        back => Err(format!("F puts the picture at {back:?}, not back at {start:?}")),
    });
}

/// The top left corner of where `colour` shows (within 3 per channel) right of `left`.
fn corner_of(shot: &RgbaImage, colour: [u8; 4], left: u32) -> (i64, i64) {
    let near = |p: &image::Rgba<u8>| (0..3).all(|c| p[c].abs_diff(colour[c]) <= 3);
    let at = shot.enumerate_pixels().filter(|&(x, _, p)| x >= left && near(p));
    at.fold((i64::MAX, i64::MAX), |(cx, cy), (x, y, _)| (cx.min(i64::from(x)), cy.min(i64::from(y))))
}

/// The longest run of pixels of `colour` (within 3 per channel) along any row right of `left`.
fn widest_run(shot: &RgbaImage, colour: [u8; 4], left: u32) -> u32 {
    let near = |p: &image::Rgba<u8>| (0..3).all(|c| p[c].abs_diff(colour[c]) <= 3);
    (0..shot.height())
        .map(|y| {
            let (mut best, mut run) = (0, 0);
            for x in left..shot.width() {
                run = if near(shot.get_pixel(x, y)) { run + 1 } else { 0 };
                best = best.max(run);
            }
            best
        })
        .max()
        .unwrap_or(0)
}

/// Areas of at least 4 pixels of `colour` (within 3 per channel: the browser's surface may
/// round) right of the panel; each lane draws the picture's pixels as blocks.
fn blocks_of(shot: &RgbaImage, colour: [u8; 4], left: u32) -> usize {
    let (w, h) = shot.dimensions();
    let mut seen = vec![false; (w * h) as usize];
    let mut blocks = 0;
    for start in (0..w * h).filter(|&i| i % w >= left) {
        let at = |i: u32| {
            let p = shot.get_pixel(i % w, i / w).0;
            (0..3).all(|c| p[c].abs_diff(colour[c]) <= 3)
        };
        if seen[start as usize] || !at(start) {
            continue;
        }
        let (mut stack, mut size) = (vec![start], 0);
        seen[start as usize] = true;
        while let Some(i) = stack.pop() {
            size += 1;
            let (x, y) = (i % w, i / w);
            let near = [
                (x > left).then(|| i - 1),
                (x + 1 < w).then(|| i + 1),
                (y > 0).then(|| i - w),
                (y + 1 < h).then(|| i + w),
            ];
            for j in near.into_iter().flatten() {
                if !seen[j as usize] && at(j) {
                    seen[j as usize] = true;
                    stack.push(j);
                }
            }
        }
        blocks += usize::from(size >= 4);
    }
    blocks
}

/// A browser without WebGPU (the page loaded with `navigator.gpu` taken away) gets the message.
fn without_webgpu_the_page_says_so(page: &Page, port: u16) {
    page.browser.devtools("Page.enable", json!({}));
    page.browser.devtools(
        "Page.addScriptToEvaluateOnNewDocument",
        json!({"source": "delete Navigator.prototype.gpu;"}),
    );
    page.browser.call("POST", "url", json!({"url": format!("http://127.0.0.1:{port}/")}));
    wait_for("the page to give up on WebGPU", Duration::from_secs(60), || {
        page.browser.script("return window.shadersortReady || null", json!([])) == "no-webgpu"
    });
    let text = page.browser.script("return document.body.innerText", json!([]));
    let text = text.as_str().unwrap_or_default();
    assert!(text.contains("This browser offers no WebGPU"), "the page says: {text}");
}
