//! The page's side of [`super`]: recordings and takes made on the page's one thread and
//! downloaded, the browser's camera, the steps' sound through Web Audio, and no clips (ffmpeg
//! runs only natively).

mod camera;
mod clip;
mod many;
mod recording;
mod sound;
mod take;

pub(in crate::app) use camera::OpeningCamera;
pub(in crate::app) use clip::{OpeningClip, WindowClip};
pub(in crate::app) use recording::BackgroundRecording;
pub(in crate::app) use sound::PageSound;
pub(in crate::app) use take::TakeWriter;
