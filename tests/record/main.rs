//! `--record`: every format's frames against the CPU model. [`gif`] and [`gif_intervals`] decode
//! GIFs through their palette; [`png`] decodes animated PNGs and folders of PNG frames, which must
//! be exact.

#[path = "../common/ci.rs"]
mod ci;
mod gif;
#[path = "../clips/gif.rs"]
mod gif_frames;
mod gif_intervals;
mod png;

use image::RgbaImage;
use std::path::Path;
use std::process::{Command, Output};

fn shadersort_on(args: &[&str], dir: &Path, backend: Option<&str>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_shadersort"));
    // No pipeline cache: tests never write into the user's.
    command.args(args).current_dir(dir).env_remove("RUST_LOG").env("SHADERSORT_CACHE_DIR", "");
    if let Some(backend) = backend {
        command.env("WGPU_BACKEND", backend);
    }
    command.output().unwrap()
}

fn shadersort(args: &[&str], dir: &Path) -> Output {
    shadersort_on(args, dir, None)
}

fn ok(args: &[&str], dir: &Path) -> String {
    ok_on(args, dir, None)
}

fn ok_on(args: &[&str], dir: &Path, backend: Option<&str>) -> String {
    let out = shadersort_on(args, dir, backend);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?} failed: {stderr}");
    String::from_utf8(out.stdout).unwrap()
}

/// The error line of a failed run (stderr may hold driver noise too).
fn fails(args: &[&str], dir: &Path, expected: &str) -> String {
    let out = shadersort(args, dir);
    assert_eq!(out.status.code(), Some(1), "{args:?} should fail");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    stderr
        .lines()
        .find(|l| l.contains(expected))
        .unwrap_or_else(|| panic!("no '{expected}' in: {stderr}"))
        .to_string()
}

fn save(img: &RgbaImage, dir: &Path, name: &str) -> String {
    img.save(dir.join(name)).unwrap();
    name.to_string()
}
