//! Exact recordings: an animated PNG (`--record x.png` / `.apng`), decoded by the `image`
//! crate's APNG decoder (which composites the sub-frames as a viewer does), and a folder of PNG
//! frames (`--record DIR/`) hold every frame exactly as the CPU model says, alpha included.

use super::{fails, ok, ok_on, save};
use image::codecs::png::PngDecoder;
use image::{AnimationDecoder, RgbaImage};
use shadersort::keys::options::SortOptions;
use shadersort::picture::patterns::random_image;
use shadersort::reference::{odd_even_passes, stable_sort};
use std::path::Path;

/// Frames and their delays as (numerator, denominator) in milliseconds.
fn decode_apng(path: &Path) -> Vec<(RgbaImage, (u32, u32))> {
    let file = std::io::BufReader::new(std::fs::File::open(path).unwrap());
    let decoder = PngDecoder::new(file).unwrap();
    assert!(decoder.is_apng().unwrap(), "{} is not an animated PNG", path.display());
    let frames = decoder.apng().unwrap().into_frames().collect_frames().unwrap();
    frames.into_iter().map(|f| (f.delay().numer_denom_ms(), f.into_buffer())).map(|(d, b)| (b, d)).collect()
}

/// The frames of a folder, in order.
fn read_frames(dir: &Path) -> Vec<RgbaImage> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for (k, name) in names.iter().enumerate() {
        assert_eq!(*name, format!("frame-{k:05}.png"), "frame files are numbered from 0 without gaps");
    }
    names.iter().map(|n| image::open(dir.join(n)).unwrap().to_rgba8()).collect()
}

fn opaque(mut picture: RgbaImage) -> RgbaImage {
    picture.pixels_mut().for_each(|p| p[3] = 255);
    picture
}

fn scaled(picture: &RgbaImage, scale: u32) -> RgbaImage {
    RgbaImage::from_fn(picture.width() * scale, picture.height() * scale, |x, y| {
        *picture.get_pixel(x / scale, y / scale)
    })
}

/// Every pass of odd-even, opaque and translucent, both extensions: each frame is the model
/// exactly, every delay is 1/fps and the last is the hold.
#[test]
fn every_animated_png_frame_is_the_model_exactly_with_its_delay() {
    let dir = tempfile::tempdir().unwrap();
    let noise = random_image(23, 5, 71);
    // One on each software GPU.
    for (input, file, backend) in
        [(opaque(noise.clone()), "opaque.png", "vulkan"), (noise, "translucent.apng", "gl")]
    {
        let name = save(&input, dir.path(), &format!("{file}-input.png"));
        let stdout =
            ok_on(&[&name, "--record", file, "--fps", "25", "--hold", "1.5"], dir.path(), Some(backend));
        assert!(stdout.contains("exact RGBA), animated PNG"), "{stdout}");
        let frames = decode_apng(&dir.path().join(file));
        assert!(stdout.contains(&format!("recorded {} frames", frames.len())), "{stdout}");
        assert!(frames.len() > 10, "{file}: {} frames", frames.len());
        let options = SortOptions::default();
        for (k, (frame, delay)) in frames.iter().enumerate() {
            assert!(
                *frame == odd_even_passes(&input, &options, k as u32),
                "{file}: frame {k} differs from the model"
            );
            let last = k + 1 == frames.len();
            assert_eq!(*delay, if last { (1500, 1) } else { (40, 1) }, "{file}: delay of frame {k}");
        }
        assert!(
            frames.last().unwrap().0 == stable_sort(&input, &options),
            "{file}: the last frame is sorted"
        );
    }
    crate::ci::passed();
}

/// A frame that spans more passes than the swap counters hold (1,024): the recorder takes the
/// frames in flight, the driver reads the counts and the frame goes on; each frame is the model.
#[test]
fn frames_longer_than_the_swap_counters_are_the_model() {
    let dir = tempfile::tempdir().unwrap();
    let input = opaque(random_image(1100, 2, 17));
    let name = save(&input, dir.path(), "wide.png");
    let stdout = ok(&[&name, "--record", "wide.apng", "--every", "1050"], dir.path());
    let frames = decode_apng(&dir.path().join("wide.apng"));
    assert!(stdout.contains("recorded 3 frames"), "{stdout}");
    let options = SortOptions::default();
    for (k, (frame, _)) in frames.iter().enumerate() {
        let passes = (k as u32 * 1050).min(1100);
        assert!(*frame == odd_even_passes(&input, &options, passes), "frame {k} differs from the model");
    }
    crate::ci::passed();
}

