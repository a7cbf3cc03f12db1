//! The GPU context (instance, adapter, device, queue), headless or for a window, chosen from the environment.

use std::sync::{Arc, Mutex};

/// Why no GPU could be opened, or what went wrong on it.
#[derive(Debug, thiserror::Error)]
pub enum GpuError {
    /// No adapter on any of the backends tried.
    #[error(
        "no GPU adapter found (tried {tried}); install a software GPU with \
         `apt-get install mesa-vulkan-drivers` (Vulkan) or Mesa's EGL/GL drivers, or set WGPU_BACKEND to a backend this machine has"
    )]
    NoAdapter {
        /// The backends that were searched, and where that choice came from.
        tried: String,
    },
    /// `WGPU_ADAPTER_NAME` names no adapter that exists.
    #[error(
        "no GPU adapter's name contains WGPU_ADAPTER_NAME={wanted:?} (found: {found}); unset it or use part of one of those names"
    )]
    NoMatchingAdapter {
        /// What the variable asked for.
        wanted: String,
        /// The adapters that exist.
        found: String,
    },
    /// The adapter refused to open a device.
    #[error("could not open a device on the GPU adapter {adapter}: {source}")]
    RequestDevice {
        /// The adapter that refused.
        adapter: String,
        /// wgpu's reason.
        source: wgpu::RequestDeviceError,
    },
    /// A wgpu error raised by a command that has run (validation, out of memory, device lost).
    #[error("the GPU reported an error: {0}")]
    Device(String),
}

/// Features used when the adapter has them; none is required.
fn wanted_features() -> wgpu::Features {
    wgpu::Features::TIMESTAMP_QUERY
        | wgpu::Features::TIMESTAMP_QUERY_INSIDE_ENCODERS
        | wgpu::Features::TIMESTAMP_QUERY_INSIDE_PASSES
        | wgpu::Features::SUBGROUP
}

/// The id the next device opened takes.
static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Everything GPU work needs: one per program, shared by every algorithm and front end.
pub struct Gpu {
    /// The instance the adapter came from (a window creates its surface from it).
    pub instance: wgpu::Instance,
    /// The chosen adapter.
    pub adapter: wgpu::Adapter,
    /// The device opened on it, with the adapter's own limits.
    pub device: wgpu::Device,
    /// Its queue.
    pub queue: wgpu::Queue,
    first_error: Arc<Mutex<Option<String>>>,
    /// Which device this is of those opened by the process (wgpu's ids repeat across instances).
    id: u64,
    /// What pipelines are built with: the disk's cache, where there is one.
    pipeline_cache: Option<wgpu::PipelineCache>,
    /// The pipeline cache kept on disk, where the backend has one.
    #[cfg(not(target_arch = "wasm32"))]
    disk_cache: Option<super::pipeline_cache::DiskCache>,
    /// Whether what runs gone leave is kept for the next ones ([`Gpu::keep_spares`]).
    spares_kept: Arc<std::sync::atomic::AtomicBool>,
    /// Picture textures of runs gone, by size, for the next run's states and line space.
    pub(crate) picture_spares: super::recycle::Recycler<(u32, u32), wgpu::Texture>,
    /// Interval id textures of runs gone, by size, for the next run's map written on the GPU.
    pub(crate) interval_spares: super::recycle::Recycler<(u32, u32), wgpu::Texture>,
}

/// Keeps a process that opens no window from asking for a display: on Linux, Mesa's Vulkan
/// device-select layer connects to the Wayland display to find the default GPU, and without a
/// desktop session libwayland prints `error: XDG_RUNTIME_DIR is invalid or not set` twice
/// before the run's own output. A headless run chooses its adapter itself ([`Gpu::headless`]),
/// so it turns the layer off (`NODEVICE_SELECT=1`, the switch its manifest names), unless the
/// user is choosing a GPU through it (`MESA_VK_DEVICE_SELECT`, `DRI_PRIME`).
///
/// # Safety
/// It sets an environment variable: call it before the process starts a thread.
#[allow(unsafe_code, reason = "setting an environment variable; see SAFETY")]
pub unsafe fn without_display() {
    #[cfg(all(unix, not(target_os = "macos"), not(target_arch = "wasm32")))]
    {
        let set = |name: &str| std::env::var_os(name).is_some();
        if !set("NODEVICE_SELECT") && !set("MESA_VK_DEVICE_SELECT") && !set("DRI_PRIME") {
            // SAFETY: the caller promises that no other thread runs yet.
            unsafe { std::env::set_var("NODEVICE_SELECT", "1") };
        }
    }
}

