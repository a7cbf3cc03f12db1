//! shadersort: sorts the pixels of a picture on the GPU, pass by pass, and shows how.
//!
//! Every front end (the window in [`app`], the headless outputs in [`headless`], the benchmarks in
//! [`bench`](mod@bench), the tests) drives the same core: a [`gpu::Gpu`], a
//! [`picture::input::Picture`], [`keys::options::SortOptions`] and an algorithm's
//! [`algorithms::SortRun`], checked against the CPU model in [`reference`](mod@reference);
//! optionally within the intervals of an [`intervals::IntervalMap`], which sorts only parts of each
//! line, and along lines at any angle ([`angle::Lines`]: line space gathered, sorted as rows,
//! scattered back). The device-wide radix sort is the crate `wgpu-radix-sort` (`crates/`), usable on
//! its own.
//!
//! The layers, top to bottom; a module imports only from its own layer or those below:
//! 1. front ends: [`app`] (the window), [`headless`] (with [`progress`]), [`bench`](mod@bench), and [`cli`],
//!    which parses the command line into the [`settings::Settings`] the front ends take;
//! 2. [`record`] (GIF export), [`lens`] (one line of a run's GPU state, read back for the
//!    window's row lens) and [`controls`] (the keys, the player, the lanes and the explanations
//!    the window and the page share);
//! 3. [`engine`]: one per device, every kernel family built once and shared, and where every
//!    sort starts; [`angle`] (sorting along lines at any angle or along paths, which it starts);
//! 4. [`algorithms`]: each algorithm's GPU passes, and the `wgpu-radix-sort` crate (the
//!    device-wide radix sort);
//! 5. [`intervals`]: the intervals of each line that are sorted;
//! 6. [`keys`] (sort keys and options) and [`picture`] (files in and out);
//! 7. [`gpu`]: context, textures, read-back, shader assembly, timestamps.
//!
//! [`video`] (clips through ffmpeg, every frame sorted) is a front end beside [`headless`].
//! [`interrupt`] (Ctrl-C) stands beside them all.
//! [`reference`](mod@reference), the CPU model and the tests' oracle, stands apart: only the tests
//! and the benchmarks' check of their own output import it; of the algorithms it takes only the
//! plain data that names a radix run, never the code it judges.
//!
//! For `wasm32-unknown-unknown` (the browser, on WebGPU: `web/`) the library builds without the
//! native front ends and what needs files, signals or threads ([`app`], [`bench`](mod@bench),
//! [`cli`], [`settings`], [`headless`], [`interrupt`], the recorder's file path and writing outputs
//! in [`picture::output`]): the algorithms, the angles, the intervals, the lens, the controls, the
//! GIF recorder (into memory), the radix sort and the CPU model are the same code on both.

// The modules that only native builds have (listed above) say so at their top with
// `#![cfg(not(target_arch = "wasm32"))]`; `video` says so here.
pub mod algorithms;
pub mod angle;
pub mod app;
pub mod bench;
pub mod cli;
pub mod controls;
pub mod engine;
pub mod gpu;
pub mod headless;
pub mod interrupt;
pub mod intervals;
pub mod keys;
pub mod lens;
pub mod named;
pub mod paths;
pub mod picture;
pub mod progress;
pub mod record;
pub mod reference;
pub mod settings;
#[cfg(not(target_arch = "wasm32"))]
pub mod video;
