//! A live source in the window: an MPEG-TS stream sent over UDP on the loopback at its rate is
//! shown with every frame sorted to the end; Space pauses on a frame and S saves it, which is the
//! CPU model's sort of a frame the stream sent; the panel counts what came and what was dropped.

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
    let port = std::net::UdpSocket::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let url = format!("udp://127.0.0.1:{port}");
    let sender = std::sync::Mutex::new(None);
    let make = |dir: &std::path::Path| {
        let file = dir.join("stream.ts");
        let video = format!("testsrc2=size={}x{}:rate=30:duration=20", size.0, size.1);
        ffmpeg(
            &["-f", "lavfi", "-i", &video, "-vf", "hue=H=t*3", "-c:v", "mpeg2video", "-g", "1"]
                .into_iter()
                .chain(["-q:v", "2", "-f", "mpegts", file.to_str().unwrap()])
                .collect::<Vec<_>>(),
        );
        // The window listens once it starts; the stream starts a moment later.
        let child = Command::new("sh")
            .arg("-c")
            .arg(format!(
                "sleep 2; exec ffmpeg -v error -nostdin -re -i '{}' -c copy -f mpegts '{url}?pkt_size=1316'",
                file.display()
            ))
            .stdin(Stdio::null())
            .spawn()
            .unwrap();
        *sender.lock().unwrap() = Some(Reaper(child));
    };
    let first = format!("showing '{url}' live, every frame sorted; Space pauses on a frame");
    let Some(mut s) = launch("vulkan", &format!("--live={url}"), &[], &first, make) else { return };
    let sent = frames_of(&s.dir.path().join("stream.ts"), size);
    let models: Vec<RgbaImage> =
        sent.iter().map(|f| shadersort::reference::stable_sort(f, &Default::default())).collect();
    std::thread::sleep(Duration::from_secs(2));
    s.keys(&["space"]);
    s.expect_log("paused on the frame shown; the step keys walk through its passes, Space goes on live");
    s.keys(&["s"]);
    s.expect_log("saved live-bitonic-luma-pass28.png");
    let saved = image::open(s.dir.path().join("live-bitonic-luma-pass28.png")).unwrap().to_rgba8();
    assert!(models.contains(&saved), "the frame saved is no sorted frame the stream sent");
    assert!(!sent.contains(&saved), "the frame saved is not sorted");
    s.keys(&["q"]);
    wait_for("the window to close", Duration::from_secs(20), || s.app.0.try_wait().unwrap().is_some());
    drop(sender);
}
