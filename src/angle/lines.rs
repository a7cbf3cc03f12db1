//! The lines a sort follows through one picture, as front ends hold them: the picture's own
//! rows or columns, or lines at an angle laid out in line space. Everything that depends on
//! which (the interval map, its summary and overlay, starting a run) goes through [`Lines`], so the
//! window, `--out`, `--record` and `--sweep` treat every angle alike.

use super::line_space::Route;
use super::line_space::line_count;
use super::scatter::LineScatter;
use super::{Angle, AngledRun, LineSpace};
use crate::algorithms::interval_texture::IntervalMapError;
use crate::algorithms::request::StartRequest;
use crate::algorithms::{Algorithm, Pipelines, RunSettings, SortRun};
use crate::gpu::Gpu;
use crate::intervals::{IntervalError, IntervalMap, IntervalMode, IntervalSettings, IntervalSummary, Mask};
use crate::keys::options::{Axis, Scope, SortOptions};
use crate::picture::input::scaled_size;
use image::RgbaImage;
use std::sync::Arc;

/// Why a picture cannot be sorted at an angle.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum AngleError {
    /// The line-space picture would be taller than a texture may be.
    #[error(
        "--angle {angle} turns the {}x{} picture into {lines} lines, more than this GPU's largest texture side ({max_side}); sort a smaller picture (--max-size {fits} fits) or along an axis (an angle that is a multiple of 90)",
        picture.0, picture.1
    )]
    TooManyLines {
        /// The angle, as the command line writes it.
        angle: String,
        /// The picture's size.
        picture: (u32, u32),
        /// Lines the angle cuts it into: the line-space picture's height.
        lines: u64,
        /// The device's largest texture side.
        max_side: u32,
        /// The largest `--max-size` whose picture fits.
        fits: u32,
    },
}

