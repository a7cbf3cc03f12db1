//! G with a live source: a take of the frames shown, each once it is sorted to the end, read
//! back without the frame waiting and recorded in the panel's format, each frame lasting as
//! long as it showed, until G again, the frame limit or the source's end: natively into `gifs/`
//! by a writer on a thread of its own, in the page as a download.

use super::Running;
use super::platform::{TakeSink, TakeWriter};
use super::texture_reads::TextureReads;
use crate::record::DEFAULT_FRAME_LIMIT;
use crate::record::take::{TakeOutput, Taken};
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

impl Running {
    /// G while a live source is shown: starts a take of its frames, or ends the one under way.
    pub(super) fn toggle_take(&mut self) {
        match &self.take {
            Some(take) if take.ended.is_none() => self.end_take(None),
            Some(_) => self.ui.say("the recording is being finished"),
            None => self.start_take(),
        }
    }

    fn start_take(&mut self) {
        let format = self.ui.record_format;
        let path = super::window_recording::recording_path(&format!("{}-live", self.file_stem()), format);
        let settings = self.record_settings.clone();
        let limit = u64::from(settings.max_frames.unwrap_or(DEFAULT_FRAME_LIMIT));
        let writer = TakeWriter::start(&path, format, settings);
        let writer = match writer {
            Ok(writer) => writer,
            Err(e) => return self.ui.error(e),
        };
        let reads = TextureReads::default();
        let started = Instant::now();
        self.take = Some(LiveTake {
            path,
            reads,
            writer,
            started,
            last_captured: None,
            captured: 0,
            limit,
            ended: None,
            told: false,
        });
        self.capture_take_frame();
        self.ui.say("recording the live frames as they are shown; G stops");
    }

    /// Copies the live frame shown for the take, once it is sorted to the end (and not copied
    /// already): called as the next frame replaces it, as the take starts and as it ends.
    pub(super) fn capture_take_frame(&mut self) {
        let (Some(take), Some(live)) = (self.take.as_mut(), self.source.live()) else { return };
        let Some(lane) = self.session.lanes.lanes.first() else { return };
        let sorted = lane.run.steps_done() == lane.run.total_steps();
        if take.ended.is_some() || !sorted || take.last_captured == Some(live.shown) {
            return;
        }
        let at = live.shown_at.saturating_duration_since(take.started);
        take.reads.encode(&self.gpu, lane.run.state(), at);
        take.last_captured = Some(live.shown);
        take.captured += 1;
        if take.captured >= take.limit {
            let limit = take.limit;
            self.end_take(Some(format!("the recording reached its limit of {limit} frames")));
        }
    }

    /// Ends the take under way (the frame shown is its last, if sorted); `why` when it was not
    /// the user who ended it.
    pub(super) fn end_take(&mut self, why: Option<String>) {
        self.capture_take_frame();
        let Some(take) = self.take.as_mut().filter(|t| t.ended.is_none()) else { return };
        take.ended = Some(take.started.elapsed());
        let line = why
            .map_or_else(|| "finishing the recording …".to_string(), |why| format!("{why}; finishing it …"));
        self.ui.say(line);
    }

    /// Hands the frames whose copies came back to the writer, ends the take once every copy is
    /// in, and says where it went once it is written.
    pub(super) fn write_take(&mut self) {
        let Some(take) = self.take.as_mut() else { return };
        let writer = &mut take.writer;
        if let Err(e) = take.reads.take(&self.gpu, |at, frame| writer.push(frame, at)) {
            take.ended.get_or_insert(take.started.elapsed());
            self.ui.error(format!("the recording lost a frame: {e}"));
        }
        if let Some(at) = take.ended.filter(|_| !take.reads.pending() && !take.told) {
            take.writer.end(at);
            take.told = true;
        }
        let Some(outcome) = take.writer.finished() else { return };
        let left_out = take.writer.left_out();
        self.take = None;
        match outcome {
            Ok(taken) => self.ui.say(described(&taken, left_out)),
            Err(e) => self.ui.error(e),
        }
    }

    /// Ends a take under way and waits for it to be written (the window is closing).
    pub(super) fn finish_take_now(&mut self) {
        let Some(take) = self.take.take() else { return };
        let at = take.ended.unwrap_or_else(|| take.started.elapsed());
        if let Some(Err(e)) = take.writer.end_and_wait(at) {
            log::error!("{e}");
        }
    }

    /// What the panel shows of the take under way.
    pub(super) fn take_view(&self) -> Option<(u64, u64, String)> {
        let take = self.take.as_ref()?;
        Some((take.captured, take.writer.left_out(), take.path.display().to_string()))
    }

    /// Whether a take is under way (the window keeps drawing until it is written).
    pub(super) fn taking(&self) -> bool {
        self.take.is_some()
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
