//! Live sources: an MPEG-TS stream that ffmpeg sends over UDP on the loopback at its own rate,
//! sorted as it comes into a lossless file whose every frame is the CPU model's sort of the frame
//! received (or, where the sort dropped one, the frame before it again); the file is whole when
//! the source stops or Ctrl-C ends the recording; bad sources are refused in one line.

use super::decoded::{rms, samples_of};
use super::{arg, assert_fails};
use crate::clips::{ffmpeg, frames_of, have_ffmpeg};
use crate::ports::free_port;
use image::RgbaImage;
use shadersort::keys::SortKey;
use shadersort::keys::options::SortOptions;
use shadersort::reference::stable_sort;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The stream's frame size: even (4:2:0), but no multiple of a workgroup or of 256 bytes.
const SIZE: (u32, u32) = (70, 38);

/// A stream of `seconds` at 30 fps, every frame intra-coded (so a receiver that joins late
/// decodes from its first whole frame on, exactly as a decode of the file does), with a tone.
fn stream_file(dir: &Path, seconds: u32) -> PathBuf {
    let path = dir.join(format!("source-{seconds}.ts"));
    let video = format!("testsrc2=size={}x{}:rate=30:duration={seconds}", SIZE.0, SIZE.1);
    let tone = format!("sine=frequency=440:sample_rate=48000:duration={seconds}");
    // The hue turns frame by frame: a row's colours differ from one frame to the next, so each
    // frame's sort differs from its neighbours' (not only where things moved).
    let args = ["-f", "lavfi", "-i", &video, "-f", "lavfi", "-i", &tone, "-vf", "hue=H=t*3"];
    let args = [&args[..], &["-c:v", "mpeg2video", "-g", "1"]].concat();
    ffmpeg(&[&args[..], &["-q:v", "2", "-c:a", "mp2", "-f", "mpegts", arg(&path)]].concat());
    path
}

/// ffmpeg sending `file` to `port` at its own rate, once the receiver listens there.
fn send(file: &Path, port: u16) -> Child {
    crate::ports::wait_until_udp_bound(port, Duration::from_secs(60));
    Command::new("ffmpeg")
        .args(["-v", "error", "-nostdin", "-re", "-i", arg(file), "-c", "copy", "-f", "mpegts"])
        .arg(format!("udp://127.0.0.1:{port}?pkt_size=1316"))
        .stdin(Stdio::null())
        .spawn()
        .expect("ffmpeg starts")
}

/// shadersort receiving on `port` with `args`, started now.
fn receive(port: u16, args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_shadersort"))
        .args(["--live", &format!("udp://127.0.0.1:{port}")])
        .args(args)
        .env_remove("RUST_LOG")
        .env("SHADERSORT_CACHE_DIR", "")
        // Outputs are absolute paths: a run that writes elsewhere writes nowhere near the checkout.
        .current_dir(std::env::temp_dir())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the shadersort binary starts")
}

/// The sound recorded in `out` is `seconds` of the stream's own, sample for sample: decoded, it
/// lasts that long (within an MP2 frame of 1152 samples) and, past its first frame (whose
/// decoding has no earlier frame to overlap), equals the decoded stream from some sample on,
/// each sample within `SAME_SAMPLE`.
fn assert_sound_is_the_streams(out: &Path, stream: &Path, seconds: f64) {
    // The copied MP2 decodes a few steps of 32768 away from the stream's own decoding at the
    // same sample (measured: at most 3); another tone, level or moment is thousands away.
    const SAME_SAMPLE: u16 = 8;
    const FRAME: usize = 1152;
    let (recorded, sent) = (samples_of(out, 48_000), samples_of(stream, 48_000));
    let expected = (seconds * 48_000.0) as usize;
    assert!(
        recorded.len().abs_diff(expected) <= FRAME,
        "{} samples recorded for {seconds} s",
        recorded.len()
    );
    let part = &recorded[FRAME..];
    let same = |a: &[i16], b: &[i16]| a.iter().zip(b).all(|(x, y)| x.abs_diff(*y) <= SAME_SAMPLE);
    let found = (0..=sent.len().saturating_sub(part.len()))
        .find(|&at| same(&part[..200], &sent[at..at + 200]) && same(part, &sent[at..at + part.len()]));
    assert!(
        found.is_some(),
        "the recorded sound is not the stream's (rms {:.4} for the stream's {:.4})",
        rms(part),
        rms(&sent)
    );
}

