//! Clips in and out, below the front ends: a video (read through ffmpeg), an animated GIF or a
//! folder of frames is decoded frame by frame, every frame is sorted on the GPU with the
//! settings a picture takes, and the sorted frames are encoded into a video (through ffmpeg) or
//! written as PNG frames. Decoding, finding each frame's intervals (on several threads: on the
//! CPU it takes longer than the GPU's sort), sorting and encoding overlap, with a few frames
//! queued between the stages, so memory does not grow with the clip. Live sources are in
//! [`live`]; the command line's kit for every still and frame is [`Sorter`].

pub mod batch;
pub mod encoding;
pub mod error;
pub mod feed;
pub mod ffmpeg;
pub mod ffmpeg_build;
pub mod frame_files;
mod gpu_start;
pub mod live;
mod pipeline;
pub mod playback;
mod prepare;
pub mod probe;
pub mod recording;
mod report;
pub mod sink;
pub mod sorter;
pub mod source;
pub mod stages;

use crate::interrupt;
use crate::intervals::Mask;
use crate::picture::input::{InputError, SizeLimit};
use crate::settings::Rate;
use crate::settings::Settings;
pub use error::ClipError;
use ffmpeg::Ffmpeg;
use frame_files::FrameFiles;
use probe::ClipInfo;
pub use report::ClipReport;
use sink::{ClipSink, ClipTarget, EncodeSpec};
pub use sorter::Sorter;
use source::{Decoder, FrameSource, PipeFormat};
use stages::StageClock;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Instant;

pub use crate::picture::input::VIDEO_EXTENSIONS;

/// Whether `path` is a clip rather than a picture: a folder or pattern of frames, a file with a
/// video extension, or an animated GIF (more than one frame).
pub fn is_clip(path: &Path) -> bool {
    if frame_files::is_frame_files(path) {
        return true;
    }
    match encoding::extension(path).as_str() {
        "gif" => is_animated_gif(path),
        ext => VIDEO_EXTENSIONS.contains(&ext),
    }
}

fn is_animated_gif(path: &Path) -> bool {
    use image::AnimationDecoder;
    let Ok(file) = std::fs::File::open(path) else { return false };
    let Ok(decoder) = image::codecs::gif::GifDecoder::new(std::io::BufReader::new(file)) else {
        return false;
    };
    decoder.into_frames().take(2).filter(Result::is_ok).count() == 2
}

/// A clip opened: where its frames come from and what they are.
struct OpenClip {
    info: ClipInfo,
    files: Option<FrameFiles>,
}

/// Opens the clip at `input`: picture files play at `frame_rate`, a video at its own.
fn open_clip(input: &Path, frame_rate: Rate, ffmpeg: Option<&Ffmpeg>) -> Result<OpenClip, ClipError> {
    if frame_files::is_frame_files(input) {
        let files = FrameFiles::open(input)?;
        let (width, height) = files.size();
        let info = ClipInfo {
            width,
            height,
            rate: frame_rate,
            frames: files.len(),
            pixel_format: if files.has_alpha() { "rgba" } else { "rgb24" }.into(),
            audio: None,
            yuv420: None,
        };
        return Ok(OpenClip { info, files: Some(files) });
    }
    if !input.exists() {
        return Err(InputError::Missing(input.into()).into());
    }
    let ffmpeg = ffmpeg.expect("a video input finds ffmpeg first");
    Ok(OpenClip { info: probe::probe(ffmpeg, input)?, files: None })
}

/// Who follows a clip's sort besides the terminal: the window's progress bar and its cancel
/// button. A signal (Ctrl-C, SIGTERM, SIGHUP) ends the sort either way.
#[derive(Clone, Debug, Default)]
pub struct ClipWatch {
    /// Set to stop the sort; it then leaves nothing, as a signal does.
    pub cancel: Arc<AtomicBool>,
    /// Frames sorted so far.
    pub done: Arc<AtomicU64>,
    /// Frames in the clip, once known.
    pub total: Arc<AtomicU64>,
    /// No progress bar or lines on stderr.
    pub quiet: bool,
    /// How long each stage of the pipeline was busy.
    pub stages: Arc<StageClock>,
    /// How long frames took from arriving to being read back sorted.
    pub latency: Arc<crate::picture::latency::Latencies>,
    /// A signal ends the input (a live source) and the output is finished, rather than the
    /// run stopping and leaving nothing.
    pub signals_end_input: bool,
    /// Every compute pass is timed on the GPU (`bench video --passes`), into the report.
    pub time_passes: bool,
}

