//! Finding ffmpeg (`--ffmpeg PATH`, then `SHADERSORT_FFMPEG`, then `ffmpeg` on PATH) and
//! starting it as a child in a process group of its own, so that a Ctrl-C at the terminal
//! reaches shadersort alone and shadersort decides when its children end. Each ffmpeg found is
//! asked what it is ([`Build`]) and refused when it is older than shadersort works with.

use super::ffmpeg_build::{self, Build};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The environment variable that names the ffmpeg to use when `--ffmpeg` does not.
pub const FFMPEG_VARIABLE: &str = "SHADERSORT_FFMPEG";

/// How to get ffmpeg, for messages.
pub const INSTALL_HINT: &str = "install it (apt install ffmpeg, brew install ffmpeg, winget install ffmpeg) or name it with --ffmpeg PATH or SHADERSORT_FFMPEG";

/// Why ffmpeg cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum FfmpegError {
    /// No ffmpeg on PATH and none named.
    #[error(
        "{need}, and shadersort reads and writes videos through ffmpeg, which is not on PATH; {INSTALL_HINT}"
    )]
    Missing {
        /// What needs it: "cannot read 'clip.mp4': it is a video".
        need: String,
    },
    /// The named program does not exist.
    #[error("cannot use ffmpeg '{program}' (from {origin}): no such file; check the path, or {INSTALL_HINT}")]
    NoSuchProgram {
        /// The path given.
        program: PathBuf,
        /// `--ffmpeg` or `SHADERSORT_FFMPEG`.
        origin: &'static str,
    },
    /// Older than the oldest ffmpeg shadersort works with, or not telling its version.
    #[error(
        "cannot use ffmpeg '{program}' (version {version}): shadersort needs ffmpeg {} or newer; {INSTALL_HINT}",
        ffmpeg_build::OLDEST.0
    )]
    TooOld {
        /// The program.
        program: PathBuf,
        /// Its version, as its banner gives it.
        version: String,
    },
    /// An encoder the output needs is not built into this ffmpeg.
    #[error(
        "cannot write '{target}': ffmpeg {version} ('{program}') has no {encoder} encoder, which {why}; use an ffmpeg built with {encoder} (--ffmpeg PATH), or another container or --codec"
    )]
    NoEncoder {
        /// The output.
        target: PathBuf,
        /// The program.
        program: PathBuf,
        /// Its version.
        version: String,
        /// The encoder missing.
        encoder: String,
        /// What needs it: "a .webm output needs".
        why: String,
    },
    /// ffmpeg refused an argument shadersort gave it: a version shadersort does not drive right.
    #[error(
        "ffmpeg {version} ('{program}') refused an argument shadersort gave it ({detail}); nothing was written; please report this with the version, and meanwhile name another ffmpeg with --ffmpeg PATH"
    )]
    Refused {
        /// The program.
        program: PathBuf,
        /// Its version.
        version: String,
        /// ffmpeg's words.
        detail: String,
    },
    /// Starting it failed.
    #[error(
        "cannot run ffmpeg '{program}': {source}; check that it is an executable ffmpeg, or {INSTALL_HINT}"
    )]
    NotRunnable {
        /// The program.
        program: PathBuf,
        /// The operating system's reason.
        source: std::io::Error,
    },
}

/// An ffmpeg program that exists and is recent enough.
#[derive(Clone, Debug)]
pub struct Ffmpeg {
    program: PathBuf,
    build: std::sync::Arc<Build>,
}

impl Ffmpeg {
    /// The ffmpeg named by `given` (`--ffmpeg`), else by [`FFMPEG_VARIABLE`], else the first on
    /// PATH; `need` says what needs it, for the message when there is none.
    pub fn find(given: Option<&Path>, need: impl FnOnce() -> String) -> Result<Ffmpeg, FfmpegError> {
        let named = given.map(|p| (p.to_path_buf(), "--ffmpeg")).or_else(|| {
            std::env::var_os(FFMPEG_VARIABLE)
                .filter(|v| !v.is_empty())
                .map(|v| (PathBuf::from(v), FFMPEG_VARIABLE))
        });
        if let Some((program, origin)) = named {
            // A bare name ("ffmpeg7") is looked up on PATH as a shell would.
            let found = if program.components().count() == 1 { on_path(program.as_os_str()) } else { None };
            let program = found.unwrap_or(program);
            if !program.is_file() {
                return Err(FfmpegError::NoSuchProgram { program, origin });
            }
            return Ffmpeg::asked(program);
        }
        let program = on_path(std::ffi::OsStr::new(if cfg!(windows) { "ffmpeg.exe" } else { "ffmpeg" }))
            .ok_or_else(|| FfmpegError::Missing { need: need() })?;
        Ffmpeg::asked(program)
    }

