//! The shape of the source tree: no import cycle between the files of a crate (the
//! library's `src/`, the command line's `cli/src/`, the lab's `lab/src/`), and who may
//! import whom. (The length of functions is clippy's `too_many_lines`, at 100 lines, in
//! every crate: `Cargo.toml` and `clippy.toml`.)
//!
//! # What counts as an import
//!
//! Every `crate::…` and `super::…` path in a file, wherever it is written: `use` lines
//! (groups `use crate::a::{b, c::{d, e}}` included), paths in code, and intra-doc links
//! in comments (rustdoc resolves them, so they tie the files too). Each path is resolved
//! to the file of the longest module prefix it names (`crate::sat::cnf::Formula` is
//! `src/sat/cnf.rs`); a path to the crate root itself (`crate::Problem`) ties to no file.
//! Paths relative to the file's own module (`self::…`, a child module's name) are not
//! followed: a module and the children it declares are one unit of the design. The
//! items under `#[cfg(test)]` (the test modules, test-only helpers) are left out: tests
//! may reach anywhere. An inline module (`mod avx2 { … }`) is not told apart from its
//! file: its `super::` would be read as the file's parent, so such modules name their
//! file's items from `crate::`. This is the logic of the Python script the refactoring was
//! checked with, in plain Rust.
//!
//! A cycle is a strongly connected component of more than one file (Tarjan's algorithm);
//! the failure names its files and the references inside it.
//!
//! # Who imports whom
//!
//! The claims of `docs/architecture.md` that a reading of the paths can check, each a
//! test: puzzle kinds never import engines ([`kinds_never_import_engines`]), engines never
//! import kinds ([`engines_never_import_kinds`]), and the commands reach the engines only
//! through `cli/src/cli/engines.rs` ([`commands_reach_engines_through_one_module`]). The
//! command line's and the lab's crate roots name the library's modules at their roots,
//! so `crate::engine` in `cli/src/cli/` is the library's `engine` and the same reading
//! applies to every crate. Crates cannot import each other in a circle (cargo refuses),
//! and the library names neither of the others (it cannot: it does not depend on them).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::common::COMMANDS;

/// The crates' source folders, from the repository's root.
const CRATES: &[&str] = &["src/", "cli/src/", "lab/src/"];

#[test]
fn no_import_cycle_between_source_files() {
    let all = source_files();
    let mut cycles = Vec::new();
    for krate in CRATES {
        let files: BTreeMap<String, String> = all
            .iter()
            .filter(|(path, _)| path.starts_with(krate))
            .map(|(p, t)| (p.clone(), t.clone()))
            .collect();
        assert!(!files.is_empty(), "no source files under {krate}");
        cycles.extend(self::cycles(&files));
    }
    assert!(
        cycles.is_empty(),
        "import cycles between source files:\n{}",
        cycles.join("\n")
    );
}

/// The modules that search (engines) and the modules that say what a puzzle means
/// (kinds). `src/engine/` is the seam between them (a `Problem` holds a compiled puzzle),
/// and `src/export/` writes a compiled puzzle in other programs' formats: both may name
/// either side, and neither is in these lists.
const ENGINES: &[&str] = &[
    "solver",
    "sat",
    "subproblems",
    "parts",
    "burnside",
    "engine",
];
const KINDS: &[&str] = &["puzzle"];

/// The first segment of every module that `path`'s file references outside its tests,
/// with the reference, resolved as [`cycles`] resolves them.
fn imported_modules(path: &str, text: &str) -> Vec<(String, String)> {
    let me = module_of(path);
    references(&without_tests(text))
        .into_iter()
        .filter_map(|(supers, segments)| {
            let base = match supers {
                None => Vec::new(),
                Some(n) => me[..me.len().checked_sub(n)?].to_vec(),
            };
            let full: Vec<String> = base.into_iter().chain(segments).collect();
            Some((full.first()?.clone(), full.join("::")))
        })
        .collect()
}

