//! More of the window's keys end to end, and G's recording against the CPU model: 0 shows the
//! picture at one screen pixel per picture pixel and F fits it again; P steps back; + and -
//! change the speed; L, Up and L move the row lens; K, X, A, `[`, `]` and T change the key, the
//! order, the direction and the pass kind, and the sort then ends where the model does; the digit
//! 3, D and W choose the radix view, its digit width and its scope, and its steps are then the
//! model's. Each key's effect is read from a screenshot or a saved PNG where it shows in the
//! picture, else from the status lines the app logs.

use super::{Session, start, wait_for};
use image::RgbaImage;
use shadersort::algorithms::radix::plan::{RadixPlan, Sequences};
use shadersort::keys::SortKey;
use shadersort::keys::options::{Axis, Scope, SortOptions};
use shadersort::keys::radix_key::RadixKey;
use shadersort::record::palette::{indexed_picture, quantize};
use shadersort::reference::radix::{radix_steps, stable_sort_by_radix_key};
use shadersort::reference::{odd_even_passes, stable_sort};
use std::path::Path;
use std::time::Duration;

#[path = "../clips/gif.rs"]
mod gif;

/// G's GIF of an odd-even sort along rows by luma of `picture` (`passes` its longest line),
/// recorded as the window records by default (every pass, 30 frames a second, the sorted
/// picture held 2 s): each frame is the model at its pass through the recording's palette.
pub fn assert_recording_follows_the_model(path: &Path, picture: &RgbaImage, passes: u32) {
    let options = SortOptions::default();
    let quantized = quantize(picture, [0, 0, 0], true);
    let indexed = indexed_picture(picture, &quantized.indices);
    let colours = &quantized.palette.colours;
    let frames = gif::gif_frames(path);
    // It stops once the picture is known sorted, so it may hold fewer than passes + 1 frames.
    assert!((2..=passes as usize + 1).contains(&frames.len()), "{} frames for {passes} passes", frames.len());
    for (k, (frame, delay)) in frames.iter().enumerate() {
        let want = gif::through_palette(&odd_even_passes(&indexed, &options, k as u32), colours);
        assert!(*frame == want, "G's frame {k} is not the model after {k} passes");
        let last = k + 1 == frames.len();
        assert_eq!(*delay, if last { 200 } else { 3 }, "delay of G's frame {k}");
    }
    let sorted = gif::through_palette(&stable_sort(&indexed, &options), colours);
    assert!(frames.last().unwrap().0 == sorted, "G's last frame is not the sorted picture");
}

/// Where `picture` appears in the screenshot at one screen pixel per picture pixel (each
/// channel within 2), if it does.
fn found_one_to_one(shot: &RgbaImage, picture: &RgbaImage) -> Option<(u32, u32)> {
    let near = |a: &image::Rgba<u8>, b: &image::Rgba<u8>| (0..3).all(|c| a[c].abs_diff(b[c]) <= 2);
    let (w, h) = picture.dimensions();
    let corner = picture.get_pixel(0, 0);
    (0..=shot.height() - h).flat_map(|y| (0..=shot.width() - w).map(move |x| (x, y))).find(|&(x, y)| {
        near(shot.get_pixel(x, y), corner)
            && picture.enumerate_pixels().all(|(px, py, p)| near(shot.get_pixel(x + px, y + py), p))
    })
}

impl Session {
    /// Passes run a second while playing since the last keys, by the player's own account of
    /// each frame: only frames that ran every pass they owed (and not the one after one that
    /// did not, which starts with the rest owed), so a machine too busy to keep up cannot
    /// stand for a wrong speed. The passes it says it ran must be the passes reported.
    fn played_rate(&self) -> f64 {
        let text = self.log_text();
        let (mut frames, mut ran) = (Vec::new(), 0);
        for line in text[self.keys_from.get()..].lines() {
            if let Some(words) = line.split_once("] played ") {
                // "{ran} of {wanted} steps owed in a frame of {seconds} s"
                let words: Vec<&str> = words.1.split(' ').collect();
                let number = |i: usize| words.get(i).and_then(|w| w.parse::<f64>().ok());
                let frame = (number(0), number(2), number(9));
                let (Some(r), Some(wanted), Some(seconds)) = frame else { panic!("unread: {line}") };
                frames.push((r as u32, wanted as u32, seconds));
                ran += r as u32;
            } else if let Some(report) = super::step_report(line) {
                assert_eq!(report, format!("pass {ran}/64"), "the frames played do not add up to the pass");
            }
        }
        let (mut passes, mut seconds, mut after_cut) = (0, 0.0, false);
        for &(ran, wanted, s) in &frames {
            if ran == wanted && !after_cut {
                passes += ran;
                seconds += s;
            }
            after_cut = ran < wanted;
        }
        assert!(seconds >= 1.0, "only {seconds:.2} s of frames kept pace, of {frames:?}");
        f64::from(passes) / seconds
    }

