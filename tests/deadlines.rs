//! `--timeout` and the signals hold before the search too (issue 34, items 1, 2 and 17):
//! in the estimates of the search's size (the progress bar's, the default engine's), while
//! the option table is made, and in `sample`.
//!
//! The puzzle is a 16x16x16 box of 2048 dominoes: 2048 levels deep, so that an estimate
//! that replays its path, or ignores the deadline, runs for many minutes. Every bound here
//! is a guard against a hang, far above the time a run takes: it proves that the run ends,
//! not how fast.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::common::{collect, signal, spawn, wait_at_most, MUTILATED};

const DOMINOES: &str = r#"name = "Dominoes 16x16x16"
box = [16, 16, 16]

[[piece]]
name = "D"
cells = [[0,0,0], [1,0,0]]
count = 2048
"#;

/// Far above the 5 s a run with `--timeout 5` takes, even on a loaded machine.
const ENDS_WITHIN: Duration = Duration::from_secs(30);

/// The memo refuses the 16x16x16 box before any work (its sweep's frontier has 199
/// cells: no table holds one step), so the memo and the default engine, which picks the
/// memo for copies, run on a 22x22 square: its frontier fits 256 MiB, and its count
/// takes minutes.
const SQUARE: &str = r#"name = "Dominoes 22x22"
box = [22, 22, 1]

[[piece]]
name = "D"
cells = [[0,0,0], [1,0,0]]
count = 242
"#;

fn dominoes(dir: &Path) -> PathBuf {
    let path = dir.join("dominoes-16x16x16.toml");
    std::fs::write(&path, DOMINOES).unwrap();
    std::fs::write(dir.join("dominoes-22x22.toml"), SQUARE).unwrap();
    path
}

/// `count` with each engine (`None`: the default, which estimates to choose) or a part.
fn count_runs(puzzle: &str) -> Vec<(String, Vec<String>)> {
    let square = Path::new(puzzle).with_file_name("dominoes-22x22.toml");
    let square = square.to_str().unwrap();
    let mut runs: Vec<(String, Vec<String>)> = Vec::new();
    for solver in [Some("dlx"), Some("bits"), Some("memo"), Some("sat"), None] {
        let on = if matches!(solver, Some("memo") | None) {
            square
        } else {
            puzzle
        };
        let mut args = vec!["count".to_string(), on.to_string()];
        if let Some(s) = solver {
            args.extend(["--solver".into(), s.into()]);
        }
        runs.push((solver.unwrap_or("default").to_string(), args));
    }
    runs.push((
        "--part 1/2".into(),
        vec!["count".into(), puzzle.into(), "--part".into(), "1/2".into()],
    ));
    for (_, args) in &mut runs {
        // A small table: the memo's would grow to gigabytes in 5 s.
        args.extend(["--memory".into(), "256M".into()]);
    }
    runs
}

/// Every engine's `count --timeout 5` ends (old code: 15 minutes for the DLX, 12 for a
/// part, silent minutes for the default engine's estimate), with the timeout's exit code
/// 1, `s UNKNOWN` and no `s mc`. The runs go side by side to keep the test short.
#[test]
fn a_count_with_a_timeout_ends_with_every_engine() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = dominoes(dir.path());
    let mut children: Vec<_> = count_runs(puzzle.to_str().unwrap())
        .into_iter()
        .map(|(name, mut args)| {
            args.extend(["--timeout".into(), "5".into()]);
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let mut child = spawn(&args);
            let out = collect(&mut child);
            (name, child, out)
        })
        .collect();
    for (name, child, out) in &mut children {
        let status = wait_at_most(child, ENDS_WITHIN);
        let status = status.unwrap_or_else(|| panic!("{name}: still running after 30 s"));
        let out = std::mem::replace(out, std::thread::spawn(String::new))
            .join()
            .unwrap();
        assert_eq!(status.code(), Some(1), "{name}: {out}");
        assert!(out.contains("s UNKNOWN"), "{name}: {out}");
        assert!(!out.contains("s mc"), "{name}: {out}");
        assert!(out.contains("stopped by the timeout"), "{name}: {out}");
    }
}

