//! A batch's inputs: the files, folders (with `--recursive` the folders under them too) and
//! patterns given, in a predictable order, each with the file it is written to in `--out DIR/`.

use crate::media::frame_files::{FRAME_EXTENSIONS, natural_order};
use crate::picture::input::VIDEO_EXTENSIONS;
use crate::picture::still_format::StillFormat;
use std::collections::{BTreeSet, HashMap};
use std::io::Read;
use std::path::{Path, PathBuf};

/// One input of a batch and where it goes.
#[derive(Clone, Debug, PartialEq)]
pub struct Job {
    /// The file read.
    pub input: PathBuf,
    /// The file written.
    pub output: PathBuf,
    /// What it is, or why it cannot be sorted (known before any work: a missing file).
    pub kind: Result<Kind, String>,
    /// Its size in bytes (0 where unknown), for the progress bar.
    pub bytes: u64,
}

/// What a batch's input is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A picture, written in this format.
    Still(StillFormat),
    /// A clip (a video or an animated GIF), written in its own container.
    Clip,
}

/// The inputs of a batch, in order, and how many files in its folders were left alone.
#[derive(Debug)]
pub struct Inputs {
    /// Every input, each once.
    pub jobs: Vec<Job>,
    /// Files in the folders given that are neither pictures nor clips (hidden ones not counted).
    pub other_files: usize,
}

/// Why `given` gave no inputs: "'photos' holds no pictures or clips (PNG, ...); add
/// --recursive to sort those in the folders under it".
pub fn nothing_found(given: &[PathBuf], recursive: bool) -> String {
    let deeper = !recursive && given.iter().any(|p| has_folders(p));
    format!(
        "{} no pictures or clips (PNG, JPEG, GIF, BMP, WebP, TIFF or a video){}",
        match given {
            [one] => format!("'{}' holds", one.display()),
            many => format!("the {} inputs hold", many.len()),
        },
        if deeper {
            "; add --recursive to sort those in the folders under them"
        } else {
            "; give files or folders that do"
        }
    )
}

/// Whether a folder given holds folders (which `--recursive` would descend into).
fn has_folders(path: &Path) -> bool {
    std::fs::read_dir(path).is_ok_and(|entries| entries.flatten().any(|e| e.path().is_dir()))
}

/// A file found, with its path under `--out DIR/` (its extension still the input's).
struct Found {
    input: PathBuf,
    relative: PathBuf,
    /// Why it cannot be sorted, where that is clear before reading it.
    problem: Option<String>,
}

/// The jobs of `given` (files, folders, patterns) written into `out_dir` in `format` (`None`:
/// each picture's own where it is exact, else PNG); `out_dir` itself is never read as input.
/// An error when two inputs would be written to one file.
pub fn gather(
    given: &[PathBuf],
    recursive: bool,
    out_dir: &Path,
    format: Option<StillFormat>,
) -> Result<Inputs, String> {
    let skip_dir = std::fs::canonicalize(out_dir).ok();
    let mut found = Vec::new();
    let mut other_files = 0;
    for path in given {
        if path.is_dir() {
            let mut files = Vec::new();
            walk(path, recursive, skip_dir.as_deref(), &mut files, &mut other_files);
            found.extend(files.into_iter().map(|input| {
                let relative = input.strip_prefix(path).expect("found under the folder").to_path_buf();
                Found { input, relative, problem: None }
            }));
        } else if crate::picture::input::is_glob(path) {
            let matches = expand(path);
            if matches.is_empty() {
                let problem = Some("no file matches this pattern".to_string());
                found.push(Found { input: path.clone(), relative: PathBuf::new(), problem });
            }
            found.extend(matches.into_iter().map(|input| {
                let relative = PathBuf::from(input.file_name().expect("a matched file has a name"));
                Found { input, relative, problem: None }
            }));
        } else {
            let problem = (!path.exists()).then(|| "no such file".to_string());
            let relative = PathBuf::from(path.file_name().unwrap_or(path.as_os_str()));
            found.push(Found { input: path.clone(), relative, problem });
        }
    }
    let mut seen = BTreeSet::new();
    found.retain(|f| {
        f.problem.is_some() || seen.insert(std::fs::canonicalize(&f.input).unwrap_or(f.input.clone()))
    });
    let jobs: Vec<Job> = found.into_iter().map(|f| job(f, out_dir, format)).collect();
    let mut taken: HashMap<&Path, &Path> = HashMap::new();
    for job in jobs.iter().filter(|j| j.kind.is_ok()) {
        if let Some(first) = taken.insert(&job.output, &job.input) {
            return Err(format!(
                "'{}' and '{}' would both be written to '{}'; rename one, or sort them in two runs",
                first.display(),
                job.input.display(),
                job.output.display()
            ));
        }
    }
    Ok(Inputs { jobs, other_files })
}

