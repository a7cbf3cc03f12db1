//! The window's panel model: what the egui interface reads each frame ([`UiModel`], a
//! [`LaneView`] per lane), what it keeps between frames ([`UiState`]), and what it reports
//! back ([`Action`]). The drawing code (`ui`, `interval_panel`) depends on it, never the
//! other way round.

use super::lanes::LaneSync;
use super::zoom::Zoom;
use crate::algorithms::Algorithm;
use crate::algorithms::odd_even::PassKind;
use crate::algorithms::radix::RadixSettings;
use crate::angle::Route;
use crate::controls::commands::{Command, CommandSpec};
use crate::intervals::IntervalSettings;
use crate::keys::SortKey;
use crate::record::RecordFormat;

/// What the user asked for this frame.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// A command from the table (a button or a key).
    Command(Command),
    /// A new algorithm.
    SetAlgorithm(Algorithm),
    /// A new key.
    SetKey(SortKey),
    /// Sort a built-in input that teaches, or (`None`) the picture again.
    SetInput(Option<crate::picture::teaching::Pattern>),
    /// Largest first or not.
    SetReverse(bool),
    /// What the lines follow (rows, columns, degrees, or a path and its centre).
    SetRoute(Route),
    /// Compute or fragment.
    SetPassKind(PassKind),
    /// Radix digit width, key bits, scope, sub-steps.
    SetRadix(RadixSettings),
    /// Side by side or not.
    SetCompare(bool),
    /// How side-by-side lanes keep together.
    SetSync(LaneSync),
    /// A pass chosen on the slider.
    GoTo(u32),
    /// A brush stroke from one point to another, in picture pixels: where pixels may move, or
    /// (`stays`) where they stay.
    Paint {
        /// Where the stroke starts.
        from: (f32, f32),
        /// Where it ends.
        to: (f32, f32),
        /// Keep the pixels in place rather than let them move.
        stays: bool,
    },
    /// Every pixel that may move stays, and the other way round.
    InvertMask,
    /// The mask made of the intervals in use: what can move there may move.
    FillMaskFromRuns,
    /// Save the mask as a PNG that `--mask` reads.
    SaveMask,
    /// Stop the recording under way.
    CancelRecording,
    /// New interval settings (mode, key, threshold, ...).
    SetIntervals(IntervalSettings),
    /// Open the row lens on the line through this picture pixel.
    Inspect(u32, u32),
    /// Load the mask at this path.
    LoadMask(std::path::PathBuf),
    /// Choose a mask in a file dialog.
    BrowseMask,
    /// Sort without the mask.
    ClearMask,
    /// Show this frame of the clip (counted from 0), paused.
    SeekClip(u64),
}

/// One lane as the UI shows it.
pub struct LaneView {
    /// The lane's algorithm.
    pub algorithm: Algorithm,
    /// "Odd-even transposition (compute)".
    pub label: String,
    /// "odd-even compute".
    pub short_label: String,
    /// What draws the lane's picture.
    pub picture: super::display::PictureDraw,
    /// Passes done and the lane's total.
    pub passes: (u32, u32),
    /// Swaps (or pixels moved) of the last step counted on the GPU.
    pub last_swaps: Option<u32>,
    /// What `last_swaps` counts: "swaps" or "pixels moved".
    pub moves_name: &'static str,
    /// When the lane became known sorted.
    pub sorted_after: Option<u32>,
    /// GPU time per pass, from timestamps.
    pub gpu_ms_per_step: Option<f64>,
    /// Whether the lane sorts within the intervals (the overlay is drawn over it then).
    pub in_intervals: bool,
    /// Why the lane sorts without the intervals although there are some, if it does.
    pub notice: Option<String>,
}

