//! shadersort: sorts the pixels of a picture on the GPU, pass by pass, and shows how.
//!
//! Every front end (command line, window, recorder, benchmarks, tests) drives the same core:
//! a [`gpu::Gpu`], a [`image_input::Picture`], [`options::SortOptions`] and an algorithm's
//! [`algorithms::SortRun`], checked against the CPU model in [`reference`]; optionally within
//! the runs of an [`intervals::RunMap`], which sorts only parts of each line, and along lines
//! at any angle ([`angle::Lines`]: line space gathered, sorted as rows, scattered back).

pub mod algorithms;
pub mod angle;
pub mod app;
pub mod bench;
pub mod cli;
pub mod gpu;
pub mod headless;
pub mod interrupt;
pub mod intervals;
pub mod keys;
pub mod picture;
pub mod record;
pub mod reference;
pub mod settings;
pub mod sort;
