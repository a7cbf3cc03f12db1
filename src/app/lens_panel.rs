//! The row lens's strip under the pictures: the inspected line of each lane as bars (height =
//! the sort key, colour = the pixel), with what the last step did to it, zoomed and panned
//! with the mouse. It draws only what the GPU read back (`crate::lens`).

use super::panel_model::{LaneView, LensZoom, UiModel, UiState};
use crate::algorithms::Algorithm;
use crate::lens::{LensReading, StepReading};

/// The bars' background: a colour of its own, so a screenshot can find the bars
/// (`tests/window.rs`).
pub const LENS_FILL: egui::Color32 = egui::Color32::from_rgb(40, 0, 40);
/// Outline of a compared pair.
const COMPARED: egui::Color32 = egui::Color32::from_rgb(150, 150, 170);
/// Mark of a pair that swapped, or a position that changed.
const SWAPPED: egui::Color32 = egui::Color32::from_rgb(255, 150, 20);
/// Height of the marker row under the bars, of the input strip and of the digit row.
const ROW: f32 = 12.0;
/// Room for the lines from each input pixel to where it went.
const ROUTES: f32 = 36.0;
/// Width of a radix pass's histogram beside the bars.
const HISTOGRAM_WIDTH: f32 = 190.0;

/// Draws the lens in `height` points: a header, then one strip per lane.
pub fn draw(ui: &mut egui::Ui, model: &UiModel<'_>, state: &mut UiState, height: f32) {
    let Some(readings) = model.lens else { return };
    let line = readings.iter().flatten().find_map(|r| r.as_ref().ok()).map(|r| &r.line);
    ui.horizontal_wrapped(|ui| {
        match line {
            Some(line) => ui.strong(format!("Lens: {} of {} ({} pixels)", line.name, line.count, line.len)),
            None => ui.strong("Lens"),
        };
        ui.label("bar height = key, colour = pixel · wheel zooms, drag pans · Up/Down moves · L closes");
        if ui.button("Fit").clicked() {
            state.lens_zoom = LensZoom::default();
        }
    });
    let lanes = readings.len().max(1);
    let height = (height / lanes as f32).max(70.0);
    for (index, (reading, lane)) in readings.iter().zip(&model.lanes).enumerate() {
        let algorithm = lane.algorithm;
        match reading {
            None => {
                ui.label(
                    egui::RichText::new(format!("{}: reading the line...", lane.short_label)).size(12.0),
                );
            }
            Some(Ok(reading)) => {
                ui.label(egui::RichText::new(describe(algorithm, lane, reading)).size(12.0));
                let radix_rows = match reading.step {
                    StepReading::Radix { .. } => ROUTES + 2.0 * ROW,
                    StepReading::Bitonic { .. } => ROUTES - ROW,
                    _ => 0.0,
                };
                strip(
                    ui,
                    reading,
                    height - 20.0 + radix_rows,
                    &mut state.lens_zoom,
                    (index, &mut state.lens_textures),
                );
            }
            Some(Err(e)) => {
                ui.colored_label(
                    egui::Color32::LIGHT_RED,
                    format!("{}: the lens could not read the line: {e}", lane.short_label),
                );
            }
        }
    }
}