impl Gpu {
    /// A GPU for work without a window: backends from `WGPU_BACKEND` (all by default),
    /// the adapter from `WGPU_ADAPTER_NAME` or the best one found.
    ///
    /// GL's instance (EGL) takes long to start and can only win where the native backends
    /// offer no discrete GPU, so it is started only then: the same choice, sooner.
    pub fn headless() -> Result<Self, GpuError> {
        let on = |backends| {
            let mut desc = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
            desc.backends &= backends;
            (!desc.backends.is_empty()).then(|| wgpu::Instance::new(desc))
        };
        let started = web_time::Instant::now();
        let ms = move || started.elapsed().as_secs_f64() * 1e3;
        pollster::block_on(async {
            let native = on(!wgpu::Backends::GL);
            let made = ms();
            let mut adapters = match &native {
                Some(instance) => instance.enumerate_adapters(wgpu::Backends::all()).await,
                None => Vec::new(),
            };
            log::debug!("instance made in {made:.1} ms, its adapters found by {:.1} ms", ms());
            let discrete = |a: &wgpu::Adapter| a.get_info().device_type == wgpu::DeviceType::DiscreteGpu;
            let named = std::env::var_os("WGPU_ADAPTER_NAME").is_some();
            let gl = if named || !adapters.iter().any(discrete) { on(wgpu::Backends::GL) } else { None };
            if let Some(gl) = &gl {
                adapters.extend(gl.enumerate_adapters(wgpu::Backends::all()).await);
            }
            let adapter = choose_adapter(adapters)?;
            let instance = if adapter.get_info().backend == wgpu::Backend::Gl { gl } else { native };
            let limits = adapter.limits();
            let chosen = ms();
            let gpu = Self::open(instance.expect("the adapter came from it"), adapter, limits).await;
            log::debug!("adapter chosen by {chosen:.1} ms, its device opened by {:.1} ms", ms());
            gpu
        })
    }

    /// A GPU on exactly these backends (tests use it to run on Vulkan and GL in turn).
    pub fn headless_on(backends: wgpu::Backends) -> Result<Self, GpuError> {
        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
        desc.backends = backends;
        pollster::block_on(Self::new(wgpu::Instance::new(desc), None))
    }

    /// An instance on the backends `WGPU_BACKEND` names (all by default). A window passes its
    /// event loop's display handle, which GL needs to present.
    pub fn instance_from_env(display: Option<Box<dyn wgpu::wgt::WgpuHasDisplayHandle>>) -> wgpu::Instance {
        let desc = match display {
            Some(display) => wgpu::InstanceDescriptor::new_with_display_handle_from_env(display),
            None => wgpu::InstanceDescriptor::new_without_display_handle_from_env(),
        };
        wgpu::Instance::new(desc)
    }

    /// Opens the device on the best adapter of `instance`; with a surface, only adapters that
    /// can present to it are considered. Window and headless front ends both come through here.
    pub async fn new(
        instance: wgpu::Instance,
        compatible_surface: Option<&wgpu::Surface<'_>>,
    ) -> Result<Self, GpuError> {
        let mut adapters = instance.enumerate_adapters(wgpu::Backends::all()).await;
        if let Some(surface) = compatible_surface {
            adapters.retain(|a| a.is_surface_supported(surface));
        }
        let adapter = choose_adapter(adapters)?;
        let limits = adapter.limits();
        Self::open(instance, adapter, limits).await
    }

    /// The same adapter opened again as a device that allows only `bytes` of workgroup memory
    /// per workgroup (wgpu's default limit is 16384): how the tests reach what a library
    /// caller's device with default limits gets.
    #[doc(hidden)]
    pub fn with_workgroup_memory(&self, bytes: u32) -> Result<Self, GpuError> {
        let mut limits = self.adapter.limits();
        limits.max_compute_workgroup_storage_size = bytes;
        pollster::block_on(Self::open(self.instance.clone(), self.adapter.clone(), limits))
    }

