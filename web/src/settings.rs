//! The page's settings by name, as its controls send them ([`parse`]), and the test hook's
//! sort specification ([`Job`]); names and values are the command line's.

use crate::state::Input;
use shadersort::algorithms::odd_even::PassKind;
use shadersort::algorithms::radix::RadixSettings;
use shadersort::algorithms::{Algorithm, RunSettings};
use shadersort::controls::commands::Command;
use shadersort::intervals::IntervalMode;
use shadersort::intervals::threshold::parse_range;
use shadersort::keys::SortKey;
use shadersort::keys::options::{Axis, Scope, SortOptions};
use shadersort::keys::radix_key::DIGIT_BITS;
use shadersort::named::Named;

/// A control's value as the change it asks for.
pub fn parse(name: &str, value: &str) -> Result<Input, String> {
    let flag = || match value {
        "true" => Ok(true),
        "false" => Ok(false),
        other => Err(format!("{name}: '{other}' is neither true nor false")),
    };
    let number = || value.parse::<f64>().map_err(|_| format!("{name}: '{value}' is not a number"));
    let choice = |names: &[&str]| format!("{name}: unknown value '{value}'; use {}", names.join(", "));
    Ok(match name {
        "algorithm" => Input::Command(Command::ChooseAlgorithm(
            Algorithm::from_name(value).ok_or_else(|| choice(&Algorithm::names()))?,
        )),
        "key" => Input::Key(SortKey::from_name(value).ok_or_else(|| choice(&SortKey::names()))?),
        "descending" => Input::Descending(flag()?),
        "angle" => Input::Angle(number()?),
        "pass_kind" => Input::PassKind(PassKind::from_name(value).ok_or_else(|| choice(&PassKind::names()))?),
        "phases_per_step" => Input::PhasesPerStep(number()?.clamp(1.0, 1e6) as u32),
        "digit_bits" => Input::DigitBits(number()? as u32),
        "scope" => Input::Scope(Scope::from_name(value).ok_or_else(|| choice(&Scope::names()))?),
        "sub_steps" => Input::SubSteps(flag()?),
        "intervals" => {
            Input::IntervalMode(IntervalMode::from_name(value).ok_or_else(|| choice(&IntervalMode::names()))?)
        }
        "threshold" => {
            let (lo, hi) = parse_range(value).map_err(|e| format!("{name}: {e}"))?;
            Input::Threshold(lo, hi)
        }
        "speed" => Input::Speed(number()?),
        "compare" => Input::Compare(flag()?),
        other => return Err(format!("no setting named '{other}'")),
    })
}

/// How the test hook asks for a sort: `algorithm[:variant]` (`odd-even`, `odd-even:fragment`,
/// `bubble`, `radix`, `radix:4`, `radix:image`, `bitonic`, ...), a key name as on the command line, the
/// order and the axis.
pub struct Job {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Its settings.
    pub settings: RunSettings,
    /// Key, order, axis.
    pub options: SortOptions,
}

impl Job {
    /// Reads a specification; the error names what is wrong.
    pub fn parse(spec: &str, key: &str, descending: bool, columns: bool) -> Result<Job, String> {
        let (name, variant) = spec.split_once(':').unwrap_or((spec, ""));
        let algorithm = Algorithm::from_name(name).ok_or_else(|| format!("unknown algorithm '{name}'"))?;
        let mut settings = RunSettings::default();
        match (algorithm, variant) {
            (_, "") => {}
            (Algorithm::OddEven, kind) => {
                settings.pass_kind =
                    PassKind::from_name(kind).ok_or_else(|| format!("unknown pass kind '{kind}'"))?
            }
            (Algorithm::Radix, "image") => settings.radix.scope = Scope::Image,
            (Algorithm::Radix, bits) => {
                let digit_bits = bits
                    .parse()
                    .ok()
                    .filter(|b| DIGIT_BITS.contains(b))
                    .ok_or_else(|| format!("unknown radix variant '{bits}': use 1, 2, 4, 8 or image"))?;
                settings.radix = RadixSettings { digit_bits, ..settings.radix };
            }
            (Algorithm::Bubble, other) => return Err(format!("the bubble sort has no variant '{other}'")),
            (Algorithm::Bitonic, other) => {
                return Err(format!("the bitonic network has no variant '{other}'"));
            }
        }
        let key = SortKey::from_name(key).ok_or_else(|| format!("unknown key '{key}'"))?;
        let axis = if columns { Axis::Columns } else { Axis::Rows };
        Ok(Job { algorithm, settings, options: SortOptions { key, descending, axis } })
    }
}
