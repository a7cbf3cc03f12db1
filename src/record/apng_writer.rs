//! Animated PNG: every frame exact RGBA8. Frames after the first are the rectangle that changed;
//! when the picture is opaque, unchanged pixels inside it are fully transparent and blended over
//! the previous frame, which compresses well. Workers compress frames (through the `png` crate)
//! while one thread writes the chunks in order; the frame count, known only at the end, is then
//! written into the animation control chunk.

use super::EncodeError;
use super::delta::Region;
use super::ordered_pool::OrderedPool;
use super::sequence::{Delay, FrameSink};
use std::io::{Seek, SeekFrom, Write};

/// An RGBA pixel.
pub type Rgba = [u8; 4];

/// Where the acTL chunk's data starts: after the signature (8 bytes) and IHDR (25), and acTL's
/// own length and type.
const ACTL_DATA_OFFSET: u64 = 8 + 25 + 8;

/// The most data one chunk carries (PNG allows 2^31 - 1).
const MAX_CHUNK_DATA: usize = 1 << 30;

/// How a frame's pixels meet the canvas (APNG's blend_op).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Blend {
    /// Replace the region (blend_op 0).
    Source,
    /// Composite over it; fully transparent pixels leave it as it was (blend_op 1).
    Over,
}

/// A frame as the writer thread takes it.
struct Compressed {
    left: u32,
    top: u32,
    width: u32,
    height: u32,
    delay: Delay,
    blend: Blend,
    zlib: Result<Vec<u8>, EncodeError>,
}

/// Writes an APNG that loops forever.
pub struct ApngWriter<W: Write + Seek + Send + 'static> {
    pool: OrderedPool<(Region<Rgba>, Delay, Blend), W, EncodeError>,
    transparent: Option<Rgba>,
    frames: u32,
}

impl<W: Write + Seek + Send + 'static> ApngWriter<W> {
    /// An APNG of `width` x `height` into `out`, compressed by `workers` threads. `opaque` says
    /// every pixel of every frame is opaque, so that unchanged pixels may be marked transparent.
    pub fn new(out: W, width: u32, height: u32, opaque: bool, workers: usize) -> Self {
        let pool = OrderedPool::new(
            "apng-deflate",
            workers,
            |(region, delay, blend): (Region<Rgba>, Delay, Blend)| Compressed {
                left: region.left,
                top: region.top,
                width: region.width,
                height: region.height,
                delay,
                blend,
                zlib: zlib_stream(&region),
            },
            move |frames| write_file(out, width, height, frames),
        );
        ApngWriter { pool, transparent: opaque.then_some([0; 4]), frames: 0 }
    }

    /// Waits for every frame, ends the file (with the frame count filled in) and returns the output.
    pub fn finish(self) -> Result<W, EncodeError> {
        self.pool.finish()
    }
}

impl<W: Write + Seek + Send + 'static> FrameSink for ApngWriter<W> {
    type Pixel = Rgba;

    fn transparent(&self) -> Option<Rgba> {
        self.transparent
    }

    fn push(&mut self, region: Region<Rgba>, delay: Delay) -> Result<(), EncodeError> {
        // The first frame is the default image and must replace the (empty) canvas.
        let blend = if self.frames > 0 && self.transparent.is_some() { Blend::Over } else { Blend::Source };
        self.frames += 1;
        self.pool.push((region, delay, blend))
    }
}

/// The region's pixels as a zlib stream of filtered PNG rows: the data of a PNG of the region
/// made by the `png` crate, taken out of its IDAT chunks.
fn zlib_stream(region: &Region<Rgba>) -> Result<Vec<u8>, EncodeError> {
    let png = encode_png(region.width, region.height, png::ColorType::Rgba, region.pixels.as_flattened())?;
    Ok(chunks(&png).filter(|(kind, _)| kind == b"IDAT").flat_map(|(_, data)| data.iter().copied()).collect())
}

/// A whole PNG file of `pixels` (`color` samples, 8 bits each), compressed fast.
pub fn encode_png(
    width: u32,
    height: u32,
    color: png::ColorType,
    pixels: &[u8],
) -> Result<Vec<u8>, EncodeError> {
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, width, height);
    encoder.set_color(color);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(pixels)?;
    writer.finish()?;
    Ok(bytes)
}

