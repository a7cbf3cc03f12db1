//! What is sorted and how, as a viewer's commands choose it: the algorithm, the key and its order,
//! the direction, the pass kind and radix settings, and the side-by-side view. [`SortChoice::after`]
//! says what each command of the table changes; the window applies the result and starts its
//! lanes over from the input.

use super::commands::Command;
use super::lane_plan::LaneSync;
use crate::algorithms::{Algorithm, RunSettings};
use crate::angle::Route;
use crate::angle::route::TURN_DEGREES;
use crate::keys::SortKey;
use crate::keys::options::Scope;
use crate::keys::radix_key::next_digit_bits;

/// The choices the sort-changing commands edit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SortChoice {
    /// The algorithm (1 to 4).
    pub algorithm: Algorithm,
    /// The key (K).
    pub key: SortKey,
    /// Largest key first (X).
    pub descending: bool,
    /// What the lines follow (A, `[`, `]`, B).
    pub route: Route,
    /// Pass kind (T), phases per step, radix digit width (D), scope (W) and sub-steps (U).
    pub settings: RunSettings,
    /// Every algorithm side by side (C).
    pub compare: bool,
    /// How side-by-side lanes keep together (V).
    pub sync: LaneSync,
}

impl SortChoice {
    /// The choice after `command`, which changes one thing; `None` for a command that changes
    /// nothing here (it moves the player, the view or the lens, cuts intervals, or opens or saves).
    pub fn after(self, command: Command) -> Option<SortChoice> {
        let mut next = self;
        let radix = &mut next.settings.radix;
        match command {
            Command::ChooseAlgorithm(algorithm) => next.algorithm = algorithm,
            Command::CycleKey => next.key = self.key.next(),
            Command::ToggleReverse => next.descending = !self.descending,
            Command::ToggleAxis => next.route = self.route.toggled_axis(),
            Command::TurnClockwise => next.route = self.route.turned(TURN_DEGREES),
            Command::TurnCounterclockwise => next.route = self.route.turned(-TURN_DEGREES),
            Command::BendLines => next.route = self.route.bent(),
            Command::TogglePassKind => next.settings.pass_kind = self.settings.pass_kind.toggled(),
            Command::CycleDigitBits => radix.digit_bits = next_digit_bits(radix.digit_bits),
            Command::ToggleScope => {
                radix.scope = match radix.scope {
                    Scope::Rows => Scope::Image,
                    Scope::Image => Scope::Rows,
                }
            }
            Command::ToggleSubSteps => radix.sub_steps = !radix.sub_steps,
            Command::ToggleCompare => next.compare = !self.compare,
            Command::ToggleSync => {
                next.sync = match self.sync {
                    LaneSync::ByStep => LaneSync::ByTime,
                    LaneSync::ByTime => LaneSync::ByStep,
                }
            }
            _ => return None,
        }
        Some(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::odd_even::PassKind;
    use crate::algorithms::radix::RadixSettings;
    use crate::angle::Angle;
    use crate::controls::commands::command_table;

    /// How a window starts: odd-even by luma along rows, compute passes, alone.
    fn start() -> SortChoice {
        SortChoice {
            algorithm: Algorithm::OddEven,
            key: SortKey::Luma,
            descending: false,
            route: Route::default(),
            settings: RunSettings {
                pass_kind: PassKind::Compute,
                phases_per_step: 1,
                radix: RadixSettings::DEFAULT,
            },
            compare: false,
            sync: LaneSync::ByStep,
        }
    }

    /// `command` applied `n` times from `from`.
    fn times(from: SortChoice, command: Command, n: usize) -> SortChoice {
        (0..n).fold(from, |c, _| c.after(command).unwrap_or_else(|| panic!("{command:?} changes nothing")))
    }

    fn degrees(c: SortChoice) -> f64 {
        c.route.angle().expect("straight lines").degrees()
    }

    #[test]
    fn k_cycles_through_every_key_and_x_flips_the_order() {
        let s = start();
        let keys: Vec<SortKey> =
            (0..SortKey::ALL.len()).map(|n| times(s, Command::CycleKey, n).key).collect();
        assert_eq!(keys, SortKey::ALL.to_vec());
        assert_eq!(times(s, Command::CycleKey, SortKey::ALL.len()), s);
        assert!(times(s, Command::ToggleReverse, 1).descending);
        assert_eq!(times(s, Command::ToggleReverse, 2), s);
    }

    #[test]
    fn a_toggles_rows_and_columns_and_brackets_turn_15_degrees() {
        let s = start();
        assert_eq!(times(s, Command::ToggleAxis, 1).route, Route::Angle(Angle::COLUMNS));
        assert_eq!(times(s, Command::ToggleAxis, 2).route, Route::Angle(Angle::ROWS));
        // `]` turns clockwise on screen: rows (0°) to 15°; `[` the other way, to 345°.
        assert_eq!(degrees(times(s, Command::TurnClockwise, 1)), 15.0);
        assert_eq!(degrees(times(s, Command::TurnCounterclockwise, 1)), 345.0);
        assert_eq!(degrees(times(s, Command::TurnClockwise, 6)), 90.0);
        assert_eq!(times(s, Command::TurnClockwise, 6).route, Route::Angle(Angle::COLUMNS));
        let turned = times(s, Command::TurnClockwise, 2);
        assert_eq!(turned.after(Command::TurnCounterclockwise).map(degrees), Some(15.0));
        // B bends straight lines into rings, and back to rows after the Hilbert curve.
        assert_eq!(times(s, Command::BendLines, 1).route.name(), "rings around the middle");
        assert_eq!(times(turned, Command::BendLines, 5).route, Route::Angle(Angle::ROWS));
        // From any angle but rows, A goes to rows.
        assert_eq!(turned.after(Command::ToggleAxis).map(|c| c.route), Some(Route::Angle(Angle::ROWS)));
    }

    #[test]
    fn t_d_w_and_u_change_the_pass_kind_and_the_radix_view() {
        let s = start();
        assert_eq!(times(s, Command::TogglePassKind, 1).settings.pass_kind, PassKind::Fragment);
        assert_eq!(times(s, Command::TogglePassKind, 2), s);
        let bits: Vec<u32> =
            (0..5).map(|n| times(s, Command::CycleDigitBits, n).settings.radix.digit_bits).collect();
        assert_eq!(bits, [4, 8, 1, 2, 4]);
        assert_eq!(times(s, Command::ToggleScope, 1).settings.radix.scope, Scope::Image);
        assert_eq!(times(s, Command::ToggleScope, 2), s);
        assert!(times(s, Command::ToggleSubSteps, 1).settings.radix.sub_steps);
        assert_eq!(times(s, Command::ToggleSubSteps, 2), s);
    }

    #[test]
    fn digits_choose_the_algorithm_and_c_and_v_the_side_by_side_view() {
        let s = start();
        for algorithm in Algorithm::ALL {
            assert_eq!(times(s, Command::ChooseAlgorithm(algorithm), 1).algorithm, algorithm);
        }
        assert!(times(s, Command::ToggleCompare, 1).compare);
        assert_eq!(times(s, Command::ToggleSync, 1).sync, LaneSync::ByTime);
        assert_eq!(times(s, Command::ToggleSync, 2), s);
    }

    #[test]
    fn each_command_changes_one_choice_or_none() {
        // What each choice reads as, to count the ones a command changed.
        let parts = |c: SortChoice| {
            let r = c.settings.radix;
            [
                format!("{:?}", c.algorithm),
                format!("{:?}", c.key),
                format!("{}", c.descending),
                c.route.name(),
                format!("{:?}", c.settings.pass_kind),
                format!("{}", r.digit_bits),
                format!("{:?}", r.scope),
                format!("{}", r.sub_steps),
                format!("{}", c.compare),
                format!("{:?}", c.sync),
            ]
        };
        let s = times(start(), Command::ChooseAlgorithm(Algorithm::Radix), 1);
        for spec in command_table() {
            let changed = s
                .after(spec.command)
                .map(|next| parts(s).iter().zip(parts(next)).filter(|(a, b)| *a != b).count());
            let sorts = !spec.command.moves_player()
                && !matches!(
                    spec.command,
                    Command::CycleIntervalMode
                        | Command::ToggleIntervalsOverlay
                        | Command::PaintMask
                        | Command::FitToWindow
                        | Command::ActualSize
                        | Command::Open
                        | Command::Camera
                        | Command::CycleInput
                        | Command::PreviousFrame
                        | Command::NextFrame
                        | Command::Record
                        | Command::SortMany
                        | Command::SavePng
                        | Command::ToggleLens
                        | Command::MoveLens(_)
                        | Command::Shader
                        | Command::Sound
                        | Command::Help
                        | Command::Quit
                );
            // Choosing the algorithm already chosen changes nothing, but is still a choice.
            let expected = match spec.command {
                Command::ChooseAlgorithm(Algorithm::Radix) => Some(0),
                _ if sorts => Some(1),
                _ => None,
            };
            assert_eq!(changed, expected, "{} ({})", spec.name, spec.shortcuts_label());
        }
    }
}
