//! Shift+M and the panel's Sound: each step heard as it is shown ([`crate::sound`]), on the
//! lens's line (with the lens closed, on the line L would open it on, read all the same), played
//! by the platform's output at the panel's volume. Off by default; where there is no sound
//! device it says so once and everything else goes on.

use super::Running;
use super::platform::{Sound as Output, SoundOut};
use crate::sound::line::Heard;

/// The longest a step sounds, in seconds: stepping by hand, or playing slower than this.
const LONGEST_STEP: f64 = 0.25;

/// The sound of the steps, while it is on.
#[derive(Default)]
pub(super) struct Sound {
    /// Whether steps are heard.
    on: bool,
    /// The output, once opened.
    out: Option<Output>,
    /// Why there is no output, once found.
    unavailable: Option<String>,
    /// The line as last heard.
    heard: Heard,
    /// The lens readings heard so far ([`super::lens::Lens::arrivals`]).
    heard_arrivals: u64,
}

impl Sound {
    /// Whether steps are heard (the lens then reads its line even while closed).
    pub(super) fn on(&self) -> bool {
        self.on
    }

    /// Why steps cannot be heard here, if they cannot.
    pub(super) fn unavailable(&self) -> Option<&str> {
        self.unavailable.as_deref()
    }
}

impl Running {
    /// Shift+M: turns the sound on (opening the output the first time) or off.
    pub(super) fn toggle_sound(&mut self) {
        let sound = &mut self.sound;
        sound.on = !sound.on;
        sound.heard.forget();
        if !sound.on {
            self.ui.status.say("sound off");
            return;
        }
        if sound.out.is_none() && sound.unavailable.is_none() {
            match Output::open() {
                Ok(out) => sound.out = Some(out),
                Err(e) => sound.unavailable = Some(e),
            }
        }
        match (&sound.unavailable, &sound.out) {
            (Some(why), _) => self.ui.status.error(format!("no sound: {why}; everything else works as before")),
            (None, Some(out)) => self.ui.status.say(format!(
                "sound on: each step's moved pixels on the lens's line (L opens it; closed, where it would open), higher for larger keys ({})",
                out.describe()
            )),
            (None, None) => unreachable!("opened or said why not"),
        }
    }

    /// Plays the step the lens has just read, if the sound is on and it moved pixels on the line.
    pub(super) fn hear(&mut self) {
        let sound = &mut self.sound;
        let arrivals = self.lens.arrivals();
        if !sound.on || arrivals == sound.heard_arrivals {
            return;
        }
        sound.heard_arrivals = arrivals;
        let Some(reading) = self.lens.heard_reading() else { return };
        let key = self.session.choice.key;
        sound.heard.unless_heard(reading.cells.iter().map(|c| c.before).collect());
        let moved = sound.heard.moved(reading.cells.iter().map(|c| c.pixel).collect(), key);
        let Some(out) = sound.out.as_mut() else { return };
        // A run started again (another picture, key or algorithm) is no step: its line is
        // heard from, silently.
        if moved.is_empty() || reading.steps_done == 0 {
            return;
        }
        let player = &self.session.player;
        let seconds = if player.playing() { (1.0 / player.speed()).min(LONGEST_STEP) } else { LONGEST_STEP };
        log::info!(
            "heard {} pixels moved on {} at step {}",
            moved.len(),
            reading.line.name,
            reading.steps_done
        );
        let rate = out.rate();
        let mut samples = Vec::new();
        crate::sound::step(&moved, key.max_value(), (seconds * f64::from(rate)) as usize, rate, &mut samples);
        out.play(&samples, self.ui.volume);
    }
}
