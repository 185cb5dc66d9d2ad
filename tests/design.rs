//! `polycover design`: small boxes become unique puzzles that `count` reads back, the
//! committed 4x4x4 designs are unique by the DLX and by SAT, `--timeout` and Ctrl-C
//! write the best puzzle so far with the documented exit codes, requests no cut can
//! meet are refused before the search (nor does `generate --unique` design them), the
//! header's command runs again, `--keep` freezes its pieces and `--svg` draws the
//! solution.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::time::Duration;

use crate::common::{
    bin, canonical, count, polycover, rest_of_stderr, rotations, sat_count, signal, spawn, stderr,
    stdout, wait_at_most, SatRun,
};
use polycover::sat::Amo;
use polycover::{Engine, Puzzle, SymmetryMode};

/// No two pieces of the puzzle have one shape up to rotation, and none has copies (each
/// piece's item is a unit item: used exactly once).
fn assert_distinct_shapes(puzzle: &Puzzle, what: &str) {
    let pieces = puzzle.piece_cells().expect("a polycube puzzle");
    let m = puzzle.matrix();
    let first_piece = m.num_items() - pieces.len();
    let turns = rotations();
    let mut seen = Vec::new();
    for (k, cells) in pieces.iter().enumerate() {
        let item = &m.items()[first_piece + k].name;
        assert!(
            m.is_unit((first_piece + k) as u32),
            "{what}: piece {item} has copies"
        );
        let shape = canonical(cells, &turns);
        assert!(!seen.contains(&shape), "{what}: piece {item} twice");
        seen.push(shape);
    }
}

/// The best counts of the `c design: ... best N solution(s)` lines, in order.
fn curve(stderr: &str) -> Vec<u64> {
    stderr
        .lines()
        .filter(|l| l.starts_with("c design:") && !l.contains("breaking"))
        .filter_map(|l| {
            let after = l.split(", best ").nth(1)?;
            after.split(' ').next()?.parse().ok()
        })
        .collect()
}

/// 3x3x3 in 7 pieces and 4x4x2 in 8 pieces end unique (exit 0); the file has
/// `[expect] rotations = 1`, distinct shapes, and `count` reads it back and agrees; the
/// best count only goes down on the way.
#[test]
#[cfg_attr(debug_assertions, ignore = "release builds only")]
fn small_boxes_become_unique() {
    let dir = tempfile::tempdir().unwrap();
    for (i, args) in [
        &["--box", "3,3,3", "--pieces", "7", "--seed", "1"][..],
        // The default sizes, 3 to 5: only the chained moves of `cut.rs` get past 2 or 3
        // solutions there.
        &["--box", "4,4,2", "--pieces", "8", "--seed", "1"][..],
    ]
    .into_iter()
    .enumerate()
    {
        let file = dir.path().join(format!("design-{i}.toml"));
        let mut all = vec!["design", "-o", file.to_str().unwrap(), "--timeout", "600"];
        all.extend(args);
        let out = polycover(&all);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(text.starts_with("# polycover design --box"), "{text}");
        assert!(text.contains("[expect]\nrotations = 1\n"), "{text}");
        assert_distinct_shapes(&Puzzle::parse("design", &text).unwrap(), &text);
        let counted = polycover(&["count", file.to_str().unwrap(), "--solver", "dlx"]);
        assert_eq!(counted.status.code(), Some(0), "{}", stdout(&counted));
        assert!(
            stdout(&counted).contains("s mc 1\n"),
            "{}",
            stdout(&counted)
        );
        let best = curve(&err);
        assert!(
            best.len() >= 2 && best.windows(2).all(|w| w[1] <= w[0]),
            "{err}"
        );
        assert_eq!(best.last(), Some(&1), "{err}");
        assert!(best[0] > 1, "{err}");
    }
}

/// Every committed design (encodings/designs/: 4x4x4 in 10 pieces, seeds 1-5; in 12,
/// seeds 1-3; in 13, seeds 1-3) has exactly one solution up to rotations
/// by the DLX and by SAT, distinct shapes, and says so in its `[expect]`.
#[test]
#[cfg_attr(debug_assertions, ignore = "release builds only")]
fn committed_designs_are_unique_by_dlx_and_sat() {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("encodings/designs");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    assert!(files.len() >= 11, "{files:?}");
    for file in files {
        let puzzle = Puzzle::load(&file).unwrap();
        let what = file.display().to_string();
        assert_distinct_shapes(&puzzle, &what);
        let c = puzzle.compile(SymmetryMode::Rotations).unwrap();
        assert_eq!(count(&c, Engine::dlx(), 1), 1, "{what}");
        assert_eq!(sat_count(&c, Amo::Product, &SatRun::default()), 1, "{what}");
        let expect = puzzle.expected(SymmetryMode::Rotations);
        assert_eq!(expect.and_then(|n| n.to_u64()), Some(1), "{what}");
    }
}

