//! The camera in the page: the browser's camera (getUserMedia) playing into a video element,
//! each new frame drawn into a canvas and read back as the picture the app sorts; frames the
//! page had no time for are dropped and counted. The app needs each frame's pixels for the
//! intervals, the lens and S, so the frame comes through the CPU once rather than straight to a
//! texture.

use crate::app::Running;
use crate::app::platform::CameraOpening;
use crate::picture::live::{LiveFrames, LiveNext, Started};
use image::RgbaImage;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// The camera being opened: the browser asks the user, then the video starts.
pub(in crate::app) struct OpeningCamera {
    answer: Rc<RefCell<Option<Result<Camera, String>>>>,
    /// The camera once the browser gave it, until its first frame is there.
    camera: Option<Camera>,
}

/// The browser's camera playing into a video element, read through a canvas.
struct Camera {
    stream: web_sys::MediaStream,
    video: web_sys::HtmlVideoElement,
    context: web_sys::CanvasRenderingContext2d,
    /// The size frames are read at (the camera's own, or downscaled to the size limit).
    size: (u32, u32),
    /// The camera's own size.
    own: (u32, u32),
    limit: u32,
    /// The video's frame count and time at the frame last read.
    last: (u64, f64),
    /// Frames seen by the video element (when it does not count them, frames read).
    received: u64,
    shown: u64,
}

/// A JavaScript failure in words.
fn words(e: &JsValue) -> String {
    e.as_string().unwrap_or_else(|| format!("{e:?}"))
}

impl CameraOpening for OpeningCamera {
    /// Asks the browser for the camera.
    fn camera(running: &Running) -> Result<OpeningCamera, String> {
        let answer = Rc::new(RefCell::new(None));
        let given = answer.clone();
        let limit = running.limit.max_side;
        wasm_bindgen_futures::spawn_local(async move {
            let camera = Camera::open(limit).await;
            *given.borrow_mut() = Some(camera);
        });
        Ok(OpeningCamera { answer, camera: None })
    }

    /// The camera once its first frame is there (or why it could not be opened).
    fn poll(&mut self) -> Option<Result<Started, String>> {
        if self.camera.is_none() {
            match self.answer.borrow_mut().take()? {
                Ok(camera) => self.camera = Some(camera),
                Err(e) => return Some(Err(e)),
            }
        }
        let camera = self.camera.as_mut().expect("kept above");
        let first = match camera.newest() {
            LiveNext::Frame(first, _) => first,
            LiveNext::Waiting => return None,
            LiveNext::Ended(how) => {
                return Some(Err(how.err().unwrap_or_else(|| "the camera stopped".into())));
            }
        };
        let camera = self.camera.take().expect("kept above");
        let (own, size) = (camera.own, camera.size);
        let note = (own != size).then(|| {
            format!(
                "note: the camera gives {}x{}; its frames are downscaled to {}x{}",
                own.0, own.1, size.0, size.1
            )
        });
        Some(Ok(Started { frames: Box::new(camera), name: "camera".into(), first, source_size: own, note }))
    }
}

