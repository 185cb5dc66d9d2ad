//! Property-based tests (proptest): no input panics the parsers or the answer reader,
//! DIMACS and models round-trip, and random valid puzzles count the same with every
//! native engine, with SAT, and by brute force.
//!
//! CI runs the default number of cases below (thousands for the cheap properties). A
//! longer run: `PROPTEST_CASES=100000 cargo test --release properties` (docs/guide/development.md).

use std::io::BufReader;

use proptest::prelude::*;

use polycover::sat::Amo;
use polycover::sat::{Answer, Projection};
use polycover::{Engine, Puzzle, RunOptions, SymmetryMode};

use crate::common::*;

/// The number of cases: `PROPTEST_CASES` when set, else `default`.
fn cases(default: u32) -> ProptestConfig {
    let n = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default);
    ProptestConfig {
        cases: n,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// A catalog file's text, mutated: a few random edits (delete, insert, replace a number).
fn mutated() -> impl Strategy<Value = String> {
    let names: Vec<&'static str> = polycover::CatalogEntry::all()
        .iter()
        .map(|e| e.text)
        .collect();
    (
        proptest::sample::select(names),
        proptest::collection::vec((any::<u16>(), 0..4u8, any::<i32>(), "[ -~\n]{0,6}"), 1..5),
    )
        .prop_map(|(text, edits)| {
            let mut s: Vec<char> = text.chars().collect();
            for (at, kind, number, insert) in edits {
                if s.is_empty() {
                    break;
                }
                let at = at as usize % s.len();
                match kind {
                    0 => {
                        let end = (at + 1 + (number.unsigned_abs() as usize % 12)).min(s.len());
                        s.drain(at..end);
                    }
                    1 => {
                        s.splice(at..at, insert.chars());
                    }
                    _ => {
                        // Replace the number that starts at or after `at`, if any.
                        if let Some(start) = (at..s.len()).find(|&k| s[k].is_ascii_digit()) {
                            let end = (start..s.len())
                                .find(|&k| !s[k].is_ascii_digit())
                                .unwrap_or(s.len());
                            let value = if kind == 2 { number % 9 } else { number };
                            s.splice(start..end, value.to_string().chars());
                        }
                    }
                }
            }
            s.into_iter().collect()
        })
}

/// A random valid polycube puzzle: a small box cut into random face-connected pieces.
fn random_puzzle() -> impl Strategy<Value = String> {
    // At most 12 cells and pieces of 2 to 5 cells: at most six pieces, so that the brute
    // force (which keeps every solution) stays small. Eighteen monocubes would have 18!.
    (1..=3i32, 1..=3i32, 1..=2i32, any::<u64>())
        .prop_filter("at most 12 cells", |(x, y, z, _)| x * y * z <= 12)
        .prop_map(|(x, y, z, seed)| {
            let mut state = seed | 1;
            let mut next = move |n: usize| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state % n as u64) as usize
            };
            let cells: Vec<[i32; 3]> = (0..z)
                .flat_map(|k| (0..y).flat_map(move |j| (0..x).map(move |i| [i, j, k])))
                .collect();
            let mut owner = vec![usize::MAX; cells.len()];
            let neighbours =
                |a: [i32; 3], b: [i32; 3]| (0..3).map(|d| (a[d] - b[d]).abs()).sum::<i32>() == 1;
            let mut pieces: Vec<Vec<usize>> = Vec::new();
            while let Some(start) = (0..cells.len()).find(|&c| owner[c] == usize::MAX) {
                let id = pieces.len();
                owner[start] = id;
                let mut piece = vec![start];
                let size = 2 + next(4);
                while piece.len() < size {
                    let frontier: Vec<usize> = (0..cells.len())
                        .filter(|&c| owner[c] == usize::MAX)
                        .filter(|&c| piece.iter().any(|&p| neighbours(cells[p], cells[c])))
                        .collect();
                    if frontier.is_empty() {
                        break;
                    }
                    let c = frontier[next(frontier.len())];
                    owner[c] = id;
                    piece.push(c);
                }
                pieces.push(piece);
            }
            let mut text = format!("name = \"random\"\nbox = [{x}, {y}, {z}]\n");
            for (k, piece) in pieces.iter().enumerate() {
                let name = (b'A' + k as u8) as char;
                let shape: Vec<String> = piece
                    .iter()
                    .map(|&c| format!("[{},{},{}]", cells[c][0], cells[c][1], cells[c][2]))
                    .collect();
                text += &format!(
                    "[[piece]]\nname = \"{name}\"\ncells = [{}]\n",
                    shape.join(", ")
                );
            }
            text
        })
}

