//! Prints what the Vulkan driver makes of one WGSL compute entry point: register count, shared
//! memory and the other statistics of `VK_KHR_pipeline_executable_properties` (NVIDIA reports
//! them). The WGSL goes through naga to SPIR-V as wgpu's Vulkan backend sends it for the radix
//! sort: bounds checks on, no loop counter, pipeline constants applied.
//!
//! ```sh
//! cargo run --release --manifest-path benchmarks/pipeline_stats/Cargo.toml -- onesweep \
//!     SPINS=256 REORDER=1 REORDER_WORDS=4096 WARPS=8 WARP_WORDS=1024 \
//!     crates/wgpu-radix-sort/shaders/radix_sort.wgsl crates/wgpu-radix-sort/shaders/radix_sort_subgroups.wgsl
//! ```
//!
//! Arguments: the entry point, then `NAME=VALUE` pipeline constants and WGSL files (joined in
//! order) in any order. The pipeline layout is read from the module: one descriptor per binding
//! of group 0 (uniform and storage buffers, sampled and storage textures).
//!
//! With `CACHE=FILE` the pipeline is built through a pipeline cache whose data is written to
//! FILE. NVIDIA's holds the machine code (zstd-compressed); `sass.py` disassembles it with
//! `nvdisasm` (PyPI package `nvidia-cuda-nvdisasm`), which runs on any x86-64 Linux machine:
//!
//! ```sh
//! CACHE=sort_lines.bin pipeline_stats sort_lines WORKGROUP=128 ...   # on the GPU's machine
//! python3 benchmarks/pipeline_stats/sass.py sort_lines.bin 50048 > sort_lines.sass   # Binary Size
//! ```

use ash::vk;
use std::collections::HashMap;
use std::ffi::{CStr, CString};

type Result<T> = std::result::Result<T, String>;

fn main() {
    if let Err(why) = run() {
        eprintln!("error: {why}");
        std::process::exit(1);
    }
}

fn run() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((entry, rest)) = args.split_first() else {
        return Err("usage: pipeline_stats ENTRY [NAME=VALUE]... FILE.wgsl...".into());
    };
    let mut constants = HashMap::new();
    let mut source = String::new();
    for arg in rest {
        if let Some((name, value)) = arg.split_once('=') {
            let value = value.parse::<f64>().map_err(|e| format!("constant {arg}: {e}"))?;
            constants.insert(name.to_string(), value);
        } else {
            source += &std::fs::read_to_string(arg).map_err(|e| format!("cannot read {arg}: {e}"))?;
            source += "\n";
        }
    }
    let words = to_spirv(&source, entry, &constants)?;
    let bindings = descriptor_types(&source)?;
    // SAFETY: plain Vulkan calls on objects created here, in order, with valid create infos.
    unsafe { print_statistics(&words, entry, &bindings) }
}

/// The descriptor type of each binding of group 0, by binding number.
fn descriptor_types(source: &str) -> Result<Vec<(u32, vk::DescriptorType)>> {
    let module = naga::front::wgsl::parse_str(source).map_err(|e| e.emit_to_string(source))?;
    let mut bindings = Vec::new();
    for (_, global) in module.global_variables.iter() {
        let Some(binding) = &global.binding else { continue };
        if binding.group != 0 {
            return Err(format!("binding in group {}: only group 0 is laid out", binding.group));
        }
        let kind = match (global.space, &module.types[global.ty].inner) {
            (naga::AddressSpace::Uniform, _) => vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC,
            (naga::AddressSpace::Storage { .. }, _) => vk::DescriptorType::STORAGE_BUFFER,
            (_, naga::TypeInner::Image { class: naga::ImageClass::Storage { .. }, .. }) => {
                vk::DescriptorType::STORAGE_IMAGE
            }
            (_, naga::TypeInner::Image { .. }) => vk::DescriptorType::SAMPLED_IMAGE,
            (_, naga::TypeInner::Sampler { .. }) => vk::DescriptorType::SAMPLER,
            (space, inner) => {
                return Err(format!("binding {}: {space:?} {inner:?} not laid out", binding.binding));
            }
        };
        bindings.push((binding.binding, kind));
    }
    Ok(bindings)
}

