//! Flags that parse on their own but not together, and the parsers of flag values; each
//! refusal names the problem and the fix.

use super::Cli;
use crate::algorithms::Algorithm;
use crate::intervals::IntervalMode;
use crate::intervals::threshold::parse_range;
use crate::keys::options::Scope;
use crate::keys::radix_key::{DEFAULT_DIGIT_BITS, DIGIT_BITS, RadixKey};
use crate::record::RecordFormat;

impl Cli {
    /// The interval mode: `--intervals`, or the one the other interval flags imply (none
    /// without either); an error when flags ask for different modes.
    pub fn interval_mode(&self) -> Result<IntervalMode, String> {
        let implied = [
            ("--threshold", self.threshold.is_some(), IntervalMode::Threshold),
            ("--sweep", self.sweep.is_some(), IntervalMode::Threshold),
            ("--edge-level", self.edge_level.is_some(), IntervalMode::Edges),
            ("--seed", self.seed.is_some(), IntervalMode::Random),
            ("--interval-length", self.interval_length.is_some(), IntervalMode::Random),
        ];
        let explicit = self.intervals.map(|m| (format!("--intervals {}", m.name()), m));
        let given = implied.iter().filter(|(_, given, _)| *given).map(|&(flag, _, m)| (flag.to_string(), m));
        let flags: Vec<(String, IntervalMode)> = explicit.into_iter().chain(given).collect();
        if let Some((a, ma)) = flags.first()
            && let Some((b, mb)) = flags.iter().find(|(_, m)| m != ma)
        {
            return Err(format!(
                "{a} and {b} choose different interval modes ({} and {}); give the flags of one mode",
                ma.name(),
                mb.name()
            ));
        }
        Ok(flags.first().map_or(IntervalMode::None, |&(_, m)| m))
    }

    /// Flags that need a live source, and those a live source cannot take.
    fn check_live(&self) -> Result<(), String> {
        if self.live_input().is_none() {
            if self.duration.is_some() {
                return Err("--duration sets how long a live source (--live URL or --camera) is recorded; a clip ends where it ends; drop --duration".into());
            }
            return Ok(());
        }
        let flag = if self.live.is_some() { "--live" } else { "--camera" };
        let refused = [
            ("--record", self.record.is_some()),
            ("--sweep", self.sweep.is_some()),
            ("--frames", self.frames.is_some()),
            ("--every", self.every.is_some()),
            ("--max-frames", self.max_frames.is_some()),
            ("--frame-rate", self.frame_rate.is_some()),
            ("--png-compression", self.png_compression.is_some()),
            ("--steps", self.steps.is_some() && self.out.is_none()),
        ];
        refuse_any(&refused, |other| {
            format!(
                "{other} does not go with {flag}: each frame of a live source is sorted to the end as it comes, at the source's own rate, shown in the window (pause with Space to step through a frame's passes) or recorded into --out (--steps sorts each frame that far there); drop {other}"
            )
        })
    }

    /// Clip flags on a picture, and picture-only flags on a clip.
    fn check_clip(&self) -> Result<(), String> {
        let clip = self.image().is_some_and(crate::media::is_clip);
        // A batch's clips take the clip flags; check_batch refuses the others.
        if self.live_input().is_some() || self.is_batch() {
            return Ok(());
        }
        if !clip {
            // A video recording is encoded as clips are.
            let video = matches!(&self.record, Some(Some(path)) if RecordFormat::of_path(path) == Some(RecordFormat::Video));
            let clip_flags = [
                ("--lossless", self.lossless && !video),
                ("--codec", self.codec.is_some() && !video),
                ("--crf", self.crf.is_some() && !video),
                ("--frame-rate", self.frame_rate.is_some()),
                ("--ffmpeg", self.ffmpeg.is_some() && !video),
            ];
            return refuse_any(&clip_flags, |flag| {
                format!(
                    "{flag} applies to a clip (a video, an animated GIF or a folder of frames) sorted with --out, or a recording to a video; give one as the input or --record out.mp4, or drop {flag}"
                )
            });
        }
        let image = self.image().expect("a clip is an input").display();
        let refused = [
            ("--record", self.record.is_some()),
            ("--frames", self.frames.is_some()),
            ("--every", self.every.is_some()),
            ("--max-frames", self.max_frames.is_some()),
        ];
        refuse_any(&refused, |flag| {
            format!(
                "{flag} does not go with a clip: each frame of '{image}' is sorted to the end (or to --steps) into --out, and --sweep moves the threshold over the clip; drop {flag}"
            )
        })?;
        // Without --out the window plays the clip, every frame sorted to the end.
        if self.out.is_none() {
            let refused = [("--sweep", self.sweep.is_some()), ("--steps", self.steps.is_some())];
            refuse_any(&refused, |flag| {
                format!(
                    "{flag} applies to a clip sorted with --out: the window plays '{image}' with every frame sorted to the end (pause with Space to step through a frame's passes); add --out PATH or drop {flag}"
                )
            })?;
        }
        if self.frame_rate.is_some()
            && !crate::media::frame_files::is_frame_files(self.image().expect("an input"))
        {
            return Err(format!(
                "--frame-rate sets the rate of a clip given as picture files; '{image}' keeps its own rate; drop --frame-rate"
            ));
        }
        Ok(())
    }

