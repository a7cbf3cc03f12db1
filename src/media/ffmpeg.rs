//! Finding ffmpeg (`--ffmpeg PATH`, then `SHADERSORT_FFMPEG`, then `ffmpeg` on PATH) and
//! starting it as a child in a process group of its own, so that a Ctrl-C at the terminal
//! reaches shadersort alone and shadersort decides when its children end.

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

/// An ffmpeg program that exists.
#[derive(Clone, Debug)]
pub struct Ffmpeg {
    program: PathBuf,
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
            return Ok(Ffmpeg { program });
        }
        on_path(std::ffi::OsStr::new(if cfg!(windows) { "ffmpeg.exe" } else { "ffmpeg" }))
            .map(|program| Ffmpeg { program })
            .ok_or_else(|| FfmpegError::Missing { need: need() })
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
