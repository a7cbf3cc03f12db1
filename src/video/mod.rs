//! Clips in and out: a video (read through ffmpeg), an animated GIF or a folder of frames is
//! decoded frame by frame, every frame is sorted on the GPU with the settings a picture takes, and
//! the sorted frames are encoded into a video (through ffmpeg) or written as PNG frames. Decoding,
//! finding each frame's intervals (on several threads: on the CPU it takes longer than the GPU's
//! sort), sorting and encoding overlap, with a few frames queued between the stages, so memory does
//! not grow with the clip.

pub mod encoding;
pub mod error;
pub mod ffmpeg;
pub mod frame_files;
pub mod playback;
mod prepare;
pub mod probe;
pub mod sink;
pub mod source;
pub mod stages;
pub mod yuv;
pub mod yuv_gpu;

use crate::gpu::readback::{PendingRead, read_texture, start_read};
use crate::headless::Sorter;
use crate::interrupt;
use crate::intervals::Mask;
use crate::intervals::threshold::ThresholdSweep;
use crate::picture::input::{InputError, SizeLimit};
use crate::progress::Progress;
use crate::settings::Rate;
use crate::settings::Settings;
use anyhow::Context;
pub use error::ClipError;
use ffmpeg::Ffmpeg;
use frame_files::FrameFiles;
use image::RgbaImage;
use prepare::FramePreparer;
use probe::ClipInfo;
use sink::{ClipSink, ClipTarget, EncodeSpec, SortedFrame};
use source::{DecodedFrame, Decoder, FrameSource, PipeFormat};
use stages::{Stage, StageClock, StageTimes};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};
use yuv_gpu::{PendingPlanes, Yuv420Reader, Yuv420Writer};

/// Extensions taken as videos (anything ffmpeg reads can also be named with one of these).
pub const VIDEO_EXTENSIONS: [&str; 16] = [
    "mp4", "m4v", "mov", "mkv", "webm", "avi", "nut", "mpg", "mpeg", "ts", "m2ts", "mts", "flv", "wmv",
    "ogv", "y4m",
];

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

/// What a clip's sort did, for the closing line.
#[derive(Debug)]
pub struct ClipReport {
    /// Where the frames went.
    pub path: PathBuf,
    /// Frames sorted.
    pub frames: u64,
    /// The algorithm they were sorted with.
    pub algorithm: &'static str,
    /// Frame size.
    pub size: (u32, u32),
    /// The even size the video was padded to, when its encoder needs even sides and a side is
    /// odd (the frames are `size`, the padding repeats their edge).
    pub padded: Option<(u32, u32)>,
    /// Frames per second of the clip.
    pub rate: Rate,
    /// Wall time of the whole run.
    pub elapsed: Duration,
    /// Of that, the time before the first frame was decoded: finding ffmpeg, counting the
    /// clip's frames, opening the GPU and building its pipelines.
    pub setup: Duration,
    /// The adapter used.
    pub adapter: String,
    /// How long each stage of the pipeline was busy (summed over its threads).
    pub stages: StageTimes,
    /// What happened to the sound.
    pub audio: &'static str,
}

impl std::fmt::Display for ClipReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (w, h) = self.size;
        let padded =
            self.padded.map(|(pw, ph)| format!(" (padded to {pw}x{ph} in the video)")).unwrap_or_default();
        let seconds = self.elapsed.as_secs_f64();
        write!(
            f,
            "sorted {} frames of {w}x{h}{padded} at {:.3} fps ({:.2} s of video) with {} in {seconds:.2} s, {:.1} frames/s on {}; {}; wrote {}",
            self.frames,
            self.rate.fps(),
            self.frames as f64 / self.rate.fps(),
            self.algorithm,
            self.frames as f64 / seconds.max(1e-9),
            self.adapter,
            self.audio,
            self.path.display()
        )
    }
}

/// Sorts every frame of the clip at `input` into `--out`.
pub fn run(settings: &Settings, input: &Path) -> anyhow::Result<()> {
    let report = sort_clip(settings, input, false)?;
    // Shows which stages ran on the CPU at all (tests read it to know the GPU path was taken).
    log::debug!("clip stages busy: {}", report.stages.nanos_words());
    println!("{report}");
    Ok(())
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
}