/// The entry point's SPIR-V, with the options wgpu uses for the sort's module.
fn to_spirv(source: &str, entry: &str, constants: &HashMap<String, f64>) -> Result<Vec<u32>> {
    let module = naga::front::wgsl::parse_str(source).map_err(|e| e.emit_to_string(source))?;
    let info =
        naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all())
            .validate(&module)
            .map_err(|e| format!("{e:?}"))?;
    let constants: naga::back::PipelineConstants = constants.iter().map(|(k, v)| (k.clone(), *v)).collect();
    let stage = naga::ShaderStage::Compute;
    let (module, info) =
        naga::back::pipeline_constants::process_overrides(&module, &info, Some((stage, entry)), &constants)
            .map_err(|e| format!("{e:?}"))?;
    // UNCHECKED=1 in the environment: no bounds checks, to see what they cost.
    let restrict = if std::env::var_os("UNCHECKED").is_some() {
        naga::proc::BoundsCheckPolicy::Unchecked
    } else {
        naga::proc::BoundsCheckPolicy::Restrict
    };
    let mut options = naga::back::spv::Options {
        lang_version: (1, 3),
        force_loop_bounding: false,
        bounds_check_policies: naga::proc::BoundsCheckPolicies {
            index: restrict,
            buffer: restrict,
            image_load: naga::proc::BoundsCheckPolicy::Unchecked,
            binding_array: restrict,
        },
        zero_initialize_workgroup_memory: naga::back::spv::ZeroInitializeWorkgroupMemoryMode::None,
        ..Default::default()
    };
    options.flags.remove(naga::back::spv::WriterFlags::DEBUG);
    let pipeline = naga::back::spv::PipelineOptions { shader_stage: stage, entry_point: entry.to_string() };
    naga::back::spv::write_vec(&module, &info, &options, Some(&pipeline)).map_err(|e| format!("{e:?}"))
}

