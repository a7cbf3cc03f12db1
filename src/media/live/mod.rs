//! Live sources (`--live URL`, `--camera`): a stream or camera read through ffmpeg and sorted as
//! it comes, through the clip pipeline, into `--out`. The sort never falls behind: one frame
//! waits at most, a newer one replaces it, and a frame dropped so is the frame before it again in
//! the output, which keeps the source's time (and its audio). It ends at `--duration`, on Ctrl-C
//! or when the source ends or stops sending; the output is whole in every case.

mod audio;
pub mod decoder;
pub mod error;
pub mod frames;
pub mod input;
mod report;
pub mod slot;

use super::ClipWatch;
use super::feed::{Arrived, Feed, FrameTag};
use super::ffmpeg::Ffmpeg;
use super::pipeline::{self, Incoming};
use super::sink::{ClipSink, ClipTarget, EncodeSpec};
use crate::intervals::Mask;
use crate::media::Sorter;
use crate::picture::input::SizeLimit;
use crate::settings::{LiveInput, Settings};
use decoder::{LiveDecoder, LiveEnd, LiveStart, Slot};
pub use error::LiveError;
pub use report::LiveReport;
use slot::Taken;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

/// How long a source may take to send its first frame.
const OPEN_WAIT: Duration = Duration::from_secs(10);
/// How long a source may pause before it counts as stopped.
const STALL: Duration = Duration::from_secs(5);

/// The source as messages name it.
pub fn label(input: &LiveInput) -> String {
    match input {
        LiveInput::Url(url) => format!("'{url}'"),
        LiveInput::Camera(Some(device)) => format!("the camera '{device}'"),
        LiveInput::Camera(None) if cfg!(target_os = "linux") => "the default camera '/dev/video0'".into(),
        LiveInput::Camera(None) => "the default camera".into(),
    }
}

/// Why the sort stopped taking frames, when the source did not end by itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    /// A signal (Ctrl-C) or the window's cancel.
    Asked(i32),
    /// No frame came for [`STALL`].
    Stalled,
}

/// The slot's frames for the pipeline's workers, ending on a signal or a stall.
struct LiveFeed {
    slot: Arc<Slot>,
    cancel: Arc<AtomicBool>,
    last_frame: Mutex<Instant>,
    stop: Mutex<Option<Stop>>,
}

impl LiveFeed {
    fn stop(&self, why: Stop) {
        self.stop.lock().unwrap_or_else(|p| p.into_inner()).get_or_insert(why);
        self.slot.stop();
    }
}

impl Feed for LiveFeed {
    fn next(&self) -> Option<(usize, Arrived)> {
        loop {
            if let Err(signal) = crate::interrupt::check() {
                self.stop(Stop::Asked(signal.signal));
            } else if self.cancel.load(Ordering::Relaxed) {
                self.stop(Stop::Asked(0));
            }
            match self.slot.take(Duration::from_millis(100)) {
                Taken::Frame { order, arrival, frame: (at, frame) } => {
                    *self.last_frame.lock().unwrap_or_else(|p| p.into_inner()) = Instant::now();
                    return Some((order, Arrived { tag: FrameTag { arrival, at }, frame: Ok(frame) }));
                }
                Taken::Ended => return None,
                Taken::Nothing => {
                    let last = *self.last_frame.lock().unwrap_or_else(|p| p.into_inner());
                    if last.elapsed() > STALL {
                        self.stop(Stop::Stalled);
                    }
                }
            }
        }
    }
}

