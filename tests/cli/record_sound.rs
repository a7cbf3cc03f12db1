//! `--record VIDEO --sound`: each step sounds as "The sound of a step" in docs/algorithms.md
//! defines it, judged by a model written here from that text on the CPU model's states: sample
//! for sample in .mkv's PCM, tone for tone by pitch, in AAC (.mp4) and Opus (.webm) as long as the
//! video, the same bytes from the same command, and refused in one line where a format has none.

use super::decoded::{rms, samples_of, streams};
use super::{arg, assert_fails, assert_succeeds};
use crate::clips::{frames_of, have_ffmpeg};
use crate::sound_model::{RATE, moved, phase_step, pitch, step_sound, tone, tones, triangle};
use image::RgbaImage;
use shadersort::keys::SortKey;
use shadersort::keys::options::SortOptions;
use shadersort::picture::patterns::random_image;
use shadersort::reference::{odd_even_passes, stable_sort};
use std::path::Path;
use std::process::Command;

/// Where frame `k` of a recording at `fps` starts sounding: ⌊k·R/F⌋.
fn bound(k: usize, fps: usize) -> usize {
    k * RATE / fps
}

/// The sound track of the recorded lines (frame 0 first), the last frame shown `hold` periods.
fn track(lines: &[Vec<[u8; 4]>], key: SortKey, fps: usize, hold: usize) -> Vec<i16> {
    let mut out = vec![0; bound(lines.len() - 1 + hold, fps)];
    for k in 1..lines.len() {
        let (start, s) = (bound(k, fps), bound(k + 1, fps) - bound(k, fps));
        out[start..start + s].copy_from_slice(&step_sound(&lines[k - 1], &lines[k], key, s));
    }
    out
}

/// The model's parts against values worked out by hand from the definition.
fn check_the_model_by_hand() {
    let waves = [0, 16384, 32767, 32768, 49152, 65535].map(|t| triangle(t << 16));
    assert_eq!(waves, [-32768, 0, 32766, 32767, -1, -32767]);
    assert_eq!(
        [phase_step(110.0), phase_step(440.0), phase_step(1760.0)],
        [9_842_633, 39_370_534, 157_482_134]
    );
    let luma = SortKey::Luma.max_value();
    assert_eq!([pitch(0, luma), pitch(luma / 2, luma), pitch(luma, luma)], [110.0, 440.0, 1760.0]);
    // A = 240: sample 1 is ⌊-32468 · 1 / 480⌋ toward zero (-67, not -68); 500 is at half scale.
    let low = tone(110.0, 1000);
    assert_eq!([low[0], low[1], low[2], low[500], low[998], low[999]], [0, -67, -134, -6827, 10, 0]);
    assert_eq!(tone(440.0, 3), [0, -15784, 0], "A = ⌊3/2⌋ = 1");
    assert_eq!(tone(440.0, 1), [0], "A = 0");
    let indices: Vec<usize> = tones(20, 48_000).iter().map(|t| t.0).collect();
    assert_eq!(indices, [0, 1, 3, 5, 6, 8, 10, 11, 13, 15, 16, 18], "12 tones at most");
    assert_eq!(tones(20, 48_000)[11], (18, 44_000, 48_000));
    // 7 fps: 6857 samples, 4 tones of 30 ms fit.
    assert_eq!(tones(5, 6857), [(0, 0, 1714), (1, 1714, 3428), (2, 3428, 5142), (3, 5142, 6857)]);
    assert_eq!(tones(3, 1000), [(0, 0, 1000)], "one tone when not even 30 ms fit");
    assert_eq!([bound(1, 7), bound(2, 7), bound(3, 7)], [6857, 13714, 20571]);
}

/// The value after `name` in `args`.
fn flag<'a>(args: &[&'a str], name: &str) -> Option<&'a str> {
    args.iter().position(|&a| a == name).map(|i| args[i + 1])
}

