//! The row lens on screen, read from a screenshot: the window test and the browser test hold
//! its bars against the CPU model.

use image::RgbaImage;

/// The lens's bars in a screenshot: the bars' area (its own background colour, right of the
/// side panel), and for each of `count` bars its height in pixels and the colour at its middle;
/// `None` when no lens is on screen.
pub fn lens_bars(shot: &RgbaImage, count: usize) -> Option<(Vec<u32>, Vec<[u8; 3]>)> {
    let fill = shadersort::app::lens_panel::LENS_FILL.to_array();
    let is_fill = |x: u32, y: u32| shot.get_pixel(x, y).0[..3] == fill[..3];
    let panel = shadersort::app::ui::PANEL_WIDTH as u32;
    let fill_in_row = |y: u32| (panel..shot.width()).filter(|&x| is_fill(x, y)).count();
    // The top rows are nearly all background; the bottom ones keep the gaps between the bars.
    let top = (0..shot.height()).find(|&y| fill_in_row(y) > 100)?;
    let bottom = (top..shot.height()).take_while(|&y| fill_in_row(y) >= count / 2).last().unwrap();
    let columns: Vec<u32> =
        (panel..shot.width()).filter(|&x| (top..=bottom).filter(|&y| is_fill(x, y)).count() > 8).collect();
    let (left, right) = (*columns.first()?, *columns.last()?);
    let width = (right + 1 - left) as f32 / count as f32;
    let bars = (0..count)
        .map(|i| {
            let x = left + ((i as f32 + 0.5) * width) as u32;
            let bar: Vec<u32> = (top..=bottom).filter(|&y| !is_fill(x, y)).collect();
            let height = bar.len() as u32;
            let middle = bar.get(bar.len() / 2).copied().unwrap_or(bottom);
            let [r, g, b, _] = shot.get_pixel(x, middle).0;
            (height, [r, g, b])
        })
        .unzip();
    Some(bars)
}

/// The bars' heights in the screenshot follow the model's line after `passes` passes: each
/// bar's colour is the model's pixel, and a larger key always draws a taller bar; or how not.
pub fn bars_follow_the_model(
    shot: &RgbaImage,
    picture: &RgbaImage,
    row: u32,
    passes: u32,
) -> Result<(), String> {
    let options = shadersort::keys::options::SortOptions::default();
    let model = shadersort::reference::odd_even_passes(picture, &options, passes);
    let line: Vec<[u8; 4]> = (0..model.width()).map(|x| model.get_pixel(x, row).0).collect();
    let (heights, colours) = lens_bars(shot, line.len()).ok_or("no lens bars on screen")?;
    for (i, (&[r, g, b, _], colour)) in line.iter().zip(&colours).enumerate() {
        if colour.iter().zip([r, g, b]).any(|(&seen, want)| seen.abs_diff(want) > 2) {
            return Err(format!(
                "bar {i} after {passes} passes is {colour:?}, the model's pixel is {:?}",
                [r, g, b]
            ));
        }
    }
    let keys: Vec<u32> = line.iter().map(|&p| options.key.of(p)).collect();
    for i in 0..keys.len() {
        for j in 0..keys.len() {
            if keys[i] < keys[j] && heights[i] >= heights[j] {
                return Err(format!(
                    "after {passes} passes bar {i} (key {}) is {} px, bar {j} (key {}) {} px: {heights:?}",
                    keys[i], heights[i], keys[j], heights[j]
                ));
            }
        }
    }
    Ok(())
}