    /// Interval and sweep flags that do not go together.
    fn check_intervals(&self) -> Result<(), String> {
        let mode = self.interval_mode()?;
        if self.interval_key.is_some() && !matches!(mode, IntervalMode::Threshold | IntervalMode::Edges) {
            return Err(format!(
                "--interval-key applies to --intervals threshold and edges, not {}",
                mode.name()
            ));
        }
        if self.frames.is_some() && self.sweep.is_none() {
            return Err("--frames sets the frames of a --sweep: add --sweep FROM..TO".into());
        }
        let clip = self.image().is_some_and(crate::media::is_clip);
        if self.sweep.is_some() && clip {
            if self.threshold.is_some() {
                return Err("--threshold does not go with --sweep: the sweep sets the threshold 0..T of each frame, T moving from FROM to TO over the clip; drop --threshold".into());
            }
        } else if self.sweep.is_some() {
            if self.record.is_none() {
                return Err("--sweep records the threshold sweep: add --record [PATH]".into());
            }
            let refused = [
                ("--out", self.out.is_some()),
                ("--threshold", self.threshold.is_some()),
                ("--steps", self.steps.is_some()),
                ("--every", self.every.is_some()),
                ("--max-frames", self.max_frames.is_some()),
                ("--sub-steps", self.sub_steps),
            ];
            refuse_any(&refused, |flag| {
                format!(
                    "{flag} does not go with --sweep: each frame is the whole sort for the threshold 0..T, T from FROM to TO, and --frames sets how many; drop {flag}"
                )
            })?;
        }
        // The window takes --scope image with intervals: its radix lane then sorts whole lines and
        // says why (it may switch scope or algorithm later); a headless run cannot.
        let headless = self.out.is_some() || self.record.is_some();
        if headless && self.uses_intervals() && self.scope == Scope::Image {
            return Err(crate::algorithms::interval_texture::IntervalMapError::WholePicture.to_string());
        }
        Ok(())
    }

    /// Flags that parse on their own but not together: radix flags on another algorithm's
    /// headless run, more key bits than the key has, two directions.
    pub fn check(&self) -> Result<(), String> {
        self.check_live()?;
        self.check_batch()?;
        self.check_clip()?;
        self.check_intervals()?;
        self.check_direction()?;
        self.check_sound()?;
        if let Some(bits) = self.key_bits {
            RadixKey::new(self.sort_options(), Some(bits))?;
        }
        let clip = self.image().is_some_and(crate::media::is_clip);
        if self.png_compression.is_some() && (clip || self.out.is_none()) {
            return Err(
                "--png-compression applies to a picture sorted into --out PATH.png; add --out or drop --png-compression"
                    .into(),
            );
        }
        let headless = self.out.is_some() || self.record.is_some();
        let radix_flags = self.key_bits.is_some()
            || self.sub_steps
            || self.scope != Scope::Rows
            || self.digit_bits != DEFAULT_DIGIT_BITS;
        if headless && radix_flags && self.algorithm() != Algorithm::Radix {
            return Err(format!(
                "--digit-bits, --key-bits, --scope and --sub-steps apply to the radix view: add --algorithm radix (not {})",
                self.algorithm().name()
            ));
        }
        Ok(())
    }

    /// `--sound` needs a video recording; a sweep records pictures only.
    fn check_sound(&self) -> Result<(), String> {
        let record = self.record.as_ref().map(|path| path.as_deref().map(RecordFormat::of_path));
        let video = matches!(record, Some(Some(Some(RecordFormat::Video))));
        if self.sound && !video {
            let what = match &self.record {
                Some(Some(path)) => format!("'{}' has no sound", path.display()),
                Some(None) => "the default recording is a GIF, which has no sound".into(),
                None => "there is no recording".into(),
            };
            return Err(format!(
                "--sound puts each step's tones into a video recording, but {what}: record to a .mp4, .mov, .mkv or .webm (--record out.mp4), or drop --sound"
            ));
        }
        if video && self.sweep.is_some() {
            return Err("--sweep records a GIF, an animated PNG or PNG frames, not a video: record to .gif, .png or a folder/, then make a video of the frames with ffmpeg".into());
        }
        Ok(())
    }

