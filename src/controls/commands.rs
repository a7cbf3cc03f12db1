//! The window's commands and their shortcuts: one table that drives the keyboard, the buttons'
//! tooltips and the help overlay.

use crate::algorithms::Algorithm;

/// Everything the window can be told to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Command {
    /// Start or stop playing.
    PlayPause,
    /// One pass forward.
    StepForward,
    /// One pass back.
    StepBack,
    /// 10% of the passes forward.
    JumpForward,
    /// 10% of the passes back.
    JumpBack,
    /// The input picture.
    First,
    /// The last pass.
    Last,
    /// Back to the input and stop.
    Reset,
    /// More passes per second.
    Faster,
    /// Fewer passes per second.
    Slower,
    /// Sort with this algorithm.
    ChooseAlgorithm(Algorithm),
    /// The next sort key.
    CycleKey,
    /// Largest key first, or smallest.
    ToggleReverse,
    /// Rows or columns.
    ToggleAxis,
    /// The sort direction 15° clockwise (on screen).
    TurnClockwise,
    /// The sort direction 15° counterclockwise.
    TurnCounterclockwise,
    /// Straight lines to rings, rays, the spiral, the Hilbert curve, and back to rows.
    BendLines,
    /// Compute or fragment passes.
    TogglePassKind,
    /// Radix: the next digit width (1, 2, 4, 8 bits).
    CycleDigitBits,
    /// Radix: each line, or the whole picture as one sequence.
    ToggleScope,
    /// Radix: show each scatter in stages, or each digit pass at once.
    ToggleSubSteps,
    /// Intervals: the next mode (none, threshold, edges, random).
    CycleIntervalMode,
    /// Intervals: show the intervals over the picture, or not.
    ToggleIntervalsOverlay,
    /// Paint the mask with the brush (drags paint instead of panning).
    PaintMask,
    /// Every algorithm side by side.
    ToggleCompare,
    /// The picture, then each built-in input that teaches, in turn.
    CycleInput,
    /// Side-by-side lanes in step by pass, or by time.
    ToggleSync,
    /// Zoom so the picture fits the window.
    FitToWindow,
    /// One picture pixel per screen pixel.
    ActualSize,
    /// Open a picture or a clip.
    Open,
    /// Show the camera live, every frame sorted.
    Camera,
    /// A clip: the frame before, paused.
    PreviousFrame,
    /// A clip: the frame after, paused.
    NextFrame,
    /// Record the run (GIF, animated PNG or PNG frames).
    Record,
    /// Sort many pictures with these settings into files: natively a folder, in the page files.
    SortMany,
    /// Save the current state as PNG.
    SavePng,
    /// Open or close the row lens.
    ToggleLens,
    /// Move the row lens this many lines.
    MoveLens(i32),
    /// Open or close the shader panel: the kernel the last step dispatched.
    Shader,
    /// Hear each step as it is shown, or not.
    Sound,
    /// Show or hide the list of shortcuts.
    Help,
    /// Close the window.
    Quit,
}

impl Command {
    /// Whether the command moves the player (play, step, jump, first, last, reset, speed)
    /// rather than changing what is sorted.
    pub fn moves_player(self) -> bool {
        matches!(
            self,
            Command::PlayPause
                | Command::StepForward
                | Command::StepBack
                | Command::JumpForward
                | Command::JumpBack
                | Command::First
                | Command::Last
                | Command::Reset
                | Command::Faster
                | Command::Slower
        )
    }
}

/// A shortcut: a keyboard key, with or without Shift.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shortcut {
    /// The keyboard key.
    pub key: egui::Key,
    /// Whether Shift is held.
    pub shift: bool,
}

impl Shortcut {
    const fn plain(key: egui::Key) -> Self {
        Shortcut { key, shift: false }
    }

    const fn shifted(key: egui::Key) -> Self {
        Shortcut { key, shift: true }
    }

    /// How the help overlay writes it.
    pub fn label(&self) -> String {
        let name = match self.key {
            egui::Key::ArrowRight => "Right",
            egui::Key::ArrowLeft => "Left",
            egui::Key::ArrowUp => "Up",
            egui::Key::ArrowDown => "Down",
            egui::Key::Plus => "+",
            egui::Key::Minus => "-",
            egui::Key::Equals => "=",
            egui::Key::OpenBracket => "[",
            egui::Key::CloseBracket => "]",
            egui::Key::Comma => ",",
            egui::Key::Period => ".",
            other => other.name(),
        };
        if self.shift { format!("Shift+{name}") } else { name.to_string() }
    }
}

