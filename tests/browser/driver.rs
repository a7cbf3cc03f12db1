//! Driving headless Chromium for the browser test: the page built and served, a WebDriver
//! session with chromedriver over plain HTTP/1.1, and what a person does (keys, clicks) and sees
//! (screenshots, downloads, the page's log).

use image::RgbaImage;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Flags that give headless Chromium WebGPU on SwiftShader, and keep it off the network.
const CHROMIUM_FLAGS: &[&str] = &[
    "--headless=new",
    "--no-sandbox",
    "--enable-unsafe-webgpu",
    "--enable-features=Vulkan",
    "--use-vulkan=swiftshader",
    "--use-angle=vulkan",
    // The camera: a fake one (playing the clip named by `start`'s extra flags), the permission
    // given.
    "--use-fake-device-for-media-stream",
    "--use-fake-ui-for-media-stream",
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
pub fn browser() -> Result<(PathBuf, PathBuf), String> {
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
pub fn build_page() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let status = Command::new(root.join("web/build.sh")).arg("dev").status().expect("run web/build.sh");
    assert!(status.success(), "web/build.sh dev failed: {status}");
    root.join("web/dist")
}

/// Serves the files of `dir` over HTTP on a free local port, from a thread, for the test's life.
pub fn serve(dir: PathBuf) -> u16 {
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
                Some("png") => "image/png",
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
pub struct WebDriver {
    port: u16,
    session: String,
    _driver: Reaper,
}

impl WebDriver {
    /// Starts chromedriver and a headless Chromium with WebGPU on SwiftShader, with `extra` flags.
    pub fn start(chromium: &Path, driver: &Path, profile: &Path, extra: &[String]) -> WebDriver {
        // Port 0: chromedriver binds a free port itself and names it ("... started successfully
        // on port N."), so no other program can take it between a choice and the bind.
        let mut child = Command::new(driver)
            .arg("--port=0")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let mut said = BufReader::new(child.stdout.take().expect("piped"));
        let driver = Reaper(child);
        let mut port = None;
        let mut line = String::new();
        while port.is_none() && said.read_line(&mut line).is_ok_and(|n| n > 0) {
            port = line
                .split("on port ")
                .nth(1)
                .and_then(|p| p.trim().trim_end_matches('.').parse::<u16>().ok());
            port = port.filter(|_| line.contains("started successfully"));
            line.clear();
        }
        let port = port.expect("chromedriver did not say which port it listens on");
        // Keep reading what it says, so a full pipe never blocks it.
        std::thread::spawn(move || std::io::copy(&mut said, &mut std::io::sink()));
        let started = Instant::now();
        while request(port, "GET", "/status", None).is_err() {
            assert!(started.elapsed() < Duration::from_secs(30), "chromedriver did not answer in 30 s");
            std::thread::sleep(Duration::from_millis(100));
        }
        let mut args: Vec<String> = CHROMIUM_FLAGS.iter().map(|s| s.to_string()).collect();
        args.push(format!("--user-data-dir={}", profile.display()));
        args.extend_from_slice(extra);
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
    pub fn call(&self, method: &str, command: &str, body: Value) -> Value {
        self.call_fallible(method, command, body).unwrap_or_else(|e| panic!("{command}: {e}"))
    }

    /// A command of this session, or the driver's error (an element not there yet).
    pub fn call_fallible(&self, method: &str, command: &str, body: Value) -> Result<Value, String> {
        let path = format!("/session/{}/{command}", self.session);
        let body = (method == "POST").then_some(&body);
        let answer = request(self.port, method, &path, body)?;
        if let Some(error) = answer["value"].get("error") {
            return Err(format!("{error}: {}", answer["value"]["message"]));
        }
        Ok(answer["value"].clone())
    }

    /// Runs `script` in the page and returns what it returns.
    pub fn script(&self, script: &str, args: Value) -> Value {
        self.call("POST", "execute/sync", json!({"script": script, "args": args}))
    }

    /// Runs `script` in the page; it answers by calling its last argument.
    pub fn async_script(&self, script: &str, args: Value) -> Value {
        self.call("POST", "execute/async", json!({"script": script, "args": args}))
    }

    /// Presses keys as a user would (WebDriver actions: real key events on the page).
    pub fn press(&self, keys: &[&str]) {
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
                "Up" => "\u{E013}".to_string(),
                "Down" => "\u{E015}".to_string(),
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
        self.call(
            "POST",
            "actions",
            json!({"actions": [{"type": "key", "id": "keyboard", "actions": actions}]}),
        );
        self.call("DELETE", "actions", json!({}));
    }

    /// Clicks at `(x, y)` pixels of the page's viewport, as a mouse does.
    pub fn click(&self, (x, y): (u32, u32)) {
        let actions = json!([
            {"type": "pointerMove", "x": x, "y": y, "origin": "viewport"},
            {"type": "pointerDown", "button": 0},
            {"type": "pointerUp", "button": 0},
        ]);
        let pointer = json!({"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"}, "actions": actions});
        self.call("POST", "actions", json!({"actions": [pointer]}));
        self.call("DELETE", "actions", json!({}));
    }

    /// Clicks at `(x, y)` with Shift held, as a mouse does.
    pub fn shift_click(&self, (x, y): (u32, u32)) {
        let keys = json!([
            {"type": "keyDown", "value": "\u{E008}"},
            {"type": "pause"},
            {"type": "pause"},
            {"type": "pause"},
            {"type": "keyUp", "value": "\u{E008}"},
        ]);
        let pointer = json!([
            {"type": "pause"},
            {"type": "pointerMove", "x": x, "y": y, "origin": "viewport"},
            {"type": "pointerDown", "button": 0},
            {"type": "pointerUp", "button": 0},
            {"type": "pause"},
        ]);
        let actions = json!([
            {"type": "key", "id": "keyboard", "actions": keys},
            {"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"}, "actions": pointer},
        ]);
        self.call("POST", "actions", json!({"actions": actions}));
        self.call("DELETE", "actions", json!({}));
    }

    /// Drags the mouse from `from` to `to` with Shift held.
    pub fn shift_drag(&self, from: (u32, u32), to: (u32, u32)) {
        let mouse = finger("mouse", from, to);
        let moves = mouse["actions"].as_array().expect("pointer actions").len();
        let mut keys = vec![json!({"type": "keyDown", "value": "\u{E008}"})];
        keys.extend((0..moves).map(|_| json!({"type": "pause"})));
        keys.push(json!({"type": "keyUp", "value": "\u{E008}"}));
        let mut pointer = vec![json!({"type": "pause"})];
        pointer.extend(mouse["actions"].as_array().unwrap().iter().cloned());
        let actions = json!([
            {"type": "key", "id": "keyboard", "actions": keys},
            {"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"}, "actions": pointer},
        ]);
        self.call("POST", "actions", json!({"actions": actions}));
        self.call("DELETE", "actions", json!({}));
    }

    /// Pinches with two fingers: one held at `still`, the other moving from `from` to `to`
    /// (touch pointers, as a phone or a touch screen sends them).
    pub fn pinch(&self, still: (u32, u32), from: (u32, u32), to: (u32, u32)) {
        let actions = json!([finger("still", still, still), finger("moving", from, to)]);
        self.call("POST", "actions", json!({"actions": actions}));
        self.call("DELETE", "actions", json!({}));
    }

    /// Drags one finger from `from` to `to`.
    pub fn drag(&self, from: (u32, u32), to: (u32, u32)) {
        self.call("POST", "actions", json!({"actions": [finger("finger", from, to)]}));
        self.call("DELETE", "actions", json!({}));
    }

    /// What the page shows now.
    pub fn screenshot(&self) -> RgbaImage {
        let png = base64_decode(self.call("GET", "screenshot", json!({})).as_str().expect("a screenshot"));
        image::load_from_memory(&png).expect("a PNG screenshot").to_rgba8()
    }

    /// A Chrome DevTools command (downloads into a folder, scripts run before the page's own).
    pub fn devtools(&self, command: &str, params: Value) -> Value {
        self.call("POST", "goog/cdp/execute", json!({"cmd": command, "params": params}))
    }

    /// The page's log so far (`window.shadersortLog`), one line each.
    pub fn log(&self) -> String {
        let lines = self.script("return (window.shadersortLog || []).join('\\n')", json!([]));
        lines.as_str().unwrap_or_default().to_string()
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

/// A finger's touch: down at `start`, to `end` in ten moves a tenth of a second apart, each seen
/// by a frame of its own, and a pause before lifting (a move and a lift in one frame show no
/// second finger of a pinch).
fn finger(id: &str, start: (u32, u32), end: (u32, u32)) -> Value {
    let at = |i: i64, a: u32, b: u32| i64::from(a) + (i64::from(b) - i64::from(a)) * i / 10;
    let mut actions = vec![
        json!({"type": "pointerMove", "x": start.0, "y": start.1, "origin": "viewport"}),
        json!({"type": "pointerDown", "button": 0}),
    ];
    for i in 1..=10 {
        let (x, y) = (at(i, start.0, end.0), at(i, start.1, end.1));
        actions.push(json!({"type": "pointerMove", "x": x, "y": y, "origin": "viewport", "duration": 100}));
    }
    actions.push(json!({"type": "pause", "duration": 300}));
    actions.push(json!({"type": "pointerUp", "button": 0}));
    json!({"type": "pointer", "id": id, "parameters": {"pointerType": "touch"}, "actions": actions})
}

/// Standard base64, as WebDriver sends screenshots.
pub fn base64_decode(text: &str) -> Vec<u8> {
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

/// A GIF's frames as whole opaque pictures (each drawn over the last, as viewers do), with
/// their delays.
pub fn composite_frames(bytes: &[u8]) -> Vec<(RgbaImage, u16)> {
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
