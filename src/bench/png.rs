//! `shadersort bench png`: the PNG writer behind `--png-compression fast` (strips of rows
//! compressed on every core, `picture::png_fast`) against the one-threaded way it replaced (an
//! RGB copy, then the image crate's fast PNG), per row filter and thread count, on real pictures.

use crate::picture::png_fast::{RowFilters, encode};
use anyhow::Context;
use std::path::PathBuf;
use std::time::Instant;

/// What to measure.
#[derive(Clone, Debug, clap::Args)]
pub struct PngBenchArgs {
    /// Pictures to encode (photos, sorted outputs).
    #[arg(required = true)]
    pub pictures: Vec<PathBuf>,
    /// Thread counts for the strips.
    #[arg(long, value_delimiter = ',', default_value = "1,2")]
    pub threads: Vec<usize>,
    /// Timed runs per measurement (after two warm-up runs); the median is printed.
    #[arg(long, default_value_t = 20)]
    pub runs: usize,
}

/// Median milliseconds of `runs` calls of `encode` (after two unmeasured), and the bytes made.
fn median_ms(runs: usize, encode: &mut dyn FnMut() -> usize) -> (f64, usize) {
    let mut timed: Vec<(f64, usize)> = (0..runs.max(1) + 2)
        .map(|_| {
            let started = Instant::now();
            let bytes = encode();
            (started.elapsed().as_secs_f64() * 1e3, bytes)
        })
        .skip(2)
        .collect();
    timed.sort_by(|a, b| a.0.total_cmp(&b.0));
    timed[timed.len() / 2]
}

/// Prints one table row per picture, encoder, filter and thread count.
pub fn run(args: &PngBenchArgs) -> anyhow::Result<()> {
    println!("| picture | encoder | filter | threads | median ms | bytes |");
    println!("| --- | --- | --- | ---: | ---: | ---: |");
    for path in &args.pictures {
        let picture =
            image::open(path).with_context(|| format!("cannot read '{}'", path.display()))?.to_rgba8();
        let size = picture.dimensions();
        let name = path.display();
        let (ms, bytes) = median_ms(args.runs, &mut || {
            let rgb: Vec<u8> = picture.as_raw().chunks_exact(4).flat_map(|p| &p[..3]).copied().collect();
            let fast = image::codecs::png::CompressionType::Fast;
            crate::picture::png_encode::encode_png(&rgb, size, image::ExtendedColorType::Rgb8, fast)
                .map_or(0, |png| png.len())
        });
        println!("| {name} | image crate | adaptive | 1 | {ms:.1} | {bytes} |");
        let filters = [RowFilters::Adaptive, RowFilters::Up, RowFilters::Sub, RowFilters::Paeth];
        for filter in filters {
            for &threads in &args.threads {
                let stride = size.0 as usize * 4;
                let (ms, bytes) = median_ms(args.runs, &mut || {
                    encode(picture.as_raw(), size, stride, false, filter, threads).map_or(0, |png| png.len())
                });
                println!("| {name} | strips | {filter:?} | {threads} | {ms:.1} | {bytes} |");
            }
        }
    }
    Ok(())
}
