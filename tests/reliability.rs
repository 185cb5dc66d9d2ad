//! The defects a new user found (issue 11), one test each, and `--timeout`.

use crate::common::*;

/// Durations too long for the clock are no panic: `1e19` seconds means "no deadline" and
/// `1e300` is refused (see `exit_codes::bad_options_exit_2`).
#[test]
fn huge_timeouts_do_not_panic() {
    let out = polycover(&["bench", "soma", "--timeout", "1e19", "--solvers", "dlx"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = polycover(&["count", "soma", "--timeout", "1e19"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().last(), Some("s mc 480"));
}

#[test]
fn thread_counts_are_bounded() {
    for bad in ["1025", "100000", "two"] {
        let out = polycover(&["count", "soma", "--threads", bad]);
        assert_eq!(out.status.code(), Some(2), "--threads {bad}");
        assert!(stderr(&out).contains("to 1024"), "{}", stderr(&out));
    }
    // More threads than cores run one worker per core, and the `c threads` line says so;
    // 0 asks for one per core, as the default does.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    for asked in ["1024", "0"] {
        let out = polycover(&["count", "soma", "--threads", asked, "--solver", "bits"]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let line = format!(
            "c threads {cores}{}",
            if asked == "0" {
                ","
            } else {
                " (of 1024 asked),"
            }
        );
        assert!(stdout(&out).contains(&line), "{line}: {}", stdout(&out));
    }
}

/// A run stopped by `--timeout` says what it found on `c` lines, never `s mc`, and
/// exits 1; each engine and command honours it.
#[test]
fn timeout_stops_count_solve_and_enumerate() {
    for solver in ["bits", "dlx", "sat"] {
        let out = polycover(&[
            "count",
            "bedlam",
            "--timeout",
            "0.3",
            "--threads",
            "1",
            "--solver",
            solver,
        ]);
        assert_eq!(out.status.code(), Some(1), "{solver}: {}", stderr(&out));
        let text = stdout(&out);
        assert!(text.contains("c stopped by the timeout: "), "{text}");
        assert_eq!(text.lines().last(), Some("s UNKNOWN"), "{text}");
        assert!(!text.contains("s mc"), "{text}");
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("e.txt");
    let out = polycover(&[
        "enumerate",
        "bedlam",
        "--symmetry",
        "none",
        "--timeout",
        "0.3",
        "-o",
        file.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("c stopped by the timeout: "),
        "{}",
        stderr(&out)
    );
    // A solve that finds its solution in time is unaffected.
    let out = polycover(&["solve", "soma", "--timeout", "10"]);
    assert_eq!(out.status.code(), Some(10), "{}", stderr(&out));
}

/// Sends SIGINT to a running child, after `after`.
fn interrupt_after(child: &std::process::Child, after: std::time::Duration) {
    std::thread::sleep(after);
    crate::common::signal(child, "INT");
}

/// Ctrl-C at a random moment of `enumerate -o FILE`, 20 times: FILE is absent or holds
/// only whole records (here: absent, since the run never finishes in time), nothing
/// else is left in the directory, and the exit code is 130.
#[test]
fn ctrl_c_never_leaves_a_broken_output() {
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    for round in 0..20 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let after = std::time::Duration::from_millis(30 + state % 1200);
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("e.jsonl");
        let child = spawn(&[
            "enumerate",
            "bedlam",
            "--symmetry",
            "none",
            "--format",
            "jsonl",
            "-o",
            file.to_str().unwrap(),
        ]);
        interrupt_after(&child, after);
        let out = child.wait_with_output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(130),
            "round {round} after {after:?}: {}",
            stderr(&out)
        );
        if let Ok(text) = std::fs::read_to_string(&file) {
            for line in text.lines() {
                serde_json::from_str::<serde_json::Value>(line)
                    .unwrap_or_else(|e| panic!("round {round}: a broken record: {e}"));
            }
        }
        let left: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .filter(|n| *n != "e.jsonl")
            .collect();
        assert!(left.is_empty(), "round {round}: left behind {left:?}");
    }
}

/// The same for DIMACS (a large gzip) and for a streamed enumeration on standard output,
/// whose records stay whole; and a native count reports its partial count.
#[test]
fn ctrl_c_stops_dimacs_enumerate_and_native_counts_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("big.cnf.gz");
    let child = spawn(&[
        "dimacs",
        "bedlam",
        "--amo",
        "pairwise",
        "-o",
        file.to_str().unwrap(),
    ]);
    interrupt_after(&child, std::time::Duration::from_millis(400));
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);

    let child = spawn(&[
        "enumerate",
        "bedlam",
        "--symmetry",
        "none",
        "--format",
        "jsonl",
    ]);
    interrupt_after(&child, std::time::Duration::from_millis(700));
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.lines().count() > 0);
    for line in text.lines() {
        serde_json::from_str::<serde_json::Value>(line).expect("a whole record");
    }

    for solver in ["bits", "dlx"] {
        let child = spawn(&["count", "bedlam", "--threads", "2", "--solver", solver]);
        interrupt_after(&child, std::time::Duration::from_millis(700));
        let out = child.wait_with_output().unwrap();
        let text = stdout(&out);
        assert_eq!(out.status.code(), Some(130), "{text}\n{}", stderr(&out));
        assert!(text.contains("c stopped by Ctrl-C: "), "{text}");
        assert_eq!(text.lines().last(), Some("s UNKNOWN"), "{text}");
    }
}