    /// Opens the device on `adapter` with `limits`.
    async fn open(
        instance: wgpu::Instance,
        adapter: wgpu::Adapter,
        limits: wgpu::Limits,
    ) -> Result<Self, GpuError> {
        let desc = wgpu::DeviceDescriptor { required_limits: limits, ..Self::device_descriptor(&adapter) };
        let started = web_time::Instant::now();
        let (device, queue) = adapter
            .request_device(&desc)
            .await
            .map_err(|source| GpuError::RequestDevice { adapter: adapter.get_info().name, source })?;
        log::debug!("device requested in {:.1} ms", started.elapsed().as_secs_f64() * 1e3);
        Ok(Self::from_device(instance, adapter, device, queue))
    }

    /// What a device is opened with on `adapter`: the adapter's own limits, and the wanted
    /// features it has. The window's runner opens its device with it too.
    pub fn device_descriptor(adapter: &wgpu::Adapter) -> wgpu::DeviceDescriptor<'static> {
        let features = adapter.features() & wanted_features();
        #[cfg(not(target_arch = "wasm32"))]
        let features = features | super::pipeline_cache::features(adapter);
        wgpu::DeviceDescriptor {
            label: Some("shadersort device"),
            required_features: features,
            required_limits: adapter.limits(),
            experimental_features: wgpu::ExperimentalFeatures::disabled(),
            // Small memory blocks first: a still's first upload and read-back then wait on
            // 4 MiB of host memory instead of 64 (BENCHMARKS.md, stills).
            memory_hints: wgpu::MemoryHints::MemoryUsage,
            trace: wgpu::Trace::Off,
        }
    }

    /// The context of a device opened with [`Gpu::device_descriptor`] (here, or by the
    /// window's runner): its errors are kept for [`Gpu::check`], its pipelines cached.
    pub fn from_device(
        instance: wgpu::Instance,
        adapter: wgpu::Adapter,
        device: wgpu::Device,
        queue: wgpu::Queue,
    ) -> Self {
        let first_error = Arc::new(Mutex::new(None));
        let sink = first_error.clone();
        device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
            log::error!("wgpu: {e}");
            let mut slot = sink.lock().unwrap_or_else(|p| p.into_inner());
            slot.get_or_insert_with(|| e.to_string());
        }));
        log::info!("GPU: {}", describe(&adapter.get_info()));
        #[cfg(not(target_arch = "wasm32"))]
        let disk_cache = super::pipeline_cache::DiskCache::open(&adapter, &device);
        #[cfg(not(target_arch = "wasm32"))]
        let pipeline_cache = disk_cache.as_ref().map(|disk| disk.cache.clone());
        #[cfg(target_arch = "wasm32")]
        let pipeline_cache = None;
        let spares_kept = Arc::default();
        Gpu {
            instance,
            adapter,
            device,
            queue,
            first_error,
            id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            pipeline_cache,
            #[cfg(not(target_arch = "wasm32"))]
            disk_cache,
            picture_spares: super::recycle::Recycler::new(&spares_kept),
            interval_spares: super::recycle::Recycler::new(&spares_kept),
            spares_kept,
        }
    }

    /// Keeps (or, with `false`, stops keeping) the large buffers and textures of runs gone for
    /// the next runs of the same size ([`super::recycle`]): for sorts of many frames.
    pub fn keep_spares(&self, keep: bool) {
        self.spares_kept.store(keep, std::sync::atomic::Ordering::Relaxed);
    }

    /// The switch [`Gpu::keep_spares`] sets, for recyclers of the engine's kernels.
    pub(crate) fn spares_switch(&self) -> &Arc<std::sync::atomic::AtomicBool> {
        &self.spares_kept
    }

    /// Which device this is of those the process opened: what is kept for one device (such
    /// as a line space's tables) is checked against it before use.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// The pipeline cache every pipeline is built with (`cache` of a pipeline descriptor):
    /// the one kept on disk, where there is one.
    pub fn pipeline_cache(&self) -> Option<&wgpu::PipelineCache> {
        self.pipeline_cache.as_ref()
    }

    /// Saves the pipeline cache to disk if pipelines were built since it was read, so that the
    /// next run skips their compiles; failures are only logged.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn save_pipeline_cache(&self) {
        if let Some(disk) = &self.disk_cache {
            disk.save();
        }
    }

    /// One line naming the adapter, its backend and driver.
    pub fn describe(&self) -> String {
        describe(&self.adapter.get_info())
    }

    /// Waits until every submitted command has finished.
    pub fn wait(&self) -> Result<(), GpuError> {
        self.device.poll(wgpu::PollType::wait_indefinitely()).map_err(|e| GpuError::Device(e.to_string()))?;
        self.check()
    }

    /// The first error wgpu raised since the device was opened, if any.
    pub fn check(&self) -> Result<(), GpuError> {
        let slot = self.first_error.lock().unwrap_or_else(|p| p.into_inner());
        match slot.as_ref() {
            Some(e) => Err(GpuError::Device(e.clone())),
            None => Ok(()),
        }
    }
}

