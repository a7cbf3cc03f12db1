//! GIF writers: one that compresses frames on worker threads and writes them in order (the
//! native recorder), and one that compresses each frame as it comes (the browser, which has no
//! threads). Both write the same bytes for the same frames.

use super::EncodeError;
use super::delta::FrameRegion;
use super::palette::GifPalette;
use super::sequence::{Delay, FrameSink};
use std::io::Write;

/// One frame to write: where it goes, what it holds, how long it shows.
#[derive(Clone, Debug)]
pub struct GifFrame {
    /// The pixels.
    pub region: FrameRegion,
    /// Display time in hundredths of a second.
    pub delay_cs: u16,
}

/// The GIF encoder for `width` x `height` frames with `palette`, looping forever.
fn gif_encoder<W: Write>(
    out: W,
    width: u32,
    height: u32,
    palette: &GifPalette,
) -> Result<gif::Encoder<W>, gif::EncodingError> {
    let (w, h) = (gif_side(width)?, gif_side(height)?);
    let mut encoder = gif::Encoder::new(out, w, h, &palette.rgb_bytes())?;
    encoder.set_repeat(gif::Repeat::Infinite)?;
    Ok(encoder)
}

/// `frame` as the gif crate's frame, not yet compressed.
fn gif_frame(frame: GifFrame, transparent: Option<u8>) -> Result<gif::Frame<'static>, gif::EncodingError> {
    let region = frame.region;
    Ok(gif::Frame {
        left: gif_side(region.left)?,
        top: gif_side(region.top)?,
        width: gif_side(region.width)?,
        height: gif_side(region.height)?,
        delay: frame.delay_cs,
        dispose: gif::DisposalMethod::Keep,
        transparent,
        buffer: region.pixels.into(),
        ..gif::Frame::default()
    })
}

/// Compresses and writes each frame as it is pushed, on the caller's thread.
pub struct InlineGifWriter<W: Write> {
    encoder: gif::Encoder<W>,
    transparent: Option<u8>,
}

impl<W: Write> InlineGifWriter<W> {
    /// Writes the header (global palette, loop forever).
    pub fn new(out: W, width: u32, height: u32, palette: &GifPalette) -> Result<Self, gif::EncodingError> {
        Ok(InlineGifWriter {
            encoder: gif_encoder(out, width, height, palette)?,
            transparent: palette.transparent,
        })
    }

    /// Writes (compresses, then writes) one frame.
    pub fn write(&mut self, frame: GifFrame) -> Result<(), gif::EncodingError> {
        let mut frame = gif_frame(frame, self.transparent)?;
        frame.make_lzw_pre_encoded();
        self.encoder.write_lzw_pre_encoded_frame(&frame)
    }

    /// Ends the file and returns the output.
    pub fn finish(self) -> Result<W, gif::EncodingError> {
        self.encoder.into_inner()
    }
}

impl<W: Write> FrameSink for InlineGifWriter<W> {
    type Pixel = u8;

    fn transparent(&self) -> Option<u8> {
        self.transparent
    }

    fn push(&mut self, region: FrameRegion, delay: Delay) -> Result<(), EncodeError> {
        Ok(self.write(GifFrame { region, delay_cs: delay.centiseconds() })?)
    }
}

/// Frames go in with [`ParallelGifWriter::write`]; workers LZW-compress them; one writer thread
/// puts them into the file in their original order.
#[cfg(not(target_arch = "wasm32"))]
pub struct ParallelGifWriter<W: Write + Send + 'static> {
    pool: super::ordered_pool::OrderedPool<gif::Frame<'static>, W, gif::EncodingError>,
    transparent: Option<u8>,
}

#[cfg(not(target_arch = "wasm32"))]
impl<W: Write + Send + 'static> ParallelGifWriter<W> {
    /// Writes the header (global palette, loop forever) and starts `workers` compressors.
    pub fn new(
        out: W,
        width: u32,
        height: u32,
        palette: &GifPalette,
        workers: usize,
    ) -> Result<Self, gif::EncodingError> {
        let mut encoder = gif_encoder(out, width, height, palette)?;
        let pool = super::ordered_pool::OrderedPool::new(
            "gif-lzw",
            workers,
            |mut frame: gif::Frame<'static>| {
                frame.make_lzw_pre_encoded();
                frame
            },
            move |frames| {
                for frame in frames {
                    encoder.write_lzw_pre_encoded_frame(&frame)?;
                }
                encoder.into_inner()
            },
        );
        Ok(ParallelGifWriter { pool, transparent: palette.transparent })
    }

    /// Queues a frame (blocks while the workers are busy, so memory stays bounded).
    pub fn write(&mut self, frame: GifFrame) -> Result<(), gif::EncodingError> {
        let frame = gif_frame(frame, self.transparent)?;
        self.pool.push(frame)
    }

    /// Waits for every frame to be written, ends the file and returns the output.
    pub fn finish(self) -> Result<W, gif::EncodingError> {
        self.pool.finish()
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl<W: Write + Send + 'static> FrameSink for ParallelGifWriter<W> {
    type Pixel = u8;

    fn transparent(&self) -> Option<u8> {
        self.transparent
    }

    fn push(&mut self, region: FrameRegion, delay: Delay) -> Result<(), EncodeError> {
        Ok(self.write(GifFrame { region, delay_cs: delay.centiseconds() })?)
    }
}