/// The job of a file found: what it is and where it goes.
fn job(found: Found, out_dir: &Path, format: Option<StillFormat>) -> Job {
    let Found { input, relative, problem } = found;
    let bytes = std::fs::metadata(&input).map_or(0, |m| m.len());
    let kind = match problem {
        Some(problem) => Err(problem),
        None if crate::media::is_clip(&input) => Ok(Kind::Clip),
        None => Ok(Kind::Still(format.unwrap_or_else(|| own_format(&input)))),
    };
    let output = match kind {
        Ok(Kind::Still(format)) => {
            let ext = crate::media::encoding::extension(&input);
            // A picture kept in its own format keeps its extension as spelled (.jpeg, .TIFF).
            let ext = if format.has_extension(&ext) {
                input.extension().expect("has ext")
            } else {
                format.extension().as_ref()
            };
            out_dir.join(&relative).with_extension(ext)
        }
        _ => out_dir.join(&relative),
    };
    Job { input, output, kind, bytes }
}

/// The format a picture is written in without `--format`: its own where that is exact, read
/// from the start of the file (a file that cannot be read is found out when it is decoded).
fn own_format(path: &Path) -> StillFormat {
    let mut head = Vec::new();
    let read = std::fs::File::open(path).and_then(|f| f.take(1 << 16).read_to_end(&mut head));
    read.ok().and_then(|_| StillFormat::exact_format_of(&head)).unwrap_or(StillFormat::Png)
}

/// Whether a file's extension says it is a picture or a clip.
fn is_media(path: &Path) -> bool {
    let ext = crate::media::encoding::extension(path);
    FRAME_EXTENSIONS.contains(&ext.as_str()) || VIDEO_EXTENSIONS.contains(&ext.as_str()) || ext == "gif"
}

/// Whether a name is hidden (starts with a dot): such files and folders are left alone.
fn hidden(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.'))
}

/// The pictures and clips in `dir` in name order (numbers compared as numbers), then, with
/// `recursive`, those of each folder in it (never `skip`, the output folder; links to folders
/// are not followed, so a link back up cannot loop).
fn walk(dir: &Path, recursive: bool, skip: Option<&Path>, files: &mut Vec<PathBuf>, other: &mut usize) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort_by(|a, b| natural_order(&a.to_string_lossy(), &b.to_string_lossy()));
    let mut folders = Vec::new();
    for path in paths {
        if hidden(&path) {
            continue;
        }
        let is_link = std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink());
        if path.is_dir() {
            if recursive && !is_link && std::fs::canonicalize(&path).ok().as_deref() != skip {
                folders.push(path);
            }
        } else if is_media(&path) {
            files.push(path);
        } else {
            *other += 1;
        }
    }
    for folder in folders {
        walk(&folder, recursive, skip, files, other);
    }
}

/// The files a pattern names (`*`, `?` and `[...]` in any of its parts), in name order; hidden
/// names only where the pattern's part starts with a dot.
fn expand(pattern: &Path) -> Vec<PathBuf> {
    let mut paths = vec![PathBuf::new()];
    for part in pattern.components() {
        let text = part.as_os_str().to_string_lossy();
        if !text.contains(['*', '?', '[']) {
            paths.iter_mut().for_each(|p| p.push(part));
            continue;
        }
        let mut next = Vec::new();
        for dir in &paths {
            let listing = if dir.as_os_str().is_empty() { Path::new(".") } else { dir.as_path() };
            let Ok(entries) = std::fs::read_dir(listing) else { continue };
            let mut names: Vec<String> = entries
                .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
                .collect();
            names.retain(|n| wildcard_match(&text, n) && (!n.starts_with('.') || text.starts_with('.')));
            names.sort_by(|a, b| natural_order(a, b));
            next.extend(names.into_iter().map(|n| dir.join(n)));
        }
        paths = next;
    }
    paths.retain(|p| p.is_file());
    paths
}

