//! `shadersort bench gif`: the recorder in each format (GIF, animated PNG, PNG frames) against
//! the naive way (each frame read back as RGBA and quantized on its own by the `image` crate's
//! GIF encoder), same picture, same passes, same run.

use crate::algorithms::SortRun;
use crate::algorithms::odd_even::OddEven;
use crate::algorithms::request::StartRequest;
use crate::engine::drive::run_to;
use crate::gpu::Gpu;
use crate::gpu::readback::read_texture;
use crate::keys::options::SortOptions;
use crate::picture::input::Picture;
use crate::record::{RecordFormat, RecordTarget, record};
use crate::settings::RecordSettings;
use anyhow::Context;
use image::RgbaImage;
use std::path::Path;
use std::time::{Duration, Instant};

/// What to measure.
#[derive(Clone, Debug, clap::Args)]
pub struct GifBenchArgs {
    /// Picture to record (default: the built-in one); cropped to a centred square and resized to --size.
    pub image: Option<std::path::PathBuf>,
    /// Side of the square picture recorded.
    #[arg(long, default_value_t = 512)]
    pub size: u32,
    /// Passes recorded (one frame each).
    #[arg(long, default_value_t = 512)]
    pub passes: u32,
    /// Speeds of the naive encoder to compare with (1 = image's default, best quality; 30 = fastest).
    #[arg(long, value_delimiter = ',', default_value = "1,10")]
    pub naive_speeds: Vec<i32>,
    /// Record without dithering.
    #[arg(long)]
    pub no_dither: bool,
}

/// One line of the result table.
struct Row {
    name: String,
    frames: usize,
    elapsed: Duration,
    bytes: u64,
}

/// Runs the benchmark and prints a table.
pub fn run(args: &GifBenchArgs) -> anyhow::Result<()> {
    let source = Picture::load_or_built_in(args.image.as_deref())?;
    let picture = square(&source.pixels, args.size);
    let gpu = Gpu::headless()?;
    let odd_even = OddEven::new(&gpu);
    let options = SortOptions::default();
    let dir = tempfile::tempdir().context("creating a folder for the benchmark's GIFs")?;
    println!(
        "recording {} ({}x{}, {} passes) on {}; {} CPU threads",
        source.label,
        args.size,
        args.size,
        args.passes,
        gpu.describe(),
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );

    // The GPU work alone, so the rows below can be read as GPU time plus encoding.
    let started = Instant::now();
    let mut run = odd_even.start(&gpu, StartRequest::new(&picture, options));
    run_to(&gpu, &mut run, args.passes, |_| true)?;
    let gpu_only = started.elapsed();

    let mut rows = Vec::new();
    let settings = RecordSettings {
        steps: Some(args.passes),
        every: Some(1),
        dither: !args.no_dither,
        ..Default::default()
    };
    // GIF first: the other rows are compared with it.
    for name in ["shadersort.gif", "shadersort.png", "frames/"] {
        let started = Instant::now();
        let target = RecordTarget::prepare(&dir.path().join(name))?;
        let format = target.format();
        let start = |first: &RgbaImage| -> Box<dyn SortRun> {
            Box::new(odd_even.start(&gpu, StartRequest::new(first, options)))
        };
        let report = record(&gpu, &picture, start, &settings, target, |_, _| true)?;
        let dither = if args.no_dither && format == RecordFormat::Gif { " --no-dither" } else { "" };
        rows.push(Row {
            name: format!("shadersort --record {name}{dither} ({})", format.describe()),
            frames: report.recorded.frames as usize,
            elapsed: started.elapsed(),
            bytes: report.bytes,
        });
    }

    for &speed in &args.naive_speeds {
        let path = dir.path().join(format!("naive-{speed}.gif"));
        rows.push(naive(&gpu, &odd_even, &picture, options, args.passes, speed, &path)?);
    }

    println!("GPU passes alone (no readback): {:.2} s", gpu_only.as_secs_f64());
    println!("| method | frames | seconds | frames/s | bytes | bytes vs GIF | GIF's frames/s vs this |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    // Every row is compared with shadersort's GIF.
    let ours = &rows[0];
    for row in &rows {
        let fps = row.frames as f64 / row.elapsed.as_secs_f64();
        let our_fps = ours.frames as f64 / ours.elapsed.as_secs_f64();
        println!(
            "| {} | {} | {:.2} | {:.1} | {} | {:.2}x | {:.1}x |",
            row.name,
            row.frames,
            row.elapsed.as_secs_f64(),
            fps,
            row.bytes,
            row.bytes as f64 / ours.bytes as f64,
            our_fps / fps
        );
    }
    Ok(())
}

/// The naive way: every state read back as RGBA and handed to `image`'s GIF encoder, which
/// quantizes each frame on its own (NeuQuant) and stores it whole.
fn naive(
    gpu: &Gpu,
    odd_even: &OddEven,
    picture: &RgbaImage,
    options: SortOptions,
    passes: u32,
    speed: i32,
    path: &Path,
) -> anyhow::Result<Row> {
    let started = Instant::now();
    let file = std::io::BufWriter::new(std::fs::File::create(path)?);
    let mut encoder = image::codecs::gif::GifEncoder::new_with_speed(file, speed);
    encoder.set_repeat(image::codecs::gif::Repeat::Infinite)?;
    let delay = image::Delay::from_numer_denom_ms(30, 1);
    let mut run = odd_even.start(gpu, StartRequest::new(picture, options));
    let mut frames = 0;
    loop {
        let state = read_texture(gpu, run.state())?;
        encoder.encode_frame(image::Frame::from_parts(state, 0, 0, delay))?;
        frames += 1;
        if run.steps_done() >= passes.min(run.total_steps()) {
            break;
        }
        let target = run.steps_done() + 1;
        run_to(gpu, &mut run, target, |_| true)?;
    }
    drop(encoder);
    Ok(Row {
        name: format!("naive (image GifEncoder, speed {speed})"),
        frames,
        elapsed: started.elapsed(),
        bytes: std::fs::metadata(path)?.len(),
    })
}

/// The centred square of `picture`, resized to `size`.
fn square(picture: &RgbaImage, size: u32) -> RgbaImage {
    let side = picture.width().min(picture.height());
    let (x, y) = ((picture.width() - side) / 2, (picture.height() - side) / 2);
    let crop = image::imageops::crop_imm(picture, x, y, side, side).to_image();
    if side == size {
        crop
    } else {
        image::imageops::resize(&crop, size, size, image::imageops::FilterType::Triangle)
    }
}
