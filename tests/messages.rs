//! Messages, advice and outputs a new user read wrong (issue 34, defects 8, 9, 12, 13,
//! 14, 16 and 18): each test runs the command the report named and checks what it says
//! now. Every test takes about a second or less.

use std::path::Path;
use std::process::Output;

use crate::common::{bin_path, polycover, polycover_env, stderr, stdout};

/// A box of dominoes `w` x `h` (one layer): many copies of one piece.
fn dominoes(dir: &Path, w: usize, h: usize) -> String {
    let path = dir.join(format!("d{w}x{h}.toml"));
    std::fs::write(
        &path,
        format!(
            "name = \"d{w}x{h}\"\nbox = [{w}, {h}, 1]\n[[piece]]\nname = \"D\"\n\
             cells = [[0,0,0],[1,0,0]]\ncount = {}\n",
            w * h / 2
        ),
    )
    .unwrap();
    path.to_str().unwrap().to_string()
}

/// `polycover ARGS` under `ulimit -v KIB`, with one malloc arena: the threads' own
/// arenas reserve 64 MiB of address space each, at times that vary, and would make the
/// limit's effect vary from run to run.
fn under_address_limit(kib: u64, args: &[&str]) -> Output {
    std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\""))
        .arg(bin_path())
        .args(args)
        .env("MALLOC_ARENA_MAX", "1")
        .output()
        .unwrap()
}

/// The number after `name` on a `c` line: `table 20.0 MiB` gives 20.0 for `table` (the
/// `table` of `table hits` is passed over: no number follows it).
fn figure(text: &str, name: &str) -> f64 {
    let words: Vec<&str> = text.split([' ', ',', '\n']).collect();
    words
        .windows(2)
        .find_map(|w| (w[0] == name).then(|| w[1].parse().ok()).flatten())
        .unwrap_or_else(|| panic!("no number after {name}: {text}"))
}