/// The references of the files under `dir` to modules whose first segment is in
/// `forbidden`, as `file: path` lines.
fn references_into(dir: &str, forbidden: &[&str]) -> Vec<String> {
    source_files()
        .iter()
        // A `tests.rs` is a test module (declared under `#[cfg(test)]`): tests may reach
        // anywhere.
        .filter(|(path, _)| path.starts_with(dir) && !path.ends_with("/tests.rs"))
        .flat_map(|(path, text)| {
            imported_modules(path, text)
                .into_iter()
                .filter(|(first, _)| forbidden.contains(&first.as_str()))
                .map(move |(_, full)| format!("{path}: crate::{full}"))
        })
        .collect()
}

/// "Puzzle kinds know nothing of engines": nothing under `src/puzzle/` names an engine
/// module (what `generate --unique/--unsat` counts comes in as a callback).
#[test]
fn kinds_never_import_engines() {
    let found = references_into("src/puzzle/", ENGINES);
    assert!(
        found.is_empty(),
        "a kind imports an engine:\n{}",
        found.join("\n")
    );
}

/// "Engines nothing of kinds": nothing under `src/solver/` or `src/sat/` names a puzzle
/// module (the DIMACS writer takes its comment lines as a `dimacs::Header`).
#[test]
fn engines_never_import_kinds() {
    let mut found = Vec::new();
    for dir in [
        "src/solver/",
        "src/sat/",
        "src/subproblems.rs",
        "src/parts.rs",
        "src/burnside.rs",
    ] {
        found.extend(references_into(dir, KINDS));
    }
    assert!(
        found.is_empty(),
        "an engine imports a kind:\n{}",
        found.join("\n")
    );
}

/// "Data flows one way": the step and progress types every engine reports with
/// (`src/subproblems.rs`) import no module of the crate, so that the native layer at the
/// bottom can import them without an arrow back up; the cut into subproblems is the
/// native layer's own (`src/solver/split.rs`).
#[test]
fn the_report_types_import_nothing() {
    let files = source_files();
    let text = files.get("src/subproblems.rs").expect("src/subproblems.rs");
    let found = imported_modules("src/subproblems.rs", text);
    assert!(found.is_empty(), "src/subproblems.rs imports {found:?}");
}