fn gif_side(v: u32) -> Result<u16, gif::EncodingError> {
    u16::try_from(v).map_err(|_| {
        gif::EncodingError::Io(std::io::Error::other(
            "GIF sides are limited to 65535 pixels; use a smaller --scale",
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_come_out_in_order_with_their_delays() {
        let palette = GifPalette { colours: vec![[0, 0, 0], [255, 0, 0]], transparent: Some(2), exact: true };
        let mut writer = ParallelGifWriter::new(Vec::new(), 4, 1, &palette, 3).unwrap();
        for i in 0..20u16 {
            let indices = vec![(i % 2) as u8; 4];
            writer.write(GifFrame { region: FrameRegion::full(&indices, 4, 1), delay_cs: i + 1 }).unwrap();
        }
        let bytes = writer.finish().unwrap();
        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::Indexed);
        let mut decoder = options.read_info(bytes.as_slice()).unwrap();
        let mut seen = Vec::new();
        while let Some(frame) = decoder.read_next_frame().unwrap() {
            seen.push((frame.delay, frame.buffer[0]));
        }
        let expected: Vec<(u16, u8)> = (0..20u16).map(|i| (i + 1, (i % 2) as u8)).collect();
        assert_eq!(seen, expected);
    }

    #[test]
    fn the_inline_writer_writes_the_same_bytes_as_the_parallel_one() {
        let palette = GifPalette {
            colours: vec![[0, 0, 0], [9, 9, 9], [200, 1, 2]],
            transparent: Some(3),
            exact: true,
        };
        let frames: Vec<GifFrame> = (0..12u32)
            .map(|i| {
                let indices: Vec<u8> = (0..40 * 30u32).map(|p| ((p * 7 + i * 13) % 4) as u8).collect();
                GifFrame { region: FrameRegion::full(&indices, 40, 30), delay_cs: 2 + i as u16 }
            })
            .collect();
        let mut parallel = ParallelGifWriter::new(Vec::new(), 40, 30, &palette, 3).unwrap();
        let mut inline = InlineGifWriter::new(Vec::new(), 40, 30, &palette).unwrap();
        for frame in frames {
            parallel.write(frame.clone()).unwrap();
            inline.write(frame).unwrap();
        }
        let (parallel, inline) = (parallel.finish().unwrap(), inline.finish().unwrap());
        assert!(parallel.len() > 1000);
        assert!(parallel == inline, "the two writers differ");
    }

    /// A disk that fills up after `room` bytes.
    struct Disk {
        room: usize,
    }

    impl Write for Disk {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            if buf.len() > self.room {
                return Err(std::io::Error::new(std::io::ErrorKind::StorageFull, "disk full"));
            }
            self.room -= buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn is_disk_full(e: &gif::EncodingError) -> bool {
        matches!(e, gif::EncodingError::Io(io) if io.kind() == std::io::ErrorKind::StorageFull)
    }

    #[test]
    fn a_full_disk_is_reported_at_the_header() {
        let palette = GifPalette { colours: vec![[0, 0, 0]], transparent: None, exact: true };
        let error = ParallelGifWriter::new(Disk { room: 0 }, 1, 1, &palette, 1).err().unwrap();
        assert!(is_disk_full(&error), "{error}");
    }

    #[test]
    fn a_disk_that_fills_during_the_frames_is_reported() {
        let palette = GifPalette { colours: vec![[0, 0, 0], [9, 9, 9]], transparent: Some(2), exact: true };
        let mut writer = ParallelGifWriter::new(Disk { room: 2000 }, 64, 64, &palette, 2).unwrap();
        let noise: Vec<u8> = (0..64 * 64u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 31) as u8).collect();
        let mut failure = None;
        for _ in 0..200 {
            if let Err(e) = writer.write(GifFrame { region: FrameRegion::full(&noise, 64, 64), delay_cs: 3 })
            {
                failure = Some(e);
                break;
            }
        }
        let error = failure.or_else(|| writer.finish().err()).expect("a full disk must be reported");
        assert!(is_disk_full(&error), "{error}");
    }
}
