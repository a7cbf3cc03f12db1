//! A live source in the window: an MPEG-TS stream sent over UDP on the loopback at its rate is
//! shown with every frame sorted to the end; Space pauses on a frame and S saves it, which is the
//! CPU model's sort of a frame the stream sent; G records the frames shown until G again: every
//! frame of the GIF is a sorted frame the stream sent, in the first one's palette.

use super::clips::{ffmpeg, frames_of, have_ffmpeg};
use super::{Reaper, launch, wait_for};
use image::RgbaImage;
use std::process::{Command, Stdio};
use std::time::Duration;

#[test]
fn a_live_stream_shows_sorted_and_a_paused_frame_saves_as_the_model() {
    if !have_ffmpeg() {
        return;
    }
    let size = (70, 38);
    let port = crate::ports::free_port();
    let url = format!("udp://127.0.0.1:{port}");
    let sender = std::sync::Arc::new(std::sync::Mutex::new(None));
    let make = |dir: &std::path::Path| {
        let file = dir.join("stream.ts");
        let video = format!("testsrc2=size={}x{}:rate=30:duration=20", size.0, size.1);
        ffmpeg(
            &["-f", "lavfi", "-i", &video, "-vf", "hue=H=t*3", "-c:v", "mpeg2video", "-g", "1"]
                .into_iter()
                .chain(["-q:v", "2", "-f", "mpegts", file.to_str().unwrap()])
                .collect::<Vec<_>>(),
        );
        // Sent at its rate once the window listens (a thread waits for that while the window
        // starts); the window shows the stream from the first frame it gets.
        let (sender, url) = (sender.clone(), url.clone());
        std::thread::spawn(move || {
            crate::ports::wait_until_udp_bound(port, Duration::from_secs(60));
            let child = Command::new("ffmpeg")
                .args(["-v", "error", "-nostdin", "-re", "-i", file.to_str().unwrap(), "-c", "copy"])
                .args(["-f", "mpegts", &format!("{url}?pkt_size=1316")])
                .stdin(Stdio::null())
                .spawn()
                .unwrap();
            *sender.lock().unwrap() = Some(Reaper(child));
        });
    };
    let first = format!("showing '{url}' live, every frame sorted; Space pauses on a frame");
    let Some(mut s) = launch("vulkan", &format!("--live={url}"), &[], &first, make) else { return };
    let sent = frames_of(&s.dir.path().join("stream.ts"), size);
    let models: Vec<RgbaImage> =
        sent.iter().map(|f| shadersort::reference::stable_sort(f, &Default::default())).collect();
    s.keys(&["space"]);
    s.expect_log("paused on the frame shown; the step keys walk through its steps, Space goes on live");
    s.keys(&["s"]);
    s.expect_log("saved live-bitonic-luma-pass28.png");
    let saved = image::open(s.dir.path().join("live-bitonic-luma-pass28.png")).unwrap().to_rgba8();
    assert!(models.contains(&saved), "the frame saved is no sorted frame the stream sent");
    assert!(!sent.contains(&saved), "the frame saved is not sorted");
    s.keys(&["space"]);
    s.keys(&["g"]);
    s.expect_log("recording the live frames as they are shown; G stops");
    let taking = std::time::Instant::now();
    // A take of two seconds.
    std::thread::sleep(Duration::from_secs(2));
    s.keys(&["g"]);
    let took = taking.elapsed();
    s.expect_log_containing("recorded ");
    let gif = s.dir.path().join("gifs/live-bitonic-luma-live.gif");
    take_holds_sorted_frames(&gif, &models, took);
    s.keys(&["q"]);
    wait_for("the window to close", Duration::from_secs(20), || s.app.0.try_wait().unwrap().is_some());
    drop(sender);
    crate::clips::ci::passed();
}

/// Every frame of the take at `gif` is a model frame mapped to the first frame's palette (its
/// own palette, quantized as a take quantizes it); frames change; they last, together, about as
/// long as the take was under way; and each starts in the take about when its frame was sent
/// after the first one's (the stream sends one every 1/30 s): a clock that stopped or ran wrong
/// would put them elsewhere, while a window that stalled shows its frame longer and the next
/// one sent later, which is right.
fn take_holds_sorted_frames(gif: &std::path::Path, models: &[RgbaImage], took: Duration) {
    use image::AnimationDecoder;
    use shadersort::record::palette::{PaletteCube, quantize};
    let file = std::io::BufReader::new(std::fs::File::open(gif).unwrap());
    let frames = image::codecs::gif::GifDecoder::new(file).unwrap().into_frames().collect_frames().unwrap();
    assert!(frames.len() >= 5, "{} frames in a take of {took:?}", frames.len());
    let in_palette =
        |model: &RgbaImage, palette: &shadersort::record::palette::GifPalette, indices: &[u8]| {
            let colours = indices.iter().flat_map(|&i| {
                let [r, g, b] = palette.colours[usize::from(i)];
                [r, g, b, 255]
            });
            RgbaImage::from_raw(model.width(), model.height(), colours.collect()).unwrap()
        };
    let first = frames[0].buffer();
    // The first frame is in its own palette (its colours quantized); the others are mapped to it.
    let (first_sent, quantized) = models
        .iter()
        .map(|m| quantize(m, [0, 0, 0], false))
        .enumerate()
        .find(|(i, q)| &in_palette(&models[*i], &q.palette, &q.indices) == first)
        .expect("the take's first frame is no sorted frame the stream sent");
    let cube = PaletteCube::new(&quantized.palette, [0, 0, 0]);
    let mapped: Vec<RgbaImage> =
        models.iter().map(|m| in_palette(m, &quantized.palette, &cube.indices(m.as_raw()))).collect();
    let later = frames.iter().enumerate().skip(1).map(|(k, frame)| {
        let found = mapped.iter().position(|m| m == frame.buffer());
        found.unwrap_or_else(|| panic!("frame {k} of the take is no sorted frame the stream sent"))
    });
    let sent: Vec<usize> = std::iter::once(first_sent).chain(later).collect();
    assert!(frames.windows(2).any(|w| w[0].buffer() != w[1].buffer()), "the take's frames never change");
    let delays: Vec<u32> =
        frames.iter().map(|f| f.delay().numer_denom_ms().0 / f.delay().numer_denom_ms().1).collect();
    let (ms, took) = (delays.iter().sum::<u32>(), took.as_millis() as u32);
    assert!(ms.abs_diff(took) < 800, "the frames last {ms} ms in a take of {took} ms");
    // Each starts when it was sent, after the first: within 500 ms (frames are shown as they
    // come, each with its sort's latency, which a loaded machine stretches).
    let mut start = 0u32;
    for (k, (&delay, &index)) in delays.iter().zip(&sent).enumerate() {
        let after = index
            .checked_sub(sent[0])
            .unwrap_or_else(|| panic!("frame {k} was sent before the first: {sent:?}"));
        let sent_at = after as u32 * 1000 / 30;
        assert!(
            start.abs_diff(sent_at) < 500,
            "frame {k} of the take starts at {start} ms, but was sent {sent_at} ms after the first: {delays:?}, frames {sent:?}"
        );
        start += delay;
    }
}
