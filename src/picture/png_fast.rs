//! PNG with fast compression written on every core: the rows are cut into strips, each strip is
//! filtered and deflated on a thread of its own with fdeflate (the compressor behind the `png`
//! crate's fast mode), and the pieces are joined into one zlib stream whose checksum is combined
//! from the strips' checksums. Each strip ends in an empty stored block (a sync flush), so the
//! pieces concatenate at byte boundaries; the decoded pixels are exactly the input's.

use std::io::Cursor;

/// Rows of one strip at the least, so that a strip's fixed costs (its 54-byte block header, a
/// thread) stay small beside its data.
const MIN_STRIP_BYTES: usize = 256 * 1024;

/// The modulus of the Adler-32 checksum.
const ADLER_BASE: u32 = 65521;

/// Which filter the rows get: `Adaptive` tries Up, Sub, Average and Paeth on every row and keeps
/// the smallest sum of signed bytes, as the `png` crate does; the others use one filter throughout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowFilters {
    /// The best of four filters per row (what the image crate's fast PNG does).
    Adaptive,
    /// Each byte less the one above.
    Up,
    /// Each byte less the one to its left.
    Sub,
    /// Each byte less the Paeth predictor.
    Paeth,
}

/// `pixels` (`width` x `height` RGBA8, rows `stride` bytes apart, `stride >= width * 4`) as a PNG
/// file: RGBA when `keep_alpha`, else RGB (the alpha bytes dropped as rows are filtered).
/// `threads` strips at most are compressed at once. Returns `None` for an empty picture (no PNG
/// has one) and when fdeflate's output is not of the shape this joining relies on, so the caller
/// can use a one-threaded encoder instead (which reports the former).
pub fn encode(
    pixels: &[u8],
    (width, height): (u32, u32),
    stride: usize,
    keep_alpha: bool,
    filters: RowFilters,
    threads: usize,
) -> Option<Vec<u8>> {
    let (w, h) = (width as usize, height as usize);
    if w == 0 || h == 0 {
        return None;
    }
    assert!(stride >= w * 4 && pixels.len() >= stride * h.saturating_sub(1) + w * 4, "too few pixels");
    let channels = if keep_alpha { 4 } else { 3 };
    let row_bytes = w * channels + 1;
    let rows_per_strip = (MIN_STRIP_BYTES / row_bytes).max(h.div_ceil(threads.max(1))).max(1);
    let strips: Vec<(usize, usize)> =
        (0..h).step_by(rows_per_strip).map(|start| (start, (start + rows_per_strip).min(h))).collect();
    let deflate =
        |&(start, end): &(usize, usize)| deflate_strip(pixels, w, stride, channels, filters, start..end);
    let pieces: Vec<std::io::Result<Vec<u8>>> = if strips.len() == 1 {
        strips.iter().map(deflate).collect()
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = strips.iter().map(|strip| scope.spawn(move || deflate(strip))).collect();
            handles.into_iter().map(|h| h.join().expect("a PNG strip's thread panicked")).collect()
        })
    };
    let pieces = pieces.into_iter().collect::<std::io::Result<Vec<_>>>().ok()?;
    let lengths = strips.iter().map(|&(start, end)| (end - start) * row_bytes);
    let zlib = join_strips(pieces, lengths)?;
    // fdeflate never stores: on noise its output outgrows the data, and stored blocks are smaller.
    let zlib = if zlib.len() > stored_size(row_bytes * h) {
        stored_zlib(pixels, w, stride, channels, h)
    } else {
        zlib
    };
    Some(png_file(width, height, keep_alpha, &zlib))
}

/// The rows `rows` filtered and deflated into one fdeflate zlib stream (header, one block with the
/// final bit set, Adler-32 of the strip's filtered bytes).
fn deflate_strip(
    pixels: &[u8],
    width: usize,
    stride: usize,
    channels: usize,
    filters: RowFilters,
    rows: std::ops::Range<usize>,
) -> std::io::Result<Vec<u8>> {
    let len = width * channels;
    let row = |y: usize, out: &mut Vec<u8>| {
        out.clear();
        let src = &pixels[y * stride..y * stride + width * 4];
        if channels == 4 {
            out.extend_from_slice(src);
        } else {
            out.extend(src.chunks_exact(4).flat_map(|p| [p[0], p[1], p[2]]));
        }
    };
    let (mut prev, mut cur) = (vec![0u8; len], Vec::with_capacity(len));
    if rows.start > 0 {
        row(rows.start - 1, &mut prev);
    }
    let mut filtered = vec![0u8; len + 1];
    let mut scratch = vec![0u8; len];
    let capacity = rows.len() * (len + 1) / 2 + 64;
    let mut compressor = fdeflate::Compressor::new(Cursor::new(Vec::with_capacity(capacity)))?;
    for y in rows {
        row(y, &mut cur);
        filtered[0] = filter_row(filters, channels, &prev, &cur, &mut filtered[1..], &mut scratch);
        compressor.write_data(&filtered)?;
        std::mem::swap(&mut prev, &mut cur);
    }
    Ok(compressor.finish()?.into_inner())
}