/// "One executor": the only worker loop of the library is `schedule/execute.rs`. No
/// other module takes jobs from a pool (`pool.take()`) or opens a scope of threads
/// (`thread::scope`), outside its tests: an engine brings a `schedule::Worker`.
#[test]
fn one_worker_loop() {
    let mut found = Vec::new();
    for (path, text) in source_files() {
        if !path.starts_with("src/") || path.starts_with("src/schedule/") {
            continue;
        }
        let code = without_tests(&text);
        for pattern in ["pool.take()", "thread::scope"] {
            if code.contains(pattern) {
                found.push(format!("{path}: {pattern}"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "worker loops outside src/schedule/:\n{}",
        found.join("\n")
    );
}

/// What runs or makes an engine: a constructor of the handle, the registry, the default
/// engine's choice, and the `Problem` methods that run a search. Matched as words, so
/// `SatEngine::default()` and an iterator's `.count()` are not.
const ENGINE_CALLS: &[&str] = &[
    "Engine::",
    "engine::ENGINES",
    ".default_counter(",
    ".count(&",
    ".count_in(",
    ".first(&",
    ".for_each_solution(",
    ".for_each_in(",
    ".refute(",
];

/// The command files that still reach the engines themselves, each with its reason;
/// keep it short, and take an entry off once its file goes through `cli/engines.rs`.
const ENGINE_DOOR_EXCEPTIONS: &[(&str, &str, &str)] = &[];

/// "Every call from a command into the engine API is in `cli/engines.rs`": no other file
/// under `cli/src/cli/` makes or runs an engine, but for [`ENGINE_DOOR_EXCEPTIONS`].
#[test]
fn commands_reach_engines_through_one_module() {
    let mut found = Vec::new();
    for (path, text) in source_files() {
        if !path.starts_with("cli/src/cli/") || path == "cli/src/cli/engines.rs" {
            continue;
        }
        let code = without_tests(&text);
        for call in ENGINE_CALLS {
            let mut from = 0;
            while let Some(k) = code[from..].find(call).map(|k| k + from) {
                from = k + call.len();
                let word_start =
                    k == 0 || !is_ident(code.as_bytes()[k - 1]) || call.starts_with('.');
                let excepted = ENGINE_DOOR_EXCEPTIONS
                    .iter()
                    .any(|(p, c, _)| *p == path && c == call);
                if word_start && !excepted {
                    let line = code[..k].lines().count();
                    found.push(format!("{path}:{line}: {call}"));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "commands that make or run an engine outside cli/engines.rs:\n{}",
        found.join("\n")
    );
    no_stale_exception("ENGINE_DOOR_EXCEPTIONS", ENGINE_DOOR_EXCEPTIONS);
}

/// An exception outlives its reason once its file no longer holds what it excepts: each
/// `(file, text, reason)` of `list` must still find `text` in `file`.
fn no_stale_exception(name: &str, list: &[(&str, &str, &str)]) {
    for (path, what, reason) in list {
        let text = std::fs::read_to_string(
            Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join(path),
        )
        .unwrap_or_default();
        assert!(
            text.contains(what),
            "{path} ({reason}) is on {name} but no longer has {what}: take it off"
        );
    }
}

/// The checker finds a cycle through a `use` group, a `super::` path and a doc link, and
/// leaves out what only a test module references.
#[test]
fn the_cycle_check_sees_groups_super_and_doc_links() {
    let file = |path: &str, text: &str| (path.to_string(), text.to_string());
    let files: BTreeMap<String, String> = [
        file("src/lib.rs", "pub mod a;\npub mod b;\npub mod c;\n"),
        file(
            "src/a/mod.rs",
            "use crate::{b::{self, Thing}, c};\nmod inner;\n",
        ),
        file(
            "src/a/inner.rs",
            "use super::super::c::More;\nuse super::Helper;\n",
        ),
        file("src/b.rs", "//! See [`crate::a::inner::f`].\n"),
        file(
            "src/c.rs",
            "pub struct More;\n#[cfg(test)]\nmod tests {\n    use crate::b::Thing;\n}\n",
        ),
    ]
    .into_iter()
    .collect();
    let found = cycles(&files);
    assert_eq!(found.len(), 1, "{found:?}");
    let cycle = &found[0];
    for path in ["src/a/mod.rs", "src/a/inner.rs", "src/b.rs"] {
        assert!(cycle.contains(path), "{path} missing from {cycle}");
    }
    assert!(
        !cycle.contains("src/c.rs"),
        "a test module's import counted: {cycle}"
    );
    // Without the doc link there is no cycle.
    let mut files = files;
    files.insert("src/b.rs".into(), "pub struct Thing;\n".into());
    assert_eq!(cycles(&files), Vec::<String>::new());
}

/// The library's strings that write a flag on purpose, each with its reason.
const FLAG_EXCEPTIONS: &[(&str, &str, &str)] = &[
    (
        "src/design/maximize.rs",
        "(--maximize {})",
        "a designed puzzle file's header says how it was made, in the command's words",
    ),
    (
        "src/puzzle/polycube/generate.rs",
        " --unique",
        "the flags of the `# polycover generate` line of a generated file's header",
    ),
    (
        "src/puzzle/polycube/generate.rs",
        " --unsat",
        "the flags of the `# polycover generate` line of a generated file's header",
    ),
    (
        "src/puzzle/colored/mod.rs",
        " --solvable",
        "the flags of the `# polycover generate` line of a generated file's header",
    ),
    (
        "src/sat/cadical.rs",
        "`cadical --help`",
        "CaDiCaL's own program lists its options",
    ),
];

/// The library names a caller's setting as a `Setting`, which the command line words as
/// a flag and the Python module as a keyword argument: no string of the library (tests
/// aside) writes a flag (`--symmetry`, `--html`), but for a command line it records (`#
/// polycover generate ... --seed 3`, a file's header) and [`FLAG_EXCEPTIONS`].
#[test]
fn the_library_writes_no_command_line_flag() {
    let mut found = Vec::new();
    for (path, literal) in library_literals() {
        let flag = literal.match_indices("--").any(|(at, _)| {
            let before = literal[..at].chars().next_back();
            let after = literal[at + 2..].chars().next();
            before.is_none_or(|c| c.is_whitespace() || "`(\"'".contains(c))
                && after.is_some_and(|c| c.is_ascii_lowercase())
        });
        let excepted = FLAG_EXCEPTIONS
            .iter()
            .any(|(file, what, _)| *file == path && literal.contains(what));
        if flag && !literal.contains("polycover ") && !excepted {
            found.push(format!("{path}: {literal:?}"));
        }
    }
    assert!(
        found.is_empty(),
        "library strings that write a flag (name a `Setting` instead):\n{}",
        found.join("\n")
    );
    no_stale_exception("FLAG_EXCEPTIONS", FLAG_EXCEPTIONS);
}

/// The library strings that name a command of the binary, each with its reason: a file
/// that records the command line that made or reads it, and one message whose wording a
/// golden output pins. Keep it short; an entry whose file no longer holds its text fails.
const COMMAND_EXCEPTIONS: &[(&str, &str, &str)] = &[
    (
        "src/export/dlx.rs",
        "`polycover dimacs`",
        "a DLX file's comment lines say which DIMACS variable an option is",
    ),
    (
        "src/export/dlx.rs",
        "`polycover export --symmetry none`",
        "a DLX file's comment lines say how to write every solution's options",
    ),
    (
        "src/certify/mod.rs",
        "`polycover decode`",
        "a certificate directory's README says how to read the CNF's models back",
    ),
    (
        "src/puzzle/mod.rs",
        "(see `polycover list`)",
        "an unknown puzzle name: tests/golden/54-count-nosuchpuzzle.out pins the words",
    ),
];

/// A library message says what to do in plain words, never as a command of the binary
/// (`` `count` ``, `` `enumerate --solver bits` ``, `` `polycover list` ``, a message that
/// opens `generate polycubes:`), but for [`COMMAND_EXCEPTIONS`].
#[test]
fn the_library_names_no_command_in_a_message() {
    let mut found = Vec::new();
    for (path, literal) in library_literals() {
        let named = COMMANDS.iter().any(|c| {
            literal.contains(&format!("`{c}`"))
                || literal.contains(&format!("`{c} "))
                || literal.contains(&format!("`polycover {c}"))
                || literal.starts_with(&format!("{c}: "))
                || literal.starts_with(&format!("{c} polycubes"))
                || literal.starts_with(&format!("{c} colored-cubes"))
        });
        let excepted = COMMAND_EXCEPTIONS
            .iter()
            .any(|(file, what, _)| *file == path && literal.contains(what));
        if named && !excepted {
            found.push(format!("{path}: {literal:?}"));
        }
    }
    assert!(
        found.is_empty(),
        "library strings that name a command of the binary:\n{}",
        found.join("\n")
    );
    no_stale_exception("COMMAND_EXCEPTIONS", COMMAND_EXCEPTIONS);
}

/// Every string literal of the library's source (`src/`, tests left out), by its file.
fn library_literals() -> Vec<(String, String)> {
    source_files()
        .into_iter()
        .filter(|(path, _)| path.starts_with("src/") && !path.ends_with("/tests.rs"))
        .flat_map(|(path, text)| {
            string_literals(&without_tests(&text))
                .into_iter()
                .map(|literal| (path.clone(), literal.to_string()))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The contents of the string literals in `text`, comments skipped; a string continued
/// over lines (`\` at a line's end) is one literal.
fn string_literals(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut k = 0;
    while k < bytes.len() {
        match bytes[k] {
            b'/' if bytes.get(k + 1) == Some(&b'/') => {
                k += text[k..].find('\n').unwrap_or(text.len() - k);
            }
            b'/' if bytes.get(k + 1) == Some(&b'*') => {
                k += text[k..].find("*/").map_or(text.len() - k, |e| e + 2);
            }
            b'"' => {
                let end = string_end(bytes, k);
                out.push(&text[k + 1..end.min(text.len())]);
                k = end + 1;
            }
            // A character literal holding a quote (`'"'`).
            b'\'' if bytes.get(k + 1) == Some(&b'"') => k += 3,
            _ => k += 1,
        }
    }
    out
}

/// Every `.rs` file of the crates' source folders ([`CRATES`]), by its path from the
/// repository's root (`src/sat/cnf.rs`, `cli/src/cli/mod.rs`).
fn source_files() -> BTreeMap<String, String> {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let mut files = BTreeMap::new();
    let mut dirs: Vec<PathBuf> = CRATES.iter().map(|c| root.join(c)).collect();
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("a source folder is readable") {
            let path: PathBuf = entry.expect("a directory entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let name = path.strip_prefix(root).expect("under the root");
                let name = name.to_string_lossy().replace('\\', "/");
                let text = std::fs::read_to_string(&path).expect("a source file");
                files.insert(name, text);
            }
        }
    }
    files
}

/// The module path of a file in its crate: `src/sat/cnf.rs` is `sat::cnf`,
/// `src/sat/mod.rs` is `sat`, `src/lib.rs` and `cli/src/main.rs` the root.
fn module_of(path: &str) -> Vec<String> {
    let inner = CRATES
        .iter()
        .filter_map(|c| path.strip_prefix(c))
        .next_back()
        .and_then(|p| p.strip_suffix(".rs"))
        .expect("a source file of a crate");
    let mut segments: Vec<String> = inner.split('/').map(str::to_string).collect();
    if matches!(
        segments.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        segments.pop();
    }
    segments
}

/// The cycles among `files` (path, text), one description per strongly connected
/// component of more than one file: its files, and the references among them.
fn cycles(files: &BTreeMap<String, String>) -> Vec<String> {
    let modules: BTreeMap<Vec<String>, &str> = files
        .keys()
        .map(|path| (module_of(path), path.as_str()))
        .collect();
    let paths: Vec<&str> = files.keys().map(String::as_str).collect();
    let index: BTreeMap<&str, usize> = paths.iter().enumerate().map(|(k, &p)| (p, k)).collect();
    let edges: Vec<BTreeSet<usize>> = paths
        .iter()
        .map(|&path| {
            let me = module_of(path);
            references(&without_tests(&files[path]))
                .into_iter()
                .filter_map(|(supers, segments)| {
                    let base = match supers {
                        None => Vec::new(),
                        // In `src/a/b.rs` (module `a::b`), `super` is `a`; in
                        // `src/a/mod.rs` (module `a`), it is the root.
                        Some(n) => me[..me.len().checked_sub(n)?].to_vec(),
                    };
                    let full: Vec<String> = base.into_iter().chain(segments).collect();
                    // The longest prefix that is a module with a file (not the root).
                    (1..=full.len())
                        .rev()
                        .find_map(|k| modules.get(&full[..k]).copied())
                })
                .filter(|&target| target != path)
                .map(|target| index[target])
                .collect()
        })
        .collect();
    strongly_connected(&edges)
        .into_iter()
        .filter(|component| component.len() > 1)
        .map(|component| {
            let mut text = format!(
                "{} files: {}",
                component.len(),
                component
                    .iter()
                    .map(|&v| paths[v])
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            for &v in &component {
                let inside: Vec<&str> = edges[v]
                    .iter()
                    .filter(|w| component.contains(w))
                    .map(|&w| paths[w])
                    .collect();
                text += &format!("\n  {} -> {}", paths[v], inside.join(", "));
            }
            text
        })
        .collect()
}

/// The text without the items under `#[cfg(test)]`: from the attribute to the end of the
/// item that follows (its `;`, or the `}` that closes its first `{`), skipping braces
/// inside strings, characters and comments.
fn without_tests(text: &str) -> String {
    const ATTRIBUTE: &str = "#[cfg(test)]";
    let mut kept = String::new();
    let mut rest = text;
    while let Some(start) = rest.find(ATTRIBUTE) {
        kept += &rest[..start];
        let item = &rest[start + ATTRIBUTE.len()..];
        rest = &item[item_end(item)..];
    }
    kept + rest
}

/// Where the item at the start of `text` ends (just after its `;` or closing `}`).
fn item_end(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut k = 0;
    while k < bytes.len() {
        match bytes[k] {
            b'/' if bytes.get(k + 1) == Some(&b'/') => {
                k += text[k..].find('\n').unwrap_or(text.len() - k);
            }
            b'/' if bytes.get(k + 1) == Some(&b'*') => {
                k += text[k..].find("*/").map_or(text.len() - k, |e| e + 2);
                continue;
            }
            b'"' => k = string_end(bytes, k),
            // A character literal (`'{'`, `'\''`), not a lifetime (`'a`).
            b'\'' if bytes.get(k + 2) == Some(&b'\'') => k += 2,
            b'\'' if bytes.get(k + 1) == Some(&b'\\') && k + 3 <= text.len() => {
                k += text[k + 3..].find('\'').map_or(text.len() - k, |e| e + 3);
            }
            b';' if depth == 0 => return k + 1,
            b'{' => depth += 1,
            b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return k + 1;
                }
            }
            _ => {}
        }
        k += 1;
    }
    text.len()
}

/// The position of the `"` that closes the string opening at `start` (raw strings too:
/// `r#"…"#` ends at `"#`).
fn string_end(bytes: &[u8], start: usize) -> usize {
    let mut hashes = 0;
    let mut before = start;
    while before > 0 && bytes[before - 1] == b'#' {
        hashes += 1;
        before -= 1;
    }
    let raw = before > 0 && bytes[before - 1] == b'r';
    let mut k = start + 1;
    while k < bytes.len() {
        match bytes[k] {
            b'\\' if !raw => k += 1,
            b'"' if !raw
                || bytes[k + 1..]
                    .iter()
                    .take(hashes)
                    .filter(|&&b| b == b'#')
                    .count()
                    == hashes =>
            {
                return k + hashes;
            }
            _ => {}
        }
        k += 1;
    }
    bytes.len()
}

/// Every `crate::…` and `super::…` path in `text`, as (`None` for `crate`, or how many
/// `super`s, and the segments after them), with `use` groups expanded.
fn references(text: &str) -> Vec<(Option<usize>, Vec<String>)> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut k = 0;
    while k < bytes.len() {
        let word_start = k == 0 || !is_ident(bytes[k - 1]);
        let keyword = ["crate", "super"]
            .into_iter()
            .find(|w| word_start && bytes[k..].starts_with(w.as_bytes()));
        let Some(keyword) = keyword else {
            k += 1;
            continue;
        };
        let mut at = k + keyword.len();
        if !text[at..].starts_with("::") {
            k = at;
            continue;
        }
        let mut supers = (keyword == "super").then_some(1);
        while supers.is_some() && text[at..].starts_with("::super::") {
            supers = supers.map(|n| n + 1);
            at += "::super".len();
        }
        let mut trees = Vec::new();
        k = use_tree(text, at, Vec::new(), &mut trees);
        found.extend(trees.into_iter().map(|segments| (supers, segments)));
    }
    found
}

/// Reads the rest of a path from `at` (which follows `prefix`): `::name` segments, then
/// maybe a group `::{tree, …}` or a glob, and pushes every full path onto `out` (`self`
/// in a group is the group's own path). Returns where the path ends.
fn use_tree(
    text: &str,
    mut at: usize,
    mut prefix: Vec<String>,
    out: &mut Vec<Vec<String>>,
) -> usize {
    let bytes = text.as_bytes();
    while let Some(after) = text[at..].strip_prefix("::") {
        let after = after.trim_start();
        let skipped = text[at..].len() - after.len();
        if after.starts_with('{') {
            at += skipped + 1;
            loop {
                at += text[at..].len() - text[at..].trim_start().len();
                // The end of the group; a `;` first means it was no group (in prose).
                if at >= bytes.len() || bytes[at] == b'}' || bytes[at] == b';' {
                    return (at + 1).min(bytes.len());
                }
                let word = ident_at(text, at);
                if word == "self" {
                    out.push(prefix.clone());
                    at += word.len();
                } else if word == "as" {
                    // `… as alias`: the alias names nothing.
                    at += word.len();
                    at += text[at..].len() - text[at..].trim_start().len();
                    at += ident_at(text, at).len();
                } else if !word.is_empty() {
                    // `name` or `name::…`: one subtree.
                    let mut sub = prefix.clone();
                    sub.push(word.to_string());
                    at = use_tree(text, at + word.len(), sub, out);
                } else {
                    // A comma, a glob.
                    at += text[at..].chars().next().map_or(1, char::len_utf8);
                }
            }
        }
        let name_len = after.bytes().take_while(|&b| is_ident(b)).count();
        if name_len == 0 {
            break; // a glob, or the end
        }
        prefix.push(after[..name_len].to_string());
        at += skipped + name_len;
    }
    out.push(prefix);
    at
}

/// The identifier (or keyword) that starts at `at`, maybe empty.
fn ident_at(text: &str, at: usize) -> &str {
    let len = text[at..].bytes().take_while(|&b| is_ident(b)).count();
    &text[at..at + len]
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Tarjan's strongly connected components of the graph `edges` (a node's successors).
fn strongly_connected(edges: &[BTreeSet<usize>]) -> Vec<Vec<usize>> {
    struct Tarjan<'a> {
        edges: &'a [BTreeSet<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        stack: Vec<usize>,
        on_stack: Vec<bool>,
        next: usize,
        components: Vec<Vec<usize>>,
    }
    impl Tarjan<'_> {
        fn visit(&mut self, v: usize) {
            self.index[v] = Some(self.next);
            self.low[v] = self.next;
            self.next += 1;
            self.stack.push(v);
            self.on_stack[v] = true;
            for &w in self.edges[v].iter() {
                match self.index[w] {
                    None => {
                        self.visit(w);
                        self.low[v] = self.low[v].min(self.low[w]);
                    }
                    Some(i) if self.on_stack[w] => self.low[v] = self.low[v].min(i),
                    Some(_) => {}
                }
            }
            if Some(self.low[v]) == self.index[v] {
                let mut component = Vec::new();
                loop {
                    let w = self.stack.pop().expect("v is on the stack");
                    self.on_stack[w] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                component.sort_unstable();
                self.components.push(component);
            }
        }
    }
    let n = edges.len();
    let mut tarjan = Tarjan {
        edges,
        index: vec![None; n],
        low: vec![0; n],
        stack: Vec::new(),
        on_stack: vec![false; n],
        next: 0,
        components: Vec::new(),
    };
    for v in 0..n {
        if tarjan.index[v].is_none() {
            tarjan.visit(v);
        }
    }
    tarjan.components
}

/// "One short paragraph per folder plus a table" (issue 63): `docs/architecture.md` stays
/// a map, at most 300 lines, with no paragraph longer than 25 lines. A paragraph is a run
/// of non-blank lines; a fenced code block is one paragraph (blank lines inside it
/// included), and so is a table, like any other run (a long table is split in two under a
/// line of text). The failure names the first long paragraph by its line and its text.
#[test]
fn the_map_is_short() {
    const MOST_LINES: usize = 300;
    const MOST_IN_A_PARAGRAPH: usize = 25;
    let path = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("docs/architecture.md");
    let text = std::fs::read_to_string(&path).expect("docs/architecture.md is readable");
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines.len() <= MOST_LINES,
        "docs/architecture.md has {} lines, more than {MOST_LINES}: keep it a map (the \
         files' `//!` docs hold the detail)",
        lines.len()
    );
    // Each paragraph as (index of its first line, its length in lines).
    let mut paragraphs = Vec::new();
    let (mut open, mut fenced) = (None, false);
    for (k, line) in lines.iter().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        match (line.trim().is_empty() && !fenced, open) {
            (true, Some(first)) => {
                paragraphs.push((first, k - first));
                open = None;
            }
            (false, None) => open = Some(k),
            _ => {}
        }
    }
    if let Some(first) = open {
        paragraphs.push((first, lines.len() - first));
    }
    if let Some(&(first, n)) = paragraphs.iter().find(|(_, n)| *n > MOST_IN_A_PARAGRAPH) {
        panic!(
            "docs/architecture.md:{}: a paragraph of {n} lines, more than \
             {MOST_IN_A_PARAGRAPH}: split it or shorten it. It begins: {}",
            first + 1,
            lines[first]
        );
    }
}

/// The command line is handed its stop, it never fetches one (issue 63): no `static` in
/// `cli/src/` holds a `Stop` (the signal handler's thread owns a clone of the one
/// `signals::install` returns, and `cli/context.rs` hands each command its copy).
#[test]
fn no_static_holds_a_stop() {
    let holders: Vec<String> = source_files()
        .iter()
        .filter(|(path, _)| path.starts_with("cli/src/"))
        .flat_map(|(path, text)| {
            without_tests(text)
                .lines()
                .enumerate()
                .filter(|(_, line)| {
                    let line = line.trim_start();
                    let line = line.strip_prefix("pub ").unwrap_or(line);
                    (line.starts_with("static ") || line.starts_with("thread_local!"))
                        && line.contains("Stop")
                })
                .map(|(i, line)| format!("{path}:{}: {}", i + 1, line.trim()))
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(
        holders.is_empty(),
        "statics holding a stop:\n{}",
        holders.join("\n")
    );
}

/// The facade is the top floor (issue 63): inside the library, a file other than
/// `src/lib.rs` names an item by its module (`crate::problem::Problem`), never by a
/// root re-export (`crate::Problem`), in code and in doc links alike, so that the
/// import drawing shows who uses whom and the facade can change without the inside.
/// The names are read from `src/lib.rs`'s `pub use` lines.
#[test]
fn no_file_inside_names_a_root_re_export() {
    let files = source_files();
    let lib = &files["src/lib.rs"];
    let mut names: Vec<String> = Vec::new();
    for line in lib
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub use "))
    {
        let line = line.trim_end_matches(';');
        match line.split_once('{') {
            Some((_, group)) => names.extend(
                group
                    .trim_end_matches('}')
                    .split(',')
                    .map(|n| n.trim().to_string())
                    .filter(|n| !n.is_empty()),
            ),
            None => names.extend(line.rsplit("::").next().map(str::to_string)),
        }
    }
    assert!(names.iter().any(|n| n == "Problem"), "{names:?}");
    let mut found = Vec::new();
    for (path, text) in files
        .iter()
        .filter(|(p, _)| p.starts_with("src/") && *p != "src/lib.rs")
    {
        for (i, line) in text.lines().enumerate() {
            for name in &names {
                let needle = format!("crate::{name}");
                let mut at = 0;
                while let Some(k) = line[at..].find(&needle) {
                    let end = at + k + needle.len();
                    let next = line[end..].chars().next();
                    if !next.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                        found.push(format!("{path}:{}: {}", i + 1, line.trim()));
                    }
                    at = end;
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "root re-exports named inside the library (name the module instead):\n{}",
        found.join("\n")
    );
}
