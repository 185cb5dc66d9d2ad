//! The commands of README.md and of the guide (`docs/guide/*.md`), as a reader types them.
//!
//! - Every `polycover ...` command of their `sh` blocks parses: its subcommand, flags and
//!   values are accepted.
//! - Every one of them runs, block by block in a scratch directory of its own (in which
//!   `tests/`, `examples/` and `encodings/` are the repository's), in the order written, so
//!   that a command reads the files the ones before it wrote; each ends with 0, 10 or 20.
//!   Left to the parse check alone, with the reason in [`not_run`]: commands that take
//!   minutes, read standard input or a file no command of the block makes (an answer of
//!   `cadical`, the parts of a Slurm run), or expand a shell pattern.
//! - A comment that promises a count (`s mc N`) is what the command prints.
//! - A `console` block's `$ polycover ...` prints the lines shown, where `c ...` stands for
//!   the comment lines.
//! - The README's set-up commands are the main job and the test command `.ci/run` runs.
//! - The README's library example builds and runs as a crate of its own.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{stderr, stdout, wait_at_most};

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// The guide's chapters, each run by its own test below (so they run in parallel); a
/// chapter added to `docs/guide/` without a test here fails
/// [`every_chapter_of_the_guide_is_run`].
const CHAPTERS: &[&str] = &[
    "certified-counts.md",
    "counting.md",
    "design.md",
    "development.md",
    "formats.md",
    "library.md",
    "long-runs.md",
    "performance.md",
    "pictures-and-printing.md",
    "puzzle-files.md",
    "sat-research.md",
];

/// A `polycover` command of a document's `sh` block.
#[derive(Clone, Debug)]
struct Doc {
    /// `README.md:41`, for messages.
    at: String,
    /// Which `sh` block of the document (commands of one block share a directory).
    block: usize,
    /// The arguments after `polycover`, as the shell splits them.
    args: Vec<String>,
    /// The file its standard output is redirected to (`> FILE`), if any.
    stdout_to: Option<String>,
    /// The line's comment (after ` #`).
    comment: String,
    /// Why it is only parsed, not run (`None`: it runs).
    not_run: Option<&'static str>,
}

/// The documents: README.md, then the guide's chapters.
fn documents() -> Vec<PathBuf> {
    let mut docs = vec![PathBuf::from(ROOT).join("README.md")];
    docs.extend(CHAPTERS.iter().map(|c| guide(c)));
    docs
}

fn guide(chapter: &str) -> PathBuf {
    PathBuf::from(ROOT).join("docs/guide").join(chapter)
}

/// The `polycover` commands of `path`'s `sh` blocks. A line ending in `\` goes on.
fn commands(path: &Path) -> Vec<Doc> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let mut found = Vec::new();
    let (mut in_sh, mut block) = (false, 0);
    // Other programs' outputs in this block (`cadical x > answer`): not there to read.
    let mut foreign: Vec<String> = Vec::new();
    let mut pending = String::new();
    for (n, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.starts_with("```") {
            in_sh = t == "```sh";
            block += 1;
            foreign.clear();
            continue;
        }
        if !in_sh {
            continue;
        }
        if let Some(head) = t.strip_suffix('\\') {
            pending.push_str(head);
            pending.push(' ');
            continue;
        }
        let t = std::mem::take(&mut pending) + t;
        let (code, comment) = match t.find(" #") {
            Some(i) => (&t[..i], t[i + 2..].trim()),
            None if t.starts_with('#') => continue,
            None => (&t[..], ""),
        };
        // Each command of a shell line (`a; b`, `a | b`, `a && b`).
        let piped = code.contains('|');
        for part in code.split([';', '|']).flat_map(|p| p.split("&&")) {
            let (command, target) = match part.split_once('>') {
                Some((c, f)) => (c.trim(), Some(f.trim().to_string())),
                None => (part.trim(), None),
            };
            let Some(rest) = command.strip_prefix("polycover ") else {
                foreign.extend(target);
                continue;
            };
            let at = format!("{name}:{}", n + 1);
            let args = shell_words::split(rest).unwrap_or_else(|e| panic!("{at}: {e}"));
            let mut doc = Doc {
                at,
                block,
                args,
                stdout_to: target,
                comment: comment.to_string(),
                not_run: None,
            };
            doc.not_run = not_run(&doc, piped, &foreign);
            found.push(doc);
        }
    }
    found
}

