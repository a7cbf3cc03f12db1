//! The steps' sound in the page, through Web Audio: each step's samples an audio buffer played
//! right after the one before, through one gain (the volume).

use crate::app::platform::SoundOut;

/// The most sound scheduled ahead, in seconds: steps that come faster than they sound are
/// dropped rather than fall ever further behind the picture.
const MOST_AHEAD_SECONDS: f64 = 1.0;

/// The page's audio context, playing.
pub(in crate::app) struct PageSound {
    context: web_sys::AudioContext,
    gain: web_sys::GainNode,
    /// When the last samples scheduled end, on the context's clock.
    next: f64,
}

impl SoundOut for PageSound {
    fn open() -> Result<Self, String> {
        let failed = |e: wasm_bindgen::JsValue| format!("the browser's Web Audio failed: {e:?}");
        let context = web_sys::AudioContext::new().map_err(failed)?;
        let gain = context.create_gain().map_err(failed)?;
        gain.connect_with_audio_node(&context.destination()).map_err(failed)?;
        // A context made outside a gesture starts suspended; the key or click that turned the
        // sound on is one.
        let _ = context.resume();
        Ok(PageSound { context, gain, next: 0.0 })
    }

    fn rate(&self) -> u32 {
        self.context.sample_rate() as u32
    }

    fn describe(&self) -> String {
        format!("{} Hz, Web Audio", self.rate())
    }

    fn play(&mut self, samples: &[i16], volume: f32) {
        if samples.is_empty() {
            return;
        }
        let now = self.context.current_time();
        let at = self.next.max(now);
        if at - now > MOST_AHEAD_SECONDS {
            return;
        }
        let rate = self.context.sample_rate();
        let Ok(buffer) = self.context.create_buffer(1, samples.len() as u32, rate) else { return };
        let data: Vec<f32> = samples.iter().map(|&s| f32::from(s) / 32768.0).collect();
        let Ok(source) = self.context.create_buffer_source() else { return };
        if buffer.copy_to_channel(&data, 0).is_err() || source.connect_with_audio_node(&self.gain).is_err() {
            return;
        }
        source.set_buffer(Some(&buffer));
        self.gain.gain().set_value(volume);
        if source.start_with_when(at).is_ok() {
            self.next = at + samples.len() as f64 / f64::from(rate);
        }
    }
}
