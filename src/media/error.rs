//! Why a clip cannot be sorted: one error for every stage (ffmpeg, the input, the frames, the
//! output), each message naming the file, the problem and the fix.

use super::ffmpeg::{self, FfmpegError};
use crate::picture::input::InputError;
use std::path::PathBuf;

/// Why a clip cannot be sorted. Every message names the file, the problem and the fix.
#[derive(Debug, thiserror::Error)]
pub enum ClipError {
    /// ffmpeg is missing or cannot run.
    #[error(transparent)]
    Ffmpeg(#[from] FfmpegError),
    /// ffmpeg cannot read the file.
    #[error(
        "cannot read '{path}': ffmpeg cannot read it as a video ({detail}); give a video, an animated GIF or a folder of frames"
    )]
    NotAVideo {
        /// The file.
        path: PathBuf,
        /// ffmpeg's reason.
        detail: String,
    },
    /// No video stream.
    #[error("cannot read '{path}': it holds no video stream, only {other}; give a file with video")]
    NoVideoStream {
        /// The file.
        path: PathBuf,
        /// The streams it has.
        other: String,
    },
    /// A video stream without frames.
    #[error("cannot read '{path}': its video stream has no frames; give a clip with at least one frame")]
    NoFrames {
        /// The file.
        path: PathBuf,
    },
    /// No picture files in a folder or for a pattern.
    #[error(
        "cannot read '{path}': no frames there (PNG, JPEG, BMP, TIFF or WebP files); check the folder or the pattern"
    )]
    NoFrameFiles {
        /// The folder or pattern.
        path: PathBuf,
    },
    /// A frame of a sequence is not the first frame's size.
    #[error("cannot use '{path}': it is {width}x{height}, but the first frame is {}x{}; every frame must have one size", first.0, first.1)]
    FrameSize {
        /// The frame.
        path: PathBuf,
        /// Its width.
        width: u32,
        /// Its height.
        height: u32,
        /// The first frame's size.
        first: (u32, u32),
    },
    /// The stream ended early or was damaged.
    #[error("cannot read '{path}': the video breaks off after {} ({detail}); nothing was written; repair or re-export the clip", frames_of(*done, *total))]
    Broken {
        /// The file.
        path: PathBuf,
        /// Frames decoded.
        done: u64,
        /// Frames the stream holds, when known.
        total: Option<u64>,
        /// What went wrong.
        detail: String,
    },
    /// A folder could not be listed.
    #[error("cannot read '{path}': {source}; check its permissions")]
    Read {
        /// The folder.
        path: PathBuf,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// A frame file could not be decoded.
    #[error(transparent)]
    Picture(#[from] InputError),
    /// An output without an extension.
    #[error(
        "cannot write '{path}': the extension says the container (.mp4, .mkv, .webm, .mov, .gif, .png); add one, or end the path in / for a folder of PNG frames"
    )]
    NoExtension {
        /// The target.
        path: PathBuf,
    },
    /// `--lossless` into a container without an exact RGB codec.
    #[error(
        "cannot write '{path}' with --lossless: .{ext} holds no lossless RGB codec; use .mkv (FFV1), .avi, .nut, .mov (PNG), .png (animated PNG) or a folder ending in /"
    )]
    NoLosslessCodec {
        /// The target.
        path: PathBuf,
        /// Its extension.
        ext: String,
    },
    /// Encoding choices that do not go together.
    #[error("{0}")]
    Choice(String),
    /// A video output needs ffmpeg, which is missing.
    #[error(
        "cannot write '{path}': videos are written through ffmpeg, which is not on PATH; {}, or end the path in / for PNG frames",
        ffmpeg::INSTALL_HINT
    )]
    NeedsFfmpeg {
        /// The target.
        path: PathBuf,
    },
    /// ffmpeg failed to encode.
    #[error(
        "cannot write '{path}': ffmpeg failed ({detail}); nothing was written; check --codec and --crf, the path and the disk"
    )]
    Encode {
        /// The target.
        path: PathBuf,
        /// ffmpeg's reason.
        detail: String,
    },
    /// PNG frames could not be written.
    #[error("cannot write frames into '{path}': {detail}")]
    WriteFrames {
        /// The target folder.
        path: PathBuf,
        /// The reason.
        detail: String,
    },
    /// The output file or folder cannot be made.
    #[error(transparent)]
    Output(#[from] crate::picture::output::OutputError),
    /// The output folder cannot be used.
    #[error(transparent)]
    Folder(#[from] crate::picture::output_dir::FolderError),
    /// A worker thread could not start.
    #[error("cannot start a thread: {0}")]
    Thread(std::io::Error),
}

/// "12 of 30 frames", or "12 frames" when the whole is not known.
fn frames_of(done: u64, total: Option<u64>) -> String {
    match total {
        Some(total) => format!("{done} of {total} frames"),
        None => format!("{done} frames"),
    }
}