/// The flags that take no value (every other flag takes the word after it).
const SWITCHES: &[&str] = &["--force", "--unique", "--unsat", "--solvable", "--help"];

/// The files a command reads: its positional arguments that are paths (a catalog name is
/// not), and `--model`'s value. `suite`'s directory is written, not read.
fn inputs(args: &[String]) -> Vec<&str> {
    let mut found = Vec::new();
    let mut i = 1;
    while i < args.len() {
        let a = args[i].as_str();
        if a.starts_with('-') && a != "-" {
            if !SWITCHES.contains(&a) {
                if a == "--model" {
                    found.extend(args.get(i + 1).map(String::as_str));
                }
                i += 1;
            }
        } else if args[0] != "suite" && (a.contains('.') || a.contains('/') || a == "-") {
            found.push(a);
        }
        i += 1;
    }
    found
}

/// Why a command with a shell variable or `...` is neither run nor parsed: its words are
/// not what the shell would pass.
const PLACEHOLDER: &str = "a placeholder or a shell variable";

/// Why `doc` is only parsed, not run; `None` when it runs.
fn not_run(doc: &Doc, piped: bool, foreign: &[String]) -> Option<&'static str> {
    let w: Vec<&str> = doc.args.iter().map(String::as_str).collect();
    let has = |s: &str| w.contains(&s);
    let bedlam = has("bedlam");
    if w.iter().any(|a| a.contains('$') || a.contains("...")) {
        return Some(PLACEHOLDER);
    }
    // Only `bench soma` runs: the others measure for minutes, and `--external` needs a
    // program the test cannot count on.
    if w[0] == "bench" && (bench_puzzles(&w).iter().any(|p| *p != "soma") || has("--external")) {
        return Some("a benchmark of minutes, or of a program that may be absent");
    }
    if bedlam
        && (has("sat") && w[0] != "solve"
            || has("none")
            || has("--part")
            || has("--checkpoint")
            || w[0] == "enumerate" && !has("--limit")
            || w[0] == "sample")
    {
        return Some("Bedlam: a count or listing of minutes");
    }
    let pieces = w
        .iter()
        .position(|a| *a == "--pieces")
        .and_then(|k| w.get(k + 1)?.parse::<usize>().ok());
    if w[0] == "design" && pieces.is_some_and(|n| n >= 12) {
        return Some("a design of 12 pieces or more: a minute or more");
    }
    if w.get(1).is_some_and(|p| p.starts_with("dominoes-8x8")) && has("none") && !has("memo") {
        return Some("50 million nodes: seconds to minutes");
    }
    if w.iter().any(|a| a.contains('*') || a.contains('?')) {
        return Some("a shell pattern over files made elsewhere");
    }
    if piped {
        return Some("a pipe");
    }
    for input in inputs(&doc.args) {
        if input == "-" {
            return Some("reads standard input");
        }
        if foreign.iter().any(|f| f == input) {
            return Some("reads what another program wrote");
        }
    }
    None
}

/// The puzzles of a `bench` command: its positional arguments.
fn bench_puzzles<'a>(w: &[&'a str]) -> Vec<&'a str> {
    let mut found = Vec::new();
    let mut i = 1;
    while i < w.len() {
        if w[i].starts_with('-') {
            if !SWITCHES.contains(&w[i]) {
                i += 1;
            }
        } else {
            found.push(w[i]);
        }
        i += 1;
    }
    found
}

/// `N` of a comment's `s mc N` (digits, with or without commas).
fn promised_count(comment: &str) -> Option<String> {
    let i = comment.find("s mc ")?;
    let digits: String = comment[i + 5..]
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ',')
        .filter(char::is_ascii_digit)
        .collect();
    (!digits.is_empty()).then_some(digits)
}

