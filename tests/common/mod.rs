//! Shared by the GPU tests: one device per backend under test, opened once per test binary.

use shadersort::gpu::Gpu;
use std::sync::OnceLock;

/// The backends under test: those in `WGPU_BACKEND` if set, else Vulkan and GL. Each one must
/// open, so a machine without lavapipe fails loudly instead of silently testing less.
pub fn gpus() -> &'static [Gpu] {
    static GPUS: OnceLock<Vec<Gpu>> = OnceLock::new();
    GPUS.get_or_init(|| {
        let wanted = wgpu::Backends::from_env().unwrap_or(wgpu::Backends::VULKAN | wgpu::Backends::GL);
        wanted
            .iter()
            .map(|backend| {
                Gpu::headless_on(backend).unwrap_or_else(|e| {
                    panic!(
                        "GPU tests need the {backend:?} backend: {e}. Run `.ci/run` once (it installs \
                         mesa-vulkan-drivers), or set WGPU_BACKEND to the backends this machine has."
                    )
                })
            })
            .collect()
    })
}

/// Runs `check` on every GPU under test, naming the adapter when it fails.
pub fn on_every_gpu(mut check: impl FnMut(&Gpu)) {
    for gpu in gpus() {
        eprintln!("on {}", gpu.describe());
        check(gpu);
        gpu.check().unwrap_or_else(|e| panic!("{}: {e}", gpu.describe()));
    }
}
