//! A take: frames recorded as they are shown (a live source's, each sorted), each lasting until
//! the next one came and the last until the take ended, as GIF (every frame in the palette of
//! the first), an animated PNG or PNG frames, through the same writers as a run's recording:
//! natively into a file or folder put in place at the end, in the page into memory.

use super::apng_writer::Rgba;
use super::palette::{PaletteCube, Quantized};
use super::sequence::{Delay, FramePixel, FrameSequence, FrameSink};
use super::{EncodeError, RecordError, RecordFormat, rgba_pixels};
use crate::settings::RecordSettings;
use image::RgbaImage;
use std::path::PathBuf;
use std::time::Duration;

/// Why a take that got no frame wrote nothing.
pub const NO_FRAME: &str = "no frame was sorted to the end while recording; nothing was written";

/// A take under way: frames go in with the time each was shown, counted from any start.
pub trait Take {
    /// Adds the next frame, shown at `at` (never before the frame before it).
    fn push(&mut self, frame: &RgbaImage, at: Duration) -> Result<(), RecordError>;
    /// Ends the take at `at`, the last frame lasting until then, and writes it whole.
    fn finish(self: Box<Self>, at: Duration) -> Result<Taken, RecordError>;
}

/// What a take made.
#[derive(Clone, Debug, PartialEq)]
pub struct Taken {
    /// Frames in it.
    pub frames: u32,
    /// GIF, animated PNG or PNG frames.
    pub format: RecordFormat,
    /// Where it went.
    pub output: TakeOutput,
}

/// Where a take went.
#[derive(Clone, Debug, PartialEq)]
pub enum TakeOutput {
    /// Natively, a file or folder of this many bytes.
    File(PathBuf, u64),
    /// In the page, the file's bytes (for PNG frames, a zip archive of them).
    Memory(Vec<u8>),
}

/// A take's frames into one writer, each frame's delay the time until the next.
pub(super) struct Frames<S: FrameSink> {
    sequence: FrameSequence<S>,
    /// The first frame's palette, for a GIF.
    cube: Option<PaletteCube>,
    size: (u32, u32),
    /// Delay units in a second: hundredths for GIF (what it stores), thousandths otherwise.
    units: u64,
    /// When the frame held back was shown, in units.
    shown: u64,
}

/// A take's pixels: palette indices, or RGBA.
pub(super) trait TakePixel: FramePixel {
    /// `frame`'s pixels, through `cube` for palette indices.
    fn of_frame(frame: &RgbaImage, cube: Option<&PaletteCube>) -> Vec<Self>;
}

impl TakePixel for u8 {
    fn of_frame(frame: &RgbaImage, cube: Option<&PaletteCube>) -> Vec<u8> {
        cube.expect("a GIF take has its palette").indices(frame.as_raw())
    }
}

impl TakePixel for Rgba {
    fn of_frame(frame: &RgbaImage, _: Option<&PaletteCube>) -> Vec<Rgba> {
        rgba_pixels(frame)
    }
}

impl<S: FrameSink<Pixel = u8>> Frames<S> {
    /// A GIF take into `writer`, whose palette is `first`'s: the first frame keeps its own
    /// indices, later frames are mapped to the palette colour by colour.
    pub(super) fn gif(
        writer: S,
        first: Quantized,
        size: (u32, u32),
        at: Duration,
        settings: &RecordSettings,
    ) -> Self {
        let cube = Some(PaletteCube::new(&first.palette, settings.background));
        let sequence = FrameSequence::starting_with(writer, first.indices, size.0, size.1, settings);
        Frames { sequence, cube, size, units: 100, shown: units_at(at, 100) }
    }
}

impl<S: FrameSink<Pixel = Rgba>> Frames<S> {
    /// An animated PNG or PNG frames take into `writer`.
    pub(super) fn exact(writer: S, first: &RgbaImage, at: Duration, settings: &RecordSettings) -> Self {
        let size = first.dimensions();
        let sequence = FrameSequence::starting_with(writer, rgba_pixels(first), size.0, size.1, settings);
        Frames { sequence, cube: None, size, units: 1000, shown: units_at(at, 1000) }
    }
}