/// One or two sentences on what the last step did to this line, with its numbers.
pub fn describe(algorithm: Algorithm, lane: &LaneView, reading: &LensReading) -> String {
    let who = &lane.short_label;
    let parity = |iteration: u32| if iteration.is_multiple_of(2) { "even" } else { "odd" };
    match &reading.step {
        StepReading::Start => match algorithm {
            Algorithm::Radix => format!("{who}: the input; the first digit pass sorts by the lowest digit"),
            Algorithm::Bitonic => {
                format!("{who}: the input; the first stage compares pairs (x, x+1) with x even")
            }
            _ => format!("{who}: the input; the first pass compares pairs (x-1, x) with x even"),
        },
        StepReading::OddEven { iteration } => {
            let compared = reading.compared();
            let swapped = compared.iter().filter(|&&l| reading.swapped(l)).count();
            format!(
                "{who}: pass {} compared {} pairs (x-1, x) with x {} (outlined); {swapped} swapped (orange)",
                iteration + 1,
                compared.len(),
                parity(*iteration)
            )
        }
        StepReading::Bitonic { index, stages } => {
            let pairs = reading.stage_pairs();
            let exchanged = pairs.iter().filter(|&&(a, b)| reading.exchanged(a, b)).count();
            let stage = crate::algorithms::bitonic::stage::Stage::at(*index);
            format!(
                "{who}: stage {} of {stages}, {}: compared {} pairs (joined under the bars); {exchanged} exchanged (orange)",
                index + 1,
                stage.describe(),
                pairs.len()
            )
        }
        StepReading::Bubble { first_phase, budget, ran, left_early, line_phases } => {
            let end = first_phase + budget;
            let exit = if *left_early {
                format!("left after {ran}: a phase pair made no swap, so the line is sorted")
            } else {
                format!("ran {ran} (no early exit)")
            };
            format!(
                "{who}: one dispatch of phases {}–{end} of {line_phases} in workgroup memory (budget {budget}); this line {exit}; {} pixels moved (orange)",
                first_phase + 1,
                reading.changed().len()
            )
        }
        StepReading::Radix { pass, passes, stage, stages, digit_bits, prefix, whole_picture, .. } => {
            let (low, high) = (pass * digit_bits, (pass + 1) * digit_bits - 1);
            let stages =
                if *stages > 1 { format!(", scatter stage {stage}/{stages}") } else { String::new() };
            let over = if *whole_picture { "the whole picture" } else { "the line" };
            let counts = match prefix {
                Some(_) => format!(
                    "lines show where each input pixel went: its digit's first slot (prefix sum over {over}) plus the earlier pixels with its digit"
                ),
                None => "the device-wide sort ran this pass and keeps no digit counts: digits only".into(),
            };
            format!(
                "{who}: digit pass {} of {passes} (key bits {low}–{high}){stages}; input below the bars, its digit under each pixel; {counts}",
                pass + 1
            )
        }
    }
}

/// The positions a strip shows in its bars' rectangle: `first..end`, `bar` points each.
#[derive(Clone, Copy, Debug)]
struct Shown {
    bars: egui::Rect,
    first: usize,
    end: usize,
    bar: f32,
}

impl Shown {
    /// Whether position `i` is in view.
    fn contains(self, i: usize) -> bool {
        (self.first..self.end).contains(&i)
    }

    /// The left edge of position `i`'s bar (`i` at least `first`).
    fn left(self, i: usize) -> f32 {
        self.bars.min.x + (i - self.first) as f32 * self.bar
    }

    /// The middle of position `i`'s bar.
    fn middle(self, i: usize) -> f32 {
        self.bars.min.x + (i as f32 - self.first as f32 + 0.5) * self.bar
    }
}

/// The positions shown in `bars` as `zoom` says (clamping its pan to the line of `len`).
fn visible(zoom: &mut LensZoom, len: usize, bars: egui::Rect) -> Shown {
    let width = bars.width();
    let fit = width / len.max(1) as f32;
    let bar = zoom.bar_width.unwrap_or(fit).max(fit);
    let shown = ((width / bar).ceil() as usize).clamp(1, len.max(1));
    zoom.first = zoom.first.clamp(0.0, (len - shown.min(len)) as f32);
    let first = zoom.first as usize;
    Shown { bars, first, end: (first + shown).min(len), bar }
}

