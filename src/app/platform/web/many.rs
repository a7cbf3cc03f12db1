//! Shift+G in the page: the pictures picked sorted one after another on the page's engine with
//! its settings, each to its end (by the fastest way there, as a batch's are), in its own format
//! where that is exact (else PNG), and downloaded together as `sorted.zip`.

use crate::algorithms::request::StartRequest;
use crate::algorithms::{Algorithm, RunSettings};
use crate::angle::{Lines, Route};
use crate::app::Running;
use crate::app::dialogs::Chosen;
use crate::engine::Engine;
use crate::engine::drive::run_to_async;
use crate::gpu::readback::read_texture_async;
use crate::intervals::{IntervalSettings, Mask};
use crate::keys::options::SortOptions;
use crate::picture::input::SizeLimit;
use crate::picture::still_format::{DEFAULT_JPEG_QUALITY, EncodeOptions, StillFormat};
use crate::record::png_frames::FrameFiles;
use crate::record::zip::ZipFiles;
use std::collections::HashSet;
use std::path::Path;

/// The download's name, and the folder in it.
pub(super) const DOWNLOAD: &str = "sorted.zip";

/// What every picture is sorted with: the page's settings as they were when Shift+G was pressed.
pub(super) struct ManyJob {
    route: Route,
    algorithm: Algorithm,
    run: RunSettings,
    options: SortOptions,
    intervals: IntervalSettings,
    mask: Option<Mask>,
    limit: SizeLimit,
    encode: EncodeOptions,
}

impl ManyJob {
    /// The page's settings now.
    pub(super) fn of(running: &Running) -> ManyJob {
        let s = &running.session;
        let mut run = s.choice.settings;
        // Nobody watches the steps: as few dispatches as there can be.
        run.radix.device_sorted_lines = true;
        run.phases_per_step = u32::MAX;
        ManyJob {
            route: s.lines.route(),
            algorithm: s.choice.algorithm,
            run,
            options: s.options(),
            intervals: s.intervals,
            mask: s.mask.as_ref().map(|m| m.mask().clone()),
            limit: running.limit.clone(),
            encode: EncodeOptions {
                quality: DEFAULT_JPEG_QUALITY,
                background: running.record_settings.background,
                png: Default::default(),
                threads: 1,
            },
        }
    }

    /// Sorts every file into the archive, `progress` told after each (false: stop); the
    /// archive's bytes and the line to show, or why nothing could be made.
    pub(super) async fn sort_all(
        &self,
        engine: &Engine,
        files: Vec<Chosen>,
        mut progress: impl FnMut(u64) -> bool,
    ) -> Result<(Vec<u8>, String), String> {
        let folder = DOWNLOAD.strip_suffix(".zip").unwrap_or(DOWNLOAD);
        let seconds =
            web_time::SystemTime::now().duration_since(web_time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
        let mut zip = ZipFiles::new(folder, seconds);
        let (mut names, mut skipped, mut done) = (HashSet::new(), Vec::new(), 0u64);
        for file in &files {
            if !progress(done) {
                return Err(format!("stopped after {done} of {} pictures; nothing downloaded", files.len()));
            }
            match self.sort_one(engine, file).await {
                Ok((format, bytes)) => {
                    let name = unique_name(file.path(), format, &mut names);
                    zip.add(&name, &bytes).map_err(|e| e.to_string())?;
                }
                Err(why) => skipped.push(format!("'{}': {why}", file.path().display())),
            }
            done += 1;
        }
        progress(done);
        let sorted = files.len() - skipped.len();
        if sorted == 0 {
            return Err(format!("no picture could be sorted: {}", skipped.join("; ")));
        }
        let mut line = format!("sorted {sorted} of {} pictures: downloaded {DOWNLOAD}", files.len());
        if let Some(first) = skipped.first() {
            line += &format!("; skipped {}: {first}", skipped.len());
        }
        Ok((zip.finish().map_err(|e| e.to_string())?, line))
    }

    /// One picture sorted to its end and encoded: its format and bytes.
    async fn sort_one(&self, engine: &Engine, file: &Chosen) -> Result<(StillFormat, Vec<u8>), String> {
        let Chosen::Bytes { bytes, .. } = file else { return Err("the page reads files' bytes".into()) };
        let format = StillFormat::exact_format_of(bytes).unwrap_or(StillFormat::Png);
        let picture = file.picture().map_err(|e| e.to_string())?;
        let (picture, _) = picture.fit(&self.limit).map_err(|e| e.to_string())?;
        let size = picture.pixels.dimensions();
        let gpu = engine.gpu();
        let side = gpu.device.limits().max_texture_dimension_2d;
        let lines = Lines::of(self.route, size, side).map_err(|e| e.to_string())?;
        let mask = self.mask.as_ref().map(|m| m.resized(size.0, size.1));
        let intervals =
            lines.intervals(&picture.pixels, &self.intervals, mask.as_ref()).map_err(|e| e.to_string())?;
        let asked = (self.algorithm, self.run);
        let (algorithm, run, _) =
            crate::engine::plan::fastest_end(&lines, asked, self.options, size, intervals.is_some());
        let request =
            StartRequest::new(&picture.pixels, self.options).settings(run).within(intervals.as_ref());
        let mut run = engine.start(&lines, algorithm, request).run;
        let end = run.total_steps();
        run_to_async(gpu, run.as_mut(), end, |_| true).await.map_err(|e| e.to_string())?;
        let sorted = read_texture_async(gpu, run.state()).await.map_err(|e| e.to_string())?;
        let encoded = format.encode(&sorted, picture.has_alpha, &self.encode).map_err(|e| e.to_string())?;
        Ok((format, encoded))
    }
}

/// The name a picture has in the archive: its own stem with the format's extension, a number
/// after it where another picture took that name.
fn unique_name(input: &Path, format: StillFormat, names: &mut HashSet<String>) -> String {
    let stem = input.file_stem().map_or_else(|| "picture".into(), |s| s.to_string_lossy().into_owned());
    let ext = format.extension();
    let name = (1..)
        .map(|n| if n == 1 { format!("{stem}.{ext}") } else { format!("{stem}-{n}.{ext}") })
        .find(|name| !names.contains(name))
        .expect("some number is free");
    names.insert(name.clone());
    name
}
