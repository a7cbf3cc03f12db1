//! Files the user hands the app and the files it hands back: natively paths from the desktop's
//! dialog or a drop, and files written; in the page a file's name and bytes from the browser's
//! dialog or a drop, and downloads.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// A file the user chose or dropped.
pub enum Chosen {
    /// Natively: where it is.
    Path(PathBuf),
    /// In the page: its name and contents.
    Bytes {
        /// The file's name (no folder).
        name: String,
        /// Its contents.
        bytes: Vec<u8>,
    },
}

impl Chosen {
    /// The file's path, or its name in the page.
    pub fn path(&self) -> &Path {
        match self {
            Chosen::Path(path) => path,
            Chosen::Bytes { name, .. } => Path::new(name),
        }
    }

    /// The picture in the file.
    pub fn picture(&self) -> Result<crate::picture::input::Picture, crate::picture::input::InputError> {
        match self {
            Chosen::Path(path) => crate::picture::input::Picture::load(path),
            Chosen::Bytes { name, bytes } => {
                crate::picture::input::Picture::decode_file(bytes, Path::new(name))
            }
        }
    }
}

/// What a dialog is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// A picture (or natively a clip) to sort.
    Open,
    /// A mask: white is sorted, black stays.
    Mask,
    /// Many pictures to sort with the window's settings: natively a folder, in the page files.
    Many,
}

impl Purpose {
    fn title(self) -> &'static str {
        match self {
            // The page plays no clips.
            Purpose::Open if cfg!(target_arch = "wasm32") => "Open a picture",
            Purpose::Open => "Open a picture or a clip",
            Purpose::Mask => "Load a mask (white is sorted, black stays)",
            Purpose::Many if cfg!(target_arch = "wasm32") => "Pictures to sort with these settings",
            Purpose::Many => "A folder of pictures and clips to sort with these settings",
        }
    }
}

/// The environment variable that answers every native dialog with its path instead of showing
/// it: for scripts, and for desktops without a dialog (no portal), where the dialog answers
/// nothing.
#[cfg(not(target_arch = "wasm32"))]
pub const ANSWER_VARIABLE: &str = "SHADERSORT_DIALOG_ANSWER";

/// The picture files every dialog offers.
const PICTURES: [&str; 8] = ["png", "jpg", "jpeg", "gif", "bmp", "webp", "tif", "tiff"];

/// What a dialog or a drop gave: the files (none when nothing was chosen; natively a folder for
/// [`Purpose::Many`]), or why a file could not be read.
pub type Answer = Result<Vec<Chosen>, String>;

/// File dialogs and drops: natively the desktop's dialog, answered at once, and dropped paths;
/// in the page the browser's dialog and dropped files, read and answered to a later frame.
/// Either way the answers are taken with [`Dialogs::take`].
#[derive(Default)]
pub struct Dialogs {
    answers: Rc<RefCell<Vec<(Purpose, Answer)>>>,
}

impl Dialogs {
    /// Opens a dialog for `purpose`; `ctx` is asked for a frame when a page's dialog answers.
    pub fn pick(&mut self, purpose: Purpose, ctx: &egui::Context) {
        #[cfg(not(target_arch = "wasm32"))]
        {
            let _ = ctx;
            let answer = match std::env::var_os(ANSWER_VARIABLE) {
                Some(path) => Some(PathBuf::from(path)),
                None if purpose == Purpose::Many => {
                    rfd::FileDialog::new().set_title(purpose.title()).pick_folder()
                }
                None => {
                    let mut dialog =
                        rfd::FileDialog::new().set_title(purpose.title()).add_filter("Pictures", &PICTURES);
                    if purpose == Purpose::Open {
                        let clips = crate::media::VIDEO_EXTENSIONS;
                        dialog = dialog
                            .add_filter("Clips", &clips)
                            .add_filter("Clips and animated GIFs", &[&clips[..], &["gif"]].concat());
                    }
                    dialog.pick_file()
                }
            };
            self.answers.borrow_mut().push((purpose, Ok(answer.map(Chosen::Path).into_iter().collect())));
        }
        #[cfg(target_arch = "wasm32")]
        {
            let dialog =
                rfd::AsyncFileDialog::new().set_title(purpose.title()).add_filter("Pictures", &PICTURES);
            let (answers, ctx) = (self.answers.clone(), ctx.clone());
            wasm_bindgen_futures::spawn_local(async move {
                let files = match purpose {
                    Purpose::Many => dialog.pick_files().await.unwrap_or_default(),
                    _ => dialog.pick_file().await.into_iter().collect(),
                };
                let mut chosen = Vec::with_capacity(files.len());
                for file in files {
                    chosen.push(Chosen::Bytes { name: file.file_name(), bytes: file.read().await });
                }
                answers.borrow_mut().push((purpose, Ok(chosen)));
                ctx.request_repaint();
            });
        }
    }

    /// A file dropped on the window, to open.
    pub fn dropped(&mut self, file: egui::DroppedFileHandle, ctx: &egui::Context) {
        #[cfg(not(target_arch = "wasm32"))]
        {
            let _ = ctx;
            let path = file.path().to_path_buf();
            if !path.as_os_str().is_empty() {
                self.answers.borrow_mut().push((Purpose::Open, Ok(vec![Chosen::Path(path)])));
            }
        }
        #[cfg(target_arch = "wasm32")]
        {
            let (answers, ctx) = (self.answers.clone(), ctx.clone());
            wasm_bindgen_futures::spawn_local(async move {
                let name = file.path().display().to_string();
                let read = file.bytes_async().await;
                let answer = read
                    .map(|bytes| vec![Chosen::Bytes { name: name.clone(), bytes }])
                    .map_err(|e| format!("cannot read {name}: {e}"));
                answers.borrow_mut().push((Purpose::Open, answer));
                ctx.request_repaint();
            });
        }
    }

    /// The dialogs answered and the files dropped since the last call, in order.
    pub fn take(&mut self) -> Vec<(Purpose, Answer)> {
        std::mem::take(&mut *self.answers.borrow_mut())
    }
}

/// Hands `bytes` to the browser as a download named `name` (the page's S and G).
#[cfg(target_arch = "wasm32")]
pub fn download(name: &str, bytes: &[u8], mime: &str) -> Result<(), String> {
    use wasm_bindgen::JsCast;
    let failed =
        |what: &str, e: wasm_bindgen::JsValue| format!("cannot download {name}: {what} failed ({e:?})");
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options)
        .map_err(|e| failed("a Blob", e))?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(|e| failed("a URL", e))?;
    let window = web_sys::window().ok_or_else(|| format!("cannot download {name}: no window"))?;
    let document = window.document().ok_or_else(|| format!("cannot download {name}: no document"))?;
    let link: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(|e| failed("a link", e))?
        .dyn_into()
        .map_err(|e| failed("a link", e.into()))?;
    link.set_href(&url);
    link.set_download(name);
    link.click();
    // The URL is let go a minute later: revoked at once, some browsers drop the download.
    let revoke = wasm_bindgen::closure::Closure::once_into_js(move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    });
    let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(revoke.unchecked_ref(), 60_000);
    Ok(())
}