/// Everything the UI shows.
pub struct UiModel<'a> {
    /// The command table.
    pub commands: &'a [CommandSpec],
    /// How messages name the picture.
    pub picture_label: &'a str,
    /// Picture size.
    pub size: (u32, u32),
    /// The adapter.
    pub adapter: &'a str,
    /// Chosen algorithm.
    pub algorithm: Algorithm,
    /// Chosen pass kind.
    pub pass_kind: PassKind,
    /// Radix settings.
    pub radix: RadixSettings,
    /// Chosen key.
    pub key: SortKey,
    /// Largest first.
    pub reverse: bool,
    /// What the lines follow.
    pub route: Route,
    /// Side by side.
    pub compare: bool,
    /// How side-by-side lanes keep together.
    pub sync: LaneSync,
    /// What the counter counts: "pass" or "step".
    pub step_noun: String,
    /// Passes done (the furthest lane).
    pub steps_done: u32,
    /// Passes in all.
    pub total_steps: u32,
    /// Playing or paused.
    pub playing: bool,
    /// Passes per second.
    pub speed: f64,
    /// The lanes.
    pub lanes: Vec<LaneView>,
    /// Wall milliseconds per pass, all lanes.
    pub wall_ms_per_pass: Option<f64>,
    /// Frames per second of the window.
    pub fps: f64,
    /// A few sentences on what the algorithm does, with the current numbers.
    pub explanation: String,
    /// What the last step and the run so far cost on the GPU, beside the analysis.
    pub work: String,
    /// A recording under way: done, expected, path, and what is counted ("frames").
    pub recording: Option<(u64, u64, String, &'static str)>,
    /// A take of the live source under way: frames captured, frames left out, path.
    pub take: Option<(u64, u64, String)>,
    /// How the lines are cut into intervals.
    pub intervals: IntervalSettings,
    /// The loaded mask's file, if any.
    pub mask_label: Option<String>,
    /// Whether the intervals are drawn over the pictures.
    pub show_intervals: bool,
    /// The intervals in numbers, if the sort is within intervals.
    pub intervals_summary: Option<String>,
    /// The intervals drawn for the overlay, while it is shown.
    pub intervals_overlay: Option<egui::TextureId>,
    /// While painting, the pixels that stay, tinted.
    pub mask_overlay: Option<egui::TextureId>,
    /// The row lens, while it is open: per lane, the line read back, or why it could not be.
    pub lens: Option<&'a [Option<Result<crate::lens::LensReading, String>>]>,
    /// The clip playing, when a clip is open.
    pub clip: Option<ClipView>,
    /// The live source, when one is shown.
    pub live: Option<LiveView>,
    /// The built-in input shown, if one is (else the picture).
    pub input: Option<crate::picture::teaching::Pattern>,
    /// The shader panel's kernels, while it is open.
    pub shader: Option<ShaderView>,
    /// Whether each step is heard (Shift+M), and why it cannot be where it cannot.
    pub sound: (bool, Option<&'a str>),
}

/// What the shader panel shows: the kernels of one lane's last step (before any step, of its
/// first).
pub struct ShaderView {
    /// The lane (an index into [`UiModel::lanes`]).
    pub lane: usize,
    /// Steps the lane has run.
    pub steps_done: u32,
    /// The step's kernels in the order it runs them; empty where the run cannot name them.
    pub kernels: Vec<crate::algorithms::kernel_view::Dispatch>,
    /// The lens's pixel's position on the lane's line, while the lens is open.
    pub position: Option<usize>,
    /// What the step cost on the GPU, once counted.
    pub cost: Option<String>,
}

/// What the UI keeps between frames.
pub struct UiState {
    /// The help overlay is open.
    pub help_open: bool,
    /// Chosen zoom; `None` fits the window.
    pub zoom: Option<Zoom>,
    /// Pan in points from the centred position.
    pub pan: egui::Vec2,
    /// How far a pinch (or Ctrl and the wheel) has zoomed since the zoom last took a step.
    pub pinch: f32,
    /// The last message (errors in red).
    pub status: Status,
    /// The mask path being typed.
    pub mask_path: String,
    /// The mask brush, while painting (E); `None` while drags pan.
    pub brush: Option<Brush>,
    /// How the lens strip is zoomed and panned.
    pub lens_zoom: LensZoom,
    /// The lens's bars, one texture per lane, drawn anew each frame.
    pub lens_textures: Vec<egui::TextureHandle>,
    /// What G records: GIF, animated PNG or PNG frames.
    pub record_format: RecordFormat,
    /// The shader panel (J) is open.
    pub shader_open: bool,
    /// How loud the steps sound, 0 to 1.
    pub volume: f32,
    /// The lane whose kernels the shader panel shows.
    pub shader_lane: usize,
    /// The entry point chosen among a step's kernels; `None` (or one the step did not run) shows
    /// the last, which moves the pixels.
    pub shader_entry: Option<&'static str>,
    /// The kernel (program and entry) the panel last scrolled to its entry: it scrolls once
    /// when the kernel shown changes, and leaves the reader's scrolling alone between.
    pub shader_scrolled: Option<(&'static str, &'static str)>,
}

/// The brush while painting.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Brush {
    /// Radius in picture pixels: pixels whose centre it covers are painted.
    pub radius: f32,
    /// Paint where pixels stay (as Shift does), not where they may move.
    pub stays: bool,
}

impl Brush {
    /// The smallest radius: half a pixel paints the pixel under the pointer.
    pub const MIN_RADIUS: f32 = 0.5;

    /// The brush painting starts with on a picture of `size`: a 64th of its longer side (half a
    /// pixel at least), so a stroke is a fine line on any picture.
    pub fn for_picture((width, height): (u32, u32)) -> Brush {
        Brush { radius: (width.max(height) as f32 / 64.0).max(Self::MIN_RADIUS), stays: false }
    }
}

/// The lens strip's zoom: bar width and the first position shown.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LensZoom {
    /// Points per bar; `None` fits the whole line.
    pub bar_width: Option<f32>,
    /// The first position shown (fractional while panning).
    pub first: f32,
}

