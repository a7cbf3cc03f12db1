//! The camera in the page: Chromium's fake camera (`--use-fake-device-for-media-stream`, the
//! permission given by `--use-fake-ui-for-media-stream`) plays a clip this test wrote
//! (`--use-file-for-fake-video-capture`), so every frame the page shows can be held to the
//! model's sort of a frame that was sent. `?source=camera` shows the camera live with every frame
//! sorted: Space pauses on a frame and S downloads it, and a frame paused on a moment later is
//! another of the clip's; G records the frames shown until G again, downloaded as a GIF whose
//! frames are each the sort of one of the clip's, each lasting as long as it showed.

use super::{Page, wait_for};
use image::{Rgba, RgbaImage};
use serde_json::json;
use shadersort::keys::options::SortOptions;
use shadersort::picture::patterns::SplitMix64;
use shadersort::reference::stable_sort;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The clip the fake camera plays (in a loop): grey frames of seeded noise whose luma levels lie
/// 8 apart, so that however the browser turns its 4:2:0 frames into RGB (limited or full range,
/// any rounding), distinct levels stay distinct and in order, and a frame's sort is known. Every
/// frame holds every level, so a GIF take's palette (its first frame's colours) holds them all.
pub struct Clip {
    path: PathBuf,
    /// Each frame's luma as a grey picture, as the clip holds it.
    frames: Vec<RgbaImage>,
}

impl Clip {
    const SIZE: (u32, u32) = (64, 48);
    /// Three seconds at 10 frames a second: two frames paused on 1.5 s apart are different ones.
    const FRAMES: u32 = 30;
    const LEVELS: u8 = 28;

    /// Writes the clip (a YUV4MPEG2 file, 4:2:0) into `folder`.
    pub fn new(folder: &Path) -> Clip {
        let (w, h) = Self::SIZE;
        let mut rng = SplitMix64::new(0xCA3E_0000);
        let frames: Vec<RgbaImage> = (0..Self::FRAMES)
            .map(|k| {
                let grey = RgbaImage::from_fn(w, h, |_, _| {
                    let level = 16 + 8 * (rng.next_u32() % u32::from(Self::LEVELS)) as u8;
                    Rgba([level, level, level, 255])
                });
                let mut levels: Vec<u8> = grey.pixels().map(|p| p[0]).collect();
                levels.sort_unstable();
                levels.dedup();
                assert_eq!(levels.len(), usize::from(Self::LEVELS), "frame {k} lacks a level");
                grey
            })
            .collect();
        let mut y4m = format!("YUV4MPEG2 W{w} H{h} F10:1 Ip A1:1 C420jpeg\n").into_bytes();
        for frame in &frames {
            y4m.extend_from_slice(b"FRAME\n");
            y4m.extend(frame.pixels().map(|p| p[0]));
            // Both chroma planes neutral: every pixel grey.
            y4m.extend(std::iter::repeat_n(128u8, 2 * (w as usize / 2) * (h as usize / 2)));
        }
        let path = folder.join("camera.y4m");
        std::fs::write(&path, y4m).unwrap();
        Clip { path, frames }
    }

    /// The Chromium flag that makes the fake camera play this clip.
    pub fn flag(&self) -> String {
        format!("--use-file-for-fake-video-capture={}", self.path.display())
    }

    /// Which of the clip's frames `shown` is the model's sort of (along rows by luma), allowing
    /// for the browser's colour conversion (any one increasing map of levels to greys); or why
    /// it is none of them.
    fn sorted_frame_in(&self, shown: &RgbaImage) -> Result<usize, String> {
        if shown.dimensions() != Self::SIZE {
            return Err(format!("the frame is {:?}, the clip {:?}", shown.dimensions(), Self::SIZE));
        }
        let mut nearest = (usize::MAX, String::new());
        for (k, frame) in self.frames.iter().enumerate() {
            let model = stable_sort(frame, &SortOptions::default());
            match same_sort(&model, shown) {
                Ok(()) => return Ok(k),
                Err(why) => {
                    let off =
                        model.pixels().zip(shown.pixels()).filter(|(m, s)| m[0].abs_diff(s[1]) > 24).count();
                    if off < nearest.0 {
                        nearest =
                            (off, format!("frame {k}, whose sort differs from it at {off} pixels: {why}"));
                    }
                }
            }
        }
        Err(format!("it is the sort of none of the clip's frames (nearest: {})", nearest.1))
    }
}

