//! A live source as the window and the page take it: the newest frame whenever asked, older
//! frames dropped and counted, never queued. Natively ffmpeg reads a stream or camera
//! (`media::live::frames`); the page reads the browser's camera.

use image::RgbaImage;

/// What a live source has now.
#[derive(Debug)]
pub enum LiveNext {
    /// The newest frame not yet taken, and when it arrived.
    Frame(RgbaImage, web_time::Instant),
    /// No frame came since the last one taken.
    Waiting,
    /// The source sent its last frame: as it should, or with this reason.
    Ended(Result<(), String>),
}

/// A live source started, with its first frame.
pub struct Started {
    /// The source, reading on.
    pub frames: Box<dyn LiveFrames>,
    /// Its name for files saved from it.
    pub name: String,
    /// Its first frame.
    pub first: RgbaImage,
    /// Its own size (its frames may be downscaled to the size limit).
    pub source_size: (u32, u32),
    /// Says when its frames are downscaled.
    pub note: Option<String>,
}

/// A source of frames that come as they happen.
pub trait LiveFrames {
    /// The source as messages name it.
    fn label(&self) -> String;
    /// The newest frame not yet taken, without waiting (the frames before it are dropped).
    fn newest(&mut self) -> LiveNext;
    /// Frames the source sent, and of those, dropped before they were taken.
    fn counts(&self) -> (u64, u64);
}
