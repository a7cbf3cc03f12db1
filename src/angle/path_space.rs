//! A path's lines laid out in line space, as an angle's are: each line a row, left-aligned,
//! padded to the longest; a one-sequence path longer than a texture row wraps from row to row
//! in a picture of the source's size, to be sorted as one whole picture.

use super::LineSpace;
use super::line_space::Route;
use crate::paths::{Centre, Path, PathChoice, PathKind, geometry};
use crate::picture::input::scaled_size;

/// Why a path cannot be laid out on this GPU.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PathError {
    /// A line, or the number of lines, exceeds the device's largest texture side.
    #[error(
        "--path {path} makes {what} of the {}x{} picture, more than this GPU's largest texture side ({max_side}); sort a smaller picture (--max-size {fits} fits){more}",
        picture.0, picture.1
    )]
    TooLarge {
        /// The path, as the command line writes it.
        path: String,
        /// What is too large: "a ring of 20000 pixels", "20000 rays".
        what: String,
        /// The picture's size.
        picture: (u32, u32),
        /// The device's largest texture side.
        max_side: u32,
        /// The largest `--max-size` whose picture fits.
        fits: u32,
        /// Another way out, if there is one.
        more: String,
    },
}

/// The line space of the path `choice` through a `width` x `height` picture on a device whose
/// textures are at most `max_side` on a side.
pub fn line_space(
    choice: PathChoice,
    (width, height): (u32, u32),
    max_side: u32,
) -> Result<LineSpace, PathError> {
    let path = &choice.on((width, height));
    let lines = geometry::lines(path, (width, height));
    let route = Route::Path(choice);
    if path.kind.is_one_sequence() && lines[0].len() as u64 > u64::from(max_side) {
        // Wrapped: sequence position p in cell p of a picture of the source's size.
        let mut places = vec![0u32; lines[0].len()];
        for (position, &pixel) in lines[0].iter().enumerate() {
            places[pixel as usize] = position as u32;
        }
        return Ok(LineSpace::from_places(route, true, (width, height), (width, height), places));
    }
    if let Some(what) = too_large(&lines, max_side) {
        let fits = largest_that_fits(path, (width, height), max_side);
        let more = match path.kind {
            PathKind::Rays => ", or fewer rays (--rays N)".to_owned(),
            _ => String::new(),
        };
        return Err(PathError::TooLarge {
            path: path.kind.name().to_owned(),
            what,
            picture: (width, height),
            max_side,
            fits,
            more,
        });
    }
    let line_width = lines.iter().map(Vec::len).max().unwrap_or(0) as u32;
    let mut places = vec![0u32; (width * height) as usize];
    for (line, pixels) in lines.iter().enumerate() {
        for (position, &pixel) in pixels.iter().enumerate() {
            places[pixel as usize] = line as u32 * line_width + position as u32;
        }
    }
    Ok(LineSpace::from_places(route, false, (width, height), (line_width, lines.len() as u32), places))
}

/// What of `lines` exceeds `max_side`, if anything: the longest line, or the number of lines.
fn too_large(lines: &[Vec<u32>], max_side: u32) -> Option<String> {
    let longest = lines.iter().map(Vec::len).max().unwrap_or(0) as u64;
    if longest > u64::from(max_side) {
        return Some(format!("a line of {longest} pixels"));
    }
    (lines.len() as u64 > u64::from(max_side)).then(|| format!("{} lines", lines.len()))
}

/// The largest `--max-size` at which `path` (its centre scaled with the picture) fits.
fn largest_that_fits(path: &Path, (width, height): (u32, u32), max_side: u32) -> u32 {
    let longest = width.max(height);
    let fits_at = |side: u32| {
        let size = scaled_size(width, height, side);
        let scale = |v: i64, from: u32, to: u32| v * i64::from(to) / i64::from(from.max(1));
        let centre =
            Centre { x: scale(path.centre.x, width, size.0), y: scale(path.centre.y, height, size.1) };
        too_large(&geometry::lines(&Path { centre, ..*path }, size), max_side).is_none()
    };
    let (mut fits, mut too_big) = (1, longest);
    while too_big - fits > 1 {
        let mid = fits + (too_big - fits) / 2;
        if fits_at(mid) { fits = mid } else { too_big = mid }
    }
    fits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_become_rows_and_a_long_sequence_wraps() {
        let size = (9, 7);
        let rings = Path::around_middle(PathKind::Rings, size);
        let space = line_space(rings.into(), size, 64).unwrap();
        let lines = geometry::lines(&rings, size);
        assert_eq!(space.size(), (lines.iter().map(Vec::len).max().unwrap() as u32, lines.len() as u32));
        for (line, pixels) in lines.iter().enumerate() {
            for (position, &pixel) in pixels.iter().enumerate() {
                assert_eq!(space.pixel_at(line, position), Some(pixel as usize));
            }
        }
        assert!(!space.is_wrapped());
        // 63 pixels fit a row of 64; not one of 32, so the spiral wraps.
        let spiral = Path::around_middle(PathKind::Spiral, size);
        assert_eq!(line_space(spiral.into(), size, 64).unwrap().size(), (63, 1));
        let wrapped = line_space(spiral.into(), size, 32).unwrap();
        assert!(wrapped.is_wrapped() && wrapped.size() == size && !wrapped.has_padding());
        let sequence = &geometry::lines(&spiral, size)[0];
        for (position, &pixel) in sequence.iter().enumerate() {
            assert_eq!(wrapped.pixel_at(position / 9, position % 9), Some(pixel as usize));
        }
    }

    #[test]
    fn too_many_rays_are_refused_with_a_size_that_fits() {
        let size = (300, 200);
        let rays = Path::around_middle(PathKind::Rays, size);
        let err = line_space(rays.into(), size, 512).unwrap_err();
        let PathError::TooLarge { fits, .. } = &err;
        assert!(err.to_string().contains("rays") && err.to_string().contains("--rays N"), "{err}");
        let fitting = scaled_size(300, 200, *fits);
        assert!(
            line_space(Path::around_middle(PathKind::Rays, fitting).into(), fitting, 512).is_ok(),
            "{err}"
        );
        let over = scaled_size(300, 200, fits + 1);
        assert!(line_space(Path::around_middle(PathKind::Rays, over).into(), over, 512).is_err(), "{err}");
    }
}
