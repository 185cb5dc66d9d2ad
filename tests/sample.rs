//! `polycover sample`: uniform over the solutions through the command (a chi-square test
//! on 100,000 draws), reproducible by seed, in `enumerate`'s formats, counts past 2^100,
//! and clear refusals.

use std::collections::HashMap;

use crate::chi_square;
use crate::common::*;

const DOMINOES: &str = "tests/fixtures/dominoes-4x6.toml";

/// The placements of one JSON record as a set of cell lists: the solution itself, not
/// the record's number nor the copy numbers.
fn placements(line: &str) -> Vec<String> {
    let record: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
    let mut cells: Vec<String> = record["placements"]
        .as_array()
        .expect("placements")
        .iter()
        .map(|p| p["cells"].to_string())
        .collect();
    cells.sort();
    cells
}

#[test]
fn draws_through_the_command_are_uniform() {
    let o = polycover(&[
        "sample",
        DOMINOES,
        "--symmetry",
        "none",
        "-n",
        "100000",
        "--seed",
        "42",
        "--format",
        "jsonl",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let mut bins: HashMap<Vec<String>, u64> = HashMap::new();
    let mut lines = 0;
    for line in stdout(&o).lines() {
        *bins.entry(placements(line)).or_default() += 1;
        lines += 1;
    }
    assert_eq!(lines, 100_000);
    // Every one of the 281 tilings came out (each is expected about 356 times).
    assert_eq!(bins.len(), 281);
    let counts: Vec<u64> = bins.into_values().collect();
    assert!(!chi_square::rejects_uniform(&counts));
    assert!(stderr(&o).contains("c seed 42"), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("c counted 281 solutions"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_seed_repeats_a_run_and_the_default_seed_is_printed() {
    let run = |seed: &str| stdout(&polycover(&["sample", "soma", "-n", "5", "--seed", seed]));
    assert_eq!(run("3"), run("3"));
    assert_ne!(run("3"), run("4"));
    let o = polycover(&["sample", "soma"]);
    assert_eq!(o.status.code(), Some(0));
    let err = stderr(&o);
    let seed = err
        .lines()
        .find_map(|l| l.strip_prefix("c seed "))
        .and_then(|l| l.split(' ').next())
        .unwrap_or_else(|| panic!("no seed in {err}"));
    // One draw by default: the first of five with the same seed.
    assert!(stdout(&o).starts_with("solution 1\n"));
    assert!(!stdout(&o).contains("solution 2"));
    assert!(
        run(seed).starts_with(&stdout(&o)),
        "the printed seed repeats the run"
    );
}

#[test]
fn records_go_to_a_file_and_pictures_to_a_directory() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("draws.txt");
    let svg = dir.path().join("svg");
    let o = polycover(&[
        "sample",
        "pentomino-6x10",
        "-n",
        "3",
        "--seed",
        "1",
        "-o",
        out.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).is_empty());
    let text = std::fs::read_to_string(&out).unwrap();
    assert_eq!(text.matches("solution ").count(), 3, "{text}");
    for k in 1..=3 {
        assert!(svg.join(format!("solution-00000{k}.svg")).is_file());
    }
    // The records are `enumerate`'s: the first draw's, renumbered, is a solution the
    // DLX lists too.
    let all = stdout(&polycover(&["enumerate", "pentomino-6x10"]));
    let first = text.split("solution 2\n").next().unwrap();
    let body = first.strip_prefix("solution 1\n").unwrap();
    assert!(all.contains(body.trim_end()), "{body}");
}

/// 128 dominoes: the ranks pass 2^100.
#[test]
fn the_sixteen_by_sixteen_box_is_sampled() {
    let o = polycover(&[
        "sample",
        "dominoes-16x16",
        "--symmetry",
        "none",
        "--seed",
        "9",
        "--format",
        "jsonl",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("c counted 2444888770250892795802079170816 solutions"));
    assert_eq!(placements(stdout(&o).trim_end()).len(), 128);
}

#[test]
fn bad_requests_are_refused_clearly() {
    let o = polycover(&["sample", "soma", "-n", "0"]);
    assert_eq!(o.status.code(), Some(2));
    let o = polycover(&["sample", "no-such-puzzle"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no-such-puzzle"), "{}", stderr(&o));
    // The output is the puzzle file: refused, and the file is left alone.
    let dir = tempfile::tempdir().unwrap();
    let soma = dir.path().join("soma.toml");
    std::fs::copy(
        format!("{}/encodings/soma.toml", crate::common::ROOT),
        &soma,
    )
    .unwrap();
    let soma = soma.to_str().unwrap();
    let o = polycover(&["sample", soma, "-o", soma]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(
        std::fs::read(format!("{}/encodings/soma.toml", crate::common::ROOT)).unwrap(),
        std::fs::read(soma).unwrap()
    );
    let l3 = dir.path().join("l3.toml");
    std::fs::write(
        &l3,
        "name = \"L in 3x3\"\nbox = [3, 3, 1]\n\n[[piece]]\nname = \"L\"\n\
         cells = [[0,0,0], [1,0,0], [0,1,0]]\ncount = 3\n",
    )
    .unwrap();
    let o = polycover(&["sample", l3.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(20), "{}", stderr(&o));
    assert!(stderr(&o).contains("c no solution to draw"));
    assert!(stdout(&o).is_empty());
}

/// A box whose memo table cannot fit the budget is refused before any work, as `count`
/// refuses it: the 6x6x6 cube of dominoes (a frontier of 29 cells) ran its count for
/// ever before; and nothing is written.
#[test]
fn a_box_past_the_memory_budget_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let cube = dir.path().join("cube.toml");
    std::fs::write(
        &cube,
        "name = \"dominoes 6x6x6\"\nbox = [6, 6, 6]\n\n[[piece]]\nname = \"D\"\n\
         cells = [[0,0,0], [1,0,0]]\ncount = 108\n",
    )
    .unwrap();
    let out = dir.path().join("drawn.jsonl");
    let o = polycover(&[
        "sample",
        cube.to_str().unwrap(),
        "--memory",
        "1G",
        // Without the refusal the count would run for ever: the timeout ends it (exit 1).
        "--timeout",
        "30",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("widest frontier has 29 cells"),
        "{}",
        stderr(&o)
    );
    assert!(!out.exists());
}