/// The frames ffmpeg decodes from a file's video stream, counted.
fn video_frames(path: &Path) -> usize {
    let out = Command::new("ffmpeg")
        .args(["-v", "error", "-nostdin", "-i", arg(path), "-map", "0:v:0", "-f", "framecrc", "-"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}: {}", path.display(), String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).lines().filter(|l| !l.starts_with('#')).count()
}

/// What a run is besides its flags: its input, sort, steps in all, whether it always runs every
/// one of them (bitonic, radix) or may stop once sorted (odd-even), and the CPU model's state
/// after any number of steps.
struct Model<'a> {
    input: &'a RgbaImage,
    options: SortOptions,
    steps: u32,
    runs_every_step: bool,
    state: &'a dyn Fn(u32) -> RgbaImage,
}

/// A recording made by `args` (the input and the run's flags, `--fps` among them) with
/// `--record out --sound`, and the model's recorded states and sound track for it: a frame per
/// `--every` steps up to the run's end, which must show the stable sort, then the hold.
fn record(args: &[&str], out: &Path, model: &Model) -> (Vec<RgbaImage>, Vec<i16>) {
    assert_succeeds(&[args, &["--record", arg(out), "--sound"]].concat(), &[]);
    let fps: usize = flag(args, "--fps").expect("a --fps").parse().unwrap();
    let hold: f64 = flag(args, "--hold").unwrap_or("2").parse().unwrap();
    let every: u32 = flag(args, "--every").unwrap_or("1").parse().unwrap();
    let hold_frames = ((hold * fps as f64).round() as usize).max(1);
    let frames = video_frames(out);
    let what = out.display().to_string();
    assert!(frames > hold_frames, "{what}: {frames} frames, {hold_frames} of them the hold");
    let last = (frames - hold_frames) as u32;
    let runs = model.steps.div_ceil(every);
    assert!(last <= runs, "{what}: {last} frames after the input, for {runs} kept steps");
    if model.runs_every_step {
        assert_eq!(last, runs, "{what}: frames after the input, one per kept step");
    }
    let states: Vec<RgbaImage> = (0..=last).map(|k| (model.state)((k * every).min(model.steps))).collect();
    let sorted = stable_sort(model.input, &model.options);
    assert!(states[last as usize] == sorted, "{what}: the last frame is not the stable sort");
    let row = flag(args, "--lens").map_or(model.input.height() / 2, |n| n.parse().unwrap()) as usize;
    let width = model.input.width() as usize;
    let lines: Vec<Vec<[u8; 4]>> =
        states.iter().map(|s| s.pixels().skip(row * width).take(width).map(|p| p.0).collect()).collect();
    (states, track(&lines, model.options.key, fps, hold_frames))
}

/// Asserts that the sound ffmpeg decodes from `out` is `model`, sample for sample; a
/// difference is reported with the frame period it falls in.
fn assert_exact(out: &Path, model: &[i16], fps: usize) {
    let got = samples_of(out, RATE as u32);
    assert!(model.iter().any(|&s| s != 0), "{}: the model must sound", out.display());
    if let Some(i) = (0..got.len().min(model.len())).find(|&i| got[i] != model[i]) {
        let frame = (i * fps) / RATE;
        let at = i - bound(frame, fps);
        panic!(
            "{}: sample {i} (frame {frame} + {at}) is {} for the model's {}",
            out.display(),
            got[i],
            model[i]
        );
    }
    assert_eq!(got.len(), model.len(), "{}: samples, the video's frames at {fps} fps", out.display());
}

/// The picture `--pattern NAME --pattern-size SIZE` starts with.
fn pattern_input(dir: &Path, name: &str, size: &str) -> RgbaImage {
    let out = dir.join(format!("{name}-{size}.png"));
    let args = ["--pattern", name, "--pattern-size", size, "--steps", "0", "--out", arg(&out)];
    assert_succeeds(&args, &[]);
    image::open(&out).unwrap().to_rgba8()
}

