//! Shift+M in the window: each step heard as "The sound of a step" in docs/algorithms.md defines
//! it, on the line L would open the lens on, played through ALSA into a file (a configuration
//! whose default device writes the samples it is given) and held to the model sample for
//! sample; where ALSA has no device, one notice, and the sort goes on.

use super::{Session, launch_with, wait_for};
use crate::sound_model::step_sound;
use image::RgbaImage;
use shadersort::keys::SortKey;
use shadersort::keys::options::SortOptions;
use shadersort::reference::odd_even_passes;
use std::time::Duration;

/// Samples a step sounds for when stepped by hand: a quarter of a second at 48000 Hz.
const STEP_SAMPLES: usize = 12_000;

/// 16x5 noise whose middle row (2, where L opens the lens) holds 16 greys in reverse order:
/// every odd-even pass then moves pixels on it.
fn reversed_middle_row() -> RgbaImage {
    let noise = shadersort::picture::patterns::random_image(16, 5, 21);
    RgbaImage::from_fn(16, 5, |x, y| {
        let v = 240 - 14 * x as u8;
        if y == 2 { image::Rgba([v, v, v, 255]) } else { *noise.get_pixel(x, y) }
    })
}

/// Starts the window on `picture` with ALSA configured by `config` (`SOUND` in it naming the
/// test folder's `sound.raw`).
fn window_with_alsa(picture: &RgbaImage, config: &'static str) -> Option<Session> {
    let prepare = |dir: &std::path::Path| {
        picture.save(dir.join("row.png")).unwrap();
        let sound = dir.join("sound.raw");
        std::fs::write(dir.join("asound.conf"), config.replace("SOUND", &sound.display().to_string()))
            .unwrap();
    };
    launch_with("vulkan", ("row.png", &[]), "pass 0/16", prepare, &[("ALSA_CONFIG_PATH", "asound.conf")])
}

#[test]
fn shift_m_plays_each_step_as_the_model_sounds_it_and_without_a_device_says_so() {
    let picture = reversed_middle_row();
    let device = "pcm.!default { type file slave.pcm \"silence\" file \"SOUND\" format \"raw\" }\n\
                  pcm.silence { type null }\n";
    let Some(mut s) = window_with_alsa(&picture, device) else { return };
    s.keys(&["shift+m"]);
    s.expect_log_containing("sound on: ");
    s.expect_log_containing("(48000 Hz, 1 channel of i16, ALSA's default device)");
    // One step at a time, each heard before the next (ALSA's file device writes what it is given
    // as its buffer fills, and the rest once the window closes).
    for k in 1..=3 {
        s.keys(&["Right"]);
        s.expect_step(&format!("pass {k}/16"));
        s.expect_log_containing(&format!("on row 2 at step {k}"));
    }
    // Shift+M again: steps are silent.
    s.keys(&["shift+m"]);
    s.expect_log("sound off");
    s.keys(&["Right"]);
    s.expect_step("pass 4/16");
    s.keys(&["q"]);
    wait_for("the window to close", Duration::from_secs(20), || s.app.0.try_wait().unwrap().is_some());
    let bytes = std::fs::read(s.dir.path().join("sound.raw")).unwrap();
    let got: Vec<i16> = bytes.chunks_exact(2).map(|b| i16::from_le_bytes([b[0], b[1]])).collect();
    // The model: row 2 after each pass, its steps at the panel's volume (a half).
    let options = SortOptions::default();
    let row = |k: u32| -> Vec<[u8; 4]> {
        let state = odd_even_passes(&picture, &options, k);
        (0..16).map(|x| state.get_pixel(x, 2).0).collect()
    };
    let want: Vec<i16> = (1..=3)
        .flat_map(|k| step_sound(&row(k - 1), &row(k), SortKey::Luma, STEP_SAMPLES))
        .map(|s| (f64::from(s) * 0.5).round() as i16)
        .collect();
    assert_eq!(got.len(), want.len(), "three steps heard, the fourth not");
    let first_off = got.iter().zip(&want).position(|(a, b)| a != b);
    assert!(first_off.is_none(), "the sound differs from the model first at sample {first_off:?}");

    // ALSA without a device: one notice, and the sort goes on.
    let nowhere = "pcm.!default { type hw card 7 }\n";
    let Some(mut s) = window_with_alsa(&picture, nowhere) else { return };
    s.keys(&["shift+m"]);
    s.expect_log_containing("no sound: no sound device could be opened");
    s.keys(&["Right"]);
    s.expect_step("pass 1/16");
    s.keys(&["q"]);
    wait_for("the window to close", Duration::from_secs(20), || s.app.0.try_wait().unwrap().is_some());
    crate::clips::ci::passed();
}
