//! `generate polycubes`: a box cut into random pieces, a puzzle with exactly one solution,
//! and one with none that is not trivially so, drawn or (after `--draws` draws) designed;
//! each reproducible by its seed, and each checked by counting it (native and SAT).

use std::io::{BufRead, BufReader};

use crate::common::*;
use polycover::sat::Amo;
use polycover::{Engine, Puzzle, SymmetryMode};

/// Writes `generate polycubes ARGS` to a file in `dir` and returns its path.
fn generate(dir: &std::path::Path, name: &str, args: &[&str]) -> (String, String) {
    let path = dir.join(name);
    let path = path.to_str().unwrap().to_string();
    let mut all = vec!["generate", "polycubes"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["-o", &path]);
    let o = polycover(&all);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    (path, stderr(&o))
}

fn last_line(o: &std::process::Output) -> String {
    stdout(o).lines().last().unwrap_or_default().to_string()
}

#[test]
fn a_cut_is_a_solvable_puzzle_and_a_seed_repeats_it() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "--box", "4,4,4", "--pieces", "13", "--sizes", "4-6", "--seed", "3",
    ];
    let (a, _) = generate(dir.path(), "a.toml", &args);
    let (b, _) = generate(dir.path(), "b.toml", &args);
    let text = std::fs::read_to_string(&a).unwrap();
    assert_eq!(text, std::fs::read_to_string(&b).unwrap());
    assert!(
        text.starts_with("# polycover generate polycubes --box 4,4,4"),
        "{text}"
    );
    let o = polycover(&["solve", &a]);
    assert_eq!(o.status.code(), Some(10), "{}", stderr(&o));
    let (c, _) = generate(
        dir.path(),
        "c.toml",
        &["--box", "4,4,4", "--pieces", "13", "--seed", "4"],
    );
    assert_ne!(text, std::fs::read_to_string(&c).unwrap());
    // `info` reads it as any puzzle file: 64 cells of pieces.
    let o = polycover(&["info", &a]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// Six pieces in the 3x3x3 box with exactly one solution. (13 pieces in the 4x4x4 box,
/// issue 25's instance, are not found in minutes yet: see the notes.)
#[test]
fn unique_gives_one_solution_up_to_rotations() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--box", "3,3,3", "--pieces", "6", "--unique", "--seed", "1"];
    let (path, err) = generate(dir.path(), "u.toml", &args);
    assert!(err.contains("puzzles to find this one"), "{err}");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("\n# Drawn at random: draw "), "{text}");
    let o = polycover(&["count", &path, "--solver", "dlx"]);
    assert_eq!(last_line(&o), "s mc 1", "{}", stdout(&o));
    assert!(
        stdout(&o).contains("c expected 1 (matches)"),
        "{}",
        stdout(&o)
    );
    let (again, _) = generate(dir.path(), "v.toml", &args);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        std::fs::read_to_string(&again).unwrap()
    );
}

/// No solution, said by the native engine and by SAT; same volume, every piece fits.
#[test]
fn unsat_has_no_solution_by_both_engines() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--box", "3,3,3", "--pieces", "6", "--unsat", "--seed", "1"];
    let (path, _) = generate(dir.path(), "n.toml", &args);
    let o = polycover(&["solve", &path]);
    assert_eq!(o.status.code(), Some(20), "{}", stdout(&o));
    let o = polycover(&["solve", &path, "--solver", "sat"]);
    assert_eq!(o.status.code(), Some(20), "{}", stdout(&o));
    assert!(stdout(&o).contains("s UNSATISFIABLE"));
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("rotations = 0"), "{text}");
}

#[test]
fn bad_requests_are_refused_clearly() {
    for (args, says) in [
        (&["generate", "polycubes", "--pieces", "3"][..], "--box"),
        (
            &[
                "generate",
                "polycubes",
                "--box",
                "2,2,2",
                "--pieces",
                "3",
                "--sizes",
                "4-5",
            ][..],
            "cannot fill",
        ),
        (
            &["generate", "polycubes", "--box", "2,2", "--pieces", "2"][..],
            "three",
        ),
        (
            &[
                "generate",
                "polycubes",
                "--box",
                "2,2,2",
                "--pieces",
                "2",
                "--solvable",
            ][..],
            "--solvable",
        ),
        (
            &["generate", "colored-cubes", "--cubes", "4", "--unique"][..],
            "--unique",
        ),
        (&["generate", "colored-cubes"][..], "--cubes"),
        (
            &["generate", "colored-cubes", "--cubes", "4", "--draws", "3"][..],
            "--draws",
        ),
        (
            &[
                "generate",
                "polycubes",
                "--box",
                "2,2,2",
                "--pieces",
                "2",
                "--draws",
                "3",
            ][..],
            "--draws without --unique",
        ),
    ] {
        let o = polycover(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    }
}

/// A request that draws for a long time (4x4x4 in 13 pieces with one solution: random
/// cuts have hundreds of thousands) says how far it got every 10 s, and Ctrl-C stops it
/// with exit 130, the number drawn, and no file.
#[test]
fn a_long_unique_search_shows_progress_and_stops_on_ctrl_c() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("unique.toml");
    let mut child = spawn(&[
        "generate",
        "polycubes",
        "--box",
        "4,4,4",
        "--pieces",
        "13",
        "--unique",
        "--seed",
        "1",
        // Draws all the way, on a machine of any speed (the design search has its test).
        "--draws",
        "100000",
        "-o",
        path.to_str().unwrap(),
    ]);
    // Ctrl-C once the first progress line (10 s in) is out: read, not slept for, so a
    // loaded machine that starts the process late cannot beat it. A reader thread, so
    // that a line that never comes fails the test in 2 minutes instead of hanging it.
    let stderr = BufReader::new(child.stderr.take().unwrap());
    let (tx, rx) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in stderr.lines() {
            let _ = tx.send(line.unwrap());
        }
    });
    let mut err = String::new();
    while let Ok(line) = rx.recv_timeout(std::time::Duration::from_secs(120)) {
        err.push_str(&line);
        err.push('\n');
        if line.starts_with("c drew ") {
            break;
        }
    }
    if !err.contains("c drew ") {
        let _ = child.kill();
    }
    assert!(
        err.contains("c drew ") && err.contains("none kept yet"),
        "{err}"
    );
    signal(&child, "INT");
    let status = wait_at_most(&mut child, std::time::Duration::from_secs(60)).expect("it stops");
    reader.join().unwrap();
    err.extend(rx.try_iter().map(|line| line + "\n"));
    assert_eq!(status.code(), Some(130), "{err}");
    assert!(err.contains("puzzles drawn, none kept"), "{err}");
    assert!(!path.exists(), "no file for a stopped search");
}

