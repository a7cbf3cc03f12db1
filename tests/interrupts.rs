//! Every way a headless run ends leaves its folder as it was: SIGTERM, SIGHUP and SIGINT, sent
//! at a random moment of `--out`, `--record` (GIF, animated PNG, a folder of PNG frames) and a
//! radix `--record --sub-steps`, and a clip sorted through ffmpeg (where ffmpeg runs), each end the
//! run with a one-line message and exit status 128 + the signal, and the folder holds exactly
//! the files it held before, byte for byte (an older output untouched, no temporary left). A
//! second signal, sent while the first one's shutdown waits for a long frame, ends the run at once
//! the same way. And a long run without a terminal says how it is doing every few seconds, and
//! once, when an odd-even sort will take over 30 s, how long and that radix is faster.

#![cfg(unix)]

use image::RgbaImage;
use shadersort::picture::patterns::random_image;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[path = "common/ci.rs"]
mod ci;

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

/// The binary, run in `dir` with its own log level and no pipeline cache (so a test never
/// touches the user's).
fn shadersort(dir: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_shadersort"));
    command.current_dir(dir).env_remove("RUST_LOG").env("SHADERSORT_CACHE_DIR", "");
    command
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
    // Runs of seconds on a software GPU: odd-even over 1500 pixels a line, recordings of 640
    // passes, and the radix view's staged scatter frames.
    let long = noise(dir.path(), "long.png", 1500, 40, 1);
    // Recordings are quick on a fast CPU: they take a larger picture, to last well past the
    // latest moment a signal is sent (1.5 s).
    let wider = noise(dir.path(), "wider.png", 640, 320, 3);
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
    let required = ci::switch("SHADERSORT_REQUIRE_FFMPEG", "fail when ffmpeg is missing");
    assert!(have_clip || !required, "SHADERSORT_REQUIRE_FFMPEG=1 but ffmpeg cannot make a clip");
    std::fs::write(dir.path().join("out.mkv"), b"an older video").unwrap();
    let mut runs: Vec<(&str, Vec<&str>)> = vec![
        ("--out", vec![&long, "--out", "out.png"]),
        ("--record", vec![&wider, "--record", "out.gif"]),
        ("--record (animated PNG)", vec![&wider, "--record", "out.png"]),
        ("--record (PNG frames)", vec![&wider, "--record", "frames/"]),
        (
            "radix --record",
            vec![&wider, "--algorithm", "radix", "--sub-steps", "--digit-bits", "1", "--record", "out.gif"],
        ),
    ];
    if have_clip {
        // Odd-even's own passes (`--steps`): a clip's frames sorted to their end are made at once
        // by the segmented sort, and these 300 frames take well under a second that way.
        runs.push((
            "a clip's --out",
            vec!["clip.mkv", "--algorithm", "odd-even", "--steps", "100000", "--out", "out.mkv"],
        ));
    }
    // HUP on GL (llvmpipe), the others on Vulkan (lavapipe): every run on both software GPUs.
    for (signal, number, backend) in [("TERM", 15, "vulkan"), ("HUP", 1, "gl"), ("INT", 2, "vulkan")] {
        for (what, args) in &runs {
            let before = snapshot(dir.path());
            let child = shadersort(dir.path())
                .args(args)
                .env("WGPU_BACKEND", backend)
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
            let case = format!("SIG{signal} {wait} ms into {what} on {backend}");
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
    crate::ci::passed();
}

#[test]
fn a_long_run_without_a_terminal_prints_progress_lines() {
    let dir = tempfile::tempdir().unwrap();
    let long = noise(dir.path(), "long.png", 1000, 30, 3);
    let started = Instant::now();
    let out = shadersort(dir.path())
        .args([&long, "--out", "sorted.png"])
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
    crate::ci::passed();
}

/// Names of the run's temporary files in `dir` (`.shadersort-*`).
fn temporaries(dir: &Path) -> Vec<String> {
    let names =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned());
    names.filter(|name| name.starts_with(".shadersort-")).collect()
}

/// Sends `signal` ("TERM") to the child.
fn send(signal: &str, child: &std::process::Child) {
    let sent = Command::new("kill").args([&format!("-{signal}"), &child.id().to_string()]).status().unwrap();
    assert!(sent.success(), "kill -{signal} failed");
}

#[test]
fn a_second_signal_ends_the_run_at_once_and_removes_its_temporary() {
    let dir = tempfile::tempdir().unwrap();
    // One frame of all 2000 odd-even passes over 2000x60 pixels: seconds on a software GPU, and
    // the first signal is seen only once that frame is read back, so its shutdown is slow.
    let wide = noise(dir.path(), "wide.png", 2000, 60, 4);
    std::fs::write(dir.path().join("out.gif"), b"an older recording").unwrap();
    let before = snapshot(dir.path());
    let mut child = shadersort(dir.path())
        .args([&wide, "--record", "out.gif", "--every", "2000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Writing has begun once a temporary file stays (a probe of the folder comes and goes first);
    // the long frame starts right after it is opened.
    let started = Instant::now();
    loop {
        let seen = temporaries(dir.path());
        std::thread::sleep(Duration::from_millis(100));
        if !seen.is_empty() && seen == temporaries(dir.path()) {
            break;
        }
        assert!(child.try_wait().unwrap().is_none(), "the recording ended before it began writing");
        assert!(started.elapsed() < Duration::from_secs(60), "no temporary file after 60 s");
    }
    std::thread::sleep(Duration::from_millis(200));
    send("TERM", &child);
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        child.try_wait().unwrap().is_none(),
        "the first SIGTERM ended the run within 0.3 s: too quick to catch a second signal (make the frame longer)"
    );
    assert!(!temporaries(dir.path()).is_empty(), "the temporary file went before the second signal");
    let second = Instant::now();
    send("TERM", &child);
    let out = child.wait_with_output().unwrap();
    let took = second.elapsed();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(143), "128 + the first signal: {stderr}");
    assert!(took < Duration::from_millis(1500), "the second signal took {took:?} to end the run: {stderr}");
    // The orderly end prints this line once the frame is done; the second signal comes first.
    assert!(!stderr.contains("nothing was written"), "the first signal's shutdown ended the run: {stderr}");
    let after = snapshot(dir.path());
    assert_eq!(after.keys().collect::<Vec<_>>(), before.keys().collect::<Vec<_>>(), "files left: {stderr}");
    assert!(after == before, "the older recording changed");
    crate::ci::passed();
}

/// A picture whose rows run from light to dark, so odd-even needs about all of its `width`
/// passes; smooth, so it is quick to write and read.
fn reversed_gradient(dir: &Path, name: &str, width: u32, height: u32) -> String {
    let picture = RgbaImage::from_fn(width, height, |x, y| {
        let v = (255 - x * 255 / width) as u8;
        image::Rgba([v, v, (y % 256) as u8, 255])
    });
    picture.save(dir.join(name)).unwrap();
    name.to_string()
}

/// The seconds in a duration as `duration_words` writes it ("2 min 44 s", "45 s", "1 h 2 min").
fn seconds_in(words: &str) -> Option<u64> {
    let parts: Vec<&str> = words.split_whitespace().collect();
    let mut seconds = 0;
    for pair in parts.chunks(2) {
        let n: u64 = pair.first()?.parse().ok()?;
        seconds += n * match *pair.get(1)? {
            "h" => 3600,
            "min" => 60,
            "s" => 1,
            _ => return None,
        };
    }
    Some(seconds)
}

/// Runs `shadersort picture --out out.png` with progress lines every 0.5 s; once a line holds
/// `until`, or after 20 s, stops it with SIGTERM; returns stderr and how the run ended.
fn stderr_of_out(dir: &Path, picture: &str, until: &str) -> (String, std::process::ExitStatus) {
    use std::io::BufRead;
    let mut child = shadersort(dir)
        .args([picture, "--out", "out.png"])
        .env("SHADERSORT_PROGRESS_SECONDS", "0.5")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = std::io::BufReader::new(child.stderr.take().unwrap()).lines();
    let (mut text, started) = (String::new(), Instant::now());
    for line in lines.by_ref() {
        let line = line.unwrap();
        text.push_str(&line);
        text.push('\n');
        // The progress lines wake this loop every half second.
        if line.contains(until) || started.elapsed() > Duration::from_secs(20) {
            send("TERM", &child);
            break;
        }
    }
    text.extend(lines.map(|l| l.unwrap() + "\n"));
    (text, child.wait().unwrap())
}

#[test]
fn a_sort_that_will_take_over_30_s_gets_one_note_and_a_short_one_none() {
    let dir = tempfile::tempdir().unwrap();
    // 6000 odd-even passes over 6000x300 pixels: minutes on this software GPU, so well over
    // 30 s on a much faster one too. The run is stopped once the note is out.
    let long = reversed_gradient(dir.path(), "long.png", 6000, 300);
    let (stderr, _) = stderr_of_out(dir.path(), &long, "note: odd-even needs");
    let notes: Vec<&str> = stderr.lines().filter(|l| l.contains("note: odd-even needs")).collect();
    assert_eq!(notes.len(), 1, "one note: {stderr}");
    let note = notes[0];
    assert!(note.starts_with("note: odd-even needs up to 6000 steps for this picture, about "), "{note}");
    assert!(note.ends_with(" in all at this rate; --algorithm radix sorts it in 5 digit passes"), "{note}");
    let words = note.split_once("about ").unwrap().1.split(" in all").next().unwrap();
    let estimate = seconds_in(words).unwrap_or_else(|| panic!("no duration in {note}"));
    assert!(estimate >= 30, "a note for a run of {estimate} s: {stderr}");
    // The estimate follows the rate the progress lines report ("..., 36.6 steps/s, ...").
    let rates: Vec<f64> = stderr
        .lines()
        .filter(|l| l.starts_with("sorting: "))
        .filter_map(|l| l.split(", ").find_map(|part| part.strip_suffix(" steps/s"))?.parse().ok())
        .collect();
    assert!(!rates.is_empty(), "no progress line: {stderr}");
    let at_rate = 6000.0 / rates[rates.len() - 1];
    let ratio = estimate as f64 / at_rate;
    assert!(
        (0.5..2.0).contains(&ratio),
        "{estimate} s estimated; 6000 steps at the rate shown take {at_rate:.0} s"
    );

    // 1200 passes over 1200x60 pixels: a few seconds, so past the first second but far from 30.
    let short = reversed_gradient(dir.path(), "short.png", 1200, 60);
    let (stderr, status) = stderr_of_out(dir.path(), &short, "note: odd-even needs");
    assert!(!stderr.contains("note: odd-even"), "a note for a short run: {stderr}");
    assert!(status.success(), "the short run ended well: {stderr}");
    crate::ci::passed();
}

/// Ctrl-C in the middle of a batch: the pictures finished stay, each whole and the model's, the
/// ones under way leave nothing (no temporary, no part of a file), and the run ends with its
/// summary, one error line and status 130.
#[test]
fn ctrl_c_in_a_batch_keeps_the_finished_pictures_and_nothing_half_written() {
    let dir = tempfile::tempdir().unwrap();
    let (inputs, out) = (dir.path().join("in"), dir.path().join("out"));
    std::fs::create_dir(&inputs).unwrap();
    let count = 160;
    for k in 0..count {
        noise(&inputs, &format!("p{k:03}.png"), 320, 240, 100 + k);
    }
    let child = shadersort(dir.path())
        .args(["in", "--out", "out/"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let finished = || -> usize {
        std::fs::read_dir(&out).map_or(0, |entries| {
            entries.filter(|e| !e.as_ref().unwrap().file_name().to_string_lossy().starts_with('.')).count()
        })
    };
    let started = Instant::now();
    while finished() < 3 {
        assert!(started.elapsed() < Duration::from_secs(120), "no picture written after 120 s");
        std::thread::sleep(Duration::from_millis(10));
    }
    send("INT", &child);
    let ended = child.wait_with_output().unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&ended.stdout), String::from_utf8_lossy(&ended.stderr));
    assert_eq!(ended.status.code(), Some(130), "stdout: {stdout}\nstderr: {stderr}");
    assert!(stderr.lines().last().is_some_and(|l| l.starts_with("error: interrupted")), "{stderr}");
    let written = snapshot(&out);
    assert!(written.len() < count as usize, "the batch ended before the signal: make it longer");
    assert!(stdout.starts_with(&format!("sorted {} of {count} inputs", written.len())), "{stdout}");
    for (name, bytes) in &written {
        assert!(!name.starts_with(".shadersort-"), "a temporary was left: {name}");
        let k: u64 = name.trim_start_matches('p').trim_end_matches(".png").parse().unwrap();
        let input = random_image(320, 240, 100 + k);
        let picture = image::load_from_memory(bytes).unwrap_or_else(|e| panic!("{name} is not whole: {e}"));
        let model = shadersort::reference::stable_sort(&input, &Default::default());
        assert!(picture.to_rgba8() == model, "{name} is not the model's picture");
    }
    crate::ci::passed();
}