impl ClipWatch {
    /// Fails once a signal has come or the sort was cancelled.
    fn check(&self) -> Result<(), interrupt::Interrupted> {
        if !self.signals_end_input {
            interrupt::check()?;
        }
        match self.cancel.load(Ordering::Relaxed) {
            true => Err(interrupt::Interrupted { signal: 0 }),
            false => Ok(()),
        }
    }
}

/// Sorts every frame of the clip at `input` into `--out`, or with `discard` into nowhere (for
/// `bench video`).
pub fn sort_clip(settings: &Settings, input: &Path, discard: bool) -> anyhow::Result<ClipReport> {
    sort_clip_watched(settings, input, discard, &ClipWatch::default())
}

/// [`sort_clip`], followed by `watch`.
pub fn sort_clip_watched(
    settings: &Settings,
    input: &Path,
    discard: bool,
    watch: &ClipWatch,
) -> anyhow::Result<ClipReport> {
    sort_clip_with(settings, input, discard, watch, None)
}

/// [`sort_clip_watched`] on an engine already open (a batch's clips), into `--out`.
pub fn sort_clip_on(
    engine: &crate::engine::Engine,
    settings: &Settings,
    input: &Path,
    watch: &ClipWatch,
) -> anyhow::Result<ClipReport> {
    sort_clip_with(settings, input, false, watch, Some(engine))
}

/// The GPU a clip is sorted on: an engine given, or one being opened.
enum Device<'e> {
    Given(&'e crate::engine::Engine),
    Opening(std::thread::JoinHandle<Result<crate::gpu::Gpu, crate::gpu::GpuError>>),
    Opened(crate::gpu::Gpu, std::time::Duration),
}

impl<'e> Device<'e> {
    /// The device once open: the one given, or the one being opened when it is (with the time
    /// since `started` it took).
    fn opened(self, started: Instant) -> anyhow::Result<Device<'e>> {
        match self {
            Device::Opening(opening) => {
                let gpu = opening.join().map_err(|_| anyhow::anyhow!("opening the GPU panicked"))??;
                Ok(Device::Opened(gpu, started.elapsed()))
            }
            other => Ok(other),
        }
    }
}

