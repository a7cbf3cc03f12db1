//! A recording's frames in order: each frame becomes the region that changed since the one
//! before, and the newest is held back so that the last one gets the hold delay. Any format
//! that takes regions ([`FrameSink`]: GIF, APNG, a folder of PNG frames) is written this way.

use super::EncodeError;
use super::delta::Region;
use crate::settings::RecordSettings;

/// How long a frame shows: `num / den` seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Delay {
    /// Numerator.
    pub num: u16,
    /// Denominator (never 0).
    pub den: u16,
}

impl Delay {
    /// The delay in whole hundredths of a second, as GIF stores it.
    pub fn centiseconds(self) -> u16 {
        ((u32::from(self.num) * 100 + u32::from(self.den) / 2) / u32::from(self.den)) as u16
    }
}

impl RecordSettings {
    /// The delay of every frame but the last: one frame at `fps`.
    pub fn frame_delay(&self) -> Delay {
        Delay { num: 1, den: self.fps.clamp(1, 50) as u16 }
    }

    /// The delay of the last frame: the hold (to a hundredth of a second), but never shorter
    /// than a frame.
    pub fn last_delay(&self) -> Delay {
        let hold_cs = (self.hold_seconds.clamp(0.0, 600.0) * 100.0).round() as u16;
        let frame = self.frame_delay();
        // hold_cs / 100 >= 1 / fps
        if u32::from(hold_cs) * u32::from(frame.den) >= 100 {
            Delay { num: hold_cs, den: 100 }
        } else {
            frame
        }
    }
}

/// What a frame's pixel is, read from the sort's RGBA8 state: a GIF palette index (carried
/// in the alpha byte), or the RGBA pixel itself.
pub trait FramePixel: Copy + PartialEq + Send + 'static {
    /// Appends the pixels of a row of RGBA8 bytes.
    fn extend_from_rgba(row: &[u8], out: &mut Vec<Self>);
}

impl FramePixel for u8 {
    fn extend_from_rgba(row: &[u8], out: &mut Vec<u8>) {
        out.extend(row.iter().skip(3).step_by(4));
    }
}

impl FramePixel for [u8; 4] {
    fn extend_from_rgba(row: &[u8], out: &mut Vec<[u8; 4]>) {
        out.extend(row.chunks_exact(4).map(|p| [p[0], p[1], p[2], p[3]]));
    }
}

/// Where a recording's frames go.
pub trait FrameSink {
    /// What a pixel is: a palette index, or RGBA.
    type Pixel: FramePixel;
    /// The pixel that marks "unchanged: keep the previous frame's", if the format has one.
    fn transparent(&self) -> Option<Self::Pixel>;
    /// Writes (or queues) a frame.
    fn push(&mut self, region: Region<Self::Pixel>, delay: Delay) -> Result<(), EncodeError>;
}

/// Turns successive whole pictures into frames; holds one back so the last gets the hold delay.
pub(super) struct FrameSequence<S: FrameSink> {
    writer: S,
    previous: Vec<S::Pixel>,
    pending: Option<Region<S::Pixel>>,
    pub(super) written: u32,
    /// The step count of the newest frame.
    pub(super) last_steps: u32,
    width: u32,
    height: u32,
    settings: RecordSettings,
}

impl<S: FrameSink> FrameSequence<S> {
    /// A sequence into `writer` whose first frame is `first` (a `width` x `height` picture), held
    /// back until the next frame or the end.
    pub(super) fn starting_with(
        writer: S,
        first: Vec<S::Pixel>,
        width: u32,
        height: u32,
        settings: &RecordSettings,
    ) -> Self {
        let pending = Some(Region::full(&first, width, height).scaled(settings.scale));
        let settings = settings.clone();
        FrameSequence { writer, previous: first, pending, written: 0, last_steps: 0, width, height, settings }
    }

    /// The pictures' size (before scaling).
    #[cfg(not(target_arch = "wasm32"))]
    pub(super) fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// Adds the picture after `steps` steps as the next frame.
    pub(super) fn push(&mut self, picture: Vec<S::Pixel>, steps: u32) -> Result<(), EncodeError> {
        self.push_after(picture, steps, self.settings.frame_delay())
    }

    /// Adds the picture after `steps` steps as the next frame, the frame before it lasting
    /// `delay`.
    pub(super) fn push_after(
        &mut self,
        picture: Vec<S::Pixel>,
        steps: u32,
        delay: Delay,
    ) -> Result<(), EncodeError> {
        self.last_steps = steps;
        let transparent = self.writer.transparent();
        let region = Region::changed(&self.previous, &picture, self.width, self.height, transparent)
            .scaled(self.settings.scale);
        self.previous = picture;
        if let Some(ready) = self.pending.replace(region) {
            self.writer.push(ready, delay)?;
            self.written += 1;
        }
        Ok(())
    }

    /// Writes the frame held back, with the hold delay; returns the writer and the frames
    /// written.
    pub(super) fn finish(self) -> Result<(S, u32), EncodeError> {
        let hold = self.settings.last_delay();
        self.finish_after(hold)
    }

    /// Writes the frame held back, lasting `delay`; returns the writer and the frames written.
    pub(super) fn finish_after(mut self, delay: Delay) -> Result<(S, u32), EncodeError> {
        if let Some(last) = self.pending.take() {
            self.writer.push(last, delay)?;
            self.written += 1;
        }
        Ok((self.writer, self.written))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gif_delays_are_whole_hundredths() {
        let s = RecordSettings { fps: 30, hold_seconds: 1.5, ..Default::default() };
        assert_eq!((s.frame_delay().centiseconds(), s.last_delay().centiseconds()), (3, 150));
        let s = RecordSettings { fps: 50, hold_seconds: 0.0, ..Default::default() };
        assert_eq!((s.frame_delay().centiseconds(), s.last_delay().centiseconds()), (2, 2));
    }

    #[test]
    fn exact_delays_are_one_frame_and_the_hold() {
        let s = RecordSettings { fps: 30, hold_seconds: 2.0, ..Default::default() };
        assert_eq!(s.frame_delay(), Delay { num: 1, den: 30 });
        assert_eq!(s.last_delay(), Delay { num: 200, den: 100 });
        let short = RecordSettings { fps: 7, hold_seconds: 0.1, ..Default::default() };
        assert_eq!(short.last_delay(), Delay { num: 1, den: 7 }, "a hold shorter than a frame is a frame");
        let long = RecordSettings { hold_seconds: 600.0, ..Default::default() };
        assert_eq!(long.last_delay(), Delay { num: 60000, den: 100 });
    }
}