/// A first SIGTERM, sent while the runs are estimating or searching, ends each with 143
/// (old code: the DLX's and the bitset engine's estimates swallowed it).
#[test]
fn a_first_sigterm_ends_a_count_with_every_engine() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = dominoes(dir.path());
    let mut children: Vec<_> = count_runs(puzzle.to_str().unwrap())
        .into_iter()
        .map(|(name, args)| {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            (name, spawn(&args))
        })
        .collect();
    // Late enough that every run listens (old code: inside its estimate), even on a
    // loaded machine.
    std::thread::sleep(Duration::from_secs(3));
    for (_, child) in &children {
        signal(child, "TERM");
    }
    for (name, child) in &mut children {
        let status = wait_at_most(child, ENDS_WITHIN);
        let status = status.unwrap_or_else(|| panic!("{name}: still running after SIGTERM"));
        assert_eq!(status.code(), Some(143), "{name}");
    }
}

/// `sample --timeout` stops the count it draws from (old code: no such option, and
/// `sample dominoes-16x16 --memory 16M` ran silently for minutes): exit 1, a `c` line
/// that says why, and no output file.
#[test]
fn sample_stops_at_its_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("drawn.txt");
    // A 20x20 box: the memo's sweep counts 16x16 in under a second, 20x20 in about 20 s.
    let puzzle = dir.path().join("dominoes-20x20.toml");
    std::fs::write(
        &puzzle,
        "name = \"d20\"\nbox = [20, 20, 1]\n[[piece]]\nname = \"D\"\ncells = [[0,0,0],[1,0,0]]\ncount = 200\n",
    )
    .unwrap();
    let mut child = spawn(&[
        "sample",
        puzzle.to_str().unwrap(),
        "-n",
        "2",
        "--memory",
        "16M",
        "--timeout",
        "2",
        "-o",
        out.to_str().unwrap(),
    ]);
    let status = wait_at_most(&mut child, ENDS_WITHIN).expect("sample ends");
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert_eq!(status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("stopped by the timeout"), "{stderr}");
    assert!(!out.exists(), "a stopped count writes nothing");
}

/// Distinct pieces with too many placements are refused with the piece's line, before
/// the memory runs out (old code: 4096 distinct single cubes in the box ran out of
/// memory); and `--timeout` holds while the option table is made.
#[test]
fn the_option_table_is_capped_and_made_within_the_timeout() {
    let dir = tempfile::tempdir().unwrap();
    // `n` distinct single cubes in a box of `n` cells (16 x 16 x `n / 256`): n * n
    // placements.
    let cubes = |n: usize| {
        let mut text = format!("name = \"distinct cubes\"\nbox = [16, 16, {}]\n", n / 256);
        for k in 0..n {
            let symbol = char::from_u32(0x4E00 + k as u32).unwrap();
            text += &format!(
                "\n[[piece]]\nname = \"P{k}\"\nsymbol = \"{symbol}\"\ncells = [[0,0,0]]\n"
            );
        }
        text
    };
    // 2048 pieces of 2048 placements each: past the cap of 4 million.
    let over = dir.path().join("over.toml");
    std::fs::write(&over, cubes(2048)).unwrap();
    let mut child = spawn(&["count", over.to_str().unwrap(), "--timeout", "60"]);
    let status = wait_at_most(&mut child, ENDS_WITHIN).expect("refused");
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert_eq!(status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("placements"), "{stderr}");
    // 1792 pieces (3.2 million placements) fit under the cap; the deadline passes while
    // they are read and placed.
    let under = dir.path().join("under.toml");
    std::fs::write(&under, cubes(1792)).unwrap();
    let mut child = spawn(&["count", under.to_str().unwrap(), "--timeout", "0.001"]);
    let out = crate::common::collect(&mut child);
    let status = wait_at_most(&mut child, ENDS_WITHIN).expect("stopped");
    let out = out.join().unwrap();
    assert_eq!(status.code(), Some(1), "{out}");
    // A count stopped before its search still ends on `s UNKNOWN`.
    assert!(
        out.contains("c stopped by the timeout while placing the pieces"),
        "{out}"
    );
    assert!(out.ends_with("s UNKNOWN\n"), "{out}");
}