/// An output that is an input (by identity: a link or `./` counts) is refused, and the
/// input stays as it was.
#[test]
fn an_output_is_never_an_input() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = dir.path().join("p.toml");
    std::fs::write(&puzzle, DOMINOES).unwrap();
    let link = dir.path().join("link.toml");
    std::os::unix::fs::symlink(&puzzle, &link).unwrap();
    let p = puzzle.to_str().unwrap();
    let dotted = format!("{}/./p.toml", dir.path().display());
    for args in [
        vec!["enumerate", p, "-o", &dotted],
        vec!["dimacs", p, "-o", p],
        vec!["dimacs", link.to_str().unwrap(), "-o", p],
        vec!["bench", p, "--csv", p, "--solvers", "dlx"],
        vec!["bench", p, "--svg", &dotted, "--solvers", "dlx"],
    ] {
        let out = polycover(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("refusing"), "{}", stderr(&out));
        assert_eq!(std::fs::read_to_string(&puzzle).unwrap(), DOMINOES);
    }
}

/// `bench` reads every puzzle and checks every output before the first run.
#[test]
fn bench_checks_its_inputs_first() {
    let out = polycover(&["bench", "soma", "nosuch", "--solvers", "dlx"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        !stdout(&out).contains("Soma cube"),
        "soma ran: {}",
        stdout(&out)
    );
    let out = polycover(&["bench", "soma", "--csv", "/nonexistent/a.csv"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        !stdout(&out).contains("Soma cube"),
        "soma ran: {}",
        stdout(&out)
    );
    assert!(stderr(&out).contains("/nonexistent"), "{}", stderr(&out));
}

/// A directory never hides a catalog name; a file does, and the header says which.
#[test]
fn local_names_and_the_catalog() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("soma")).unwrap();
    let run = |args: &[&str]| {
        crate::common::bin()
            .args(args)
            .current_dir(dir.path())
            .output()
            .unwrap()
    };
    let out = run(&["count", "soma"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("c puzzle Soma cube (from catalog:soma.toml)"));
    std::fs::write(dir.path().join("bedlam"), DOMINOES).unwrap();
    let out = run(&["count", "bedlam", "--symmetry", "none"]);
    assert!(
        stdout(&out).contains("c puzzle dominoes (from bedlam)"),
        "{}",
        stdout(&out)
    );
    assert_eq!(stdout(&out).lines().last(), Some("s mc 32"));
}

/// `-` reads the puzzle from standard input.
#[test]
fn a_puzzle_from_standard_input() {
    use std::io::Write;
    let mut child = crate::common::bin()
        .args(["count", "-", "--symmetry", "none"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(DOMINOES.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).contains("(from <stdin>)"));
    assert_eq!(stdout(&out).lines().last(), Some("s mc 32"));
}

/// Options that the chosen engine would ignore are errors, and so are `[expect]` counts
/// in modes the puzzle's kind does not have.
#[test]
fn wrong_options_and_keys_are_refused() {
    for (args, says) in [
        (
            &["count", "soma", "--solver", "bits", "--amo", "ladder"][..],
            "--amo applies to --solver sat only",
        ),
        (
            &["count", "soma", "--strategy", "plain"],
            "--strategy applies to --solver sat only",
        ),
        (
            &["solve", "soma", "--solver", "dlx", "--backend", "cadical"],
            "--backend applies to --solver sat only",
        ),
        (
            &[
                "count",
                "soma",
                "--solver",
                "sat",
                "--backend",
                "varisat",
                "--decide",
                "solver",
            ],
            "--decide applies to the cadical backend only",
        ),
        (
            &[
                "count",
                "soma",
                "--solver",
                "sat",
                "--backend",
                "varisat",
                "--sat-option",
                "chrono=1",
            ],
            "--sat-option applies to the cadical backend only",
        ),
    ] {
        let out = polycover(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
        assert!(stdout(&out).is_empty(), "{args:?} ran: {}", stdout(&out));
    }
    let dir = tempfile::tempdir().unwrap();
    let cubes = dir.path().join("cubes.toml");
    std::fs::write(
        &cubes,
        "kind = \"colored-cubes\"\ncubes = [\"AEDDEA\", \"BBCBDC\", \"ADBDCA\", \"BDABAE\", \"EEEBCD\"]\n\n[expect]\nstack = 1\nrotations = 3\n",
    )
    .unwrap();
    let out = polycover(&["count", cubes.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("cubes.toml:6: [expect] rotations"),
        "{}",
        stderr(&out)
    );
    let polycube = dir.path().join("p.toml");
    std::fs::write(&polycube, format!("{DOMINOES}\n[expect]\nstack = 3\n")).unwrap();
    let out = polycover(&["count", polycube.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("[expect] stack"), "{}", stderr(&out));
}

/// Two cells far apart: the work and the output follow the cells, not the bounding box
/// (a billion cells). Before, `solve` took 78 s and printed about 1 GB.
#[test]
fn a_sparse_target_is_cheap_and_prints_as_a_cell_list() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("far.toml");
    std::fs::write(
        &path,
        "name = \"far\"\ntarget = [[0,0,0],[1000,1000,1000]]\n\
         [[piece]]\nname = \"m\"\ncells = [[0,0,0]]\ncount = 2\n",
    )
    .unwrap();
    let p = path.to_str().unwrap();
    let start = std::time::Instant::now();
    let out = polycover(&["solve", p]);
    assert_eq!(out.status.code(), Some(10), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.len() < 1000, "{} bytes", text.len());
    assert!(text.contains("0,0,0  m#1\n1000,1000,1000  m#2\n"), "{text}");
    assert_eq!(
        stdout(&polycover(&["count", p])).lines().last(),
        Some("s mc 1")
    );
    let out = polycover(&["enumerate", p, "--format", "jsonl"]);
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert!(v["layers"].is_null());
    assert!(start.elapsed() < std::time::Duration::from_secs(20));
}

/// Copies of one piece are told apart: in text each has its own symbol and a legend
/// says which; in JSON each copy is its own placement with its number.
#[test]
fn copies_of_a_piece_are_told_apart() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("d4.toml");
    std::fs::write(
        &path,
        "name = \"d4\"\nbox = [2,2,2]\n[[piece]]\nname = \"D\"\ncells = [[0,0,0],[1,0,0]]\ncount = 4\n",
    )
    .unwrap();
    let p = path.to_str().unwrap();
    let text = stdout(&polycover(&["enumerate", p, "--symmetry", "none"]));
    let mut solutions = 0;
    for record in text.split("solution ").filter(|r| !r.is_empty()) {
        solutions += 1;
        let grid: String = record.lines().skip(2).take(2).collect::<Vec<_>>().join("");
        let mut symbols: Vec<char> = grid.chars().filter(|c| !c.is_whitespace()).collect();
        symbols.sort_unstable();
        symbols.dedup();
        assert_eq!(symbols.len(), 4, "four copies, four symbols: {record}");
        // The piece's own letter, its lowercase form, then lowercase letters: no capital
        // that could pass for another piece.
        assert!(record.contains("copies  D: Dda"), "{record}");
        assert!(
            symbols.iter().filter(|c| c.is_uppercase()).eq(['D'].iter()),
            "{record}"
        );
    }
    assert!(solutions > 1);
    let out = polycover(&["enumerate", p, "--limit", "1", "--format", "jsonl"]);
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    let copies: Vec<u64> = v["placements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["copy"].as_u64().unwrap())
        .collect();
    assert_eq!(copies, [1, 2, 3, 4]);
}

/// 1,800 dominoes in a 60x60 box: the default engine stays small (it used 3.2 GB), as
/// the process itself reports its peak resident memory (Linux).
#[test]
fn the_default_engine_stays_small_on_a_long_search() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("d60.toml");
    std::fs::write(
        &path,
        "name = \"dominoes 60x60\"\nbox = [60, 60, 1]\n[[piece]]\nname = \"d\"\n\
         cells = [[0,0,0], [1,0,0]]\ncount = 1800\n",
    )
    .unwrap();
    let out = polycover(&["solve", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(10), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("c solver bits: the dlx instead"), "{text}");
    if cfg!(target_os = "linux") {
        let peak: f64 = text
            .split("peak memory ")
            .nth(1)
            .and_then(|r| r.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no peak memory line: {text}"));
        assert!(peak < 100.0, "peak {peak} MiB");
    }
}

/// Under a memory limit: the 60x60 dominoes still solve (they aborted under 2 GB), and a
/// job too large for the limit ends with exit 1 and a message, not an abort (exit 134),
/// and leaves no output behind.
#[test]
#[cfg(target_os = "linux")]
fn running_out_of_memory_is_an_error_not_an_abort() {
    let dir = tempfile::tempdir().unwrap();
    let limited = |kib: u32, args: &[&str]| {
        std::process::Command::new("sh")
            .arg("-c")
            // The default abort path can hang in the allocator: a time limit makes
            // that a failure rather than a stuck test.
            .arg(format!("ulimit -v {kib} && exec timeout 120 \"$0\" \"$@\""))
            .arg(env!("CARGO_BIN_EXE_polycover"))
            .args(args)
            .output()
            .unwrap()
    };
    let d60 = dir.path().join("d60.toml");
    std::fs::write(
        &d60,
        "name = \"dominoes 60x60\"\nbox = [60, 60, 1]\n[[piece]]\nname = \"d\"\n\
         cells = [[0,0,0], [1,0,0]]\ncount = 1800\n",
    )
    .unwrap();
    let out = limited(2_000_000, &["solve", d60.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(10), "{}", stderr(&out));

    // Bedlam's pairwise CNF needs about 300 MB.
    let cnf = dir.path().join("big.cnf");
    let out = limited(
        150_000,
        &[
            "dimacs",
            "bedlam",
            "--amo",
            "pairwise",
            "-o",
            cnf.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("out of memory"), "{}", stderr(&out));
    assert!(!cnf.exists());
}

/// File names are paths, not text: a name that is not UTF-8 works for reading a puzzle
/// and for every output.
#[test]
#[cfg(unix)]
fn file_names_need_not_be_utf8() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let puzzle = dir.path().join(OsStr::from_bytes(b"p\xff.toml"));
    std::fs::write(&puzzle, DOMINOES).unwrap();
    let cnf = dir.path().join(OsStr::from_bytes(b"out\xfe.cnf"));
    let run = |args: &[&OsStr]| crate::common::bin().args(args).output().unwrap();
    let out = run(&[OsStr::new("count"), puzzle.as_os_str()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = run(&[
        OsStr::new("dimacs"),
        puzzle.as_os_str(),
        OsStr::new("-o"),
        cnf.as_os_str(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(std::fs::read_to_string(&cnf).unwrap().contains("p cnf "));
    let out = run(&[
        OsStr::new("enumerate"),
        puzzle.as_os_str(),
        OsStr::new("-o"),
        cnf.as_os_str(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// `solve` says what it is doing before the search ends (the header is flushed first).
#[test]
fn solve_prints_its_header_before_the_answer() {
    use std::io::BufRead;
    let mut child = crate::common::bin()
        .args([
            "solve",
            "bedlam",
            "--solver",
            "sat",
            "--backend",
            "varisat",
            "--amo",
            "pairwise",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let mut header = Vec::new();
    for line in lines.by_ref() {
        let line = line.unwrap();
        let done = line.starts_with("c cnf ");
        header.push(line);
        if done {
            break;
        }
    }
    let still_running = child.try_wait().unwrap().is_none();
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        header.iter().any(|l| l.starts_with("c solver sat")),
        "{header:?}"
    );
    assert!(still_running, "the search had already ended: {header:?}");
}

/// The progress a count reports names its parts: subproblems for the native engines,
/// cubes for SAT.
#[test]
fn progress_names_its_parts() {
    use polycover::{Engine, Problem, RunOptions};
    use std::sync::Mutex;
    let p = Problem::load("soma", None).unwrap();
    for (engine, unit) in [
        (Engine::bits(), "subproblems"),
        (Engine::dlx(), "subproblems"),
        (sat_engine(&[]), "cubes"),
    ] {
        let seen = Mutex::new(Vec::new());
        let progress = |q: &polycover::engine::Progress| seen.lock().unwrap().push(q.unit);
        let r = p
            .count(
                &engine,
                &RunOptions {
                    progress: Some(&progress),
                    ..RunOptions::default()
                },
            )
            .unwrap();
        assert_eq!(r.solutions, 480);
        let seen = seen.into_inner().unwrap();
        assert!(
            !seen.is_empty() && seen.iter().all(|u| *u == unit),
            "{engine:?}: {seen:?}"
        );
    }
}

/// `decode` reads every model of a file (CryptoMiniSat's `--maxsol` output), checks and
/// prints each, and says how many; a model of another puzzle is called that first.
#[test]
fn decode_reads_many_models_and_names_a_foreign_one() {
    use polycover::{Engine, Problem, RunOptions, SymmetryMode};
    use std::ops::ControlFlow;
    let dir = tempfile::tempdir().unwrap();
    let soma = Problem::load("soma", Some(SymmetryMode::None)).unwrap();
    let n = soma.matrix().num_options();
    let mut text = String::new();
    soma.for_each_solution(&Engine::dlx(), &RunOptions::default(), &mut |s| {
        text += &format!("s SATISFIABLE\nv {} 0\n", model_literals(n, s.options()));
        if text.matches("s SAT").count() == 3 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })
    .unwrap();
    text += "s UNSATISFIABLE\n";
    let path = dir.path().join("maxsol.txt");
    std::fs::write(&path, &text).unwrap();
    let out = polycover(&["decode", "soma", "--model", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(10), "{}", stderr(&out));
    let shown = stdout(&out);
    assert!(
        shown.contains("c 3 models, each a valid solution of Soma cube"),
        "{shown}"
    );
    assert_eq!(shown.matches("solution ").count(), 3 + 1, "{shown}");

    let bedlam = Problem::load("bedlam", None).unwrap();
    let (first, _) = bedlam
        .first(&Engine::bits(), &RunOptions::default())
        .unwrap();
    let lits = model_literals(bedlam.matrix().num_options(), &first.unwrap());
    let path = dir.path().join("bedlam.txt");
    std::fs::write(&path, format!("s SATISFIABLE\nv {lits} 0\n")).unwrap();
    let out = polycover(&["decode", "soma", "--model", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("the model has 4188 variables")
            && stderr(&out).contains("a model of another formula"),
        "{}",
        stderr(&out)
    );
}
