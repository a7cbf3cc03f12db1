//! The pipeline cache kept on disk between runs (native, where the backend has one: Vulkan), so
//! that a second run skips the driver's shader compiles. It lives in
//! `$SHADERSORT_CACHE_DIR`, else `$XDG_CACHE_HOME/shadersort`, else `~/.cache/shadersort`
//! (`%LOCALAPPDATA%\shadersort` on Windows), one file per kind of adapter; an empty
//! `SHADERSORT_CACHE_DIR` keeps none. The cache only ever speeds a run up: a missing,
//! unreadable, corrupt or foreign file is ignored, and a failed write is logged, never reported.
//!
//! A file is a CRC-32 of the rest, then what `PipelineCache::get_data` gave. wgpu checks the
//! header of its part (its version, the adapter, the driver) but not the bytes after it, which
//! go to the driver; the checksum keeps a damaged file from reaching it.

use std::path::{Path, PathBuf};

/// The variable that moves the cache folder (tests point it at a temporary folder); set empty,
/// no cache is read or written.
pub const CACHE_DIR_VAR: &str = "SHADERSORT_CACHE_DIR";

/// A device's pipeline cache and the file it was read from and is saved to.
pub(crate) struct DiskCache {
    /// What pipelines are built with.
    pub(crate) cache: wgpu::PipelineCache,
    path: PathBuf,
    /// The bytes read from the file (nothing when there was none): a save that would write
    /// the same is skipped.
    loaded: Vec<u8>,
}

/// The folder the cache files go in, from the environment; `None` when caching is off or no
/// home folder is known.
pub fn cache_dir() -> Option<PathBuf> {
    let non_empty = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(dir) = std::env::var_os(CACHE_DIR_VAR) {
        return (!dir.is_empty()).then(|| PathBuf::from(dir));
    }
    let base = non_empty("XDG_CACHE_HOME")
        .or_else(|| if cfg!(windows) { non_empty("LOCALAPPDATA") } else { None })
        .or_else(|| non_empty("HOME").map(|home| home.join(".cache")))?;
    Some(base.join("shadersort"))
}

/// The features a device needs for a cache on `adapter` (none where it has no such cache).
pub(crate) fn features(adapter: &wgpu::Adapter) -> wgpu::Features {
    let supported = wgpu::util::pipeline_cache_key(&adapter.get_info()).is_some();
    if supported { adapter.features() & wgpu::Features::PIPELINE_CACHE } else { wgpu::Features::empty() }
}

impl DiskCache {
    /// The cache of `device` on `adapter`, filled from its file when that holds a cache wgpu
    /// accepts; `None` where the device has no pipeline cache or caching is off.
    pub(crate) fn open(adapter: &wgpu::Adapter, device: &wgpu::Device) -> Option<DiskCache> {
        if !device.features().contains(wgpu::Features::PIPELINE_CACHE) {
            return None;
        }
        let key = wgpu::util::pipeline_cache_key(&adapter.get_info())?;
        let path = cache_dir()?.join(format!("{key}.bin"));
        let file = std::fs::read(&path).unwrap_or_default();
        let loaded = match checked(&file) {
            Some(data) => data.to_vec(),
            None if file.is_empty() => Vec::new(),
            None => {
                log::info!("ignoring the pipeline cache '{}': damaged", path.display());
                Vec::new()
            }
        };
        let cache = create(device, Some(loaded.as_slice()).filter(|d| !d.is_empty())).or_else(|| {
            // wgpu refused the file (made for another device): start empty; the next save
            // replaces it.
            log::info!("ignoring the pipeline cache '{}': made for another GPU", path.display());
            create(device, None)
        })?;
        log::debug!("pipeline cache '{}': {} bytes read", path.display(), loaded.len());
        Some(DiskCache { cache, path, loaded })
    }

    /// Writes the cache back if pipelines were added since it was read: into a temporary file
    /// beside it, renamed into place, so that a reader never sees half a file.
    pub(crate) fn save(&self) {
        let Some(data) = self.cache.get_data() else { return };
        if data.is_empty() || data == self.loaded {
            return;
        }
        let mut file = crc32fast::hash(&data).to_le_bytes().to_vec();
        file.extend_from_slice(&data);
        match write_atomically(&self.path, &file) {
            Ok(()) => log::debug!("pipeline cache '{}': {} bytes written", self.path.display(), data.len()),
            Err(e) => log::info!("could not save the pipeline cache '{}': {e}", self.path.display()),
        }
    }
}

/// A pipeline cache made from `data`, or `None` if wgpu refused it. wgpu checks the header
/// (its version, the adapter, the driver) and drops data that does not match; data made for
/// another adapter is an error, caught here rather than failing the run.
fn create(device: &wgpu::Device, data: Option<&[u8]>) -> Option<wgpu::PipelineCache> {
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let desc =
        wgpu::PipelineCacheDescriptor { label: Some("shadersort pipeline cache"), data, fallback: true };
    // SAFETY: wgpu requires `data` to come from `PipelineCache::get_data` of an adapter with
    // the same `pipeline_cache_key`: only such data is written to the file named by that key,
    // whole (a rename), and read back only when its checksum matches; wgpu validates the
    // header and falls back to an empty cache when the driver or wgpu changed.
    #[allow(unsafe_code, reason = "wgpu trusts the cache data to be its own; see SAFETY")]
    let cache = unsafe { device.create_pipeline_cache(&desc) };
    match pollster::block_on(scope.pop()) {
        None => Some(cache),
        Some(_) => None,
    }
}

/// The cache data of a file's bytes, or `None` when its checksum does not match (or it is too
/// short to hold one).
fn checked(file: &[u8]) -> Option<&[u8]> {
    let (sum, data) = file.split_first_chunk::<4>()?;
    (crc32fast::hash(data) == u32::from_le_bytes(*sum)).then_some(data)
}

/// Writes `data` to `path` through a temporary file in the same folder and a rename.
fn write_atomically(path: &Path, data: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().expect("a cache file is in a folder");
    std::fs::create_dir_all(dir)?;
    let mut temp = tempfile::Builder::new().prefix(".pipelines-").suffix(".part").tempfile_in(dir)?;
    std::io::Write::write_all(&mut temp, data)?;
    temp.persist(path).map_err(|e| e.error)?;
    Ok(())
}
