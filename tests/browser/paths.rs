//! Paths in the page, as the window has them: B bends the lines into rings around the middle,
//! a Shift+click moves their centre, B goes on to rays, the spiral and the Hilbert curve, and
//! the end of each sort, saved by S, is the CPU model's picture from the path's definition.

use super::painting::picture_on_screen;
use super::{Page, ROW};
use image::RgbaImage;
use shadersort::keys::options::SortOptions;
use shadersort::paths::{Centre, Path, PathKind};
use shadersort::reference::paths::sorted_along;

/// B, then End and S: the rings' end; a Shift+click on the picture, then End and S: the end of
/// rings around the point clicked (as the log names it, both coordinates where the click
/// fell); B three times: rays, the spiral and the Hilbert curve around that point, each end
/// the model's; B once more: rows again.
pub fn b_bends_the_lines_and_a_shift_click_centres_them(page: &Page, picture: &RgbaImage) {
    page.keys(&["l"]);
    page.expect_log("lens closed");
    page.keys(&["b"]);
    page.expect_log("rings around the middle by luma");
    // Step 0 shows the picture as it is: where it lies on screen, from its lightest grey.
    let (corner, scale) = picture_on_screen(page, picture);
    let middle = Path::around_middle(PathKind::Rings, picture.dimensions());
    assert!(
        sorted_end(page, PathKind::Rings) == sorted_along(picture, &middle, &SortOptions::default()),
        "the rings' end is not the model's"
    );

    let shot = page.browser.screenshot();
    let panel = shadersort::app::ui::PANEL_WIDTH as u32;
    // A point on the lens line's row, left of the picture's middle.
    let at = ((panel + shot.width()) / 2 - shot.width() / 10, shot.height() / 2);
    page.browser.shift_click(at);
    page.expect_log("rings around (");
    let log = page.browser.log();
    let named = log
        .rsplit("rings around (")
        .next()
        .and_then(|rest| rest.split_once(')'))
        .map(|(xy, _)| xy.to_owned());
    let (x, y) = named.as_deref().and_then(|xy| xy.split_once(", ")).expect("the centre in the log");
    let centre = Centre::at(x.parse().unwrap(), y.parse().unwrap()).unwrap();
    // Where the click fell in the picture, to the screen pixel clicked; the page takes the
    // nearest half pixel.
    let clicked_at = ((at.0 as f32 - corner.0) / scale, (at.1 as f32 - corner.1) / scale);
    let (cx, cy) = centre.pixels();
    assert!(
        (cx as f32 - clicked_at.0).abs() <= 0.25 + 1.0 / scale
            && (cy as f32 - clicked_at.1).abs() <= 0.25 + 1.0 / scale,
        "the centre ({x}, {y}) is not where the click fell ({clicked_at:?}, {scale} screen pixels a pixel)"
    );
    assert!(cy > f64::from(ROW) && cy < f64::from(ROW + 1), "{x}, {y}: not on the lens line's row");
    for kind in PathKind::ALL {
        if kind != PathKind::Rings {
            page.keys(&["b"]);
            page.expect_log(match kind {
                PathKind::Rays => "rays around (",
                PathKind::Spiral => "a spiral around (",
                _ => "the Hilbert curve by luma",
            });
        }
        let path = Path { kind, centre, rays: None };
        assert!(
            sorted_end(page, kind) == sorted_along(picture, &path, &SortOptions::default()),
            "the end of {path} is not the model's"
        );
    }
    page.keys(&["b"]);
    page.expect_log("rows by luma");
    page.click(at);
    page.expect_log("lens on row");
}

/// Goes to the end of the sort and downloads it by S (then removes the download, since the
/// next end has the same name).
fn sorted_end(page: &Page, kind: PathKind) -> RgbaImage {
    page.keys(&["End"]);
    // The frames take the steps as they afford them: wait for the last.
    let at_end = || {
        let log = page.browser.log();
        let last =
            log.rsplit("step ").next().and_then(|rest| rest.split_whitespace().next()).unwrap_or_default();
        last.split_once('/').is_some_and(|(done, total)| done == total)
    };
    super::wait_for("the end of the sort", std::time::Duration::from_secs(60), at_end);
    page.keys(&["s"]);
    let suffix = format!("-{}-pass", kind.name());
    page.expect_log(&suffix);
    let log = page.browser.log();
    let name = log
        .split_whitespace()
        .rev()
        .find(|word| word.contains(&suffix) && word.ends_with(".png"))
        .expect("S names its file")
        .to_owned();
    let saved = page.downloaded_picture(&name);
    std::fs::remove_file(page.downloads.path().join(&name)).unwrap();
    saved
}
