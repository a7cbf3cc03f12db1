//! Every way a headless run ends leaves its folder as it was: SIGTERM, SIGHUP and SIGINT, sent
//! at a random moment of `--out`, `--record` (GIF, animated PNG, a folder of PNG frames) and a
//! radix `--record --sub-steps`, and a clip sorted through ffmpeg (where ffmpeg runs), each end the
//! run with a one-line message and exit status 128 + the signal, and the folder holds exactly
//! the files it held before, byte for byte (an older output untouched, no temporary left). And a
//! long run without a terminal says how it is doing every few seconds.

#![cfg(unix)]

use image::RgbaImage;
use shadersort::picture::patterns::random_image;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The folder's files (and its folders' files, as `folder/file`) and their bytes.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let e = e.unwrap();
        let name = e.file_name().to_string_lossy().into_owned();
        if e.path().is_dir() {
            files.extend(
                snapshot(&e.path()).into_iter().map(|(inner, bytes)| (format!("{name}/{inner}"), bytes)),
            );
        } else {
            files.insert(name, std::fs::read(e.path()).unwrap());
        }
    }
    files
}

/// A noise picture saved into `dir`.
fn noise(dir: &Path, name: &str, width: u32, height: u32, seed: u64) -> String {
    let picture: RgbaImage = random_image(width, height, seed);
    picture.save(dir.join(name)).unwrap();
    name.to_string()
}

/// A small generator for the moments signals are sent at (seeded from the clock, printed so a
/// failure can be retried at the same moments).
struct Moments(u64);

impl Moments {
    fn next_ms(&mut self, lo: u64, hi: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        lo + (self.0 >> 33) % (hi - lo)
    }
}

#[test]
fn term_hup_and_int_leave_the_folder_as_it_was() {
    let seed =
        std::env::var("SHADERSORT_SIGNAL_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(|| {
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64
        });
    eprintln!("moments from SHADERSORT_SIGNAL_SEED={seed}");
    let mut moments = Moments(seed);
    let dir = tempfile::tempdir().unwrap();
    // Runs of several seconds on a software GPU: odd-even over 1500 pixels a line, a recording
    // of 400 passes, and the radix view's 72 staged scatter frames.
    let long = noise(dir.path(), "long.png", 1500, 40, 1);
    let wide = noise(dir.path(), "wide.png", 400, 300, 2);
    std::fs::write(dir.path().join("out.png"), b"an older picture").unwrap();
    std::fs::write(dir.path().join("out.gif"), b"an older recording").unwrap();
    std::fs::create_dir(dir.path().join("frames")).unwrap();
    std::fs::write(dir.path().join("frames/frame-00000.png"), b"an older frame").unwrap();
    // A clip long enough to be under way: 300 frames, odd-even, into an older video.
    let ffmpeg = Command::new("ffmpeg")
        .args(["-v", "error", "-nostdin", "-f", "lavfi", "-i", "testsrc2=size=96x64:rate=30"])
        .args(["-frames:v", "300", "-c:v", "ffv1", "clip.mkv"])
        .current_dir(dir.path())
        .output();
    let have_clip = ffmpeg.is_ok_and(|o| o.status.success());
    assert!(
        have_clip || std::env::var_os("SHADERSORT_REQUIRE_FFMPEG").is_none(),
        "SHADERSORT_REQUIRE_FFMPEG is set but ffmpeg cannot make a clip"
    );
    std::fs::write(dir.path().join("out.mkv"), b"an older video").unwrap();
    let mut runs: Vec<(&str, Vec<&str>)> = vec![
        ("--out", vec![&long, "--out", "out.png"]),
        ("--record", vec![&wide, "--record", "out.gif"]),
        ("--record (animated PNG)", vec![&wide, "--record", "out.png"]),
        ("--record (PNG frames)", vec![&wide, "--record", "frames/"]),
        (
            "radix --record",
            vec![&wide, "--algorithm", "radix", "--sub-steps", "--digit-bits", "1", "--record", "out.gif"],
        ),
    ];
    if have_clip {
        // Odd-even, named: a clip's default (bitonic) sorts these 300 frames in about a second.
        runs.push(("a clip's --out", vec!["clip.mkv", "--algorithm", "odd-even", "--out", "out.mkv"]));
    }
    for (signal, number) in [("TERM", 15), ("HUP", 1), ("INT", 2)] {
        for (what, args) in &runs {
            let before = snapshot(dir.path());
            let child = Command::new(env!("CARGO_BIN_EXE_shadersort"))
                .args(args)
                .current_dir(dir.path())
                .env_remove("RUST_LOG")
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            let wait = moments.next_ms(200, 1500);
            std::thread::sleep(Duration::from_millis(wait));
            let sent =
                Command::new("kill").args([&format!("-{signal}"), &child.id().to_string()]).status().unwrap();
            assert!(sent.success());
            let out = child.wait_with_output().unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            let case = format!("SIG{signal} {wait} ms into {what}");
            assert_eq!(out.status.code(), Some(128 + number), "{case}: {stderr}");
            // stderr may hold a software driver's noise too; the run's own message is one line.
            let errors: Vec<&str> = stderr.lines().filter(|l| l.contains("nothing was written")).collect();
            assert_eq!(errors.len(), 1, "{case}: one message: {stderr}");
            assert!(errors[0].starts_with("error: "), "{case}: {stderr}");
            assert!(
                errors[0].contains(&format!("SIG{signal}")),
                "{case}: the line names the signal: {stderr}"
            );
            assert_eq!(stderr.lines().last(), Some(errors[0]), "{case}: the message ends the run: {stderr}");
            let after = snapshot(dir.path());
            assert_eq!(
                after.keys().collect::<Vec<_>>(),
                before.keys().collect::<Vec<_>>(),
                "{case}: the folder's files changed"
            );
            assert!(after == before, "{case}: a file's bytes changed");
        }
    }
}

#[test]
fn a_long_run_without_a_terminal_prints_progress_lines() {
    let dir = tempfile::tempdir().unwrap();
    let long = noise(dir.path(), "long.png", 1000, 30, 3);
    let started = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_shadersort"))
        .args([&long, "--out", "sorted.png"])
        .current_dir(dir.path())
        .env_remove("RUST_LOG")
        .env("SHADERSORT_PROGRESS_SECONDS", "0.2")
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let elapsed = started.elapsed();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let lines: Vec<&str> = stderr.lines().filter(|l| l.starts_with("sorting: ")).collect();
    // One line every 0.2 s after the first 0.2 s of sorting; allow for the start-up.
    assert!(elapsed > Duration::from_millis(900), "the run was too short to judge: {elapsed:?}");
    assert!(lines.len() >= 2, "{} progress lines in {elapsed:?}: {stderr}", lines.len());
    for line in &lines {
        assert!(
            line.contains(" of 1000 steps (") && line.contains("steps/s") && line.contains(" gone"),
            "{line}"
        );
    }
    assert!(lines.iter().any(|l| l.contains("left")), "an estimate of the time left: {stderr}");
}