/// Odd-even on a reversed pattern: the default line (row 2) with every frame exact in FFV1,
/// then every 5th step (a last gap of one) on row 4 at 7 fps (periods of 6857 and 6858 samples,
/// 4 tones each) with no hold.
#[test]
fn odd_even_sounds_as_the_model_sample_for_sample() {
    check_the_model_by_hand();
    if !have_ffmpeg() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let input = pattern_input(dir.path(), "reversed", "16x5");
    let options = SortOptions::default();
    let state = |steps| odd_even_passes(&input, &options, steps);
    let model = Model { input: &input, options, steps: 16, runs_every_step: false, state: &state };
    let pattern = ["--pattern", "reversed", "--pattern-size", "16x5", "--algorithm", "odd-even"];
    let out = dir.path().join("default-line.mkv");
    let flags = ["--fps", "4", "--hold", "0.5", "--lossless"];
    let (states, sound) = record(&[&pattern[..], &flags].concat(), &out, &model);
    assert_exact(&out, &sound, 4);
    let frames = frames_of(&out, (16, 5));
    let mut expected = states.clone();
    expected.push(states.last().unwrap().clone());
    assert_eq!(frames.len(), expected.len(), "the states and the hold's second frame");
    for (k, (got, want)) in frames.iter().zip(&expected).enumerate() {
        assert!(got == want, "frame {k} is not the model's state");
    }

    let out = dir.path().join("every-5.mkv");
    let flags = ["--every", "5", "--lens", "4", "--fps", "7", "--hold", "0"];
    let (_, sound) = record(&[&pattern[..], &flags].concat(), &out, &model);
    assert_exact(&out, &sound, 7);
    crate::clips::ci::passed();
}

/// Steps that move pixels far: bitonic by hue, reversed (pitch follows the key, not the order),
/// on row 6 of a random 13x8 picture whose alpha varies (a pixel replaced by one of the same
/// colour is moved), and radix on the default line (row 4: height / 2) at 2 fps (16 tones of
/// 30 ms would fit: at most 12 sound) with no hold.
#[test]
fn bitonic_and_radix_sound_as_the_model_sample_for_sample() {
    use shadersort::algorithms::radix::plan::{RadixPlan, Sequences};
    use shadersort::keys::options::{Axis, Scope};
    use shadersort::keys::radix_key::RadixKey;
    use shadersort::reference::bitonic::{BitonicModel, bitonic_stages};
    use shadersort::reference::radix::radix_steps;
    check_the_model_by_hand();
    if !have_ffmpeg() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let input = random_image(13, 8, 29);
    let image = dir.path().join("noise.png");
    input.save(&image).unwrap();

    let options = SortOptions { key: SortKey::Hue, descending: true, ..Default::default() };
    let stages = BitonicModel::new(&input, options, None).stages();
    assert_eq!(stages, 10, "13 pixels take the network of 16");
    let state = |steps| bitonic_stages(&input, options, None, steps);
    let model = Model { input: &input, options, steps: stages, runs_every_step: true, state: &state };
    let out = dir.path().join("bitonic.mkv");
    let args = [arg(&image), "--algorithm", "bitonic", "--key", "hue", "--reverse", "--lens", "6"];
    let flags = ["--fps", "5", "--hold", "1", "--lossless"];
    let (_, sound) = record(&[&args[..], &flags].concat(), &out, &model);
    assert_exact(&out, &sound, 5);

    let options = SortOptions::default();
    let plan = RadixPlan {
        key: RadixKey::new(options, None).unwrap(),
        digit_bits: 4,
        stages: 1,
        twin_indices: false,
    };
    let seqs = Sequences { width: 13, height: 8, axis: Axis::Rows, scope: Scope::Rows };
    let state = |steps| radix_steps(&input, seqs, &plan, steps).0;
    let model = Model { input: &input, options, steps: plan.steps(), runs_every_step: true, state: &state };
    assert_eq!(plan.steps(), 5, "18 bits of luma in 4-bit digits");
    let out = dir.path().join("radix.mkv");
    let args = [arg(&image), "--algorithm", "radix", "--fps", "2", "--hold", "0"];
    let (_, sound) = record(&args, &out, &model);
    assert_exact(&out, &sound, 2);
    crate::clips::ci::passed();
}