impl<S: FrameSink> Frames<S>
where
    S::Pixel: TakePixel,
{
    /// Adds `frame`, shown at `at`.
    pub(super) fn push(&mut self, frame: &RgbaImage, at: Duration) -> Result<(), EncodeError> {
        if frame.dimensions() != self.size {
            let (w, h) = self.size;
            let message =
                format!("a {}x{} frame came for a take of {w}x{h} frames", frame.width(), frame.height());
            return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, message).into());
        }
        let pixels = S::Pixel::of_frame(frame, self.cube.as_ref());
        let delay = self.delay_until(at);
        self.sequence.push_after(pixels, 0, delay)
    }

    /// Writes the last frame, lasting until `at`; the writer and the frames written.
    pub(super) fn finish(mut self, at: Duration) -> Result<(S, u32), EncodeError> {
        let delay = self.delay_until(at);
        self.sequence.finish_after(delay)
    }

    /// How long the frame held back showed if the next comes at `at`: counted in whole units
    /// from the start, so that rounding never drifts; at least one unit.
    fn delay_until(&mut self, at: Duration) -> Delay {
        let num = units_at(at, self.units).saturating_sub(self.shown).clamp(1, u64::from(u16::MAX));
        self.shown += num;
        Delay { num: num as u16, den: self.units as u16 }
    }
}

/// `at` in whole `units` a second, rounded.
fn units_at(at: Duration, units: u64) -> u64 {
    ((at.as_micros() as u64).saturating_mul(units) + 500_000) / 1_000_000
}

/// Starts a take into `target` (in its format), written to a temporary file or folder put in
/// place when the take is finished.
#[cfg(not(target_arch = "wasm32"))]
pub fn take_to_file(
    mut target: super::RecordTarget,
    first: &RgbaImage,
    at: Duration,
    settings: &RecordSettings,
) -> Result<Box<dyn Take + Send>, RecordError> {
    use super::RecordTarget;
    let (width, height) = first.dimensions();
    if let RecordTarget::Video(_) = target {
        return Err(RecordError::Format(
            "a take of the live frames is a GIF, an animated PNG or PNG frames: choose one of those (a live source is recorded as a video by --live URL --out FILE.mp4)",
        ));
    }
    if let RecordTarget::Gif(file) = &mut target {
        let first = super::palette::quantize(first, settings.background, false);
        let writer = super::to_file::open_gif(file, width, height, &first.palette, settings)?;
        let frames = Frames::gif(writer, first, (width, height), at, settings);
        return Ok(Box::new(FileTake { frames, target }));
    }
    let writer = super::to_file::open_exact(&mut target, width, height, super::is_opaque(first), settings)?;
    Ok(Box::new(FileTake { frames: Frames::exact(writer, first, at, settings), target }))
}

/// A take into a file or folder.
#[cfg(not(target_arch = "wasm32"))]
struct FileTake<S: FrameSink> {
    frames: Frames<S>,
    target: super::RecordTarget,
}

#[cfg(not(target_arch = "wasm32"))]
impl<S: super::to_file::EndWriting> Take for FileTake<S>
where
    S::Pixel: TakePixel,
{
    fn push(&mut self, frame: &RgbaImage, at: Duration) -> Result<(), RecordError> {
        let path = self.target.path().to_path_buf();
        self.frames.push(frame, at).map_err(|source| RecordError::Encode { path, source })
    }

    fn finish(self: Box<Self>, at: Duration) -> Result<Taken, RecordError> {
        let FileTake { frames, target } = *self;
        let encode = |source| RecordError::Encode { path: target.path().to_path_buf(), source };
        let (writer, count) = frames.finish(at).map_err(encode)?;
        writer.end().map_err(encode)?;
        let format = target.format();
        let path = target.commit()?;
        let bytes = super::to_file::bytes_at(&path);
        Ok(Taken { frames: count, format, output: TakeOutput::File(path, bytes) })
    }
}

