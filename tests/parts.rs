//! Parts and checkpoints: `--part K/N` with every solver adds up through `merge`;
//! `merge` refuses missing, duplicated and foreign parts; enumerated parts join into
//! every solution once; checkpoints survive `kill -9` and refuse another run. GNU
//! parallel and Slurm are in `tests/schedulers.rs`; d4 on `dimacs --part` in
//! `external.rs`.

use std::collections::HashSet;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, SystemTime};

use crate::common::*;

/// Runs `count --part K/N` for every K and writes the outputs to one file.
fn count_parts(dir: &Path, name: &str, n: usize, args: &[&str]) -> std::path::PathBuf {
    let mut all = String::new();
    for k in 1..=n {
        let part = format!("{k}/{n}");
        let mut a = vec!["count", "--part", &part, "--threads", "1"];
        a.extend_from_slice(args);
        let out = polycover(&a);
        assert_eq!(out.status.code(), Some(0), "{a:?}: {}", stderr(&out));
        let text = stdout(&out);
        assert!(
            !text.contains("s mc"),
            "a part is not a whole count: {text}"
        );
        all += &text;
    }
    let path = dir.join(name);
    std::fs::write(&path, all).unwrap();
    path
}

fn fingerprints(text: &str) -> HashSet<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix("c part "))
        .map(|l| l.split(' ').nth(2).unwrap().to_string())
        .collect()
}

/// Soma up to rotations (480): without symmetry (11,520) varisat took minutes to list
/// every solution of the eight parts.
#[test]
fn parts_add_up_with_every_solver() {
    let dir = tempfile::tempdir().unwrap();
    let mut seen = HashSet::new();
    for solver in [
        &["--solver", "dlx"][..],
        &["--solver", "bits"],
        &["--solver", "sat"],
        &["--solver", "sat", "--backend", "varisat", "--amo", "ladder"],
    ] {
        let mut args = vec!["soma", "--symmetry", "rotations"];
        args.extend_from_slice(solver);
        let name = format!("soma-{}.txt", solver.join("_"));
        let results = count_parts(dir.path(), &name, 8, &args);
        let out = merge(&[&results], None);
        assert_eq!(out.status.code(), Some(0), "{solver:?}: {}", stderr(&out));
        assert!(stdout(&out).ends_with("s mc 480\n"), "{}", stdout(&out));
        seen.extend(fingerprints(&std::fs::read_to_string(&results).unwrap()));
    }
    // The split does not depend on the engine that runs it.
    assert_eq!(seen.len(), 1, "{seen:?}");

    let results = count_parts(dir.path(), "p6x10.txt", 5, &["pentomino-6x10"]);
    assert!(stdout(&merge(&[&results], None)).ends_with("s mc 2339\n"));
}

#[test]
fn merge_refuses_a_missing_part() {
    let dir = tempfile::tempdir().unwrap();
    let results = count_parts(dir.path(), "r.txt", 4, &["soma"]);
    let text = std::fs::read_to_string(&results).unwrap();
    let without_3: String = text
        .lines()
        .filter(|l| !l.starts_with("c part 3/4 "))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&results, without_3).unwrap();
    let out = merge(&[&results], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("1 of 4 parts missing: 3"),
        "{}",
        stderr(&out)
    );
    assert!(!stdout(&out).contains("s mc"));
}

/// Cuts a results file down to the line of part `k_of_n` (`2/3`).
fn keep_only_part(results: &std::path::Path, k_of_n: &str) {
    let text = std::fs::read_to_string(results).unwrap();
    let kept: String = text
        .lines()
        .filter(|l| l.starts_with(&format!("c part {k_of_n} ")))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(results, kept).unwrap();
}

#[test]
fn merge_refuses_a_duplicate_part() {
    let dir = tempfile::tempdir().unwrap();
    let results = count_parts(dir.path(), "r.txt", 3, &["soma"]);
    let again = count_parts(dir.path(), "again.txt", 3, &["soma"]);
    keep_only_part(&again, "2/3");
    let out = merge(&[&results, &again], None);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("part 2/3 appears twice"), "{err}");
    assert!(err.contains("again.txt:1"), "{err}");
}

