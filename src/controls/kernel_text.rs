//! The shader panel's reading of a kernel's text: the line of its entry point, the step's uniform
//! words and the pipeline's constants written beside the lines that declare them, the lines that
//! compare and swap (or scatter), the file each line came from, and a one-line header. Pure text
//! work, shared by the window and the page, and tested without a GPU.

use crate::algorithms::kernel_view::{Dispatch, Grid};
use crate::controls::explain::thousands;
use crate::gpu::shaders::PROGRAMS;

/// The comments that mark the lines where a kernel compares and swaps a pair, or scatters a
/// pixel to its place (`shaders/*.wgsl`): the panel tints those lines.
pub const MARKERS: [&str; 2] = ["// compare-and-swap", "// scatter"];

/// A kernel's text as the panel shows it. Lines are counted from 0 in the program's whole text
/// (its files joined).
#[derive(Clone, Debug, PartialEq)]
pub struct Annotated {
    /// The line holding `fn <entry>(` (0 if the text has none).
    pub entry_line: usize,
    /// Text written right of a line: a uniform member's value this step, or a pipeline constant's.
    pub notes: Vec<(usize, String)>,
    /// The lines that compare and swap, or scatter (they carry one of [`MARKERS`]).
    pub marked: Vec<usize>,
    /// "odd_even: sort_key.wgsl + … · entry odd_even_compute (odd_even.wgsl:75) · 40×30×1
    /// workgroups of 16×16×1 = 307,200 invocations".
    pub header: String,
    /// Where each file of the program lies in the text; empty if the program is not one of
    /// [`PROGRAMS`] as its files name it.
    pub files: Vec<FileSpan>,
}

/// The lines of one file within a program's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileSpan {
    /// The file's name in `shaders/`.
    pub name: &'static str,
    /// The text's line that is the file's first.
    pub first: usize,
    /// The file's lines.
    pub lines: usize,
}

impl Annotated {
    /// The file and its line (counted from 1) that the text's line `line` came from; `None` for
    /// the blank line joining two files, or when the files are not known.
    pub fn file_line(&self, line: usize) -> Option<(&'static str, usize)> {
        locate(&self.files, line)
    }
}

/// Reads `dispatch`'s text: its entry line, notes, marked lines, files and header.
pub fn annotate(dispatch: &Dispatch) -> Annotated {
    let lines: Vec<&str> = dispatch.source.lines().collect();
    let entry = find_entry(&lines, dispatch.entry);
    let mut notes = uniform_notes(&lines, &dispatch.uniform);
    notes.extend(constant_notes(&lines, &dispatch.constants));
    notes.sort_by_key(|&(line, _)| line);
    let marked = (0..lines.len()).filter(|&i| MARKERS.iter().any(|m| lines[i].contains(m))).collect();
    let files = file_spans(dispatch, lines.len());
    let header = header(dispatch, entry.and_then(|line| locate(&files, line)));
    Annotated { entry_line: entry.unwrap_or(0), notes, marked, header, files }
}

/// The file and its line (counted from 1) that line `line` (from 0) of `dispatch`'s text came
/// from, by the lengths of the files of the program of that name in [`PROGRAMS`].
pub fn file_line(dispatch: &Dispatch, line: usize) -> Option<(&'static str, usize)> {
    locate(&file_spans(dispatch, dispatch.source.lines().count()), line)
}

/// Where the program's files lie in its text: the files are joined with "\n" and each ends in
/// "\n", so a file starts one line after the last one ended. Empty unless the program's files
/// add up to `total` lines (the text is theirs).
fn file_spans(dispatch: &Dispatch, total: usize) -> Vec<FileSpan> {
    let Some(program) = PROGRAMS.iter().find(|p| p.name == dispatch.program && p.files == dispatch.files)
    else {
        return Vec::new();
    };
    let mut spans = Vec::new();
    let mut first = 0;
    for (&name, text) in program.files.iter().zip(program.sources) {
        spans.push(FileSpan { name, first, lines: text.lines().count() });
        first += text.matches('\n').count() + 1;
    }
    let end = spans.last().map_or(0, |s| s.first + s.lines);
    if end == total { spans } else { Vec::new() }
}

fn locate(files: &[FileSpan], line: usize) -> Option<(&'static str, usize)> {
    files.iter().find(|f| (f.first..f.first + f.lines).contains(&line)).map(|f| (f.name, line - f.first + 1))
}

/// A line without its comment (WGSL has no strings, so `//` always starts one).
fn code(line: &str) -> &str {
    line.split_once("//").map_or(line, |(code, _)| code)
}

/// The line that declares function `entry` (not one that calls it: `fn ` comes first).
fn find_entry(lines: &[&str], entry: &str) -> Option<usize> {
    let wanted = format!("fn {entry}(");
    lines.iter().position(|line| {
        let code = code(line);
        code.find(&wanted).is_some_and(|i| code[..i].chars().last().is_none_or(char::is_whitespace))
    })
}