/// Records `input` sorted into `--out`: the closing line, and the problem that ended it early.
pub fn record(
    settings: &Settings,
    input: &LiveInput,
    watch: &ClipWatch,
) -> anyhow::Result<(LiveReport, Option<LiveError>)> {
    let label = label(input);
    let out = settings.out.as_deref().expect("checked: a live source records into --out");
    let target = ClipTarget::prepare(out)?;
    let need = || format!("cannot read {label}: live sources are read through ffmpeg");
    let ffmpeg = Ffmpeg::find(settings.video.ffmpeg.as_deref(), need)?;
    let mask = settings.mask.as_deref().map(Mask::load).transpose()?;
    let gpu = crate::gpu::Gpu::headless()?;
    let device_side = gpu.device.limits().max_texture_dimension_2d;
    let limit = SizeLimit::new(device_side, settings.max_size, !settings.no_downscale);
    // A stream's audio is copied beside; a camera's video input carries none.
    let camera = input::is_camera(input);
    let capture = match &target {
        ClipTarget::Video(_) if !camera => Some(audio::CaptureFile::beside(out)?),
        _ => None,
    };
    let slot = Arc::new(Slot::default());
    let (spares_in, spares) = mpsc::channel();
    let start = LiveStart {
        input,
        limit: &limit,
        duration: settings.video.duration,
        capture: capture.as_ref().map(audio::CaptureFile::path),
        open_wait: OPEN_WAIT,
    };
    let decoder = LiveDecoder::start(&ffmpeg, start, slot.clone(), spares)?;
    let source_size = (decoder.info.width, decoder.info.height);
    // ffmpeg scaled the frames already; this says so (or refuses, with --no-downscale).
    if let (_, Some(note)) = super::fit(source_size, &label, &limit)? {
        eprintln!("{note}");
    }
    let size = decoder.size;
    if let Some(mask) = &mask {
        mask.check_size(&label, source_size)?;
    }
    let mask = mask.map(|m| if m.dimensions() == size { m } else { m.resized(size.0, size.1) });
    let info = super::probe::ClipInfo {
        width: size.0,
        height: size.1,
        frames: 0,
        yuv420: None,
        ..decoder.info.clone()
    };
    let video_args = match &target {
        ClipTarget::Video(file) => {
            let (args, note) =
                super::encoding::video_args(file.path(), &settings.video.encode, size, info.has_alpha())?;
            let why = format!("a .{} output needs", super::encoding::extension(out));
            ffmpeg.check_encoders(&args, out, &why)?;
            if let Some(note) = note {
                eprintln!("{note}");
            }
            args
        }
        _ => Vec::new(),
    };
    let lines = crate::angle::Lines::of(settings.route(), size, device_side)?;
    let engine = crate::engine::Engine::new(std::sync::Arc::new(gpu));
    let gpu = engine.gpu();
    // Every frame starts a run of the same size: each takes the buffers of the runs before.
    gpu.keep_spares(true);
    let (sorter, end_note) = Sorter::for_frames(&engine, settings, lines, size);
    if let Some(note) = end_note {
        eprintln!("{note}");
    }
    let spec = EncodeSpec {
        size,
        rate: info.rate,
        video_args,
        audio: None,
        has_alpha: info.has_alpha(),
        yuv420: None,
    };
    let sink = ClipSink::start(target, Some(&ffmpeg), spec)?;
    let feed = Arc::new(LiveFeed {
        slot: slot.clone(),
        cancel: watch.cancel.clone(),
        last_frame: Mutex::new(Instant::now()),
        stop: Mutex::new(None),
    });
    let incoming = (Incoming::Live(feed.clone()), spares_in);
    let (path, frames) =
        pipeline::pipeline(&sorter, settings, &info, mask.as_ref(), incoming, (sink, None), watch)?;
    decoder.finish();
    let counts = slot.counts();
    let stop = *feed.stop.lock().unwrap_or_else(|p| p.into_inner());
    let end = slot.take_end();
    let audio = match (&capture, &info.audio) {
        (Some(capture), Some(codec)) if frames > 0 => audio::mux(&ffmpeg, &path, capture.path(), codec)
            .unwrap_or_else(|e| {
                eprintln!("note: {e}; '{}' holds the sorted video without it", path.display());
                "audio not kept"
            }),
        (None, _) if camera => "no audio (the camera input carries none)",
        _ => "no audio",
    };
    gpu.save_pipeline_cache();
    let seconds = counts.received as f64 / info.rate.fps();
    let stopped = |how: String| LiveError::Stopped {
        label: label.clone(),
        how,
        seconds,
        frames,
        length: frames as f64 / info.rate.fps(),
        path: path.clone(),
    };
    let (ended, problem) = match (stop, end) {
        (Some(Stop::Asked(0)), _) => ("stopped", None),
        (Some(Stop::Asked(_)), _) => ("ended by a signal (Ctrl-C)", None),
        (Some(Stop::Stalled), _) => ("the source stopped sending", Some(stopped("stopped sending".into()))),
        (None, Some(LiveEnd::Failed(detail))) => {
            ("the source broke off", Some(stopped(format!("broke off (ffmpeg says: {detail})"))))
        }
        (None, _) if settings.video.duration.is_some() => ("--duration reached", None),
        (None, _) => ("the source ended", None),
    };
    let report = LiveReport {
        path,
        label,
        frames,
        received: counts.received,
        sorted: watch.done.load(Ordering::Relaxed),
        dropped: counts.dropped,
        size,
        rate: info.rate,
        algorithm: settings.algorithm.name(),
        latency: watch.latency.summary(),
        adapter: gpu.describe(),
        audio,
        ended,
    };
    Ok((report, problem))
}
