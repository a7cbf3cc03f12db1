//! The runs the window shows: one lane normally, one per algorithm and pass kind side by side,
//! all stepped in sync by pass.

use super::display::DisplayPipeline;
use super::player::Stepper;
use crate::algorithms::odd_even::PassKind;
use crate::algorithms::{Algorithm, Pipelines, SortRun};
use crate::gpu::{Gpu, GpuError};
use crate::options::SortOptions;
use crate::timing::GpuTimer;
use image::RgbaImage;
use std::sync::Arc;
use std::time::Instant;

/// One algorithm sorting the picture, with what the window needs to show it.
pub struct Lane {
    /// Which algorithm.
    pub algorithm: Algorithm,
    /// How its passes run.
    pub pass_kind: PassKind,
    /// The run.
    pub run: Box<dyn SortRun>,
    /// The state converted for display.
    pub display: wgpu::Texture,
    /// `display`'s view, registered with egui.
    pub display_view: wgpu::TextureView,
    /// egui's handle of `display_view`.
    pub texture_id: Option<egui::TextureId>,
    /// GPU milliseconds per pass, from timestamps, averaged over the last batch.
    pub gpu_ms_per_pass: Option<f64>,
    timer: Option<GpuTimer>,
}

impl Lane {
    /// "Odd-even transposition (compute)".
    pub fn label(&self) -> String {
        format!("{} ({})", self.algorithm.title(), self.pass_kind.name())
    }
}

/// Every lane shown, and the settings they were started with.
pub struct Lanes {
    gpu: Arc<Gpu>,
    /// The lanes, left to right.
    pub lanes: Vec<Lane>,
    /// Wall-clock milliseconds per pass over the last batch, all lanes together.
    pub wall_ms_per_pass: Option<f64>,
    /// The first GPU error, if any (shown in the window; the lanes stop stepping).
    pub error: Option<GpuError>,
}

impl Lanes {
    /// Starts one lane per (algorithm, pass kind) on `picture`.
    pub fn start(
        gpu: &Arc<Gpu>,
        pipelines: &[(Algorithm, Pipelines)],
        display: &DisplayPipeline,
        picture: &RgbaImage,
        options: SortOptions,
        which: &[(Algorithm, PassKind)],
    ) -> Self {
        let lanes = which
            .iter()
            .map(|&(algorithm, pass_kind)| {
                let pipes = &pipelines
                    .iter()
                    .find(|(a, _)| *a == algorithm)
                    .expect("pipelines for every algorithm")
                    .1;
                let run = pipes.start(gpu, picture, options, pass_kind);
                let display_texture = display.create_target(gpu, picture.width(), picture.height());
                let display_view = display_texture.create_view(&Default::default());
                Lane {
                    algorithm,
                    pass_kind,
                    run,
                    display: display_texture,
                    display_view,
                    texture_id: None,
                    gpu_ms_per_pass: None,
                    timer: GpuTimer::new(gpu),
                }
            })
            .collect();
        Lanes { gpu: gpu.clone(), lanes, wall_ms_per_pass: None, error: None }
    }

    /// Records every lane's state conversion for display.
    pub fn record_display(&self, display: &DisplayPipeline, encoder: &mut wgpu::CommandEncoder) {
        for lane in &self.lanes {
            display.record(&self.gpu, encoder, lane.run.state(), &lane.display_view);
        }
    }

    fn advance_lanes(&mut self, n: u32) -> Result<(), GpuError> {
        let started = Instant::now();
        let mut encoder = self
            .gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("lanes::advance") });
        let mut ran = Vec::with_capacity(self.lanes.len());
        for lane in &mut self.lanes {
            let want =
                n.min(lane.run.total_steps() - lane.run.steps_done()).min(lane.run.max_uncollected_steps());
            if let Some(timer) = &lane.timer {
                timer.start(&mut encoder);
            }
            let steps = lane.run.record_steps(&mut encoder, want);
            if let Some(timer) = &lane.timer {
                timer.stop(&mut encoder);
            }
            ran.push(steps);
        }
        self.gpu.queue.submit([encoder.finish()]);
        let mut total = 0;
        for (lane, steps) in self.lanes.iter_mut().zip(ran) {
            lane.run.collect_stats(&self.gpu)?;
            if steps > 0 {
                if let Some(timer) = &lane.timer {
                    lane.gpu_ms_per_pass = Some(timer.read_ms(&self.gpu)? / f64::from(steps));
                }
                total += steps;
            }
        }
        if total > 0 {
            self.wall_ms_per_pass = Some(started.elapsed().as_secs_f64() * 1e3 / f64::from(total));
        }
        Ok(())
    }
}

impl Stepper for Lanes {
    fn total_steps(&self) -> u32 {
        self.lanes.iter().map(|l| l.run.total_steps()).max().unwrap_or(0)
    }

    fn steps_done(&self) -> u32 {
        self.lanes.iter().map(|l| l.run.steps_done()).max().unwrap_or(0)
    }

    fn advance(&mut self, n: u32) {
        if self.error.is_some() {
            return;
        }
        let mut left = n;
        while left > 0 && self.steps_done() < self.total_steps() {
            let before = self.steps_done();
            if let Err(e) = self.advance_lanes(left) {
                self.error = Some(e);
                return;
            }
            let moved = self.steps_done() - before;
            if moved == 0 {
                return;
            }
            left = left.saturating_sub(moved);
        }
    }

    fn restart(&mut self) {
        let mut encoder = self
            .gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("lanes::restart") });
        for lane in &mut self.lanes {
            lane.run.restart(&mut encoder);
        }
        self.gpu.queue.submit([encoder.finish()]);
    }

    fn known_sorted(&self) -> bool {
        self.lanes.iter().all(|l| l.run.stats().sorted_after.is_some())
    }
}