/// The value of each member of the `params` uniform's struct beside its line: member k is word
/// k (every member is one 32-bit word; a member of any other type ends the notes, as the words
/// no longer line up).
fn uniform_notes(lines: &[&str], words: &[u32]) -> Vec<(usize, String)> {
    let type_of_params = lines.iter().find_map(|line| {
        let (name, ty) = code(line).split_once("var<uniform>")?.1.split_once(':')?;
        (name.trim() == "params").then(|| ty.trim().trim_end_matches(';').trim())
    });
    let Some(ty) = type_of_params else { return Vec::new() };
    let opens = |line: &&str| {
        let declared =
            code(line).trim().strip_prefix("struct ").map(|rest| rest.trim_end_matches('{').trim());
        declared == Some(ty)
    };
    let Some(start) = lines.iter().position(opens) else { return Vec::new() };
    let mut notes = Vec::new();
    let mut words = words.iter();
    for (index, line) in lines.iter().enumerate().skip(start + 1) {
        let member = code(line).trim();
        if member.starts_with('}') {
            break;
        }
        let Some((_, ty)) = member.split_once(':') else { continue };
        let Some(&word) = words.next() else { break };
        let value = match ty.trim().trim_end_matches(',').trim() {
            "u32" => word.to_string(),
            "i32" => (word as i32).to_string(),
            "f32" => f32::from_bits(word).to_string(),
            _ => break,
        };
        notes.push((index, format!("= {value}")));
    }
    notes
}

