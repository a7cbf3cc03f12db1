//! The native program's side of [`super`]: recordings and takes written on threads of their
//! own, the camera and clips read through ffmpeg, the steps' sound through ALSA on Linux and
//! cpal elsewhere.

#[cfg(target_os = "linux")]
mod alsa;
mod camera;
mod clip;
mod recording;
mod settings;
#[cfg(not(target_os = "linux"))]
mod sound;
mod take;

#[cfg(target_os = "linux")]
pub(in crate::app) use alsa::AlsaSound as DeviceSound;
pub(in crate::app) use camera::{OpeningCamera, open_live};
pub(in crate::app) use clip::{OpeningClip, WindowClip};
pub(in crate::app) use recording::BackgroundRecording;
#[cfg(not(target_os = "linux"))]
pub(in crate::app) use sound::DeviceSound;
pub(in crate::app) use take::TakeWriter;