/// One zlib stream from the strips' fdeflate streams, in order (`lengths`: each strip's bytes
/// before compression). Every strip but the last loses its header's final bit and gains an empty
/// stored block after its end-of-block code; the last keeps its final block. `None` when a piece
/// is not of the shape fdeflate 0.3 writes.
fn join_strips(pieces: Vec<Vec<u8>>, lengths: impl Iterator<Item = usize>) -> Option<Vec<u8>> {
    let total: usize = pieces.iter().map(Vec::len).sum();
    let mut out = Vec::with_capacity(total + 5 * pieces.len());
    out.extend_from_slice(&[0x78, 0x01]);
    let mut adler = 1u32;
    let count = pieces.len();
    for ((i, piece), length) in pieces.into_iter().enumerate().zip(lengths) {
        // The zlib header, a dynamic block's header with its final bit (bit 0 of byte 2), and a
        // last data byte holding the end-of-block code's final bit, a 1 (padding is all zeros).
        let n = piece.len();
        if n < 8 || piece[..2] != [0x78, 0x01] || piece[2] & 0b111 != 0b101 || piece[n - 5] == 0 {
            return None;
        }
        let strip_adler = u32::from_be_bytes(piece[n - 4..].try_into().expect("four bytes"));
        adler = adler32_combine(adler, strip_adler, length);
        let start = out.len();
        out.extend_from_slice(&piece[2..n - 4]);
        if i + 1 < count {
            out[start] &= !1;
            // An empty stored block (3 header bits, then to a byte boundary, LEN 0 and NLEN !0).
            // Its header fits in the last byte's padding when at least 3 bits are left there.
            let padding = piece[n - 5].leading_zeros();
            if padding < 3 {
                out.push(0);
            }
            out.extend_from_slice(&[0x00, 0x00, 0xff, 0xff]);
        }
    }
    out.extend_from_slice(&adler.to_be_bytes());
    Some(out)
}

/// The Adler-32 of two byte strings joined, from the first's checksum, the second's and its
/// length (as zlib's `adler32_combine`).
fn adler32_combine(first: u32, second: u32, second_len: usize) -> u32 {
    let base = u64::from(ADLER_BASE);
    let rem = second_len as u64 % base;
    let (a1, b1) = (u64::from(first & 0xffff), u64::from(first >> 16));
    let (a2, b2) = (u64::from(second & 0xffff), u64::from(second >> 16));
    let a = (a1 + a2 + base - 1) % base;
    let b = (b1 + b2 + rem * a1 + base - rem) % base;
    ((b << 16) | a) as u32
}

/// The size of `len` bytes in stored deflate blocks within a zlib stream.
fn stored_size(len: usize) -> usize {
    2 + len + 5 * len.div_ceil(65535).max(1) + 4
}

/// The rows unfiltered in stored blocks: for pictures whose noise defeats fdeflate.
fn stored_zlib(pixels: &[u8], width: usize, stride: usize, channels: usize, height: usize) -> Vec<u8> {
    let mut compressor = fdeflate::StoredOnlyCompressor::new(Cursor::new(Vec::new())).expect("in memory");
    let mut line = Vec::with_capacity(width * channels + 1);
    for y in 0..height {
        line.clear();
        line.push(0);
        let src = &pixels[y * stride..y * stride + width * 4];
        line.extend(src.chunks_exact(4).flat_map(|p| &p[..channels]));
        compressor.write_data(&line).expect("in memory");
    }
    compressor.finish().expect("in memory").into_inner()
}

