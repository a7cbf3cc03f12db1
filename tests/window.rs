//! The live window end to end, on the software GPU under its own Xvfb: keys sent with xdotool
//! (XTEST) move the pass counter as the key table says, stepping changes the picture on screen, S
//! saves a PNG, G records a GIF whose frames are the CPU model's, J opens and closes the shader
//! panel, Q quits (more keys in [`keys`]);
//! the interval flags start it within intervals, M changes the intervals live, I draws them over
//! the picture and ] turns the lines to an angle; a clip plays sorted, pauses on a frame, steps
//! through its passes and frames, and records. Needs `xvfb`, `xdotool`, `x11-utils` (xdpyinfo) and
//! `imagemagick` (`.ci/run` installs them): without them it says "skipped" and what to install,
//! and fails only with SHADERSORT_REQUIRE_WINDOW=1 (as CI sets); SHADERSORT_SKIP_WINDOW_TEST=1
//! skips it where they are. A failing test prints the app's log and the X server's.

use image::RgbaImage;
use std::path::PathBuf;

mod clips;
use clips::ci;
#[path = "common/lens_bars.rs"]
mod lens_bars;
use lens_bars::bars_follow_the_model;
#[path = "window/keys.rs"]
mod keys;
#[path = "window/live.rs"]
mod live;
#[path = "window/many.rs"]
mod many;
#[path = "common/ports.rs"]
mod ports;
#[path = "window/sound.rs"]
mod sound;
#[path = "common/sound_model.rs"]
mod sound_model;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Stops a child process when dropped (SIGTERM, so an X server removes its lock and socket;
/// SIGKILL if it lingers), so a failing test leaves nothing running.
struct Reaper(Child);

impl Drop for Reaper {
    fn drop(&mut self) {
        // A child already waited for may have given its pid to another process (pids wrap at
        // 32768, and these tests start an xdotool every 100 ms): signal only a live child,
        // whose pid is still its own.
        if !matches!(self.0.try_wait(), Ok(None)) {
            return;
        }
        let _ = Command::new("kill").args(["-TERM", &self.0.id().to_string()]).status();
        for _ in 0..50 {
            if self.0.try_wait().is_ok_and(|s| s.is_some()) {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn have(tool: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Waits until `check` is true, failing with `what` after `limit`.
fn wait_for(what: &str, limit: Duration, mut check: impl FnMut() -> bool) {
    let started = Instant::now();
    while !check() {
        assert!(started.elapsed() < limit, "timed out after {limit:?} waiting for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

struct Session {
    dir: tempfile::TempDir,
    display: String,
    log: PathBuf,
    xvfb_log: PathBuf,
    /// The log's length before the last key press.
    keys_from: std::cell::Cell<usize>,
    window: String,
    app: Reaper,
    _xvfb: Reaper,
}

/// A test that fails with a window open prints both logs: the app's and the X server's.
impl Drop for Session {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("the app's log:\n{}\n{}", self.log_text(), xvfb_log_text(&self.xvfb_log));
        }
    }
}

impl Session {
    fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Whether a line logged since the last key press ends in `needle` (a line from before
    /// it may be a stale answer to an earlier key).
    fn logged(&self, needle: &str) -> bool {
        let text = self.log_text();
        text.get(self.keys_from.get()..).unwrap_or_default().lines().any(|l| l.ends_with(needle))
    }

    /// The latest step report ("pass 3/64", "digit pass 0/5", "scatter stage 1/20"): where the
    /// sort is now. Going back replays from the input, so earlier counts show up again first.
    fn current_step(&self) -> Option<String> {
        // Whole lines only: the app may be half way through writing the last one.
        let text = self.log_text();
        text.split_inclusive('\n')
            .rev()
            .filter_map(|l| l.strip_suffix('\n'))
            .find_map(step_report)
            .map(str::to_string)
    }

    /// Waits until the sort is at `report` (it may have been there before the last key).
    fn expect_step(&self, report: &str) {
        wait_for(&format!("'{report}' as the latest step in the log"), Duration::from_secs(30), || {
            self.current_step().as_deref() == Some(report)
        });
    }

    /// Waits until the sort is at pass `at_least` or later (playing may run several passes in
    /// one frame, so not every pass is logged).
    fn expect_pass_at_least(&self, at_least: u32, total: u32) {
        let reached = || {
            self.current_step().and_then(|step| {
                let k = step.strip_prefix("pass ")?.strip_suffix(&format!("/{total}"))?;
                k.parse::<u32>().ok()
            })
        };
        wait_for(&format!("pass {at_least}/{total} or later"), Duration::from_secs(30), || {
            reached().is_some_and(|k| k >= at_least)
        });
    }

    /// Waits until a line logged since the last key press ends in `needle`.
    fn expect_log(&self, needle: &str) {
        wait_for(&format!("'{needle}' in the log"), Duration::from_secs(30), || self.logged(needle));
    }

    fn xdotool(&self, args: &[&str]) {
        let status = Command::new("xdotool").args(args).env("DISPLAY", &self.display).status().unwrap();
        assert!(status.success(), "xdotool {args:?} failed");
    }

    /// Presses keys through XTEST on the focused window (winit ignores synthetic events).
    fn keys(&self, keys: &[&str]) {
        self.keys_from.set(self.log_text().len());
        self.xdotool(&["windowfocus", "--sync", &self.window]);
        for key in keys {
            self.xdotool(&["key", key]);
            std::thread::sleep(Duration::from_millis(150));
        }
    }

    /// The window's position and size on the screen: (x, y, width, height).
    fn geometry(&self) -> (u32, u32, u32, u32) {
        let out = Command::new("xdotool")
            .args(["getwindowgeometry", "--shell", &self.window])
            .env("DISPLAY", &self.display)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let value = |key: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(&format!("{key}=")))
                .and_then(|v| v.trim().parse::<u32>().ok())
                .unwrap_or_else(|| panic!("no {key} in xdotool's geometry: {text}"))
        };
        (value("X"), value("Y"), value("WIDTH"), value("HEIGHT"))
    }

    /// Screenshots until one shows `what` (`shows` holds), waiting for a frame that draws it
    /// rather than a fixed time; fails after 30 s.
    fn screenshot_showing(&self, name: &str, what: &str, shows: impl Fn(&RgbaImage) -> bool) -> RgbaImage {
        self.screenshot_until(name, |shot| if shows(shot) { Ok(()) } else { Err(format!("no {what}")) })
    }

    /// Screenshots until `check` passes (a loaded machine draws late), failing after 30 s
    /// with what the last screenshot showed instead.
    fn screenshot_until(&self, name: &str, check: impl Fn(&RgbaImage) -> Result<(), String>) -> RgbaImage {
        let started = Instant::now();
        loop {
            let shot = self.screenshot(name);
            match check(&shot) {
                Ok(()) => return shot,
                Err(why) if started.elapsed() > Duration::from_secs(30) => {
                    panic!("after 30 s, {name}: {why}")
                }
                Err(_) => std::thread::sleep(Duration::from_millis(100)),
            }
        }
    }

    fn screenshot(&self, name: &str) -> RgbaImage {
        let path = self.dir.path().join(name);
        let status = Command::new("import")
            .args(["-window", "root", path.to_str().unwrap()])
            .env("DISPLAY", &self.display)
            .status()
            .unwrap();
        assert!(status.success(), "import (imagemagick) failed");
        image::open(&path).unwrap().to_rgba8()
    }
}

/// The step report of a log line ("pass 3/64", "digit pass 0/5"), if it is one: a few
/// lower-case words and a count k/n.
fn step_report(line: &str) -> Option<&str> {
    let message = line.split_once("] ")?.1;
    let (noun, count) = message.rsplit_once(' ')?;
    let (k, n) = count.split_once('/')?;
    let counted = k.parse::<u32>().is_ok() && n.parse::<u32>().is_ok();
    let words = !noun.is_empty() && noun.chars().all(|c| c.is_ascii_lowercase() || c == ' ');
    (counted && words).then_some(message)
}

/// Starts an X server of its own for one window test and waits until it answers; returns it,
/// its display (":N") and the path of its log.
///
/// `-noreset` keeps the server as it is when its last client leaves. Without it Xvfb resets
/// then, and a client that connects during the reset is dropped: the app, starting while the
/// harness polls with short-lived `xdotool search` clients, failed now and then with "Failed to
/// open connection to X server" (`.ci/window-stress connect` counts it: issue 17).
fn start_xvfb(dir: &std::path::Path) -> (Reaper, String, PathBuf) {
    let log = dir.join("xvfb.log");
    // Xvfb picks a free display itself and reports its number on stdout (-displayfd 1): no
    // clash with other X servers, stale or live. It writes the number, then a newline, then
    // closes the descriptor: reading the whole line never hangs up on it half way.
    let mut server = Command::new("Xvfb")
        .args(["-displayfd", "1", "-noreset", "-screen", "0", "1024x768x24", "-nolisten", "tcp"])
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    let mut number = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(server.stdout.take().unwrap()), &mut number)
        .unwrap();
    let xvfb = Reaper(server);
    let display = format!(":{}", number.trim());
    assert!(display.len() > 1, "Xvfb reported no display number; {}", xvfb_log_text(&log));
    // The display is reported once it listens; start the app only once a client is served.
    let started = Instant::now();
    while !Command::new("xdpyinfo")
        .args(["-display", &display])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
    {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "Xvfb on {display} did not answer xdpyinfo within 30 s; {}",
            xvfb_log_text(&log)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    (xvfb, display, log)
}

/// The X server's log, for a failure message.
fn xvfb_log_text(path: &std::path::Path) -> String {
    format!("Xvfb's log:\n{}", std::fs::read_to_string(path).unwrap_or_default())
}

/// The part of the screen right of the side panel: where the picture is drawn.
fn picture_area(shot: &RgbaImage) -> RgbaImage {
    image::imageops::crop_imm(shot, 320, 0, shot.width() - 320, shot.height()).to_image()
}

/// The screen rows on which the status block's colour shows in the window's side panel.
fn status_rows(shot: &RgbaImage, (x0, y0, w, h): (u32, u32, u32, u32)) -> Vec<u32> {
    let fill = shadersort::app::ui::STATUS_FILL.to_array();
    let panel = shadersort::app::ui::PANEL_WIDTH as u32;
    let inside = |x: u32, y: u32| x >= x0 && x < x0 + panel.min(w) && y >= y0 && y < y0 + h;
    (0..shot.height())
        .filter(|&y| (0..shot.width()).any(|x| inside(x, y) && shot.get_pixel(x, y).0[..3] == fill[..3]))
        .collect()
}

/// The status block (its own background colour, left in the side panel): whole on screen,
/// above the window's bottom edge, with text in it.
fn assert_status_whole(shot: &RgbaImage, window: (u32, u32, u32, u32)) {
    let (x0, y0, _, h) = window;
    let panel = shadersort::app::ui::PANEL_WIDTH as u32;
    let rows = status_rows(shot, window);
    let (Some(&top), Some(&bottom)) = (rows.first(), rows.last()) else {
        panic!("no status block in the side panel of the window at {window:?}")
    };
    assert!(
        bottom + 2 < y0 + h,
        "the status block ends at y={bottom}, cut by the window's bottom edge at {}",
        y0 + h
    );
    let text = (top..=bottom)
        .flat_map(|y| (x0..x0 + panel).map(move |x| (x, y)))
        .filter(|&(x, y)| shot.get_pixel(x, y).0[..3].iter().all(|&c| c > 150))
        .count();
    assert!(text > 200, "the status block (y {top}..{bottom}) holds almost no text: {text} bright pixels");
}

/// Starts the window on a 64x48 random picture with `args` after it, waiting for the log line
/// `first`.
fn start(backend: &str, picture: &RgbaImage, args: &[&str], first: &str) -> Option<Session> {
    launch(backend, "noise.png", args, first, |dir| picture.save(dir.join("noise.png")).unwrap())
}

/// Starts the window on `input` (which `prepare` makes in the test's folder) with `args` after
/// it, waiting for the log line `first`.
fn launch(
    backend: &str,
    input: &str,
    args: &[&str],
    first: &str,
    prepare: impl FnOnce(&std::path::Path),
) -> Option<Session> {
    launch_with(backend, (input, args), first, prepare, &[])
}

/// [`launch`] with more environment variables: each a name and a file in the test's folder.
fn launch_with(
    backend: &str,
    (input, args): (&str, &[&str]),
    first: &str,
    prepare: impl FnOnce(&std::path::Path),
    files: &[(&str, &str)],
) -> Option<Session> {
    if ci::switch("SHADERSORT_SKIP_WINDOW_TEST", "skip the window tests") {
        eprintln!("skipped: the window test, as SHADERSORT_SKIP_WINDOW_TEST=1 asks");
        return None;
    }
    let missing: Vec<&str> =
        ["Xvfb", "xdotool", "xdpyinfo", "import"].into_iter().filter(|t| !have(t)).collect();
    if !missing.is_empty() {
        let install = "apt-get install xvfb xdotool x11-utils imagemagick";
        let required = ci::switch("SHADERSORT_REQUIRE_WINDOW", "fail when the window test cannot run");
        assert!(
            !required,
            "SHADERSORT_REQUIRE_WINDOW=1 but the window test needs {}: {install}",
            missing.join(", ")
        );
        eprintln!("skipped: the window test needs {}: install them ({install})", missing.join(", "));
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let runtime = dir.path().join("xdg");
    std::fs::create_dir(&runtime).unwrap();
    let (xvfb, display, xvfb_log) = start_xvfb(dir.path());

    prepare(dir.path());
    let log = dir.path().join("app.log");
    let app = Reaper(
        Command::new(env!("CARGO_BIN_EXE_shadersort"))
            .args([input, "--quit-after", "120"])
            .args(args)
            .current_dir(dir.path())
            .env("DISPLAY", &display)
            .env("XDG_RUNTIME_DIR", &runtime)
            .env("XDG_CONFIG_HOME", dir.path().join("config"))
            // The pipeline cache in the test's folder, never the user's ~/.cache.
            .env("XDG_CACHE_HOME", dir.path().join("cache"))
            .env_remove("WAYLAND_DISPLAY")
            // The player's account of each frame played too (tests/window/keys.rs reads it).
            .env("RUST_LOG", "shadersort=info,shadersort::controls::player=debug")
            .env("WGPU_BACKEND", backend)
            .envs(files.iter().map(|&(name, file)| (name, dir.path().join(file))))
            .stdout(std::fs::File::create(dir.path().join("stdout.log")).unwrap())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap(),
    );
    // Wait for the window to show (eframe maps it after its first frame); if the app exits
    // first or never shows one, say why from its log.
    let mut app = app;
    let started = Instant::now();
    let window = loop {
        let out = Command::new("xdotool")
            .args(["search", "--onlyvisible", "--name", "^shadersort"])
            .env("DISPLAY", &display)
            .output()
            .unwrap();
        let found = String::from_utf8_lossy(&out.stdout).lines().next().unwrap_or_default().to_string();
        if !found.is_empty() {
            break found;
        }
        let logs = || {
            let app_log = std::fs::read_to_string(&log).unwrap_or_default();
            format!("the app's log:\n{app_log}\n{}", xvfb_log_text(&xvfb_log))
        };
        if let Some(status) = app.0.try_wait().unwrap() {
            panic!("the app exited ({status}) before its window appeared; {}", logs());
        }
        assert!(started.elapsed() < Duration::from_secs(120), "no window after 120 s; {}", logs());
        std::thread::sleep(Duration::from_millis(100));
    };
    let session =
        Session { dir, display, log, xvfb_log, keys_from: Default::default(), window, app, _xvfb: xvfb };
    session.expect_log(first);
    // The ledger names the test and the adapter the window opened on, from the app's own log.
    let text = session.log_text();
    let adapter =
        text.lines().find_map(|l| l.split_once("window on ")).map_or("no adapter logged", |(_, a)| a);
    let test = std::thread::current().name().unwrap_or("a window test").to_string();
    ci::ran("window", &format!("{test} on {adapter}"));
    Some(session)
}

/// One window at a time: the two software GPUs share two cores, and each needs its own display.
#[test]
fn keys_step_the_sort_and_the_picture_follows_on_both_backends() {
    for backend in ["vulkan", "gl"] {
        keys_step_the_sort_and_the_picture_follows(backend);
    }
    crate::clips::ci::passed();
}

fn keys_step_the_sort_and_the_picture_follows(backend: &str) {
    // A 64x48 picture: small, so every pass is quick even on the software GPU.
    let picture = shadersort::picture::patterns::random_image(64, 48, 5);
    let Some(mut s) = start(backend, &picture, &[], "pass 0/64") else { return };
    assert!(
        s.log_text().to_lowercase().contains(&format!("({backend}")),
        "not on {backend}: {}",
        s.log_text()
    );
    // The reference screenshot once the first frames are on screen (the panel's status block
    // shows), however long a loaded machine takes to draw them.
    let geometry = s.geometry();
    let mut shot = RgbaImage::new(0, 0);
    wait_for("the first frames on screen", Duration::from_secs(30), || {
        std::thread::sleep(Duration::from_millis(300));
        shot = s.screenshot("before.png");
        !status_rows(&shot, geometry).is_empty()
    });
    // Room: the window takes most of the 1024x768 screen, and the status is whole on it.
    assert!(geometry.2 >= 900 && geometry.3 >= 650, "the window opened at {geometry:?} on a 1024x768 screen");
    assert_status_whole(&shot, geometry);
    let before = picture_area(&shot);

    s.keys(&["Right", "Right", "n"]);
    s.expect_step("pass 3/64");
    // Three passes forward change the picture on screen.
    let after = s.screenshot_showing("after.png", "the picture changed by three passes", |shot| {
        picture_area(shot) != before
    });

    s.keys(&["Left"]);
    s.expect_step("pass 2/64");
    s.keys(&["shift+Right"]);
    s.expect_step("pass 8/64");
    // What the keys stepped to, by its effect: S saves the model's picture after 8 passes.
    s.keys(&["s"]);
    s.expect_log("saved noise-odd-even-luma-pass8.png");
    let eight = image::open(s.dir.path().join("noise-odd-even-luma-pass8.png")).unwrap().to_rgba8();
    let options = shadersort::keys::options::SortOptions::default();
    assert!(
        eight == shadersort::reference::odd_even_passes(&picture, &options, 8),
        "pass 8 is not the model's"
    );
    s.keys(&["End"]);
    s.expect_step("pass 64/64");
    s.keys(&["Home"]);
    s.expect_step("pass 0/64");

    s.keys(&["s"]);
    s.expect_log("saved noise-odd-even-luma-pass0.png");
    let saved = image::open(s.dir.path().join("noise-odd-even-luma-pass0.png")).unwrap().to_rgba8();
    assert!(saved == picture, "Home's pass 0 is not the picture as it was");

    s.keys(&["g"]);
    wait_for("the recording", Duration::from_secs(60), || {
        s.log_text().contains("gifs/noise-odd-even-luma.gif")
    });
    assert!(s.log_text().contains("recorded"), "{}", s.log_text());
    keys::assert_recording_follows_the_model(
        &s.dir.path().join("gifs/noise-odd-even-luma.gif"),
        &picture,
        64,
    );

    s.keys(&["space"]);
    s.expect_pass_at_least(10, 64);
    s.keys(&["r"]);
    s.expect_step("pass 0/64");

    // Side by side, in sync by time, playing to the end.
    s.keys(&["c", "v"]);
    s.expect_log("rows by luma, smallest first; side by side, sync by time");
    s.keys(&["space"]);
    s.expect_pass_at_least(30, 64);
    let shot = s.screenshot("side_by_side.png");
    // Side by side the panel holds more than the window's height: the status stays whole.
    assert_status_whole(&shot, s.geometry());
    let side_by_side = picture_area(&shot);
    assert!(side_by_side != after, "the side-by-side view must look different");

    // The radix view: one step per digit pass, or per scatter stage.
    s.keys(&["c", "3"]);
    s.expect_log("LSD radix, rows by luma, smallest first; 4-bit digits, scope rows");
    s.expect_step("digit pass 0/5");
    s.keys(&["End"]);
    s.expect_step("digit pass 5/5");
    s.keys(&["u", "Right"]);
    s.expect_step("scatter stage 1/20");
    // A scatter stage changes the picture on screen.
    s.screenshot_showing("radix_stage.png", "the picture changed by a scatter stage", |shot| {
        picture_area(shot) != before
    });

    // Shift+I twice: the sorted input in place of the picture, made for the sort chosen (odd-even
    // by luma along rows); S saves it as it starts, and the sort finds it sorted at once.
    s.keys(&["1", "shift+i", "shift+i"]);
    s.expect_log("input: sorted (the built-in input sorted (256x144))");
    s.keys(&["s"]);
    s.expect_log("saved sorted-odd-even-luma-pass0.png");
    let saved = image::open(s.dir.path().join("sorted-odd-even-luma-pass0.png")).unwrap().to_rgba8();
    let options = shadersort::keys::options::SortOptions::default();
    let sorted = shadersort::picture::teaching::Pattern::Sorted.picture((256, 144), &options, 1);
    assert!(saved == sorted, "Shift+I's sorted input is not the pattern");
    assert!(shadersort::reference::is_sorted(&saved, &options), "the sorted input is not sorted");

    // J opens the shader panel over the pictures (the kernel the first pass will dispatch), and
    // J again closes it.
    let without = picture_area(&s.screenshot("no_shader.png"));
    s.keys(&["j"]);
    s.expect_log("shader panel open");
    s.screenshot_showing("shader.png", "the shader panel over the pictures", |shot| {
        picture_area(shot) != without
    });
    s.keys(&["j"]);
    s.expect_log("shader panel closed");
    s.screenshot_showing("shader_closed.png", "the pictures without the shader panel", |shot| {
        picture_area(shot) == without
    });

    s.keys(&["q"]);
    wait_for("the window to close", Duration::from_secs(20), || s.app.0.try_wait().unwrap().is_some());
    let status = s.app.0.wait().unwrap();
    assert!(status.success(), "the app failed: {}", s.log_text());
}

/// A 64x48 random picture of 64 colours (each channel one of four levels, none 0 or 255), so a
/// GIF holds it exactly and the overlay's magenta appears nowhere in it.
fn few_colours() -> RgbaImage {
    let mut picture = shadersort::picture::patterns::random_image(64, 48, 9);
    for p in picture.pixels_mut() {
        for c in 0..3 {
            p[c] = [16, 88, 160, 232][usize::from(p[c] >> 6)];
        }
        p[3] = 255;
    }
    picture
}

/// Pixels of a screenshot in the overlay's interval-start magenta (the whole screen: a small
/// window's picture starts left of [`picture_area`], and the panel has no magenta).
fn magenta_pixels(shot: &RgbaImage) -> usize {
    shot.pixels().filter(|p| p.0 == shadersort::intervals::overlay::INTERVAL_START).count()
}

/// The last frame of a GIF, composed.
fn last_gif_frame(path: &std::path::Path) -> RgbaImage {
    use image::AnimationDecoder;
    let file = std::io::BufReader::new(std::fs::File::open(path).unwrap());
    let frames = image::codecs::gif::GifDecoder::new(file).unwrap().into_frames().collect_frames().unwrap();
    frames.last().unwrap().buffer().clone()
}

/// One window at a time, as above.
#[test]
fn interval_flags_the_mode_key_and_the_intervals_overlay_on_both_backends() {
    for backend in ["vulkan", "gl"] {
        interval_flags_the_mode_key_and_the_intervals_overlay(backend);
    }
    crate::clips::ci::passed();
}

fn interval_flags_the_mode_key_and_the_intervals_overlay(backend: &str) {
    use shadersort::intervals::{IntervalMap, IntervalMode, IntervalSettings, Threshold};
    use shadersort::keys::options::{Axis, SortOptions};
    use shadersort::reference::stable_sort_within;
    let picture = few_colours();
    let threshold = IntervalSettings {
        mode: IntervalMode::Threshold,
        threshold: Threshold::new(0.2, 0.6).unwrap(),
        ..Default::default()
    };
    let edges = IntervalSettings { mode: IntervalMode::Edges, ..Default::default() };
    let random = IntervalSettings { mode: IntervalMode::Random, ..Default::default() };
    let threshold_intervals = IntervalMap::compute(&picture, Axis::Rows, &threshold, None).unwrap();
    let edge_intervals = IntervalMap::compute(&picture, Axis::Rows, &edges, None).unwrap();
    let random_intervals = IntervalMap::compute(&picture, Axis::Rows, &random, None).unwrap();
    let options = SortOptions::default();
    let by_threshold = stable_sort_within(&picture, &options, &threshold_intervals);
    assert!(by_threshold != stable_sort_within(&picture, &options, &edge_intervals), "the modes must differ");

    let summary = threshold_intervals.summary().to_string();
    let args = ["--threshold", "0.2..0.6", "--play"];
    let Some(mut s) = start(backend, &picture, &args, &format!("threshold 0.20..0.60 of luma: {summary}"))
    else {
        return;
    };
    // It plays from the start; End then goes to the last pass (playing may stop earlier, once
    // the picture is known sorted).
    let total = threshold_intervals.max_interval_len();
    s.expect_pass_at_least(2, total);
    s.keys(&["End"]);
    s.expect_step(&format!("pass {total}/{total}"));
    s.keys(&["s"]);
    let saved = format!("noise-odd-even-luma-threshold-pass{total}.png");
    s.expect_log(&format!("saved {saved}"));
    let window_png = image::open(s.dir.path().join(&saved)).unwrap().to_rgba8();
    assert!(window_png == by_threshold, "the window's result is not each interval stably sorted");

    // The headless --out of the same flags writes the same picture.
    let out = s.dir.path().join("headless.png");
    let status = Command::new(env!("CARGO_BIN_EXE_shadersort"))
        .args(["noise.png", "--threshold", "0.2..0.6", "--out", out.to_str().unwrap()])
        .current_dir(s.dir.path())
        .env("WGPU_BACKEND", backend)
        .env("XDG_CACHE_HOME", s.dir.path().join("cache"))
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    assert!(image::open(&out).unwrap().to_rgba8() == window_png, "the window and --out differ");

    // G records within the same intervals: its last frame is the sorted picture (64 colours:
    // exact).
    s.keys(&["g"]);
    wait_for("the recording", Duration::from_secs(60), || s.log_text().contains("recorded"));
    let gif = s.dir.path().join("gifs/noise-odd-even-luma-threshold.gif");
    assert!(last_gif_frame(&gif) == by_threshold, "the recording's last frame is not the sorted picture");

    // M: edge intervals, then random intervals; each time the finished sort sorts to the end again
    // within the new intervals (random intervals need more passes than the edge intervals had: not
    // just clamped).
    let edge_line = format!("edges above 0.10 of luma: {}", edge_intervals.summary());
    let random_line = format!("random intervals of 8..64, seed 0: {}", random_intervals.summary());
    assert!(random_intervals.max_interval_len() > edge_intervals.max_interval_len());
    for (line, intervals, mode) in
        [(&edge_line, &edge_intervals, "edges"), (&random_line, &random_intervals, "random")]
    {
        s.keys(&["m"]);
        s.expect_log(line);
        let end = intervals.max_interval_len();
        wait_for(&format!("the {mode} intervals sorted to the end"), Duration::from_secs(60), || {
            let log = s.log_text();
            let after = &log[log.find(line.as_str()).unwrap_or(0)..];
            after.lines().any(|l| l.ends_with(&format!("pass {end}/{end}")))
        });
        s.keys(&["s"]);
        let saved = format!("noise-odd-even-luma-{mode}-pass{end}.png");
        s.expect_log(&format!("saved {saved}"));
        let live = image::open(s.dir.path().join(&saved)).unwrap().to_rgba8();
        let expected = stable_sort_within(&picture, &options, intervals);
        assert!(live == expected, "after M the window's result is not sorted within the {mode} intervals");
    }

    // I draws the intervals over the picture: every interval start a whole block of magenta pixels.
    let geometry = s.geometry();
    let drawn =
        s.screenshot_showing("plain.png", "the window drawn", |shot| !status_rows(shot, geometry).is_empty());
    assert_eq!(magenta_pixels(&drawn), 0, "magenta before I");
    s.keys(&["i"]);
    s.expect_log("intervals shown: fixed pixels darkened, interval starts magenta");
    let shot =
        s.screenshot_showing("intervals.png", "magenta interval starts", |shot| magenta_pixels(shot) > 0);
    let shown = magenta_pixels(&shot);
    let starts = random_intervals.summary().intervals as usize;
    let zoom = (1..=16).find(|z| z * z * starts == shown);
    assert!(zoom.is_some(), "{shown} magenta pixels for {starts} interval starts: not one square block each");
    s.keys(&["i"]);
    s.expect_log("intervals hidden");
    s.screenshot_showing("hidden.png", "no magenta once hidden", |shot| magenta_pixels(shot) == 0);

    // ] turns the direction 15° clockwise: the random intervals now lie along lines at 15°, and the
    // end is the CPU model's, gathered into line space, sorted and scattered back.
    let space = shadersort::angle::LineSpace::new(64, 48, shadersort::angle::Angle::new(15.0).unwrap());
    let angled_intervals = space.interval_map(&picture, &random, None).unwrap();
    let turned = "Odd-even transposition, lines at 15° by luma, smallest first; compute";
    s.keys(&["bracketright"]);
    s.expect_log(turned);
    s.keys(&["End"]);
    let end = angled_intervals.max_interval_len();
    wait_for("the sort at 15° to the end", Duration::from_secs(60), || {
        let log = s.log_text();
        let after = &log[log.find(turned).unwrap_or(0)..];
        after.lines().any(|l| l.ends_with(&format!("pass {end}/{end}")))
    });
    s.keys(&["s"]);
    let saved = format!("noise-odd-even-luma-angle15-random-pass{end}.png");
    s.expect_log(&format!("saved {saved}"));
    let live = image::open(s.dir.path().join(&saved)).unwrap().to_rgba8();
    let expected = space.scatter(&stable_sort_within(&space.gather(&picture), &options, &angled_intervals));
    assert!(live == expected, "at 15° the window's result is not the model's");

    s.keys(&["q"]);
    wait_for("the window to close", Duration::from_secs(20), || s.app.0.try_wait().unwrap().is_some());
    assert!(s.app.0.wait().unwrap().success(), "the app failed: {}", s.log_text());
}

#[test]
fn the_row_lens_shows_the_line_the_gpu_holds_on_both_backends() {
    for backend in ["vulkan", "gl"] {
        the_row_lens_shows_the_line_the_gpu_holds(backend);
    }
    crate::clips::ci::passed();
}

fn the_row_lens_shows_the_line_the_gpu_holds(backend: &str) {
    // Row 3, where L opens the lens, holds 16 greys in a shuffled order, far apart in luma.
    let (w, h, row) = (16, 7, 3);
    let order = [9, 2, 14, 5, 0, 11, 7, 15, 3, 12, 1, 8, 13, 6, 10, 4];
    let noise = shadersort::picture::patterns::random_image(w, h, 9);
    let picture = RgbaImage::from_fn(w, h, |x, y| {
        let v = 30 + 14 * order[x as usize] as u8;
        if y == row { image::Rgba([v, v, v, 255]) } else { *noise.get_pixel(x, y) }
    });
    let Some(mut s) = start(backend, &picture, &[], "pass 0/16") else { return };
    s.keys(&["l"]);
    s.expect_log(&format!("lens on row {row} of {h} ({w} pixels)"));
    s.keys(&["Right", "Right", "Right"]);
    s.expect_step("pass 3/16");
    let shot = s.screenshot_until("lens3.png", |shot| bars_follow_the_model(shot, &picture, row, 3));
    // The status stays whole at the default size with the lens open.
    assert_status_whole(&shot, s.geometry());

    // Back a pass: the lens follows.
    s.keys(&["Left"]);
    s.expect_step("pass 2/16");
    s.screenshot_until("lens2.png", |shot| bars_follow_the_model(shot, &picture, row, 2));

    // S saves the state and, with the lens open, the window as shown, bars included.
    s.keys(&["s"]);
    s.expect_log("the window as shown: noise-odd-even-luma-pass2-window.png");
    let view = image::open(s.dir.path().join("noise-odd-even-luma-pass2-window.png")).unwrap().to_rgba8();
    bars_follow_the_model(&view, &picture, row, 2).unwrap_or_else(|why| panic!("the window saved: {why}"));

    // Down moves the lens a line; L closes it.
    s.keys(&["Down"]);
    s.expect_log(&format!("lens on row {} of {h} ({w} pixels)", row + 1));
    s.keys(&["l"]);
    s.expect_log("lens closed");
    s.keys(&["q"]);
    wait_for("the window to close", Duration::from_secs(20), || s.app.0.try_wait().unwrap().is_some());
}

/// The files in the session's `gifs` folder.
fn gif_folder(s: &Session) -> Vec<String> {
    match std::fs::read_dir(s.dir.path().join("gifs")) {
        Ok(entries) => entries.map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect(),
        Err(_) => Vec::new(),
    }
}

/// Starts a recording (G) of a picture large enough to take seconds, and waits until its
/// temporary file is being written.
fn record_under_way(backend: &str) -> Option<Session> {
    let picture = shadersort::picture::patterns::random_image(400, 300, 9);
    let s = start(backend, &picture, &[], "pass 0/400")?;
    s.keys(&["g"]);
    wait_for("the recording's temporary file", Duration::from_secs(60), || {
        gif_folder(&s).iter().any(|name| name.ends_with(".gif.part"))
    });
    std::thread::sleep(Duration::from_millis(300));
    Some(s)
}

/// Closing the window, or SIGTERM, in the middle of a G recording leaves no temporary file.
#[test]
fn a_recording_cut_short_by_closing_or_sigterm_leaves_nothing() {
    let Some(mut s) = record_under_way("vulkan") else { return };
    s.keys(&["q"]);
    wait_for("the window to close", Duration::from_secs(30), || s.app.0.try_wait().unwrap().is_some());
    assert!(s.app.0.wait().unwrap().success(), "the app failed: {}", s.log_text());
    assert_eq!(gif_folder(&s), Vec::<String>::new(), "closing mid-recording left files: {}", s.log_text());

    let Some(mut s) = record_under_way("vulkan") else { return };
    let sent = Command::new("kill").args(["-TERM", &s.app.0.id().to_string()]).status().unwrap();
    assert!(sent.success());
    wait_for("the app to end", Duration::from_secs(30), || s.app.0.try_wait().unwrap().is_some());
    let status = s.app.0.wait().unwrap();
    assert_eq!(status.code(), Some(143), "SIGTERM ends the window with 128 + 15: {}", s.log_text());
    assert!(s.log_text().contains("terminated (SIGTERM)"), "{}", s.log_text());
    assert_eq!(gif_folder(&s), Vec::<String>::new(), "SIGTERM mid-recording left files: {}", s.log_text());
    crate::clips::ci::passed();
}

/// A clip plays with every frame sorted; Space pauses it on a frame whose passes the step keys
/// walk through; S saves the frame as it stands (pass 0 is the clip's frame, the last pass the
/// CPU model's sort of it); . and , step frames; G sorts the whole clip as the window shows it
/// (`--lossless`: exactly). On Vulkan only: GL draws the same frames through the same code.
#[test]
fn a_clip_plays_sorted_pauses_on_a_frame_steps_and_records() {
    if !clips::have_ffmpeg() {
        return;
    }
    let size = (65, 47);
    let make = |dir: &std::path::Path| {
        clips::lossless_clip(dir, "clip.mkv", size, 12, false);
    };
    let Some(mut s) = launch("vulkan", "clip.mkv", &["--lossless"], "frame 3/12", make) else { return };
    let frames = clips::frames_of(&s.dir.path().join("clip.mkv"), size);
    let sorted: Vec<RgbaImage> =
        frames.iter().map(|f| shadersort::reference::stable_sort(f, &Default::default())).collect();

    s.keys(&["space"]);
    let paused = || {
        let text = s.log_text();
        let tail = text.get(s.keys_from.get()..).unwrap_or_default().to_string();
        let at = tail.find("paused at frame ")? + "paused at frame ".len();
        tail[at..].split('/').next()?.parse::<usize>().ok()
    };
    wait_for("the pause", Duration::from_secs(30), || paused().is_some());
    let k = paused().unwrap();
    let saved = |pass: u32| s.dir.path().join(format!("clip-bitonic-luma-frame{k}-pass{pass}.png"));
    // The frame played was shown sorted to the end.
    s.keys(&["s"]);
    s.expect_log(&format!("saved clip-bitonic-luma-frame{k}-pass28.png"));
    assert!(
        image::open(saved(28)).unwrap().to_rgba8() == sorted[k - 1],
        "frame {k} was not shown sorted to the end as it played"
    );
    std::fs::remove_file(saved(28)).unwrap();
    s.keys(&["Home"]);
    s.expect_step("step 0/28");
    s.keys(&["s"]);
    s.expect_log(&format!("saved clip-bitonic-luma-frame{k}-pass0.png"));
    assert!(
        image::open(saved(0)).unwrap().to_rgba8() == frames[k - 1],
        "pass 0 of frame {k} is not the clip's frame"
    );
    s.keys(&["Right", "Right"]);
    s.expect_step("step 2/28");
    // S once the end shows: steps come a frame or more after the key.
    s.keys(&["End"]);
    s.expect_step("step 28/28");
    s.keys(&["s"]);
    s.expect_log(&format!("saved clip-bitonic-luma-frame{k}-pass28.png"));
    assert!(
        image::open(saved(28)).unwrap().to_rgba8() == sorted[k - 1],
        "frame {k} sorted differs from the CPU model"
    );

    // The frame keys: on and back (back and on from the last frame), each showing its frame
    // as the model has it at the step shown (S saves it, named by frame and step).
    let (first, second) = if k < 12 { ("period", k + 1) } else { ("comma", k - 1) };
    for (key, frame) in [(first, second), (if first == "period" { "comma" } else { "period" }, k)] {
        s.keys(&[key]);
        s.expect_log(&format!("frame {frame}/12"));
        s.keys(&["s"]);
        let (name, shown) = s.saved_png_named();
        let prefix = format!("clip-bitonic-luma-frame{frame}-pass");
        let step: u32 = name
            .strip_prefix(&prefix)
            .and_then(|r| r.strip_suffix(".png"))
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("S after {key} saved {name}, not frame {frame}"));
        let options = shadersort::keys::options::SortOptions::default();
        let model = shadersort::reference::bitonic::bitonic_stages(&frames[frame - 1], options, None, step);
        assert!(shown == model, "{key}: frame {frame} at step {step} is not the model's");
    }

    s.keys(&["g"]);
    wait_for("the clip's recording", Duration::from_secs(120), || {
        s.log_text().contains("recorded: sorted 12 frames")
    });
    let recorded = s.dir.path().join("gifs/clip-bitonic-luma.mkv");
    let got = clips::frames_of(&recorded, size);
    assert_eq!(got.len(), 12, "frames recorded");
    for (i, (g, e)) in got.iter().zip(&sorted).enumerate() {
        assert!(g == e, "recorded frame {} differs from the CPU model", i + 1);
    }

    s.keys(&["q"]);
    wait_for("the window to close", Duration::from_secs(20), || s.app.0.try_wait().unwrap().is_some());
    let status = s.app.0.wait().unwrap();
    assert!(status.success(), "the app failed: {}", s.log_text());
    crate::clips::ci::passed();
}
