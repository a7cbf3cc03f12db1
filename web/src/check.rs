//! The page's correctness hooks: every algorithm run to the end on the browser's own WebGPU, on a
//! device of its own, so the browser test can hold each result against the CPU model at awkward
//! sizes (WebGPU's limits differ from native ones: 256 invocations, workgroup variables rounded
//! up to 16 bytes); and a recording in each format made as G makes it in the page. They draw
//! nothing and leave the app alone.

use shadersort::algorithms::odd_even::PassKind;
use shadersort::algorithms::radix::RadixSettings;
use shadersort::algorithms::request::StartRequest;
use shadersort::algorithms::{Algorithm, Pipelines, RunSettings};
use shadersort::engine::drive::run_to_async;
use shadersort::gpu::Gpu;
use shadersort::gpu::readback::read_texture_async;
use shadersort::keys::SortKey;
use shadersort::keys::options::{Axis, Scope, SortOptions};
use shadersort::keys::radix_key::DIGIT_BITS;
use shadersort::named::Named;
use shadersort::record::RecordFormat;
use shadersort::record::in_memory::record_in_memory;
use shadersort::settings::RecordSettings;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

thread_local! {
    /// The hooks' device.
    static GPU: std::cell::RefCell<Option<Rc<Gpu>>> = const { std::cell::RefCell::new(None) };
}

/// Sorts seeded noise of `width` x `height` (`patterns::random_image(width, height, seed)`) to the
/// end as `spec` says (`odd-even`, `odd-even:fragment`, `bubble`, `radix`, `radix:8`,
/// `radix:image`, `bitonic`, ...) by `key`, and returns its RGBA bytes in hex.
#[wasm_bindgen]
pub async fn sort_for_test(
    spec: String,
    key: String,
    descending: bool,
    columns: bool,
    width: u32,
    height: u32,
    seed: u32,
) -> Result<String, JsError> {
    let (algorithm, settings) = parse(&spec).map_err(|e| JsError::new(&e))?;
    let key = SortKey::from_name(&key).ok_or_else(|| JsError::new(&format!("unknown key '{key}'")))?;
    let options = SortOptions { key, descending, axis: if columns { Axis::Columns } else { Axis::Rows } };
    let gpu = hook_gpu().await?;
    let picture = shadersort::picture::patterns::random_image(width, height, u64::from(seed));
    let request = StartRequest::new(&picture, options).settings(settings);
    let mut run =
        Pipelines::new(&gpu, algorithm).start(&gpu, request).map_err(|e| JsError::new(&e.to_string()))?;
    let total = run.total_steps();
    run_to_async(&gpu, run.as_mut(), total, |_| true).await.map_err(|e| JsError::new(&e.to_string()))?;
    let sorted = read_texture_async(&gpu, run.state()).await.map_err(|e| JsError::new(&e.to_string()))?;
    Ok(hex(sorted.as_raw()))
}

/// Records odd-even transposition sorting the rows of seeded noise of `width` x `height` by
/// luma (made opaque when `opaque`), every pass a frame, in `format` (`gif`, `apng` or
/// `frames`) with the page's in-memory recorder, and returns the file's bytes in hex.
#[wasm_bindgen]
pub async fn record_for_test(
    format: String,
    width: u32,
    height: u32,
    seed: u32,
    opaque: bool,
) -> Result<String, JsError> {
    let format = match format.as_str() {
        "gif" => RecordFormat::Gif,
        "apng" => RecordFormat::Apng,
        "frames" => RecordFormat::Frames,
        other => return Err(JsError::new(&format!("unknown format '{other}': use gif, apng or frames"))),
    };
    let gpu = hook_gpu().await?;
    let mut picture = shadersort::picture::patterns::random_image(width, height, u64::from(seed));
    if opaque {
        picture.pixels_mut().for_each(|p| p[3] = 255);
    }
    let pipelines = Pipelines::new(&gpu, Algorithm::OddEven);
    let start = |first: &_| {
        let request = StartRequest::new(first, SortOptions::default())
            .settings(format.run_settings(RunSettings::default(), Algorithm::OddEven));
        pipelines.start(&gpu, request).expect("odd-even transposition starts on any picture")
    };
    let settings = RecordSettings { every: Some(1), ..RecordSettings::default() };
    let recorded = record_in_memory(&gpu, &picture, start, &settings, format, "hook-frames.zip", |_, _| true)
        .await
        .map_err(|e| JsError::new(&e.to_string()))?;
    Ok(hex(&recorded.bytes))
}

/// The hooks' device, opened at the first call.
async fn hook_gpu() -> Result<Rc<Gpu>, JsError> {
    if let Some(gpu) = GPU.with(|g| g.borrow().clone()) {
        return Ok(gpu);
    }
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle());
    let gpu = Rc::new(Gpu::new(instance, None).await.map_err(|e| JsError::new(&e.to_string()))?);
    GPU.with(|g| *g.borrow_mut() = Some(gpu.clone()));
    Ok(gpu)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `algorithm[:variant]`: a pass kind for odd-even, digit bits or `image` for radix.
fn parse(spec: &str) -> Result<(Algorithm, RunSettings), String> {
    let (name, variant) = spec.split_once(':').unwrap_or((spec, ""));
    let algorithm = Algorithm::from_name(name).ok_or_else(|| format!("unknown algorithm '{name}'"))?;
    let mut settings = RunSettings::default();
    match (algorithm, variant) {
        (_, "") => {}
        (Algorithm::OddEven, kind) => {
            settings.pass_kind =
                PassKind::from_name(kind).ok_or_else(|| format!("unknown pass kind '{kind}'"))?
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
        (other, variant) => return Err(format!("{} has no variant '{variant}'", other.title())),
    }
    Ok((algorithm, settings))
}
