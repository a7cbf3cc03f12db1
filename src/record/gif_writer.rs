//! GIF writers: one that compresses frames on worker threads and writes them in order (the
//! native recorder), and one that compresses each frame as it comes (the browser, which has no
//! threads). Both write the same bytes for the same frames.

use super::delta::FrameRegion;
use super::palette::GifPalette;
use std::io::Write;
#[cfg(not(target_arch = "wasm32"))]
use std::{
    collections::BTreeMap,
    sync::mpsc::{Receiver, SyncSender, sync_channel},
    sync::{Arc, Mutex},
    thread::JoinHandle,
};

/// One frame to write: where it goes, what it holds, how long it shows.
#[derive(Clone, Debug)]
pub struct GifFrame {
    /// The pixels.
    pub region: FrameRegion,
    /// Display time in hundredths of a second.
    pub delay_cs: u16,
}

/// Where a recording's frames go: a GIF writer of either kind.
pub trait FrameSink {
    /// The index that marks unchanged pixels, if the palette left one free.
    fn transparent(&self) -> Option<u8>;
    /// Writes (or queues) a frame.
    fn push(&mut self, frame: GifFrame) -> Result<(), gif::EncodingError>;
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
        buffer: region.indices.into(),
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

    /// Ends the file and returns the output.
    pub fn finish(self) -> Result<W, gif::EncodingError> {
        self.encoder.into_inner()
    }
}

impl<W: Write> FrameSink for InlineGifWriter<W> {
    fn transparent(&self) -> Option<u8> {
        self.transparent
    }

    fn push(&mut self, frame: GifFrame) -> Result<(), gif::EncodingError> {
        let mut frame = gif_frame(frame, self.transparent)?;
        frame.make_lzw_pre_encoded();
        self.encoder.write_lzw_pre_encoded_frame(&frame)
    }
}

#[cfg(not(target_arch = "wasm32"))]
type Job = (u64, gif::Frame<'static>);

/// Frames go in with [`ParallelGifWriter::push`]; workers LZW-compress them; one writer thread
/// puts them into the file in their original order.
#[cfg(not(target_arch = "wasm32"))]
pub struct ParallelGifWriter<W: Write + Send + 'static> {
    jobs: Option<SyncSender<Job>>,
    workers: Vec<JoinHandle<()>>,
    writer: Option<JoinHandle<Result<W, gif::EncodingError>>>,
    transparent: Option<u8>,
    next: u64,
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
        let encoder = gif_encoder(out, width, height, palette)?;
        let workers = workers.max(1);
        let (job_tx, job_rx) = sync_channel::<Job>(workers * 2);
        let (done_tx, done_rx) = sync_channel::<Job>(workers * 2);
        let job_rx = Arc::new(Mutex::new(job_rx));
        let workers = (0..workers)
            .map(|i| {
                let (job_rx, done_tx) = (job_rx.clone(), done_tx.clone());
                std::thread::Builder::new()
                    .name(format!("gif-lzw-{i}"))
                    .spawn(move || compress(&job_rx, &done_tx))
                    .expect("spawning a GIF worker thread")
            })
            .collect();
        drop(done_tx);
        let writer = std::thread::Builder::new()
            .name("gif-writer".into())
            .spawn(move || write_in_order(encoder, &done_rx))
            .expect("spawning the GIF writer thread");
        Ok(ParallelGifWriter {
            jobs: Some(job_tx),
            workers,
            writer: Some(writer),
            transparent: palette.transparent,
            next: 0,
        })
    }

    /// The index that marks unchanged pixels, if the palette left one free.
    pub fn transparent(&self) -> Option<u8> {
        self.transparent
    }

    /// Queues a frame (blocks while the workers are busy, so memory stays bounded).
    pub fn push(&mut self, frame: GifFrame) -> Result<(), gif::EncodingError> {
        let gif_frame = gif_frame(frame, self.transparent)?;
        let sent = self.jobs.as_ref().expect("push after finish").send((self.next, gif_frame));
        self.next += 1;
        if sent.is_err() {
            // The writer stopped, so a worker lost its receiver: report the writer's error.
            return Err(self.stop().err().unwrap_or_else(|| io_error("the GIF writer stopped early")));
        }
        Ok(())
    }

    /// Waits for every frame to be written, ends the file and returns the output.
    pub fn finish(mut self) -> Result<W, gif::EncodingError> {
        self.stop()
    }

    fn stop(&mut self) -> Result<W, gif::EncodingError> {
        drop(self.jobs.take());
        for worker in self.workers.drain(..) {
            let _ = worker.join();
        }
        match self.writer.take().map(JoinHandle::join) {
            Some(Ok(result)) => result,
            Some(Err(_)) => Err(io_error("the GIF writer thread panicked")),
            None => Err(io_error("the GIF writer was already stopped")),
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl<W: Write + Send + 'static> FrameSink for ParallelGifWriter<W> {
    fn transparent(&self) -> Option<u8> {
        self.transparent
    }

    fn push(&mut self, frame: GifFrame) -> Result<(), gif::EncodingError> {
        ParallelGifWriter::push(self, frame)
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl<W: Write + Send + 'static> Drop for ParallelGifWriter<W> {
    fn drop(&mut self) {
        if self.writer.is_some() {
            let _ = self.stop();
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn compress(jobs: &Mutex<Receiver<Job>>, done: &SyncSender<Job>) {
    loop {
        let job = jobs.lock().unwrap_or_else(|p| p.into_inner()).recv();
        let Ok((seq, mut frame)) = job else { return };
        frame.make_lzw_pre_encoded();
        if done.send((seq, frame)).is_err() {
            return;
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn write_in_order<W: Write>(
    mut encoder: gif::Encoder<W>,
    done: &Receiver<Job>,
) -> Result<W, gif::EncodingError> {
    let mut waiting = BTreeMap::new();
    let mut next = 0u64;
    for (seq, frame) in done {
        waiting.insert(seq, frame);
        while let Some(frame) = waiting.remove(&next) {
            encoder.write_lzw_pre_encoded_frame(&frame)?;
            next += 1;
        }
    }
    encoder.into_inner()
}

fn gif_side(v: u32) -> Result<u16, gif::EncodingError> {
    u16::try_from(v).map_err(|_| io_error("GIF sides are limited to 65535 pixels; use a smaller --scale"))
}

fn io_error(message: &str) -> gif::EncodingError {
    gif::EncodingError::Io(std::io::Error::other(message))
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
            writer.push(GifFrame { region: FrameRegion::full(&indices, 4, 1), delay_cs: i + 1 }).unwrap();
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
            FrameSink::push(&mut parallel, frame.clone()).unwrap();
            inline.push(frame).unwrap();
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
            if let Err(e) = writer.push(GifFrame { region: FrameRegion::full(&noise, 64, 64), delay_cs: 3 }) {
                failure = Some(e);
                break;
            }
        }
        let error = failure.or_else(|| writer.finish().err()).expect("a full disk must be reported");
        assert!(is_disk_full(&error), "{error}");
    }
}