/// Whether `name` matches `pattern`: `*` any run of characters, `?` one, `[abc]`, `[a-z]` and
/// `[!abc]` one of (or none of) a set; anything else itself.
fn wildcard_match(pattern: &str, name: &str) -> bool {
    let (p, n): (Vec<char>, Vec<char>) = (pattern.chars().collect(), name.chars().collect());
    // Where the last `*` was, and the name's position it matched up to: a mismatch after it
    // lets the star take one more character.
    let (mut pi, mut ni, mut star) = (0, 0, None);
    while ni < n.len() {
        let step = match p.get(pi) {
            Some('*') => {
                star = Some((pi, ni));
                pi += 1;
                continue;
            }
            Some('?') => Some(pi + 1),
            Some('[') => set_match(&p[pi..], n[ni])
                .map(|(len, hit)| hit.then_some(pi + len))
                .unwrap_or((p[pi] == n[ni]).then_some(pi + 1)),
            Some(&c) => (c == n[ni]).then_some(pi + 1),
            None => None,
        };
        match (step, star) {
            (Some(next), _) => (pi, ni) = (next, ni + 1),
            (None, Some((sp, sn))) => {
                (pi, ni) = (sp + 1, sn + 1);
                star = Some((sp, sn + 1));
            }
            (None, None) => return false,
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

/// A `[...]` set at the start of `p`: its length and whether `c` is in it (`None` when the
/// bracket is not closed, and so stands for itself).
fn set_match(p: &[char], c: char) -> Option<(usize, bool)> {
    let negated = matches!(p.get(1), Some('!' | '^'));
    let start = if negated { 2 } else { 1 };
    // A `]` first in the set is one of its characters.
    let close = p.iter().skip(start + 1).position(|&x| x == ']')? + start + 1;
    let set = &p[start..close];
    let mut hit = false;
    let mut i = 0;
    while i < set.len() {
        if i + 2 < set.len() && set[i + 1] == '-' {
            hit |= (set[i]..=set[i + 2]).contains(&c);
            i += 3;
        } else {
            hit |= set[i] == c;
            i += 1;
        }
    }
    Some((close + 1, hit != negated))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards_match_as_shells_do() {
        for (pattern, name, matches) in [
            ("*.jpg", "a.jpg", true),
            ("*.jpg", "a.jpeg", false),
            ("*.jpg", ".jpg", true),
            ("a*b*c", "aXbYbZc", true),
            ("a*b*c", "aXbYbZ", false),
            ("shot-??.png", "shot-07.png", true),
            ("shot-??.png", "shot-7.png", false),
            ("[ab]*", "beach.png", true),
            ("[!ab]*", "beach.png", false),
            ("[a-c]x", "cx", true),
            ("[a-c]x", "dx", false),
            ("[]]x", "]x", true),
            ("[x", "[x", true),
            ("*", "", true),
            ("", "a", false),
        ] {
            assert_eq!(wildcard_match(pattern, name), matches, "{pattern} {name}");
        }
    }

    #[test]
    fn folders_patterns_and_files_become_jobs_in_order_with_their_outputs() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let picture = crate::picture::patterns::random_image(3, 2, 1);
        std::fs::create_dir_all(d.join("in/sub")).unwrap();
        for name in ["in/b10.png", "in/sub/c.bmp", "in/.hidden.png", "loose.webp"] {
            picture.save(d.join(name)).unwrap();
        }
        image::DynamicImage::ImageRgba8(picture.clone()).to_rgb8().save(d.join("in/b9.jpg")).unwrap();
        std::fs::write(d.join("in/notes.txt"), "not a picture").unwrap();
        let out = d.join("out");
        let rel = |jobs: &[Job]| -> Vec<(String, String)> {
            jobs.iter()
                .map(|j| {
                    let strip = |p: &Path| p.strip_prefix(d).unwrap_or(p).display().to_string();
                    (strip(&j.input), strip(&j.output))
                })
                .collect()
        };
        let given = [d.join("in"), d.join("loose.webp"), d.join("missing.png")];
        let inputs = gather(&given, false, &out, None).unwrap();
        assert_eq!(
            rel(&inputs.jobs),
            [
                ("in/b9.jpg", "out/b9.png"),
                ("in/b10.png", "out/b10.png"),
                ("loose.webp", "out/loose.webp"),
                ("missing.png", "out/missing.png")
            ]
            .map(|(a, b)| (a.to_string(), b.to_string()))
        );
        assert_eq!(inputs.jobs[1].kind, Ok(Kind::Still(StillFormat::Png)));
        assert_eq!(
            inputs.jobs[2].kind,
            Ok(Kind::Still(StillFormat::Webp)),
            "the image crate writes lossless WebP"
        );
        assert_eq!(inputs.jobs[3].kind, Err("no such file".into()));
        assert_eq!(inputs.other_files, 1);
        let recursive = gather(&[d.join("in")], true, &d.join("in/sub"), Some(StillFormat::Jpeg)).unwrap();
        assert_eq!(
            rel(&recursive.jobs).len(),
            2,
            "the output folder is not read: {:?}",
            rel(&recursive.jobs)
        );
        let recursive = gather(&[d.join("in")], true, &out, Some(StillFormat::Jpeg)).unwrap();
        assert_eq!(rel(&recursive.jobs)[2], ("in/sub/c.bmp".into(), "out/sub/c.jpg".into()));
        let pattern = gather(&[d.join("in/b*")], false, &out, None).unwrap();
        assert_eq!(rel(&pattern.jobs).len(), 2);
        let none = gather(&[d.join("in/z*")], false, &out, None).unwrap();
        assert_eq!(none.jobs[0].kind, Err("no file matches this pattern".into()));
        picture.save(d.join("in/b9.png")).unwrap();
        let clash = gather(&[d.join("in")], false, &out, None).unwrap_err();
        assert!(clash.contains("would both be written to") && clash.contains("b9.png'"), "{clash}");
        let twice = gather(&[d.join("loose.webp"), d.join("./loose.webp")], false, &out, None).unwrap();
        assert_eq!(twice.jobs.len(), 1, "a file given twice is sorted once");
    }
}
