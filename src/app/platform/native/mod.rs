//! The native program's side of [`super`]: recordings and takes written on threads of their
//! own, the camera and clips read through ffmpeg.

mod camera;
mod clip;
mod recording;
mod take;

pub(in crate::app) use camera::{OpeningCamera, open_live};
pub(in crate::app) use clip::{OpeningClip, WindowClip};
pub(in crate::app) use recording::BackgroundRecording;
pub(in crate::app) use take::TakeWriter;
