//! Sorts a million random key-value pairs on the GPU and checks the result against the CPU's
//! stable sort: `cargo run -p wgpu-radix-sort --example sort_buffer [-- LEN]`.
//! Exits non-zero, naming the first wrong position, if the GPU's order is not the CPU's.

use wgpu::util::DeviceExt;
use wgpu_radix_sort::{RadixSorter, SortJob};

fn main() {
    let len = match std::env::args().nth(1) {
        Some(arg) => arg.parse().map_err(|_| format!("'{arg}' is not a length; give a whole number of keys")),
        None => Ok(1 << 20),
    };
    let backends = wgpu::Backends::from_env().unwrap_or(wgpu::Backends::all());
    match len.and_then(|len| sort_and_check(backends, len)) {
        Ok(report) => println!("{report}"),
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    }
}

/// Sorts `len` pairs on the first adapter of `backends` and checks them; says what it did.
pub fn sort_and_check(backends: wgpu::Backends, len: u32) -> Result<String, String> {
    let (device, queue, adapter) = pollster::block_on(open_device(backends))?;

    // Keys with many repeats (so stability shows) and values that record where each key began.
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    let keys: Vec<u32> = (0..len)
        .map(|_| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 40) as u32 % 1000
        })
        .collect();
    let values: Vec<u32> = (0..len).collect();
    let usage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC;
    let upload = |label, contents: &[u32]| {
        device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some(label),
            contents: bytemuck::cast_slice(contents),
            usage,
        })
    };
    let (key_buffer, value_buffer) = (upload("keys", &keys), upload("values", &values));

    let sorter = RadixSorter::new(&device);
    let scratch = sorter.scratch(&device, len, true).map_err(|e| e.to_string())?;
    let mut encoder = device.create_command_encoder(&Default::default());
    let job = SortJob::pairs(&key_buffer, &value_buffer, len);
    sorter.record(&device, &mut encoder, &job, &scratch).map_err(|e| e.to_string())?;
    queue.submit([encoder.finish()]);

    let (sorted_keys, sorted_values) =
        (read(&device, &queue, &key_buffer, len)?, read(&device, &queue, &value_buffer, len)?);
    let mut expected: Vec<(u32, u32)> = keys.into_iter().zip(values).collect();
    expected.sort_by_key(|&(key, _)| key); // stable: equal keys keep their order
    let got = sorted_keys.into_iter().zip(sorted_values);
    if let Some((at, (got, want))) = got.zip(expected).enumerate().find(|(_, (g, w))| g != w) {
        return Err(format!(
            "position {at} holds (key, value) {got:?} where the CPU's stable sort has {want:?}"
        ));
    }
    Ok(format!(
        "sorted {len} key-value pairs on {} ({:?}) with the {} path; equal to the CPU's stable sort",
        adapter.name,
        adapter.backend,
        sorter.path().name()
    ))
}

/// The first adapter of `backends`, with subgroups where it has them (the fast path).
async fn open_device(
    backends: wgpu::Backends,
) -> Result<(wgpu::Device, wgpu::Queue, wgpu::AdapterInfo), String> {
    let mut descriptor = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
    descriptor.backends = backends;
    let instance = wgpu::Instance::new(descriptor);
    let adapter = instance
        .request_adapter(&wgpu::RequestAdapterOptions::default())
        .await
        .map_err(|e| format!("no GPU adapter ({e}); install a Vulkan, Metal, DX12 or GL driver"))?;
    let descriptor = wgpu::DeviceDescriptor {
        label: Some("sort_buffer"),
        required_features: adapter.features() & wgpu::Features::SUBGROUP,
        required_limits: adapter.limits(),
        ..Default::default()
    };
    let (device, queue) = adapter.request_device(&descriptor).await.map_err(|e| e.to_string())?;
    Ok((device, queue, adapter.get_info()))
}

/// The first `len` u32s of `buffer` (which has `COPY_SRC`).
fn read(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    buffer: &wgpu::Buffer,
    len: u32,
) -> Result<Vec<u32>, String> {
    let bytes = u64::from(len) * 4;
    let staging = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("staging"),
        size: bytes.max(4),
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    encoder.copy_buffer_to_buffer(buffer, 0, &staging, 0, bytes);
    queue.submit([encoder.finish()]);
    let slice = staging.slice(..);
    let (sender, receiver) = std::sync::mpsc::channel();
    slice.map_async(wgpu::MapMode::Read, move |result| {
        let _ = sender.send(result);
    });
    device.poll(wgpu::PollType::wait_indefinitely()).map_err(|e| e.to_string())?;
    receiver.recv().map_err(|e| e.to_string())?.map_err(|e| e.to_string())?;
    let view = slice.get_mapped_range().map_err(|e| e.to_string())?;
    let words = bytemuck::cast_slice::<u8, u32>(&view).to_vec();
    Ok(words)
}