/// Builds the compute pipeline on the first device that offers pipeline statistics and prints
/// them, one line per executable.
unsafe fn print_statistics(words: &[u32], entry: &str, types: &[(u32, vk::DescriptorType)]) -> Result<()> {
    let vk_err = |what: &'static str| move |e: vk::Result| format!("{what}: {e}");
    unsafe {
        let loader = ash::Entry::load().map_err(|e| format!("no Vulkan loader: {e}"))?;
        let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_3);
        let instance = loader
            .create_instance(&vk::InstanceCreateInfo::default().application_info(&app), None)
            .map_err(vk_err("vkCreateInstance"))?;
        let extension = c"VK_KHR_pipeline_executable_properties";
        let physical = instance
            .enumerate_physical_devices()
            .map_err(vk_err("vkEnumeratePhysicalDevices"))?
            .into_iter()
            .find(|&pd| {
                let names = instance.enumerate_device_extension_properties(pd).unwrap_or_default();
                names.iter().any(|p| CStr::from_ptr(p.extension_name.as_ptr()) == extension)
            })
            .ok_or("no Vulkan device offers VK_KHR_pipeline_executable_properties")?;
        let properties = instance.get_physical_device_properties(physical);
        println!("device: {}", CStr::from_ptr(properties.device_name.as_ptr()).to_string_lossy());
        let priority = [1.0f32];
        let queues = [vk::DeviceQueueCreateInfo::default().queue_family_index(0).queue_priorities(&priority)];
        let extensions = [extension.as_ptr()];
        let mut statistics = vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR::default()
            .pipeline_executable_info(true);
        let mut vulkan13 = vk::PhysicalDeviceVulkan13Features::default().maintenance4(true);
        let mut vulkan12 = vk::PhysicalDeviceVulkan12Features::default().vulkan_memory_model(true);
        let info = vk::DeviceCreateInfo::default()
            .queue_create_infos(&queues)
            .enabled_extension_names(&extensions)
            .push_next(&mut statistics)
            .push_next(&mut vulkan13)
            .push_next(&mut vulkan12);
        let device = instance.create_device(physical, &info, None).map_err(vk_err("vkCreateDevice"))?;
        let shader = device
            .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(words), None)
            .map_err(vk_err("vkCreateShaderModule"))?;
        let binding = |index: u32, ty| {
            vk::DescriptorSetLayoutBinding::default()
                .binding(index)
                .descriptor_type(ty)
                .descriptor_count(1)
                .stage_flags(vk::ShaderStageFlags::COMPUTE)
        };
        let bindings: Vec<_> = types.iter().map(|&(index, ty)| binding(index, ty)).collect();
        let set_layout = device
            .create_descriptor_set_layout(
                &vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings),
                None,
            )
            .map_err(vk_err("vkCreateDescriptorSetLayout"))?;
        let set_layouts = [set_layout];
        let layout = device
            .create_pipeline_layout(&vk::PipelineLayoutCreateInfo::default().set_layouts(&set_layouts), None)
            .map_err(vk_err("vkCreatePipelineLayout"))?;
        let name = CString::new(entry).map_err(|e| e.to_string())?;
        let stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(shader)
            .name(&name);
        let create = [vk::ComputePipelineCreateInfo::default()
            .stage(stage)
            .layout(layout)
            .flags(vk::PipelineCreateFlags::CAPTURE_STATISTICS_KHR)];
        // With CACHE set, the pipeline goes through a pipeline cache whose data (the driver's
        // compiled code among it) is written to that file.
        let cache = device
            .create_pipeline_cache(&vk::PipelineCacheCreateInfo::default(), None)
            .map_err(vk_err("vkCreatePipelineCache"))?;
        let pipeline = device
            .create_compute_pipelines(cache, &create, None)
            .map_err(|(_, e)| format!("vkCreateComputePipelines: {e}"))?[0];
        let executables = ash::khr::pipeline_executable_properties::Device::new(&instance, &device);
        let list = executables
            .get_pipeline_executable_properties(&vk::PipelineInfoKHR::default().pipeline(pipeline))
            .map_err(vk_err("vkGetPipelineExecutablePropertiesKHR"))?;
        for (index, executable) in list.iter().enumerate() {
            let which =
                vk::PipelineExecutableInfoKHR::default().pipeline(pipeline).executable_index(index as u32);
            let stats = executables
                .get_pipeline_executable_statistics(&which)
                .map_err(vk_err("vkGetPipelineExecutableStatisticsKHR"))?;
            let mut line = format!("{}:", CStr::from_ptr(executable.name.as_ptr()).to_string_lossy());
            for stat in stats {
                let value = match stat.format {
                    vk::PipelineExecutableStatisticFormatKHR::BOOL32 => stat.value.b32.to_string(),
                    vk::PipelineExecutableStatisticFormatKHR::INT64 => stat.value.i64.to_string(),
                    vk::PipelineExecutableStatisticFormatKHR::UINT64 => stat.value.u64.to_string(),
                    _ => stat.value.f64.to_string(),
                };
                line += &format!(" {}={value}", CStr::from_ptr(stat.name.as_ptr()).to_string_lossy());
            }
            println!("{line}");
        }
        if let Ok(path) = std::env::var("CACHE") {
            let data = device.get_pipeline_cache_data(cache).map_err(vk_err("vkGetPipelineCacheData"))?;
            std::fs::write(&path, data).map_err(|e| format!("{path}: {e}"))?;
        }
        device.destroy_pipeline_cache(cache, None);
        device.destroy_pipeline(pipeline, None);
        device.destroy_pipeline_layout(layout, None);
        device.destroy_descriptor_set_layout(set_layout, None);
        device.destroy_shader_module(shader, None);
        device.destroy_device(None);
        instance.destroy_instance(None);
    }
    Ok(())
}
