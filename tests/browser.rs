//! The browser build in a real browser: `web/build.sh dev` builds the page, a local server
//! serves it, and headless Chromium (Debian's, on its bundled SwiftShader: WebGPU without a GPU)
//! loads it through chromedriver. A screenshot must show the built-in picture on the page; every
//! algorithm sorts seeded noise pictures to the end through the page's test hook, and each
//! result, read back from the browser's GPU, must equal the CPU model; keys sent as a user types
//! them step the page's lanes forward and back, choose algorithms and side by side, each state
//! equal to the model; and the page's GIF export holds every pass of the model, frame by frame.
//!
//! Needs `chromium`, `chromedriver` and what `web/build.sh` installs for itself (the wasm32
//! target, wasm-bindgen-cli). Without them the test says so and passes, unless
//! `SHADERSORT_REQUIRE_BROWSER=1` (as `.ci/run` sets) makes that a failure.

use image::RgbaImage;
use serde_json::{Value, json};
use shadersort::keys::SortKey;
use shadersort::keys::options::{Axis, SortOptions};
use shadersort::picture::input::Picture;
use shadersort::picture::patterns::random_image;
use shadersort::record::palette::composite;
use shadersort::reference::{odd_even_passes, stable_sort};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

#[path = "common/ci.rs"]
mod ci;

/// Flags that give headless Chromium WebGPU on SwiftShader, and keep it off the network.
const CHROMIUM_FLAGS: &[&str] = &[
    "--headless=new",
    "--no-sandbox",
    "--enable-unsafe-webgpu",
    "--enable-features=Vulkan",
    "--use-vulkan=swiftshader",
    "--use-angle=vulkan",
    "--window-size=1400,1000",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
];

/// Kills a child process when dropped.
struct Reaper(Child);

impl Drop for Reaper {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn on_path(tool: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(tool)).find(|p| p.is_file())
}

/// The browser and its driver, or why the test cannot run here.
fn browser() -> Result<(PathBuf, PathBuf), String> {
    let chromium = ["chromium", "chromium-browser", "google-chrome"].into_iter().find_map(on_path);
    let driver = on_path("chromedriver");
    match (chromium, driver) {
        (Some(c), Some(d)) => Ok((c, d)),
        _ => {
            Err("needs chromium and chromedriver on PATH (Debian: apt-get install chromium chromium-driver)"
                .into())
        }
    }
}

/// Builds the page (dev profile: the core's dependencies are optimised, the build is quick).
fn build_page() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let status = Command::new(root.join("web/build.sh")).arg("dev").status().expect("run web/build.sh");
    assert!(status.success(), "web/build.sh dev failed: {status}");
    root.join("web/dist")
}

/// Serves the files of `dir` over HTTP on a free local port, from a thread, for the test's life.
fn serve(dir: PathBuf) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind a local port");
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let dir = dir.clone();
            std::thread::spawn(move || answer(stream, &dir));
        }
    });
    port
}

fn answer(mut stream: TcpStream, dir: &Path) {
    let mut request_line = String::new();
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    if reader.read_line(&mut request_line).is_err() {
        return;
    }
    // Read the headers up to the blank line; GET requests have no body.
    let mut line = String::new();
    while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
        line.clear();
    }
    let path = request_line.split_whitespace().nth(1).unwrap_or("/");
    let path = path.split('?').next().unwrap_or("/").trim_start_matches('/');
    let path = if path.is_empty() { "index.html" } else { path };
    let file = dir.join(path);
    let (status, body, mime) = match std::fs::read(&file) {
        Ok(body) if !path.contains("..") => {
            let mime = match file.extension().and_then(|e| e.to_str()) {
                Some("html") => "text/html; charset=utf-8",
                Some("js") => "text/javascript",
                Some("wasm") => "application/wasm",
                _ => "application/octet-stream",
            };
            ("200 OK", body, mime)
        }
        _ => ("404 Not Found", b"not found".to_vec(), "text/plain"),
    };
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {mime}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes()).and_then(|_| stream.write_all(&body));
}

/// A WebDriver session with chromedriver, spoken over plain HTTP/1.1.
struct WebDriver {
    port: u16,
    session: String,
    _driver: Reaper,
}

