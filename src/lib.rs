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
//! The layers, top to bottom (docs/ARCHITECTURE.md; tests/layout.rs holds them): a module
//! imports from its own layer, without circles, or from those below.
//! 1. front ends, side by side, none importing another: [`app`] (the window and the page),
//!    [`headless`] (`--out` and `--record` for stills, clips and live sources),
//!    [`bench`](mod@bench), and [`cli`], which parses the command line into the
//!    [`settings::Settings`] the front ends take;
//! 2. [`media`]: clips and live sources in and out through ffmpeg, and the pipeline that sorts
//!    every frame at the speed of decoding;
//! 3. [`engine`] (one per device: every kernel family built once and shared, where every sort
//!    starts and the one driver that runs it), [`record`] (recordings), [`lens`] (one line of
//!    a run read back), [`controls`] (the keys, the player and the explanations the window and
//!    the page share), [`sound`] (the tones of each step), [`settings`] and [`named`];
//! 4. the sorts: [`algorithms`] (each algorithm's GPU passes; the device-wide radix sort is the
//!    crate `wgpu-radix-sort`), [`angle`] (lines at any angle or along paths) and
//!    [`intervals`] (the parts of each line that are sorted);
//! 5. the GPU and pictures: [`gpu`], [`picture`], [`keys`], [`paths`], [`interrupt`] (Ctrl-C),
//!    [`progress`] and [`cores`] (work shared over the CPU's cores).
//!
//! [`reference`](mod@reference), the CPU model and the tests' oracle, stands apart: only the tests
//! and the benchmarks' check of their own output import it; of the algorithms it takes only the
//! plain data that names a radix run, never the code it judges.
//!
//! For `wasm32-unknown-unknown` (the browser, on WebGPU: `web/`) the library builds without
//! what needs files, processes, signals or threads ([`bench`](mod@bench), [`cli`],
//! [`headless`], [`interrupt`], [`media`], the recorder's file path and writing outputs in
//! [`picture::output`]); the app, the engine, the algorithms, the angles, the intervals, the
//! lens, the controls, the recorder (into memory), the radix sort and the CPU model are the
//! same code on both.

// The modules that only native builds have (listed above) say so at their top with
// `#![cfg(not(target_arch = "wasm32"))]`; `media` says so here.
pub mod algorithms;
pub mod angle;
pub mod app;
pub mod bench;
pub mod cli;
pub mod controls;
pub mod cores;
pub mod engine;
pub mod gpu;
pub mod headless;
pub mod interrupt;
pub mod intervals;
pub mod keys;
pub mod lens;
#[cfg(not(target_arch = "wasm32"))]
pub mod media;
pub mod named;
pub mod paths;
pub mod picture;
pub mod progress;
pub mod record;
pub mod reference;
pub mod settings;
pub mod sound;