/// The chunks of a PNG file: (type, data).
fn chunks(png: &[u8]) -> impl Iterator<Item = ([u8; 4], &[u8])> {
    let mut rest = png.get(8..).unwrap_or_default();
    std::iter::from_fn(move || {
        let length = u32::from_be_bytes(rest.get(..4)?.try_into().ok()?) as usize;
        let kind: [u8; 4] = rest.get(4..8)?.try_into().ok()?;
        let data = rest.get(8..8 + length)?;
        rest = rest.get(8 + length + 4..)?;
        Some((kind, data))
    })
}

/// Writes one chunk: length, type, data, CRC of type and data.
fn write_chunk(out: &mut impl Write, kind: &[u8; 4], data: &[u8]) -> std::io::Result<()> {
    out.write_all(&(data.len() as u32).to_be_bytes())?;
    out.write_all(kind)?;
    out.write_all(data)?;
    out.write_all(&chunk_crc(kind, data).to_be_bytes())
}

fn chunk_crc(kind: &[u8; 4], data: &[u8]) -> u32 {
    let mut crc = crc32fast::Hasher::new();
    crc.update(kind);
    crc.update(data);
    crc.finalize()
}

/// The writer thread: header, then each frame's fcTL and data chunks in order, then IEND; then
/// the frame count into acTL.
fn write_file<W: Write + Seek>(
    mut out: W,
    width: u32,
    height: u32,
    frames: &mut dyn Iterator<Item = Compressed>,
) -> Result<W, EncodeError> {
    out.write_all(&[0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n'])?;
    let mut ihdr = Vec::with_capacity(13);
    ihdr.extend(width.to_be_bytes());
    ihdr.extend(height.to_be_bytes());
    // 8 bits per sample, RGBA, deflate, adaptive filtering, no interlace.
    ihdr.extend([8, 6, 0, 0, 0]);
    write_chunk(&mut out, b"IHDR", &ihdr)?;
    write_chunk(&mut out, b"acTL", &animation_control(0))?;
    let mut sequence = 0u32;
    let mut count = 0u32;
    for frame in frames {
        let zlib = frame.zlib?;
        let mut fctl = Vec::with_capacity(26);
        fctl.extend(sequence.to_be_bytes());
        for v in [frame.width, frame.height, frame.left, frame.top] {
            fctl.extend(v.to_be_bytes());
        }
        fctl.extend(frame.delay.num.to_be_bytes());
        fctl.extend(frame.delay.den.to_be_bytes());
        // dispose_op 0: leave the canvas as the frame made it.
        fctl.extend([0, if frame.blend == Blend::Over { 1 } else { 0 }]);
        write_chunk(&mut out, b"fcTL", &fctl)?;
        sequence += 1;
        for piece in zlib.chunks(MAX_CHUNK_DATA) {
            if count == 0 {
                write_chunk(&mut out, b"IDAT", piece)?;
            } else {
                let mut fdat = Vec::with_capacity(4 + piece.len());
                fdat.extend(sequence.to_be_bytes());
                fdat.extend_from_slice(piece);
                write_chunk(&mut out, b"fdAT", &fdat)?;
                sequence += 1;
            }
        }
        count += 1;
    }
    write_chunk(&mut out, b"IEND", &[])?;
    let end = out.stream_position()?;
    out.seek(SeekFrom::Start(ACTL_DATA_OFFSET))?;
    let actl = animation_control(count);
    out.write_all(&actl)?;
    out.write_all(&chunk_crc(b"acTL", &actl).to_be_bytes())?;
    out.seek(SeekFrom::Start(end))?;
    out.flush()?;
    Ok(out)
}

/// acTL's data: `frames` frames, looping forever.
fn animation_control(frames: u32) -> [u8; 8] {
    let mut data = [0; 8];
    data[..4].copy_from_slice(&frames.to_be_bytes());
    data
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    /// Decodes an APNG with the `png` crate: each frame's control and its pixels on a canvas
    /// that the frames paint in turn (as a viewer does).
    fn decode(bytes: &[u8]) -> (u32, Vec<(png::FrameControl, Vec<u8>)>) {
        let mut reader = png::Decoder::new(Cursor::new(bytes)).read_info().unwrap();
        let info = reader.info();
        let (width, height) = (info.width as usize, info.height as usize);
        let frames = info.animation_control.expect("an acTL chunk").num_frames;
        let mut canvas = vec![0u8; width * height * 4];
        let mut out = Vec::new();
        let mut buffer = vec![0; reader.output_buffer_size().unwrap()];
        for _ in 0..frames {
            reader.next_frame(&mut buffer).unwrap();
            let control = *reader.info().frame_control.as_ref().unwrap();
            let (w, x, y) = (control.width as usize, control.x_offset as usize, control.y_offset as usize);
            for (row, pixels) in buffer[..w * 4 * control.height as usize].chunks_exact(w * 4).enumerate() {
                let start = ((y + row) * width + x) * 4;
                for (dst, src) in canvas[start..start + w * 4].chunks_exact_mut(4).zip(pixels.chunks_exact(4))
                {
                    if control.blend_op == png::BlendOp::Source || src[3] == 255 {
                        dst.copy_from_slice(src);
                    }
                }
            }
            out.push((control, canvas.clone()));
        }
        (frames, out)
    }

    fn picture(seed: u32, len: usize, alpha: u8) -> Vec<Rgba> {
        (0..len as u32)
            .map(|i| {
                let v = (i ^ seed).wrapping_mul(2_654_435_761).to_le_bytes();
                [v[0], v[1], v[2], alpha]
            })
            .collect()
    }

    fn record(pictures: &[Vec<Rgba>], width: u32, height: u32, opaque: bool) -> Vec<u8> {
        let mut writer = ApngWriter::new(Cursor::new(Vec::new()), width, height, opaque, 3);
        let mut previous: Option<&Vec<Rgba>> = None;
        for (i, p) in pictures.iter().enumerate() {
            let region = match previous {
                None => Region::full(p, width, height),
                Some(before) => Region::changed(before, p, width, height, writer.transparent()),
            };
            writer.push(region, Delay { num: i as u16 + 1, den: 30 }).unwrap();
            previous = Some(p);
        }
        writer.finish().unwrap().into_inner()
    }

    #[test]
    fn every_frame_decodes_exactly_with_its_delay() {
        for (opaque, alpha) in [(true, 255), (false, 77)] {
            let (w, h) = (13u32, 7u32);
            let mut pictures = vec![picture(1, 91, alpha)];
            for k in 0..6u32 {
                let mut next = pictures.last().unwrap().clone();
                // Change a few pixels (and none in one frame).
                if k != 3 {
                    next.swap((k * 5 + 2) as usize, (k * 11 + 20) as usize % 91);
                }
                pictures.push(next);
            }
            let bytes = record(&pictures, w, h, opaque);
            let (count, frames) = decode(&bytes);
            assert_eq!(count, 7);
            for (i, ((control, canvas), expected)) in frames.iter().zip(&pictures).enumerate() {
                assert_eq!(canvas.as_slice(), expected.as_flattened(), "frame {i} (opaque {opaque})");
                assert_eq!((control.delay_num, control.delay_den), (i as u16 + 1, 30));
            }
            let later = &frames[1].0;
            assert!(later.width < w || later.height < h, "later frames are the changed rectangle");
            let blend = if opaque { png::BlendOp::Over } else { png::BlendOp::Source };
            assert_eq!(later.blend_op, blend);
        }
    }

    #[test]
    fn one_frame_is_a_valid_animation() {
        let bytes = record(&[picture(9, 4, 255)], 2, 2, true);
        let (count, frames) = decode(&bytes);
        assert_eq!((count, frames[0].1.as_slice()), (1, picture(9, 4, 255).as_flattened()));
    }

    #[test]
    fn a_full_disk_is_reported() {
        struct Full;
        impl Write for Full {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                Err(std::io::Error::new(std::io::ErrorKind::StorageFull, "disk full"))
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        impl Seek for Full {
            fn seek(&mut self, _: SeekFrom) -> std::io::Result<u64> {
                Ok(0)
            }
        }
        let mut writer = ApngWriter::new(Full, 4, 4, true, 2);
        let failure = (0..100)
            .find_map(|_| {
                writer.push(Region::full(&picture(3, 16, 255), 4, 4), Delay { num: 1, den: 30 }).err()
            })
            .or_else(|| writer.finish().err())
            .expect("a full disk must be reported");
        assert!(
            matches!(failure, EncodeError::Io(ref e) if e.kind() == std::io::ErrorKind::StorageFull),
            "{failure}"
        );
    }
}