/// Starts a take in `format` into memory; `name` is the download's, and the folder a zip of
/// PNG frames unpacks into.
pub fn take_in_memory(
    format: RecordFormat,
    name: &str,
    first: &RgbaImage,
    at: Duration,
    settings: &RecordSettings,
) -> Result<Box<dyn Take>, RecordError> {
    use super::apng_writer::ApngWriter;
    use super::exact::{ExactOutput, ExactWriter};
    use super::gif_writer::InlineGifWriter;
    use super::png_frames::PngFramesWriter;
    use super::zip::ZipFiles;
    let (width, height) = first.dimensions();
    let name = PathBuf::from(name);
    let encode = |source| RecordError::Encode { path: name.clone(), source };
    if format == RecordFormat::Gif {
        let (w, h) = super::gif_size(width, height, settings)?;
        let first_frame = super::palette::quantize(first, settings.background, false);
        let writer =
            InlineGifWriter::new(Vec::new(), w, h, &first_frame.palette).map_err(|e| encode(e.into()))?;
        let frames = Frames::gif(writer, first_frame, (width, height), at, settings);
        let end = |writer: InlineGifWriter<Vec<u8>>| Ok(writer.finish()?);
        return Ok(Box::new(MemoryTake { frames, name, format, end: Box::new(end) }));
    }
    let (w, h) = super::png_size(width, height, settings)?;
    let opaque = super::is_opaque(first);
    let writer = match format {
        RecordFormat::Apng => {
            ExactWriter::Apng(ApngWriter::new(std::io::Cursor::new(Vec::new()), w, h, opaque, 1))
        }
        _ => {
            let folder = super::in_memory::folder_of(&name.display().to_string());
            ExactWriter::Frames(PngFramesWriter::new(
                ZipFiles::new(&folder, super::in_memory::now()),
                w,
                h,
                opaque,
                1,
            ))
        }
    };
    let end = |writer: ExactWriter<std::io::Cursor<Vec<u8>>, ZipFiles>| match writer.finish()? {
        ExactOutput::Apng(out) => Ok(out.into_inner()),
        ExactOutput::Frames(zip, _) => zip.finish(),
    };
    let frames = Frames::exact(writer, first, at, settings);
    Ok(Box::new(MemoryTake { frames, name, format, end: Box::new(end) }))
}

/// A take into memory, and how its writer's bytes are had at the end.
struct MemoryTake<S: FrameSink> {
    frames: Frames<S>,
    name: PathBuf,
    format: RecordFormat,
    end: Box<dyn FnOnce(S) -> Result<Vec<u8>, EncodeError>>,
}