impl WebDriver {
    fn start(chromium: &Path, driver: &Path, profile: &Path) -> WebDriver {
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let child = Command::new(driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let driver = Reaper(child);
        let started = Instant::now();
        while request(port, "GET", "/status", None).is_err() {
            assert!(started.elapsed() < Duration::from_secs(30), "chromedriver did not answer in 30 s");
            std::thread::sleep(Duration::from_millis(100));
        }
        let mut args: Vec<String> = CHROMIUM_FLAGS.iter().map(|s| s.to_string()).collect();
        args.push(format!("--user-data-dir={}", profile.display()));
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": chromium, "args": args},
        }}});
        let answer = request(port, "POST", "/session", Some(&capabilities)).expect("new session");
        let session = answer["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("chromedriver made no session: {answer}"))
            .to_string();
        let session = WebDriver { port, session, _driver: driver };
        session.call("POST", "timeouts", json!({"script": 300_000, "pageLoad": 60_000}));
        session
    }

    /// A command of this session; panics with the driver's message on an error.
    fn call(&self, method: &str, command: &str, body: Value) -> Value {
        let path = format!("/session/{}/{command}", self.session);
        let body = (method == "POST").then_some(&body);
        let answer = request(self.port, method, &path, body).unwrap_or_else(|e| panic!("{command}: {e}"));
        if let Some(error) = answer["value"].get("error") {
            panic!("{command}: {error}: {}", answer["value"]["message"]);
        }
        answer["value"].clone()
    }

    fn script(&self, script: &str, args: Value) -> Value {
        self.call("POST", "execute/sync", json!({"script": script, "args": args}))
    }

    fn async_script(&self, script: &str, args: Value) -> Value {
        self.call("POST", "execute/async", json!({"script": script, "args": args}))
    }
}

impl Drop for WebDriver {
    fn drop(&mut self) {
        let _ = request(self.port, "DELETE", &format!("/session/{}", self.session), None);
    }
}

/// One HTTP request to chromedriver and its JSON answer.
fn request(port: u16, method: &str, path: &str, body: Option<&Value>) -> Result<Value, String> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).map_err(|e| e.to_string())?;
    let body = body.map(Value::to_string).unwrap_or_default();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream
        .write_all(head.as_bytes())
        .and_then(|_| stream.write_all(body.as_bytes()))
        .map_err(|e| e.to_string())?;
    // chromedriver may keep the connection open: read the header, then as much body as it says.
    let mut raw = Vec::new();
    let mut buffer = [0u8; 65536];
    loop {
        let n = stream.read(&mut buffer).map_err(|e| e.to_string())?;
        raw.extend_from_slice(&buffer[..n]);
        if let Some(split) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&raw[..split]).to_lowercase();
            let rest = &raw[split + 4..];
            let length = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse::<usize>().ok());
            let complete = match length {
                Some(length) => rest.len() >= length,
                None if head.contains("transfer-encoding: chunked") => {
                    rest.windows(5).any(|w| w == b"0\r\n\r\n")
                }
                None => n == 0,
            };
            if complete || n == 0 {
                let body = match length {
                    Some(length) => rest[..length.min(rest.len())].to_vec(),
                    None if head.contains("transfer-encoding: chunked") => dechunk(rest),
                    None => rest.to_vec(),
                };
                return serde_json::from_slice(&body)
                    .map_err(|e| format!("{e}: {}", String::from_utf8_lossy(&body)));
            }
        } else if n == 0 {
            return Err("the connection closed before an HTTP header".into());
        }
    }
}

fn dechunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(end) = data.windows(2).position(|w| w == b"\r\n") {
        let size = usize::from_str_radix(String::from_utf8_lossy(&data[..end]).trim(), 16).unwrap_or(0);
        if size == 0 {
            break;
        }
        out.extend_from_slice(&data[end + 2..end + 2 + size]);
        data = &data[end + 2 + size + 2..];
    }
    out
}

