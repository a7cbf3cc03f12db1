//! The source tree keeps the shape docs/ARCHITECTURE.md describes: no import circles, whether
//! between top-level modules or between the files of one folder (a module that needs another's
//! piece and is needed by it is one responsibility cut in two; the device-wide sort's
//! `crates/wgpu-radix-sort/src/` is held to the same rule), no front end importing another,
//! the CPU model imported by nothing it judges, and no source file under `src/`, `web/` or
//! `crates/` past 450 lines.

#[path = "common/ci.rs"]
mod ci;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

type ModulePath = Vec<String>;

/// Every `.rs` file under `src/` by its module path (`src/app/ui.rs` is `app::ui`,
/// `src/app/mod.rs` is `app`), with its text.
fn modules() -> BTreeMap<ModulePath, String> {
    modules_under("src")
}

/// [`modules`] of the source folder `src`, relative to the package's folder.
fn modules_under(src: &str) -> BTreeMap<ModulePath, String> {
    fn walk(dir: &Path, prefix: &[String], out: &mut BTreeMap<ModulePath, String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_stem().unwrap().to_string_lossy().to_string();
            if path.is_dir() {
                walk(&path, &[prefix, &[name]].concat(), out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let module = match name.as_str() {
                    "mod" | "lib" | "main" => prefix.to_vec(),
                    _ => [prefix, &[name]].concat(),
                };
                out.insert(module, std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join(src), &[], &mut out);
    out
}

/// The text without comments and without an inline `mod tests` (tests may reach anywhere).
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]\nmod tests {").next().unwrap();
    text.lines().map(|l| l.split("//").next().unwrap()).collect::<Vec<_>>().join("\n")
}

/// The paths named after `crate::` or `super::` in `code`, relative to `module` (a folder's
/// `mod.rs` is the folder's module, so its `super` is the folder's parent), groups expanded.
fn named_paths(module: &[String], code: &str) -> Vec<ModulePath> {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut found = Vec::new();
    let bytes: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < bytes.len() {
        let rest: String = bytes[i..bytes.len().min(i + 7)].iter().collect();
        let starts_word = i == 0 || !ident(bytes[i - 1]) && bytes[i - 1] != ':';
        if starts_word && (rest.starts_with("crate::") || rest.starts_with("super::")) {
            let mut base: ModulePath = if rest.starts_with("crate::") { Vec::new() } else { module.to_vec() };
            let mut j = i;
            loop {
                let word: String = bytes[j..].iter().take_while(|&&c| ident(c)).collect();
                if word == "super" {
                    base.pop();
                } else if word != "crate" {
                    break;
                }
                j += word.len();
                if bytes[j..].starts_with(&[':', ':']) {
                    j += 2;
                } else {
                    break;
                }
            }
            let end = bytes[j..]
                .iter()
                .position(|&c| {
                    !(ident(c) || c == ':' || c == '{' || c == '}' || c == ',' || c == ' ' || c == '\n')
                })
                .map_or(bytes.len(), |p| j + p);
            let tail: String = bytes[j..end].iter().collect();
            expand(&base, &tail, &mut found);
            i = end.max(i + 1);
        } else {
            i += 1;
        }
    }
    found
}

/// `a::b::{c, d::e}` after `base`, as whole paths (one level of braces is all `use` lines here
/// need; deeper ones are read as their first level).
fn expand(base: &[String], tail: &str, out: &mut Vec<ModulePath>) {
    let (head, group) = match tail.split_once('{') {
        Some((head, group)) => (head, Some(group.split('}').next().unwrap_or_default())),
        None => (tail.split([' ', '\n', ',', '}']).next().unwrap_or_default(), None),
    };
    let head: ModulePath =
        base.iter().cloned().chain(head.split("::").filter(|s| !s.is_empty()).map(str::to_string)).collect();
    match group {
        Some(group) => {
            for item in group.split(',') {
                let item = item.trim();
                let path: ModulePath = head
                    .iter()
                    .cloned()
                    .chain(item.split("::").filter(|s| !s.is_empty() && *s != "self").map(str::to_string))
                    .collect();
                out.push(path);
            }
        }
        None => out.push(head),
    }
}

/// Which module of `modules` a named path lies in: its longest prefix that is a module.
fn owner(path: &[String], modules: &BTreeMap<ModulePath, String>) -> ModulePath {
    (0..=path.len()).rev().map(|n| path[..n].to_vec()).find(|p| modules.contains_key(p)).unwrap_or_default()
}

/// Edges between siblings: for `a` importing from `b`, the children of their deepest common
/// module that hold each (none when one holds the other: a folder and its own files).
fn sibling_edges(modules: &BTreeMap<ModulePath, String>) -> BTreeSet<(ModulePath, ModulePath)> {
    let mut edges = BTreeSet::new();
    for (module, text) in modules {
        for path in named_paths(module, &code(text)) {
            let target = owner(&path, modules);
            let common = module.iter().zip(&target).take_while(|(a, b)| a == b).count();
            if module.len() > common && target.len() > common {
                edges.insert((module[..=common].to_vec(), target[..=common].to_vec()));
            }
        }
    }
    edges
}

/// A circle in the graph, as the modules around it.
fn circle(edges: &BTreeSet<(ModulePath, ModulePath)>) -> Option<Vec<String>> {
    let mut next: BTreeMap<&ModulePath, Vec<&ModulePath>> = BTreeMap::new();
    for (a, b) in edges {
        next.entry(a).or_default().push(b);
    }
    fn visit<'a>(
        node: &'a ModulePath,
        next: &BTreeMap<&'a ModulePath, Vec<&'a ModulePath>>,
        path: &mut Vec<&'a ModulePath>,
        done: &mut BTreeSet<&'a ModulePath>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|p| *p == node) {
            return Some(path[at..].iter().chain([&node]).map(|m| m.join("::")).collect());
        }
        if !done.insert(node) {
            return None;
        }
        path.push(node);
        for &to in next.get(node).into_iter().flatten() {
            if let Some(found) = visit(to, next, path, done) {
                return Some(found);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    next.keys().find_map(|start| visit(start, &next, &mut Vec::new(), &mut done))
}

#[test]
fn no_two_modules_import_each_other() {
    let modules = modules();
    assert!(modules.len() > 50, "found only {} modules under src/", modules.len());
    let edges = sibling_edges(&modules);
    // The reader sees real imports: the window's files use its panel model and the shared controls, the algorithms the GPU.
    for (a, b) in
        [("app::ui", "app::panel_model"), ("app", "controls"), ("algorithms", "gpu"), ("intervals", "keys")]
    {
        let path = |m: &str| m.split("::").map(str::to_string).collect::<ModulePath>();
        assert!(edges.contains(&(path(a), path(b))), "{a} -> {b} not seen: the import reader is broken");
    }
    if let Some(circle) = circle(&edges) {
        panic!("import circle: {}; move what both need into a module below them", circle.join(" -> "));
    }
    crate::ci::passed();
}

#[test]
fn the_sort_crate_has_no_import_circle_either() {
    let modules = modules_under(SORT_CRATE_SRC);
    assert!(modules.len() >= 5, "found only {} modules under {SORT_CRATE_SRC}", modules.len());
    let edges = sibling_edges(&modules);
    let path = |m: &str| m.split("::").map(str::to_string).collect::<ModulePath>();
    assert!(edges.contains(&(path("dispatch"), path("sorter"))), "the import reader is broken");
    if let Some(circle) = circle(&edges) {
        panic!("import circle: {}; move what both need into a module below them", circle.join(" -> "));
    }
    crate::ci::passed();
}

/// The device-wide sort's source folder, relative to this package's.
const SORT_CRATE_SRC: &str = "crates/wgpu-radix-sort/src";

/// Every `.rs` file under `dir`, at any depth (`target` folders left out).
fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() && path.file_name().is_some_and(|n| n != "target") {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_source_file_stays_short() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for folder in ["src", "web", "crates"] {
        rust_files(&root.join(folder), &mut files);
    }
    assert!(files.len() > 150, "found only {} files under src/, web/ and crates/", files.len());
    let long: Vec<String> = files
        .iter()
        .filter_map(|path| {
            let lines = std::fs::read_to_string(path).unwrap().lines().count();
            (lines > 450).then(|| format!("{} ({lines} lines)", path.strip_prefix(root).unwrap().display()))
        })
        .collect();
    assert!(long.is_empty(), "split these by responsibility (at most 450 lines a file): {}", long.join(", "));
    crate::ci::passed();
}

#[test]
fn the_import_reader_finds_groups_supers_and_circles() {
    let module = |m: &str| m.split("::").map(str::to_string).collect::<ModulePath>();
    let found =
        named_paths(&module("app::ui"), "use super::{lanes::Lane, zoom};\nlet x = crate::gpu::Gpu::new();");
    assert_eq!(found, [module("app::lanes::Lane"), module("app::zoom"), module("gpu::Gpu::new")]);
    let found = named_paths(&module("bench::radix::rows"), "use super::super::median;");
    assert_eq!(found, [module("bench::median")]);
    assert!(!named_paths(&module("a"), "// crate::b::c\n").is_empty());
    assert!(named_paths(&module("a"), &code("// crate::b::c\n")).is_empty());
    let edges: BTreeSet<_> =
        [(module("a"), module("b")), (module("b"), module("c")), (module("c"), module("a"))].into();
    assert_eq!(circle(&edges).unwrap(), ["a", "b", "c", "a"]);
    let edges: BTreeSet<_> = [(module("a"), module("b")), (module("b"), module("c"))].into();
    assert_eq!(circle(&edges), None);
    crate::ci::passed();
}

/// Top-level modules that are front ends: each starts and drives sorts through the engine (and
/// clips through [`shadersort::media`]), and none may import another. (`cli` sits above them: it
/// parses the command line and hands each front end its settings and arguments.)
const FRONT_ENDS: [&str; 3] = ["app", "headless", "bench"];

#[test]
fn no_front_end_imports_another() {
    let edges = sibling_edges(&modules());
    let named = |m: &ModulePath| m.join("::");
    let crossing: BTreeSet<(String, String)> = edges
        .iter()
        .filter(|(a, b)| a.len() == 1 && b.len() == 1)
        .map(|(a, b)| (named(a), named(b)))
        .filter(|(a, b)| FRONT_ENDS.contains(&a.as_str()) && FRONT_ENDS.contains(&b.as_str()))
        .collect();
    assert!(
        crossing.is_empty(),
        "front ends import each other: {crossing:?}; move what both need below them (the engine or media)"
    );
    crate::ci::passed();
}

/// The layers of docs/ARCHITECTURE.md, bottom to top, each with its top-level modules: a module
/// imports from its own layer (without circles) or from those below it, never from above.
/// `reference`, the CPU model, stands apart: it may import the two lowest layers' plain data.
const LAYERS: [(&str, &[&str]); 5] = [
    ("the GPU and pictures", &["gpu", "picture", "keys", "paths", "interrupt", "progress", "cores"]),
    ("the sorts", &["intervals", "algorithms", "angle"]),
    (
        "the engine and what front ends share",
        &["engine", "lens", "record", "controls", "sound", "settings", "named"],
    ),
    ("media", &["media"]),
    ("front ends", &["app", "headless", "bench", "cli"]),
];

/// The layer of a top-level module: its index in [`LAYERS`], or 1 for `reference`.
fn layer_of(module: &str) -> Option<usize> {
    if module == "reference" {
        return Some(1);
    }
    LAYERS.iter().position(|(_, modules)| modules.contains(&module))
}

#[test]
fn every_module_imports_its_own_layer_or_below() {
    let modules = modules();
    let tops: BTreeSet<String> = modules.keys().filter_map(|m| m.first().cloned()).collect();
    let unplaced: Vec<&String> = tops.iter().filter(|m| layer_of(m).is_none()).collect();
    assert!(
        unplaced.is_empty(),
        "modules in no layer: {unplaced:?}; place them in LAYERS and ARCHITECTURE.md"
    );
    let upward: Vec<String> = sibling_edges(&modules)
        .iter()
        .filter(|(a, b)| a.len() == 1 && b.len() == 1)
        .filter(|(a, b)| layer_of(&b[0]) > layer_of(&a[0]))
        .map(|(a, b)| {
            let name = |m: &ModulePath| format!("{} ({})", m[0], LAYERS[layer_of(&m[0]).unwrap()].0);
            format!("{} -> {}", name(a), name(b))
        })
        .collect();
    assert!(upward.is_empty(), "imports from a higher layer: {upward:?}; move what is needed down");
    crate::ci::passed();
}

#[test]
fn the_oracle_stands_apart() {
    let modules = modules();
    // The tests' own modules inside src/ (`mod tests`, `*_tests.rs`) may use the model; so may
    // the benchmarks, which check their own output against it before they report a time.
    let importers: BTreeSet<String> = modules
        .iter()
        .filter(|(module, _)| module.first().is_some_and(|m| m != "reference" && m != "bench"))
        .filter(|(module, _)| !module.last().is_some_and(|m| m.ends_with("tests")))
        .filter(|(module, text)| {
            named_paths(module, &code(text)).iter().any(|p| p.first().is_some_and(|m| m == "reference"))
        })
        .map(|(module, _)| module.join("::"))
        .collect();
    assert!(importers.is_empty(), "the CPU model is imported by the code it judges: {importers:?}");
    // The reader sees the benchmarks' imports, so it would see others.
    let bench = modules.iter().filter(|(m, _)| m.first().is_some_and(|m| m == "bench"));
    assert!(
        bench.into_iter().any(|(m, t)| named_paths(m, &code(t))
            .iter()
            .any(|p| p.first().is_some_and(|m| m == "reference"))),
        "the import reader is broken: it sees no benchmark import the model"
    );
    crate::ci::passed();
}