/// The deadline holds between solutions too: a search that finds none (old code: the
/// deadline was checked only at a solution, so these ran for minutes) ends at its
/// timeout with every native engine, for `count`, `solve` and `enumerate`.
#[test]
fn a_timeout_ends_a_search_that_finds_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = dir.path().join("mutilated.toml");
    std::fs::write(&puzzle, MUTILATED).unwrap();
    let puzzle = puzzle.to_str().unwrap();
    let mut children: Vec<_> = ["count", "solve", "enumerate"]
        .into_iter()
        .flat_map(|command| ["dlx", "bits"].map(|solver| (command, solver)))
        .map(|(command, solver)| {
            let args = [command, puzzle, "--solver", solver, "--timeout", "1"];
            let mut child = spawn(&args);
            let out = collect(&mut child);
            (format!("{command} --solver {solver}"), child, out)
        })
        .collect();
    for (name, child, out) in &mut children {
        let status = wait_at_most(child, ENDS_WITHIN);
        let status = status.unwrap_or_else(|| {
            let _ = child.kill();
            panic!("{name}: still running after 30 s")
        });
        let out = std::mem::replace(out, std::thread::spawn(String::new))
            .join()
            .unwrap();
        assert_eq!(status.code(), Some(1), "{name}: {out}");
        assert!(!out.contains("s mc"), "{name}: {out}");
        assert!(!out.contains("UNSATISFIABLE"), "{name}: {out}");
    }
}

/// The default engine's estimate says on a `c` line, before the header, that it is
/// running when it takes long (2048 levels a probe: well past the 0.2 s that a quick
/// estimate passes unnoticed in), and says nothing for a quick one.
#[test]
fn a_long_estimate_for_the_default_engine_says_so_first() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = dominoes(dir.path());
    let out = crate::common::polycover(&["count", puzzle.to_str().unwrap(), "--timeout", "3"]);
    let text = String::from_utf8_lossy(&out.stdout);
    let first = text.lines().next().unwrap_or("");
    assert!(
        first.starts_with("c choosing the engine: estimating the search's size (at most ")
            && first.ends_with(" s; --solver skips it)"),
        "{text}"
    );
    let quick = crate::common::polycover(&["count", "soma"]);
    let quick = String::from_utf8_lossy(&quick.stdout);
    assert!(!quick.contains("choosing the engine"), "{quick}");
}

