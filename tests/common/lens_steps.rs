//! What the lens tests share: a run stepped once with its counts taken, and a line of it read
//! back by the lens.

use shadersort::algorithms::SortRun;
use shadersort::angle::Lines;
use shadersort::engine::drive::Driver;
use shadersort::gpu::Gpu;
use shadersort::keys::options::Axis;
use shadersort::lens::{LensLine, LensProbe, LensReading};

/// One step forward, its counts taken.
pub fn step(gpu: &Gpu, run: &mut dyn SortRun) {
    let driver = Driver::new(run);
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    assert_eq!(run.encode_steps(&mut encoder, 1), 1);
    gpu.queue.submit([encoder.finish()]);
    driver.collect(gpu, run).unwrap();
}

/// Line `index` along `axis` of `run`'s `size` picture, read by the lens.
pub fn read(
    gpu: &Gpu,
    probe: &mut LensProbe,
    run: &dyn SortRun,
    size: (u32, u32),
    axis: Axis,
    index: u32,
) -> LensReading {
    let line = LensLine::numbered(&Lines::Axis(axis), size, index);
    probe.read(gpu, &run.lens_view(), &line).unwrap()
}
