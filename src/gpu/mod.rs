//! GPU plumbing every algorithm shares: the context, picture textures, read-back, bind-group
//! layout entries, kernel building, shader assembly and timestamps.
//!
//! - [`context`]: [`Gpu`] (instance, adapter, device, queue), headless or for a window, chosen
//!   from the environment.
//! - [`texture`]: `Rgba8Uint` picture textures and their upload.
//! - [`readback`]: textures and buffers back to the CPU, row padding handled once.
//! - [`readbacks`]: read-backs a frame never waits for, picked up by a later frame.
//! - [`recycle`]: large buffers kept for the next run of the same size.
//! - [`bindings`]: the bind-group layout entries several kernel families declare alike.
//! - [`completions`]: when submitted work finished, seen without waiting.
//! - [`kernel`]: a compute kernel's bind group and pipeline layouts, and its compute pipelines.
//! - [`shaders`]: every WGSL program, composed from whole files in `shaders/`.
//! - [`timing`]: GPU time of a span of commands, from timestamp queries.
//! - [`pass_clock`]: GPU time of every compute pass while a benchmark asks for it.
//! - [`pipeline_cache`]: the pipeline cache kept on disk between runs (native, Vulkan).

pub mod bindings;
pub mod completions;
pub mod context;
pub mod kernel;
pub mod pass_clock;
#[cfg(not(target_arch = "wasm32"))]
pub mod pipeline_cache;
pub mod readback;
pub mod readbacks;
pub mod recycle;
pub mod shaders;
pub mod texture;
pub mod timing;

pub use context::{Gpu, GpuError};
