//! The command table checked: no shortcut does two things, every command has a key, a name
//! and help, the guide lists every key, and the keys the brief names do what it says.

use super::*;
use std::collections::HashMap;

#[test]
fn no_two_commands_share_a_shortcut() {
    let mut seen: HashMap<Shortcut, Command> = HashMap::new();
    for spec in command_table() {
        for shortcut in &spec.shortcuts {
            if let Some(other) = seen.insert(*shortcut, spec.command) {
                panic!("{} is bound to both {other:?} and {:?}", shortcut.label(), spec.command);
            }
        }
    }
}

#[test]
fn every_command_has_a_shortcut_a_name_and_help() {
    for spec in command_table() {
        assert!(!spec.shortcuts.is_empty() && !spec.name.is_empty() && !spec.help.is_empty(), "{spec:?}");
    }
}

#[test]
fn the_guide_lists_every_shortcut() {
    let readme = include_str!("../../docs/window.md");
    for spec in command_table() {
        let row = format!("| {} | ", spec.shortcuts_label());
        assert!(
            readme.contains(&row),
            "docs/window.md's shortcut table has no row starting {row:?} ({})",
            spec.name
        );
    }
}

#[test]
fn the_brief_keys_do_what_it_says() {
    use egui::Key::*;
    let t = command_table();
    let cases = [
        (Space, false, Command::PlayPause),
        (ArrowRight, false, Command::StepForward),
        (N, false, Command::StepForward),
        (ArrowLeft, false, Command::StepBack),
        (P, false, Command::StepBack),
        (ArrowRight, true, Command::JumpForward),
        (ArrowLeft, true, Command::JumpBack),
        (Home, false, Command::First),
        (End, false, Command::Last),
        (R, false, Command::Reset),
        (Plus, true, Command::Faster),
        (Minus, false, Command::Slower),
        (Num1, false, Command::ChooseAlgorithm(Algorithm::OddEven)),
        (K, false, Command::CycleKey),
        (O, false, Command::Open),
        (O, true, Command::Camera),
        (G, false, Command::Record),
        (G, true, Command::SortMany),
        (I, false, Command::ToggleIntervalsOverlay),
        (E, false, Command::PaintMask),
        (M, false, Command::CycleIntervalMode),
        (OpenBracket, false, Command::TurnCounterclockwise),
        (CloseBracket, false, Command::TurnClockwise),
        (B, false, Command::BendLines),
        (S, false, Command::SavePng),
        (Comma, false, Command::PreviousFrame),
        (Period, false, Command::NextFrame),
        (J, false, Command::Shader),
        (M, true, Command::Sound),
        (H, false, Command::Help),
        (F1, false, Command::Help),
        (Escape, false, Command::Quit),
        (Q, false, Command::Quit),
    ];
    for (key, shift, command) in cases {
        assert_eq!(command_for(&t, key, shift), Some(command), "{key:?} shift {shift}");
    }
    assert_eq!(command_for(&t, egui::Key::Z, false), None);
}
