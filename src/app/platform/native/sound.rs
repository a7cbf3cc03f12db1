//! The steps' sound on the default output device through cpal, where the system is not Linux
//! (there `alsa.rs`: cpal links ALSA at build time, and the program would then not start where
//! ALSA is missing): samples queued by the window and taken by the device's callback, silence
//! when none are queued.

use crate::app::platform::SoundOut;
use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};
use cpal::{FromSample, SizedSample};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

/// The most sound queued, in seconds: steps that come faster than they sound drop their oldest
/// tones rather than fall ever further behind the picture.
const MOST_QUEUED_SECONDS: u32 = 1;

/// The default output device, playing.
pub(in crate::app) struct DeviceSound {
    /// Kept for as long as the sound plays.
    _stream: cpal::Stream,
    queue: Arc<Mutex<VecDeque<f32>>>,
    rate: u32,
    /// "48000 Hz, 2 channels of f32".
    described: String,
}

impl SoundOut for DeviceSound {
    fn open() -> Result<Self, String> {
        let device = cpal::default_host()
            .default_output_device()
            .ok_or_else(|| "no sound output device was found".to_string())?;
        let config = device.default_output_config().map_err(|e| format!("the sound device refused: {e}"))?;
        let queue = Arc::new(Mutex::new(VecDeque::new()));
        let stream = match config.sample_format() {
            cpal::SampleFormat::F32 => stream::<f32>(&device, &config, queue.clone()),
            cpal::SampleFormat::I16 => stream::<i16>(&device, &config, queue.clone()),
            cpal::SampleFormat::U16 => stream::<u16>(&device, &config, queue.clone()),
            cpal::SampleFormat::I32 => stream::<i32>(&device, &config, queue.clone()),
            other => return Err(format!("the sound device takes {other} samples, which are not played")),
        }?;
        stream.play().map_err(|e| format!("the sound device would not play: {e}"))?;
        let described = format!(
            "{} Hz, {} channels of {}",
            config.sample_rate(),
            config.channels(),
            config.sample_format()
        );
        Ok(DeviceSound { _stream: stream, queue, rate: config.sample_rate(), described })
    }

    fn rate(&self) -> u32 {
        self.rate
    }

    fn describe(&self) -> String {
        self.described.clone()
    }

    fn play(&mut self, samples: &[i16], volume: f32) {
        let mut queue = self.queue.lock().unwrap_or_else(|p| p.into_inner());
        queue.extend(samples.iter().map(|&s| f32::from(s) / 32768.0 * volume));
        let most = (self.rate * MOST_QUEUED_SECONDS) as usize;
        if queue.len() > most {
            let excess = queue.len() - most;
            queue.drain(..excess);
        }
    }
}

/// An output stream of `T` samples on `device` taking mono samples from `queue` into every
/// channel.
fn stream<T: SizedSample + FromSample<f32>>(
    device: &cpal::Device,
    config: &cpal::SupportedStreamConfig,
    queue: Arc<Mutex<VecDeque<f32>>>,
) -> Result<cpal::Stream, String> {
    let channels = usize::from(config.channels()).max(1);
    let fill = move |data: &mut [T], _: &cpal::OutputCallbackInfo| {
        let mut queue = queue.lock().unwrap_or_else(|p| p.into_inner());
        for frame in data.chunks_mut(channels) {
            let value = T::from_sample(queue.pop_front().unwrap_or(0.0));
            frame.fill(value);
        }
    };
    let failed = |e: cpal::Error| log::warn!("the sound device failed: {e}");
    device
        .build_output_stream::<T, _, _>(config.config(), fill, failed, None)
        .map_err(|e| format!("the sound device could not be opened: {e}"))
}