/// The value the pipeline gave each overridable constant, beside its declaration.
fn constant_notes(lines: &[&str], constants: &[(&'static str, f64)]) -> Vec<(usize, String)> {
    let mut notes = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        let code = code(line);
        let Some(at) = code.find("override ") else { continue };
        if !code[..at].chars().last().is_none_or(char::is_whitespace) {
            continue;
        }
        let rest = &code[at + "override ".len()..];
        let name = rest.split(|c: char| !(c.is_alphanumeric() || c == '_')).next().unwrap_or_default();
        let Some(&(_, value)) = constants.iter().find(|(n, _)| *n == name) else { continue };
        let is_bool = rest.split_once(':').is_some_and(|(_, ty)| ty.trim_start().starts_with("bool"));
        let value = if is_bool { (value != 0.0).to_string() } else { value.to_string() };
        notes.push((index, format!("= {value} (pipeline)")));
    }
    notes
}

/// The program and its files, the entry and where it is, the dispatch's size, and the steps it
/// covers (counted from 1, as the panel counts them) when it covers several.
fn header(dispatch: &Dispatch, entry_at: Option<(&str, usize)>) -> String {
    let at = entry_at.map_or_else(String::new, |(file, line)| format!(" ({file}:{line})"));
    let grid = match dispatch.grid {
        Grid::Compute { workgroups: [x, y, z], workgroup_size: [a, b, c] } => format!(
            "{x}×{y}×{z} workgroups of {a}×{b}×{c} = {} invocations",
            thousands(dispatch.grid.invocations())
        ),
        Grid::Fragment { size: (w, h) } => format!("a draw of {w}×{h} fragments"),
    };
    let mut header = format!(
        "{}: {} · entry {}{at} · {grid}",
        dispatch.program,
        dispatch.files.join(" + "),
        dispatch.entry
    );
    if dispatch.steps.len() > 1 {
        header += &format!(" · steps {}–{}", dispatch.steps.start + 1, dispatch.steps.end);
    }
    header
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::shaders::{BUBBLE_PROGRAM, ODD_EVEN_PROGRAM, Program};
    use std::sync::Arc;

    /// A dispatch of `entry` in `program`'s real text, as a run would describe it.
    fn dispatch(program: Program, entry: &'static str, uniform: &[u32]) -> Dispatch {
        Dispatch {
            program: program.name,
            files: program.files,
            source: Arc::from(program.source()),
            entry,
            grid: Grid::Compute { workgroups: [40, 30, 1], workgroup_size: [16, 16, 1] },
            uniform: uniform.to_vec(),
            constants: Vec::new(),
            steps: 4..5,
        }
    }

    /// The line (from 0) of `text` that is `wanted` once trimmed, the first at or after `from`.
    fn line_of(text: &str, wanted: &str, from: usize) -> usize {
        text.lines().enumerate().skip(from).find(|(_, l)| l.trim() == wanted).expect(wanted).0
    }

    #[test]
    fn the_entry_line_declares_the_entry_point() {
        for entry in ["odd_even_compute", "odd_even_fragment"] {
            let d = dispatch(ODD_EVEN_PROGRAM, entry, &[]);
            let line = d.source.lines().nth(annotate(&d).entry_line).unwrap();
            assert!(line.starts_with(&format!("fn {entry}(")), "{entry}: {line:?}");
        }
    }

    #[test]
    fn each_uniform_member_has_its_word_beside_it() {
        let d = dispatch(ODD_EVEN_PROGRAM, "odd_even_compute", &[5, 1, 0, 1]);
        let struct_at = line_of(&d.source, "struct PassParams {", 0);
        let expected: Vec<(usize, String)> = [("key", 5), ("descending", 1), ("axis", 0), ("parity", 1)]
            .iter()
            .map(|(name, value)| {
                (line_of(&d.source, &format!("{name}: u32,"), struct_at), format!("= {value}"))
            })
            .collect();
        assert_eq!(annotate(&d).notes, expected);
    }

    #[test]
    fn signed_members_read_signed_and_notes_stop_where_words_do() {
        let source = "struct P {\n    a: i32,\n    // not a member\n    b: u32,\n    c: u32,\n}\n\
                      @group(0) @binding(1) var<uniform> params: P;\n";
        let d = Dispatch {
            source: Arc::from(source),
            ..dispatch(ODD_EVEN_PROGRAM, "none", &[(-3i32) as u32, 7])
        };
        assert_eq!(annotate(&d).notes, vec![(1, "= -3".to_string()), (3, "= 7".to_string())]);
    }

    #[test]
    fn pipeline_constants_are_noted_where_they_are_declared() {
        let mut d = dispatch(BUBBLE_PROGRAM, "bubble", &[]);
        d.constants = vec![("WORKGROUP", 256.0), ("INTERVALS", 1.0)];
        let notes = annotate(&d).notes;
        let workgroup = line_of(&d.source, "override WORKGROUP: u32 = 256u;", 0);
        let intervals = line_of(&d.source, "override INTERVALS: bool = false;", 0);
        assert!(notes.contains(&(workgroup, "= 256 (pipeline)".to_string())), "{notes:?}");
        assert!(notes.contains(&(intervals, "= true (pipeline)".to_string())), "{notes:?}");
        // ROW_CAPACITY is overridable, but this pipeline left it as declared.
        assert_eq!(notes.iter().filter(|(_, n)| n.ends_with("(pipeline)")).count(), 2, "{notes:?}");
    }

    #[test]
    fn marked_lines_carry_a_marker() {
        let source = "fn f() {\n    a = b; // compare-and-swap\n    c = d;\n    e[i] = g; // scatter\n}\n";
        let d = Dispatch { source: Arc::from(source), ..dispatch(ODD_EVEN_PROGRAM, "f", &[]) };
        assert_eq!(annotate(&d).marked, vec![1, 3]);
    }

    #[test]
    fn lines_map_back_to_their_files() {
        let d = dispatch(ODD_EVEN_PROGRAM, "odd_even_compute", &[]);
        let file = include_str!("../../shaders/odd_even.wgsl");
        let in_file = file.lines().position(|l| l.starts_with("fn odd_even_compute(")).unwrap() + 1;
        let annotated = annotate(&d);
        assert_eq!(file_line(&d, annotated.entry_line), Some(("odd_even.wgsl", in_file)));
        assert_eq!(annotated.file_line(annotated.entry_line), Some(("odd_even.wgsl", in_file)));
        // Each file's first line is its line 1; the blank line before it is in no file.
        let sort_key_lines = include_str!("../../shaders/sort_key.wgsl").lines().count();
        assert_eq!(file_line(&d, 0), Some(("sort_key.wgsl", 1)));
        assert_eq!(file_line(&d, sort_key_lines), None);
        assert_eq!(file_line(&d, sort_key_lines + 1), Some(("intervals.wgsl", 1)));
    }

    #[test]
    fn the_header_names_the_files_the_entry_and_the_dispatch() {
        let d = Dispatch { steps: 2..5, ..dispatch(ODD_EVEN_PROGRAM, "odd_even_compute", &[]) };
        let file = include_str!("../../shaders/odd_even.wgsl");
        let line = file.lines().position(|l| l.starts_with("fn odd_even_compute(")).unwrap() + 1;
        assert_eq!(
            annotate(&d).header,
            format!(
                "odd_even: sort_key.wgsl + intervals.wgsl + odd_even.wgsl · entry odd_even_compute \
                 (odd_even.wgsl:{line}) · 40×30×1 workgroups of 16×16×1 = 307,200 invocations · steps 3–5"
            )
        );
        let d =
            Dispatch { grid: Grid::Fragment { size: (640, 480) }, ..dispatch(ODD_EVEN_PROGRAM, "x", &[]) };
        assert!(
            annotate(&d).header.ends_with(" · entry x · a draw of 640×480 fragments"),
            "{}",
            annotate(&d).header
        );
    }
}