impl Default for UiState {
    fn default() -> Self {
        UiState {
            help_open: false,
            zoom: None,
            pan: egui::Vec2::ZERO,
            pinch: 1.0,
            status: Status::default(),
            mask_path: String::new(),
            brush: None,
            lens_zoom: LensZoom::default(),
            lens_textures: Vec::new(),
            record_format: RecordFormat::Gif,
            shader_open: false,
            volume: 0.5,
            shader_lane: 0,
            shader_entry: None,
            shader_scrolled: None,
        }
    }
}

impl UiState {
    /// E: turns painting on (with the brush for a picture of `size`) or off, and says so.
    pub fn toggle_painting(&mut self, size: (u32, u32)) {
        self.brush = match self.brush {
            Some(_) => None,
            None => Some(Brush::for_picture(size)),
        };
        self.status.say(if self.brush.is_some() {
            "painting the mask: drag where pixels may move, Shift+drag where they stay (E stops)"
        } else {
            "painting stopped"
        });
    }

    /// F fits the picture to the window, 0 shows it at one picture pixel per screen pixel (both
    /// centred again), H opens or closes the list of shortcuts, J the shader panel (and says
    /// so); other commands change nothing here.
    pub fn view(&mut self, command: Command) {
        match command {
            Command::FitToWindow => (self.zoom, self.pan) = (None, egui::Vec2::ZERO),
            Command::ActualSize => (self.zoom, self.pan) = (Some(Zoom::In(1)), egui::Vec2::ZERO),
            Command::Help => self.help_open = !self.help_open,
            Command::Shader => {
                self.shader_open = !self.shader_open;
                // Opened again, it scrolls to the entry again.
                self.shader_scrolled = None;
                self.status.say(if self.shader_open { "shader panel open" } else { "shader panel closed" });
            }
            _ => {}
        }
    }
}

/// The status line: the last message, and whether it is an error (shown in red). The session
/// and the views report through it.
#[derive(Default)]
pub struct Status {
    /// The message.
    pub line: String,
    /// Whether it is an error.
    pub is_error: bool,
}

impl Status {
    /// Shows a message (and logs it, so scripts can follow the window).
    pub fn say(&mut self, message: impl Into<String>) {
        self.line = message.into();
        self.is_error = false;
        log::info!("{}", self.line);
    }

    /// Shows an error (and logs it).
    pub fn error(&mut self, message: impl Into<String>) {
        self.line = message.into();
        self.is_error = true;
        log::warn!("{}", self.line);
    }
}

/// What the panel shows of a live source.
pub struct LiveView {
    /// The source as named.
    pub label: String,
    /// Frames shown.
    pub shown: u64,
    /// Frames the source sent.
    pub received: u64,
    /// Frames dropped because the window was busy.
    pub dropped: u64,
    /// Whether it is paused on a frame.
    pub paused: bool,
    /// Whether the source ended.
    pub ended: bool,
    /// From a frame's arrival until the window knew it drawn sorted.
    pub latency: Option<crate::picture::latency::LatencySummary>,
}

/// What the panel shows of the clip.
pub struct ClipView {
    /// The frame shown, counted from 1.
    pub frame: u64,
    /// Frames in the clip.
    pub frames: u64,
    /// Frames per second.
    pub fps: f64,
    /// Whether it is playing.
    pub playing: bool,
    /// Where G writes the sorted clip.
    pub record_path: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f_fits_the_picture_0_shows_it_one_to_one_and_h_toggles_the_key_list() {
        let mut ui = UiState { zoom: Some(Zoom::In(3)), pan: egui::vec2(40.0, -7.0), ..Default::default() };
        ui.view(Command::ActualSize);
        assert_eq!((ui.zoom, ui.pan), (Some(Zoom::In(1)), egui::Vec2::ZERO));
        ui.pan = egui::vec2(5.0, 5.0);
        ui.view(Command::FitToWindow);
        assert_eq!((ui.zoom, ui.pan), (None, egui::Vec2::ZERO));
        ui.view(Command::Help);
        assert!(ui.help_open);
        ui.view(Command::Help);
        assert!(!ui.help_open);
        ui.view(Command::StepForward);
        assert_eq!((ui.zoom, ui.help_open), (None, false));
    }

    #[test]
    fn j_opens_and_closes_the_shader_panel_which_then_scrolls_to_the_entry_again() {
        let mut ui = UiState::default();
        ui.view(Command::Shader);
        assert!(ui.shader_open);
        assert_eq!(ui.status.line, "shader panel open");
        ui.shader_scrolled = Some(("odd_even", "odd_even_compute"));
        ui.view(Command::Shader);
        assert_eq!((ui.shader_open, ui.shader_scrolled), (false, None));
        assert_eq!(ui.status.line, "shader panel closed");
        ui.view(Command::Help);
        assert!(!ui.shader_open);
    }
}
