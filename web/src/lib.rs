//! shadersort in the browser: the page's WebAssembly module. It opens the browser's WebGPU
//! device through the same [`shadersort::gpu::Gpu`] as the native program and runs the same
//! algorithms, lanes, player, key table, explanations and GIF recorder from the core; only the
//! waiting differs, since nothing may block in a page: every read-back is awaited.
//!
//! `index.html` drives a [`Viewer`]: it queues keys, buttons and settings, asks for a frame on
//! every animation frame and draws what the frame read back. `window.shadersortTest` there is
//! the hook the browser test (`tests/browser.rs`) drives.

mod export;
mod lanes;
mod settings;
mod state;

use js_sys::{Array, Function, Object, Promise, Reflect};
use shadersort::algorithms::request::StartRequest;
use shadersort::algorithms::run_until_async;
use shadersort::controls::commands::{Command, CommandSpec, command_for, command_table};
use shadersort::gpu::Gpu;
use shadersort::gpu::readback::read_texture_async;
use shadersort::picture::input::{Picture, SizeLimit};
use state::{Input, State};
use std::cell::RefCell;
use std::path::Path;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

/// A picture handed to the page: RGBA8 rows, top to bottom.
#[wasm_bindgen(getter_with_clone)]
pub struct WebPicture {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width * height * 4` bytes.
    pub rgba: Vec<u8>,
}

impl From<image::RgbaImage> for WebPicture {
    fn from(picture: image::RgbaImage) -> Self {
        WebPicture { width: picture.width(), height: picture.height(), rgba: picture.into_raw() }
    }
}

/// What the page does itself when a command comes: the rest go to the sort.
fn page_action(command: Command) -> Option<&'static str> {
    Some(match command {
        Command::Open => "open",
        Command::Record => "record",
        Command::SavePng => "save",
        Command::Help => "help",
        Command::FitToWindow => "fit",
        Command::ActualSize => "actual-size",
        _ => return None,
    })
}

/// Whether the page offers `command`: the window's intervals overlay, lane sync by time, row lens,
/// quit and a clip's frame keys have no place in it (see docs/browser.md).
fn offered(command: Command) -> bool {
    !matches!(
        command,
        Command::ToggleIntervalsOverlay
            | Command::ToggleSync
            | Command::ToggleLens
            | Command::MoveLens(_)
            | Command::PreviousFrame
            | Command::NextFrame
            | Command::Quit
    )
}

/// The page's sorter: the GPU, what it shows, and the changes waiting for the next frame.
///
/// Keys, buttons and settings only queue changes, so they may come at any time. The methods
/// that return promises (`frame`, `record_gif`, `sort_picture`) take the state out while they
/// run, so they and the getters must not overlap: the page runs them one after another (a
/// promise that finds the state taken fails, a getter answers as for an empty page).
#[wasm_bindgen]
pub struct Viewer {
    state: Slot,
    inbox: Rc<RefCell<Vec<Input>>>,
    table: Vec<CommandSpec>,
    adapter: String,
}

/// Opens the browser's WebGPU device, builds every algorithm's pipelines and shows the built-in
/// photograph. Fails with a message for the page when the browser has no WebGPU.
#[wasm_bindgen]
pub async fn open_viewer() -> Result<Viewer, JsError> {
    console_error_panic_hook::set_once();
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle());
    let gpu = Gpu::new(instance, None).await.map_err(|e| JsError::new(&e.to_string()))?;
    let limits = gpu.device.limits();
    let adapter = format!(
        "{} · {} invocations, {} KiB workgroup memory per workgroup",
        gpu.describe(),
        limits.max_compute_invocations_per_workgroup,
        limits.max_compute_workgroup_storage_size / 1024
    );
    let state = State::new(Rc::new(gpu), Picture::built_in());
    let table = command_table().into_iter().filter(|s| offered(s.command)).collect();
    Ok(Viewer { state: Slot(Rc::new(RefCell::new(Some(state)))), inbox: Rc::default(), table, adapter })
}

/// Where the state lives between the page's calls; taken out while a promise works on it.
#[derive(Clone)]
struct Slot(Rc<RefCell<Option<State>>>);

impl Slot {
    /// What `read` says of the state, or `None` while a promise has it.
    fn read<R>(&self, read: impl FnOnce(&State) -> R) -> Option<R> {
        self.0.borrow().as_ref().map(read)
    }

    /// Takes the state for a promise's work.
    fn take(&self) -> Result<State, JsError> {
        self.0.borrow_mut().take().ok_or_else(|| JsError::new("the viewer is busy with another call"))
    }

    /// Puts the state back after the work.
    fn put(&self, state: State) {
        *self.0.borrow_mut() = Some(state);
    }
}

#[wasm_bindgen]
impl Viewer {
    /// One line naming the adapter and its limits.
    pub fn adapter(&self) -> String {
        self.adapter.clone()
    }

    /// The command table as the page lists it: objects `{id, name, keys, help, page}`, where
    /// `page` names what the page does itself (open, record, save, help, fit, actual-size).
    pub fn commands(&self) -> Array {
        self.table
            .iter()
            .enumerate()
            .map(|(id, spec)| {
                let row = Object::new();
                let set = |k: &str, v: JsValue| Reflect::set(&row, &k.into(), &v).expect("a plain object");
                set("id", (id as u32).into());
                set("name", spec.name.clone().into());
                set("keys", spec.keys_label().into());
                set("help", spec.help.into());
                set("page", page_action(spec.command).map_or(JsValue::NULL, JsValue::from));
                JsValue::from(row)
            })
            .collect()
    }

    /// A key pressed (`KeyboardEvent.key`): queues its command for the sort and returns "",
    /// returns what the page must do itself ("open", "record", ...), or `undefined` for a key
    /// that means nothing here.
    pub fn key(&self, key: &str, shift: bool) -> Option<String> {
        let key = egui::Key::from_name(key)?;
        let command = command_for(&self.table, key, shift)?;
        Some(self.command(command))
    }

    /// The command of table row `id` (a button): as [`Viewer::key`].
    pub fn run_command(&self, id: usize) -> Option<String> {
        let command = self.table.get(id)?.command;
        Some(self.command(command))
    }

    fn command(&self, command: Command) -> String {
        match page_action(command) {
            Some(action) => action.into(),
            None => {
                self.inbox.borrow_mut().push(Input::Command(command));
                String::new()
            }
        }
    }

    /// Changes a setting before the next frame: `name` as the panel's controls are named
    /// (`algorithm`, `key`, `descending`, `angle`, `pass_kind`, `phases_per_step`,
    /// `digit_bits`, `scope`, `sub_steps`, `intervals`, `threshold`, `speed`, `compare`).
    pub fn set(&self, name: &str, value: &str) -> Result<(), JsError> {
        let input = settings::parse(name, value).map_err(|e| JsError::new(&e))?;
        self.inbox.borrow_mut().push(input);
        Ok(())
    }

    /// Sorts a picture file opened or dropped on the page (any format the program reads),
    /// downscaled to the GPU's texture limit if it is larger. Returns a note for the page, or
    /// "" when there is nothing to say; fails with the program's one-line message.
    pub fn open_file(&self, name: &str, bytes: &[u8]) -> Result<String, JsError> {
        let picture =
            Picture::decode_file(bytes, Path::new(name)).map_err(|e| JsError::new(&e.to_string()))?;
        let depth_note = picture.note.clone();
        let max_side = self
            .state
            .read(|s| s.gpu().device.limits().max_texture_dimension_2d)
            .ok_or_else(|| JsError::new("the viewer is busy with another call"))?;
        let (picture, notice) =
            picture.fit(&SizeLimit::new(max_side, None, true)).map_err(|e| JsError::new(&e.to_string()))?;
        self.inbox.borrow_mut().push(Input::Picture(picture));
        Ok([depth_note, notice].into_iter().flatten().collect::<Vec<_>>().join("; "))
    }

    /// Sorts the built-in photograph again.
    pub fn use_built_in(&self) {
        self.inbox.borrow_mut().push(Input::Picture(Picture::built_in()));
    }

    /// Sorts the seeded noise picture the tests use (`shadersort::picture::patterns::random_image`).
    pub fn use_random_picture(&self, width: u32, height: u32, seed: u32) {
        let pixels = shadersort::picture::patterns::random_image(width, height, u64::from(seed));
        let picture = Picture {
            pixels,
            name: format!("noise-{seed}"),
            label: "noise".into(),
            has_alpha: false,
            note: None,
        };
        self.inbox.borrow_mut().push(Input::Picture(picture));
    }

    /// Applies what was queued, then runs one frame `seconds` after the last (see
    /// [`State::frame`]); resolves to whether a picture changed.
    pub fn frame(&self, seconds: f64) -> Promise {
        let (state, inbox) = (self.state.clone(), self.inbox.clone());
        future_to_promise(async move {
            let mut taken = state.take()?;
            let inputs = std::mem::take(&mut *inbox.borrow_mut());
            for input in inputs {
                taken.apply(input);
            }
            let changed = taken.frame(seconds).await;
            state.put(taken);
            Ok(changed.map_err(|e| JsError::new(&e.to_string()))?.into())
        })
    }

    /// Whether a frame still has work: changes queued, the lanes to start again, or steps the
    /// player is due to run.
    pub fn busy(&self) -> bool {
        !self.inbox.borrow().is_empty() || self.state.read(State::busy).unwrap_or(true)
    }

    /// Lanes shown.
    pub fn lane_count(&self) -> usize {
        self.state.read(|s| s.lanes.lanes.len()).unwrap_or(0)
    }

    /// Lane `i`'s label: "Odd-even transposition (compute) · pass 12 of 600".
    pub fn lane_label(&self, i: usize) -> String {
        self.state
            .read(|state| {
                let lane = state.lanes.lanes.get(i)?;
                let step = lane.algorithm.step_name(&lane.settings);
                Some(format!(
                    "{} · {step} {} of {}",
                    lane.label(),
                    lane.run.steps_done(),
                    lane.run.total_steps()
                ))
            })
            .flatten()
            .unwrap_or_default()
    }

    /// Lane `i`'s state as last read back from the GPU.
    pub fn lane_picture(&self, i: usize) -> Option<WebPicture> {
        self.state.read(|s| s.lane_picture(i).map(|p| p.clone().into())).flatten()
    }

    /// Steps done by the lanes (the most of any lane).
    pub fn steps_done(&self) -> u32 {
        self.state.read(|s| shadersort::controls::player::Stepper::steps_done(&s.lanes)).unwrap_or(0)
    }

    /// The status line: step k of n, swaps, sorted, play state.
    pub fn status(&self) -> String {
        self.state.read(State::status).unwrap_or_default()
    }

    /// Two or three sentences on what the algorithm does, with the current numbers.
    pub fn explanation(&self) -> String {
        self.state.read(State::explanation).unwrap_or_default()
    }

    /// The settings in force, `name=value` per line (the panel's controls follow them).
    pub fn settings(&self) -> String {
        self.state.read(State::settings_text).unwrap_or_default()
    }

    /// The last error or notice, taken (so it is shown once).
    pub fn take_message(&self) -> String {
        self.state.0.borrow_mut().as_mut().map(|s| std::mem::take(&mut s.message)).unwrap_or_default()
    }

    /// `coffee-odd-even-luma`: what saved files are named after.
    pub fn file_stem(&self) -> String {
        self.state.read(|s| export::gif_name(s).trim_end_matches(".gif").to_string()).unwrap_or_default()
    }

    /// Records the current picture with the chosen algorithm and settings as a GIF of at most
    /// `max_frames` frames; `progress(frames, most)` hears each frame and may return `false` to
    /// cancel. Resolves to `{bytes, name, frames}`.
    pub fn record_gif(&self, max_frames: u32, fps: u32, progress: Function) -> Promise {
        let state = self.state.clone();
        future_to_promise(async move {
            let taken = state.take()?;
            let report = export::record(&taken, max_frames, fps, |done, most| {
                progress
                    .call2(&JsValue::NULL, &done.into(), &most.into())
                    .map_or(true, |v| v.as_bool() != Some(false))
            })
            .await;
            let name = export::gif_name(&taken);
            state.put(taken);
            let report = report.map_err(|e| JsError::new(&e.to_string()))?;
            let out = Object::new();
            let bytes = js_sys::Uint8Array::from(report.bytes.as_slice());
            Reflect::set(&out, &"bytes".into(), &bytes)?;
            Reflect::set(&out, &"name".into(), &name.into())?;
            Reflect::set(&out, &"frames".into(), &report.frames.into())?;
            Ok(out.into())
        })
    }

    /// The test hook's sort: a seeded noise picture sorted to the end with the sort `spec`
    /// names (see [`settings::Job`]), read back from the GPU, as hex. The page's own lanes are
    /// not touched.
    #[allow(
        clippy::too_many_arguments,
        reason = "an export to JavaScript takes plain values, one argument each"
    )]
    pub fn sort_picture(
        &self,
        spec: String,
        key: String,
        descending: bool,
        columns: bool,
        width: u32,
        height: u32,
        seed: u32,
    ) -> Promise {
        let state = self.state.clone();
        future_to_promise(async move {
            let job = settings::Job::parse(&spec, &key, descending, columns).map_err(|e| JsError::new(&e))?;
            let picture = shadersort::picture::patterns::random_image(width, height, u64::from(seed));
            let taken = state.take()?;
            let sorted = sort_to_end(&taken, &job, &picture).await;
            state.put(taken);
            Ok(hex(sorted.map_err(|e| JsError::new(&e.to_string()))?.as_raw()).into())
        })
    }
}

/// `picture` sorted to the end as `job` says, read back from the GPU.
async fn sort_to_end(
    state: &State,
    job: &settings::Job,
    picture: &image::RgbaImage,
) -> Result<image::RgbaImage, shadersort::gpu::GpuError> {
    let gpu = state.gpu();
    let request = StartRequest::new(picture, job.options).settings(job.settings);
    let mut run = state
        .pipelines(job.algorithm)
        .start(gpu, request)
        .map_err(|e| shadersort::gpu::GpuError::Device(e.to_string()))?;
    let total = run.total_steps();
    run_until_async(gpu, run.as_mut(), total, |_| true).await?;
    read_texture_async(gpu, run.state()).await
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
