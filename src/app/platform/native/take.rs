//! A take's frames written on a thread of their own, so that compressing them never holds up
//! the window: frames go over a short queue, and one that finds it full is left out of the take
//! (the frame before it then lasts until the next), never queued without bound.

use crate::app::platform::TakeSink;
use crate::record::take::{NO_FRAME, Take, Taken, take_to_file};
use crate::record::{RecordFormat, RecordTarget};
use crate::settings::RecordSettings;
use image::RgbaImage;
use std::path::Path;
use std::sync::mpsc::{Receiver, SyncSender, TryRecvError, TrySendError, channel, sync_channel};
use std::time::Duration;

/// Frames waiting for the writer.
const QUEUE: usize = 2;

/// What the writer is sent.
enum Message {
    Frame(RgbaImage, Duration),
    End(Duration),
}

/// The writer of a take under way.
pub(in crate::app) struct TakeWriter {
    frames: Option<SyncSender<Message>>,
    result: Receiver<Result<Taken, String>>,
    /// Frames the queue had no room for.
    left_out: u64,
}

impl TakeSink for TakeWriter {
    /// Starts writing a take into `path` in `gifs/` (checked, nothing written yet; the path's
    /// extension says the format).
    fn start(path: &Path, _format: RecordFormat, settings: RecordSettings) -> Result<TakeWriter, String> {
        std::fs::create_dir_all("gifs").map_err(|e| format!("cannot create the folder gifs: {e}"))?;
        let target = RecordTarget::prepare(path).map_err(|e| e.to_string())?;
        let (frames, queue) = sync_channel(QUEUE);
        let (done, result) = channel();
        let spawned = std::thread::Builder::new().name("take-writer".into()).spawn(move || {
            let _ = done.send(write(target, &settings, &queue));
        });
        spawned.map_err(|e| format!("cannot start the recording: {e}"))?;
        Ok(TakeWriter { frames: Some(frames), result, left_out: 0 })
    }

    /// Hands over the next frame, shown at `at`, unless the writer is behind.
    fn push(&mut self, frame: RgbaImage, at: Duration) {
        let Some(frames) = &self.frames else { return };
        match frames.try_send(Message::Frame(frame, at)) {
            Ok(()) => {}
            Err(TrySendError::Full(_)) => self.left_out += 1,
            // The writer stopped on an error, which `finished` reports.
            Err(TrySendError::Disconnected(_)) => self.frames = None,
        }
    }

    /// Ends the take at `at`: the writer finishes it in the background.
    fn end(&mut self, at: Duration) {
        if let Some(frames) = self.frames.take() {
            let _ = frames.send(Message::End(at));
        }
    }

    /// The take, once the writer has put it in place (or failed).
    fn finished(&mut self) -> Option<Result<Taken, String>> {
        match self.result.try_recv() {
            Ok(outcome) => Some(outcome),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Err("the recording thread stopped unexpectedly".into())),
        }
    }

    /// Ends the take and waits until it is in place (the window is closing).
    fn end_and_wait(mut self, at: Duration) -> Option<Result<Taken, String>> {
        self.end(at);
        self.result.recv_timeout(Duration::from_secs(60)).ok()
    }

    fn left_out(&self) -> u64 {
        self.left_out
    }
}

/// Writes the frames that come until the end; the take begins with the first.
fn write(
    target: RecordTarget,
    settings: &RecordSettings,
    queue: &Receiver<Message>,
) -> Result<Taken, String> {
    let mut target = Some(target);
    let mut take: Option<Box<dyn Take + Send>> = None;
    for message in queue {
        match (message, &mut take) {
            (Message::Frame(frame, at), Some(take)) => take.push(&frame, at).map_err(|e| e.to_string())?,
            (Message::Frame(frame, at), None) => {
                let target = target.take().expect("the target is used once");
                take = Some(take_to_file(target, &frame, at, settings).map_err(|e| e.to_string())?);
            }
            (Message::End(at), take) => {
                return match take.take() {
                    Some(take) => take.finish(at).map_err(|e| e.to_string()),
                    None => Err(NO_FRAME.into()),
                };
            }
        }
    }
    Err("the recording was dropped before its end".into())
}