/// The radix view's staged scatters show waiting pixels dimmed: in an animated PNG they are the
/// model's dimmed pixels themselves, not a palette's twins.
#[test]
fn radix_scatter_stages_are_recorded_exactly() {
    use shadersort::algorithms::radix::plan::{RadixPlan, Sequences};
    use shadersort::keys::options::{Axis, Scope};
    use shadersort::keys::radix_key::RadixKey;
    use shadersort::reference::radix::radix_steps;
    let dir = tempfile::tempdir().unwrap();
    let input = random_image(29, 4, 45);
    let name = save(&input, dir.path(), "noise.png");
    let args = [&name, "--algorithm", "radix", "--key", "red", "--digit-bits", "2", "--sub-steps"];
    ok(&[&args[..], &["--record", "r.png"]].concat(), dir.path());
    let options = SortOptions { key: shadersort::keys::SortKey::Red, ..Default::default() };
    let plan = RadixPlan {
        key: RadixKey::new(options, None).unwrap(),
        digit_bits: 2,
        stages: 4,
        twin_indices: false,
    };
    let seqs = Sequences { width: 29, height: 4, axis: Axis::Rows, scope: Scope::Rows };
    let frames = decode_apng(&dir.path().join("r.png"));
    assert_eq!(frames.len() as u32, plan.steps() + 1);
    for (k, (frame, _)) in frames.iter().enumerate() {
        let (state, _) = radix_steps(&input, seqs, &plan, k as u32);
        assert!(*frame == state, "frame {k} differs from the model");
    }
    crate::ci::passed();
}

/// `--record DIR/`: one whole PNG per frame, scaled, the model at each pass; the output names
/// the ffmpeg line; a second recording replaces the first's frames; folders in use and bad
/// paths are refused with nothing written.
#[test]
fn a_folder_holds_every_frame_and_is_replaced_whole() {
    let dir = tempfile::tempdir().unwrap();
    let input = random_image(9, 3, 8);
    let name = save(&input, dir.path(), "small.png");
    let stdout = ok(&[&name, "--record", "out/", "--scale", "2", "--fps", "12"], dir.path());
    assert!(stdout.contains("PNG frames"), "{stdout}");
    assert!(stdout.contains("to make a video: ffmpeg -framerate 12 -i 'out/frame-%05d.png'"), "{stdout}");
    let frames = read_frames(&dir.path().join("out"));
    assert!(stdout.contains(&format!("recorded {} frames", frames.len())), "{stdout}");
    let options = SortOptions::default();
    for (k, frame) in frames.iter().enumerate() {
        assert!(*frame == scaled(&odd_even_passes(&input, &options, k as u32), 2), "frame {k}");
    }
    ok(&[&name, "--record", "out", "--max-frames", "3"], dir.path());
    assert_eq!(read_frames(&dir.path().join("out")).len(), 3, "the earlier frames are replaced");

    std::fs::create_dir(dir.path().join("mine")).unwrap();
    std::fs::write(dir.path().join("mine/notes.txt"), b"keep").unwrap();
    fails(&[&name, "--record", "mine/"], dir.path(), "holds other files ('notes.txt')");
    fails(&[&name, "--record", "small.png/"], dir.path(), "it is a file");
    fails(&[&name, "--record", "no/such/"], dir.path(), "does not exist");
    fails(&[&name, "--record", "clip.avi"], dir.path(), ".mp4, .mov, .mkv or .webm for a video");
    let mut left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into())
        .collect();
    left.sort();
    assert_eq!(left, ["mine", "out", "small.png"], "nothing else is written");
    assert_eq!(std::fs::read(dir.path().join("mine/notes.txt")).unwrap(), b"keep");
    crate::ci::passed();
}

