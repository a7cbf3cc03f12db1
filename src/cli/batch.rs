//! Many inputs in one run: when the command line's inputs are a batch, the flags only a batch
//! takes, and the batch's settings.

use super::Cli;
use super::check::refuse_any;
use crate::picture::input::is_glob;
use crate::picture::output_dir::names_folder;
use crate::picture::still_format::{DEFAULT_JPEG_QUALITY, StillFormat};
use crate::settings::BatchSettings;
use std::path::Path;

impl Cli {
    /// The one input of a run that is not a batch (`None`: the built-in picture, a pattern or a
    /// live source).
    pub fn image(&self) -> Option<&Path> {
        match self.inputs.as_slice() {
            [one] if !self.is_batch() => Some(one),
            _ => None,
        }
    }

    /// Whether the inputs are sorted one by one as a batch: several of them; one folder with
    /// `--recursive` or sorted into a folder (a folder into a video is a clip of its frames, and
    /// without `--out` the window plays it); a pattern the shell left; one picture sorted into a
    /// folder (a clip into a folder is its frames as PNG files).
    pub fn is_batch(&self) -> bool {
        let into_folder = self.out.as_deref().is_some_and(names_folder);
        match self.inputs.as_slice() {
            [] => false,
            [one] if one.is_dir() => self.recursive || into_folder,
            [one] => is_glob(one) || into_folder && !crate::media::is_clip(one),
            _ => true,
        }
    }

    /// The batch's own flags only with a batch, a folder to write into, and none of the flags
    /// that make one file of one input.
    pub(super) fn check_batch(&self) -> Result<(), String> {
        let jpeg = self.format == Some(StillFormat::Jpeg);
        if self.quality.is_some() && !jpeg {
            return Err("--quality sets the quality of pictures written as JPEG: add --format jpeg (with --out DIR/), or drop --quality".into());
        }
        if !self.is_batch() {
            let own = [
                ("--recursive", self.recursive),
                ("--format", self.format.is_some()),
                ("--overwrite", self.overwrite),
            ];
            return refuse_any(&own, |flag| {
                format!(
                    "{flag} applies to many inputs sorted into a folder (several pictures or clips, a folder, or a pattern like '*.jpg', with --out DIR/); drop {flag}"
                )
            });
        }
        let what = match self.inputs.as_slice() {
            [one] if one.is_dir() => format!("the pictures and clips in '{}'", one.display()),
            [one] if is_glob(one) => format!("the files '{}' matches", one.display()),
            [one] => format!("'{}'", one.display()),
            many => format!("{} inputs", many.len()),
        };
        match &self.out {
            None => {
                return Err(format!(
                    "{what} are sorted one by one into a folder: add --out DIR/ (each written there under its own name)"
                ));
            }
            Some(out) if !names_folder(out) => {
                return Err(format!(
                    "--out '{}' is one file, but {what} are sorted one by one into a folder: give one ending in /, like --out sorted/",
                    out.display()
                ));
            }
            Some(_) => {}
        }
        let one_file = [
            ("--record", self.record.is_some()),
            ("--sweep", self.sweep.is_some()),
            ("--frames", self.frames.is_some()),
            ("--every", self.every.is_some()),
            ("--max-frames", self.max_frames.is_some()),
            ("--sound", self.sound),
            ("--frame-rate", self.frame_rate.is_some()),
        ];
        refuse_any(&one_file, |flag| {
            format!(
                "{flag} does not go with many inputs: each of {what} is sorted into --out DIR/ (a clip given as frames is one input: sort it on its own); drop {flag}"
            )
        })
    }

    /// The batch's settings, if the inputs are one.
    pub fn batch_settings(&self) -> Option<BatchSettings> {
        self.is_batch().then(|| BatchSettings {
            inputs: self.inputs.clone(),
            recursive: self.recursive,
            format: self.format,
            quality: self.quality.unwrap_or(DEFAULT_JPEG_QUALITY),
            overwrite: self.overwrite,
        })
    }
}
