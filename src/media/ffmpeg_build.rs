//! What an ffmpeg is: its version and the encoders it was built with, asked of it once per
//! program (`ffmpeg -encoders` prints both: the banner on stderr, the list on stdout), so that
//! shadersort gives each ffmpeg from 4.2 on the arguments it knows and refuses one that cannot
//! do the job before anything is read or written.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// The oldest ffmpeg shadersort works with (tested in CI), as users know it and as its
/// libavutil counts it (ffmpeg 4.2 ships libavutil 56.31).
pub const OLDEST: (&str, (u32, u32)) = ("4.2", (56, 31));

/// The libavutil of ffmpeg 5.1, the first whose command line knows `-fps_mode`.
const FPS_MODE_SINCE: (u32, u32) = (57, 28);

/// One ffmpeg program's version and encoders.
#[derive(Debug, PartialEq, Eq)]
pub struct Build {
    /// The version as the banner's first line gives it: `4.2.2-static`, `5.1.9-0+deb12u1`,
    /// `N-113000-g1234abcd` for a build from git; `unknown` when the banner has none.
    pub version: String,
    /// libavutil's major and minor version, which every build prints and which orders releases
    /// and builds from git alike.
    pub avutil: (u32, u32),
    /// The names of the encoders it has (`libx264`, `aac`, ...).
    pub encoders: BTreeSet<String>,
}

impl Build {
    /// What `program` is, asked once per program in a process and remembered.
    pub fn of(program: &Path) -> std::io::Result<Arc<Build>> {
        static KNOWN: OnceLock<Mutex<HashMap<PathBuf, Arc<Build>>>> = OnceLock::new();
        let known = KNOWN.get_or_init(Default::default);
        if let Some(build) = known.lock().expect("never poisoned").get(program) {
            return Ok(build.clone());
        }
        let mut command = std::process::Command::new(program);
        command.arg("-encoders").stdin(std::process::Stdio::null());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let output = command.output()?;
        let build = Arc::new(Build::parse(
            &String::from_utf8_lossy(&output.stderr),
            &String::from_utf8_lossy(&output.stdout),
        ));
        known.lock().expect("never poisoned").insert(program.to_path_buf(), build.clone());
        Ok(build)
    }

    /// A build from the banner ffmpeg prints on stderr and its list of encoders; a banner
    /// without a libavutil line gives `(0, 0)`, older than any ffmpeg.
    pub fn parse(banner: &str, listing: &str) -> Build {
        let version = banner
            .lines()
            .find_map(|l| l.trim().strip_prefix("ffmpeg version "))
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or("unknown")
            .to_string();
        let avutil = banner
            .lines()
            .find_map(|l| l.trim().strip_prefix("libavutil"))
            .and_then(|rest| {
                let (major, rest) = rest.trim().split_once('.')?;
                let minor = rest.trim().split('.').next()?;
                Some((major.trim().parse().ok()?, minor.trim().parse().ok()?))
            })
            .unwrap_or((0, 0));
        // The list starts after its legend's " ------" line: " V..... libx264   description".
        let encoders = listing
            .lines()
            .skip_while(|l| !l.trim_start().starts_with("---"))
            .skip(1)
            .filter_map(|l| l.split_whitespace().nth(1).map(str::to_string))
            .collect();
        Build { version, avutil, encoders }
    }

    /// Whether this ffmpeg is at least the oldest shadersort works with.
    pub fn recent_enough(&self) -> bool {
        self.avutil >= OLDEST.1
    }

    /// The output option that hands every decoded frame on as it is, neither dropped nor
    /// repeated: `-fps_mode passthrough` since ffmpeg 5.1, `-vsync passthrough` before (7.0
    /// still takes `-vsync` but warns that it is deprecated).
    pub fn passthrough(&self) -> [&'static str; 2] {
        if self.avutil >= FPS_MODE_SINCE { ["-fps_mode", "passthrough"] } else { ["-vsync", "passthrough"] }
    }

    /// Whether it has the encoder `name`.
    pub fn has_encoder(&self, name: &str) -> bool {
        self.encoders.contains(name)
    }
}

/// What ffmpeg prints when it refuses its command line (an option it does not know, or a value
/// an option does not take), before it reads anything.
const REFUSALS: [&str; 5] = [
    "Unrecognized option",
    "Error splitting the argument list",
    "Option not found",
    "Error parsing options",
    "Invalid argument for option",
];