impl ClipWatch {
    /// Fails once a signal has come or the sort was cancelled.
    fn check(&self) -> Result<(), interrupt::Interrupted> {
        interrupt::check()?;
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
    let started = Instant::now();
    let out = settings.out.as_deref().unwrap_or(Path::new("(discarded)"));
    let target = if discard { ClipTarget::Discard } else { ClipTarget::prepare(out)? };
    let needs_ffmpeg = !frame_files::is_frame_files(input) || matches!(target, ClipTarget::Video(_));
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
    // The GPU opens while ffmpeg reads the clip (each takes about a tenth of a second). It is
    // waited for where it was opened before, so a bad clip, mask or encoding is still reported
    // first (an early return leaves the thread to finish and drop its GPU).
    let opening = std::thread::Builder::new()
        .name("gpu-open".into())
        .spawn(crate::gpu::Gpu::headless)
        .map_err(ClipError::Thread)?;
    let clip = open_clip(input, settings.video.frame_rate, ffmpeg.as_ref())?;
    let info = clip.info.clone();
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
    let gpu = opening.join().map_err(|_| anyhow::anyhow!("opening the GPU panicked"))??;
    let device_side = gpu.device.limits().max_texture_dimension_2d;
    let limit = SizeLimit::new(device_side, settings.max_size, !settings.no_downscale);
    let (size, note) = fit((info.width, info.height), &label, &limit)?;
    if let Some(note) = note {
        eprintln!("{note}");
    }
    let video_args = match video_args {
        // An odd side may have become even (or the reverse) by scaling.
        Some(_) if size != (info.width, info.height) => {
            Some(encoding::video_args(out, &settings.video.encode, size, info.has_alpha())?)
        }
        other => other,
    };
    let mask = mask.map(|m| if m.dimensions() == size { m } else { m.resized(size.0, size.1) });
    let lines = crate::angle::Lines::new(settings.direction, size, device_side)?;
    let sorter = Sorter::new(&gpu, settings, lines);
    let (audio, audio_words) = match (&target, &info.audio) {
        (ClipTarget::Video(_), Some(codec)) => {
            let (args, note) = encoding::audio_args(out, codec);
            if let Some(note) = &note {
                eprintln!("{note}");
            }
            let words = if args.is_empty() {
                "audio dropped"
            } else if note.is_some() {
                "audio re-encoded"
            } else {
                "audio copied"
            };
            ((!args.is_empty()).then_some((input, args)), words)
        }
        (ClipTarget::Frames(_), Some(_)) => (None, "audio not kept (a folder of frames has none)"),
        (ClipTarget::Discard, Some(_)) => (None, "audio dropped"),
        (_, None) => (None, "no audio"),
    };
    if let Some((_, Some(note))) = &video_args {
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
    let setup = started.elapsed();
    watch.total.store(info.frames, Ordering::Relaxed);
    let sink = (sink, yuv420.map(|c| c.matrix));
    let path = pipeline(&sorter, settings, &info, mask.as_ref(), (source, spares_in), sink, watch)?;
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

/// What the sorting thread hands the encoding thread.
enum ToSink {
    Frame(SortedFrame),
    /// Every frame was sent: finish the file.
    End,
}

/// A decoded frame on the GPU within its intervals, ready to sort, and the run's notice (or an
/// error that ends the clip).
type Prepared = anyhow::Result<prepare::Started>;

/// Decodes, finds intervals, sorts and encodes every frame, a few frames queued between the stages;
/// frames go to `sink` as RGBA, or as 4:2:0 of the matrix given with it.
fn pipeline(
    sorter: &Sorter<'_>,
    settings: &Settings,
    info: &ClipInfo,
    mask: Option<&Mask>,
    (mut source, spares): (FrameSource, mpsc::Sender<Vec<u8>>),
    (mut sink, yuv420): (ClipSink, Option<yuv::Matrix>),
    watch: &ClipWatch,
) -> anyhow::Result<PathBuf> {
    let (frames_in, decoded) = mpsc::sync_channel::<Result<DecodedFrame, ClipError>>(2);
    let (sorted, frames_out) = mpsc::sync_channel::<ToSink>(2);
    // Workers find each frame's intervals (on the CPU that takes longer than the GPU's sort) and
    // start its run: the upload and what the algorithm prepares on the CPU, off the thread that
    // sorts. Whole lines need no intervals, so fewer workers keep up.
    let most = if settings.uses_intervals() || settings.sweep.is_some() { 8 } else { 3 };
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(1, most);
    // Each prepared frame holds its textures on the GPU: a few wait, not the whole clip.
    let (prepared_in, prepared) = mpsc::sync_channel::<(usize, Prepared)>(workers);
    let run_settings = if settings.passes.is_none() { settings.unwatched_run() } else { settings.run };
    // Shared by the workers; dropped with the last of them, which ends the decoder too.
    let decoded = std::sync::Arc::new(std::sync::Mutex::new(decoded.into_iter().enumerate()));
    let sweep = settings
        .sweep
        .map(|s| ThresholdSweep::new(s.from, s.to, info.frames.clamp(2, u64::from(u32::MAX)) as u32));
    // A 4:2:0 frame whose intervals the GPU finds itself, or that has none, is converted there.
    let reader = info.yuv420.as_ref().map(|_| Yuv420Reader::new(sorter.gpu));
    let preparer = FramePreparer {
        sorter,
        settings,
        run_settings,
        sweep,
        mask,
        reader: reader.as_ref(),
        stages: &watch.stages,
        converted: Mutex::new(Vec::new()),
    };
    let preparer = &preparer;
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("clip-decoder".into())
            .spawn_scoped(scope, move || {
                while let Some(frame) = watch.stages.time(Stage::Decode, || source.next_frame()) {
                    let failed = frame.is_err();
                    if frames_in.send(frame).is_err() || failed {
                        break;
                    }
                }
            })
            .map_err(ClipError::Thread)?;
        for worker in 0..workers {
            let (decoded, prepared_in, spares) = (decoded.clone(), prepared_in.clone(), spares.clone());
            std::thread::Builder::new()
                .name(format!("clip-prepare-{worker}"))
                .spawn_scoped(scope, move || {
                    loop {
                        let next = decoded.lock().unwrap_or_else(|p| p.into_inner()).next();
                        let Some((index, frame)) = next else { break };
                        let ready = frame
                            .map_err(anyhow::Error::from)
                            .and_then(|frame| preparer.prepare(index, frame, &spares));
                        let failed = ready.is_err();
                        if prepared_in.send((index, ready)).is_err() || failed {
                            break;
                        }
                    }
                })
                .map_err(ClipError::Thread)?;
        }
        drop((decoded, prepared_in, spares));
        let encoder = std::thread::Builder::new()
            .name("clip-encoder".into())
            .spawn_scoped(scope, move || -> Result<Option<PathBuf>, ClipError> {
                for message in frames_out {
                    match message {
                        ToSink::Frame(frame) => watch.stages.time(Stage::Sink, || sink.push(&frame))?,
                        // A signal during the last frames still leaves nothing.
                        ToSink::End if watch.check().is_err() => return Ok(None),
                        ToSink::End => return sink.finish().map(Some),
                    }
                }
                // The sorting thread stopped early: the sink is dropped, leaving nothing.
                Ok(None)
            })
            .map_err(ClipError::Thread)?;
        let sorting = sort_frames(sorter, settings, info, (in_order(prepared), yuv420), &sorted, watch);
        if sorting.is_ok() {
            let _ = sorted.send(ToSink::End);
        }
        drop(sorted);
        let encoded = encoder.join().expect("the encoder thread does not panic");
        // The encoder's own failure explains a refused frame better than the refusal does.
        match (sorting, encoded) {
            (_, Err(e)) => Err(e.into()),
            (Err(e), Ok(_)) => Err(e),
            (Ok(()), Ok(Some(path))) => Ok(path),
            (Ok(()), Ok(None)) => Err(watch.check().err().unwrap_or_else(interrupt::Interrupted::now).into()),
        }
    })
}

/// The frames as the workers prepared them, put back in clip order.
fn in_order(prepared: mpsc::Receiver<(usize, Prepared)>) -> impl Iterator<Item = Prepared> {
    let mut waiting = std::collections::BTreeMap::new();
    let mut next = 0;
    let mut arrivals = prepared.into_iter();
    std::iter::from_fn(move || {
        loop {
            if let Some(ready) = waiting.remove(&next) {
                next += 1;
                return Some(ready);
            }
            let (index, ready) = arrivals.next()?;
            waiting.insert(index, ready);
        }
    })
}

/// A sorted frame on its way back from the GPU.
enum Readback {
    /// Copied into a staging buffer, the copy not yet waited for.
    Pending(PendingRead),
    /// Converted to 4:2:0 and copied into a staging buffer, the copy not yet waited for.
    Planes(PendingPlanes),
    /// Read already (a frame too large for one staging buffer is read in bands at once).
    Ready(RgbaImage),
}

/// Sorts each prepared frame and hands it on (as 4:2:0 of the matrix given with the frames, or
/// RGBA), with progress; stops at the first error or signal. Each frame's readback is waited for
/// on a thread of its own, so the GPU sorts the next frame while the last one is copied out: two
/// frames in flight, their staging buffers used again.
fn sort_frames(
    sorter: &Sorter<'_>,
    settings: &Settings,
    info: &ClipInfo,
    (prepared, yuv420): (impl Iterator<Item = Prepared>, Option<yuv::Matrix>),
    sorted: &mpsc::SyncSender<ToSink>,
    watch: &ClipWatch,
) -> anyhow::Result<()> {
    let gpu = sorter.gpu;
    let (reads_in, reads) = mpsc::sync_channel::<Readback>(1);
    let (spare_in, spare) = mpsc::channel::<wgpu::Buffer>();
    std::thread::scope(|scope| {
        let reader = std::thread::Builder::new()
            .name("clip-readback".into())
            .spawn_scoped(scope, move || -> anyhow::Result<()> {
                for (index, read) in reads.into_iter().enumerate() {
                    let failed = "reading the sorted frame back from the GPU failed";
                    // The sorting thread may have ended: then the buffers are not needed.
                    let frame = match read {
                        Readback::Ready(frame) => frame,
                        Readback::Pending(pending) => {
                            let (frame, staging) =
                                watch.stages.time(Stage::ReadBack, || pending.finish(gpu)).context(failed)?;
                            let _ = spare_in.send(staging);
                            frame
                        }
                        Readback::Planes(pending) => {
                            let (planes, staging) =
                                watch.stages.time(Stage::ReadBack, || pending.finish(gpu)).context(failed)?;
                            let _ = spare_in.send(staging);
                            if sorted.send(ToSink::Frame(SortedFrame::Yuv420(planes))).is_err() {
                                return Ok(());
                            }
                            watch.done.store(index as u64 + 1, Ordering::Relaxed);
                            continue;
                        }
                    };
                    // A frame too large for the GPU's conversion is converted here.
                    let frame = match yuv420 {
                        Some(matrix) => SortedFrame::Yuv420(yuv::to_yuv420(&frame, matrix)),
                        None => SortedFrame::Rgba(frame),
                    };
                    if sorted.send(ToSink::Frame(frame)).is_err() {
                        // The encoder stopped; its error is the one to report.
                        return Ok(());
                    }
                    watch.done.store(index as u64 + 1, Ordering::Relaxed);
                }
                Ok(())
            })
            .map_err(ClipError::Thread)?;
        let mut bar = (!watch.quiet).then(|| Progress::new("sorting", "frames"));
        if let Some(bar) = &mut bar {
            bar.set_total(info.frames);
        }
        let mut yuv420 = yuv420.map(|matrix| (Yuv420Writer::new(gpu), matrix));
        let submitted =
            submit_frames(sorter, settings, (prepared, yuv420.as_mut()), &reads_in, &spare, watch, &mut bar);
        drop(reads_in);
        let read = reader.join().expect("the readback thread does not panic");
        submitted.and(read)?;
        watch.check()?;
        if let Some(bar) = &mut bar {
            bar.set_done(watch.done.load(Ordering::Relaxed));
            bar.finish();
        }
        Ok(())
    })
}

/// Starts each prepared frame's sort and readback on the GPU (converted to 4:2:0 first when a
/// writer is given and the frame fits it), in order, without waiting for them; the frames go to
/// the readback thread through `reads`.
fn submit_frames(
    sorter: &Sorter<'_>,
    settings: &Settings,
    (mut prepared, mut yuv420): (impl Iterator<Item = Prepared>, Option<&mut (Yuv420Writer, yuv::Matrix)>),
    reads: &mpsc::SyncSender<Readback>,
    spare: &mpsc::Receiver<wgpu::Buffer>,
    watch: &ClipWatch,
    bar: &mut Option<Progress>,
) -> anyhow::Result<()> {
    let gpu = sorter.gpu;
    let mut notice_given = false;
    while let Some(ready) = watch.stages.time(Stage::SorterIdle, || prepared.next()) {
        watch.check()?;
        let (mut run, notice) = ready?;
        if let Some(notice) = notice.filter(|_| !notice_given) {
            match bar {
                Some(bar) => bar.note(&format!("note: {notice}")),
                None => log::info!("note: {notice}"),
            }
            notice_given = true;
        }
        let steps = settings.passes.unwrap_or(run.total_steps()).min(run.total_steps());
        let read = watch.stages.time(Stage::Submit, || -> anyhow::Result<Readback> {
            crate::algorithms::submit_steps(gpu, run.as_mut(), steps).context("sorting on the GPU failed")?;
            watch.check()?;
            // The run's textures stay alive on the GPU until the copy has been made.
            let state = run.state();
            if let Some((writer, matrix)) = yuv420.as_deref_mut()
                && Yuv420Writer::fits(gpu, (state.width(), state.height()))
            {
                return Ok(Readback::Planes(writer.start_read(gpu, state, *matrix, spare.try_recv().ok())));
            }
            Ok(match start_read(gpu, state, spare.try_recv().ok()) {
                Some(pending) => Readback::Pending(pending),
                None => Readback::Ready(
                    read_texture(gpu, run.state())
                        .context("reading the sorted frame back from the GPU failed")?,
                ),
            })
        })?;
        if reads.send(read).is_err() {
            // The readback thread stopped; its error is the one to report.
            return Ok(());
        }
        if let Some(bar) = bar {
            bar.set_done(watch.done.load(Ordering::Relaxed));
        }
    }
    Ok(())
}