/// One row of the table.
#[derive(Clone, Debug)]
pub struct CommandSpec {
    /// The command.
    pub command: Command,
    /// Its shortcuts.
    pub shortcuts: Vec<Shortcut>,
    /// Short name for buttons and the help overlay.
    pub name: String,
    /// One sentence for tooltips.
    pub help: &'static str,
}

impl CommandSpec {
    /// The shortcuts as the help overlay and tooltips show them: "Right or N".
    pub fn shortcuts_label(&self) -> String {
        self.shortcuts.iter().map(Shortcut::label).collect::<Vec<_>>().join(" or ")
    }
}

fn spec(command: Command, shortcuts: &[Shortcut], name: &str, help: &'static str) -> CommandSpec {
    CommandSpec { command, shortcuts: shortcuts.to_vec(), name: name.to_string(), help }
}

/// Shift+G's name and help: natively a folder, in the page pictures picked together.
#[cfg(not(target_arch = "wasm32"))]
const SORT_MANY: (&str, &str) = (
    "Sort a folder...",
    "Sort every picture and clip in a folder with these settings into the folder beside it named <folder>-sorted (kept outputs are not replaced)",
);
#[cfg(target_arch = "wasm32")]
const SORT_MANY: (&str, &str) =
    ("Sort many...", "Sort many pictures with these settings, downloaded together as sorted.zip");

/// The keyboard's digits for choosing algorithms, in [`Algorithm::ALL`] order.
const DIGITS: [egui::Key; 9] = [
    egui::Key::Num1,
    egui::Key::Num2,
    egui::Key::Num3,
    egui::Key::Num4,
    egui::Key::Num5,
    egui::Key::Num6,
    egui::Key::Num7,
    egui::Key::Num8,
    egui::Key::Num9,
];