/// The power of `x` at `f` Hz (Goertzel).
fn power(x: &[f64], f: f64) -> f64 {
    let c = 2.0 * (std::f64::consts::TAU * f / RATE as f64).cos();
    let (s1, s2) = x.iter().fold((0.0, 0.0), |(s1, s2), &v| (v + c * s1 - s2, s1));
    s1 * s1 + s2 * s2 - c * s1 * s2
}

/// The loudest frequency of `samples` from 90 to 2000 Hz: the DFT of the Hann-windowed samples
/// on a grid of a quarter bin, then on a grid 100 times finer around the peak.
fn dominant_frequency(samples: &[i16]) -> f64 {
    let n = samples.len();
    let hann = |i: usize| 0.5 - 0.5 * (std::f64::consts::TAU * i as f64 / (n - 1) as f64).cos();
    let x: Vec<f64> = samples.iter().enumerate().map(|(i, &s)| f64::from(s) * hann(i)).collect();
    let peak = |from: f64, to: f64, step: f64| {
        let grid = (0..).map(|i| from + f64::from(i) * step).take_while(|&f| f <= to);
        grid.map(|f| (power(&x, f), f)).max_by(|a, b| a.0.total_cmp(&b.0)).unwrap().1
    };
    let step = RATE as f64 / n as f64 / 4.0;
    let coarse = peak(90.0, 2000.0, step);
    peak(coarse - step, coarse + step, step / 100.0)
}

/// A slow odd-even run of a reversed 8x3 pattern at 1 fps: every tone of every step, measured in
/// the middle three quarters of its span of the .mkv's and of the .mp4's sound, is at the
/// model's pitch within 1%.
#[test]
fn each_tone_is_at_the_pitch_of_its_pixels_key() {
    for f in [110.0, 441.7, 1760.0] {
        let measured = dominant_frequency(&tone(f, 4000));
        assert!((measured / f - 1.0).abs() < 1e-3, "the measure finds {measured} Hz in {f} Hz");
    }
    assert!(dominant_frequency(&tone(880.0, 4000)) > 870.0, "an octave up is told apart");
    if !have_ffmpeg() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let input = pattern_input(dir.path(), "reversed", "8x3");
    let options = SortOptions::default();
    let state = |steps| odd_even_passes(&input, &options, steps);
    let model = Model { input: &input, options, steps: 8, runs_every_step: false, state: &state };
    let args = ["--pattern", "reversed", "--pattern-size", "8x3", "--fps", "1", "--hold", "1"];
    for ext in ["mkv", "mp4"] {
        let out = dir.path().join(format!("slow.{ext}"));
        let (states, _) = record(&args, &out, &model);
        let samples = samples_of(&out, RATE as u32);
        let line = |k: usize| states[k].pixels().skip(8).take(8).map(|p| p.0).collect::<Vec<_>>();
        let mut measured = 0;
        for k in 1..states.len() {
            let (before, now) = (line(k - 1), line(k));
            let positions = moved(&before, &now);
            for (index, from, to) in tones(positions.len(), RATE) {
                let want = pitch(SortKey::Luma.of(now[positions[index]]), SortKey::Luma.max_value());
                let margin = (to - from) / 8;
                let span = &samples[RATE * k + from + margin..RATE * k + to - margin];
                let got = dominant_frequency(span);
                assert!(
                    (got / want - 1.0).abs() < 0.01,
                    ".{ext} frame {k}, tone at {from}: {got:.2} Hz, not {want:.2}"
                );
                measured += 1;
            }
        }
        assert!(measured >= 40, ".{ext}: only {measured} tones measured");
    }
    crate::clips::ci::passed();
}