/// Standard input is waited for within `--timeout`, as a named FIFO is: `sleep 10 |
/// polycover count - --timeout 2` ends at 2 s, on `s UNKNOWN` and exit 1.
#[test]
fn a_timeout_ends_the_wait_for_standard_input() {
    let mut child = crate::common::bin()
        .args(["count", "-", "--timeout", "1"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // The writer stays open and silent, as `sleep 10 |` keeps it: without the deadline
    // the wait would not end.
    let writer = child.stdin.take();
    let out = collect(&mut child);
    let status = wait_at_most(&mut child, Duration::from_secs(20)).expect("it ends");
    drop(writer);
    let out = out.join().unwrap();
    assert_eq!(status.code(), Some(1), "{out}");
    assert!(
        out.contains("c stopped by the timeout while waiting for standard input")
            && out.trim_end().ends_with("s UNKNOWN"),
        "{out}"
    );
}

/// `check`, `dimacs`, `export` and `generate --unique` take `--timeout` (issue 62, item
/// 4), and a stop by it ends each as every deadline does, exit 1: `check` keeps the rows
/// it finished and ends on `s UNKNOWN` (a partial count is no row, never `DIFFERS`); the
/// commands that write a file write nothing, no temporary file stays, and the message
/// says the timeout stopped them. The runs go side by side; each would take seconds to
/// minutes without its timeout.
#[test]
fn the_commands_that_make_files_stop_at_their_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = dominoes(dir.path());
    let puzzle = puzzle.to_str().unwrap();
    let out = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let runs: Vec<(&str, Vec<String>)> = vec![
        ("check", vec!["check".into(), "pentomino-6x10".into()]),
        (
            "dimacs",
            vec![
                "dimacs".into(),
                puzzle.into(),
                "--force".into(),
                "-o".into(),
                out("d.cnf"),
            ],
        ),
        (
            "export opb",
            vec![
                "export".into(),
                puzzle.into(),
                "--format".into(),
                "opb".into(),
                "-o".into(),
                out("d.opb"),
            ],
        ),
        (
            "export 3mf --solution",
            vec![
                "export".into(),
                "pentomino-6x10".into(),
                "--format".into(),
                "3mf".into(),
                "--solution".into(),
                "2300".into(),
                "-o".into(),
                out("p.3mf"),
            ],
        ),
        (
            "generate --unique",
            vec![
                "generate".into(),
                "polycubes".into(),
                "--box".into(),
                "4,4,4".into(),
                "--pieces".into(),
                "12".into(),
                "--unique".into(),
                "-o".into(),
                out("g.toml"),
            ],
        ),
    ];
    let mut children: Vec<_> = runs
        .into_iter()
        .map(|(name, mut args)| {
            args.extend(["--timeout".into(), "0.3".into()]);
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let mut child = spawn(&args);
            let mut err = child.stderr.take().unwrap();
            let err = std::thread::spawn(move || {
                let mut s = String::new();
                let _ = std::io::Read::read_to_string(&mut err, &mut s);
                s
            });
            let out = collect(&mut child);
            (name, child, out, err)
        })
        .collect();
    for (name, child, out, err) in &mut children {
        let status = wait_at_most(child, ENDS_WITHIN);
        let status = status.unwrap_or_else(|| panic!("{name}: still running after 30 s"));
        let out = std::mem::replace(out, std::thread::spawn(String::new))
            .join()
            .unwrap();
        let err = std::mem::replace(err, std::thread::spawn(String::new))
            .join()
            .unwrap();
        assert_eq!(status.code(), Some(1), "{name}: {out}{err}");
        assert!(
            out.contains("stopped by the timeout") || err.contains("error: stopped by the timeout"),
            "{name}: {out}{err}"
        );
        if *name == "check" {
            assert!(out.trim_end().ends_with("s UNKNOWN"), "{out}");
            assert!(!out.contains("DIFFERS") && !out.contains("s mc"), "{out}");
        }
    }
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| !n.ends_with(".toml") || n == "g.toml")
        .collect();
    assert!(left.is_empty(), "written or left behind: {left:?}");
}

/// A CNF streamed to standard output that the timeout stops has had its first lines:
/// the error says it was cut short, not that nothing was written (issue 62, the new
/// user's sweep).
#[test]
fn a_stream_the_timeout_stops_is_said_to_be_cut_short() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = dominoes(dir.path());
    let mut child = spawn(&[
        "dimacs",
        puzzle.to_str().unwrap(),
        "--force",
        "--timeout",
        "0.3",
    ]);
    let out = collect(&mut child);
    let status = wait_at_most(&mut child, ENDS_WITHIN).expect("it ends");
    let err = std::io::read_to_string(child.stderr.take().unwrap()).unwrap();
    let out = out.join().unwrap();
    assert_eq!(status.code(), Some(1), "{err}");
    assert!(err.contains("stopped by the timeout"), "{err}");
    // On a loaded machine the deadline may come while the CNF is built, before any line:
    // then nothing was written, and the error says what was not finished.
    if !out.is_empty() {
        assert!(out.starts_with("c "), "{out:.200}");
        assert!(err.contains("standard output cut short"), "{err}");
    }
}

/// `export --format stl` into a directory writes all the pieces' files or none: stopped
/// by its timeout part way, it removes the files it wrote and the directory it made
/// (issue 62, the new user's sweep: 2048 files were written past `--timeout 0.1`, and an
/// interrupted export left 175).
#[test]
fn an_stl_export_the_timeout_stops_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = dominoes(dir.path());
    let stl = dir.path().join("stl");
    let mut child = spawn(&[
        "export",
        puzzle.to_str().unwrap(),
        "--format",
        "stl",
        "-o",
        stl.to_str().unwrap(),
        "--timeout",
        "0.1",
    ]);
    let status = wait_at_most(&mut child, ENDS_WITHIN).expect("it ends");
    let err = std::io::read_to_string(child.stderr.take().unwrap()).unwrap();
    assert_eq!(status.code(), Some(1), "{err}");
    assert!(err.contains("stopped by the timeout"), "{err}");
    assert!(
        !stl.exists(),
        "{:?}",
        std::fs::read_dir(&stl).map(|d| d.count())
    );
}