proptest! {
    #![proptest_config(cases(3000))]

    /// Any bytes, as a puzzle file of either kind: an error or a puzzle, never a panic.
    #[test]
    fn the_parser_takes_any_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = Puzzle::parse("fuzz.toml", &text);
        let _ = Puzzle::parse("fuzz.toml", &format!("kind = \"colored-cubes\"\n{text}"));
    }

    /// Any mix of answer-like lines: an error or answers, never a panic.
    #[test]
    fn the_answer_reader_takes_any_lines(
        lines in proptest::collection::vec(
            prop_oneof![
                Just("s SATISFIABLE".to_string()),
                Just("s UNSATISFIABLE".to_string()),
                Just("s UNKNOWN".to_string()),
                "s [A-Z]{0,12}",
                "c [ -~]{0,20}",
                proptest::collection::vec(-40i64..40, 0..8)
                    .prop_map(|v| format!("v {}", v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" "))),
                "[ -~]{0,20}",
            ],
            0..12,
        )
    ) {
        let text = lines.join("\n");
        if let Ok(answers) = Answer::parse_all(BufReader::new(text.as_bytes()), "fuzz") {
            prop_assert!(!answers.is_empty());
        }
    }
}

proptest! {
    #![proptest_config(cases(1000))]

    /// Mutated catalog files: parsed, and when they still describe a puzzle, compiled in
    /// every mode the kind accepts, without a panic.
    #[test]
    fn mutated_files_never_panic(text in mutated()) {
        if let Ok(p) = Puzzle::parse("mutated.toml", &text) {
            for &mode in p.symmetry_modes() {
                let _ = p.compile(mode);
            }
        }
    }

    /// Random valid puzzles count the same with both native engines and by brute force,
    /// with and without symmetry; every solution round-trips as a SAT model.
    #[test]
    fn random_puzzles_count_alike(text in random_puzzle()) {
        let puzzle = Puzzle::parse("random.toml", &text).unwrap();
        for mode in [SymmetryMode::None, SymmetryMode::Rotations] {
            let c = puzzle.compile(mode).unwrap();
            let dlx = count(&c, Engine::dlx(), 1);
            prop_assert_eq!(count(&c, Engine::bits(), 2), dlx, "{}", text);
            let memo = Engine::from_name("memo").unwrap();
            prop_assert_eq!(count(&c, memo, 2), dlx, "memo: {}", text);
            prop_assert_eq!(count_orbits_by_brute_force(&c), dlx, "{}", text);
        }
        let p = puzzle.compile(SymmetryMode::None).unwrap();
        if let (Some(s), _) = p.first(&Engine::dlx(), &RunOptions::default()).unwrap() {
            let lits = model_literals(p.matrix().num_options(), &s);
            let answer = format!("s SATISFIABLE\nv {lits} 0\n");
            let read = Answer::parse(BufReader::new(answer.as_bytes()), "model").unwrap();
            let Answer::Satisfiable(read) = read else { panic!("not satisfiable") };
            prop_assert_eq!(p.matrix().decode_model(&read, "model").unwrap(), s);
        }
    }
}

proptest! {
    #![proptest_config(cases(150))]

    /// SAT agrees on random puzzles too, in a random encoding, and the DIMACS it writes
    /// has the header counts its body has.
    #[test]
    fn random_puzzles_count_alike_through_sat(text in random_puzzle(), amo in 0..6usize) {
        let puzzle = Puzzle::parse("random.toml", &text).unwrap();
        let c = puzzle.compile(SymmetryMode::Rotations).unwrap();
        let dlx = count(&c, Engine::dlx(), 1);
        let amo = Amo::ALL[amo];
        let run = SatRun {
            engine: sat_engine(&[]),
            threads: 1,
            deadline: None,
        };
        prop_assert_eq!(sat_count(&c, amo, &run), dlx, "{}", text);
        let p = c;
        let f = polycover::sat::Formula::of(&p, amo);
        let mut out = Vec::new();
        f.write(&mut out, &p, Projection::Show).unwrap();
        let out = String::from_utf8(out).unwrap();
        let header = out.lines().find(|l| l.starts_with("p cnf ")).unwrap();
        prop_assert_eq!(header, format!("p cnf {} {}", f.num_vars, f.num_clauses()));
        let clauses = out.lines().filter(|l| !l.starts_with('c') && !l.starts_with('p')).count();
        prop_assert_eq!(clauses, f.num_clauses());
        let map = out.lines().filter(|l| l.starts_with("c v ")).count();
        prop_assert_eq!(map, f.num_primary as usize);
    }
}
