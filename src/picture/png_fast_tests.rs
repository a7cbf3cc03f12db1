//! Tests of the PNG written on every core: exact pixels back through two decoders, a zlib stream
//! whose checksum and blocks a strict inflater accepts, and a timing of it beside the one-threaded
//! encoder (ignored; run by hand).

use super::*;
use crate::picture::patterns::SplitMix64;

/// A `width` x `height` RGBA picture with flat areas (long stretches of zeros after filtering),
/// gradients and noise, rows `stride` bytes apart (the padding bytes are noise too, and must not be
/// written).
fn picture(width: usize, height: usize, stride: usize, seed: u64) -> Vec<u8> {
    let mut rng = SplitMix64::new(seed);
    let mut pixels = vec![0u8; stride * height];
    for y in 0..height {
        for x in 0..stride / 4 {
            let p = &mut pixels[y * stride + x * 4..][..4];
            let noise = rng.next_u32().to_le_bytes();
            match (y / 7 + x / 13) % 3 {
                0 => p.copy_from_slice(&[40, 90, 200, 255]),
                1 => p.copy_from_slice(&[x as u8, y as u8, (x + y) as u8, 255 - x as u8]),
                _ => p.copy_from_slice(&noise),
            }
            if x >= width {
                p.copy_from_slice(&noise);
            }
        }
    }
    pixels
}

/// The file's IDAT data, every chunk's CRC checked, inflated by fdeflate with its Adler-32 checked.
fn strict_inflate(file: &[u8]) -> Result<Vec<u8>, String> {
    let mut at = 8;
    let mut zlib = Vec::new();
    while at < file.len() {
        let len = u32::from_be_bytes(file[at..at + 4].try_into().unwrap()) as usize;
        let (kind, data) = (&file[at + 4..at + 8], &file[at + 8..at + 8 + len]);
        let crc = u32::from_be_bytes(file[at + 8 + len..at + 12 + len].try_into().unwrap());
        let mut hasher = crc32fast::Hasher::new();
        hasher.update(kind);
        hasher.update(data);
        if hasher.finalize() != crc {
            return Err(format!("bad CRC in {}", String::from_utf8_lossy(kind)));
        }
        if kind == b"IDAT" {
            zlib.extend_from_slice(data);
        }
        at += 12 + len;
    }
    fdeflate::decompress_to_vec(&zlib).map_err(|e| format!("{e:?}"))
}