/// A threshold sweep as an animated PNG: frame k is the picture sorted within threshold k's
/// intervals, exactly.
#[test]
fn a_threshold_sweep_records_exact_frames() {
    use shadersort::intervals::threshold::ThresholdSweep;
    use shadersort::intervals::{IntervalMap, IntervalMode, IntervalSettings};
    use shadersort::reference::stable_sort_within;
    let dir = tempfile::tempdir().unwrap();
    let input = opaque(random_image(17, 6, 3));
    let name = save(&input, dir.path(), "noise.png");
    let stdout = ok(&[&name, "--sweep", "1..0.2", "--frames", "4", "--record", "sweep.png"], dir.path());
    assert!(stdout.contains("recorded 4 frames of the threshold sweep"), "{stdout}");
    let sweep = ThresholdSweep::new(1.0, 0.2, 4);
    let options = SortOptions::default();
    let frames = decode_apng(&dir.path().join("sweep.png"));
    assert_eq!(frames.len(), 4);
    for (k, (frame, _)) in frames.iter().enumerate() {
        let settings = IntervalSettings {
            mode: IntervalMode::Threshold,
            threshold: sweep.threshold(k as u32),
            ..Default::default()
        };
        let intervals = IntervalMap::compute(&input, options.axis, &settings, None).unwrap();
        assert!(*frame == stable_sort_within(&input, &options, &intervals), "frame {k}");
    }
    crate::ci::passed();
}

/// README's bitonic APNG (`--algorithm bitonic --threshold 0.3..0.9 --axis columns --fps 8`) on a
/// small random picture, columns of 37 across several intervals: one frame per stage, each the CPU
/// model's state after that stage within the threshold's intervals exactly, alpha included, every
/// delay 1/8 s but the hold's; the last frame is each interval stably sorted.
#[test]
fn bitonic_within_a_threshold_along_columns_records_every_stage_exactly() {
    use shadersort::intervals::{IntervalMap, IntervalMode, IntervalSettings, Threshold};
    use shadersort::keys::options::Axis;
    use shadersort::reference::bitonic::BitonicModel;
    use shadersort::reference::{fixed_pixels_stay, stable_sort_within};
    let dir = tempfile::tempdir().unwrap();
    let input = random_image(13, 37, 45);
    let name = save(&input, dir.path(), "noise.png");
    let args = [&name, "--max-size", "240", "--algorithm", "bitonic", "--threshold", "0.3..0.9"];
    let stdout =
        ok(&[&args[..], &["--axis", "columns", "--fps", "8", "--record", "b.png"]].concat(), dir.path());
    assert!(stdout.contains("exact RGBA), animated PNG"), "{stdout}");
    let options = SortOptions { axis: Axis::Columns, ..Default::default() };
    let settings = IntervalSettings {
        mode: IntervalMode::Threshold,
        threshold: Threshold::new(0.3, 0.9).unwrap(),
        ..Default::default()
    };
    let intervals = IntervalMap::compute(&input, Axis::Columns, &settings, None).unwrap();
    let mut model = BitonicModel::new(&input, options, Some(&intervals));
    // The intervals must be long enough for several merges, and leave pixels fixed.
    assert!(model.stages() >= 6 && intervals.summary().fixed > 0, "{:?}", intervals.summary());
    let frames = decode_apng(&dir.path().join("b.png"));
    assert_eq!(frames.len() as u32, model.stages() + 1, "the input and one frame per stage");
    assert!(stdout.contains(&format!("recorded {} frames", frames.len())), "{stdout}");
    for (k, (frame, delay)) in frames.iter().enumerate() {
        if k > 0 {
            model.step();
        }
        assert!(frame == model.state(), "frame {k} differs from the model after {k} stages");
        if k + 1 < frames.len() {
            assert_eq!(*delay, (125, 1), "delay of frame {k}");
        }
    }
    let last = &frames.last().unwrap().0;
    assert!(
        *last == stable_sort_within(&input, &options, &intervals),
        "the last frame is each interval sorted"
    );
    assert!(fixed_pixels_stay(&input, last, &intervals), "pixels outside the threshold stay");
    crate::ci::passed();
}