#[test]
fn merge_refuses_a_foreign_fingerprint() {
    let dir = tempfile::tempdir().unwrap();
    let soma = count_parts(dir.path(), "soma.txt", 2, &["soma"]);
    // The same puzzle and part count in another symmetry mode is another split.
    let other = count_parts(dir.path(), "other.txt", 2, &["soma", "--symmetry", "none"]);
    keep_only_part(&other, "2/2");
    keep_only_part(&soma, "1/2");
    let out = merge(&[&soma, &other], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("different splits"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn enumerated_parts_join_into_every_solution_once() {
    let dir = tempfile::tempdir().unwrap();
    for (format, puzzle, parts, want) in [
        ("jsonl", "pentomino-6x10", 3, 2339usize),
        ("text", "soma", 4, 480),
    ] {
        let mut results = String::new();
        for k in 1..=parts {
            let file = dir.path().join(format!("{puzzle}-{k}.{format}"));
            let part = format!("{k}/{parts}");
            let out = polycover(&[
                "enumerate",
                puzzle,
                "--part",
                &part,
                "--format",
                format,
                "-o",
                file.to_str().unwrap(),
            ]);
            assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
            results += &stdout(&out);
        }
        let results_path = dir.path().join(format!("{puzzle}-results.txt"));
        std::fs::write(&results_path, results).unwrap();
        let joined = dir.path().join(format!("{puzzle}-all.{format}"));
        let out = crate::common::bin()
            .arg("merge")
            .arg(&results_path)
            .arg("-o")
            .arg(&joined)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert!(stdout(&out).ends_with(&format!("s mc {want}\n")));
        let text = std::fs::read_to_string(&joined).unwrap();
        let records: Vec<String> = if format == "jsonl" {
            text.lines()
                .enumerate()
                .map(|(i, l)| {
                    let v: serde_json::Value = serde_json::from_str(l).unwrap();
                    assert_eq!(v["index"], (i + 1) as u64, "numbered anew");
                    v["layers"].to_string()
                })
                .collect()
        } else {
            text.split("\n\n")
                .filter(|r| !r.trim().is_empty())
                .enumerate()
                .map(|(i, r)| {
                    let (head, layers) = r.split_once('\n').unwrap();
                    assert_eq!(head, format!("solution {}", i + 1), "numbered anew");
                    layers.to_string()
                })
                .collect()
        };
        assert_eq!(records.len(), want, "{puzzle}");
        let distinct: HashSet<&String> = records.iter().collect();
        assert_eq!(distinct.len(), want, "{puzzle}: a solution twice");
    }
}

#[test]
fn a_checkpoint_of_another_run_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let cp = dir.path().join("cp");
    let cp = cp.to_str().unwrap();
    let out = polycover(&["count", "soma", "--checkpoint", cp]);
    assert!(stdout(&out).ends_with("s mc 480\n"), "{}", stdout(&out));
    // Run again: everything is done, the same answer at once.
    let out = polycover(&["count", "soma", "--checkpoint", cp]);
    assert!(
        stdout(&out).contains("done before, 480 solutions"),
        "{}",
        stdout(&out)
    );
    assert!(stdout(&out).ends_with("s mc 480\n"));

    for (args, says) in [
        (&["count", "pentomino-6x10"][..], "puzzle"),
        (&["count", "soma", "--symmetry", "none"], "symmetry mode"),
        (
            &["count", "soma", "--part", "1/2"],
            "the checkpoint records the whole search (no --part), this run is part 1/2",
        ),
    ] {
        let mut a = args.to_vec();
        a.extend(["--checkpoint", cp]);
        let out = polycover(&a);
        assert_eq!(out.status.code(), Some(2), "{a:?}");
        assert!(stderr(&out).contains(says), "{a:?}: {}", stderr(&out));
    }
    let text = std::fs::read_to_string(cp).unwrap();
    std::fs::write(cp, text.replace("version ", "version 0.0.0-")).unwrap();
    let out = polycover(&["count", "soma", "--checkpoint", cp]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("not of this polycover"),
        "{}",
        stderr(&out)
    );

    let not_ours = dir.path().join("notes.txt");
    std::fs::write(&not_ours, "my notes\n").unwrap();
    let out = polycover(&["count", "soma", "--checkpoint", not_ours.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&not_ours).unwrap(), "my notes\n");
}

/// Some milliseconds, different from run to run.
fn random_millis(from: u64, to: u64) -> u64 {
    let nanos = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos() as u64;
    from + nanos % (to - from)
}

/// The finished subproblems a checkpoint records (none before its first save).
fn done_in(cp: &Path) -> usize {
    std::fs::read_to_string(cp).map_or(0, |text| {
        text.lines().filter(|l| l.starts_with("done ")).count()
    })
}

/// Starts `args` (which continue the checkpoint `cp`) and kills it with SIGKILL at a
/// random moment once the checkpoint records work of this run: every kill leaves
/// something to resume, however fast the machine. The checkpoint is rewritten about once
/// a second, so the moment may fall in a rewrite. False if the run ended first.
fn kill_after_progress(args: &[&str], cp: &Path) -> bool {
    let before = done_in(cp);
    let mut child = crate::common::bin()
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    while done_in(cp) == before {
        if child.try_wait().unwrap().is_some() {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    std::thread::sleep(Duration::from_millis(random_millis(0, 700)));
    let running = child.try_wait().unwrap().is_none();
    child.kill().unwrap();
    child.wait().unwrap();
    running
}

/// The 6x10 pentominoes without symmetry (9,356 solutions, 2,192 subproblems) on two
/// threads, so that the finished subproblems are not a prefix of the split, killed three
/// times with a resume between: the final count is the whole count. The DLX, several
/// times slower than the bitset engine here, makes the run last long enough for three
/// kills, each after a checkpoint rewrite. (Bedlam's 460,464 took minutes.)
#[test]
fn a_count_resumes_after_kill_9() {
    let (puzzle, mode, want) = if cfg!(debug_assertions) {
        ("pentomino-6x10", "rotations", 2339)
    } else {
        ("pentomino-6x10", "none", 9356)
    };
    let dir = tempfile::tempdir().unwrap();
    let cp = dir.path().join("count.checkpoint");
    let args = [
        "count",
        puzzle,
        "--symmetry",
        mode,
        "--solver",
        "dlx",
        "--threads",
        "2",
        "--checkpoint",
        cp.to_str().unwrap(),
    ];
    for _ in 0..3 {
        assert!(kill_after_progress(&args, &cp), "ended before the kill");
    }
    let out = polycover(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains(" subproblems done before, "), "{text}");
    assert!(text.ends_with(&format!("s mc {want}\n")), "{text}");
}

/// The same for `enumerate -o FILE --checkpoint`: FILE ends with every solution once
/// (told apart by their layers, which are a canonical form without symmetry).
#[test]
fn an_enumeration_resumes_after_kill_9() {
    let (puzzle, want) = if cfg!(debug_assertions) {
        ("soma", 11_520)
    } else {
        ("pentomino-6x10", 9356)
    };
    let dir = tempfile::tempdir().unwrap();
    let cp = dir.path().join("enumerate.checkpoint");
    let file = dir.path().join("all.txt");
    let args = [
        "enumerate",
        puzzle,
        "--symmetry",
        "none",
        "--solver",
        "dlx",
        "-o",
        file.to_str().unwrap(),
        "--checkpoint",
        cp.to_str().unwrap(),
    ];
    for _ in 0..3 {
        assert!(kill_after_progress(&args, &cp), "ended before the kill");
    }
    let out = polycover(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(&file).unwrap();
    let mut layers = HashSet::new();
    let mut n = 0;
    for (i, record) in text.split("\n\n").filter(|r| !r.is_empty()).enumerate() {
        let (head, body) = record.split_once('\n').unwrap();
        assert_eq!(head, format!("solution {}", i + 1));
        layers.insert(body.to_string());
        n += 1;
    }
    assert_eq!(n, want);
    assert_eq!(layers.len(), want, "a solution twice");
}

#[test]
fn part_options_are_checked() {
    for (args, says) in [
        (&["count", "soma", "--part", "0/4"][..], "K/N"),
        (&["count", "soma", "--part", "5/4"], "K/N"),
        (&["enumerate", "soma", "--part", "1/4"], "-o FILE"),
        (
            &[
                "enumerate",
                "soma",
                "--part",
                "1/4",
                "-o",
                "x.txt",
                "--limit",
                "3",
            ],
            "--limit",
        ),
    ] {
        let out = polycover(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
    }
}

/// A checkpoint of one part, continued by another: refused naming both parts (the
/// fingerprint, which depends on the number of parts, is not what the message is about).
#[test]
fn a_checkpoint_of_another_part_names_the_parts() {
    let dir = tempfile::tempdir().unwrap();
    let cp = dir.path().join("cp");
    let cp = cp.to_str().unwrap();
    let out = polycover(&["count", "soma", "--part", "2/4", "--checkpoint", cp]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    for (part, says) in [
        (
            "1/4",
            "the checkpoint records part 2/4, this run is part 1/4",
        ),
        (
            "2/3",
            "the checkpoint records part 2/4, this run is part 2/3",
        ),
    ] {
        let out = polycover(&["count", "soma", "--part", part, "--checkpoint", cp]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{part}: {err}");
        assert!(err.contains(says), "{part}: {err}");
        assert!(!err.contains("fingerprint"), "{part}: {err}");
    }
}

/// `decode --part K/N` reads an answer to `dimacs --part K/N`, whose selector variables
/// come after the others; without `--part` it is a model of another formula, and the
/// message says how to read it. CaDiCaL solves the part when it is installed; otherwise
/// the answer is built from a solution with the part CNF's variable count.
#[test]
fn decode_reads_an_answer_to_a_part_cnf() {
    let dir = tempfile::tempdir().unwrap();
    let cadical = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join("cadical"))
            .find(|p| p.is_file())
    });
    // 1/1 has no selectors, 3/4 one per subproblem.
    for part in ["1/1", "3/4"] {
        let cnf = dir
            .path()
            .join(format!("soma-{}.cnf", part.replace('/', "of")));
        let out = polycover(&[
            "dimacs",
            "soma",
            "--part",
            part,
            "-o",
            cnf.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let text = std::fs::read_to_string(&cnf).unwrap();
        let vars: usize = text
            .lines()
            .find_map(|l| l.strip_prefix("p cnf "))
            .and_then(|l| l.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .unwrap();
        let answer = match &cadical {
            Some(cadical) => {
                let out = Command::new(cadical).arg("-q").arg(&cnf).output().unwrap();
                assert_eq!(out.status.code(), Some(10), "cadical on part {part}");
                String::from_utf8(out.stdout).unwrap()
            }
            None => {
                let p = polycover::Problem::load("soma", None).unwrap();
                let (first, _) = p
                    .first(&polycover::Engine::dlx(), &polycover::RunOptions::default())
                    .unwrap();
                let n = p.matrix().num_options();
                let rest: String = (n + 1..=vars).map(|v| format!(" -{v}")).collect();
                format!(
                    "s SATISFIABLE\nv {}{rest} 0\n",
                    model_literals(n, &first.unwrap())
                )
            }
        };
        let path = dir
            .path()
            .join(format!("answer-{}", part.replace('/', "of")));
        std::fs::write(&path, answer).unwrap();
        let model = path.to_str().unwrap();
        let out = polycover(&["decode", "soma", "--part", part, "--model", model]);
        assert_eq!(out.status.code(), Some(10), "{part}: {}", stderr(&out));
        assert!(stdout(&out).contains("c the model is a valid solution of Soma cube"));
        if part == "3/4" {
            let out = polycover(&["decode", "soma", "--model", model]);
            let err = stderr(&out);
            assert_eq!(out.status.code(), Some(2), "{err}");
            assert!(
                err.contains(&format!("the model has {vars} variables"))
                    && err.contains("a model of another formula")
                    && err.contains("decode --part K/N"),
                "{err}"
            );
        }
    }
}

/// `merge` checks everything, and writes the joined file, before it prints a result: a
/// missing part's file fails it with no `c merged` line and no `s mc`. A relative path
/// that cannot be read is named with the directory it was read in.
#[test]
fn merge_prints_nothing_when_it_fails_and_names_the_directory() {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("work");
    let elsewhere = dir.path().join("elsewhere");
    std::fs::create_dir_all(&work).unwrap();
    std::fs::create_dir_all(&elsewhere).unwrap();
    let mut results = Vec::new();
    for k in 1..=2 {
        let part = format!("{k}/2");
        // Run in `work`, with a relative file name, as a job script would.
        let out = crate::common::bin()
            .current_dir(&work)
            .args(["enumerate", "soma", "--part", &part, "-o"])
            .arg(format!("soma-{k}.txt"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let r = work.join(format!("r{k}.txt"));
        std::fs::write(&r, &out.stdout).unwrap();
        results.push(r);
    }
    let merge_in = |cwd: &Path, target: &Path| {
        crate::common::bin()
            .current_dir(cwd)
            .arg("merge")
            .args(&results)
            .arg("-o")
            .arg(target)
            .output()
            .unwrap()
    };
    // From another directory, the parts' relative files are not there.
    let out = merge_in(&elsewhere, &elsewhere.join("all.txt"));
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!(
            "cannot read soma-1.txt (in {})",
            elsewhere.display()
        )),
        "{err}"
    );
    assert_eq!(stdout(&out), "", "a failed merge printed a result");
    assert!(!elsewhere.join("all.txt").exists());
    // In `work`, with one part's file gone: the same, and nothing printed.
    std::fs::remove_file(work.join("soma-2.txt")).unwrap();
    let out = merge_in(&work, &work.join("all.txt"));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(stdout(&out), "", "a failed merge printed a result");
    // And a merge that works prints its lines as before.
    let out = crate::common::bin()
        .current_dir(&work)
        .args(["enumerate", "soma", "--part", "2/2", "-o", "soma-2.txt"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = merge_in(&work, &work.join("all.txt"));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("c merged 2 parts"), "{text}");
    assert!(text.ends_with("s mc 480\n"), "{text}");
}

/// Counts past 2^64 add up exactly through a checkpoint (in `merge`, the binary's unit
/// test `counts_past_u64_add_up_in_merge`, which writes part lines with their checksums).
#[test]
fn counts_past_u64_add_up_through_a_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    // A checkpoint whose finished subproblems hold 2^64 + 5 solutions, and one subproblem
    // left: the resumed count adds that subproblem's solutions to it.
    let cp = dir.path().join("soma.cp");
    let cp_arg = cp.to_str().unwrap();
    let out = polycover(&[
        "count",
        "soma",
        "--symmetry",
        "none",
        "--checkpoint",
        cp_arg,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(&cp).unwrap();
    let done: Vec<&str> = text.lines().filter(|l| l.starts_with("done ")).collect();
    let last = done.last().unwrap();
    let last_count: u64 = last.split(' ').nth(2).unwrap().parse().unwrap();
    let edited: String = text
        .lines()
        .filter(|l| l != last)
        .map(|l| match l.strip_prefix("done 0 ") {
            Some(_) => "done 0 18446744073709551616\n".to_string(),
            None => format!("{l}\n"),
        })
        .collect();
    let first_count: u64 = done[0].split(' ').nth(2).unwrap().parse().unwrap();
    std::fs::write(&cp, edited).unwrap();
    let out = polycover(&[
        "count",
        "soma",
        "--symmetry",
        "none",
        "--checkpoint",
        cp_arg,
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let want = 18446744073709551616u128 + 11520 - first_count as u128;
    assert!(
        stdout(&out).contains(&format!("s mc {want}\n")),
        "{} (the last subproblem had {last_count})",
        stdout(&out)
    );
}

/// A puzzle so small that its split has one subproblem: with `--solver memo` up to
/// symmetry (Burnside's lemma), part 1 of 5 holds the whole split and parts 2 to 5 hold
/// nothing. Each part is counted, the empty ones as 0 as the native engines count them,
/// and the five merge into the plain count. Before, parts 2 to 5 were refused (exit 2)
/// while part 1 was taken, so the set could never be merged.
#[test]
fn memo_parts_of_a_tiny_puzzle_merge() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = dir.path().join("tiny.toml");
    std::fs::write(
        &puzzle,
        "name = \"Tiny\"\nbox = [4, 1, 1]\n\n[[piece]]\nname = \"D\"\n\
         cells = [[0,0,0], [1,0,0]]\ncount = 2\n",
    )
    .unwrap();
    let puzzle = puzzle.to_str().unwrap();
    let plain = polycover(&["count", puzzle, "--solver", "memo"]);
    assert_eq!(plain.status.code(), Some(0), "{}", stderr(&plain));
    let want = stdout(&plain)
        .lines()
        .find(|l| l.starts_with("s mc "))
        .unwrap()
        .to_string();
    for solver in ["memo", "dlx", "bits"] {
        let results = count_parts(
            dir.path(),
            &format!("{solver}.txt"),
            5,
            &[puzzle, "--solver", solver],
        );
        let text = std::fs::read_to_string(&results).unwrap();
        assert!(text.contains("c split 1/5: 1 of 1 subproblems"), "{text}");
        let out = merge(&[&results], None);
        assert_eq!(out.status.code(), Some(0), "{solver}: {}", stderr(&out));
        assert!(
            stdout(&out).ends_with(&format!("{want}\n")),
            "{solver}: {} (a plain count: {want})",
            stdout(&out)
        );
    }
}

/// An empty file, as `mktemp` makes, is taken as a new checkpoint: it holds nothing to
/// lose. Before, it was refused as "not a polycover checkpoint". A file that holds
/// something else is still refused, and left as it was.
#[test]
fn an_empty_file_is_a_new_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let cp = dir.path().join("tmp.XXXXXX");
    std::fs::write(&cp, "").unwrap();
    let cp_arg = cp.to_str().unwrap();
    for _ in 0..2 {
        // Started in the empty file, then continued from what it recorded.
        let out = polycover(&["count", "soma", "--checkpoint", cp_arg]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert!(stdout(&out).ends_with("s mc 480\n"), "{}", stdout(&out));
        let text = std::fs::read_to_string(&cp).unwrap();
        assert!(text.starts_with("c polycover checkpoint"), "{text}");
    }
    let out_file = dir.path().join("all.txt");
    std::fs::write(&cp, "").unwrap();
    let out = polycover(&[
        "enumerate",
        "soma",
        "-o",
        out_file.to_str().unwrap(),
        "--checkpoint",
        cp_arg,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let written = std::fs::read_to_string(&out_file).unwrap();
    assert_eq!(written.matches("solution ").count(), 480);

    std::fs::write(&cp, "my notes\n").unwrap();
    let out = polycover(&["count", "soma", "--checkpoint", cp_arg]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("not a polycover checkpoint"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read_to_string(&cp).unwrap(), "my notes\n");
}

/// Issue 46, 13: a checkpoint that cannot be written is named as the path the user gave,
/// never as the temporary file beside it, and (issue 62) refused before any work with
/// exit 2, as `-o` is: `cannot write DIR/cp: cannot create a file in DIR (permission
/// denied)`. Before: `cannot write DIR/cp: Permission denied (os error 13) at path
/// "DIR/.checkpoint.XXXXXX.partial"`. The directory is made read-only (as root, whom
/// permissions do not stop, immutable with `chattr +i`; skipped where neither works).
#[test]
fn a_checkpoint_that_cannot_be_written_is_named() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let ro = dir.path().join("ro");
    std::fs::create_dir(&ro).unwrap();
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).unwrap();
    /// Gives the directory back to the tempdir's removal, whatever the test does.
    struct Writable<'a>(&'a Path, bool);
    impl Drop for Writable<'_> {
        fn drop(&mut self) {
            if self.1 {
                let _ = Command::new("chattr").arg("-i").arg(self.0).status();
            }
            let _ = std::fs::set_permissions(self.0, std::fs::Permissions::from_mode(0o755));
        }
    }
    let mut guard = Writable(&ro, false);
    if std::fs::write(ro.join("probe"), "").is_ok() {
        // Root: the mode does not stop it; an immutable directory does.
        let _ = std::fs::remove_file(ro.join("probe"));
        let immutable = Command::new("chattr")
            .arg("+i")
            .arg(&ro)
            .status()
            .is_ok_and(|s| s.success());
        guard.1 = immutable;
        if !immutable || std::fs::write(ro.join("probe"), "").is_ok() {
            eprintln!(
                "skipped: {} can be written (root, and chattr +i did not work here)",
                ro.display()
            );
            return;
        }
    }
    let cp = ro.join("cp");
    let out = polycover(&["count", "soma", "--checkpoint", cp.to_str().unwrap()]);
    let err = stderr(&out);
    // Refused before any work, as `-o` is (a directory that refuses a file: exit 1).
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.starts_with(&format!(
            "polycover: error: cannot write {}: ",
            cp.display()
        )),
        "{err}"
    );
    assert!(
        !err.contains(".partial") && !err.contains("at path"),
        "{err}"
    );
    drop(guard);
}

/// The frontier's layers are not subproblems a checkpoint can record: `--checkpoint` with
/// `--solver frontier` is refused before any file is made, and without `--solver` a
/// checkpointed count of a sweep takes the memo, stops at its deadline with subproblems
/// recorded, and resumes to the right count.
#[test]
fn a_checkpointed_sweep_resumes_and_the_frontier_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let puzzle = tmp.path().join("d444.toml");
    std::fs::write(
        &puzzle,
        "name = \"d444\"\nbox = [4, 4, 4]\n[[piece]]\nname = \"D\"\ncells = [[0,0,0], [1,0,0]]\ncount = 32\n",
    )
    .unwrap();
    let puzzle = puzzle.to_str().unwrap();
    let cp = tmp.path().join("cp");
    let cp = cp.to_str().unwrap();
    let refused = polycover(&["count", puzzle, "--checkpoint", cp, "--solver", "frontier"]);
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    assert!(stderr(&refused).contains("--checkpoint does not go with --solver frontier"));
    assert!(!Path::new(cp).exists());
    let args = ["count", puzzle, "--symmetry", "none", "--checkpoint", cp];
    let mut first = args.to_vec();
    first.extend(["--timeout", "0.05", "--threads", "1"]);
    let stopped = polycover(&first);
    assert_eq!(stopped.status.code(), Some(1), "{}", stdout(&stopped));
    assert!(
        stdout(&stopped).contains("c solver memo"),
        "{}",
        stdout(&stopped)
    );
    let resumed = polycover(&args);
    let text = stdout(&resumed);
    assert_eq!(resumed.status.code(), Some(0), "{text}");
    assert!(text.contains("s mc 5051532105"), "{text}");
    // What the stopped run recorded is what the resumed one starts from.
    let held = stdout(&stopped)
        .lines()
        .find_map(|l| {
            l.split(" holds ")
                .nth(1)
                .map(|r| r.split(' ').next().unwrap().to_string())
        })
        .expect("the checkpoint's line");
    assert!(
        text.contains(&format!("{held} of 1532 subproblems done before")),
        "{held}: {text}"
    );
}

/// `merge` joins parts of one format: a text part and a JSON-lines part are refused,
/// naming both files, and nothing is written.
#[test]
fn merge_refuses_parts_of_two_formats() {
    let dir = tempfile::tempdir().unwrap();
    let mut results = String::new();
    for (k, format) in [(1, "text"), (2, "jsonl")] {
        let file = dir.path().join(format!("soma-{k}.{format}"));
        let part = format!("{k}/2");
        let out = polycover(&[
            "enumerate",
            "soma",
            "--part",
            &part,
            "--format",
            format,
            "-o",
            file.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        results += &stdout(&out);
    }
    let results_path = dir.path().join("results.txt");
    std::fs::write(&results_path, results).unwrap();
    let joined = dir.path().join("all.txt");
    let out = polycover(&[
        "merge",
        results_path.to_str().unwrap(),
        "-o",
        joined.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("is text and part 2's file")
            && stderr(&out).contains("merge joins parts of one format"),
        "{}",
        stderr(&out)
    );
    assert!(!joined.exists());
}

/// A stopped count with a checkpoint says how far it got from what it recorded (issue 62,
/// the new user's sweep): the memo reports no partial count of its own (it counts by
/// Burnside's lemma at the end), so its `so far` used to be 0 while the checkpoint held
/// hundreds of finished subproblems. Now it is the sum of the checkpoint's `done` lines.
#[test]
fn a_stopped_memo_count_says_what_its_checkpoint_holds() {
    let dir = tempfile::tempdir().unwrap();
    let cp = dir.path().join("cp");
    let out = crate::common::polycover(&[
        "count",
        "bedlam",
        "--solver",
        "memo",
        "--checkpoint",
        cp.to_str().unwrap(),
        "--timeout",
        "3",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    let recorded: u64 = std::fs::read_to_string(&cp)
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("done "))
        .map(|l| l.split(' ').nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    let so_far = text
        .lines()
        .find_map(|l| l.strip_prefix("c stopped by the timeout: "))
        .and_then(|l| l.split(' ').next())
        .expect("a stopped line")
        .parse::<u64>()
        .unwrap();
    assert_eq!(so_far, recorded, "{text}");
}