/// A scratch directory for one block: the repository's inputs linked in, and the folders
/// the documents write pictures and benchmark files into.
fn scratch() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for linked in ["tests", "examples", "encodings"] {
        std::os::unix::fs::symlink(Path::new(ROOT).join(linked), dir.path().join(linked)).unwrap();
    }
    for made in ["docs/pictures", "docs/bench"] {
        std::fs::create_dir_all(dir.path().join(made)).unwrap();
    }
    dir
}

/// Runs `args` in `dir`, its standard output to `stdout_to` (in `dir`) if given. A
/// generous upper bound proves that it ends; it is not a speed test.
fn run(args: &[String], dir: &Path, stdout_to: Option<&str>) -> std::process::Output {
    let mut child = Command::new(crate::common::bin_path())
        .args(args)
        .current_dir(dir)
        // `verify` runs the CPOG checker that .ci/run builds there.
        .env(
            "PATH",
            format!(
                "{ROOT}/target/tools:{}",
                std::env::var("PATH").unwrap_or_default()
            ),
        )
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out_reader = crate::common::collect(&mut child);
    let err = child.stderr.take().unwrap();
    let err_reader = std::thread::spawn(move || std::io::read_to_string(err).unwrap_or_default());
    let status = wait_at_most(&mut child, Duration::from_secs(120));
    let Some(status) = status else {
        panic!("polycover {args:?} ran past 120 s");
    };
    let out = out_reader.join().unwrap();
    if let Some(file) = stdout_to.filter(|f| !f.contains('~') && !f.starts_with('/')) {
        std::fs::write(dir.join(file), &out).unwrap();
    }
    std::process::Output {
        status,
        stdout: out.into_bytes(),
        stderr: err_reader.join().unwrap().into_bytes(),
    }
}

/// Parses every command of `path` and runs the ones [`not_run`] does not leave out,
/// checking their exits and promised counts, then its `console` examples.
fn check_document(path: &Path) {
    let docs = commands(path);
    let mut dir: Option<(usize, tempfile::TempDir)> = None;
    for doc in docs.iter().filter(|d| d.not_run != Some(PLACEHOLDER)) {
        // `--help` at the end: clap checks every argument before it, then prints help.
        let out = Command::new(crate::common::bin_path())
            .args(&doc.args)
            .arg("--help")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}: `polycover {}` does not parse: {}",
            doc.at,
            doc.args.join(" "),
            stderr(&out)
        );
        if doc.not_run.is_some() {
            continue;
        }
        if dir.as_ref().is_none_or(|(b, _)| *b != doc.block) {
            dir = Some((doc.block, scratch()));
        }
        let here = dir.as_ref().unwrap().1.path();
        if let Some(missing) = inputs(&doc.args)
            .into_iter()
            .find(|f| !here.join(f).exists() && polycover::CatalogEntry::find(f).is_none())
        {
            panic!(
                "{}: `polycover {}` reads {missing}, which neither the repository nor a \
                 command before it in the block makes",
                doc.at,
                doc.args.join(" ")
            );
        }
        let started = Instant::now();
        let out = run(&doc.args, here, doc.stdout_to.as_deref());
        let text = stdout(&out);
        assert!(
            matches!(out.status.code(), Some(0 | 10 | 20)),
            "{}: `polycover {}` ended with {:?} after {:.1} s:\n{text}{}",
            doc.at,
            doc.args.join(" "),
            out.status,
            started.elapsed().as_secs_f64(),
            stderr(&out)
        );
        if let Some(n) = promised_count(&doc.comment) {
            let want = format!("s mc {n}");
            assert!(
                text.lines().any(|l| l == want),
                "{}: `polycover {}` promises `{want}`, but printed:\n{text}{}",
                doc.at,
                doc.args.join(" "),
                stderr(&out)
            );
        }
    }
    check_console_blocks(path);
}