/// Whether `shown` is `model` (grey levels) seen through one increasing map of levels to greys:
/// each level shows as one grey, a higher level as a lighter grey, and no grey further from its
/// level than a change of range moves it.
fn same_sort(model: &RgbaImage, shown: &RgbaImage) -> Result<(), String> {
    let mut greys: [Option<(u8, u8)>; 256] = [None; 256];
    for (m, s) in model.pixels().zip(shown.pixels()) {
        let (lo, hi) = (s[0].min(s[1]).min(s[2]), s[0].max(s[1]).max(s[2]));
        if hi - lo > 2 {
            return Err(format!("{s:?} is not grey"));
        }
        if s[1].abs_diff(m[0]) > 24 {
            return Err(format!("level {} shows as {}", m[0], s[1]));
        }
        let seen = greys[usize::from(m[0])].get_or_insert((s[1], s[1]));
        *seen = (seen.0.min(s[1]), seen.1.max(s[1]));
    }
    let seen: Vec<(usize, (u8, u8))> =
        greys.iter().enumerate().filter_map(|(level, g)| g.map(|g| (level, g))).collect();
    if let Some((level, (lo, hi))) = seen.iter().find(|(_, (lo, hi))| lo != hi) {
        return Err(format!("level {level} shows as greys {lo} to {hi}"));
    }
    match seen.windows(2).find(|w| w[0].1.1 >= w[1].1.0) {
        Some(w) => Err(format!("level {} shows no darker than level {}", w[0].0, w[1].0)),
        None => Ok(()),
    }
}

pub fn source_camera_shows_the_camera_sorted_live(page: &Page, port: u16, clip: &Clip) {
    page.browser.call("POST", "url", json!({"url": format!("http://127.0.0.1:{port}/?source=camera")}));
    wait_for("the page to start", Duration::from_secs(120), || {
        !page.browser.script("return window.shadersortReady || null", json!([])).is_null()
    });
    // A new page: its log starts again.
    page.log_from.set(0);
    page.expect_log("showing the camera live, every frame sorted; Space pauses on a frame");
    // Two frames a moment apart, each paused on and saved (the first download moved away, so
    // that the second lands under the same name).
    let mut saved: Vec<usize> = Vec::new();
    for _ in 0..2 {
        std::thread::sleep(Duration::from_millis(1500));
        page.keys(&[" "]);
        page.expect_log("paused on the frame shown");
        page.keys(&["s"]);
        page.expect_log("saved camera-bitonic-luma-pass");
        let log = page.browser.log();
        let at = log.rfind("saved camera-").expect("logged above") + "saved ".len();
        let name = log[at..].split(".png").next().unwrap().to_string() + ".png";
        let frame = page.downloaded_picture(&name);
        std::fs::remove_file(page.downloads.path().join(&name)).unwrap();
        saved.push(clip.sorted_frame_in(&frame).unwrap_or_else(|why| panic!("{name}: {why}")));
        page.keys(&[" "]);
    }
    assert!(saved[0] != saved[1], "the page showed frame {} of the clip both times", saved[0]);
    page.keys(&["g"]);
    page.expect_log("recording the live frames as they are shown; G stops");
    let taking = std::time::Instant::now();
    std::thread::sleep(Duration::from_secs(2));
    page.keys(&["g"]);
    let took = taking.elapsed().as_millis() as u32;
    page.expect_log("live frames (GIF)");
    let gif = page.download("camera-bitonic-luma-live.gif");
    let frames = super::driver::composite_frames(&gif);
    assert!(frames.len() >= 3, "{} frames in a take of {took} ms", frames.len());
    let delays: Vec<u32> = frames.iter().map(|(_, cs)| u32::from(*cs) * 10).collect();
    let ms = delays.iter().sum::<u32>();
    assert!(ms.abs_diff(took) < 1000, "the frames last {ms} ms in a take of {took} ms");
    assert!(delays.iter().all(|&d| d < took / 2), "a frame lasts most of the take: {delays:?}");
    // Each frame of the take is the sort of one of the clip's (the first frame's palette holds
    // every grey exactly); and the take follows the clip.
    let sent: Vec<usize> = (frames.iter().enumerate())
        .map(|(k, (frame, _))| {
            clip.sorted_frame_in(frame).unwrap_or_else(|why| panic!("frame {k} of the take: {why}"))
        })
        .collect();
    assert!(sent.windows(2).any(|w| w[0] != w[1]), "the take shows frame {} of the clip throughout", sent[0]);
}