/// 4x4x3 in 10 pieces, seed 2: 1000 random draws find no unique puzzle (random cuts there
/// have many solutions), so the design search makes one; `--unsat` mirrors a chiral piece
/// of it. The `c` lines and the file say so, and the counts hold by the DLX and by SAT:
/// exactly 1 solution up to rotations, and none.
#[test]
#[cfg_attr(debug_assertions, ignore = "release builds only")]
fn the_design_search_takes_over_when_draws_fail() {
    let dir = tempfile::tempdir().unwrap();
    for (flag, expected) in [("--unique", 1), ("--unsat", 0)] {
        let args = ["--box", "4,4,3", "--pieces", "10", flag, "--seed", "2"];
        let (path, err) = generate(dir.path(), "d.toml", &args);
        assert!(
            err.contains("c drew 1000 puzzles in ")
                && err.contains("none kept: the design search takes over (seed 2)"),
            "{err}"
        );
        assert!(
            err.contains("c designed this one after 1000 random draws had none: "),
            "{err}"
        );
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.contains(
                "\n# Designed after 1000 random draws had none: `polycover design --box \
                 4,4,3 --pieces 10 --sizes 3-6 --seed 2` ("
            ),
            "{text}"
        );
        assert!(
            text.contains(&format!("[expect]\nrotations = {expected}\n")),
            "{text}"
        );
        let c = Puzzle::parse("designed", &text)
            .unwrap()
            .compile(SymmetryMode::Rotations)
            .unwrap();
        assert_eq!(count(&c, Engine::dlx(), 1), expected, "{flag}: {text}");
        let by_sat = sat_count(&c, Amo::Product, &SatRun::default());
        assert_eq!(by_sat, expected, "{flag}: {text}");
    }
}

/// `--draws 0` designs at once, and the seed gives the same file twice.
#[test]
#[cfg_attr(debug_assertions, ignore = "release builds only")]
fn a_designed_puzzle_repeats_with_its_seed() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "--box", "3,3,3", "--pieces", "6", "--unique", "--draws", "0", "--seed", "3",
    ];
    let (a, err) = generate(dir.path(), "a.toml", &args);
    assert!(err.contains("c drew 0 puzzles in "), "{err}");
    let (b, _) = generate(dir.path(), "b.toml", &args);
    let text = std::fs::read_to_string(&a).unwrap();
    assert_eq!(text, std::fs::read_to_string(&b).unwrap());
    assert!(text.contains("\n# Designed after 0 random draws"), "{text}");
    let o = polycover(&["count", &a, "--solver", "dlx"]);
    assert_eq!(last_line(&o), "s mc 1", "{}", stdout(&o));
}

/// Ctrl-C during the design search (4x4x4 in 13 pieces, which it does not finish in
/// seconds): exit 130, the draws and moves named, no file.
#[test]
fn ctrl_c_stops_the_design_search() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("unique.toml");
    let mut child = spawn(&[
        "generate",
        "polycubes",
        "--box",
        "4,4,4",
        "--pieces",
        "13",
        "--unique",
        "--draws",
        "0",
        "-o",
        path.to_str().unwrap(),
    ]);
    // The design search's first progress line: it runs.
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut said = String::new();
    while !said.contains("c design:") {
        let mut line = String::new();
        assert_ne!(err.read_line(&mut line).unwrap(), 0, "{said}");
        said.push_str(&line);
    }
    signal(&child, "INT");
    let status = wait_at_most(&mut child, std::time::Duration::from_secs(60)).expect("it stops");
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut err, &mut rest).unwrap();
    assert_eq!(status.code(), Some(130), "{said}{rest}");
    assert!(
        rest.contains("after 0 puzzles drawn and ")
            && rest.contains("moves of the design search, none kept"),
        "{said}{rest}"
    );
    assert!(!path.exists(), "no file for a stopped search");
}

/// More than 26 distinct pieces: the 27th's name `AA` would take `A`'s symbol, so the
/// generated file gives it one of its own, and the file reads back (issue 62, the new
/// user's sweep: `info` refused what `generate` and `design` wrote).
#[test]
fn more_than_26_distinct_pieces_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("g.toml");
    let file = file.to_str().unwrap();
    let made = crate::common::polycover(&[
        "generate",
        "polycubes",
        "--box",
        "6,6,6",
        "--pieces",
        "30",
        "-o",
        file,
    ]);
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let text = std::fs::read_to_string(file).unwrap();
    assert!(text.contains("name = \"AA\"\nsymbol = \"a\""), "{text}");
    let info = crate::common::polycover(&["info", file]);
    assert!(
        info.status.success(),
        "{}",
        String::from_utf8_lossy(&info.stderr)
    );
}
