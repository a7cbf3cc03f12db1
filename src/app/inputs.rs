//! The built-in inputs that teach, in place of the picture (the panel's Input, Shift+I): each
//! made for the sort's key, order and axis, made again when they change, and the picture shown
//! before kept to go back to.

use super::Running;
use crate::keys::options::SortOptions;
use crate::picture::input::Picture;
use crate::picture::teaching::Pattern;

/// The size of an input in the window and the page: 16:9, small enough to watch odd-even's 256
/// passes a row.
const INPUT_SIZE: (u32, u32) = (256, 144);

/// A built-in input shown in place of the picture.
pub(super) struct ShownInput {
    /// Which.
    pub(super) pattern: Pattern,
    /// The sort it was made for.
    options: SortOptions,
    /// The picture shown before, and its size before fitting.
    before: (Picture, (u32, u32)),
}

impl Running {
    /// Shows `pattern` made for the sort chosen now, or with `None` the picture shown before.
    pub(super) fn set_input(&mut self, pattern: Option<Pattern>) {
        let shown = self.input.take();
        let Some(pattern) = pattern else {
            if let Some(ShownInput { before: (picture, size), .. }) = shown {
                let label = picture.label.clone();
                self.show_picture(picture, size);
                self.ui.status.say(format!("back to {label}"));
            }
            return;
        };
        // An input takes a clip's or a live source's place as a picture opened would.
        self.source = super::Source::Picture;
        self.opening = None;
        let options = self.session.options();
        let before =
            shown.map_or_else(|| (self.session.picture.clone(), self.session.source_size), |s| s.before);
        let picture = Picture::of_pattern(pattern, INPUT_SIZE, &options);
        self.ui.status.say(format!("input: {} ({})", pattern.title(), picture.label));
        self.show_picture(picture, INPUT_SIZE);
        self.input = Some(ShownInput { pattern, options, before });
        self.ui.zoom = None;
    }

    /// The next input after the one shown: the picture, then each pattern in turn.
    pub(super) fn cycle_input(&mut self) {
        let now = self.input.as_ref().map(|s| s.pattern);
        let at = now.and_then(|p| Pattern::ALL.iter().position(|&q| q == p));
        let next = match at {
            None => Some(Pattern::ALL[0]),
            Some(i) => Pattern::ALL.get(i + 1).copied(),
        };
        self.set_input(next);
    }

    /// Makes the input shown again when the sort's key, order or axis changed, so that a sorted
    /// input stays sorted for the sort chosen.
    pub(super) fn follow_input(&mut self) {
        // A clip or a live source opened since takes the input's place.
        if !matches!(self.source, super::Source::Picture) {
            self.input = None;
        }
        let Some(shown) = &self.input else { return };
        let options = self.session.options();
        if shown.options != options {
            let picture = Picture::of_pattern(shown.pattern, INPUT_SIZE, &options);
            self.show_picture(picture, INPUT_SIZE);
            if let Some(shown) = &mut self.input {
                shown.options = options;
            }
        }
    }
}

impl Running {
    /// "What happens": the algorithm's explanation, and what the input shown does to it.
    pub(super) fn explanation(&self) -> String {
        let explanation = self.session.explanation();
        match &self.input {
            Some(shown) if !self.session.choice.compare => format!(
                "{explanation}\n\n{}",
                crate::controls::explain::lesson(shown.pattern, self.session.choice.algorithm)
            ),
            _ => explanation,
        }
    }
}