fn from_hex(hex: &str) -> Vec<u8> {
    (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex")).collect()
}

/// The whole picture as one sequence (row after row, or column after column), stably sorted:
/// what the whole-picture radix sort ends in.
fn whole_picture_sorted(input: &RgbaImage, options: &SortOptions) -> RgbaImage {
    let (w, h) = input.dimensions();
    let order: Vec<(u32, u32)> = match options.axis {
        Axis::Rows => (0..h).flat_map(|y| (0..w).map(move |x| (x, y))).collect(),
        Axis::Columns => (0..w).flat_map(|x| (0..h).map(move |y| (x, y))).collect(),
    };
    let mut pixels: Vec<[u8; 4]> = order.iter().map(|&(x, y)| input.get_pixel(x, y).0).collect();
    pixels.sort_by_key(|&p| options.order_key(p));
    let mut out = RgbaImage::new(w, h);
    for (&(x, y), p) in order.iter().zip(pixels) {
        out.put_pixel(x, y, image::Rgba(p));
    }
    out
}

#[test]
fn the_page_sorts_with_every_algorithm_like_the_cpu_model_in_headless_chromium() {
    let required = ci::switch("SHADERSORT_REQUIRE_BROWSER", "fail when the browser is missing");
    let (chromium, driver) = match browser() {
        Ok(tools) => tools,
        Err(why) if !required => {
            eprintln!("skipped: the browser test {why}");
            return;
        }
        Err(why) => panic!("SHADERSORT_REQUIRE_BROWSER=1 but the browser test {why}"),
    };
    let port = serve(build_page());
    let profile = tempfile::tempdir().unwrap();
    let browser = WebDriver::start(&chromium, &driver, profile.path());
    browser.call("POST", "url", json!({"url": format!("http://127.0.0.1:{port}/")}));
    let started = Instant::now();
    let ready = loop {
        let ready = browser.script("return window.shadersortReady || null", json!([]));
        if !ready.is_null() {
            break ready;
        }
        assert!(started.elapsed() < Duration::from_secs(120), "the page did not get ready in 120 s");
        std::thread::sleep(Duration::from_millis(200));
    };
    assert_eq!(ready, "ready", "the page did not start");
    let adapter = browser.script("return window.shadersortTest.adapter", json!([]));
    eprintln!("page's GPU: {adapter}");
    // The ledger names the Chromium that loaded the page, and the page's GPU.
    let version = ci::version_of(chromium.to_str().unwrap(), "--version");
    ci::ran("chromium", &format!("{version}, WebGPU on {}", adapter.as_str().unwrap_or_default()));
    settle(&browser);

    // The page shows the built-in picture at 1:1 in its canvas.
    let rect = browser.script(
        "const r = document.getElementById('lane-0').getBoundingClientRect(); return [r.x, r.y, r.width, r.height];",
        json!([]),
    );
    let shot = browser.call("GET", "screenshot", json!({}));
    let png = base64_decode(shot.as_str().expect("a screenshot"));
    let shot = image::load_from_memory(&png).expect("a PNG screenshot").to_rgba8();
    let saved = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-page.png");
    if shot.save(&saved).is_ok() {
        eprintln!("the page as it opened: {}", saved.display());
    }
    let built_in = Picture::built_in().pixels;
    let [x, y, w, h] = [0, 1, 2, 3].map(|i| rect[i].as_f64().unwrap().round() as u32);
    assert_eq!((w, h), built_in.dimensions(), "the canvas shows the built-in picture at 1:1");
    let mut total_difference = 0u64;
    for (px, py, p) in built_in.enumerate_pixels() {
        let s = shot.get_pixel(x + px, y + py);
        total_difference += (0..3).map(|c| u64::from(p[c].abs_diff(s[c]))).sum::<u64>();
    }
    let mean = total_difference as f64 / (3 * w * h) as f64;
    assert!(mean < 2.0, "the screenshot's canvas differs from the built-in picture by {mean:.2} per channel");

    let sort = "const done = arguments[arguments.length - 1];
        window.shadersortTest.sort(...Array.from(arguments).slice(0, 7))
            .then(done, (e) => done('error: ' + e));";
    // Awkward sizes: one pixel, one row, one column, odd widths around 64, more than one
    // 256-byte row of texels, lines longer than a 256-invocation workgroup, and a whole picture
    // of several radix tiles.
    let sizes = [(1, 1), (1, 9), (9, 1), (63, 3), (65, 2), (67, 5), (257, 3), (129, 40)];
    let variants = ["odd-even", "odd-even:fragment", "bubble", "radix", "radix:8", "radix:image", "bitonic"];
    let orders = [("luma", false, false), ("hue", true, false), ("luma", false, true)];
    let mut checked = 0;
    for (i, &(w, h)) in sizes.iter().enumerate() {
        for (j, spec) in variants.iter().enumerate() {
            let (key, descending, columns) = orders[(i + j) % orders.len()];
            let seed = (i * 10 + j) as u32;
            let answer = browser.async_script(sort, json!([spec, key, descending, columns, w, h, seed]));
            let hex = answer.as_str().unwrap_or_else(|| panic!("{spec} {w}x{h}: {answer}"));
            assert!(!hex.starts_with("error"), "{spec} {w}x{h}: {hex}");
            let got = RgbaImage::from_raw(w, h, from_hex(hex)).expect("the page returned w*h*4 bytes");
            let input = random_image(w, h, u64::from(seed));
            let options = SortOptions {
                key: clap::ValueEnum::from_str(key, true).map(|k: SortKey| k).unwrap(),
                descending,
                axis: if columns { Axis::Columns } else { Axis::Rows },
            };
            let model = if spec.ends_with(":image") {
                whole_picture_sorted(&input, &options)
            } else {
                stable_sort(&input, &options)
            };
            assert!(
                got == model,
                "{spec} {w}x{h} ({key}, descending {descending}, columns {columns}): differs from the CPU model"
            );
            checked += 1;
        }
    }
    eprintln!("{checked} sorts in the browser equal the CPU model");

    keys_step_the_lanes_like_the_model(&browser);
    the_gif_export_holds_every_pass(&browser);
}

fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let clean: Vec<u8> = text.bytes().filter(|&c| c != b'=' && !c.is_ascii_whitespace()).collect();
    let mut out = Vec::with_capacity(clean.len() * 3 / 4);
    for chunk in clean.chunks(4) {
        let bits =
            chunk.iter().enumerate().fold(0u32, |acc, (i, &c)| acc | u32::from(value(c)) << (18 - 6 * i));
        out.extend_from_slice(&bits.to_be_bytes()[1..chunk.len()]);
    }
    out
}

