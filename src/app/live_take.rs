//! G with a live source: a take of the frames shown, each once it is sorted to the end, read
//! back without the frame waiting and recorded in the panel's format, each frame lasting as
//! long as it showed, until G again, the frame limit or the source's end: natively into `gifs/`
//! by a writer on a thread of its own, in the page as a download.

use super::Running;
use super::panel_model::Status;
use super::platform::{TakeSink, TakeWriter};
use super::texture_reads::TextureReads;
use crate::gpu::Gpu;
use crate::record::take::{TakeOutput, Taken};
use crate::record::{DEFAULT_FRAME_LIMIT, RecordFormat};
use crate::settings::RecordSettings;
use std::path::PathBuf;
use web_time::{Duration, Instant};

/// A take under way.
pub(super) struct LiveTake {
    /// Where it goes (in the page, the download's name).
    path: PathBuf,
    reads: TextureReads<Duration>,
    writer: TakeWriter,
    started: Instant,
    /// The frame captured last, by the live source's count of frames shown.
    last_captured: Option<u64>,
    /// Frames captured so far, and the most.
    captured: u64,
    limit: u64,
    /// When the take ended, once it has; the writer ends it once the copies are in.
    ended: Option<Duration>,
    /// Whether the writer was told.
    told: bool,
}

impl LiveTake {
    /// Starts a take into `path` in `format`, as `settings` say (their frame limit, or the
    /// default one).
    fn start(path: PathBuf, format: RecordFormat, settings: RecordSettings) -> Result<LiveTake, String> {
        let limit = u64::from(settings.max_frames.unwrap_or(DEFAULT_FRAME_LIMIT));
        let writer = TakeWriter::start(&path, format, settings)?;
        Ok(LiveTake {
            path,
            reads: TextureReads::default(),
            writer,
            started: Instant::now(),
            last_captured: None,
            captured: 0,
            limit,
            ended: None,
            told: false,
        })
    }

    /// Copies `state`, the live source's frame number `shown` (shown at `shown_at`, sorted to
    /// the end), unless the take has ended or has it already; at the frame limit it ends, and
    /// says why.
    fn capture(&mut self, gpu: &Gpu, state: &wgpu::Texture, shown: u64, shown_at: Instant) -> Option<String> {
        if self.ended.is_some() || self.last_captured == Some(shown) {
            return None;
        }
        self.reads.encode(gpu, state, shown_at.saturating_duration_since(self.started));
        self.last_captured = Some(shown);
        self.captured += 1;
        (self.captured >= self.limit)
            .then(|| format!("the recording reached its limit of {} frames", self.limit))
    }

    /// Ends the take (once); whether it was under way.
    fn end(&mut self) -> bool {
        if self.ended.is_some() {
            return false;
        }
        self.ended = Some(self.started.elapsed());
        true
    }

    /// Hands the frames whose copies came back to the writer and ends the take once every copy
    /// is in; the outcome once it is written (and the frames the writer left out).
    fn write(&mut self, gpu: &Gpu, status: &mut Status) -> Option<(Result<Taken, String>, u64)> {
        let writer = &mut self.writer;
        if let Err(e) = self.reads.take(gpu, |at, frame| writer.push(frame, at)) {
            self.ended.get_or_insert(self.started.elapsed());
            status.error(format!("the recording lost a frame: {e}"));
        }
        if let Some(at) = self.ended.filter(|_| !self.reads.pending() && !self.told) {
            self.writer.end(at);
            self.told = true;
        }
        let outcome = self.writer.finished()?;
        Some((outcome, self.writer.left_out()))
    }

    /// Ends the take and waits for it to be written (the window is closing).
    fn finish_now(self) {
        let at = self.ended.unwrap_or_else(|| self.started.elapsed());
        if let Some(Err(e)) = self.writer.end_and_wait(at) {
            log::error!("{e}");
        }
    }
}

impl Running {
    /// G while a live source is shown: starts a take of its frames, or ends the one under way.
    pub(super) fn toggle_take(&mut self) {
        match &self.take {
            Some(take) if take.ended.is_none() => self.end_take(None),
            Some(_) => self.ui.status.say("the recording is being finished"),
            None => {
                let format = self.ui.record_format;
                let path =
                    super::window_recording::recording_path(&format!("{}-live", self.file_stem()), format);
                match LiveTake::start(path, format, self.record_settings.clone()) {
                    Ok(take) => self.take = Some(take),
                    Err(e) => return self.ui.status.error(e),
                }
                self.capture_take_frame();
                self.ui.status.say("recording the live frames as they are shown; G stops");
            }
        }
    }

    /// Copies the live frame shown for the take, once it is sorted to the end: called as the
    /// next frame replaces it, as the take starts and as it ends.
    pub(super) fn capture_take_frame(&mut self) {
        let (Some(take), Some(live)) = (self.take.as_mut(), self.source.live()) else { return };
        let Some(lane) = self.session.lanes.lanes.first() else { return };
        if lane.run.steps_done() < lane.run.total_steps() {
            return;
        }
        if let Some(why) = take.capture(&self.gpu, lane.run.state(), live.shown, live.shown_at) {
            self.end_take(Some(why));
        }
    }

    /// Ends the take under way (the frame shown is its last, if sorted); `why` when it was not
    /// the user who ended it.
    pub(super) fn end_take(&mut self, why: Option<String>) {
        self.capture_take_frame();
        if self.take.as_mut().is_some_and(LiveTake::end) {
            let line = why.map_or_else(
                || "finishing the recording …".to_string(),
                |why| format!("{why}; finishing it …"),
            );
            self.ui.status.say(line);
        }
    }

    /// Writes what the take's copies brought back, and says where it went once it is written.
    pub(super) fn write_take(&mut self) {
        let Some(take) = self.take.as_mut() else { return };
        let Some((outcome, left_out)) = take.write(&self.gpu, &mut self.ui.status) else { return };
        self.take = None;
        match outcome {
            Ok(taken) => self.ui.status.say(described(&taken, left_out)),
            Err(e) => self.ui.status.error(e),
        }
    }

    /// Ends a take under way and waits for it to be written (the window is closing).
    pub(super) fn finish_take_now(&mut self) {
        if let Some(take) = self.take.take() {
            take.finish_now();
        }
    }

    /// What the panel shows of the take under way.
    pub(super) fn take_view(&self) -> Option<(u64, u64, String)> {
        let take = self.take.as_ref()?;
        Some((take.captured, take.writer.left_out(), take.path.display().to_string()))
    }
}

/// What the status says of a take written: its frames, format, size and place.
fn described(taken: &Taken, left_out: u64) -> String {
    let frames = taken.frames;
    let format = taken.format.describe();
    let left =
        if left_out > 0 { format!(" ({left_out} left out: the writer was behind)") } else { String::new() };
    match &taken.output {
        TakeOutput::File(path, bytes) => {
            format!("recorded {frames} live frames{left} ({format}), {bytes} bytes: {}", path.display())
        }
        TakeOutput::Memory(bytes) => {
            format!("recorded {frames} live frames ({format}), {} bytes: downloaded", bytes.len())
        }
    }
}