    /// `program`, once it has said what it is and that it is recent enough.
    fn asked(program: PathBuf) -> Result<Ffmpeg, FfmpegError> {
        let build = match Build::of(&program) {
            Ok(build) => build,
            Err(source) => return Err(FfmpegError::NotRunnable { program, source }),
        };
        if !build.recent_enough() {
            return Err(FfmpegError::TooOld { program, version: build.version.clone() });
        }
        Ok(Ffmpeg { program, build })
    }

    /// What this ffmpeg is.
    pub fn build(&self) -> &Build {
        &self.build
    }

    /// Refuses `args` (output arguments for `target`) when they name an encoder this ffmpeg
    /// lacks; `why` says what needs it ("a .webm output needs").
    pub fn check_encoders(&self, args: &[String], target: &Path, why: &str) -> Result<(), FfmpegError> {
        match ffmpeg_build::encoders_named(args).into_iter().find(|e| !self.build.has_encoder(e)) {
            None => Ok(()),
            Some(encoder) => Err(FfmpegError::NoEncoder {
                target: target.into(),
                program: self.program.clone(),
                version: self.build.version.clone(),
                encoder: encoder.into(),
                why: why.into(),
            }),
        }
    }

    /// The error for a run whose log says ffmpeg refused an argument, if it says so.
    pub fn refused(&self, log: &str) -> Option<FfmpegError> {
        ffmpeg_build::refusal(log).map(|detail| FfmpegError::Refused {
            program: self.program.clone(),
            version: self.build.version.clone(),
            detail,
        })
    }

    /// The program's path.
    pub fn program(&self) -> &Path {
        &self.program
    }

    /// A command running ffmpeg quietly (errors only, no banner, no keyboard), with `args`,
    /// in its own process group, its stdin, stdout and stderr as given.
    pub fn command<I, S>(&self, args: I) -> Command
    where
        I: IntoIterator<Item = S>,
        S: Into<OsString>,
    {
        let mut command = Command::new(&self.program);
        command.args(["-hide_banner", "-nostdin"]);
        command.args(args.into_iter().map(Into::into));
        command.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::piped());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        command
    }

    /// Runs `command` to its end, collecting its stderr.
    pub fn output(&self, command: &mut Command) -> Result<std::process::Output, FfmpegError> {
        command.output().map_err(|source| FfmpegError::NotRunnable { program: self.program.clone(), source })
    }

    /// Starts `command`, naming this ffmpeg when it cannot be started.
    pub fn spawn(&self, command: &mut Command) -> Result<std::process::Child, FfmpegError> {
        command.spawn().map_err(|source| FfmpegError::NotRunnable { program: self.program.clone(), source })
    }
}

/// A thread that reads a child's stderr to its end (so ffmpeg never blocks on a full pipe) and
/// returns it, for the reason given when ffmpeg fails.
pub fn collect_log(
    child: &mut std::process::Child,
    name: &str,
) -> std::io::Result<std::thread::JoinHandle<String>> {
    let mut stderr = child.stderr.take().expect("stderr is piped");
    std::thread::Builder::new().name(name.into()).spawn(move || {
        let mut log = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut log);
        log
    })
}

/// The first file called `name` in a folder of PATH.
fn on_path(name: &std::ffi::OsStr) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|dir| dir.join(name)).find(|candidate| candidate.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_named_program_that_is_missing_is_refused_with_where_it_came_from() {
        let e = Ffmpeg::find(Some(Path::new("/no/such/ffmpeg")), String::new).unwrap_err();
        let text = e.to_string();
        assert!(text.contains("'/no/such/ffmpeg' (from --ffmpeg): no such file"), "{text}");
        assert!(text.contains("apt install ffmpeg"), "{text}");
    }

    #[test]
    fn the_missing_message_names_the_clip_and_how_to_install() {
        let text = FfmpegError::Missing { need: "cannot read 'clip.mkv': it is a video".into() }.to_string();
        assert!(text.starts_with("cannot read 'clip.mkv': it is a video"), "{text}");
        assert!(text.contains("--ffmpeg PATH or SHADERSORT_FFMPEG"), "{text}");
    }
}
