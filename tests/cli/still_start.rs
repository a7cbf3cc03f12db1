//! What makes a still start fast without changing its result: the pipeline cache kept on disk
//! (written on Vulkan, read by the next run, a damaged or foreign file ignored) and the PNG
//! compression levels (the same pixels; `best` smaller).

use super::*;

/// Sorts the built-in picture by bitonic (the quickest on a software GPU) on Vulkan with the
/// pipeline cache in `cache`, logging what the cache did; checks the result against the model
/// and returns the log.
fn sort_with_cache(cache: &Path, out: &Path) -> String {
    let (_, stderr) = assert_succeeds(
        &[COFFEE, "--algorithm", "bitonic", "--out", arg(out)],
        &[
            ("WGPU_BACKEND", "vulkan"),
            ("SHADERSORT_CACHE_DIR", arg(cache)),
            ("RUST_LOG", "shadersort::gpu::pipeline_cache=debug"),
        ],
    );
    let input = coffee();
    assert!(open(out).1 == stable_sort(&input, &SortOptions::default()), "not the model's sort\n{stderr}");
    stderr
}

/// The one cache file in `dir` (named by the adapter).
fn cache_file(dir: &Path) -> PathBuf {
    let names = names_in(dir);
    assert!(
        names.len() == 1 && names[0].starts_with("wgpu_pipeline_cache_vulkan_"),
        "one cache file, no temporaries: {names:?}"
    );
    dir.join(&names[0])
}

#[test]
fn the_pipeline_cache_is_written_on_vulkan_and_read_by_the_next_run() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let out = dir.path().join("out.png");
    let first = sort_with_cache(&cache, &out);
    assert!(first.contains(": 0 bytes read"), "the first run had no cache to read\n{first}");
    let file = cache_file(&cache);
    let written = std::fs::read(&file).unwrap();
    assert!(first.contains(&format!("{} bytes written", written.len() - 4)), "{first}");
    let second = sort_with_cache(&cache, &out);
    assert!(
        second.contains(&format!("{} bytes read", written.len() - 4)),
        "the cache was not read\n{second}"
    );
    crate::clips::ci::passed();
}

#[test]
fn a_damaged_or_foreign_pipeline_cache_is_ignored_and_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let out = dir.path().join("out.png");
    sort_with_cache(&cache, &out);
    let file = cache_file(&cache);
    let good = std::fs::read(&file).unwrap();

    // Garbage where the cache was: the run ignores it and writes a good one again.
    let garbage: Vec<u8> =
        (0..good.len().max(200) as u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    std::fs::write(&file, &garbage).unwrap();
    let log = sort_with_cache(&cache, &out);
    assert!(log.contains("damaged"), "{log}");
    assert_eq!(std::fs::read(&file).unwrap(), good, "the damaged file was not replaced");

    // A whole cache of another GPU (its vendor and device ids changed, the checksum made to
    // match): wgpu refuses it, and the run goes on without it.
    let mut foreign = good.clone();
    // The checksum (4 bytes), then wgpu's header: magic 8, version 4, ABI 4, backend 1, then
    // the adapter key, whose bytes 3..11 are the vendor and device ids.
    for byte in &mut foreign[4 + 17 + 3..4 + 17 + 11] {
        *byte ^= 0x5a;
    }
    let sum = crc32(&foreign[4..]);
    foreign[..4].copy_from_slice(&sum.to_le_bytes());
    std::fs::write(&file, &foreign).unwrap();
    let log = sort_with_cache(&cache, &out);
    assert!(log.contains("made for another GPU"), "{log}");
    assert_eq!(std::fs::read(&file).unwrap(), good, "the foreign file was not replaced");
    crate::clips::ci::passed();
}

#[test]
fn best_png_compression_gives_a_smaller_file_of_the_same_pixels() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name);
    let sort = |out: &Path, extra: &[&str]| {
        let args: Vec<&str> =
            [COFFEE, "--algorithm", "bitonic", "--out", arg(out)].iter().chain(extra).copied().collect();
        assert_succeeds(&args, &[("WGPU_BACKEND", "vulkan")]);
        std::fs::read(out).unwrap()
    };
    let default = sort(&path("default.png"), &[]);
    let fast = sort(&path("fast.png"), &["--png-compression", "fast"]);
    let best = sort(&path("best.png"), &["--png-compression", "best"]);
    assert!(default == fast, "fast is the default");
    assert!(best.len() < fast.len(), "best {} bytes, fast {} bytes", best.len(), fast.len());
    let (fast_colour, fast_pixels) = open(&path("fast.png"));
    let (best_colour, best_pixels) = open(&path("best.png"));
    assert_eq!((fast_colour, best_colour), (ColorType::Rgb8, ColorType::Rgb8));
    assert!(fast_pixels == best_pixels, "the pixels differ");
    assert!(fast_pixels == stable_sort(&coffee(), &SortOptions::default()), "not the model's sort");
    assert_fails(
        &[COFFEE, "--record", arg(&path("r.gif")), "--png-compression", "best"],
        &[],
        dir.path(),
        &["--png-compression applies to a picture sorted into --out"],
    );
    crate::clips::ci::passed();
}