/// The same command twice writes the same bytes, in .mkv and in .mp4.
#[test]
fn the_same_command_writes_the_same_bytes() {
    if !have_ffmpeg() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for ext in ["mkv", "mp4"] {
        let out = dir.path().join(format!("twice.{ext}"));
        let args = ["--pattern", "reversed", "--pattern-size", "16x5", "--algorithm", "bitonic"];
        let args = [&args[..], &["--fps", "4", "--record", arg(&out), "--sound"]].concat();
        assert_succeeds(&args, &[]);
        let first = std::fs::read(&out).unwrap();
        assert_succeeds(&args, &[]);
        assert!(std::fs::read(&out).unwrap() == first, ".{ext}: the second run wrote other bytes");
    }
    crate::clips::ci::passed();
}

/// .mp4 carries the sound as AAC and .webm as Opus, 48000 Hz mono, as long as the video within
/// one of the codec's frames and as loud as the model's, silent on the input and in the hold;
/// without --sound a video has no audio stream.
#[test]
fn mp4_and_webm_carry_aac_and_opus_as_long_as_the_video() {
    if !have_ffmpeg() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let input = pattern_input(dir.path(), "reversed", "16x5");
    let options = SortOptions::default();
    let state = |steps| odd_even_passes(&input, &options, steps);
    let model = Model { input: &input, options, steps: 16, runs_every_step: false, state: &state };
    let args = ["--pattern", "reversed", "--pattern-size", "16x5", "--fps", "4", "--hold", "1"];
    for (ext, codec, frame) in [("mp4", "aac", 1024), ("webm", "opus", 960)] {
        let out = dir.path().join(format!("sound.{ext}"));
        let (states, sound) = record(&args, &out, &model);
        let described = streams(&out);
        let audio = described.lines().find(|l| l.contains("Audio:")).unwrap_or_else(|| panic!("{described}"));
        assert!(audio.contains(&format!("Audio: {codec}")) && audio.contains("48000 Hz"), "{audio}");
        assert!(audio.contains("mono"), "{audio}");
        let got = samples_of(&out, RATE as u32);
        let what = format!(".{ext}: {} samples for a video of {}", got.len(), sound.len());
        assert!(got.len().abs_diff(sound.len()) <= frame, "{what}");
        let common = got.len().min(sound.len());
        let (level, want) = (rms(&got[..common]), rms(&sound[..common]));
        assert!((level / want - 1.0).abs() < 0.1, "{what}: level {level:.4}, the model's {want:.4}");
        // The input's period, and the hold's after its first, each away from its edges.
        let held = bound(states.len(), 4) + bound(1, 4) / 4;
        for (from, to) in [(0, bound(1, 4) / 2), (held, held + bound(1, 4) / 2)] {
            assert!(rms(&got[from..to]) < 0.005, "{what}: sound in {from}..{to}, which is silent");
        }
    }
    for ext in ["mp4", "webm", "mkv"] {
        let out = dir.path().join(format!("silent.{ext}"));
        assert_succeeds(&[&args[..], &["--record", arg(&out)]].concat(), &[]);
        let described = streams(&out);
        assert!(described.contains("Video:") && !described.contains("Audio:"), ".{ext}:\n{described}");
    }
    crate::clips::ci::passed();
}

/// --sound with a format that has no sound (GIF, animated PNG, PNG frames) is refused in one
/// line that names a video format to use, with nothing written.
#[test]
fn formats_without_sound_refuse_it_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["x.gif", "x.png", "frames/"] {
        let out = dir.path().join(name);
        let args = ["--pattern", "reversed", "--pattern-size", "16x5", "--record", arg(&out), "--sound"];
        let line = assert_fails(&args, &[], dir.path(), &["sound"]);
        assert!([".mp4", ".webm", ".mkv"].iter().any(|e| line.contains(e)), "{name}: {line}");
        assert!(!out.exists(), "{name}");
    }
    crate::clips::ci::passed();
}