/// A design that is not unique when `--timeout` stops it: the best so far is written,
/// with its count in the header and in `[expect]` (which `count` confirms), exit 1.
#[test]
#[cfg_attr(debug_assertions, ignore = "release builds only")]
fn timeout_writes_the_best_so_far() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("best.toml");
    let out = polycover(&[
        "design",
        "--box",
        "4,4,2",
        "--pieces",
        "8",
        "--seed",
        "1",
        "--timeout",
        "2",
        // One walk, which does not reach a unique puzzle in 2 s (two might).
        "--threads",
        "1",
        "-o",
        file.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("stopped by --timeout"), "{err}");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.contains("stopped before a unique puzzle; the best has"),
        "{text}"
    );
    let counted = polycover(&["count", file.to_str().unwrap()]);
    assert_eq!(
        counted.status.code(),
        Some(0),
        "{text}\n{}",
        stdout(&counted)
    );
    assert!(text.contains("[expect]\nrotations = "), "{text}");
}

/// Ctrl-C during a design: the best so far is written (with its count), exit 130.
#[test]
fn ctrl_c_writes_the_best_so_far() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("best.toml");
    let mut child = bin()
        .args([
            "design",
            "--box",
            "4,4,2",
            "--pieces",
            "8",
            "--seed",
            "1",
            "-o",
            file.to_str().unwrap(),
        ])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The first progress line: the search runs.
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    err.read_line(&mut line).unwrap();
    assert!(line.starts_with("c design:"), "{line}");
    signal(&child, "INT");
    let status = wait_at_most(&mut child, Duration::from_secs(60)).expect("it stops");
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut err, &mut rest).unwrap();
    assert_eq!(status.code(), Some(130), "{rest}");
    assert!(rest.contains("interrupted"), "{rest}");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.contains("stopped before a unique puzzle; the best has"),
        "{text}"
    );
    assert!(Puzzle::parse("best", &text).is_ok(), "{text}");
}

/// Requests no cut can meet, and a missing box, are usage errors (exit 2).
#[test]
fn impossible_requests_are_usage_errors() {
    for args in [
        &["design", "--pieces", "3"][..],
        &[
            "design", "--box", "2,2,2", "--pieces", "3", "--sizes", "4-6",
        ][..],
    ] {
        let out = polycover(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}

/// Rules no cut can keep are refused before any search, with the reason, exit 2 and no
/// file (issue 46: they searched until killed, or to the timeout): 27 pieces of 1 or 2
/// cells that must all differ (2 such shapes exist), 4 pieces of 1 to 3 cells in 2x2x2
/// (4 distinct shapes take at least 9 cells), chiral flat pieces (a flat piece is its
/// own mirror image), and a `--cap` below 2 (no count stopped there tells a unique
/// puzzle). The timeout only bounds a run that would not end; the guard bounds the test.
#[test]
fn requests_no_cut_can_meet_are_refused_before_the_search() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("never.toml");
    let file = file.to_str().unwrap();
    for (args, says) in [
        (&["--box", "3,3,3", "--pieces", "27"][..], "only 2 shapes"),
        (&["--box", "2,2,2", "--pieces", "4"][..], "at least 9 cells"),
        (
            &[
                "--box",
                "2,2,2",
                "--pieces",
                "2",
                "--chiral",
                "--flat-pieces",
            ][..],
            "exclude each other",
        ),
        (
            &["--box", "3,3,3", "--pieces", "7", "--cap", "0"][..],
            "at least 2",
        ),
        (
            &["--box", "3,3,3", "--pieces", "7", "--cap", "1"][..],
            "at least 2",
        ),
    ] {
        let all = [&["design"][..], args, &["--timeout", "10", "-o", file]].concat();
        let mut child = spawn(&all);
        let status = wait_at_most(&mut child, Duration::from_secs(60));
        let err = rest_of_stderr(&mut child);
        assert_eq!(status.and_then(|s| s.code()), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!Path::new(file).exists(), "{args:?}");
    }
}

/// `generate polycubes --unique`, its draws failed, does not hand the design search a
/// request whose rules (pieces of distinct shapes) no cut keeps: 13 pieces of 1 to 4
/// cells, of which 12 shapes exist. It fails (exit 1: the draws could have met the
/// request) saying why, where it searched until killed.
#[test]
fn generate_unique_does_not_design_what_no_cut_meets() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("never.toml");
    let file = file.to_str().unwrap();
    let mut child = spawn(&[
        "generate",
        "polycubes",
        "--box",
        "3,3,3",
        "--pieces",
        "13",
        "--unique",
        "--draws",
        "0",
        "-o",
        file,
    ]);
    let status = wait_at_most(&mut child, Duration::from_secs(60));
    let err = rest_of_stderr(&mut child);
    assert_eq!(status.and_then(|s| s.code()), Some(1), "{err}");
    assert!(err.contains("cannot take over"), "{err}");
    assert!(err.contains("only 12 shapes of 1 to 4 cells"), "{err}");
    assert!(!Path::new(file).exists());
}

