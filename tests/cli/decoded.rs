//! What ffmpeg decodes from a clip, for comparing a sorted clip with the CPU model: its streams
//! described, its frames as 4:2:0 planes, its sound as samples; and the measures a lossy output
//! is held to (luma and chroma PSNR, a tone's frequency and start, sound level).

use super::arg;
use image::RgbaImage;
use shadersort::picture::yuv::{Matrix, Yuv420Size, to_rgba};
use std::path::{Path, PathBuf};
use std::process::Command;

/// ffmpeg's description of a file's streams.
pub fn streams(path: &Path) -> String {
    let out = Command::new("ffmpeg").args(["-hide_banner", "-nostdin", "-i", arg(path)]).output().unwrap();
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The PNG frames of a folder, in order.
pub fn folder_frames(dir: &Path) -> Vec<RgbaImage> {
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    names.sort();
    names.iter().map(|p| image::open(p).unwrap().to_rgba8()).collect()
}

/// Asserts that `got` holds exactly the `expected` frames, in order.
pub fn assert_frames_equal(got: &[RgbaImage], expected: &[RgbaImage], what: &str) {
    assert_eq!(got.len(), expected.len(), "{what}: frame count");
    for (k, (g, e)) in got.iter().zip(expected).enumerate() {
        assert!(g == e, "{what}: frame {k} differs from the CPU model");
    }
}

/// Every frame of a video as 8-bit 4:2:0 planes, as ffmpeg decodes them.
pub fn planes_of(path: &Path, size: Yuv420Size) -> Vec<Vec<u8>> {
    planes_through(path, &[], size)
}

/// A 4:2:0 clip's frames as shadersort reads them: its planes, converted to RGBA with the
/// crate's own model (BT.601, as untagged frames are).
pub fn rgba_as_read(path: &Path, size: Yuv420Size) -> Vec<RgbaImage> {
    let convert = |planes: &Vec<u8>| {
        let mut rgba = Vec::new();
        to_rgba(planes, size, Matrix::Bt601, &mut rgba);
        RgbaImage::from_raw(size.width, size.height, rgba).unwrap()
    };
    planes_of(path, size).iter().map(convert).collect()
}

/// Every frame of a video as 8-bit 4:2:0 planes of `size`, decoded by ffmpeg through the
/// output arguments `filter` (such as the `-vf crop=...` a user is told to crop with).
pub fn planes_through(path: &Path, filter: &[&str], size: Yuv420Size) -> Vec<Vec<u8>> {
    let out = Command::new("ffmpeg")
        .args(["-v", "error", "-nostdin", "-i", arg(path), "-map", "0:v:0", "-f", "rawvideo"])
        .args(filter)
        .args(["-pix_fmt", "yuv420p", "-"])
        .output()
        .unwrap();
    assert!(out.status.success(), "decoding {}: {}", path.display(), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.stdout.len() % size.bytes(), 0, "{}: whole frames of {size:?}", path.display());
    out.stdout.chunks(size.bytes()).map(<[u8]>::to_vec).collect()
}

/// The PSNR in dB of one frame's luma plane (the first `width * height` bytes of its 4:2:0
/// planes) against the expected one; infinite when they are equal.
pub fn luma_psnr(got: &[u8], expected: &[u8], size: Yuv420Size) -> f64 {
    let n = (size.width * size.height) as usize;
    psnr(&got[..n], &expected[..n])
}

/// The PSNR in dB of one frame's two chroma planes (after its luma plane) against the
/// expected ones, taken together.
pub fn chroma_psnr(got: &[u8], expected: &[u8], size: Yuv420Size) -> f64 {
    let n = (size.width * size.height) as usize;
    assert_eq!(got.len(), expected.len(), "frames of one size");
    psnr(&got[n..], &expected[n..])
}

/// The PSNR in dB of 8-bit samples against the expected ones; infinite when they are equal.
fn psnr(got: &[u8], expected: &[u8]) -> f64 {
    let squared: f64 = got.iter().zip(expected).map(|(&g, &e)| (f64::from(g) - f64::from(e)).powi(2)).sum();
    10.0 * (255.0f64.powi(2) / (squared / got.len() as f64)).log10()
}

/// A steady tone's frequency in Hz, from the first and last of the rising zero crossings of
/// `samples` (each placed between its two samples by linear interpolation) at `rate` Hz.
pub fn tone_frequency(samples: &[i16], rate: u32) -> f64 {
    let crossings: Vec<f64> = samples
        .windows(2)
        .enumerate()
        .filter(|(_, w)| w[0] < 0 && w[1] >= 0)
        .map(|(i, w)| i as f64 + f64::from(w[0]) / (f64::from(w[0]) - f64::from(w[1])))
        .collect();
    assert!(crossings.len() >= 3, "no steady tone: {} rising zero crossings", crossings.len());
    let (first, last) = (crossings[0], crossings[crossings.len() - 1]);
    (crossings.len() - 1) as f64 * f64::from(rate) / (last - first)
}

/// Where the sound starts: the first sample at least half as loud as the loudest.
pub fn sound_start(samples: &[i16]) -> usize {
    let peak = samples.iter().map(|s| s.unsigned_abs()).max().unwrap_or(0);
    samples.iter().position(|s| s.unsigned_abs() >= peak / 2).expect("some sound")
}

/// A file's first audio stream, decoded by ffmpeg to 16-bit mono samples at `rate` Hz.
pub fn samples_of(path: &Path, rate: u32) -> Vec<i16> {
    let out = Command::new("ffmpeg")
        .args(["-v", "error", "-nostdin", "-i", arg(path), "-map", "0:a:0", "-f", "s16le", "-ac", "1"])
        .args(["-ar", &rate.to_string(), "-"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "decoding the sound of {}: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout.chunks_exact(2).map(|b| i16::from_le_bytes([b[0], b[1]])).collect()
}

/// The sound's level: the root mean square of its samples, as a fraction of full scale.
pub fn rms(samples: &[i16]) -> f64 {
    let squares: f64 = samples.iter().map(|&s| (f64::from(s) / 32768.0).powi(2)).sum();
    (squares / samples.len().max(1) as f64).sqrt()
}