/// The bars of one lane's line, with the step's marks, and for radix the input, its digits,
/// where each went and the histogram.
fn strip(
    ui: &mut egui::Ui,
    reading: &LensReading,
    height: f32,
    zoom: &mut LensZoom,
    (lane, textures): (usize, &mut Vec<egui::TextureHandle>),
) {
    let radix = matches!(reading.step, StepReading::Radix { .. });
    let histogram = reading.histogram();
    let width = ui.available_width() - if histogram.is_some() { HISTOGRAM_WIDTH + 8.0 } else { 0.0 };
    let (rect, response) =
        ui.allocate_exact_size(egui::vec2(width.max(40.0), height.max(40.0)), egui::Sense::click_and_drag());
    let len = reading.cells.len();
    let extra = match reading.step {
        _ if radix => ROUTES + 2.0 * ROW,
        StepReading::Bitonic { .. } => ROUTES,
        _ => ROW,
    };
    let bars = egui::Rect::from_min_max(rect.min, egui::pos2(rect.max.x, rect.max.y - extra));
    // Zoom around the pointer, pan by dragging.
    if response.hovered() {
        let scroll = ui.input(|i| i.smooth_scroll_delta.y);
        if scroll != 0.0 {
            let Shown { first, bar, .. } = visible(zoom, len, bars);
            let pointer = ui.input(|i| i.pointer.hover_pos()).map_or(0.0, |p| p.x - bars.min.x);
            let at = first as f32 + pointer / bar;
            let new_bar = (bar * if scroll > 0.0 { 1.25 } else { 0.8 }).min(bars.width() / 2.0);
            zoom.bar_width = Some(new_bar);
            zoom.first = at - pointer / new_bar;
        }
    }
    if response.dragged() {
        let bar = visible(zoom, len, bars).bar;
        zoom.first -= response.drag_delta().x / bar;
    }
    let shown = visible(zoom, len, bars);
    let Shown { first, end, bar, .. } = shown;
    let painter = ui.painter_at(rect);
    // The bars are drawn into a picture of the strip, pixel for pixel, and shown as one
    // texture: a software GPU rasterises one quad far faster than a thousand thin ones.
    let ppp = ui.ctx().pixels_per_point();
    let image = bars_image(
        reading,
        first,
        end,
        bar * ppp,
        (bars.width() * ppp) as usize,
        (bars.height() * ppp) as usize,
    );
    let texture = match textures.get_mut(lane) {
        Some(texture) => {
            // Written in place while the strip keeps its size: a whole `set` makes egui's
            // renderer create a new texture and bind group every frame.
            if texture.size() == image.size {
                texture.set_partial([0, 0], image, egui::TextureOptions::NEAREST);
            } else {
                texture.set(image, egui::TextureOptions::NEAREST);
            }
            texture.id()
        }
        None => {
            let texture = ui.ctx().load_texture(format!("lens-{lane}"), image, egui::TextureOptions::NEAREST);
            let id = texture.id();
            textures.push(texture);
            id
        }
    };
    let uv = egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0));
    painter.image(texture, bars, uv, egui::Color32::WHITE);
    let mut mesh = egui::Mesh::default();
    let marks = egui::Rect::from_min_max(
        egui::pos2(rect.min.x, bars.max.y),
        egui::pos2(rect.max.x, bars.max.y + ROW),
    );
    match &reading.step {
        StepReading::OddEven { .. } => {
            for l in reading.compared().into_iter().filter(|&l| l + 1 >= first && l < end) {
                let (x0, x1) = (shown.left(l.max(first)), shown.left((l + 2).min(end)));
                let pair = egui::Rect::from_min_max(
                    egui::pos2(x0 + 1.0, marks.min.y + 2.0),
                    egui::pos2(x1 - 1.0, marks.max.y - 2.0),
                );
                if reading.swapped(l) {
                    mesh.add_colored_rect(pair, SWAPPED);
                } else if bar >= 2.0 {
                    painter.rect_stroke(
                        pair,
                        2.0,
                        egui::Stroke::new(1.0, COMPARED),
                        egui::StrokeKind::Inside,
                    );
                }
            }
        }
        StepReading::Bubble { .. } => {
            for i in reading.changed().into_iter().filter(|&i| shown.contains(i)) {
                let x = shown.left(i);
                mesh.add_colored_rect(
                    egui::Rect::from_min_max(
                        egui::pos2(x, marks.min.y + 3.0),
                        egui::pos2(x + bar.max(1.0), marks.max.y - 3.0),
                    ),
                    SWAPPED,
                );
            }
        }
        StepReading::Radix { digit_bits, .. } => radix_rows(&painter, reading, shown, *digit_bits),
        StepReading::Bitonic { .. } => stage_pairs(&painter, reading, shown),
        StepReading::Start => {}
    }
    painter.add(egui::Shape::mesh(mesh));
    if let Some(histogram) = histogram {
        let area = egui::Rect::from_min_size(
            egui::pos2(rect.max.x + 8.0, rect.min.y),
            egui::vec2(HISTOGRAM_WIDTH, rect.height()),
        );
        histogram_box(ui, reading, &histogram, area);
    }
}