    /// Waits until a line logged since the last key press contains `needle` (a change of
    /// settings may add a notice after the line [`Session::expect_log`] would need to end).
    pub(super) fn expect_log_containing(&self, needle: &str) {
        wait_for(&format!("a line with '{needle}' in the log"), Duration::from_secs(30), || {
            let text = self.log_text();
            text.get(self.keys_from.get()..).unwrap_or_default().contains(needle)
        });
    }

    /// The PNG the last S saved, named by its "saved NAME" line.
    fn saved_png(&self) -> RgbaImage {
        self.saved_png_named().1
    }

    /// The name and pixels of the PNG the last S saved, from its "saved NAME" line.
    pub(super) fn saved_png_named(&self) -> (String, RgbaImage) {
        // The picture's line, not the mask's ("saved the mask NAME", while painting).
        let name_in = |text: &str| {
            text.get(self.keys_from.get()..).unwrap_or_default().lines().find_map(|l| {
                let (_, rest) = l.split_once("] saved ")?;
                (!rest.starts_with("the mask ")).then(|| rest.split_whitespace().next().unwrap().to_string())
            })
        };
        wait_for("a saved picture in the log", Duration::from_secs(30), || {
            name_in(&self.log_text()).is_some()
        });
        let name = name_in(&self.log_text()).unwrap();
        let picture = image::open(self.dir.path().join(&name)).unwrap().to_rgba8();
        (name, picture)
    }
}