/// The command in a designed file's header runs again as written (issue 46: it left out
/// `--timeout`, which `--maximize nodes` requires, and the rerun was refused): it names
/// `--timeout`, a `--cap` other than the default and `--report`, and the rerun writes
/// the same header. 4x4x4 in 10 pieces, seed 5: the first cut is unique.
#[test]
#[cfg_attr(debug_assertions, ignore = "release builds only")]
fn the_header_command_runs_again() {
    let dir = tempfile::tempdir().unwrap();
    let first = dir.path().join("first.toml");
    let again = dir.path().join("again.toml");
    let (first, again) = (first.to_str().unwrap(), again.to_str().unwrap());
    let out = polycover(&[
        "design",
        "--box",
        "4,4,4",
        "--pieces",
        "10",
        "--seed",
        "5",
        "--maximize",
        "nodes",
        "--timeout",
        "1",
        "--cap",
        "500",
        "--report",
        "-o",
        first,
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let text = std::fs::read_to_string(first).unwrap();
    let header = text.lines().next().unwrap();
    for option in ["--maximize nodes", "--timeout 1", "--cap 500", "--report"] {
        assert!(header.contains(option), "{option}: {header}");
    }
    let command = header.strip_prefix("# polycover ").expect(header);
    let args: Vec<&str> = command.split(' ').chain(["-o", again]).collect();
    let out = polycover(&args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{command}: {err}");
    let rerun = std::fs::read_to_string(again).unwrap();
    assert_eq!(rerun.lines().next(), Some(header));
}

/// `--keep FILE` freezes the pieces of `--from` whose shapes the file has: whatever the
/// search does in its time (here stopped by `--timeout`, unique or not), the kept piece
/// is in the written puzzle, and its header names `--keep`.
#[test]
#[cfg_attr(debug_assertions, ignore = "release builds only")]
fn keep_freezes_its_pieces() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let start = path("start.toml");
    let args = [
        "generate",
        "polycubes",
        "--box",
        "3,3,3",
        "--pieces",
        "7",
        "--seed",
        "1",
        "-o",
    ];
    let out = polycover(&[&args[..], &[start.as_str()]].concat());
    assert_eq!(out.status.code(), Some(0));
    // The start's piece A, five cells, alone in a file of its own.
    let a = "[[0,0,0], [0,1,0], [0,1,1], [1,0,0], [1,1,0]]";
    let text = std::fs::read_to_string(&start).unwrap();
    assert!(text.contains(&format!("cells = {a}")), "{text}");
    let keep = path("keep.toml");
    let kept = format!("name = \"kept\"\ntarget = {a}\n\n[[piece]]\nname = \"A\"\ncells = {a}\n");
    std::fs::write(&keep, &kept).unwrap();
    let designed = path("designed.toml");
    let out = polycover(&[
        "design",
        "--from",
        &start,
        "--keep",
        &keep,
        "--seed",
        "1",
        "--timeout",
        "3",
        "-o",
        &designed,
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(matches!(out.status.code(), Some(0 | 1)), "{err}");
    let text = std::fs::read_to_string(&designed).unwrap();
    assert!(
        text.lines()
            .next()
            .unwrap()
            .ends_with(&format!(" --keep {keep}")),
        "{text}"
    );
    let turns = rotations();
    let kept = Puzzle::parse("kept", &kept).unwrap().piece_cells().unwrap();
    let kept_shape = canonical(&kept[0], &turns);
    let pieces = Puzzle::parse("designed", &text)
        .unwrap()
        .piece_cells()
        .unwrap();
    assert!(
        pieces.iter().any(|p| canonical(p, &turns) == kept_shape),
        "{text}"
    );
    // Moves were tried: the other pieces did change.
    assert!(!err.contains("after 0 moves tried"), "{err}");
}

/// `--svg FILE` draws the designed puzzle's solution: every piece in place; the same
/// path as `-o` is refused before any work.
#[test]
#[cfg_attr(debug_assertions, ignore = "release builds only")]
fn svg_draws_the_designed_solution() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("design.toml");
    let svg = dir.path().join("design.svg");
    let (file, svg) = (file.to_str().unwrap(), svg.to_str().unwrap());
    let args = [
        "design",
        "--box",
        "3,3,3",
        "--pieces",
        "7",
        "--seed",
        "2",
        "--timeout",
        "600",
    ];
    let out = polycover(&[&args[..], &["-o", file, "--svg", svg]].concat());
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let picture = std::fs::read_to_string(svg).unwrap();
    assert!(
        picture.starts_with("<?xml") && picture.contains("<svg"),
        "{picture}"
    );
    assert!(
        picture.contains("<title>Designed: 7 pieces in 3x3x3 (seed 2)</title>"),
        "{picture}"
    );
    assert_eq!(picture.matches("class=\"piece\"").count(), 7, "{picture}");
    let out = polycover(&[&args[..], &["-o", file, "--svg", file]].concat());
    assert_eq!(out.status.code(), Some(2));
}

/// Walks side by side (issue 49): `--threads 2` runs two walks on the scheduler's
/// workers and says so (`c threads N`, N at most the cores, and the file's header when
/// there are two); its puzzle is unique by the DLX, and `--curve` writes the best score
/// over time, ending at one exact solution. One walk gives the same puzzle from run to
/// run. Broken on purpose (the design run as one walk whatever `--threads` says), it
/// fails on a machine of two cores or more.
#[test]
#[cfg_attr(debug_assertions, ignore = "release builds only")]
fn walks_run_side_by_side_and_one_walk_repeats() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let design = |threads: &str, out: &str, curve: Option<&str>| {
        let mut args = vec![
            "design",
            "--box",
            "4,4,4",
            "--pieces",
            "10",
            "--seed",
            "2",
            "--threads",
            threads,
            "-o",
            out,
        ];
        if let Some(curve) = curve {
            args.extend(["--curve", curve]);
        }
        let o = polycover(&args);
        let err = String::from_utf8_lossy(&o.stderr).to_string();
        assert_eq!(o.status.code(), Some(0), "{err}");
        (std::fs::read_to_string(out).unwrap(), err)
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let walks = cores.min(2);
    let (two, err) = design("2", &path("two.toml"), Some(&path("curve.csv")));
    assert!(err.contains(&format!("c threads {walks}: ")), "{err}");
    assert_eq!(two.contains("2 walks side by side"), walks == 2, "{two}");
    let c = Puzzle::parse("two walks", &two)
        .unwrap()
        .compile(SymmetryMode::Rotations)
        .unwrap();
    assert_eq!(count(&c, Engine::dlx(), 1), 1, "{two}");
    let curve = std::fs::read_to_string(path("curve.csv")).unwrap();
    let mut lines = curve.lines();
    assert_eq!(lines.next(), Some("seconds,faults,solutions,kind"));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(
        rows.last().map(|r| &r[1..]),
        Some(&["0", "1", "exact"][..]),
        "{curve}"
    );
    let (a, _) = design("1", &path("a.toml"), None);
    let (b, _) = design("1", &path("b.toml"), None);
    // The second header line says how long it took; the rest is the puzzle.
    let without_time = |s: &str| -> Vec<String> {
        s.lines()
            .enumerate()
            .filter(|(k, _)| *k != 1)
            .map(|(_, l)| l.to_string())
            .collect()
    };
    assert_eq!(without_time(&a), without_time(&b));
    assert!(a.lines().next().unwrap().ends_with("--threads 1"), "{a}");
}

/// A timeout past any clock is recorded in the design's first line as a number that
/// reads back (`1.8446744073709552e19`), not as the 20 digits of the longest duration
/// (issue 62, 11), and that line's `--timeout` is taken again.
#[test]
fn a_timeout_past_any_clock_is_recorded_as_a_number() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("d.toml");
    let out = polycover(&[
        "design",
        "--box",
        "2,2,2",
        "--pieces",
        "3",
        "-o",
        file.to_str().unwrap(),
        "--timeout",
        "1e300",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(&file).unwrap();
    let first = text.lines().next().unwrap();
    assert!(
        first.contains(" --timeout 1.8446744073709552e19"),
        "{first}"
    );
    let second = dir.path().join("again.toml");
    let again = polycover(&[
        "design",
        "--box",
        "2,2,2",
        "--pieces",
        "3",
        "-o",
        second.to_str().unwrap(),
        "--timeout",
        "1.8446744073709552e19",
    ]);
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
}