impl<S: FrameSink> Take for MemoryTake<S>
where
    S::Pixel: TakePixel,
{
    fn push(&mut self, frame: &RgbaImage, at: Duration) -> Result<(), RecordError> {
        let path = self.name.clone();
        self.frames.push(frame, at).map_err(|source| RecordError::Encode { path, source })
    }

    fn finish(self: Box<Self>, at: Duration) -> Result<Taken, RecordError> {
        let MemoryTake { frames, name, format, end } = *self;
        let encode = |source| RecordError::Encode { path: name.clone(), source };
        let (writer, count) = frames.finish(at).map_err(encode)?;
        let bytes = end(writer).map_err(encode)?;
        Ok(Taken { frames: count, format, output: TakeOutput::Memory(bytes) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::picture::patterns::random_image;
    use image::AnimationDecoder;

    /// Three frames shown at `from` and 40 and 100 ms after, the take ended 250 ms after.
    fn take_from(from: Duration, start: impl FnOnce(&RgbaImage) -> Box<dyn Take>) -> (Vec<RgbaImage>, Taken) {
        let frames: Vec<RgbaImage> = (0..3).map(|seed| opaque(random_image(13, 7, seed))).collect();
        let mut take = start(&frames[0]);
        take.push(&frames[1], from + Duration::from_millis(40)).unwrap();
        take.push(&frames[2], from + Duration::from_millis(100)).unwrap();
        (frames, take.finish(from + Duration::from_millis(250)).unwrap())
    }

    fn take(start: impl FnOnce(&RgbaImage) -> Box<dyn Take>) -> (Vec<RgbaImage>, Taken) {
        take_from(Duration::ZERO, start)
    }

    fn opaque(mut picture: RgbaImage) -> RgbaImage {
        picture.pixels_mut().for_each(|p| p.0[3] = 255);
        picture
    }

    fn decoded(frames: Vec<image::Frame>) -> Vec<(RgbaImage, u32)> {
        frames
            .into_iter()
            .map(|f| (f.delay().numer_denom_ms().0 / f.delay().numer_denom_ms().1, f))
            .map(|(ms, f)| (f.into_buffer(), ms))
            .collect()
    }

    fn bytes(taken: &Taken) -> &[u8] {
        match &taken.output {
            TakeOutput::Memory(bytes) => bytes,
            TakeOutput::File(..) => panic!("in memory"),
        }
    }

    #[test]
    fn an_animated_png_take_holds_each_frame_exactly_for_as_long_as_it_showed() {
        let settings = RecordSettings::default();
        let (frames, taken) = take(|first| {
            take_in_memory(RecordFormat::Apng, "t.png", first, Duration::ZERO, &settings).unwrap()
        });
        assert_eq!((taken.frames, taken.format), (3, RecordFormat::Apng));
        let decoder = image::codecs::png::PngDecoder::new(std::io::Cursor::new(bytes(&taken))).unwrap();
        let got = decoded(decoder.apng().unwrap().into_frames().collect_frames().unwrap());
        let want: Vec<(RgbaImage, u32)> = frames.into_iter().zip([40, 60, 150]).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn a_gif_take_maps_later_frames_to_the_first_frames_palette_in_hundredths() {
        let settings = RecordSettings::default();
        let start = Duration::from_millis(1234);
        let (frames, taken) = take_from(start, |first| {
            take_in_memory(RecordFormat::Gif, "t.gif", first, start, &settings).unwrap()
        });
        let decoder = image::codecs::gif::GifDecoder::new(std::io::Cursor::new(bytes(&taken))).unwrap();
        let got = decoded(decoder.into_frames().collect_frames().unwrap());
        // The first frame has 8 colours (random_image): its palette holds them exactly, and the
        // later frames' colours map to their nearest.
        let palette = crate::record::palette::quantize(&frames[0], [0, 0, 0], false).palette;
        let cube = PaletteCube::new(&palette, [0, 0, 0]);
        for (k, (picture, _)) in got.iter().enumerate() {
            let want: Vec<u8> = cube
                .indices(frames[k].as_raw())
                .iter()
                .flat_map(|&i| {
                    let [r, g, b] = palette.colours[usize::from(i)];
                    [r, g, b, 255]
                })
                .collect();
            let want = if k == 0 { frames[0].as_raw().clone() } else { want };
            assert_eq!(picture.as_raw(), &want, "frame {k}");
        }
        // Shown from 1234 ms (123 hundredths): 1274 and 1334 ms are 127 and 133, then 148.
        let delays: Vec<u32> = got.iter().map(|(_, ms)| *ms).collect();
        assert_eq!(delays, vec![40, 60, 150]);
    }

    #[test]
    fn png_frames_of_a_take_are_zipped_one_file_a_frame() {
        let settings = RecordSettings::default();
        let (_, taken) = take(|first| {
            take_in_memory(RecordFormat::Frames, "t-frames.zip", first, Duration::ZERO, &settings).unwrap()
        });
        assert_eq!(taken.frames, 3);
        let names = bytes(&taken).windows(11).filter(|w| w.starts_with(b"t-frames/")).count();
        assert!(names >= 3, "three frames named in the archive");
    }

    #[test]
    fn a_frame_of_another_size_is_refused() {
        let settings = RecordSettings::default();
        let first = random_image(5, 5, 1);
        let mut take =
            take_in_memory(RecordFormat::Apng, "t.png", &first, Duration::ZERO, &settings).unwrap();
        let e = take.push(&random_image(5, 6, 2), Duration::from_millis(10)).unwrap_err();
        assert!(e.to_string().contains("a 5x6 frame came for a take of 5x5 frames"), "{e}");
    }

    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn a_file_take_appears_whole_only_when_finished() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("take.png");
        let settings = RecordSettings::default();
        let (frames, taken) = take(|first| {
            let target = crate::record::RecordTarget::prepare(&path).unwrap();
            let take = take_to_file(target, first, Duration::ZERO, &settings).unwrap();
            assert!(!path.exists(), "nothing in place before the end");
            take
        });
        let TakeOutput::File(written, bytes) = &taken.output else { panic!("a file") };
        assert_eq!((written, *bytes), (&path, std::fs::metadata(&path).unwrap().len()));
        let decoder =
            image::codecs::png::PngDecoder::new(std::io::BufReader::new(std::fs::File::open(&path).unwrap()))
                .unwrap();
        let got: Vec<RgbaImage> = decoder
            .apng()
            .unwrap()
            .into_frames()
            .collect_frames()
            .unwrap()
            .into_iter()
            .map(image::Frame::into_buffer)
            .collect();
        assert_eq!(got, frames);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "no temporary file left");
    }
}
