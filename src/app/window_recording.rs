//! G in the window: a recording of the current picture and settings, in the format the panel
//! chooses, started in the background, and its outcome shown when it ends.

use super::Running;
use super::platform::{BackgroundRecording, Recorder};
use super::recording_job::RecordingJob;
use crate::record::{DEFAULT_FRAME_LIMIT, RecordFormat};
use std::path::PathBuf;

impl Running {
    pub(super) fn start_recording(&mut self) {
        if self.take.is_some() {
            self.toggle_take();
            return;
        }
        if self.recording.is_some() {
            self.ui.status.say("a recording is already under way");
            return;
        }
        if self.source.clip().is_some() {
            self.start_clip_recording();
            return;
        }
        if self.source.live().is_some() {
            self.toggle_take();
            return;
        }
        let format = self.ui.record_format;
        let path = recording_path(&self.file_stem(), format);
        #[cfg(not(target_arch = "wasm32"))]
        if let Err(e) = std::fs::create_dir_all("gifs") {
            self.ui.status.error(format!("cannot create the folder gifs: {e}"));
            return;
        }
        let mut settings = self.record_settings.clone();
        settings.steps = None;
        settings.sound = self.sound.on() && format == RecordFormat::Video;
        let run_settings = format.run_settings(self.session.choice.settings, self.session.choice.algorithm);
        settings.dimmed_twins = run_settings.radix.twin_indices;
        if settings.every.is_none() && settings.max_frames.is_none() {
            settings.max_frames = Some(DEFAULT_FRAME_LIMIT);
        }
        let s = &self.session;
        // What the window shows: its lines and intervals, or what the algorithm can sort instead.
        let (lines, intervals, _) = crate::engine::plan::plan(
            &s.lines,
            s.choice.algorithm,
            s.options(),
            &run_settings,
            s.interval_map.as_ref(),
        );
        let intervals = intervals.cloned();
        let size = s.picture.pixels.dimensions();
        let sound_line =
            Some(crate::lens::LensLine::through(&lines, size, self.lens.heard_point(size)).index);
        let job = RecordingJob {
            picture: s.picture.pixels.clone(),
            lines,
            options: s.options(),
            algorithm: s.choice.algorithm,
            run_settings,
            settings,
            format,
            path,
            intervals,
            sound_line,
        };
        self.recording = Some(BackgroundRecording::start(self.engine.clone(), job));
        self.ui.status.say("recording...");
    }

    pub(super) fn finish_recording(&mut self) {
        let Some(outcome) = self.recording.as_ref().and_then(BackgroundRecording::try_finish) else { return };
        self.recording = None;
        match outcome {
            Ok(line) => self.ui.status.say(line),
            Err(e) => self.ui.status.error(e),
        }
    }
}

/// Where G records in `format`: `gifs/<stem>.gif`, `gifs/<stem>.png` (animated PNG) or the
/// folder `gifs/<stem>-frames/`; in the page the download's name alone, the frames in a zip
/// archive (`<stem>-frames.zip`: one download rather than one per frame).
pub(super) fn recording_path(stem: &str, format: RecordFormat) -> PathBuf {
    let page = cfg!(target_arch = "wasm32");
    let name = match format {
        RecordFormat::Gif => format!("{stem}.gif"),
        RecordFormat::Apng => format!("{stem}.png"),
        RecordFormat::Frames if page => format!("{stem}-frames.zip"),
        RecordFormat::Frames => format!("{stem}-frames/"),
        RecordFormat::Video => format!("{stem}.mp4"),
    };
    if page { PathBuf::from(name) } else { PathBuf::from("gifs").join(name) }
}

/// The formats G records in: natively a video too (through ffmpeg, with the steps' sound while
/// Sound is on).
#[cfg(not(target_arch = "wasm32"))]
pub(super) const RECORD_FORMATS: [RecordFormat; 4] =
    [RecordFormat::Gif, RecordFormat::Apng, RecordFormat::Frames, RecordFormat::Video];
#[cfg(target_arch = "wasm32")]
pub(super) const RECORD_FORMATS: [RecordFormat; 3] =
    [RecordFormat::Gif, RecordFormat::Apng, RecordFormat::Frames];

/// What each recording format is for, and where it goes.
pub(super) fn format_tip(format: RecordFormat) -> &'static str {
    #[cfg(not(target_arch = "wasm32"))]
    let tip = match format {
        RecordFormat::Gif => "256 colours, plays anywhere (gifs/<name>.gif)",
        RecordFormat::Apng => "Every frame's exact colours, plays in browsers (gifs/<name>.png)",
        RecordFormat::Frames => "One exact PNG per frame, for video editors and ffmpeg (gifs/<name>-frames/)",
        RecordFormat::Video => {
            "H.264 through ffmpeg, with the steps' sound while Sound is on (gifs/<name>.mp4)"
        }
    };
    #[cfg(target_arch = "wasm32")]
    let tip = match format {
        RecordFormat::Gif => "256 colours, plays anywhere (downloads <name>.gif)",
        RecordFormat::Apng => "Every frame's exact colours, plays in browsers (downloads <name>.png)",
        RecordFormat::Frames => {
            "One exact PNG per frame, for video editors and ffmpeg (downloads <name>-frames.zip)"
        }
        RecordFormat::Video => "A video needs ffmpeg: record in the desktop window",
    };
    tip
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_format_records_to_a_path_that_names_it() {
        for format in [RecordFormat::Gif, RecordFormat::Apng, RecordFormat::Frames, RecordFormat::Video] {
            let path = recording_path("coffee-odd-even-luma", format);
            assert!(path.starts_with("gifs"), "{}", path.display());
            assert_eq!(RecordFormat::of_path(&path), Some(format), "{}", path.display());
        }
    }
}
