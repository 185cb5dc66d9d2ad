//! The difficulty measures (`info --difficulty`, `design --report`) checked against an
//! Algorithm X written here from the matrix alone, and `design --maximize nodes`, whose
//! unique puzzle is at least as hard as the design it starts from.

use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

use crate::common::{
    collect, count, polycover, rest_of_stderr, spawn, stderr, stdout, wait_at_most,
};
use polycover::engine::Difficulty;
use polycover::{Engine, Matrix, Problem, SymmetryMode};

/// Algorithm X over the reduced matrix, as the `solver` module docs state the rule and
/// nothing of the engines: branch on the item with the fewest live options, ties to the
/// item listed last; a leaf is a solution (no item left) or a dead end (an item with no
/// option). Exact matrices of unit items only.
struct X<'r> {
    problem: &'r Problem,
    columns: Vec<Vec<u32>>,
    covered: Vec<bool>,
    /// Per option, how many chosen options clash with it (0: live).
    blocked: Vec<u32>,
    /// Per item, its live options.
    live: Vec<u32>,
    chosen: Vec<u32>,
    nodes: u64,
    dead_ends: u64,
    raw: u64,
    canonical: u64,
    /// Nodes at each depth.
    levels: Vec<u64>,
}

impl<'r> X<'r> {
    fn new(problem: &'r Problem) -> X<'r> {
        let m: &Matrix = problem.reduced();
        assert!((0..m.num_items() as u32).all(|i| m.is_unit(i)));
        let columns = m.columns();
        X {
            problem,
            live: columns.iter().map(|c| c.len() as u32).collect(),
            columns,
            covered: vec![false; m.num_items()],
            blocked: vec![0; m.num_options()],
            chosen: Vec::new(),
            nodes: 0,
            dead_ends: 0,
            raw: 0,
            canonical: 0,
            levels: Vec::new(),
        }
    }

    /// The item the search branches on, `None` when every item is covered.
    fn item(&self) -> Option<usize> {
        (0..self.covered.len())
            .filter(|&i| !self.covered[i])
            .min_by_key(|&i| (self.live[i], std::cmp::Reverse(i)))
    }

    fn select(&mut self, o: u32, sign: i32) {
        let items = self.problem.reduced().option_items(o).to_vec();
        let order: Vec<u32> = if sign > 0 {
            items.clone()
        } else {
            items.iter().rev().copied().collect()
        };
        for i in order {
            for &p in &self.columns[i as usize] {
                let before = self.blocked[p as usize];
                self.blocked[p as usize] = (before as i32 + sign) as u32;
                let after = self.blocked[p as usize];
                if (before == 0) != (after == 0) {
                    for &j in self.problem.reduced().option_items(p) {
                        let l = &mut self.live[j as usize];
                        *l = (*l as i32 - sign) as u32;
                    }
                }
            }
            self.covered[i as usize] = sign > 0;
        }
    }

    fn search(&mut self, depth: usize) {
        self.nodes += 1;
        if self.levels.len() == depth {
            self.levels.push(0);
        }
        self.levels[depth] += 1;
        let Some(item) = self.item() else {
            self.raw += 1;
            let mut original: Vec<u32> = self
                .chosen
                .iter()
                .map(|&o| self.problem.original(o))
                .collect();
            original.sort_unstable();
            self.canonical += u64::from(self.problem.is_canonical(&original));
            return;
        };
        if self.live[item] == 0 {
            self.dead_ends += 1;
            return;
        }
        let options: Vec<u32> = self.columns[item]
            .iter()
            .copied()
            .filter(|&o| self.blocked[o as usize] == 0)
            .collect();
        for o in options {
            self.select(o, 1);
            self.chosen.push(o);
            self.search(depth + 1);
            self.chosen.pop();
            self.select(o, -1);
        }
    }
}

/// `info`'s rows: name (the first 11 characters, trimmed) to value.
fn rows(text: &str) -> HashMap<String, String> {
    text.lines()
        .filter(|l| l.len() > 12)
        .map(|l| (l[..11].trim().to_string(), l[12..].to_string()))
        .collect()
}

/// The first number of `s`.
fn number(s: &str) -> u64 {
    let digits: String = s
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits
        .parse()
        .unwrap_or_else(|_| panic!("no number in {s:?}"))
}

/// `info PUZZLE --difficulty`'s nodes, solutions and first move, exit 0.
fn info(puzzle: &str) -> (u64, u64, u64) {
    let out = polycover(&["info", puzzle, "--difficulty"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let r = rows(&stdout(&out));
    (
        number(&r["nodes"]),
        number(&r["solutions"]),
        number(&r["first move"]),
    )
}

/// Every measure equals what the Algorithm X above finds on the same reduced matrix, the
/// solutions equal the DLX's count, and the branching profile is the ratio of the
/// tree's level sizes.
#[test]
#[cfg_attr(debug_assertions, ignore = "release builds only")]
fn measures_match_an_independent_algorithm_x() {
    let design = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .join("encodings/designs/box4x4x4-10-seed1.toml");
    let design = design.to_str().unwrap();
    for (name, mode) in [
        ("soma", SymmetryMode::Rotations),
        ("soma", SymmetryMode::None),
        ("pentomino-3x20", SymmetryMode::Rotations),
        (design, SymmetryMode::Rotations),
    ] {
        let problem = Problem::load(name, Some(mode)).unwrap();
        let d: Difficulty = measure(&problem).unwrap().unwrap();
        let mut x = X::new(&problem);
        x.search(0);
        let what = format!("{name} {mode:?}: {d:?}");
        assert_eq!(d.nodes, x.nodes, "{what}");
        assert_eq!(d.dead_ends, x.dead_ends, "{what}");
        assert_eq!(d.raw_solutions, x.raw, "{what}");
        assert_eq!(d.solutions, x.canonical, "{what}");
        assert_eq!(d.solutions, count(&problem, Engine::dlx(), 1), "{what}");
        assert_eq!(d.first_move, x.levels[1], "{what}");
        assert_eq!(d.branching.len(), Difficulty::DEPTHS, "{what}");
        for (k, b) in d.branching.iter().enumerate() {
            let expected = x.levels[k + 1] as f64 / x.levels[k] as f64;
            assert!((b - expected).abs() < 1e-9, "{what}: depth {k}");
        }
        assert!(d.dead_ends + d.raw_solutions <= d.nodes, "{what}");
        // The same tree every time.
        assert_eq!(measure(&problem).unwrap().unwrap().nodes, d.nodes);
    }
}

/// `info --difficulty` prints the library's measures; its solutions are `count`'s, and
/// its tree holds at least the nodes `count --solver dlx --threads 1` walks below its
/// split.
#[test]
#[cfg_attr(debug_assertions, ignore = "release builds only")]
fn info_prints_the_measures() {
    let (nodes, solutions, first) = info("soma");
    let problem = Problem::load("soma", None).unwrap();
    let d = measure(&problem).unwrap().unwrap();
    assert_eq!((nodes, solutions, first), (d.nodes, 480, d.first_move));
    let out = polycover(&["count", "soma", "--solver", "dlx", "--threads", "1"]);
    let text = stdout(&out);
    let counted = text
        .split(", nodes ")
        .nth(1)
        .map(number)
        .unwrap_or_else(|| panic!("{text}"));
    assert!(text.contains("s mc 480\n"), "{text}");
    assert!(counted <= nodes && counted > 0, "{counted} > {nodes}");
    let plain = stdout(&polycover(&["info", "soma"]));
    assert!(!plain.contains("dead ends"), "{plain}");
}

/// `design --maximize nodes` writes a unique puzzle at least as hard (DLX nodes, by
/// `info --difficulty`) as the plain design of the same seed, which is where its climb
/// starts: 4x4x4 in 10 pieces, seed 5, whose first cut is already unique, so that the
/// whole --timeout goes to the climb. `--report` writes the measures into the file and on
/// `c difficulty`, the same as `info`'s; the climb's best only grows, from the plain
/// design's nodes to the file's.
#[test]
#[cfg_attr(debug_assertions, ignore = "release builds only")]
fn maximize_nodes_keeps_a_unique_puzzle_at_least_as_hard() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("plain.toml");
    let hard = dir.path().join("hard.toml");
    let (plain, hard) = (plain.to_str().unwrap(), hard.to_str().unwrap());
    let design = PLAIN_DESIGN;
    let mut args = design.to_vec();
    args.extend(["--timeout", "600", "-o", plain]);
    let out = polycover(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let (plain_nodes, plain_solutions, _) = info(plain);
    assert_eq!(plain_solutions, 1);
    let mut args = design.to_vec();
    args.extend([
        "--maximize",
        "nodes",
        "--timeout",
        "10",
        "--report",
        "-o",
        hard,
    ]);
    let out = polycover(&args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let (hard_nodes, hard_solutions, _) = info(hard);
    assert_eq!(hard_solutions, 1, "{err}");
    assert!(
        hard_nodes >= plain_nodes,
        "{hard_nodes} < {plain_nodes}: {err}"
    );
    let counted = stdout(&polycover(&["count", hard, "--solver", "dlx"]));
    assert!(counted.contains("s mc 1\n"), "{counted}");
    let text = std::fs::read_to_string(hard).unwrap();
    assert!(text.contains("--maximize nodes"), "{text}");
    assert!(text.contains("[expect]\nrotations = 1\n"), "{text}");
    let comment = format!("# Difficulty (DLX, rotations): 1 solution, {hard_nodes} nodes, ");
    assert!(text.contains(&comment), "{comment}\n{text}");
    assert!(
        err.contains(&format!("c difficulty: 1 solution, {hard_nodes} nodes")),
        "{err}"
    );
    let climb: Vec<u64> = err
        .lines()
        .filter_map(|l| l.strip_prefix("c design --maximize: "))
        .map(|l| number(l.split("most DLX nodes ").nth(1).unwrap()))
        .collect();
    assert!(climb.windows(2).all(|w| w[0] <= w[1]), "{err}");
    assert_eq!(climb.first(), Some(&plain_nodes), "{err}");
    assert_eq!(climb.last(), Some(&hard_nodes), "{err}");
}

/// `design --maximize dead-ends` and `--maximize first-move` climb on the tree's dead
/// ends, and on the first move's options, instead: the puzzle each writes is unique, has
/// at least the plain design's measure (by `info --difficulty`), says in its header how
/// it was made, and its progress lines' best only grows.
#[test]
#[cfg_attr(debug_assertions, ignore = "release builds only")]
fn maximize_dead_ends_and_first_move_keep_a_unique_puzzle_at_least_as_hard() {
    for (measure, row, words) in [
        ("dead-ends", "dead ends", "DLX dead ends"),
        ("first-move", "first move", "first-move options"),
    ] {
        climbs_on(measure, row, words);
    }
}

/// The design the climbs start from: 4x4x4 in 10 pieces, seed 5, one walk (so that the
/// plain design and the climb's start are the same puzzle).
const PLAIN_DESIGN: [&str; 9] = [
    "design",
    "--box",
    "4,4,4",
    "--pieces",
    "10",
    "--seed",
    "5",
    "--threads",
    "1",
];

/// `puzzle`'s `info --difficulty` row `row`, and its solutions.
fn measured(puzzle: &str, row: &str) -> (u64, u64) {
    let out = polycover(&["info", puzzle, "--difficulty"]);
    let r = rows(&stdout(&out));
    (number(&r[row]), number(&r["solutions"]))
}

/// One `--maximize MEASURE` climb from 4x4x4 in 10 pieces, seed 5, checked against the
/// `info --difficulty` row `row`; `words` is how its lines name the measure.
fn climbs_on(measure: &str, row: &str, words: &str) {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("plain.toml");
    let hard = dir.path().join("hard.toml");
    let (plain, hard) = (plain.to_str().unwrap(), hard.to_str().unwrap());
    let design = PLAIN_DESIGN;
    let mut args = design.to_vec();
    args.extend(["--timeout", "600", "-o", plain]);
    assert_eq!(polycover(&args).status.code(), Some(0));
    let (plain_value, _) = measured(plain, row);
    let mut args = design.to_vec();
    args.extend(["--maximize", measure, "--timeout", "4", "-o", hard]);
    let out = polycover(&args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{measure}: {err}");
    let (hard_value, hard_solutions) = measured(hard, row);
    assert_eq!(hard_solutions, 1, "{measure}: {err}");
    assert!(
        hard_value >= plain_value,
        "{measure}: {hard_value} < {plain_value}: {err}"
    );
    let text = std::fs::read_to_string(hard).unwrap();
    assert!(text.contains(&format!("--maximize {measure}")), "{text}");
    assert!(text.contains(words), "{text}");
    let climb: Vec<u64> = err
        .lines()
        .filter_map(|l| l.strip_prefix("c design --maximize: "))
        .map(|l| number(l.split(&format!("most {words} ")).nth(1).unwrap()))
        .collect();
    assert!(climb.windows(2).all(|w| w[0] <= w[1]), "{measure}: {err}");
    assert_eq!(climb.first(), Some(&plain_value), "{measure}: {err}");
    assert_eq!(climb.last(), Some(&hard_value), "{measure}: {err}");
}

/// `--maximize` at 12 pieces (issue 49): from the committed unique 4x4x4 design in 12
/// pieces, the climb on dead ends writes a unique puzzle with at least its dead ends (by
/// `info --difficulty`), in a few seconds.
#[test]
#[cfg_attr(debug_assertions, ignore = "release builds only")]
fn maximize_works_at_12_pieces() {
    let dir = tempfile::tempdir().unwrap();
    let hard = dir.path().join("hard.toml");
    let hard = hard.to_str().unwrap();
    let start = "encodings/designs/box4x4x4-12-seed1.toml";
    let (before, solutions) = measured(start, "dead ends");
    assert_eq!(solutions, 1);
    let out = polycover(&[
        "design",
        "--from",
        start,
        "--maximize",
        "dead-ends",
        "--timeout",
        "8",
        "--threads",
        "1",
        "-o",
        hard,
    ]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let (after, solutions) = measured(hard, "dead ends");
    assert_eq!(solutions, 1, "{err}");
    assert!(after >= before, "{after} < {before}: {err}");
    assert!(err.contains("c design --maximize: "), "{err}");
}

/// Combinations that make no sense end with exit 2 and say why, before any work (a
/// guard ends a run that starts searching instead: `--maximize nodes` alone would climb
/// until Ctrl-C).
#[test]
fn bad_combinations_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("never.toml");
    let file = file.to_str().unwrap();
    for (args, says) in [
        (
            &[
                "design",
                "--box",
                "3,3,3",
                "--pieces",
                "7",
                "--maximize",
                "hardest",
                "-o",
                file,
            ][..],
            "invalid value 'hardest' for '--maximize",
        ),
        (
            &[
                "design",
                "--box",
                "3,3,3",
                "--pieces",
                "7",
                "--maximize",
                "nodes",
                "-o",
                file,
            ][..],
            "design --maximize nodes needs --timeout",
        ),
        (&["info", "soma", "--symmetry", "none"][..], "--difficulty"),
        (&["info", "soma", "--timeout", "5"][..], "--difficulty"),
    ] {
        let mut child = spawn(args);
        let status = wait_at_most(&mut child, Duration::from_secs(60));
        let err = rest_of_stderr(&mut child);
        assert_eq!(status.and_then(|s| s.code()), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!Path::new(file).exists(), "{args:?}");
    }
}

/// `info --difficulty --timeout` stops the measures at the deadline (issue 46: Bedlam's
/// take over a minute, and only a signal stopped them): `c stopped by the timeout`, no
/// figure of the part of the tree walked, exit 1, as `count --timeout`. The guard bounds
/// the test, not the speed.
#[test]
fn info_difficulty_stops_at_its_timeout() {
    let mut child = spawn(&["info", "bedlam", "--difficulty", "--timeout", "1"]);
    let out = collect(&mut child);
    let status = wait_at_most(&mut child, Duration::from_secs(60));
    let err = rest_of_stderr(&mut child);
    let out = out.join().unwrap();
    assert_eq!(status.and_then(|s| s.code()), Some(1), "{out}{err}");
    assert!(out.contains("c stopped by the timeout"), "{out}");
    for figure in ["nodes", "dead ends", "first move", "branching"] {
        assert!(!out.contains(figure), "{figure}: {out}");
    }
}

/// The measures through the DLX engine's ability to measure its tree; other engines
/// refuse, saying which does.
fn measure(problem: &polycover::Problem) -> polycover::Result<Option<Difficulty>> {
    let dlx = polycover::Engine::dlx().prepare(problem)?;
    dlx.measurer()?.measure(&polycover::Stop::new())
}

#[test]
fn only_the_dancing_links_measure_their_tree() {
    let problem = polycover::Problem::load("soma", None).unwrap();
    let bits = polycover::Engine::bits().prepare(&problem).unwrap();
    let refused = bits.measurer().err().expect("bits measures no tree");
    assert_eq!(
        refused.to_string(),
        "bits measures no search tree: solver dlx does (the measures are its tree's)"
    );
    assert!(measure(&problem).unwrap().is_some());
}