/// Waits until the page has applied what was sent and run every step due.
fn settle(browser: &WebDriver) -> String {
    let answer = browser.async_script(
        "const done = arguments[arguments.length - 1]; window.shadersortTest.settled().then(done, (e) => done('error: ' + e));",
        json!([]),
    );
    let status = answer.as_str().unwrap_or_default().to_string();
    assert!(!status.starts_with("error"), "{status}");
    status
}

/// Presses keys as a user would (WebDriver actions: real key events on the page).
fn press(browser: &WebDriver, keys: &[&str]) {
    let mut actions = Vec::new();
    for key in keys {
        let (shift, key) = match key.strip_prefix("Shift+") {
            Some(k) => (true, k),
            None => (false, *key),
        };
        let value = match key {
            "Right" => "\u{E014}".to_string(),
            "Left" => "\u{E012}".to_string(),
            "End" => "\u{E010}".to_string(),
            "Home" => "\u{E011}".to_string(),
            other => other.to_string(),
        };
        if shift {
            actions.push(json!({"type": "keyDown", "value": "\u{E008}"}));
        }
        actions.push(json!({"type": "keyDown", "value": value}));
        actions.push(json!({"type": "keyUp", "value": value}));
        if shift {
            actions.push(json!({"type": "keyUp", "value": "\u{E008}"}));
        }
    }
    browser.call(
        "POST",
        "actions",
        json!({"actions": [{"type": "key", "id": "keyboard", "actions": actions}]}),
    );
    browser.call("DELETE", "actions", json!({}));
}

/// The page's lanes as read back from its GPU: (steps done, status, [(label, picture)]).
fn lanes(browser: &WebDriver) -> (u64, String, Vec<(String, RgbaImage)>) {
    let answer = browser.async_script(
        "const done = arguments[arguments.length - 1]; window.shadersortTest.lanes().then(done, (e) => done('error: ' + e));",
        json!([]),
    );
    assert!(answer.is_object(), "lanes: {answer}");
    let lanes = answer["lanes"]
        .as_array()
        .expect("lanes")
        .iter()
        .map(|lane| {
            let (w, h) = (lane["width"].as_u64().unwrap() as u32, lane["height"].as_u64().unwrap() as u32);
            let picture =
                RgbaImage::from_raw(w, h, from_hex(lane["rgba"].as_str().unwrap())).expect("w*h*4 bytes");
            (lane["label"].as_str().unwrap().to_string(), picture)
        })
        .collect();
    (answer["steps"].as_u64().unwrap(), answer["status"].as_str().unwrap().to_string(), lanes)
}

