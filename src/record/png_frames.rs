//! A recording as PNG frames (`frame-00000.png`, ...), for video editors and ffmpeg: each frame
//! the whole picture, exact, compressed on worker threads and written in order into a folder the
//! caller gives (natively a temporary one, renamed into place at the end) or, in the page, into a
//! zip archive ([`super::zip`]).

use super::EncodeError;
use super::apng_writer::{Rgba, encode_png};
use super::delta::Region;
use super::ordered_pool::OrderedPool;
use super::sequence::{Delay, FrameSink};

/// Where the frames' files go.
pub trait FrameFiles: Send + 'static {
    /// Adds the file `name` holding `data`.
    fn add(&mut self, name: &str, data: &[u8]) -> Result<(), EncodeError>;
}

/// A folder on disk.
#[cfg(not(target_arch = "wasm32"))]
pub struct Folder(pub std::path::PathBuf);

#[cfg(not(target_arch = "wasm32"))]
impl FrameFiles for Folder {
    fn add(&mut self, name: &str, data: &[u8]) -> Result<(), EncodeError> {
        Ok(std::fs::write(self.0.join(name), data)?)
    }
}

/// The file name of frame `index`.
pub fn frame_name(index: u32) -> String {
    format!("frame-{index:05}.png")
}

/// The ffmpeg input pattern that reads the frames in order.
pub const FRAME_PATTERN: &str = "frame-%05d.png";

/// Writes each frame as its own PNG file.
pub struct PngFramesWriter<O: FrameFiles> {
    pool: OrderedPool<Vec<Rgba>, (O, u32), EncodeError>,
    canvas: Vec<Rgba>,
    width: u32,
}

impl<O: FrameFiles> PngFramesWriter<O> {
    /// Frames of `width` x `height` into `out`, compressed by `workers` threads; RGB files when
    /// every pixel is opaque, RGBA otherwise.
    pub fn new(out: O, width: u32, height: u32, opaque: bool, workers: usize) -> Self {
        let pool = OrderedPool::new(
            "png-frames",
            workers,
            move |canvas: Vec<Rgba>| encode_frame(&canvas, width, height, opaque),
            move |files| write_files(out, files),
        );
        PngFramesWriter { pool, canvas: vec![[0; 4]; width as usize * height as usize], width }
    }

    /// Waits for every frame to be written; returns where they went and how many there were.
    pub fn finish(self) -> Result<(O, u32), EncodeError> {
        self.pool.finish()
    }
}

impl<O: FrameFiles> FrameSink for PngFramesWriter<O> {
    type Pixel = Rgba;

    fn transparent(&self) -> Option<Rgba> {
        None
    }

    fn push(&mut self, region: Region<Rgba>, _delay: Delay) -> Result<(), EncodeError> {
        region.paint(&mut self.canvas, self.width, None);
        self.pool.push(self.canvas.clone())
    }
}

fn encode_frame(canvas: &[Rgba], width: u32, height: u32, opaque: bool) -> Result<Vec<u8>, EncodeError> {
    if opaque {
        let rgb: Vec<u8> = canvas.iter().flat_map(|p| [p[0], p[1], p[2]]).collect();
        encode_png(width, height, png::ColorType::Rgb, &rgb)
    } else {
        encode_png(width, height, png::ColorType::Rgba, canvas.as_flattened())
    }
}

fn write_files<O: FrameFiles>(
    mut out: O,
    files: &mut dyn Iterator<Item = Result<Vec<u8>, EncodeError>>,
) -> Result<(O, u32), EncodeError> {
    let mut written = 0;
    for bytes in files {
        out.add(&frame_name(written), &bytes?)?;
        written += 1;
    }
    Ok((out, written))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_frame_is_a_whole_picture_in_its_own_file() {
        let dir = tempfile::tempdir().unwrap();
        let first: Vec<Rgba> = (0..6u8).map(|i| [i, 2 * i, 3 * i, 255]).collect();
        let mut second = first.clone();
        second.swap(1, 4);
        let mut writer = PngFramesWriter::new(Folder(dir.path().to_path_buf()), 3, 2, true, 2);
        writer.push(Region::full(&first, 3, 2), Delay { num: 1, den: 30 }).unwrap();
        writer.push(Region::changed(&first, &second, 3, 2, None), Delay { num: 1, den: 30 }).unwrap();
        assert_eq!(writer.finish().unwrap().1, 2);
        for (i, expected) in [first, second].iter().enumerate() {
            let frame = image::open(dir.path().join(frame_name(i as u32))).unwrap();
            assert_eq!(frame.color(), image::ColorType::Rgb8, "opaque frames are RGB");
            assert_eq!(frame.to_rgba8().into_raw(), expected.as_flattened());
        }
        assert_eq!(frame_name(123_456), "frame-123456.png");
    }
}