/// ffmpeg's words when `log` says it refused an argument it was given, for the message that
/// says so (rather than blaming the clip or the output).
pub fn refusal(log: &str) -> Option<String> {
    let lines: Vec<&str> = log
        .lines()
        .map(str::trim)
        .filter(|l| REFUSALS.iter().any(|r| l.contains(r)))
        .map(|l| l.trim_end_matches('.'))
        .collect();
    (!lines.is_empty()).then(|| lines.join("; "))
}

/// The video and audio encoders output arguments name (`-c:v libx264`, `-c:a aac`; a stream
/// copy names none).
pub fn encoders_named(args: &[String]) -> Vec<&str> {
    args.windows(2)
        .filter(|w| {
            matches!(w[0].as_str(), "-c:v" | "-c:a" | "-vcodec" | "-acodec" | "-codec:v" | "-codec:a")
        })
        .map(|w| w[1].as_str())
        .filter(|&codec| codec != "copy")
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEBIAN: &str = "ffmpeg version 5.1.9-0+deb12u1 Copyright (c) 2000-2026 the FFmpeg developers
  built with gcc 12 (Debian 12.2.0-14+deb12u1)
  libavutil      57. 28.100 / 57. 28.100
  libavcodec     59. 37.100 / 59. 37.100
";
    const STATIC_42: &str = "ffmpeg version 4.2.2-static https://johnvansickle.com/ffmpeg/  Copyright (c) 2000-2019 the FFmpeg developers
  built with gcc 8 (Debian 8.3.0-6)
  libavutil      56. 31.100 / 56. 31.100
";
    const GIT: &str = "ffmpeg version N-113000-g1234abcd Copyright (c) 2000-2024 the FFmpeg developers
  libavutil      59.  8.100 / 59.  8.100
";
    const LIST: &str = "Encoders:
 V..... = Video
 A..... = Audio
 ------
 V..... libx264              libx264 H.264 / AVC / MPEG-4 AVC / MPEG-4 part 10 (codec h264)
 VF.... ffv1                 FFmpeg video codec #1
 A..... aac                  AAC (Advanced Audio Coding)
";

    #[test]
    fn a_banner_gives_the_version_and_libavutil_and_the_list_the_encoders() {
        let build = Build::parse(DEBIAN, LIST);
        assert_eq!((build.version.as_str(), build.avutil), ("5.1.9-0+deb12u1", (57, 28)));
        assert_eq!(build.encoders.iter().collect::<Vec<_>>(), ["aac", "ffv1", "libx264"]);
        assert!(build.has_encoder("libx264") && !build.has_encoder("V.....") && !build.has_encoder("Video"));
        let old = Build::parse(STATIC_42, "");
        assert_eq!((old.version.as_str(), old.avutil), ("4.2.2-static", (56, 31)));
        assert!(old.encoders.is_empty());
        let git = Build::parse(GIT, LIST);
        assert_eq!((git.version.as_str(), git.avutil), ("N-113000-g1234abcd", (59, 8)));
        let unknown = Build::parse("some wrapper\n", "");
        assert_eq!((unknown.version.as_str(), unknown.avutil), ("unknown", (0, 0)));
    }

    #[test]
    fn each_version_gets_the_arguments_it_knows() {
        assert_eq!(Build::parse(STATIC_42, "").passthrough(), ["-vsync", "passthrough"]);
        assert_eq!(Build::parse(DEBIAN, "").passthrough(), ["-fps_mode", "passthrough"]);
        assert_eq!(Build::parse(GIT, "").passthrough(), ["-fps_mode", "passthrough"]);
        // ffmpeg 5.0 (libavutil 57.17) has no -fps_mode yet.
        let five = DEBIAN.replace("57. 28.100", "57. 17.100");
        assert_eq!(Build::parse(&five, "").passthrough(), ["-vsync", "passthrough"]);
        assert!(Build::parse(STATIC_42, "").recent_enough());
        let older = STATIC_42.replace("56. 31.100", "56. 22.100");
        assert!(!Build::parse(&older, "").recent_enough(), "4.1");
        assert!(!Build::parse("no banner", "").recent_enough());
    }

    #[test]
    fn a_refused_argument_is_told_apart_from_a_broken_clip() {
        let log = "Unrecognized option 'fps_mode'.\nError splitting the argument list: Option not found\n";
        assert_eq!(
            refusal(log).as_deref(),
            Some("Unrecognized option 'fps_mode'; Error splitting the argument list: Option not found")
        );
        assert_eq!(refusal("[matroska @ 0x1] File ended prematurely\n"), None);
        let args: Vec<String> =
            ["-map", "0:v:0", "-c:v", "libx264", "-c:a", "copy", "-acodec", "aac"].map(String::from).into();
        assert_eq!(encoders_named(&args), ["libx264", "aac"]);
    }
}
