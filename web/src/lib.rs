//! shadersort in the browser: the page's WebAssembly module. It opens the browser's WebGPU
//! device through the same [`shadersort::gpu::Gpu`] as the native program and runs the same
//! algorithms ([`shadersort::algorithms`]); only the waiting differs, since nothing may block in
//! a page: every read-back is awaited ([`shadersort::algorithms::run_until_async`]).
//!
//! `index.html` drives it; `window.shadersortTest` there is the hook the browser test
//! (`tests/browser.rs`) sorts through.

use clap::ValueEnum;
use shadersort::algorithms::odd_even::PassKind;
use shadersort::algorithms::radix::RadixSettings;
use shadersort::algorithms::{Algorithm, Pipelines, RunSettings, run_until_async};
use shadersort::gpu::Gpu;
use shadersort::gpu::readback::read_texture_async;
use shadersort::keys::SortKey;
use shadersort::keys::options::{Axis, Scope, SortOptions};
use shadersort::keys::radix_key::DIGIT_BITS;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// The device and every algorithm's pipelines, made once per page.
struct Context {
    gpu: Gpu,
    pipelines: Vec<(Algorithm, Pipelines)>,
}

thread_local! {
    /// The page's context once [`open_gpu`] has made it.
    static CONTEXT: RefCell<Option<Rc<Context>>> = const { RefCell::new(None) };
}

/// A picture handed to the page: RGBA8 rows, top to bottom.
#[wasm_bindgen(getter_with_clone)]
pub struct WebPicture {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width * height * 4` bytes.
    pub rgba: Vec<u8>,
}

impl From<image::RgbaImage> for WebPicture {
    fn from(picture: image::RgbaImage) -> Self {
        WebPicture { width: picture.width(), height: picture.height(), rgba: picture.into_raw() }
    }
}

/// Opens the browser's WebGPU device and builds every algorithm's pipelines; returns one line
/// naming the adapter and its limits. Fails with a message for the page when the browser has
/// no WebGPU.
#[wasm_bindgen]
pub async fn open_gpu() -> Result<String, JsError> {
    console_error_panic_hook::set_once();
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle());
    let gpu = Gpu::new(instance, None).await.map_err(|e| JsError::new(&e.to_string()))?;
    let pipelines = Algorithm::ALL.into_iter().map(|a| (a, Pipelines::new(&gpu, a))).collect();
    let limits = gpu.device.limits();
    let line = format!(
        "{} · {} invocations, {} KiB workgroup memory per workgroup",
        gpu.describe(),
        limits.max_compute_invocations_per_workgroup,
        limits.max_compute_workgroup_storage_size / 1024
    );
    CONTEXT.with(|c| *c.borrow_mut() = Some(Rc::new(Context { gpu, pipelines })));
    Ok(line)
}

/// The built-in photograph, as the native program opens it.
#[wasm_bindgen]
pub fn built_in_picture() -> WebPicture {
    shadersort::picture::input::Picture::built_in().pixels.into()
}

/// The seeded noise picture the tests use (`shadersort::picture::patterns::random_image`).
#[wasm_bindgen]
pub fn random_picture(width: u32, height: u32, seed: u32) -> WebPicture {
    shadersort::picture::patterns::random_image(width, height, u64::from(seed)).into()
}

/// How a sort is asked for by the page: `algorithm[:variant]` (`odd-even`, `odd-even:fragment`,
/// `bubble`, `radix`, `radix:4`, `radix:image`, ...), a key name as on the command line, the
/// order and the axis.
struct Job {
    algorithm: Algorithm,
    settings: RunSettings,
    options: SortOptions,
}

impl Job {
    fn parse(spec: &str, key: &str, descending: bool, columns: bool) -> Result<Job, String> {
        let (name, variant) = spec.split_once(':').unwrap_or((spec, ""));
        let algorithm = Algorithm::from_str(name, true).map_err(|_| format!("unknown algorithm '{name}'"))?;
        let mut settings = RunSettings::default();
        match (algorithm, variant) {
            (_, "") => {}
            (Algorithm::OddEven, kind) => {
                settings.pass_kind =
                    PassKind::from_str(kind, true).map_err(|_| format!("unknown pass kind '{kind}'"))?
            }
            (Algorithm::Radix, "image") => settings.radix.scope = Scope::Image,
            (Algorithm::Radix, bits) => {
                let digit_bits = bits
                    .parse()
                    .ok()
                    .filter(|b| DIGIT_BITS.contains(b))
                    .ok_or_else(|| format!("unknown radix variant '{bits}': use 1, 2, 4, 8 or image"))?;
                settings.radix = RadixSettings { digit_bits, ..settings.radix };
            }
            (Algorithm::Bubble, other) => return Err(format!("the bubble sort has no variant '{other}'")),
        }
        let key = SortKey::from_str(key, true).map_err(|_| format!("unknown key '{key}'"))?;
        let axis = if columns { Axis::Columns } else { Axis::Rows };
        Ok(Job { algorithm, settings, options: SortOptions { key, descending, axis } })
    }
}

/// Sorts `picture` on the GPU to the end with the sort `spec` names (see [`Job`]) and returns
/// the sorted picture, read back from the GPU. `progress` hears the steps done and the total
/// after each batch.
#[wasm_bindgen]
pub async fn sort_picture(
    picture: &WebPicture,
    spec: String,
    key: String,
    descending: bool,
    columns: bool,
    progress: Option<js_sys::Function>,
) -> Result<WebPicture, JsError> {
    let context = CONTEXT
        .with(|c| c.borrow().clone())
        .ok_or_else(|| JsError::new("the GPU is not open yet: call open_gpu first"))?;
    let job = Job::parse(&spec, &key, descending, columns).map_err(|e| JsError::new(&e))?;
    let (width, height) = (picture.width, picture.height);
    let pixels = image::RgbaImage::from_raw(width, height, picture.rgba.clone())
        .ok_or_else(|| JsError::new(&format!("{width}x{height} pixels need {} bytes", width * height * 4)))?;
    let gpu = &context.gpu;
    let pipelines = &context.pipelines.iter().find(|(a, _)| *a == job.algorithm).expect("every algorithm").1;
    let mut run = pipelines.start(gpu, &pixels, job.options, job.settings);
    let total = run.total_steps();
    run_until_async(gpu, run.as_mut(), total, |done| {
        if let Some(f) = &progress {
            let _ = f.call2(&JsValue::NULL, &done.into(), &total.into());
        }
        true
    })
    .await
    .map_err(|e| JsError::new(&e.to_string()))?;
    let sorted = read_texture_async(gpu, run.state()).await.map_err(|e| JsError::new(&e.to_string()))?;
    Ok(sorted.into())
}
