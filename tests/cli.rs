//! The command line end to end: output formats and exit codes.

use std::io::Read;
use std::process::{Command, Stdio};

use crate::common::*;

#[test]
fn count_ends_with_the_model_count() {
    let out = polycover(&["count", "soma"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert_eq!(text.lines().last(), Some("s mc 480"));
    assert!(
        text.lines().rev().skip(1).all(|l| l.starts_with("c ")),
        "{text}"
    );
}

#[test]
fn count_accepts_both_solvers_and_modes() {
    for (mode, want) in [("none", "s mc 11520"), ("reflections", "s mc 240")] {
        for solver in ["dlx", "bits"] {
            let out = polycover(&[
                "count",
                "soma",
                "--symmetry",
                mode,
                "--solver",
                solver,
                "--threads",
                "2",
            ]);
            assert_eq!(stdout(&out).lines().last(), Some(want), "{mode} {solver}");
        }
    }
}

/// The vector list compaction and the portable one walk the same tree: same count, same
/// node count. On a CPU with AVX2 the default run must use the vector kernel, so that this
/// compares two different kernels.
#[test]
fn both_compaction_kernels_agree() {
    let vector = if cfg!(target_arch = "x86_64") && std::env::var_os("POLYCOVER_SIMD").is_none() {
        #[cfg(target_arch = "x86_64")]
        let has = std::arch::is_x86_feature_detected!("avx2");
        #[cfg(not(target_arch = "x86_64"))]
        let has = false;
        if has {
            "avx2"
        } else {
            "portable"
        }
    } else {
        "portable"
    };
    for (puzzle, mode) in [("soma", "none"), ("pentomino-5x12", "rotations")] {
        let args = ["count", puzzle, "--symmetry", mode, "--threads", "1"];
        let runs = [
            (
                polycover_env(&args, &[("POLYCOVER_SIMD", "portable")]),
                "portable",
            ),
            (polycover(&args), vector),
        ];
        let summary: Vec<Vec<String>> = runs
            .iter()
            .map(|(out, kernel)| {
                let text = stdout(out);
                // The solver line ends with the kernel, or with why the engine was chosen.
                assert!(
                    text.contains(&format!(", {kernel} list compaction\n"))
                        || text.contains(&format!(", {kernel} list compaction (the default")),
                    "{text}"
                );
                // The nodes and the counts, without the times.
                text.lines()
                    .filter(|l| l.starts_with("s ") || l.starts_with("c threads"))
                    .map(|l| l.split_once("nodes").map_or(l, |(_, n)| n))
                    // Peak memory differs by a few hundred KiB from run to run.
                    .map(|l| {
                        l.split_once(", peak memory")
                            .map_or(l, |(n, _)| n)
                            .to_string()
                    })
                    .collect()
            })
            .collect();
        assert_eq!(summary[0], summary[1], "{puzzle}");
        assert_eq!(summary[0].len(), 2, "{puzzle}");
    }
}

#[test]
fn solve_prints_layers_and_exits_10() {
    let out = polycover(&["solve", "soma"]);
    assert_eq!(out.status.code(), Some(10));
    let text = stdout(&out);
    let body: Vec<&str> = text
        .lines()
        .skip_while(|l| *l != "s SATISFIABLE")
        .skip(1)
        .collect();
    assert_eq!(
        body[0].split_whitespace().collect::<Vec<_>>(),
        ["z=0", "z=1", "z=2"]
    );
    assert_eq!(body.len(), 4, "{text}");
    let letters: String = body[1..]
        .concat()
        .chars()
        .filter(|c| c.is_alphanumeric())
        .collect();
    assert_eq!(letters.len(), 27);
    for piece in ['V', 'L', 'T', 'Z', 'A', 'B', 'P'] {
        assert!(letters.contains(piece), "{piece} missing: {text}");
    }
}

#[test]
fn solve_unsolvable_exits_20() {
    // Five T-tetrominoes cannot tile 4x5: each covers 3 squares of one colour of a
    // checkerboard, so five of them cover an odd imbalance.
    let path = format!(
        "{}/tests/fixtures/five-t.toml",
        concat!(env!("CARGO_MANIFEST_DIR"), "/..")
    );
    let out = polycover(&["solve", &path]);
    assert_eq!(out.status.code(), Some(20));
    assert_eq!(stdout(&out).lines().last(), Some("s UNSATISFIABLE"));
    let out = polycover(&["count", &path]);
    assert_eq!(stdout(&out).lines().last(), Some("s mc 0"));
}

#[test]
fn enumerate_jsonl_with_limit() {
    let out = polycover(&["enumerate", "soma", "--limit", "3", "--format", "jsonl"]);
    assert_eq!(out.status.code(), Some(0));
    let lines: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("valid JSON"))
        .collect();
    assert_eq!(lines.len(), 3);
    for (k, v) in lines.iter().enumerate() {
        assert_eq!(v["index"], k as u64 + 1);
        assert_eq!(v["placements"].as_array().unwrap().len(), 7);
        assert_eq!(v["layers"].as_array().unwrap().len(), 3);
    }
}

#[test]
fn enumerate_to_a_file_writes_every_solution() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.txt");
    let out = polycover(&["enumerate", "pentomino-3x20", "-o", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        text.lines().filter(|l| l.starts_with("solution ")).count(),
        2
    );
}

#[test]
fn a_closed_pipe_exits_quietly() {
    let mut child = crate::common::bin()
        .args(["enumerate", "soma", "--symmetry", "none"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 64];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .unwrap();
    drop(child.stdout.take());
    let status = child.wait().unwrap();
    let err = rest_of_stderr(&mut child);
    assert_eq!(status.code(), Some(0), "{err}");
    assert!(err.is_empty(), "{err}");
}

#[test]
fn info_shows_pieces_and_group() {
    let out = polycover(&["info", "bedlam"]);
    let text = stdout(&out);
    assert!(text.contains("placements  4188"), "{text}");
    assert!(
        text.contains("group       rotations (24 elements)"),
        "{text}"
    );
    assert!(
        text.contains("K          5      1             3          48  Cross"),
        "{text}"
    );
}

#[test]
fn list_shows_the_catalog() {
    let text = stdout(&polycover(&["list"]));
    for name in ["bedlam", "soma", "pentomino-6x10", "slothouber-graatsma"] {
        assert!(text.contains(name), "{name}: {text}");
    }
}

#[test]
fn catalog_files_are_reachable_by_path_too() {
    let path = format!(
        "{}/encodings/soma.toml",
        concat!(env!("CARGO_MANIFEST_DIR"), "/..")
    );
    assert_eq!(
        stdout(&polycover(&["count", &path])).lines().last(),
        Some("s mc 480")
    );
}

/// `--limit N` stops at the N-th solution. On 800 dominoes in a 40x40 box the second
/// solution up to rotation is a long way off, so waiting for it would hang.
#[test]
fn enumerate_stops_at_the_limit_without_looking_further() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dominoes-40.toml");
    std::fs::write(
        &path,
        "name = \"dominoes 40x40\"\nbox = [40, 40, 1]\n[[piece]]\nname = \"d\"\n\
         cells = [[0,0,0], [1,0,0]]\ncount = 800\n",
    )
    .unwrap();
    let file = path.to_str().unwrap();
    // (`--limit 0` is refused: see options_say_what_they_do.)
    let out = polycover(&[
        "enumerate",
        file,
        "--solver",
        "dlx",
        "--limit",
        "1",
        "--format",
        "jsonl",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().count(), 1, "--limit 1");
}

/// The `c solver` line names the compaction that runs: the vector kernel serves
/// one-word masks only, so a puzzle of 65 cells gets the portable one on any CPU.
#[test]
fn the_solver_line_names_the_kernel_that_runs() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rods.toml");
    let rod = |n: usize| {
        (0..n)
            .map(|x| format!("[{x},0,0]"))
            .collect::<Vec<_>>()
            .join(",")
    };
    std::fs::write(
        &path,
        format!(
            "name = \"two rods\"\nbox = [65, 1, 1]\n\
             [[piece]]\nname = \"a\"\ncells = [{}]\n\
             [[piece]]\nname = \"b\"\ncells = [{}]\n",
            rod(33),
            rod(32)
        ),
    )
    .unwrap();
    let out = polycover(&["solve", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(10), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains(
            "c solver bits: piece segments, cell masks of 2 word(s), portable list compaction\n"
        ),
        "{text}"
    );
    let out = polycover(&["solve", path.to_str().unwrap(), "--solver", "dlx"]);
    assert!(stdout(&out).contains("c solver dlx\n"), "{}", stdout(&out));
}

/// Completions and the manual page come from the argument definitions: every command
/// is in them, and bash can load the script.
#[test]
fn completions_and_the_manual_page_name_every_command() {
    for shell in ["bash", "zsh", "fish"] {
        let out = polycover(&["completions", shell]);
        assert!(out.status.success(), "{}", stderr(&out));
        let text = stdout(&out);
        for c in COMMANDS {
            assert!(text.contains(c), "{shell}: {c} missing");
        }
    }
    let script = stdout(&polycover(&["completions", "bash"]));
    let loaded = Command::new("bash")
        .args(["-c", "source /dev/stdin && complete -p polycover"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(script.as_bytes())?;
            child.wait_with_output()
        })
        .unwrap();
    assert!(
        loaded.status.success(),
        "bash could not load the completion script"
    );
    let man = stdout(&polycover(&["man"]));
    assert!(man.starts_with(".ie") || man.contains(".TH"), "{man}");
    for c in COMMANDS {
        assert!(man.contains(c), "man: {c} missing");
    }
}

/// Usage that was accepted in silence or gave a wrong hint.
#[test]
fn options_say_what_they_do() {
    // --limit 0 printed nothing and exited 0.
    let out = polycover(&["enumerate", "soma", "--limit", "0"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    // dimacs defaults to standard output, as export, import and generate do.
    let out = polycover(&["dimacs", "soma"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("\np cnf "));
    // --format (enumerate) and --seed (generate) have help texts.
    let help = stdout(&polycover(&["enumerate", "--help"]));
    let format = help.lines().skip_while(|l| !l.contains("--format")).nth(1);
    assert!(
        format.is_some_and(|l| l.contains("jsonl") || l.contains("text")),
        "{help}"
    );
    let help = stdout(&polycover(&["generate", "--help"]));
    assert!(help.contains("same seed"), "{help}");
    // --svg with a checkpoint (no --part) names --checkpoint, and no made-up command.
    let dir = tempfile::tempdir().unwrap();
    let out = polycover(&[
        "enumerate",
        "soma",
        "-o",
        dir.path().join("s.txt").to_str().unwrap(),
        "--checkpoint",
        dir.path().join("s.cp").to_str().unwrap(),
        "--svg",
        dir.path().join("pictures").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("--checkpoint") && !err.contains("--part"),
        "{err}"
    );
}

/// On a terminal, a count's progress bar appears with its parts already counted (never a
/// full bar over "0/0 subproblems"), and it moves by the estimated work done. Run under
/// `script(1)`, which gives the run a pseudo-terminal as a user's shell would.
#[test]
fn the_progress_bar_starts_with_its_parts_counted() {
    let command = format!(
        "{} count pentomino-6x10 --threads 1 --symmetry none",
        crate::common::bin_path()
    );
    let out = std::process::Command::new("script")
        .args(["-qfec", &command, "/dev/null"])
        .output()
        .expect("script(1) from util-linux runs");
    let text = stdout(&out);
    assert!(text.contains("s mc 9356"), "{text}");
    let frames: Vec<&str> = text
        .split(['\r', '\n'])
        .filter(|l| l.contains(" subproblems, "))
        .collect();
    assert!(!frames.is_empty(), "no progress bar on a terminal:\n{text}");
    for frame in &frames {
        assert!(
            !frame.contains(" 0/0 ") && !frame.contains(", , "),
            "{frame}"
        );
    }
}

/// `--memory` bounds a table: an engine that keeps none says that it ignores it, as model
/// counters say of their cache options; the memo, which keeps one, says nothing.
#[test]
fn memory_says_where_it_does_not_apply() {
    for (solver, applies) in [("dlx", false), ("bits", false), ("memo", true)] {
        let out = polycover(&["count", "soma", "--solver", solver, "--memory", "1G"]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let said = stdout(&out).contains(&format!(
            "c --memory does not apply to solver {solver}, which keeps no table"
        ));
        assert_eq!(said, !applies, "{solver}: {}", stdout(&out));
    }
}