/// Each `$ polycover ...` of a `console` block prints the lines below it (`c ...` stands
/// for any number of `c` lines), run in the repository.
fn check_console_blocks(path: &Path) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut in_console = false;
    let mut current: Option<(String, Vec<String>)> = None;
    let mut examples = Vec::new();
    for line in text.lines() {
        if line.starts_with("```") {
            in_console = line == "```console";
            examples.extend(current.take());
            continue;
        }
        if !in_console {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ polycover ") {
            examples.extend(current.take());
            current = Some((command.to_string(), Vec::new()));
        } else if let Some((_, lines)) = current.as_mut() {
            lines.push(line.to_string());
        }
    }
    for (command, want) in examples {
        let args = shell_words::split(&command).unwrap();
        let out = run(&args, Path::new(ROOT), None);
        let text = stdout(&out);
        let got: Vec<&str> = text.lines().filter(|l| !l.starts_with("c ")).collect();
        let want: Vec<&str> = want
            .iter()
            .map(String::as_str)
            .filter(|l| *l != "c ...")
            .collect();
        assert_eq!(
            got, want,
            "{path:?}: `$ polycover {command}` prints otherwise"
        );
    }
}

#[test]
fn the_readme_commands_run_as_documented() {
    check_document(&PathBuf::from(ROOT).join("README.md"));
}

/// One test per chapter, so that they run side by side.
macro_rules! chapter_tests {
    ($($test:ident => $chapter:literal,)*) => {
        $(
            #[test]
            fn $test() {
                check_document(&guide($chapter));
            }
        )*

        #[test]
        fn every_chapter_of_the_guide_is_run() {
            let tested = [$($chapter),*];
            assert_eq!(tested, CHAPTERS, "a chapter of CHAPTERS without its test");
            let mut on_disk = crate::common::file_names(&PathBuf::from(ROOT).join("docs/guide"));
            on_disk.retain(|n| n.ends_with(".md"));
            assert_eq!(on_disk, CHAPTERS, "docs/guide/ and CHAPTERS differ");
        }
    };
}

chapter_tests! {
    the_certified_counts_chapter_runs_as_documented => "certified-counts.md",
    the_counting_chapter_runs_as_documented => "counting.md",
    the_design_chapter_runs_as_documented => "design.md",
    the_development_chapter_runs_as_documented => "development.md",
    the_formats_chapter_runs_as_documented => "formats.md",
    the_library_chapter_runs_as_documented => "library.md",
    the_long_runs_chapter_runs_as_documented => "long-runs.md",
    the_performance_chapter_runs_as_documented => "performance.md",
    the_pictures_chapter_runs_as_documented => "pictures-and-printing.md",
    the_puzzle_files_chapter_runs_as_documented => "puzzle-files.md",
    the_sat_chapter_runs_as_documented => "sat-research.md",
}

/// Enough commands are found and run: a change of the documents' layout that hid them
/// from this file would otherwise pass unseen.
#[test]
fn the_documents_hold_the_commands_this_file_runs() {
    let all: Vec<Doc> = documents().iter().flat_map(|d| commands(d)).collect();
    let readme = commands(&PathBuf::from(ROOT).join("README.md"));
    assert!(readme.len() >= 25, "only {} README commands", readme.len());
    assert!(
        readme
            .iter()
            .all(|d| d.not_run.is_none() || d.args.contains(&"decode".to_string())),
        "a README command is not run: {:?}",
        readme
            .iter()
            .filter(|d| d.not_run.is_some())
            .collect::<Vec<_>>()
    );
    let run = all.iter().filter(|d| d.not_run.is_none()).count();
    let counted = all
        .iter()
        .filter(|d| d.not_run.is_none() && promised_count(&d.comment).is_some())
        .count();
    assert!(all.len() >= 100, "only {} commands", all.len());
    assert!(run >= 70, "only {run} of {} commands run", all.len());
    assert!(counted >= 20, "only {counted} promised counts checked");
}