/// Every command with its shortcuts, in the order the help overlay lists them.
pub fn command_table() -> Vec<CommandSpec> {
    use egui::Key::*;
    let p = Shortcut::plain;
    let mut table = vec![
        spec(Command::PlayPause, &[p(Space)], "Play / pause", "Run steps continuously at the chosen speed"),
        spec(Command::StepForward, &[p(ArrowRight), p(N)], "Step", "One step forward"),
        spec(Command::StepBack, &[p(ArrowLeft), p(P)], "Back", "One step back (recomputed from the input)"),
        spec(
            Command::JumpForward,
            &[Shortcut::shifted(ArrowRight)],
            "Jump +10%",
            "A tenth of the steps forward",
        ),
        spec(Command::JumpBack, &[Shortcut::shifted(ArrowLeft)], "Jump -10%", "A tenth of the steps back"),
        spec(Command::First, &[p(Home)], "First", "The input picture, step 0"),
        spec(Command::Last, &[p(End)], "Last", "The last step: the sorted picture"),
        spec(Command::Reset, &[p(R)], "Reset", "Back to the input and stop playing"),
        spec(Command::Faster, &[p(Plus), p(Equals)], "Faster", "More steps per second"),
        spec(Command::Slower, &[p(Minus)], "Slower", "Fewer steps per second"),
    ];
    for (algorithm, digit) in Algorithm::ALL.into_iter().zip(DIGITS) {
        table.push(spec(
            Command::ChooseAlgorithm(algorithm),
            &[p(digit)],
            algorithm.title(),
            "Sort with this algorithm",
        ));
    }
    table.extend([
        spec(Command::CycleKey, &[p(K)], "Next key", "Sort by the next key: luma, hue, saturation, ..."),
        spec(Command::ToggleReverse, &[p(X)], "Reverse", "Largest key first, or smallest"),
        spec(
            Command::ToggleAxis,
            &[p(A)],
            "Rows / columns",
            "Sort rows or columns (from any other angle: rows)",
        ),
        spec(
            Command::TurnCounterclockwise,
            &[p(OpenBracket)],
            "Turn -15°",
            "Turn the sort direction 15° counterclockwise (0° rows, 90° columns, 180° rows right to left)",
        ),
        spec(
            Command::TurnClockwise,
            &[p(CloseBracket)],
            "Turn +15°",
            "Turn the sort direction 15° clockwise (0° rows, 90° columns, 180° rows right to left)",
        ),
        spec(
            Command::BendLines,
            &[p(B)],
            "Bend the lines",
            "Sort along rings, then rays, a spiral, the Hilbert curve, and straight rows again (Shift+click sets the centre)",
        ),
        spec(
            Command::TogglePassKind,
            &[p(T)],
            "Compute / fragment",
            "Run passes as a compute kernel or a fragment shader",
        ),
        spec(Command::CycleDigitBits, &[p(D)], "Digit bits", "Radix: 1, 2, 4 or 8 bits per digit pass"),
        spec(
            Command::ToggleScope,
            &[p(W)],
            "Lines / whole picture",
            "Radix: sort each line, or the whole picture as one sequence",
        ),
        spec(
            Command::ToggleSubSteps,
            &[p(U)],
            "Sub-steps",
            "Radix: show each scatter in stages over the dimmed input",
        ),
        spec(
            Command::CycleIntervalMode,
            &[p(M)],
            "Interval mode",
            "Sort within intervals: none (whole lines), threshold, edges or random",
        ),
        spec(
            Command::ToggleIntervalsOverlay,
            &[p(I)],
            "Show intervals",
            "Mark the intervals over the picture: fixed pixels darkened, interval starts magenta",
        ),
        spec(
            Command::PaintMask,
            &[p(E)],
            "Paint the mask",
            "Drag on the picture to paint where pixels may move (Shift: where they stay); S saves the mask too",
        ),
        spec(
            Command::ToggleCompare,
            &[p(C)],
            "Side by side",
            "Every algorithm and pass kind on the same picture",
        ),
        spec(
            Command::ToggleSync,
            &[p(V)],
            "Sync by step / time",
            "Side by side: the same steps each, or the same time each",
        ),
        spec(
            Command::CycleInput,
            &[Shortcut::shifted(I)],
            "Next input",
            "The picture, then inputs that teach: noise, sorted, reversed, few distinct, nearly sorted, sawtooth",
        ),
        spec(Command::FitToWindow, &[p(F)], "Fit", "Zoom so the whole picture fits"),
        spec(Command::ActualSize, &[p(Num0)], "1:1", "One picture pixel per screen pixel"),
        spec(
            Command::Open,
            &[p(O)],
            "Open...",
            "Open a picture or a clip (a video, an animated GIF, a folder of frames), or drop one on the window",
        ),
        spec(
            Command::Camera,
            &[Shortcut::shifted(O)],
            "Camera",
            "Show the camera live, every frame sorted as it comes (Space pauses on a frame)",
        ),
        spec(Command::PreviousFrame, &[p(Comma)], "Frame back", "A clip: the frame before, paused"),
        spec(Command::NextFrame, &[p(Period)], "Frame on", "A clip: the frame after, paused"),
        spec(
            Command::Record,
            &[p(G)],
            "Record",
            "Record this run as --record does: GIF, animated PNG or PNG frames, as the panel chooses; a clip: every frame sorted; a live source: its frames as shown, until G again",
        ),
        spec(
            Command::SortMany,
            &[Shortcut::shifted(G)],
            SORT_MANY.0,
            SORT_MANY.1,
        ),
        spec(
            Command::SavePng,
            &[p(S)],
            "Save PNG",
            "Save the current state as a PNG (with the lens open, also the window as shown)",
        ),
        spec(
            Command::ToggleLens,
            &[p(L)],
            "Row lens",
            "Inspect one line as bars (height = key, colour = pixel) with what each step did; click a line to choose it",
        ),
        spec(Command::MoveLens(-1), &[p(ArrowUp)], "Lens up", "The lens on the line before"),
        spec(Command::MoveLens(1), &[p(ArrowDown)], "Lens down", "The lens on the line after"),
        spec(Command::MoveLens(-10), &[Shortcut::shifted(ArrowUp)], "Lens up 10", "The lens ten lines before"),
        spec(Command::MoveLens(10), &[Shortcut::shifted(ArrowDown)], "Lens down 10", "The lens ten lines after"),
        spec(
            Command::Shader,
            &[p(J)],
            "Shader",
            "Show the WGSL kernel the last step dispatched: its uniform's values, its constants and its size",
        ),
        spec(
            Command::Sound,
            &[Shortcut::shifted(M)],
            "Sound",
            "Hear each step: the pixels it moved on the lens's line (or the middle line) as tones, higher for larger keys",
        ),
        spec(Command::Help, &[p(H), p(F1)], "Help", "Show or hide this list of shortcuts"),
        spec(Command::Quit, &[p(Escape), p(Q)], "Quit", "Close the window"),
    ]);
    table
}

/// The command a keyboard key press means. A keyboard key that has no Shift binding of its own also works with
/// Shift held, so "+" typed as Shift+= still means Faster.
pub fn command_for(table: &[CommandSpec], key: egui::Key, shift: bool) -> Option<Command> {
    let find = |wanted: Shortcut| table.iter().find(|s| s.shortcuts.contains(&wanted)).map(|s| s.command);
    find(Shortcut { key, shift }).or_else(|| if shift { find(Shortcut::plain(key)) } else { None })
}

/// The table row of a command.
pub fn spec_of(table: &[CommandSpec], command: Command) -> &CommandSpec {
    table.iter().find(|s| s.command == command).expect("every command is in the table")
}

#[cfg(test)]
#[path = "commands_tests.rs"]
mod tests;
