//! GIF export in the page: the core's recorder ([`record_gif_in_memory`]) runs the chosen
//! algorithm with the page's settings, lines and intervals, and hands back the file's bytes for a
//! download.

use crate::state::State;
use shadersort::algorithms::request::StartRequest;
use shadersort::controls::lane_plan::start_lane;
use shadersort::record::in_memory::{GifInMemory, record_gif_in_memory};
use shadersort::record::{RecordError, RecordSettings};

/// Records what the page shows (the chosen algorithm, not side by side) as a GIF of at most
/// `max_frames` frames at `fps` frames per second. `progress` hears (frames, most frames).
pub async fn record(
    state: &State,
    max_frames: u32,
    fps: u32,
    progress: impl FnMut(u32, u32) -> bool,
) -> Result<GifInMemory, RecordError> {
    let run_settings = state.settings.for_recording(state.algorithm);
    let settings = RecordSettings {
        max_frames: Some(max_frames.max(2)),
        fps: fps.clamp(1, 50),
        dimmed_twins: run_settings.radix.twin_indices,
        ..RecordSettings::default()
    };
    // What the page shows: its lines and intervals, or what the algorithm can sort instead.
    let pipelines = state.pipelines(state.algorithm);
    let gpu = state.gpu();
    let start = |indexed: &image::RgbaImage| {
        let request = StartRequest::new(indexed, state.options)
            .settings(run_settings)
            .within(state.interval_map.as_ref());
        start_lane(gpu, pipelines, state.scatter(), &state.lines, state.algorithm, request).run
    };
    record_gif_in_memory(gpu, &state.picture.pixels, start, &settings, &gif_name(state), progress).await
}

/// `coffee-odd-even-luma.gif`: the picture, the algorithm and the key, as the window names it.
pub fn gif_name(state: &State) -> String {
    format!("{}-{}-{}.gif", state.picture.name, state.algorithm.name(), state.options.key.name())
}