/// The README's set-up commands: the main job, and the test command that `.ci/run` runs
/// after installing what the tests need.
#[test]
fn the_readme_set_up_commands_are_the_main_job_and_ci_test_command() {
    let readme = std::fs::read_to_string(PathBuf::from(ROOT).join("README.md")).unwrap();
    let first = readme.find("```sh\n").expect("a sh block") + 6;
    let setup = &readme[first..first + readme[first..].find("```").unwrap()];
    let lines: Vec<&str> = setup
        .lines()
        .map(|l| l.split(" #").next().unwrap().trim())
        .collect();
    assert_eq!(
        lines,
        [
            "cargo run --release -- count bedlam",
            "cargo test --release --features c-solvers"
        ],
        "README.md must start with the two set-up commands"
    );
    let ci = std::fs::read_to_string(PathBuf::from(ROOT).join(".ci/run")).unwrap();
    assert!(
        ci.lines().any(|l| l.trim() == lines[1]),
        ".ci/run does not run the README's test command `{}`",
        lines[1]
    );
}

/// The README's library example is `examples/readme.rs`, word for word, and it runs:
/// `cargo test` builds the examples beside the binary (`target/<profile>/examples/`), so
/// the example is compiled with the test build, not by a second cargo. What a crate that
/// embeds the library without default features gets (no clap, no signal handling) is
/// checked by `.ci/run` (`cargo tree` and a check of the library alone).
#[test]
fn the_readme_library_example_is_an_example_that_runs() {
    let readme = std::fs::read_to_string(PathBuf::from(ROOT).join("README.md")).unwrap();
    let start = readme
        .find("```rust\n")
        .expect("a rust block in the README")
        + 8;
    let code = &readme[start..start + readme[start..].find("```").unwrap()];
    assert_eq!(
        std::fs::read_to_string(PathBuf::from(ROOT).join("examples/readme.rs")).unwrap(),
        code,
        "examples/readme.rs must be the README's library example"
    );
    let example = Path::new(env!("CARGO_BIN_EXE_polycover"))
        .with_file_name("examples")
        .join(format!("readme{}", std::env::consts::EXE_SUFFIX));
    if !example.exists() {
        // `cargo test --test lib` builds no examples; plain `cargo test` (and so CI,
        // where a missing need fails) does.
        crate::needs::skip_or_fail(
            crate::needs::require_all(),
            "readme::the_readme_library_example_is_an_example_that_runs",
            "the examples built (`cargo build --release --examples`; plain `cargo test` \
             builds them)",
        );
        return;
    }
    let out = Command::new(&example)
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", example.display()));
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "480 solutions\n");
}

/// GitHub's anchor for a heading: lower case, without punctuation but `-` and `_`,
/// spaces as `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The lines of a Markdown file outside its code blocks.
fn prose(text: &str) -> Vec<&str> {
    let mut in_code = false;
    text.lines()
        .filter(|l| {
            if l.trim_start().starts_with("```") {
                in_code = !in_code;
                return false;
            }
            !in_code
        })
        .collect()
}

/// Every relative link of README.md and the guide names a file that exists, and a
/// `#anchor` names a heading of it: the move into `docs/guide/` changed every path.
#[test]
fn every_link_of_the_documents_resolves() {
    let mut checked = 0;
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).unwrap();
        for line in prose(&text) {
            for (i, _) in line.match_indices("](") {
                let rest = &line[i + 2..];
                let target = &rest[..rest.find(')').expect("a closed link")];
                if target.starts_with("http") || target.starts_with("mailto:") {
                    continue;
                }
                let (file, fragment) = target.split_once('#').unwrap_or((target, ""));
                let path = if file.is_empty() {
                    doc.clone()
                } else {
                    doc.parent().unwrap().join(file)
                };
                assert!(path.exists(), "{doc:?}: the link {target} names no file");
                if !fragment.is_empty() {
                    let target_text = std::fs::read_to_string(&path).unwrap();
                    let anchors: Vec<String> = prose(&target_text)
                        .into_iter()
                        .filter_map(|l| l.strip_prefix('#'))
                        .map(|h| anchor(h.trim_start_matches('#')))
                        .collect();
                    assert!(
                        anchors.iter().any(|a| a == fragment),
                        "{doc:?}: the link {target} names no heading of {path:?}"
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= 40, "only {checked} links");
}