/// A PNG file: signature, IHDR (8-bit RGB or RGBA, not interlaced), one IDAT per GiB of `zlib`, IEND.
fn png_file(width: u32, height: u32, keep_alpha: bool, zlib: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(zlib.len() + 64);
    out.extend_from_slice(b"\x89PNG\r\n\x1a\n");
    let mut ihdr = [0u8; 13];
    ihdr[..4].copy_from_slice(&width.to_be_bytes());
    ihdr[4..8].copy_from_slice(&height.to_be_bytes());
    ihdr[8] = 8;
    ihdr[9] = if keep_alpha { 6 } else { 2 };
    chunk(&mut out, b"IHDR", &ihdr);
    for part in zlib.chunks(1 << 30) {
        chunk(&mut out, b"IDAT", part);
    }
    chunk(&mut out, b"IEND", &[]);
    out
}

/// Appends one PNG chunk: length, type, data and the CRC-32 of type and data.
fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let mut crc = crc32fast::Hasher::new();
    crc.update(kind);
    crc.update(data);
    out.extend_from_slice(&crc.finalize().to_be_bytes());
}

/// Filters `cur` (the row above is `prev`, zeros for the first) into `out`; returns the filter's
/// type byte. `scratch` is a row-sized buffer for the adaptive choice.
fn filter_row(
    filters: RowFilters,
    bpp: usize,
    prev: &[u8],
    cur: &[u8],
    out: &mut [u8],
    scratch: &mut [u8],
) -> u8 {
    match filters {
        RowFilters::Up => apply(2, bpp, prev, cur, out),
        RowFilters::Sub => apply(1, bpp, prev, cur, out),
        RowFilters::Paeth => apply(4, bpp, prev, cur, out),
        RowFilters::Adaptive => {
            // Keep the best so far in `out`, try the next in `scratch`; ties go to the later, as in png.
            let mut best = (apply(2, bpp, prev, cur, out), cost(out));
            for kind in [1, 3, 4] {
                if best.1 == 0 {
                    break;
                }
                apply(kind, bpp, prev, cur, scratch);
                let c = cost(scratch);
                if c <= best.1 {
                    out.copy_from_slice(scratch);
                    best = (kind, c);
                }
            }
            best.0
        }
    }
}

/// The sum of the bytes read as signed: small when a filter predicts well.
fn cost(row: &[u8]) -> u64 {
    row.chunks(32).map(|c| c.iter().map(|&b| u64::from((b as i8).unsigned_abs())).sum::<u64>()).sum()
}

/// Filter type `kind` (1 Sub, 2 Up, 3 Average, 4 Paeth) of `cur` into `out`; returns `kind`.
fn apply(kind: u8, bpp: usize, prev: &[u8], cur: &[u8], out: &mut [u8]) -> u8 {
    let bpp = bpp.min(cur.len());
    match kind {
        1 => {
            out[..bpp].copy_from_slice(&cur[..bpp]);
            for ((o, &c), &l) in out[bpp..].iter_mut().zip(&cur[bpp..]).zip(cur) {
                *o = c.wrapping_sub(l);
            }
        }
        2 => {
            for ((o, &c), &u) in out.iter_mut().zip(cur).zip(prev) {
                *o = c.wrapping_sub(u);
            }
        }
        3 => {
            for i in 0..bpp {
                out[i] = cur[i].wrapping_sub(prev[i] >> 1);
            }
            for i in bpp..cur.len() {
                out[i] = cur[i].wrapping_sub(((u16::from(cur[i - bpp]) + u16::from(prev[i])) >> 1) as u8);
            }
        }
        _ => {
            for i in 0..bpp {
                out[i] = cur[i].wrapping_sub(prev[i]);
            }
            // Zipped slices rather than indices, so that the compiler vectorizes the predictor.
            let rest = out[bpp..].iter_mut().zip(&cur[bpp..]).zip(cur.iter().zip(&prev[bpp..]).zip(prev));
            for ((o, &x), ((&a, &b), &c)) in rest {
                *o = x.wrapping_sub(paeth(a, b, c));
            }
        }
    }
    kind
}

/// The Paeth predictor: whichever of left, above and upper-left is nearest to left + above - upper-left.
fn paeth(a: u8, b: u8, c: u8) -> u8 {
    let (a16, b16, c16) = (i16::from(a), i16::from(b), i16::from(c));
    // p - a, p - b and p - c, without p; selects rather than branches, for the vectorizer.
    let (pa, pb, pc) = ((b16 - c16).abs(), (a16 - c16).abs(), (a16 + b16 - 2 * c16).abs());
    let bc = if pb <= pc { b } else { c };
    if pa <= pb && pa <= pc { a } else { bc }
}

#[cfg(test)]
#[path = "png_fast_tests.rs"]
mod tests;
