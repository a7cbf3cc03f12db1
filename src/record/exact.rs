//! The writer of the exact formats, an animated PNG or PNG frames, wherever they go: both take
//! the sort's exact RGBA as frames.

use super::EncodeError;
use super::apng_writer::{ApngWriter, Rgba};
use super::delta::Region;
use super::png_frames::{FrameFiles, PngFramesWriter};
use super::sequence::{Delay, FrameSink};
use std::io::{Seek, Write};

/// An animated PNG into `W`, or PNG frames into `O`.
pub enum ExactWriter<W: Write + Seek + Send + 'static, O: FrameFiles> {
    /// An animated PNG.
    Apng(ApngWriter<W>),
    /// PNG frames.
    Frames(PngFramesWriter<O>),
}

/// What an [`ExactWriter`] wrote into.
pub enum ExactOutput<W, O> {
    /// The animated PNG's output.
    Apng(W),
    /// Where the frames went, and how many there were.
    Frames(O, u32),
}

impl<W: Write + Seek + Send + 'static, O: FrameFiles> ExactWriter<W, O> {
    /// Waits for every frame to be written and returns the output.
    pub fn finish(self) -> Result<ExactOutput<W, O>, EncodeError> {
        Ok(match self {
            ExactWriter::Apng(w) => ExactOutput::Apng(w.finish()?),
            ExactWriter::Frames(w) => {
                let (out, frames) = w.finish()?;
                ExactOutput::Frames(out, frames)
            }
        })
    }
}

impl<W: Write + Seek + Send + 'static, O: FrameFiles> FrameSink for ExactWriter<W, O> {
    type Pixel = Rgba;

    fn transparent(&self) -> Option<Rgba> {
        match self {
            ExactWriter::Apng(w) => w.transparent(),
            ExactWriter::Frames(w) => w.transparent(),
        }
    }

    fn push(&mut self, region: Region<Rgba>, delay: Delay) -> Result<(), EncodeError> {
        match self {
            ExactWriter::Apng(w) => w.push(region, delay),
            ExactWriter::Frames(w) => w.push(region, delay),
        }
    }
}