/// The adapter in a line: name, API, kind and driver natively; in the browser what its WebGPU
/// tells (a description, often withheld, and whether it is a software fallback).
fn describe(info: &wgpu::AdapterInfo) -> String {
    if info.backend == wgpu::Backend::BrowserWebGpu {
        let name = if info.name.is_empty() { "the browser's GPU" } else { info.name.as_str() };
        let fallback = if info.device_type == wgpu::DeviceType::Cpu { ", a software fallback" } else { "" };
        return format!("{name} (WebGPU{fallback})");
    }
    let driver = [info.driver.as_str(), info.driver_info.as_str()]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let driver = if driver.is_empty() { String::new() } else { format!(", driver {driver}") };
    format!("{} ({:?}, {:?}{driver})", info.name, info.backend, info.device_type)
}

/// The adapter a program opens of `adapters` (here, or in the window's runner):
/// `WGPU_ADAPTER_NAME`'s when set, otherwise the fastest kind of device, native APIs before GL.
pub fn choose_adapter(adapters: Vec<wgpu::Adapter>) -> Result<wgpu::Adapter, GpuError> {
    if adapters.is_empty() {
        let tried = match std::env::var("WGPU_BACKEND") {
            Ok(list) => format!("the backends in WGPU_BACKEND={list:?}"),
            Err(_) => "every backend wgpu supports here".into(),
        };
        return Err(GpuError::NoAdapter { tried });
    }
    if let Ok(wanted) = std::env::var("WGPU_ADAPTER_NAME") {
        let needle = wanted.to_lowercase();
        let found: Vec<String> = adapters.iter().map(|a| describe(&a.get_info())).collect();
        return adapters
            .into_iter()
            .find(|a| a.get_info().name.to_lowercase().contains(&needle))
            .ok_or(GpuError::NoMatchingAdapter { wanted, found: found.join("; ") });
    }
    let rank = |a: &wgpu::Adapter| {
        let info = a.get_info();
        let kind = match info.device_type {
            wgpu::DeviceType::DiscreteGpu => 0,
            wgpu::DeviceType::IntegratedGpu => 1,
            wgpu::DeviceType::VirtualGpu => 2,
            wgpu::DeviceType::Other => 3,
            wgpu::DeviceType::Cpu => 4,
        };
        (kind, info.backend == wgpu::Backend::Gl)
    };
    Ok(adapters.into_iter().min_by_key(rank).expect("checked non-empty"))
}

#[cfg(test)]
mod tests {
    use super::describe;

    fn info(
        name: &str,
        backend: wgpu::Backend,
        device_type: wgpu::DeviceType,
        driver: &str,
    ) -> wgpu::AdapterInfo {
        wgpu::AdapterInfo {
            name: name.into(),
            vendor: 0,
            device: 0,
            device_type,
            device_pci_bus_id: String::new(),
            driver: driver.into(),
            driver_info: String::new(),
            backend,
            subgroup_min_size: 4,
            subgroup_max_size: 4,
            transient_saves_memory: None,
            limit_bucket: None,
        }
    }

    #[test]
    fn the_adapter_line_says_what_each_target_knows() {
        let native = info("NVIDIA H100", wgpu::Backend::Vulkan, wgpu::DeviceType::DiscreteGpu, "NVIDIA");
        assert_eq!(describe(&native), "NVIDIA H100 (Vulkan, DiscreteGpu, driver NVIDIA)");
        let no_driver = info("llvmpipe", wgpu::Backend::Gl, wgpu::DeviceType::Cpu, "");
        assert_eq!(describe(&no_driver), "llvmpipe (Gl, Cpu)");
        let browser = info("", wgpu::Backend::BrowserWebGpu, wgpu::DeviceType::Other, "");
        assert_eq!(describe(&browser), "the browser's GPU (WebGPU)");
        let swiftshader = info("SwiftShader", wgpu::Backend::BrowserWebGpu, wgpu::DeviceType::Cpu, "");
        assert_eq!(describe(&swiftshader), "SwiftShader (WebGPU, a software fallback)");
    }
}