#[test]
fn zoom_back_speed_lens_key_order_direction_pass_kind_and_radix_keys() {
    // 64x48 noise, opaque (so the screen shows its colours as they are): small, so every pass
    // is quick on the software GPU.
    let mut picture = shadersort::picture::patterns::random_image(64, 48, 11);
    picture.pixels_mut().for_each(|p| p[3] = 255);
    let Some(mut s) = start("vulkan", &picture, &[], "pass 0/64") else { return };

    // The window opens with the picture fitted (enlarged); 0 shows it 1:1, F fits it again.
    let geometry = s.geometry();
    let fit = s.screenshot_showing("fit.png", "the window drawn", |shot| {
        !super::status_rows(shot, geometry).is_empty()
    });
    assert_eq!(found_one_to_one(&fit, &picture), None, "1:1 before 0");
    s.keys(&["0"]);
    s.screenshot_showing("one.png", "0 to show the picture 1:1", |shot| {
        found_one_to_one(shot, &picture).is_some()
    });
    // F: the picture as it was first fitted (the view right of the panel, as on opening).
    s.keys(&["f"]);
    let view = |shot: &RgbaImage| {
        let (x, y, w, h) = geometry;
        let panel = shadersort::app::ui::PANEL_WIDTH as u32;
        image::imageops::crop_imm(shot, x + panel, y, w - panel, h).to_image()
    };
    s.screenshot_showing("fit_again.png", "F to fit the picture as on opening", |shot| {
        view(shot) == view(&fit)
    });

    // P is one pass back; + and - go up and down the list of speeds (30 steps/s at first).
    s.keys(&["Right", "Right", "Right"]);
    s.expect_step("pass 3/64");
    s.keys(&["p"]);
    s.expect_step("pass 2/64");
    s.keys(&["plus"]);
    s.expect_log("speed 60 steps/s");
    s.keys(&["minus", "minus"]);
    s.expect_log("speed 20 steps/s");
    // The speeds by their effect: played from pass 0, the passes run go 10 a second of the
    // app's clock after -, and 20 after +.
    for (key, speed, reach) in [("minus", 10.0, 20), ("plus", 20.0, 40)] {
        s.keys(&[key, "Home"]);
        s.expect_step("pass 0/64");
        s.keys(&["space"]);
        s.expect_pass_at_least(reach, 64);
        let rate = s.played_rate();
        assert!((speed * 0.85..=speed * 1.15).contains(&rate), "{rate:.1} steps/s at a speed of {speed}");
    }
    // Back where the keys above left it: paused on pass 2.
    s.keys(&["space", "Home", "Right", "Right"]);
    s.expect_step("pass 2/64");

    // L opens the lens on the middle row, Up moves it a row up, L closes it.
    s.keys(&["l"]);
    s.expect_log("lens on row 24 of 48 (64 pixels)");
    s.keys(&["Up"]);
    s.expect_log("lens on row 23 of 48 (64 pixels)");
    s.keys(&["l"]);
    s.expect_log("lens closed");

    // K, X, A, [, ] and T, each starting over with one thing changed.
    let says = |what: &str, view: &str| format!("Odd-even transposition, {what}; {view}");
    for (key, line) in [
        ("k", says("rows by hue, smallest first", "compute")),
        ("x", says("rows by hue, largest first", "compute")),
        ("a", says("columns by hue, largest first", "compute")),
        ("bracketleft", says("lines at 75° by hue, largest first", "compute")),
        ("bracketright", says("columns by hue, largest first", "compute")),
        ("t", says("columns by hue, largest first", "fragment")),
    ] {
        s.keys(&[key]);
        s.expect_log(&line);
    }
    s.expect_step("pass 0/48");
    // The sort they chose ends where the model's does.
    s.keys(&["End"]);
    s.expect_step("pass 48/48");
    s.keys(&["s"]);
    let options = SortOptions { key: SortKey::Hue, descending: true, axis: Axis::Columns };
    assert!(s.saved_png() == stable_sort(&picture, &options), "the window's end is not the model's");

    // The radix view: 3 chooses it, D the next digit width (4 to 8 bits), W the scope.
    let radix = |view: &str| format!("LSD radix, columns by hue, largest first; {view}");
    for (key, line) in [
        ("3", radix("4-bit digits, scope rows")),
        ("d", radix("8-bit digits, scope rows")),
        ("w", radix("8-bit digits, scope image")),
    ] {
        s.keys(&[key]);
        s.expect_log_containing(&line);
    }
    // What they chose, by its effect: one pass of 8-bit digits over the whole picture as one
    // sequence (column by column), then the end, each saved by S, are the model's.
    let key = RadixKey::new(options, None).unwrap();
    let plan = RadixPlan { key, digit_bits: 8, stages: 1, twin_indices: false };
    let seqs = Sequences { width: 64, height: 48, axis: Axis::Columns, scope: Scope::Image };
    let passes = plan.passes();
    s.keys(&["Right"]);
    s.expect_step(&format!("digit pass 1/{passes}"));
    s.keys(&["s"]);
    assert!(
        s.saved_png() == radix_steps(&picture, seqs, &plan, 1).0,
        "the first 8-bit digit pass over the picture"
    );
    s.keys(&["End"]);
    s.expect_step(&format!("digit pass {passes}/{passes}"));
    s.keys(&["s"]);
    assert!(s.saved_png() == stable_sort_by_radix_key(&picture, seqs, &key), "the radix view's end");

    s.keys(&["q"]);
    wait_for("the window to close", Duration::from_secs(20), || s.app.0.try_wait().unwrap().is_some());
    assert!(s.app.0.wait().unwrap().success(), "the app failed: {}", s.log_text());
    crate::clips::ci::passed();
}

impl Session {
    /// Clicks the left button at `(x, y)` on the screen, with Shift held when `shift`.
    fn click_at(&self, (x, y): (u32, u32), shift: bool) {
        self.keys_from.set(self.log_text().len());
        self.xdotool(&["mousemove", "--sync", &x.to_string(), &y.to_string()]);
        if shift {
            self.xdotool(&["keydown", "shift", "click", "1", "keyup", "shift"]);
        } else {
            self.xdotool(&["click", "1"]);
        }
        std::thread::sleep(Duration::from_millis(150));
    }

    /// Waits until the sort shows its last step ("pass 61/61").
    fn expect_end(&self) {
        wait_for("the sort's last step", Duration::from_secs(60), || {
            self.current_step().and_then(|step| {
                let (done, total) = step.rsplit_once(' ')?.1.split_once('/')?;
                Some(done == total)
            }) == Some(true)
        });
    }
}