/// Under the bars: each pair the bitonic stage compared, both ends in view, joined by a V
/// (orange where it exchanged); where bars are too thin for that, the positions that changed.
fn stage_pairs(painter: &egui::Painter, reading: &LensReading, shown: Shown) {
    let top = shown.bars.max.y + 2.0;
    if shown.bar < 3.0 {
        for i in reading.changed().into_iter().filter(|&i| shown.contains(i)) {
            let x = shown.left(i);
            painter.rect_filled(
                egui::Rect::from_min_max(
                    egui::pos2(x, top + 2.0),
                    egui::pos2(x + shown.bar.max(1.0), top + ROW - 2.0),
                ),
                0.0,
                SWAPPED,
            );
        }
        return;
    }
    for (a, b) in reading.stage_pairs().into_iter().filter(|&(a, b)| shown.contains(a) && shown.contains(b)) {
        let (xa, xb) = (shown.middle(a), shown.middle(b));
        let depth = ((xb - xa) / 2.0).clamp(3.0, ROUTES - 6.0);
        let bottom = egui::pos2((xa + xb) / 2.0, top + depth);
        let colour = if reading.exchanged(a, b) { SWAPPED } else { COMPARED };
        let stroke = egui::Stroke::new(1.0, colour);
        painter.line_segment([egui::pos2(xa, top), bottom], stroke);
        painter.line_segment([bottom, egui::pos2(xb, top)], stroke);
    }
}

/// The colour of digit `d` of `buckets`.
fn digit_colour(d: u32, buckets: u32) -> egui::Color32 {
    egui::ecolor::Hsva::new(d as f32 / buckets as f32, 0.65, 0.95, 1.0).into()
}

/// Under the bars: where each input pixel went (lines), the input pixels, and their digits.
fn radix_rows(painter: &egui::Painter, reading: &LensReading, shown: Shown, digit_bits: u32) {
    let Shown { bars, first, end, bar } = shown;
    let buckets = 1 << digit_bits;
    let whole_picture = matches!(reading.step, StepReading::Radix { whole_picture: true, .. });
    let sequence_first = if whole_picture { (reading.line.index * reading.line.len) as usize } else { 0 };
    let input_top = bars.max.y + ROUTES;
    let digits_top = input_top + ROW;
    for (i, cell) in reading.cells.iter().enumerate().take(end).skip(first) {
        let x = shown.left(i);
        let w = bar.max(1.0);
        if let Some([r, g, b, _]) = cell.before {
            painter.rect_filled(
                egui::Rect::from_min_size(egui::pos2(x, input_top), egui::vec2(w, ROW - 1.0)),
                0.0,
                egui::Color32::from_rgb(r, g, b),
            );
        }
        if let Some(d) = cell.digit {
            let rect = egui::Rect::from_min_size(egui::pos2(x, digits_top), egui::vec2(w, ROW - 1.0));
            painter.rect_filled(rect, 0.0, digit_colour(d, buckets));
            if bar >= 11.0 {
                painter.text(
                    rect.center(),
                    egui::Align2::CENTER_CENTER,
                    format!("{d:x}"),
                    egui::FontId::monospace(9.0),
                    egui::Color32::BLACK,
                );
            }
            // Slots are positions in the sequence: the line's own, or the whole picture's.
            if let Some(slot) = cell.slot.and_then(|s| (s as usize).checked_sub(sequence_first)) {
                // Lines only where both ends are in view (at most one per pixel column).
                if shown.contains(slot) && (bar >= 1.0 || i % (1.0 / bar).ceil() as usize == 0) {
                    painter.line_segment(
                        [egui::pos2(shown.middle(i), input_top), egui::pos2(shown.middle(slot), bars.max.y)],
                        egui::Stroke::new(1.0, digit_colour(d, buckets).gamma_multiply(0.8)),
                    );
                }
            }
        }
    }
}

