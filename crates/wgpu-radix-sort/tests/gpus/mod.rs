//! The GPUs the sort is tested on: one device per backend under test (the software GPUs of the
//! test machine: lavapipe through Vulkan, llvmpipe through GL), opened once per test binary,
//! reading buffers back, and the checks the tests share (`checks.rs`).

use std::sync::{Arc, Mutex, OnceLock};

/// The switches and the ledger CI reads, shared with shadersort's tests (this crate's tests run
/// in its workspace).
#[path = "../../../../tests/common/ci.rs"]
pub mod ci;

pub mod checks;

/// A device opened for the tests, remembering the first error wgpu raised on it.
pub struct TestGpu {
    pub adapter: wgpu::Adapter,
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    first_error: Arc<Mutex<Option<String>>>,
}

impl TestGpu {
    /// The best adapter of `backend` (a real GPU before a software one), opened with its own
    /// limits (`workgroup_bytes` lowers the workgroup memory) and subgroups where it has them.
    fn open(backend: wgpu::Backends, workgroup_bytes: Option<u32>) -> Result<TestGpu, String> {
        let mut descriptor = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
        descriptor.backends = backend;
        let instance = wgpu::Instance::new(descriptor);
        let adapters = pollster::block_on(instance.enumerate_adapters(backend));
        let rank = |a: &wgpu::Adapter| a.get_info().device_type == wgpu::DeviceType::Cpu;
        let adapter = adapters.into_iter().min_by_key(rank).ok_or("no adapter")?;
        let mut limits = adapter.limits();
        if let Some(bytes) = workgroup_bytes {
            limits.max_compute_workgroup_storage_size = bytes;
        }
        let wanted = wgpu::Features::SUBGROUP | wgpu::Features::TIMESTAMP_QUERY;
        let descriptor = wgpu::DeviceDescriptor {
            label: Some("wgpu-radix-sort tests"),
            required_features: adapter.features() & wanted,
            required_limits: limits,
            ..Default::default()
        };
        let (device, queue) =
            pollster::block_on(adapter.request_device(&descriptor)).map_err(|e| e.to_string())?;
        let first_error = Arc::new(Mutex::new(None));
        let sink = first_error.clone();
        device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
            sink.lock().unwrap_or_else(|p| p.into_inner()).get_or_insert_with(|| e.to_string());
        }));
        Ok(TestGpu { adapter, device, queue, first_error })
    }

    /// The same adapter opened again allowing only `bytes` of workgroup memory per workgroup
    /// (wgpu's default limit is 16384): what a caller's device with default limits gets.
    #[allow(dead_code, reason = "the key tests keep the device's own memory")]
    pub fn with_workgroup_memory(&self, bytes: u32) -> Result<TestGpu, String> {
        let backend = wgpu::Backends::from(self.adapter.get_info().backend);
        TestGpu::open(backend, Some(bytes))
    }

    /// The adapter, its backend and driver, in one line.
    pub fn describe(&self) -> String {
        let info = self.adapter.get_info();
        format!("{} ({:?}, {:?}, driver {})", info.name, info.backend, info.device_type, info.driver_info)
    }

    /// The first error wgpu raised on this device, if any.
    pub fn check(&self) -> Result<(), String> {
        match self.first_error.lock().unwrap_or_else(|p| p.into_inner()).as_ref() {
            Some(e) => Err(e.clone()),
            None => Ok(()),
        }
    }
}

/// The backends under test: those in `WGPU_BACKEND` if set, else Vulkan and GL. Each one must
/// open, so a machine without lavapipe fails loudly instead of silently testing less.
pub fn gpus() -> &'static [TestGpu] {
    static GPUS: OnceLock<Vec<TestGpu>> = OnceLock::new();
    GPUS.get_or_init(|| {
        let wanted = wgpu::Backends::from_env().unwrap_or(wgpu::Backends::VULKAN | wgpu::Backends::GL);
        wanted
            .iter()
            .map(|backend| {
                let gpu = TestGpu::open(backend, None).unwrap_or_else(|e| {
                    panic!(
                        "the sort's GPU tests need the {backend:?} backend: {e}. Install Mesa's software \
                         GPUs (apt-get install mesa-vulkan-drivers libegl-mesa0), or set WGPU_BACKEND to \
                         the backends this machine has."
                    )
                });
                ci::ran("gpu", &gpu.describe());
                gpu
            })
            .collect()
    })
}

/// Runs `check` on every GPU under test, naming the adapter when it fails. One test at a time
/// uses each device: wgpu's GL backend lets one thread hold its context and fails any other
/// that waits for it more than 6 s, which a long compile beside it can take on a loaded machine.
pub fn on_every_gpu(mut check: impl FnMut(&TestGpu)) {
    static TURNS: OnceLock<Vec<Mutex<()>>> = OnceLock::new();
    let turns = TURNS.get_or_init(|| gpus().iter().map(|_| Mutex::new(())).collect());
    for (gpu, turn) in gpus().iter().zip(turns) {
        let _turn = turn.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        eprintln!("on {}", gpu.describe());
        check(gpu);
        gpu.check().unwrap_or_else(|e| panic!("{}: {e}", gpu.describe()));
    }
}

/// `count` u32s of `buffer` (which has `COPY_SRC`) from byte `offset`.
pub fn read_u32s(gpu: &TestGpu, buffer: &wgpu::Buffer, offset: u64, count: usize) -> Vec<u32> {
    let bytes = count as u64 * 4;
    if bytes == 0 {
        return Vec::new();
    }
    let staging = gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("tests::staging"),
        size: bytes,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    encoder.copy_buffer_to_buffer(buffer, offset, &staging, 0, bytes);
    gpu.queue.submit([encoder.finish()]);
    let slice = staging.slice(..);
    let (sender, receiver) = std::sync::mpsc::channel();
    slice.map_async(wgpu::MapMode::Read, move |result| {
        let _ = sender.send(result);
    });
    gpu.device.poll(wgpu::PollType::wait_indefinitely()).expect("the device finishes");
    receiver.recv().expect("the mapping answers").expect("the buffer maps");
    let view = slice.get_mapped_range().expect("a mapped range");
    bytemuck::cast_slice::<u8, u32>(&view).to_vec()
}
