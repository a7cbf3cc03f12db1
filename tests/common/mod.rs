//! Shared by the GPU tests: one device per backend under test, opened once per test binary.

pub mod ci;
pub mod steps;

use shadersort::gpu::Gpu;
use std::sync::{Mutex, OnceLock};

/// The backends under test: those in `WGPU_BACKEND` if set, else Vulkan and GL. Each one must
/// open, so a machine without lavapipe fails loudly instead of silently testing less.
pub fn gpus() -> &'static [Gpu] {
    static GPUS: OnceLock<Vec<Gpu>> = OnceLock::new();
    GPUS.get_or_init(|| {
        let wanted = wgpu::Backends::from_env().unwrap_or(wgpu::Backends::VULKAN | wgpu::Backends::GL);
        wanted
            .iter()
            .map(|backend| {
                let gpu = Gpu::headless_on(backend).unwrap_or_else(|e| {
                    panic!(
                        "GPU tests need the {backend:?} backend: {e}. Run `.ci/run` once (it installs \
                         mesa-vulkan-drivers), or set WGPU_BACKEND to the backends this machine has."
                    )
                });
                ci::ran("gpu", &gpu.describe());
                gpu
            })
            .collect()
    })
}

/// Runs `check` on every GPU under test, naming the adapter when it fails.
///
/// One test at a time uses each device: wgpu's GL backend lets one thread hold its context and
/// fails any other that waits for it more than 6 s ("Could not lock adapter context"), which a
/// long shader compile or submission of a test beside it can take on a loaded 2-core machine.
pub fn on_every_gpu(mut check: impl FnMut(&Gpu)) {
    static TURNS: OnceLock<Vec<Mutex<()>>> = OnceLock::new();
    let turns = TURNS.get_or_init(|| gpus().iter().map(|_| Mutex::new(())).collect());
    for (gpu, turn) in gpus().iter().zip(turns) {
        // A test that failed on this device left the lock poisoned; the device itself is fine.
        let _turn = turn.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        eprintln!("on {}", gpu.describe());
        check(gpu);
        gpu.check().unwrap_or_else(|e| panic!("{}: {e}", gpu.describe()));
    }
}