/// Why the lines of a sort cannot be laid out on this GPU.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum LinesError {
    /// At an angle.
    #[error(transparent)]
    Angle(#[from] AngleError),
    /// Along a path.
    #[error(transparent)]
    Path(#[from] super::path_space::PathError),
}

/// The lines of a sort through one picture.
#[derive(Clone, Debug)]
pub enum Lines {
    /// The picture's rows or columns, sorted in place (also every angle whose lines these are).
    Axis(Axis),
    /// Lines at an angle or along a path, sorted as the rows of their line space.
    Laid(Arc<LineSpace>),
}

impl Lines {
    /// The lines of `angle` through a `width` x `height` picture; an error when their line
    /// space would exceed `max_side` (the device's largest texture side).
    pub fn new(angle: Angle, (width, height): (u32, u32), max_side: u32) -> Result<Self, AngleError> {
        if let Some(axis) = angle.axis() {
            return Ok(Lines::Axis(axis));
        }
        let lines = line_count(width, height, angle);
        if lines > u64::from(max_side) {
            // The largest longer side whose picture fits (line counts grow with the size).
            let fits_at = |side: u32| {
                let (w, h) = scaled_size(width, height, side);
                line_count(w, h, angle) <= u64::from(max_side)
            };
            let (mut fits, mut too_big) = (1, width.max(height));
            while too_big - fits > 1 {
                let mid = fits + (too_big - fits) / 2;
                if fits_at(mid) { fits = mid } else { too_big = mid }
            }
            return Err(AngleError::TooManyLines {
                angle: angle.to_string(),
                picture: (width, height),
                lines,
                max_side,
                fits,
            });
        }
        // In the browser wgpu's objects (the space's GPU tables) stay on the page's one thread,
        // so the Arc is never shared across threads.
        #[cfg_attr(
            target_arch = "wasm32",
            allow(
                clippy::arc_with_non_send_sync,
                reason = "in the browser wgpu's objects stay on the page's one thread"
            )
        )]
        let space = Arc::new(LineSpace::new(width, height, angle));
        Ok(Lines::Laid(space))
    }

    /// The lines of `route` through a picture of `size`; an error when their line space would
    /// exceed `max_side`.
    pub fn of(route: Route, size: (u32, u32), max_side: u32) -> Result<Self, LinesError> {
        let choice = match route {
            Route::Angle(angle) => return Ok(Lines::new(angle, size, max_side)?),
            Route::Path(choice) => choice,
        };
        let space = super::path_space::line_space(choice, size, max_side)?;
        // As in `new`: in the browser the space stays on the page's one thread.
        #[cfg_attr(
            target_arch = "wasm32",
            allow(
                clippy::arc_with_non_send_sync,
                reason = "in the browser wgpu's objects stay on the page's one thread"
            )
        )]
        let space = Arc::new(space);
        Ok(Lines::Laid(space))
    }

    /// Whether textures of at most `max_side` on a side hold these lines: what
    /// [`Lines::of`] checks, for lines laid out before the device was known.
    pub fn fit(&self, max_side: u32) -> bool {
        match self {
            Lines::Axis(_) => true,
            Lines::Laid(space) => {
                let (w, h) = space.size();
                w <= max_side && h <= max_side
            }
        }
    }

    /// What the lines follow.
    pub fn route(&self) -> Route {
        match self {
            Lines::Axis(axis) => Route::Angle(Angle::of_axis(*axis)),
            Lines::Laid(space) => space.route(),
        }
    }

    /// Whether these are the lines of `route` through a picture of `size` (so they need not be
    /// laid out again).
    pub fn are_of(&self, route: Route, size: (u32, u32)) -> bool {
        match (self, route) {
            (_, Route::Angle(angle)) => self.are(angle, size),
            (Lines::Laid(space), _) => space.route() == route && space.picture_size() == size,
            (Lines::Axis(_), Route::Path(_)) => false,
        }
    }

    /// Whether these are the lines of `angle` through a picture of `size` (so they need not
    /// be laid out again).
    pub fn are(&self, angle: Angle, size: (u32, u32)) -> bool {
        match self {
            Lines::Axis(axis) => angle.axis() == Some(*axis),
            Lines::Laid(space) => space.route() == Route::Angle(angle) && space.picture_size() == size,
        }
    }

    /// The axis the algorithms sort along: the picture's, or rows of line space.
    pub fn sorted_axis(&self) -> Axis {
        match self {
            Lines::Axis(axis) => *axis,
            Lines::Laid(_) => Axis::Rows,
        }
    }

    /// The length of the lines the algorithms sort in a picture of `size`: its rows or
    /// columns, or line space's rows (a path's longest line).
    pub fn line_len(&self, (width, height): (u32, u32)) -> u32 {
        match self {
            Lines::Axis(Axis::Rows) => width,
            Lines::Axis(Axis::Columns) => height,
            Lines::Laid(space) => space.size().0,
        }
    }

    /// `options` with the axis the algorithms sort along.
    pub fn sort_options(&self, options: SortOptions) -> SortOptions {
        SortOptions { axis: self.sorted_axis(), ..options }
    }

    /// The intervals of `picture` under `settings` and `mask` along these lines (in line space for
    /// an angle), or `None` when every line is sorted whole.
    pub fn intervals(
        &self,
        picture: &RgbaImage,
        settings: &IntervalSettings,
        mask: Option<&Mask>,
    ) -> Result<Option<IntervalMap>, IntervalError> {
        if settings.mode == IntervalMode::None && mask.is_none() {
            return Ok(None);
        }
        match self {
            Lines::Axis(axis) => IntervalMap::compute(picture, *axis, settings, mask).map(Some),
            Lines::Laid(space) => space.interval_map(picture, settings, mask).map(Some),
        }
    }

    /// Whether `algorithm` can sort along these lines within `intervals` (whole lines with `None`),
    /// as [`Lines::start`] would find, so a caller can refuse before any GPU work: at an angle
    /// the map must also hold the padding's interval ids, and the radix view needs lines.
    pub fn check(
        &self,
        algorithm: Algorithm,
        options: SortOptions,
        settings: &RunSettings,
        intervals: Option<&IntervalMap>,
    ) -> Result<(), IntervalMapError> {
        let options = self.sort_options(options);
        match self {
            Lines::Axis(_) => {
                intervals.map_or(Ok(()), |map| algorithm.check_intervals(options, settings, map))
            }
            Lines::Laid(space) if space.is_wrapped() => {
                if algorithm != Algorithm::Radix || intervals.is_some() {
                    return Err(IntervalMapError::LongSequence { length: space.places().len() as u64 });
                }
                Ok(())
            }
            Lines::Laid(space) => {
                if algorithm == Algorithm::Radix && settings.radix.scope == Scope::Image {
                    return Err(IntervalMapError::WholePictureAtAngle);
                }
                match intervals {
                    Some(map) => algorithm.check_intervals(options, settings, map),
                    None => space
                        .whole_lines()
                        .map_or(Ok(()), |map| algorithm.check_intervals(options, settings, map)),
                }
            }
        }
    }

    /// A map's intervals in numbers, counting the picture's pixels only.
    pub fn summary(&self, intervals: &IntervalMap) -> IntervalSummary {
        match self {
            Lines::Axis(_) => intervals.summary(),
            Lines::Laid(space) => space.summary(intervals),
        }
    }

    /// A map's intervals drawn over the picture (see [`crate::intervals::overlay::marks`]).
    pub fn marks(&self, intervals: &IntervalMap) -> RgbaImage {
        let marks = crate::intervals::overlay::marks(intervals);
        match self {
            Lines::Axis(_) => marks,
            Lines::Laid(space) => space.scatter(&marks),
        }
    }

    /// Starts the run `request` asks for along these lines with `pipelines`: its picture on the
    /// CPU or a picture texture already on the GPU (a clip's frame converted there), within a map
    /// of [`Lines::intervals`] (whole lines with none) or intervals the GPU finds along these
    /// lines, so nothing of the picture need cross from the CPU. The options' axis is the lines'.
    pub fn start(
        &self,
        gpu: &Gpu,
        pipelines: &Pipelines,
        scatter: &LineScatter,
        request: StartRequest<'_>,
    ) -> Result<Box<dyn SortRun>, IntervalMapError> {
        let request = StartRequest { options: self.sort_options(request.options), ..request };
        match self {
            Lines::Axis(_) => pipelines.start(gpu, request),
            Lines::Laid(space) => {
                Ok(Box::new(AngledRun::start(gpu, pipelines, scatter, space.clone(), request)?))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axis_angles_take_the_axis_paths() {
        let at = |d: f64| Lines::new(Angle::new(d).unwrap(), (40, 30), 16384).unwrap();
        assert!(matches!(at(0.0), Lines::Axis(Axis::Rows)));
        assert!(matches!(at(90.0), Lines::Axis(Axis::Columns)));
        assert!(matches!(at(-270.0), Lines::Axis(Axis::Columns)));
        assert!(matches!(at(180.0), Lines::Laid(_)));
        let diagonal = at(45.0);
        assert_eq!(diagonal.sorted_axis(), Axis::Rows);
        assert!(diagonal.are(Angle::new(405.0).unwrap(), (40, 30)));
        assert!(!diagonal.are(Angle::new(45.0).unwrap(), (30, 40)));
        assert!(at(0.0).are(Angle::new(1e-12).unwrap(), (1, 1)));
    }

    #[test]
    fn lines_laid_out_for_any_texture_fit_a_device_exactly_when_they_would_be_laid_out_for_it() {
        use crate::paths::{PathChoice, PathKind};
        let size = (61, 37);
        let extent = |lines: &Lines| match lines {
            Lines::Axis(_) => size,
            Lines::Laid(space) => space.size(),
        };
        let mut routes: Vec<Route> =
            [0.0, 30.0, 90.0, 135.0].map(|d| Route::Angle(Angle::new(d).unwrap())).into();
        routes.extend(PathKind::ALL.map(|kind| Route::Path(PathChoice { kind, centre: None, rays: None })));
        for route in routes {
            let laid = Lines::of(route, size, u32::MAX).unwrap();
            for max_side in [16, 40, 61, 72, 100, 4096] {
                let there = Lines::of(route, size, max_side);
                if laid.fit(max_side) {
                    let there = there.unwrap_or_else(|e| panic!("{route:?} at {max_side}: fits, yet {e}"));
                    assert_eq!(extent(&there), extent(&laid), "{route:?} at {max_side}");
                } else {
                    // Refused there, or laid out otherwise (a one-sequence path wrapped).
                    assert!(
                        there.is_err() || extent(&there.unwrap()) != extent(&laid),
                        "{route:?} at {max_side}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_line_space_taller_than_a_texture_is_refused_with_a_size_that_fits() {
        let angle = Angle::new(45.0).unwrap();
        let e = Lines::new(angle, (1000, 600), 1200).unwrap_err();
        let AngleError::TooManyLines { lines, fits, .. } = &e;
        assert_eq!(*lines, 1599);
        let (w, h) = scaled_size(1000, 600, *fits);
        assert!(Lines::new(angle, (w, h), 1200).is_ok(), "--max-size {fits} does not fit");
        let (w, h) = scaled_size(1000, 600, fits + 1);
        assert!(Lines::new(angle, (w, h), 1200).is_err(), "--max-size {} fits too", fits + 1);
        let message = e.to_string();
        assert!(
            message.contains("--angle 45") && message.contains("1000x600") && message.contains("1599 lines")
        );
        assert!(!message.contains('\n'));
    }
}