fn keys_step_the_lanes_like_the_model(browser: &WebDriver) {
    let (w, h, seed) = (61u32, 7u32, 5u32);
    browser.script("window.shadersortTest.useRandomPicture(...arguments)", json!([w, h, seed]));
    settle(browser);
    let input = random_image(w, h, u64::from(seed));
    let options = SortOptions::default();
    let checks: [(&[&str], u64); 5] = [
        (&["Right", "Right", "Right"], 3),
        (&["Left"], 2),
        (&["Shift+Right"], 8),
        (&["Shift+Left", "Left"], 1),
        (&["Home"], 0),
    ];
    for (keys, pass) in checks {
        press(browser, keys);
        let status = settle(browser);
        let (steps, _, shown) = lanes(browser);
        assert_eq!(steps, pass, "after {keys:?}: {status}");
        assert_eq!(shown.len(), 1);
        assert!(
            shown[0].1 == odd_even_passes(&input, &options, pass as u32),
            "after {keys:?} the page shows pass {pass} unlike the CPU model ({status})"
        );
    }
    let sorted = stable_sort(&input, &options);
    // 2, 3 and 4 choose the bubble, radix and bitonic sorts; End runs to the last step.
    for (key, name) in [("2", "bubble"), ("3", "radix"), ("4", "bitonic"), ("1", "Odd-even")] {
        press(browser, &[key, "End"]);
        let status = settle(browser);
        let (_, _, shown) = lanes(browser);
        assert!(
            shown[0].0.contains(name) || shown[0].0.to_lowercase().contains(name),
            "{key}: {}",
            shown[0].0
        );
        assert!(shown[0].1 == sorted, "{name} after End differs from the sorted model ({status})");
    }
    // C: every algorithm and pass kind side by side, each sorted at the end.
    press(browser, &["c", "End"]);
    let status = settle(browser);
    let (_, _, shown) = lanes(browser);
    assert_eq!(shown.len(), 5, "side by side shows five lanes ({status})");
    for (label, picture) in &shown {
        assert!(*picture == sorted, "{label} side by side differs from the sorted model");
    }
    press(browser, &["c"]);
    settle(browser);
    eprintln!("keys step the page's lanes like the CPU model, alone and side by side");
}

fn the_gif_export_holds_every_pass(browser: &WebDriver) {
    // At most 256 colours, so the GIF's palette is exact and every frame comparable.
    let (w, h, seed) = (15u32, 12u32, 8u32);
    browser.script("window.shadersortTest.useRandomPicture(...arguments)", json!([w, h, seed]));
    settle(browser);
    let answer = browser.async_script(
        "const done = arguments[arguments.length - 1]; window.shadersortTest.record(100, 20).then(done, (e) => done('error: ' + e));",
        json!([]),
    );
    let hex = answer.as_str().unwrap_or_else(|| panic!("record: {answer}"));
    assert!(!hex.starts_with("error"), "record: {hex}");
    let frames = composite_frames(&from_hex(hex));
    let input = random_image(w, h, u64::from(seed));
    let options = SortOptions::default();
    assert!(frames.len() >= 2, "{} frames", frames.len());
    // The GIF shows each pixel over the recorder's black background, opaque.
    let shown = |state: &RgbaImage| {
        RgbaImage::from_fn(w, h, |x, y| {
            let [r, g, b] = composite(state.get_pixel(x, y).0, [0, 0, 0]);
            image::Rgba([r, g, b, 255])
        })
    };
    for (k, (frame, delay)) in frames.iter().enumerate() {
        let model = shown(&odd_even_passes(&input, &options, k as u32));
        assert!(*frame == model, "frame {k} of the page's GIF differs from the CPU model at pass {k}");
        let expected = if k + 1 == frames.len() { 200 } else { 5 };
        assert_eq!(*delay, expected, "frame {k}'s delay in hundredths");
    }
    assert!(
        frames.last().unwrap().0 == shown(&stable_sort(&input, &options)),
        "the last frame is the sorted picture"
    );
    eprintln!("the page's GIF holds {} frames, each the CPU model's pass", frames.len());
}

/// A GIF's frames as whole opaque pictures (each drawn over the last, as viewers do), with
/// their delays.
fn composite_frames(bytes: &[u8]) -> Vec<(RgbaImage, u16)> {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(bytes).expect("a GIF");
    let (w, h) = (u32::from(decoder.width()), u32::from(decoder.height()));
    let mut canvas = RgbaImage::new(w, h);
    let mut frames = Vec::new();
    while let Some(frame) = decoder.read_next_frame().expect("a frame") {
        for y in 0..u32::from(frame.height) {
            for x in 0..u32::from(frame.width) {
                let at = ((y * u32::from(frame.width) + x) * 4) as usize;
                let p = &frame.buffer[at..at + 4];
                if p[3] != 0 {
                    canvas.put_pixel(
                        u32::from(frame.left) + x,
                        u32::from(frame.top) + y,
                        image::Rgba([p[0], p[1], p[2], 255]),
                    );
                }
            }
        }
        frames.push((canvas.clone(), frame.delay));
    }
    frames
}