/// B bends the lines into rings around the middle; a Shift+click centres them on the point
/// clicked; E paints the mask, a Shift+click keeping a disc of pixels in place: each by its
/// effect, the end saved by S (and the mask with it) against the CPU model.
#[test]
fn b_bends_the_lines_shift_click_centres_them_and_e_paints_the_mask() {
    use shadersort::angle::Lines;
    use shadersort::intervals::{IntervalSettings, Mask};
    use shadersort::paths::{Centre, Path as PathOf, PathKind};
    use shadersort::reference::paths::sorted_along;
    let mut picture = shadersort::picture::patterns::random_image(64, 48, 17);
    picture.pixels_mut().for_each(|p| p[3] = 255);
    let Some(s) = start("vulkan", &picture, &[], "pass 0/64") else { return };
    // At one screen pixel per picture pixel, a click's place in the picture is plain.
    s.keys(&["0"]);
    let mut corner = None;
    wait_for("the picture at 1:1", Duration::from_secs(30), || {
        corner = found_one_to_one(&s.screenshot("one.png"), &picture);
        corner.is_some()
    });
    let (x0, y0) = corner.unwrap();
    let options = SortOptions::default();

    s.keys(&["b"]);
    s.expect_log_containing("rings around the middle");
    s.keys(&["End"]);
    s.expect_end();
    s.keys(&["s"]);
    let middle = PathOf::around_middle(PathKind::Rings, (64, 48));
    assert!(s.saved_png() == sorted_along(&picture, &middle, &options), "the rings' end is not the model's");

    s.keys(&["Home"]);
    s.click_at((x0 + 20, y0 + 10), true);
    s.expect_log_containing("rings around (");
    let log = s.log_text();
    let named =
        log.rsplit("rings around (").next().and_then(|rest| rest.split_once(')')).unwrap().0.to_string();
    let (x, y) = named.split_once(", ").unwrap();
    let centre = Centre::at(x.parse().unwrap(), y.parse().unwrap()).unwrap();
    let (cx, cy) = centre.pixels();
    assert!(
        (cx - 20.0).abs() <= 0.5 && (cy - 10.0).abs() <= 0.5,
        "clicked at (20, 10), centred at ({x}, {y})"
    );
    s.keys(&["End"]);
    s.expect_end();
    s.keys(&["s"]);
    let clicked = PathOf { kind: PathKind::Rings, centre, rays: None };
    assert!(s.saved_png() == sorted_along(&picture, &clicked, &options), "the end around ({x}, {y})");

    // Back to rows (rays, spiral, Hilbert, rows), then paint: a Shift+click keeps a disc.
    s.keys(&["b", "b", "b", "b"]);
    s.expect_log_containing("rows by luma");
    s.keys(&["e"]);
    s.expect_log_containing("painting the mask");
    s.click_at((x0 + 30, y0 + 20), true);
    let brush = shadersort::app::panel_model::Brush::for_picture((64, 48));
    let mut expected = Mask::filled(64, 48, true);
    expected.stroke((30.0, 20.0), (30.0, 20.0), brush.radius, false);
    s.keys(&["End"]);
    s.expect_end();
    s.keys(&["s"]);
    s.expect_log_containing("saved the mask ");
    let log = s.log_text();
    let mask_name =
        log.rsplit("saved the mask ").next().unwrap().split_whitespace().next().unwrap().to_string();
    let saved = Mask::from_picture(&image::open(s.dir.path().join(&mask_name)).unwrap().to_rgba8(), "saved");
    let sortable = |m: &Mask| (0..64 * 48).map(|i| m.is_sortable(i)).collect::<Vec<bool>>();
    assert!(sortable(&saved) == sortable(&expected), "the saved mask is not the disc the click paints");
    let map = Lines::Axis(Axis::Rows)
        .intervals(&picture, &IntervalSettings::default(), Some(&expected))
        .unwrap()
        .unwrap();
    let end = shadersort::reference::stable_sort_within(&picture, &options, &map);
    let saved_end = s.saved_png();
    assert!(saved_end == end, "the end within the painted mask is not the model's");
    crate::clips::ci::passed();
}