/// ffmpeg's decoding of `file` (zlib's inflate inside), which must pass without a word and give
/// `expected` (RGB or RGBA rows); skipped where ffmpeg is missing, unless SHADERSORT_REQUIRE_FFMPEG=1.
fn ffmpeg_decodes_to(file: &[u8], keep_alpha: bool, expected: &[u8], what: &str) {
    use std::process::Command;
    if Command::new("ffmpeg").arg("-version").output().is_err() {
        // The switch reads as the tests' switches do: unset is off, 1 is on, anything else fails.
        match std::env::var_os("SHADERSORT_REQUIRE_FFMPEG") {
            None => eprintln!("skipped: ffmpeg is not on PATH"),
            Some(v) if v == "1" => panic!("SHADERSORT_REQUIRE_FFMPEG=1 but ffmpeg is not on PATH"),
            Some(v) => panic!("SHADERSORT_REQUIRE_FFMPEG={v:?} is neither 1 nor unset"),
        }
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.png");
    std::fs::write(&path, file).unwrap();
    let format = if keep_alpha { "rgba" } else { "rgb24" };
    let out = Command::new("ffmpeg")
        .args(["-v", "error", "-nostdin", "-i"])
        .arg(&path)
        .args(["-f", "rawvideo", "-pix_fmt", format, "-"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && stderr.trim().is_empty(), "{what}: ffmpeg said {stderr}");
    assert!(out.stdout == expected, "{what}: ffmpeg decoded other pixels");
}

/// Encodes, then checks the file: a strict inflate of the whole stream to the expected length, and
/// the image crate's decoding equal to the input's pixels (alpha dropped when not kept).
fn check(width: usize, height: usize, stride: usize, keep_alpha: bool, filters: RowFilters, threads: usize) {
    let what = format!("{width}x{height} stride {stride} alpha {keep_alpha} {filters:?} threads {threads}");
    let pixels = picture(width, height, stride, (width * 31 + height) as u64);
    let file = encode(&pixels, (width as u32, height as u32), stride, keep_alpha, filters, threads)
        .unwrap_or_else(|| panic!("{what}: fdeflate's stream changed shape"));
    let channels = if keep_alpha { 4 } else { 3 };
    let inflated = strict_inflate(&file).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_eq!(inflated.len(), height * (width * channels + 1), "{what}");
    let decoded = image::load_from_memory_with_format(&file, image::ImageFormat::Png).expect(&what);
    let expected: Vec<u8> = (0..height)
        .flat_map(|y| pixels[y * stride..][..width * 4].chunks_exact(4))
        .flat_map(|p| p[..channels].to_vec())
        .collect();
    let got = if keep_alpha { decoded.to_rgba8().into_raw() } else { decoded.to_rgb8().into_raw() };
    assert_eq!(decoded.color().has_alpha(), keep_alpha, "{what}");
    assert!(got == expected, "{what}: the decoded pixels differ");
    if threads > 1 {
        ffmpeg_decodes_to(&file, keep_alpha, &expected, &what);
    }
}

#[test]
fn every_size_decodes_to_the_input_exactly() {
    let filters = [RowFilters::Adaptive, RowFilters::Up, RowFilters::Sub, RowFilters::Paeth];
    assert!(encode(&[], (0, 5), 0, true, RowFilters::Paeth, 2).is_none(), "no PNG is empty");
    for (width, height) in [(1, 1), (1, 37), (53, 1), (97, 61), (2, 2)] {
        for keep_alpha in [false, true] {
            for (i, &f) in filters.iter().enumerate() {
                check(width, height, width * 4 + i * 4, keep_alpha, f, 1 + i);
            }
        }
    }
}

#[test]
fn strips_that_divide_unevenly_join_into_one_valid_stream() {
    // 1333-byte RGBA rows: 196 rows a strip at the least, so 1001 rows make 6 strips at 1 thread and
    // 5 (of 201, the last 197) at 5; RGB rows make 257-row strips, the last of 230.
    for keep_alpha in [false, true] {
        for threads in [1, 2, 3, 5, 16] {
            check(333, 1001, 333 * 4 + 64, keep_alpha, RowFilters::Adaptive, threads);
        }
    }
}

#[test]
fn strips_end_both_ways_a_sync_flush_is_written() {
    // The empty stored block's header goes in the last byte's padding when 3 bits are left there,
    // else in a byte of its own: both must occur among these strips and be joined right above.
    let mut padding = [false; 2];
    for seed in 0..64 {
        let (width, height) = (19 + seed as usize, 5);
        let pixels = picture(width, height, width * 4, seed);
        let piece = deflate_strip(&pixels, width, width * 4, 3, RowFilters::Adaptive, 1..height).unwrap();
        padding[usize::from(piece[piece.len() - 5].leading_zeros() >= 3)] = true;
    }
    assert_eq!(padding, [true, true], "both paddings (fewer than 3 bits, 3 or more) seen");
}

#[test]
fn noise_is_stored_rather_than_grown() {
    // fdeflate's fixed codes make noise larger than it is; the stored stream is written instead.
    let noise = crate::picture::patterns::random_image(300, 900, 5).into_raw();
    let file = encode(&noise, (300, 900), 1200, true, RowFilters::Paeth, 2).unwrap();
    assert!(file.len() <= stored_size(900 * 1201) + 57, "{} bytes", file.len());
    let decoded = image::load_from_memory_with_format(&file, image::ImageFormat::Png).unwrap();
    assert!(decoded.to_rgba8().into_raw() == noise, "the decoded pixels differ");
    assert_eq!(strict_inflate(&file).unwrap().len(), 900 * 1201);
}

#[test]
fn adler32_of_joined_strings_is_combined_from_theirs() {
    let adler = |data: &[u8]| {
        let (mut a, mut b) = (1u32, 0u32);
        for &byte in data {
            a = (a + u32::from(byte)) % ADLER_BASE;
            b = (b + a) % ADLER_BASE;
        }
        (b << 16) | a
    };
    let data = picture(300, 300, 1200, 7);
    for cut in [0, 1, 5552, 65521, 200_000, data.len()] {
        let (x, y) = data.split_at(cut);
        assert_eq!(adler32_combine(adler(x), adler(y), y.len()), adler(&data), "cut at {cut}");
    }
}
