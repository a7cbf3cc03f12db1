//! The mask brush in the page, as the window has it: E paints; a Shift+click keeps a disc of
//! pixels in place and a drag through it lets some move again; S saves the mask, which reads back
//! as exactly the mask those strokes paint, and the sort's end within it is the CPU model's.

use super::{Page, ROW, wait_for};
use image::RgbaImage;
use shadersort::angle::Lines;
use shadersort::intervals::{IntervalSettings, Mask};
use shadersort::keys::options::{Axis, SortOptions};
use shadersort::reference::stable_sort_within;
use std::time::Duration;

/// The brush's radius when painting starts on the 16x7 picture (`Brush::for_picture`).
const RADIUS: f32 = shadersort::app::panel_model::Brush::MIN_RADIUS;

pub fn e_paints_the_mask_and_s_saves_it(page: &Page, picture: &RgbaImage) {
    page.keys(&["l"]);
    page.expect_log("lens closed");
    page.keys(&["e"]);
    page.expect_log("painting the mask");
    let (corner, scale) = picture_on_screen(page, picture);
    let in_picture = |(x, y): (u32, u32)| ((x as f32 - corner.0) / scale, (y as f32 - corner.1) / scale);
    let on_screen = |(x, y): (f32, f32)| ((corner.0 + x * scale) as u32, (corner.1 + y * scale) as u32);
    // A dot and a diagonal that stay (Shift), then a stroke down the diagonal's middle that
    // lets pixels move again.
    let dot = on_screen((3.3, f32::from(ROW as u16) + 0.4));
    page.browser.shift_click(dot);
    let (a, b) = (on_screen((7.2, 0.6)), on_screen((14.7, 6.3)));
    page.browser.shift_drag(a, b);
    let (from, to) = (on_screen((9.6, 0.2)), on_screen((9.4, 6.8)));
    page.browser.drag(from, to);
    let mut expected = Mask::filled(picture.width(), picture.height(), true);
    expected.stroke(in_picture(dot), in_picture(dot), RADIUS, false);
    expected.stroke(in_picture(a), in_picture(b), RADIUS, false);
    assert!(
        expected.stroke(in_picture(from), in_picture(to), RADIUS, true),
        "the last stroke lets a pixel move"
    );

    page.keys(&["End"]);
    wait_for("the end of the sort", Duration::from_secs(60), || {
        let log = page.browser.log();
        let last =
            log.rsplit("step ").next().and_then(|rest| rest.split_whitespace().next()).unwrap_or_default();
        last.split_once('/').is_some_and(|(done, total)| done == total)
    });
    page.keys(&["s"]);
    page.expect_log("saved the mask lens-mask.png");
    let saved = Mask::from_picture(&page.downloaded_picture("lens-mask.png"), "saved");
    let (saved_rows, expected_rows) = (rows(&saved), rows(&expected));
    assert!(
        saved_rows == expected_rows,
        "the saved mask is not the one the strokes paint:\n{saved_rows}expected:\n{expected_rows}"
    );
    assert!((0..picture.width() * picture.height()).any(|i| !saved.is_sortable(i as usize)), "nothing stays");
    // The sort's end within the mask: the model's.
    let rows_lines = Lines::Axis(Axis::Rows);
    let map = rows_lines.intervals(picture, &IntervalSettings::default(), Some(&expected)).unwrap().unwrap();
    let model = stable_sort_within(picture, &SortOptions::default(), &map);
    page.expect_log("-mask-pass");
    let log = page.browser.log();
    let name =
        log.split_whitespace().rev().find(|w| w.contains("-mask-pass") && w.ends_with(".png")).unwrap();
    assert!(page.downloaded_picture(name) == model, "the end within the painted mask is not the model's");
    page.keys(&["e"]);
    page.expect_log("painting stopped");
    page.click(on_screen((8.0, f32::from(ROW as u16) + 0.5)));
    page.expect_log("lens on row");
}

/// Where the picture's top left corner is on the page's screen, and screen pixels per picture
/// pixel, once it shows (waiting for a frame that draws it, not a fixed time).
pub fn picture_on_screen(page: &Page, picture: &RgbaImage) -> ((f32, f32), f32) {
    let mut found = None;
    wait_for("the picture on screen", Duration::from_secs(30), || {
        found = find_picture(&page.browser.screenshot(), picture);
        found.is_some()
    });
    found.expect("waited for above")
}

/// Where the picture's top left corner is in `shot`, and screen pixels per picture pixel: from
/// the block of its lightest grey, on the lens's row, if it shows.
fn find_picture(shot: &RgbaImage, picture: &RgbaImage) -> Option<((f32, f32), f32)> {
    let (column, lightest) =
        (0..picture.width()).map(|x| (x, picture.get_pixel(x, ROW).0)).max_by_key(|(_, p)| p[0]).unwrap();
    let left = shadersort::app::ui::PANEL_WIDTH as u32;
    let near = |p: &image::Rgba<u8>| (0..3).all(|c| p[c].abs_diff(lightest[c]) <= 3);
    let hits: Vec<(u32, u32)> =
        shot.enumerate_pixels().filter(|&(x, _, p)| x >= left && near(p)).map(|(x, y, _)| (x, y)).collect();
    let (x0, x1) = (hits.iter().map(|h| h.0).min()?, hits.iter().map(|h| h.0).max()?);
    let (y0, y1) = (hits.iter().map(|h| h.1).min()?, hits.iter().map(|h| h.1).max()?);
    let scale = (x1 - x0 + 1) as f32;
    // One solid block of that grey, about square, as a picture pixel drawn scaled is.
    ((y1 - y0).abs_diff(x1 - x0) <= 1 && hits.len() as u32 == (x1 - x0 + 1) * (y1 - y0 + 1))
        .then_some(((x0 as f32 - column as f32 * scale, y0 as f32 - ROW as f32 * scale), scale))
}

fn rows(mask: &Mask) -> String {
    let (w, h) = mask.dimensions();
    (0..h)
        .map(|y| {
            (0..w).map(|x| if mask.is_sortable((y * w + x) as usize) { '#' } else { '.' }).collect::<String>()
                + "\n"
        })
        .collect()
}