/// The number before `word` in `line` (`"3 dropped"`).
fn count_before(line: &str, word: &str) -> u64 {
    let before = line.split(&format!(" {word}")).next().unwrap();
    before
        .rsplit(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap_or_else(|_| panic!("no count before {word:?} in {line}"))
}

/// Checks that every frame of `recorded` is the model of a frame of `sent` taken in the order
/// received: frame k is the model of sent frame `join + k` (the receiver joined the stream at
/// `join`), or a dropped frame's stand-in, the frame before it again (the first frame stands in
/// for drops before it). Returns how many were stand-ins.
fn assert_received_in_order(recorded: &[RgbaImage], models: &[RgbaImage], what: &str) -> u64 {
    assert!(models.windows(2).all(|w| w[0] != w[1]), "the stream's sorted frames differ one to the next");
    let find = |frame: &RgbaImage| models.iter().position(|m| m == frame);
    let first = find(&recorded[0]).unwrap_or_else(|| panic!("{what}: frame 0 is no sorted frame sent"));
    let (mut stand_ins, mut join) = (0, None);
    for (k, frame) in recorded.iter().enumerate().skip(1) {
        if *frame == recorded[k - 1] {
            stand_ins += 1;
            continue;
        }
        let at = find(frame).unwrap_or_else(|| panic!("{what}: frame {k} is no sorted frame sent"));
        assert!(at >= k, "{what}: frame {k} is sent frame {at}, before its time");
        let join = *join.get_or_insert(at - k);
        assert_eq!(at - k, join, "{what}: frame {k} is sent frame {at}, not the one received then");
    }
    // Frame 0 is the first frame received, or stands in for the drops before the first sorted.
    if let Some(join) = join {
        assert!(first >= join && first - join <= stand_ins as usize, "{what}: frame 0 is sent frame {first}");
    }
    stand_ins
}

/// The acceptance test of the issue: a live MPEG-TS stream over UDP, `--duration 3 --lossless`,
/// every frame equal to the model of the frame received, the stream's audio kept.
#[test]
fn a_live_stream_is_sorted_as_it_comes_frame_by_frame() {
    if !have_ffmpeg() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = stream_file(dir.path(), 8);
    let options = SortOptions { key: SortKey::Hue, ..SortOptions::default() };
    let models: Vec<RgbaImage> = frames_of(&file, SIZE).iter().map(|f| stable_sort(f, &options)).collect();
    let out = dir.path().join("live.mkv");
    let port = free_port();
    let receiver = receive(port, &["--duration", "3", "--key", "hue", "--lossless", "--out", arg(&out)]);
    let mut sender = send(&file, port);
    let done = receiver.wait_with_output().unwrap();
    let _ = sender.kill();
    let _ = sender.wait();
    let (stdout, stderr) = (String::from_utf8_lossy(&done.stdout), String::from_utf8_lossy(&done.stderr));
    assert!(done.status.success(), "stdout: {stdout}\nstderr: {stderr}");
    assert!(stdout.starts_with("recorded 90 frames of 70x38 at 30.000 fps (3.00 s)"), "{stdout}");
    assert!(stdout.contains("with bitonic") && stdout.contains("audio copied"), "{stdout}");
    assert!(stdout.contains("--duration reached") && stdout.contains("latency median"), "{stdout}");
    let recorded = frames_of(&out, SIZE);
    assert_eq!(recorded.len(), 90, "{stdout}");
    let stand_ins = assert_received_in_order(&recorded, &models, "live");
    assert_eq!(stand_ins, count_before(&stdout, "dropped"), "{stdout}");
    assert_sound_is_the_streams(&out, &file, 3.0);
    crate::clips::ci::passed();
}

/// A source that stops sending ends the recording after a pause with one error line that says
/// how much was recorded; Ctrl-C ends it well. Either way the file is whole, every frame sorted.
#[test]
fn a_stream_that_stops_or_ctrl_c_leaves_a_whole_file() {
    if !have_ffmpeg() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = stream_file(dir.path(), 2);
    let models: Vec<RgbaImage> =
        frames_of(&file, SIZE).iter().map(|f| stable_sort(f, &SortOptions::default())).collect();
    let (stopped, ended) = (dir.path().join("stopped.mkv"), dir.path().join("ended.mkv"));
    let (port_a, port_b) = (free_port(), free_port());
    let stopping = receive(port_a, &["--lossless", "--out", arg(&stopped)]);
    let ending = receive(port_b, &["--lossless", "--out", arg(&ended)]);
    let mut senders = [send(&file, port_a), send(&file, port_b)];
    // Ctrl-C a second into the second stream (of two): in the middle of what it sends.
    std::thread::sleep(Duration::from_millis(1000));
    let pid = i32::try_from(ending.id()).unwrap();
    assert!(Command::new("kill").args(["-INT", &pid.to_string()]).status().unwrap().success());
    let started = Instant::now();
    let (stopping, ending) = (stopping.wait_with_output().unwrap(), ending.wait_with_output().unwrap());
    for sender in &mut senders {
        let _ = sender.wait();
    }
    assert!(started.elapsed() < Duration::from_secs(30));
    let stdout = String::from_utf8_lossy(&ending.stdout);
    assert!(ending.status.success(), "{stdout}{}", String::from_utf8_lossy(&ending.stderr));
    assert!(stdout.contains("ended by a signal (Ctrl-C)"), "{stdout}");
    let frames = count_before(&stdout, "frames");
    let recorded = frames_of(&ended, SIZE);
    assert!(frames > 0 && recorded.len() as u64 == frames, "{stdout}: {} frames in the file", recorded.len());
    assert_received_in_order(&recorded, &models, "ended by Ctrl-C");
    let stderr = String::from_utf8_lossy(&stopping.stderr);
    assert_eq!(stopping.status.code(), Some(1), "{stderr}");
    let line =
        stderr.lines().find(|l| l.contains("stopped sending after")).unwrap_or_else(|| panic!("{stderr}"));
    assert!(line.starts_with("error: '") && line.contains("whole"), "{line}");
    let recorded = frames_of(&stopped, SIZE);
    assert!(line.contains(&format!("the {} frames recorded before", recorded.len())), "{line}");
    assert_received_in_order(&recorded, &models, "stopped");
    crate::clips::ci::passed();
}

/// ffmpeg's filter that fits a large live source gives the size a picture is downscaled to.
#[test]
fn the_live_downscale_filter_gives_the_size_limits_size() {
    if !have_ffmpeg() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for (w, h) in [(641, 479), (1000, 3), (3, 1000), (100, 64), (99, 101)] {
        let png = dir.path().join(format!("{w}x{h}.png"));
        let source = format!("testsrc2=size={w}x{h}");
        let filter = shadersort::media::live::decoder::fit_filter(100);
        ffmpeg(&["-f", "lavfi", "-i", &source, "-vf", &filter, "-frames:v", "1", arg(&png)]);
        let got = image::image_dimensions(&png).unwrap();
        let want = if w.max(h) > 100 { shadersort::picture::input::scaled_size(w, h, 100) } else { (w, h) };
        assert_eq!(got, want, "{w}x{h}");
    }
    crate::clips::ci::passed();
}

/// A source that sends nothing, a missing camera and flags that do not go with a live source
/// are refused in one line, leaving nothing.
#[test]
fn bad_live_sources_and_flags_are_refused_in_one_line() {
    if !have_ffmpeg() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.mkv");
    let o = arg(&out);
    let silent = format!("udp://127.0.0.1:{}", free_port());
    let cases: Vec<(Vec<&str>, Vec<&str>)> = vec![
        (vec!["--live", &silent, "--out", o], vec!["nothing came from", &silent, "in 10 s"]),
        (
            vec!["--camera", "/dev/video-none", "--out", o],
            vec!["cannot open the camera '/dev/video-none'", "--camera DEVICE"],
        ),
        (
            vec!["--live", &silent, "--passes", "3"],
            vec!["--steps does not go with --live", "shown in the window"],
        ),
        (vec!["--live", &silent, "--record", "--out", o], vec!["--record does not go with --live"]),
        (vec!["--camera", "--sweep", "0..1", "--out", o], vec!["--sweep does not go with --camera"]),
        (vec!["--duration", "3", "--out", o], vec!["--duration sets how long a live source"]),
    ];
    for (args, expected) in cases {
        if args.contains(&"/dev/video-none") && !cfg!(target_os = "linux") {
            continue;
        }
        assert_fails(&args, &[], dir.path(), &expected);
    }
    // A picture and a live source at once is a usage error (clap's own, exit 2).
    let both = super::run(&[super::COFFEE, "--live", &silent, "--out", o], &[]);
    assert_eq!(both.status.code(), Some(2));
    crate::clips::ci::passed();
}

#[test]
fn live_sources_without_ffmpeg_say_how_to_get_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.mkv");
    let o = arg(&out);
    let url = format!("udp://127.0.0.1:{}", free_port());
    for args in [vec!["--live", &url, "--out", o], vec!["--camera", "--out", o]] {
        assert_fails(&args, &[("PATH", "/nowhere")], dir.path(), &["not on PATH", "apt install ffmpeg"]);
    }
    crate::clips::ci::passed();
}
