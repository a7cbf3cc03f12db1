//! Where the clip pipeline's workers take frames from: a clip's decoder, every frame in order
//! (the decoder waits for the sort), or a live source's newest frame (older ones dropped).

use super::error::ClipError;
use super::source::DecodedFrame;
use std::sync::{Mutex, mpsc};
use std::time::Instant;

/// A frame's place in what the source sent, and when it came.
#[derive(Clone, Copy, Debug)]
pub struct FrameTag {
    /// Its number among the frames the source sent (counted from 0; a gap is a dropped frame).
    pub arrival: u64,
    /// When it was read from the source.
    pub at: Instant,
}

/// A frame from the source, or the error that ends it.
pub struct Arrived {
    /// Where and when it came.
    pub tag: FrameTag,
    /// The frame.
    pub frame: Result<DecodedFrame, ClipError>,
}

/// Frames for the pipeline's workers, shared by them.
pub trait Feed: Send + Sync {
    /// The next frame to sort, numbered in the order frames are taken (from 0, no gaps); `None`
    /// once the source ended or the sort stopped.
    fn next(&self) -> Option<(usize, Arrived)>;
}

/// A decoded frame (or the error that ends the clip) and when it came.
pub type Decoded = (Instant, Result<DecodedFrame, ClipError>);

/// A clip's frames as its decoder thread sends them: every one, in order.
pub struct ClipFeed(Mutex<std::iter::Enumerate<mpsc::IntoIter<Decoded>>>);

impl ClipFeed {
    /// The frames arriving through `decoded`.
    pub fn new(decoded: mpsc::Receiver<Decoded>) -> ClipFeed {
        ClipFeed(Mutex::new(decoded.into_iter().enumerate()))
    }
}

impl Feed for ClipFeed {
    fn next(&self) -> Option<(usize, Arrived)> {
        let (index, (at, frame)) = self.0.lock().unwrap_or_else(|p| p.into_inner()).next()?;
        Some((index, Arrived { tag: FrameTag { arrival: index as u64, at }, frame }))
    }
}

/// Keeps an output in the source's time: a frame is written once for its own arrival and, for
/// each arrival dropped before it, the frame written before it is written again (the first frame
/// stands in for drops before it).
#[derive(Debug)]
pub struct KeepTime<T> {
    last: Option<T>,
    next: u64,
}

impl<T> Default for KeepTime<T> {
    fn default() -> Self {
        KeepTime { last: None, next: 0 }
    }
}

impl<T> KeepTime<T> {
    /// Writes `frame`, the `arrival`th the source sent, through `write`, after the frames for
    /// the arrivals dropped since the last one.
    pub fn push<E>(
        &mut self,
        arrival: u64,
        frame: T,
        mut write: impl FnMut(&T) -> Result<(), E>,
    ) -> Result<(), E> {
        for _ in self.next..arrival {
            write(self.last.as_ref().unwrap_or(&frame))?;
        }
        self.next = self.next.max(arrival + 1);
        write(&frame)?;
        self.last = Some(frame);
        Ok(())
    }

    /// Frames written so far.
    pub fn written(&self) -> u64 {
        self.next
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dropped_arrivals_are_the_frame_before_again() {
        let mut time = KeepTime::default();
        let mut out: Vec<&str> = Vec::new();
        for (arrival, frame) in [(1, "b"), (2, "c"), (5, "f"), (6, "g")] {
            let write = |f: &&'static str| {
                out.push(f);
                Ok::<_, ()>(())
            };
            time.push(arrival, frame, write).unwrap();
        }
        assert_eq!(out, ["b", "b", "c", "c", "c", "f", "g"]);
        assert_eq!(time.written(), 7);
    }
}