    /// `--angle` with `--axis`, or with the whole-picture scope of a headless run; `--path`
    /// with either, its centre and rays.
    fn check_direction(&self) -> Result<(), String> {
        self.check_path()?;
        let Some(angle) = self.angle else { return Ok(()) };
        if let Some(axis) = self.axis {
            return Err(format!(
                "--angle {angle} and --axis {} both set the direction; give one (--axis rows is --angle 0, --axis columns is --angle 90)",
                axis.name()
            ));
        }
        // The window's radix lane sorts the whole picture without the angle and says why.
        let headless = self.out.is_some() || self.record.is_some();
        if headless && self.scope == Scope::Image && angle.axis().is_none() {
            return Err(
                crate::algorithms::interval_texture::IntervalMapError::WholePictureAtAngle.to_string()
            );
        }
        Ok(())
    }
}

impl Cli {
    /// `--path` without `--axis` or `--angle`, with a centre that is a point and rays only for
    /// rays; `--center` and `--rays` only with a path that takes them.
    fn check_path(&self) -> Result<(), String> {
        let Some(kind) = self.path else {
            let stray = [("--center", self.center.is_some()), ("--rays", self.rays.is_some())];
            return refuse_any(&stray, |flag| {
                format!("{flag} applies to --path (rings, rays or spiral); add --path or drop {flag}")
            });
        };
        let name = kind.name();
        if let Some(flag) = [("--axis", self.axis.is_some()), ("--angle", self.angle.is_some())]
            .into_iter()
            .find_map(|(flag, given)| given.then_some(flag))
        {
            return Err(format!(
                "--path {name} and {flag} both say what to sort along; give one (--path for rings, rays, a spiral or the Hilbert curve, {flag} for straight lines)"
            ));
        }
        if self.center.is_some() && !kind.has_centre() {
            return Err(format!(
                "--path {name} has no centre: it fills the picture from its corner; drop --center"
            ));
        }
        if self.rays.is_some() && kind != crate::paths::PathKind::Rays {
            return Err(format!(
                "--rays sets how many rays --path rays has, not {name}; drop --rays or use --path rays"
            ));
        }
        Ok(())
    }
}

/// An error from `why` for the first of `flags` (name, whether given) that was given.
pub(super) fn refuse_any(flags: &[(&str, bool)], why: impl FnOnce(&str) -> String) -> Result<(), String> {
    match flags.iter().find(|(_, given)| *given) {
        Some((flag, _)) => Err(why(flag)),
        None => Ok(()),
    }
}

pub(super) fn parse_digit_bits(s: &str) -> Result<u32, String> {
    match s.parse::<u32>() {
        Ok(v) if DIGIT_BITS.contains(&v) => Ok(v),
        _ => Err(format!("'{s}' is not a digit width: use 1, 2, 4 or 8")),
    }
}

pub(super) fn parse_fraction(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
        _ => Err(format!("'{s}' is not a fraction from 0 to 1")),
    }
}

pub(super) fn parse_sweep(s: &str) -> Result<(f64, f64), String> {
    let (from, to) = parse_range(s)?;
    if [from, to].iter().any(|v| !(0.0..=1.0).contains(v)) {
        return Err(format!(
            "'{s}' leaves 0..1: give FROM..TO, fractions of the key's range (like 0..1, or 1..0 to play it backwards)"
        ));
    }
    Ok((from, to))
}

pub(super) fn parse_hold(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(v) if (0.0..=600.0).contains(&v) => Ok(v),
        _ => Err(format!("'{s}' is not a number of seconds from 0 to 600")),
    }
}

pub(super) fn parse_positive_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v > 0.0 && v <= 1e6 => Ok(v),
        _ => Err(format!("'{s}' is not a positive number")),
    }
}

pub(super) fn parse_hex_colour(s: &str) -> Result<[u8; 3], String> {
    let hex = s.trim_start_matches('#');
    let channel = |i: usize| hex.get(i..i + 2).and_then(|h| u8::from_str_radix(h, 16).ok());
    match (hex.len(), channel(0), channel(2), channel(4)) {
        (6, Some(r), Some(g), Some(b)) => Ok([r, g, b]),
        _ => Err(format!("'{s}' is not a colour like 000000 or ff8800")),
    }
}

/// `WxH`, each side 1 to 16384: the size of `--pattern`'s picture.
pub(super) fn parse_pattern_size(s: &str) -> Result<(u32, u32), String> {
    let bad = || format!("'{s}' is not a size: give WxH with sides from 1 to 16384, like 256x144");
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    let side = |t: &str| t.trim().parse::<u32>().ok().filter(|v| (1..=16384).contains(v));
    Ok((side(w).ok_or_else(bad)?, side(h).ok_or_else(bad)?))
}
