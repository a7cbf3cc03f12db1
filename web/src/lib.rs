//! shadersort in the browser: the page's WebAssembly module. It runs the window's own app
//! (`shadersort::app`: the panel, lanes, lens, overlays, masks, keys, S and G) in the page's
//! canvas through eframe's web runner, on the browser's WebGPU.
//!
//! `index.html` calls [`start`] with its canvas. `?picture=URL` in the page's address opens that
//! picture instead of the built-in one (for links; the URL must allow the page to fetch it);
//! `?source=camera` shows the camera live, sorted (for links and kiosks).
//! The app's log goes to the browser's console and
//! to `window.shadersortLog` (an array of lines), which the browser test reads as the window test
//! reads the native app's log. [`check::sort_for_test`] is the browser test's hook: a sort to the
//! end on the page's GPU, held against the CPU model.

// The page's module only: natively (where the workspace checks it) it is empty.
#![cfg(target_arch = "wasm32")]

mod check;

use shadersort::app::{WindowOptions, WindowSource, run_in_page};
use shadersort::picture::input::Picture;
use shadersort::settings::Settings;
use wasm_bindgen::prelude::*;

/// Starts the app in `canvas` on the picture the address names, or the built-in photograph; the
/// error is the line to show when it cannot start (a picture that cannot be fetched or read, no
/// WebGPU adapter, a device refused).
#[wasm_bindgen]
pub async fn start(canvas: web_sys::HtmlCanvasElement) -> Result<(), JsError> {
    console_error_panic_hook::set_once();
    // A second start (the page reloaded its module) keeps the first logger.
    if log::set_logger(&PAGE_LOG).is_ok() {
        log::set_max_level(log::LevelFilter::Info);
    }
    let picture = match asked("picture") {
        Some(url) => fetch_picture(&url)
            .await
            .map_err(|e| JsError::new(&format!("cannot open ?picture={url}: {e}")))?,
        None => Picture::built_in(),
    };
    let mut settings = Settings::default();
    // `?source=camera`: the camera, sorted live, as soon as the browser gives it.
    if asked("source").as_deref() == Some("camera") {
        settings.video.live = Some(shadersort::settings::LiveInput::Camera(None));
        settings.algorithm = shadersort::algorithms::Algorithm::default_for(true);
    }
    let options = WindowOptions { source: WindowSource::Picture(picture), settings, mask: None };
    run_in_page(canvas, options).await.map_err(|e| JsError::new(&e))
}

/// The parameter `name` of the page's address, if given.
fn asked(name: &str) -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    web_sys::UrlSearchParams::new_with_str(&search).ok()?.get(name).filter(|value| !value.is_empty())
}

/// Fetches and decodes the picture at `url`.
async fn fetch_picture(url: &str) -> Result<Picture, String> {
    let js = |e: JsValue| e.as_string().unwrap_or_else(|| format!("{e:?}"));
    let window = web_sys::window().ok_or("no window")?;
    let response: web_sys::Response =
        wasm_bindgen_futures::JsFuture::from(window.fetch_with_str(url)).await.map_err(js)?.unchecked_into();
    if !response.ok() {
        return Err(format!("the server answered {} {}", response.status(), response.status_text()));
    }
    let buffer =
        wasm_bindgen_futures::JsFuture::from(response.array_buffer().map_err(js)?).await.map_err(js)?;
    let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
    let name = url.rsplit('/').next().unwrap_or(url).split(['?', '#']).next().unwrap_or("picture");
    Picture::decode_file(&bytes, std::path::Path::new(name)).map_err(|e| e.to_string())
}

/// The page's log: the console, and `window.shadersortLog`.
struct PageLog;

static PAGE_LOG: PageLog = PageLog;

impl log::Log for PageLog {
    fn enabled(&self, metadata: &log::Metadata<'_>) -> bool {
        // Our own lines, and the warnings of the libraries beneath.
        metadata.target().starts_with("shadersort") || metadata.level() <= log::Level::Warn
    }

    fn log(&self, record: &log::Record<'_>) {
        if !self.enabled(record.metadata()) {
            return;
        }
        let line = format!("{} {}] {}", record.level(), record.target(), record.args());
        web_sys::console::log_1(&line.clone().into());
        let global = js_sys::global();
        let key = JsValue::from_str("shadersortLog");
        let lines = match js_sys::Reflect::get(&global, &key) {
            Ok(lines) if lines.is_instance_of::<js_sys::Array>() => lines.unchecked_into::<js_sys::Array>(),
            _ => {
                let lines = js_sys::Array::new();
                let _ = js_sys::Reflect::set(&global, &key, &lines);
                lines
            }
        };
        lines.push(&line.into());
    }

    fn flush(&self) {}
}