/// A radix pass's digit counts over its sequence and their exclusive prefix sums (each digit's
/// first slot), as bars with numbers where they fit.
fn histogram_box(ui: &egui::Ui, reading: &LensReading, histogram: &[u32], area: egui::Rect) {
    let painter = ui.painter_at(area);
    painter.rect_filled(area, 2.0, egui::Color32::from_gray(24));
    let StepReading::Radix { prefix: Some(prefix), .. } = &reading.step else { return };
    let buckets = histogram.len() as u32;
    let title = egui::pos2(area.min.x + 4.0, area.min.y + 2.0);
    painter.text(
        title,
        egui::Align2::LEFT_TOP,
        "digit: count @ first slot",
        egui::FontId::proportional(11.0),
        egui::Color32::LIGHT_GRAY,
    );
    let top = area.min.y + 16.0;
    let most = histogram.iter().copied().max().unwrap_or(1).max(1) as f32;
    let row = ((area.max.y - top) / buckets as f32).min(14.0);
    for (d, (&count, &start)) in histogram.iter().zip(prefix).enumerate() {
        let y = top + d as f32 * row;
        let w = count as f32 / most * (area.width() - 90.0);
        painter.rect_filled(
            egui::Rect::from_min_size(
                egui::pos2(area.min.x + 86.0, y + 1.0),
                egui::vec2(w.max(1.0), (row - 2.0).max(1.0)),
            ),
            0.0,
            digit_colour(d as u32, buckets),
        );
        if row >= 10.0 {
            painter.text(
                egui::pos2(area.min.x + 4.0, y + row / 2.0),
                egui::Align2::LEFT_CENTER,
                format!("{d:>2x}: {count} @ {start}"),
                egui::FontId::monospace(10.0),
                egui::Color32::LIGHT_GRAY,
            );
        }
    }
}

/// The bars of positions `first..end`, `bar` pixels wide each, in a `width` x `height` picture
/// (the background [`LENS_FILL`], a pixel's gap between bars wide enough to show one).
fn bars_image(
    reading: &LensReading,
    first: usize,
    end: usize,
    bar: f32,
    width: usize,
    height: usize,
) -> egui::ColorImage {
    let mut pixels = vec![LENS_FILL; width * height];
    let key_max = reading.key_max.max(1) as f32;
    for x in 0..width {
        let i = first + (x as f32 / bar) as usize;
        // The last pixel column of a wide bar stays background: the gap between bars.
        let gap = bar >= 6.0 && ((x + 1) as f32 / bar) as usize != (x as f32 / bar) as usize;
        if i >= end || gap {
            continue;
        }
        let cell = &reading.cells[i];
        let [r, g, b, _] = cell.pixel;
        let h = ((cell.key as f32 / key_max * height as f32).round() as usize).clamp(1, height);
        for y in height - h..height {
            pixels[y * width + x] = egui::Color32::from_rgb(r, g, b);
        }
    }
    egui::ColorImage::new(
        [width.max(1), height.max(1)],
        if width * height == 0 { vec![LENS_FILL] } else { pixels },
    )
}
