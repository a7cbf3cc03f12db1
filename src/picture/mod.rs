//! Pictures in and out: decoding files (and the built-in photograph), seeded test pictures,
//! and output files written atomically.
//!
//! - [`input`]: any supported file to RGBA8, the built-in default, size limits.
//! - [`patterns`]: reproducible noise for tests and benchmarks.
//! - [`teaching`]: the built-in inputs that show each algorithm's best and worst cases.
//! - [`output`]: PNG pictures and GIF/APNG recordings written to a temporary file and renamed.
//! - [`output_dir`]: folders of PNG frames written to a temporary folder and renamed.
//! - [`still_format`]: the formats a batch writes pictures in (PNG, JPEG, WebP, BMP, TIFF).
//! - [`png_encode`]: PNG's effort and encoders, natively and in the page.
//! - [`png_fast`]: PNG with fast compression, its strips of rows compressed on every core.
//! - [`yuv`]: 4:2:0 frames (clips' pictures) to RGBA and back, as the CPU defines them.

pub mod input;
pub mod latency;
pub mod live;
#[cfg(not(target_arch = "wasm32"))]
pub mod output;
#[cfg(not(target_arch = "wasm32"))]
pub mod output_dir;
pub mod patterns;
pub mod png_encode;
pub mod png_fast;
pub mod still_format;
pub mod teaching;
pub mod yuv;
