//! What the tests and CI tell each other: on/off switches read strictly from the environment
//! (`SHADERSORT_SKIP_*`, `SHADERSORT_REQUIRE_*`), and the ledger, a file named by
//! `SHADERSORT_TEST_LEDGER` to which a test appends a line for each backend, tool and window it
//! really used, and one when all its checks passed ([`passed`]), so `.ci/run` can print what
//! ran and fail when something it needs did not (`.ci/summary`, `.ci/families`).
//!
//! Shared by every test binary through `mod common` or `#[path]` (tests/common/mod.rs,
//! tests/clips/mod.rs, tests/window.rs, tests/browser.rs, tests/shaders.rs, tests/interrupts.rs,
//! and the radix sort crate's tests/gpus/mod.rs); each binary uses part of it.
#![allow(dead_code, reason = "each test binary uses part of this module")]

use std::io::Write;

/// The variable naming the ledger file; unset, nothing is written.
pub const LEDGER: &str = "SHADERSORT_TEST_LEDGER";

/// Whether the switch `name` is on: unset is off, `1` is on, and any other value (`0`, `yes`,
/// empty) panics, so a switch that looks off never turns a test into a silent pass. `purpose`
/// says what `1` does ("skip the window tests").
pub fn switch(name: &str, purpose: &str) -> bool {
    match std::env::var_os(name) {
        None => false,
        Some(value) if value == "1" => true,
        Some(value) => {
            panic!("{name}={value:?} is neither 1 nor unset: set it to 1 to {purpose}, or unset it")
        }
    }
}

/// Appends `what: detail` to the ledger (when `SHADERSORT_TEST_LEDGER` names one): call it once
/// the thing named was really used, with what identifies it (an adapter, a version).
pub fn ran(what: &str, detail: &str) {
    let Some(path) = std::env::var_os(LEDGER) else { return };
    let detail = detail.split_whitespace().collect::<Vec<_>>().join(" ");
    // One write of a whole line to a file opened for appending: lines from tests running side by
    // side do not interleave.
    let line = format!("{what}: {detail}\n");
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .and_then(|mut file| file.write_all(line.as_bytes()))
        .unwrap_or_else(|e| panic!("{LEDGER}={}: {e}", path.to_string_lossy()));
}

/// Appends `passed: FAMILY TEST` to the ledger. Every test calls it as its last statement, so
/// the line is written only once every check before it passed: a test that skips returns
/// before it, and one that fails panics before it. The family is the package and the test
/// binary, with the test's module within the binary (`shadersort/cli::live`); the test's name
/// is its thread's, which libtest names after the test. `.ci/families` lists how many tests
/// of each family CI must see pass.
pub fn passed() {
    let thread = std::thread::current();
    let name = thread.name().filter(|&name| name != "main");
    let name =
        name.unwrap_or_else(|| panic!("ci::passed() runs on the test's own thread, which libtest names"));
    let (module, test) = match name.rsplit_once("::") {
        Some((module, test)) => (format!("::{module}"), test),
        None => (String::new(), name),
    };
    let family =
        format!("{}/{}{module}{}", env!("CARGO_PKG_NAME"), env!("CARGO_CRATE_NAME"), ffmpeg_variant());
    ran("passed", &format!("{family} {test}"));
}

/// `@ffmpeg-VERSION` when the binary under test is handed an ffmpeg of its own
/// (`SHADERSORT_FFMPEG`, as `.ci/clip-ffmpegs` sets it to run the clip tests again with other
/// versions), so those passes count as families of their own; empty otherwise.
fn ffmpeg_variant() -> String {
    let Some(program) = std::env::var_os("SHADERSORT_FFMPEG").filter(|p| !p.is_empty()) else {
        return String::new();
    };
    let program = program.to_string_lossy();
    let line = version_of(&program, "-version");
    let version = line.strip_prefix("ffmpeg version ").and_then(|v| v.split_whitespace().next());
    format!("@ffmpeg-{}", version.unwrap_or_else(|| panic!("{program} -version printed {line:?}")))
}

/// The first line `program --version` (or `-version`) prints, for the ledger.
pub fn version_of(program: &str, flag: &str) -> String {
    let out = std::process::Command::new(program).arg(flag).output();
    let out = out.unwrap_or_else(|e| panic!("{program} {flag}: {e}"));
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines().next().unwrap_or("no version").trim().to_string()
}