impl Camera {
    /// Asks for the camera and starts its video; frames are read at most `limit` pixels a side.
    async fn open(limit: u32) -> Result<Camera, String> {
        let window = web_sys::window().ok_or("no window")?;
        let devices = window.navigator().media_devices().map_err(|_| {
            "the browser offers no camera here (a page reaches the camera only over https or from localhost)".to_string()
        })?;
        let constraints = web_sys::MediaStreamConstraints::new();
        constraints.set_video(&JsValue::TRUE);
        constraints.set_audio(&JsValue::FALSE);
        let asked = devices.get_user_media_with_constraints(&constraints).map_err(|e| refused(&e))?;
        let stream: web_sys::MediaStream =
            JsFuture::from(asked).await.map_err(|e| refused(&e))?.unchecked_into();
        let document = window.document().ok_or("no document")?;
        let video: web_sys::HtmlVideoElement =
            document.create_element("video").map_err(|e| words(&e))?.unchecked_into();
        video.set_muted(true);
        video.set_autoplay(true);
        let _ = video.set_attribute("playsinline", "");
        video.set_src_object(Some(&stream));
        if let Ok(playing) = video.play() {
            JsFuture::from(playing)
                .await
                .map_err(|e| format!("the camera's video does not play: {}", words(&e)))?;
        }
        let canvas: web_sys::HtmlCanvasElement =
            document.create_element("canvas").map_err(|e| words(&e))?.unchecked_into();
        let options = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&options, &"willReadFrequently".into(), &JsValue::TRUE);
        let context: web_sys::CanvasRenderingContext2d = canvas
            .get_context_with_context_options("2d", &options)
            .map_err(|e| words(&e))?
            .ok_or("the page cannot draw the camera's frames")?
            .unchecked_into();
        let mut camera = Camera {
            stream,
            video,
            context,
            size: (0, 0),
            own: (0, 0),
            limit,
            last: (0, -1.0),
            received: 0,
            shown: 0,
        };
        camera.fit(&canvas);
        Ok(camera)
    }

    /// Sizes the canvas to the video (downscaled to the limit); false before the video has one.
    fn fit(&mut self, canvas: &web_sys::HtmlCanvasElement) -> bool {
        let own = (self.video.video_width(), self.video.video_height());
        if own.0 == 0 || own.1 == 0 {
            return false;
        }
        if own != self.own {
            self.own = own;
            self.size = if own.0.max(own.1) > self.limit {
                crate::picture::input::scaled_size(own.0, own.1, self.limit)
            } else {
                own
            };
            canvas.set_width(self.size.0);
            canvas.set_height(self.size.1);
        }
        true
    }

    /// Whether the camera's track has ended (unplugged, or stopped by the system).
    fn ended(&self) -> bool {
        let tracks = self.stream.get_video_tracks();
        let track: Option<web_sys::MediaStreamTrack> = tracks.get(0).dyn_into().ok();
        track.is_none_or(|t| t.ready_state() == web_sys::MediaStreamTrackState::Ended)
    }
}

impl LiveFrames for Camera {
    fn label(&self) -> String {
        "the camera".into()
    }

    fn newest(&mut self) -> LiveNext {
        if self.ended() {
            return LiveNext::Ended(Err("the camera stopped (unplugged, or taken by the system)".into()));
        }
        // HAVE_CURRENT_DATA: a frame to draw.
        if self.video.ready_state() < 2 {
            return LiveNext::Waiting;
        }
        let Some(canvas) = self.context.canvas() else { return LiveNext::Waiting };
        if !self.fit(&canvas) {
            return LiveNext::Waiting;
        }
        let counted = self.video.get_video_playback_quality().total_video_frames();
        let now = (u64::from(counted), self.video.current_time());
        if now == self.last {
            return LiveNext::Waiting;
        }
        self.received = if counted > 0 { now.0 } else { self.received + 1 };
        self.last = now;
        let (w, h) = self.size;
        let drawn = self.context.draw_image_with_html_video_element_and_dw_and_dh(
            &self.video,
            0.0,
            0.0,
            f64::from(w),
            f64::from(h),
        );
        let read = drawn.and_then(|()| self.context.get_image_data(0.0, 0.0, f64::from(w), f64::from(h)));
        match read.ok().and_then(|data| RgbaImage::from_raw(w, h, data.data().0)) {
            Some(frame) => {
                self.shown += 1;
                LiveNext::Frame(frame, web_time::Instant::now())
            }
            None => LiveNext::Waiting,
        }
    }

    fn counts(&self) -> (u64, u64) {
        (self.received, self.received.saturating_sub(self.shown))
    }
}

impl Drop for Camera {
    fn drop(&mut self) {
        // The camera's light goes off with the page's hold on it.
        let tracks = self.stream.get_tracks();
        for track in tracks.iter() {
            if let Ok(track) = track.dyn_into::<web_sys::MediaStreamTrack>() {
                track.stop();
            }
        }
    }
}

/// Why the browser gave no camera, with what to do.
fn refused(e: &JsValue) -> String {
    let name = e.dyn_ref::<web_sys::DomException>().map(web_sys::DomException::name).unwrap_or_default();
    match name.as_str() {
        "NotAllowedError" | "SecurityError" => {
            "the camera was refused; allow it for this page in the browser's site settings, then press Camera again".into()
        }
        "NotFoundError" | "OverconstrainedError" => "no camera found; connect one and press Camera again".into(),
        "NotReadableError" | "AbortError" => {
            "the camera is in use by another program (or the system refused it); close that program and press Camera again".into()
        }
        _ => format!("the camera could not be opened: {}", words(e)),
    }
}