/// Defect 8: dividing the `--symmetry none` count by the group's order is not the
/// distinct count when some solutions are symmetric (dominoes 8x8: 12,988,816 / 8 =
/// 1,623,602, not 1,629,189); the refusal must not advise it.
#[test]
fn the_dlx_refusal_does_not_advise_dividing() {
    let out = polycover(&["export", "dominoes-8x8", "--format", "dlx"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(!err.contains("and divide"), "{err}");
    assert!(
        err.contains("Burnside") && err.contains("polycover's count gives"),
        "{err}"
    );
    // What the message says instead holds: the quotient is not the distinct count.
    let none = stdout(&polycover(&["count", "dominoes-8x8", "--symmetry", "none"]));
    let distinct = stdout(&polycover(&["count", "dominoes-8x8"]));
    assert!(none.ends_with("s mc 12988816\n"), "{none}");
    assert!(distinct.ends_with("s mc 1629189\n"), "{distinct}");
    assert_ne!(12_988_816 / 8, 1_629_189);
}

/// Defect 9: the main page names `polycover-count(1)` and the others; `man --dir` writes
/// every one of them, each with its command's options, and groff reads each without a
/// warning.
#[test]
fn man_dir_writes_every_page_the_main_page_names() {
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("man1");
    let out = polycover(&["man", "--dir", pages.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // roff writes a hyphen as `\-`.
    let read = |name: &str| std::fs::read_to_string(pages.join(name)).unwrap();
    let main = read("polycover.1").replace("\\-", "-");
    let named: Vec<&str> = main
        .split("polycover-")
        .skip(1)
        .filter_map(|s| s.split_once("(1)").map(|(name, _)| name))
        .filter(|name| name.chars().all(|c| c.is_ascii_lowercase()))
        .collect();
    assert!(named.len() >= 15, "{named:?}");
    for command in ["count", "solve", "export", "sample", "man"] {
        assert!(named.contains(&command), "{command}: {named:?}");
    }
    for command in &named {
        let page = read(&format!("polycover-{command}.1")).replace("\\-", "-");
        // Every long option of the command's --help is on its page.
        let help = stdout(&polycover(&[command, "--help"]));
        for line in help.lines().map(str::trim_start) {
            let Some(option) = line
                .split([' ', ','])
                .find(|w| w.starts_with("--") && w.len() > 2)
            else {
                continue;
            };
            if line.starts_with('-') {
                assert!(page.contains(option), "{command}: {option} missing");
            }
        }
    }
    let count = read("polycover-count.1").replace("\\-", "-");
    assert!(count.contains("--threads") && count.contains("--memory"));
    if std::process::Command::new("groff")
        .arg("--version")
        .output()
        .is_ok()
    {
        for command in named.iter().map(|c| format!("polycover-{c}.1")) {
            for page in [command.as_str(), "polycover.1"] {
                let out = std::process::Command::new("groff")
                    .args(["-man", "-Tutf8", "-ww", "-z"])
                    .arg(pages.join(page))
                    .env("LC_ALL", "C")
                    .output()
                    .unwrap();
                assert!(
                    out.status.success() && out.stderr.is_empty(),
                    "{page}: {}",
                    stderr(&out)
                );
            }
        }
    }
    // Standard output still gets the main page.
    let out = polycover(&["man"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).contains(".TH polycover"));
}

/// Defect 12: a cube size that makes infinite coordinates, a gap lost against the
/// coordinates' size, and a message printing 300 digits.
#[test]
fn print_sizes_are_bounded_and_said_compactly() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("soma.3mf");
    let t = target.to_str().unwrap();
    let export = |extra: &[&str]| {
        let mut args = vec!["export", "soma", "--format", "3mf", "-o", t];
        args.extend_from_slice(extra);
        polycover(&args)
    };
    for (extra, said) in [
        (&["--unit", "1e308"][..], "1e308"),
        (&["--unit", "1e30", "--gap", "0.1"][..], "1e30"),
        (&["--unit", "1e-300"][..], "1e-300"),
    ] {
        let out = export(extra);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {err}");
        assert!(err.contains(said) && err.len() < 200, "{extra:?}: {err}");
        assert!(!target.exists(), "{extra:?}");
    }
    // In range, but the gap's half is below a 32-bit float's step at 10^6 mm.
    let out = export(&["--unit", "100000", "--gap", "0.01"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--gap 0.01") && err.contains("at least 2.0 mm"),
        "{err}"
    );
    assert!(!target.exists());
    // The gap it names is enough.
    let out = export(&["--unit", "100000", "--gap", "2"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// Defect 13: a box side past a puzzle file's 1024 is refused by `generate` itself, and
/// no message names a file `generated.toml` that does not exist.
#[test]
fn generate_refuses_a_box_no_puzzle_file_may_have() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("g.toml");
    let t = target.to_str().unwrap();
    for unique in [false, true] {
        let mut args = vec![
            "generate",
            "polycubes",
            "--box",
            "1025,1,1",
            "--pieces",
            "1",
        ];
        if unique {
            args.push("--unique");
        }
        args.extend_from_slice(&["-o", t]);
        let out = polycover(&args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains("1024"), "{err}");
        assert!(!err.contains("generated.toml"), "{err}");
        assert!(!target.exists(), "--unique {unique}: a file was written");
    }
    // The limit itself is a puzzle file's: a side of 1024 is written and loads.
    let out = polycover(&[
        "generate",
        "polycubes",
        "--box",
        "1024,1,1",
        "--pieces",
        "1",
        "-o",
        t,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = polycover(&["info", t]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// Defect 14: an overflowing `--memory` is too large, not too small.
#[test]
fn a_memory_size_past_any_machine_is_too_large() {
    let out = polycover(&["count", "soma", "--memory", "99999999999T"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("too large") && !err.contains("at least"),
        "{err}"
    );
    let out = polycover(&["count", "soma", "--memory", "0.5M"]);
    assert!(stderr(&out).contains("at least 1M"));
}

/// Defect 14: the default budget of the memo's table stays within a quarter of `ulimit
/// -v`: under 100 MB the table of the 13x14 dominoes (60 MB with its rehash) evicts
/// instead of growing, and the count still ends right.
#[test]
#[cfg(target_os = "linux")]
fn the_default_table_budget_follows_ulimit_v() {
    let dir = tempfile::tempdir().unwrap();
    // The memo's sweep holds the 16x16 box's counts in about 60 MiB: more than the
    // quarter of 100 MB it may take here, so it must forget some and still count right.
    let d = dominoes(dir.path(), 16, 16);
    let args = [
        "count",
        &d,
        "--symmetry",
        "none",
        "--solver",
        "memo",
        "--threads",
        "1",
    ];
    let out = under_address_limit(100_000, &args);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    assert!(
        text.ends_with("s mc 2444888770250892795802079170816\n"),
        "{text}"
    );
    assert!(figure(&text, "evictions") > 0.0, "{text}");
    assert!(figure(&text, "table") <= 100_000.0 / 1024.0 / 4.0, "{text}");
}

/// Defect 14: out of memory, `count` and `sample` suggest a smaller `--memory`.
#[test]
#[cfg(target_os = "linux")]
fn out_of_memory_suggests_a_smaller_memory_budget() {
    let dir = tempfile::tempdir().unwrap();
    // The 18x18 box's table grows past 250 MiB, far over the 60 MB allowed.
    let d = dominoes(dir.path(), 18, 18);
    for args in [
        vec![
            "count",
            &d,
            "--symmetry",
            "none",
            "--solver",
            "memo",
            "--threads",
            "1",
            "--memory",
            "1G",
        ],
        vec!["sample", &d, "--symmetry", "none", "--memory", "1G"],
    ] {
        let out = under_address_limit(60_000, &args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("out of memory") && err.contains("a smaller --memory"),
            "{args:?}: {err}"
        );
    }
}

/// Defect 16: 72 dominoes print as the box's rows with every copy numbered and a
/// legend, not as 144 lines of coordinates; `sample` prints the same way.
#[test]
fn many_copies_print_as_a_numbered_grid() {
    for args in [
        vec!["solve", "dominoes-12x12"],
        vec!["sample", "dominoes-12x12", "--seed", "7"],
    ] {
        let out = polycover(&args);
        let text = stdout(&out);
        let ok = if args[0] == "solve" { 10 } else { 0 };
        assert_eq!(out.status.code(), Some(ok), "{args:?}: {}", stderr(&out));
        let record: Vec<&str> = text
            .lines()
            .skip_while(|l| !(*l == "s SATISFIABLE" || l.starts_with("solution ")))
            .skip(1)
            .take_while(|l| !l.is_empty())
            .collect();
        assert_eq!(record.len(), 13, "{args:?}: {text}");
        assert_eq!(record[12], "copies  D: 01-72", "{args:?}");
        let mut seen = std::collections::HashMap::new();
        for row in &record[..12] {
            let labels: Vec<&str> = row.split(' ').collect();
            assert_eq!(labels.len(), 12, "{row}");
            for l in labels {
                *seen.entry(l.parse::<u32>().unwrap()).or_insert(0) += 1;
            }
        }
        // Each of the 72 copies covers two cells.
        assert_eq!(seen.len(), 72);
        assert!(seen.iter().all(|(&k, &n)| (1..=72).contains(&k) && n == 2));
    }
}

/// Defect 18: `list` gives the dominoes' counts up to rotations, which `count` confirms.
#[test]
fn list_gives_the_dominoes_counts() {
    let text = stdout(&polycover(&["list"]));
    assert!(!text.contains(" ? "), "{text}");
    let row = text
        .lines()
        .find(|l| l.starts_with("dominoes-8x8 "))
        .unwrap();
    assert!(row.contains(" 1629189 "), "{row}");
    let count = stdout(&polycover(&["count", "dominoes-8x8"]));
    assert!(count.contains("c expected 1629189 (matches)"), "{count}");
}

/// Defect 18: the memo's `table` figure is what the table took, within the process's
/// peak memory (the shards' peaks, each counting its rehash's old and new slots, added
/// up to more).
#[test]
fn the_table_figure_is_within_the_peak_memory() {
    let dir = tempfile::tempdir().unwrap();
    let d = dominoes(dir.path(), 13, 14);
    let args = [
        "count",
        &d,
        "--symmetry",
        "none",
        "--solver",
        "memo",
        "--threads",
        "2",
    ];
    let out = polycover(&args);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(text.contains("solver memo"), "{text}");
    assert!(
        figure(&text, "table") <= figure(&text, "memory"),
        "table above peak memory: {text}"
    );
}

/// Defect 18: a count that differs from `[expect]` names the file and line of the figure.
#[test]
fn an_expect_mismatch_names_its_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("wrong.toml");
    std::fs::write(
        &path,
        "name = \"d\"\nbox = [2,2,1]\n\n[expect]\nnone = 5\n\
         [[piece]]\nname = \"D\"\ncells = [[0,0,0],[1,0,0]]\ncount = 2\n",
    )
    .unwrap();
    let out = polycover(&["count", path.to_str().unwrap(), "--symmetry", "none"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("wrong.toml:5: "), "{err}");
    assert!(err.contains("counted 2 solutions"), "{err}");
}

/// Defect 18: one solution is `1 solution`.
#[test]
fn one_solution_is_singular() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("one.txt");
    let out = polycover(&[
        "enumerate",
        "soma",
        "--limit",
        "1",
        "-o",
        target.to_str().unwrap(),
    ]);
    let err = stderr(&out);
    assert!(err.contains("c wrote 1 solution to"), "{err}");
    assert!(!err.contains("1 solutions"), "{err}");
    // `sample` too.
    let out = polycover(&["sample", "slothouber-graatsma", "-n", "1", "--seed", "1"]);
    let err = stderr(&out);
    assert!(err.contains("c drew 1 solution in "), "{err}");
    assert!(!err.contains("1 solutions"), "{err}");
}

/// Defect 18: `sample --help` says it exits 20 when there is nothing to draw, as it does.
#[test]
fn sample_documents_its_exit_20() {
    let help = stdout(&polycover(&["sample", "--help"]));
    assert!(
        help.contains("20") && help.contains("no solution"),
        "{help}"
    );
    let out = polycover_env(&["sample", "one-sided-tetrominoes-4x7"], &[]);
    assert_eq!(out.status.code(), Some(20), "{}", stderr(&out));
}

/// Defect 18: `solve --solver memo` is refused before the header, as `enumerate` is.
#[test]
fn solve_with_a_counting_engine_is_refused_before_its_header() {
    for command in ["solve", "enumerate"] {
        let out = polycover(&[command, "soma", "--solver", "memo"]);
        assert_eq!(out.status.code(), Some(2), "{command}");
        assert_eq!(stdout(&out), "", "{command}");
        assert!(
            stderr(&out).contains("counts solutions without listing them: count with it"),
            "{command}"
        );
    }
}

/// Issue 46, defect 15d: a directory that holds one entry "holds 1 entry", not "1
/// entries"; a matrix of one option says "1 option".
#[test]
fn nouns_agree_with_one() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("svg");
    std::fs::create_dir(&svg).unwrap();
    std::fs::write(svg.join("notes.txt"), "mine").unwrap();
    let out = polycover(&[
        "enumerate",
        "soma",
        "--svg",
        svg.to_str().unwrap(),
        "--limit",
        "1",
    ]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("it holds 1 entry ("), "{err}");

    let domino = dir.path().join("domino.toml");
    std::fs::write(
        &domino,
        "name = \"one domino\"\nbox = [2, 1, 1]\n[[piece]]\nname = \"d\"\ncells = [[0,0,0],[1,0,0]]\n",
    )
    .unwrap();
    let out = polycover(&["count", domino.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("c matrix 3 items, 1 option; searching 1 option\n"),
        "{text}"
    );
}