fn sort_clip_with(
    settings: &Settings,
    input: &Path,
    discard: bool,
    watch: &ClipWatch,
    given: Option<&crate::engine::Engine>,
) -> anyhow::Result<ClipReport> {
    let started = Instant::now();
    let out = settings.out.as_deref().unwrap_or(Path::new("(discarded)"));
    let target = if discard { ClipTarget::Discard } else { ClipTarget::prepare(out)? };
    let needs_ffmpeg = !frame_files::is_frame_files(input) || matches!(target, ClipTarget::Video(_));
    // The GPU opens while ffmpeg is asked what it is and reads the clip (each takes about a
    // tenth of a second). It is waited for where it was opened before, so a bad clip, mask or
    // encoding is still reported first (an early return leaves the thread to finish and drop
    // its GPU).
    let mut device = match given {
        Some(engine) => Device::Given(engine),
        None => Device::Opening(
            std::thread::Builder::new()
                .name("gpu-open".into())
                .spawn(move || {
                    let gpu = crate::gpu::Gpu::headless();
                    log::debug!("the GPU opened in {:.1} ms", started.elapsed().as_secs_f64() * 1e3);
                    gpu
                })
                .map_err(ClipError::Thread)?,
        ),
    };
    let ffmpeg = if needs_ffmpeg {
        let need = || {
            if frame_files::is_frame_files(input) {
                format!("cannot write '{}': it is a video", out.display())
            } else {
                format!("cannot read '{}': it is a video", input.display())
            }
        };
        Some(Ffmpeg::find(settings.video.ffmpeg.as_deref(), need)?)
    } else {
        None
    };
    let asked = started.elapsed();
    let clip = open_clip(input, settings.video.frame_rate, ffmpeg.as_ref())?;
    let info = clip.info.clone();
    let probed = started.elapsed();
    // A path's lines are laid out on the CPU (about a tenth of a second at 1080p) while the GPU
    // opens, for the clip's own size and any texture side; kept if the GPU takes them as they are.
    let route = settings.route();
    let laying = std::thread::Builder::new()
        .name("lines".into())
        .spawn(move || crate::angle::Lines::of(route, (info.width, info.height), u32::MAX))
        .map_err(ClipError::Thread)?;
    let label = format!("'{}'", input.display());
    let mask = settings.mask.as_deref().map(Mask::load).transpose()?;
    if let Some(mask) = &mask {
        mask.check_size(&label, (info.width, info.height))?;
    }
    // The encoding is checked before any work: a bad choice fails at once.
    let video_args = match &target {
        ClipTarget::Video(file) => Some(encoding::video_args(
            file.path(),
            &settings.video.encode,
            (info.width, info.height),
            info.has_alpha(),
        )?),
        ClipTarget::Frames(_) | ClipTarget::Discard => None,
    };
    let limit = |side| SizeLimit::new(side, settings.max_size, !settings.no_downscale);
    // A clip whose sides every adapter's textures take keeps its size whatever GPU opens: ffmpeg's
    // decoder and encoder then start while it opens, and the first frames wait for it decoded.
    let least_side = wgpu::Limits::downlevel_webgl2_defaults().max_texture_dimension_2d;
    let clip_size = (info.width, info.height);
    let size = match limit(least_side).fit(&label, clip_size) {
        Ok(None) => clip_size,
        _ => {
            device = device.opened(started)?;
            let side = match &device {
                Device::Given(engine) => engine.gpu().device.limits().max_texture_dimension_2d,
                Device::Opened(gpu, _) => gpu.device.limits().max_texture_dimension_2d,
                Device::Opening(_) => unreachable!("opened above"),
            };
            let (size, note) = fit(clip_size, &label, &limit(side))?;
            if let Some(note) = note {
                eprintln!("{note}");
            }
            size
        }
    };
    let video_args = match video_args {
        // An odd side may have become even (or the reverse) by scaling.
        Some(_) if size != (info.width, info.height) => {
            Some(encoding::video_args(out, &settings.video.encode, size, info.has_alpha())?)
        }
        other => other,
    };
    let mask = mask.map(|m| if m.dimensions() == size { m } else { m.resized(size.0, size.1) });
    let (audio, audio_words, audio_note) = match (&target, &info.audio) {
        (ClipTarget::Video(_), Some(codec)) => {
            let (args, note) =
                encoding::audio_args(out, codec, ffmpeg.as_ref().expect("a video has ffmpeg").build());
            let words = if args.is_empty() {
                "audio dropped"
            } else if note.is_some() {
                "audio re-encoded"
            } else {
                "audio copied"
            };
            ((!args.is_empty()).then_some((input, args)), words, note)
        }
        (ClipTarget::Frames(_), Some(_)) => (None, "audio not kept (a folder of frames has none)", None),
        (ClipTarget::Discard, Some(_)) => (None, "audio dropped", None),
        (_, None) => (None, "no audio", None),
    };
    // Every encoder the output needs is there before anything is decoded or written (and
    // before the notes, so a refusal is the run's one line).
    if let (Some(ffmpeg), ClipTarget::Video(_)) = (&ffmpeg, &target) {
        let why = format!("a .{} output needs", encoding::extension(out));
        let audio_args = audio.as_ref().map(|(_, args)| args.as_slice()).unwrap_or_default();
        for args in [video_args.as_ref().map(|(args, _)| args.as_slice()).unwrap_or_default(), audio_args] {
            ffmpeg.check_encoders(args, out, &why).map_err(ClipError::from)?;
        }
    }
    for note in
        [audio_note.as_ref(), video_args.as_ref().and_then(|(_, note)| note.as_ref())].into_iter().flatten()
    {
        eprintln!("{note}");
    }
    // A 4:2:0 encoder is handed 4:2:0 made on the GPU, coloured as the clip was. Without an
    // output (`bench video`), frames are read back as the output named would take them.
    let encoder_args = match (&target, &video_args) {
        (ClipTarget::Video(_), Some((args, _))) => Some(args.clone()),
        (ClipTarget::Discard, _) => settings
            .out
            .as_deref()
            .and_then(|out| encoding::video_args(out, &settings.video.encode, size, info.has_alpha()).ok())
            .map(|(args, _)| args),
        _ => None,
    };
    let yuv420 = encoder_args.and_then(|args| encoding::piped_yuv420(&args, size, info.yuv420.as_ref()));
    let padded =
        encoding::padded_size(&video_args.as_ref().map(|(args, _)| args.clone()).unwrap_or_default(), size);
    let spec = EncodeSpec {
        size,
        rate: info.rate,
        video_args: video_args.map(|(args, _)| args).unwrap_or_default(),
        audio,
        has_alpha: info.has_alpha(),
        yuv420: yuv420.clone(),
    };
    // The workers hand each frame's bytes back once it is on the GPU, for the decoder to read
    // the next frames into.
    let (spares_in, spares) = mpsc::channel();
    let source = match clip.files {
        Some(files) => FrameSource::Files(files, Some(size)),
        None => FrameSource::Decoder(
            Decoder::start(
                ffmpeg.as_ref().expect("found above"),
                input,
                (size, (info.width, info.height)),
                info.frames,
                PipeFormat::of(&info),
            )?
            .with_spares(spares),
        ),
    };
    let sink = ClipSink::start(target, ffmpeg.as_ref(), spec)?;
    let spawned = started.elapsed();
    let (owned, opened) = match device.opened(started)? {
        Device::Given(engine) => (Err(engine), started.elapsed()),
        Device::Opened(gpu, at) => (Ok(crate::engine::Engine::new(std::sync::Arc::new(gpu))), at),
        Device::Opening(_) => unreachable!("opened above"),
    };
    let engine = match &owned {
        Ok(engine) => engine,
        Err(engine) => *engine,
    };
    let gpu = engine.gpu();
    let device_side = gpu.device.limits().max_texture_dimension_2d;
    let lines = match laying.join() {
        Ok(Ok(lines)) if size == (info.width, info.height) && lines.fit(device_side) => lines,
        _ => crate::angle::Lines::of(settings.route(), size, device_side)?,
    };
    // Every frame starts a run of the same size: each takes the buffers of the runs before.
    gpu.keep_spares(true);
    // The sorter's pipelines are built while ffmpeg's decoder and encoder start.
    let (sorter, end_note) = Sorter::for_frames(engine, settings, lines, size);
    if let Some(note) = end_note {
        eprintln!("{note}");
    }
    let setup = started.elapsed();
    log::debug!(
        "clip set up in {:.1} ms: ffmpeg asked by {:.1}, the clip probed by {:.1}, decoder and encoder started by {:.1}, \
         the GPU waited for until {:.1}, the sorter built by {:.1}",
        setup.as_secs_f64() * 1e3,
        asked.as_secs_f64() * 1e3,
        probed.as_secs_f64() * 1e3,
        spawned.as_secs_f64() * 1e3,
        opened.as_secs_f64() * 1e3,
        setup.as_secs_f64() * 1e3,
    );
    watch.total.store(info.frames, Ordering::Relaxed);
    let sink = (sink, yuv420.map(|c| c.matrix));
    let incoming = (pipeline::Incoming::Clip(source), spares_in);
    let timing = watch.time_passes && crate::gpu::pass_clock::start(gpu);
    let sorted = pipeline::pipeline(&sorter, settings, &info, mask.as_ref(), incoming, sink, watch);
    let passes = timing.then(|| crate::gpu::pass_clock::finish(gpu)).flatten();
    let (path, _) = sorted?;
    // The next clip or still on this GPU skips the compiles this one made.
    gpu.save_pipeline_cache();
    Ok(ClipReport {
        path,
        frames: info.frames,
        algorithm: settings.algorithm.name(),
        size,
        padded,
        rate: info.rate,
        elapsed: started.elapsed(),
        setup,
        adapter: gpu.describe(),
        stages: watch.stages.times(),
        audio: audio_words,
        passes,
    })
}

/// The size frames are sorted at: the clip's own, or downscaled to the limit (with a note), or
/// an error with `--no-downscale`.
pub fn fit(
    size: (u32, u32),
    label: &str,
    limit: &SizeLimit,
) -> Result<((u32, u32), Option<String>), InputError> {
    let Some((w, h)) = limit.fit(label, size)? else { return Ok((size, None)) };
    let (width, height) = size;
    let note = format!(
        "note: {label} is {width}x{height}; its frames are downscaled to {w}x{h} to fit {} (pass --no-downscale to refuse instead)",
        limit.why
    );
    Ok(((w, h), Some(note)))
}
