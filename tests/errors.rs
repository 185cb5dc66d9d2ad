//! Bad input: each case gets one clear message naming the file, the line where there is
//! one, the piece where there is one, and the reason; exit code 2; no panic.

use crate::common::*;

fn fixture(name: &str) -> String {
    format!(
        "{}/tests/fixtures/bad/{name}",
        concat!(env!("CARGO_MANIFEST_DIR"), "/..")
    )
}

/// Runs `count` on a bad file and checks the exit code and that the one error line
/// contains every expected fragment.
fn rejects(file: &str, fragments: &[&str]) {
    rejects_path(&fixture(file), fragments);
}

/// [`rejects`] for a puzzle file of `text`, written to a temporary directory.
fn rejects_text(text: &str, fragments: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("puzzle.toml");
    std::fs::write(&path, text).unwrap();
    rejects_path(path.to_str().unwrap(), fragments);
}

fn rejects_path(path: &str, fragments: &[&str]) {
    let file = path;
    let out = polycover(&["count", path]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{file}: {err}");
    assert!(!err.contains("panicked"), "{file} panicked: {err}");
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "{file}: one line expected: {err}"
    );
    assert!(
        err.contains(path),
        "{file}: message does not name the file: {err}"
    );
    for f in fragments {
        assert!(err.contains(f), "{file}: message lacks {f:?}: {err}");
    }
    assert!(stdout(&out).is_empty(), "{file}: nothing on stdout");
}

#[test]
fn unknown_key() {
    rejects("unknown-key.toml", &[":3:", "unknown field `mirorr`"]);
}

#[test]
fn missing_key() {
    rejects("missing-key.toml", &["missing field `name`"]);
}

#[test]
fn toml_syntax_error() {
    rejects("syntax.toml", &[":3:1:", "expected `,`"]);
}

#[test]
fn cell_not_an_integer_triple() {
    rejects("not-a-triple.toml", &[":6:", "piece d", "integer triple"]);
}

#[test]
fn absurd_coordinate() {
    rejects("huge-coordinate.toml", &[":6:", "piece d", "out of range"]);
}

#[test]
fn duplicate_cell() {
    rejects(
        "duplicate-cell.toml",
        &[":6:", "piece d", "duplicate cell [0, 0, 0]"],
    );
}

#[test]
fn piece_not_face_connected() {
    rejects(
        "disconnected.toml",
        &[":10:", "piece s", "not face-connected"],
    );
}

#[test]
fn cells_do_not_add_up() {
    rejects(
        "wrong-volume.toml",
        &["the pieces have 2 cells but the target has 3"],
    );
}

#[test]
fn piece_fits_nowhere() {
    rejects("fits-nowhere.toml", &[":5:", "piece I", "fits nowhere"]);
}

#[test]
fn duplicate_names() {
    rejects(
        "duplicate-name.toml",
        &[":9:", "piece a", "duplicate piece name", ":5"],
    );
}

#[test]
fn empty_file() {
    rejects("empty.toml", &["empty"]);
}

#[test]
fn not_utf8() {
    rejects("not-utf8.toml", &[":1", "not UTF-8"]);
}

#[test]
fn file_that_does_not_exist() {
    rejects("no-such-file.toml", &["cannot read", "no such file"]);
}

#[test]
fn unknown_catalog_name() {
    let out = polycover(&["count", "no-such-puzzle"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no puzzle file or catalog entry named \"no-such-puzzle\""));
}

#[test]
fn reflections_of_a_chiral_set() {
    let out = polycover(&["count", "bedlam", "--symmetry", "reflections"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("own mirror image"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn cube_with_the_wrong_number_of_faces() {
    rejects("cubes-wrong-length.toml", &[":4:", "cube 2", "has 5 faces"]);
}

#[test]
fn more_cubes_than_colour_letters() {
    rejects("cubes-too-many-colours.toml", &["27 cubes", "at most 26"]);
}

#[test]
fn colour_seen_fewer_than_four_times() {
    rejects(
        "cubes-rare-colour.toml",
        &["colour C appears 3 time(s)", "no solution"],
    );
}

#[test]
fn missing_cubes_key() {
    rejects("cubes-missing.toml", &["missing field `cubes`"]);
}

#[test]
fn colour_that_is_not_a_letter() {
    rejects(
        "cubes-not-a-letter.toml",
        &[":3:", "cube 2", "not a capital letter"],
    );
}

#[test]
fn count_range_min_over_max() {
    rejects(
        "count-min-over-max.toml",
        &[":6:", "piece d", "count [3, 1]: min is greater than max"],
    );
}

#[test]
fn no_counts_reach_the_target_cells() {
    rejects(
        "unreachable-volume.toml",
        &[
            "no choice of piece counts fills the target",
            "between 4 and 5 cells",
            "d:0-1x2",
        ],
    );
}

#[test]
fn a_colour_no_target_cell_has() {
    rejects(
        "unknown-colour.toml",
        &[
            ":9:",
            "piece d",
            "colour green: no cell of the target has it",
            "red",
        ],
    );
}

#[test]
fn an_optional_cell_outside_the_target() {
    rejects(
        "optional-outside.toml",
        &[":3:13:", "[5, 0, 0] is not a cell of the target"],
    );
}

#[test]
fn a_piece_colours_a_cell_it_lacks() {
    rejects(
        "colour-cell-not-in-piece.toml",
        &[":9:8:", "piece d", "[0, 1, 0] is not a cell of the piece"],
    );
}

/// A solution of `name` as one solver answer (`s SATISFIABLE` and a `v` line of its
/// primary variables).
fn answer_of(name: &str) -> String {
    let p = polycover::Problem::load(name, None).unwrap();
    let (first, _) = p
        .first(&polycover::Engine::dlx(), &polycover::RunOptions::default())
        .unwrap();
    let lits = model_literals(p.matrix().num_options(), &first.unwrap());
    format!("s SATISFIABLE\nv {lits} 0\n")
}

/// An answer with fewer variables than the puzzle's primary ones (Soma's, read as
/// Bedlam's) is a model of another formula too, not "primary variables unassigned".
#[test]
fn a_model_of_a_smaller_puzzle_is_one_of_another_formula() {
    let dir = tempfile::tempdir().unwrap();
    let soma = dir.path().join("soma.answer");
    std::fs::write(&soma, answer_of("soma")).unwrap();
    let out = polycover(&["decode", "bedlam", "--model", soma.to_str().unwrap()]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("the model has 688 variables")
            && err.contains("4188 primary variables")
            && err.contains("a model of another formula"),
        "{err}"
    );
    assert!(!err.contains("unassigned"), "{err}");
}

/// A solver that stopped (`s UNKNOWN`) gave no answer: exit 1, as for polycover's own
/// stopped runs, not 0.
#[test]
fn an_unknown_answer_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let unknown = dir.path().join("unknown.answer");
    std::fs::write(&unknown, "c stopped by a limit\ns UNKNOWN\n").unwrap();
    let out = polycover(&["decode", "soma", "--model", unknown.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().last(), Some("s UNKNOWN"));
}

/// A gzip answer of 1.1 MB that inflates past 1 GiB (of newlines) is refused at the
/// documented limit for answers, exit 2, naming the file and the limit.
#[test]
fn a_gzip_bomb_is_refused_at_the_answer_limit() {
    let dir = tempfile::tempdir().unwrap();
    // One gzip member of 1 MiB, repeated: a gzip file may hold many members.
    let member = {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        std::io::Write::write_all(&mut gz, &vec![b'\n'; 1 << 20]).unwrap();
        gz.finish().unwrap()
    };
    let bomb = dir.path().join("bomb.answer.gz");
    std::fs::write(&bomb, member.repeat(1100)).unwrap();
    let out = polycover(&["decode", "soma", "--model", bomb.to_str().unwrap()]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("bomb.answer.gz") && err.contains("more than 1 GiB"),
        "{err}"
    );
}

#[test]
fn expect_count_not_a_number() {
    rejects(
        "expect-not-a-count.toml",
        &[":7:", "a count is decimal digits only", "about 2"],
    );
}

/// A count in `[expect]` may be a string of digits (for counts past 2^63 - 1), and is
/// checked like any other.
#[test]
fn expect_count_as_digits() {
    let path = format!(
        "{}/tests/fixtures/big-expect.toml",
        concat!(env!("CARGO_MANIFEST_DIR"), "/..")
    );
    let out = polycover(&["count", &path, "--symmetry", "none"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("c expected 2 (matches)\ns mc 2\n"),
        "{}",
        stdout(&out)
    );
}

/// Issue 46, defect 15a: a count past what a TOML integer holds is out of range, said at
/// its line with the range allowed, not "invalid type: integer ... as i128".
#[test]
fn a_huge_count_is_out_of_range_at_its_line() {
    rejects_text(
        "name = \"x\"\nbox = [2, 1, 1]\n[[piece]]\nname = \"d\"\n\
         cells = [[0,0,0],[1,0,0]]\ncount = 99999999999999999999\n",
        &[
            ":6:9:",
            "piece d: count 99999999999999999999 is out of range",
            "between 1 and 4096",
        ],
    );
}

/// Defect 15a, every integer key of a polycube file: an integer too large for TOML (past
/// 2^63 - 1, past 2^64 - 1, past 2^128) gets the key's own range at its line.
#[test]
fn huge_integers_of_every_key_are_out_of_range_at_their_line() {
    let pieces = "[[piece]]\nname = \"d\"\ncells = [[0,0,0],[1,0,0]]\n";
    for n in [
        "9999999999999999999",
        "99999999999999999999",
        "-99999999999999999999",
        "9999999999999999999999999999999999999999999",
    ] {
        let cases = [
            (
                format!("name = \"x\"\nbox = [2, {n}, 1]\n{pieces}"),
                ":2:11:",
                format!("`box` size {n} is out of range: sizes are between 1 and 1024"),
            ),
            (
                format!("name = \"x\"\nbox = [2, 1, 1]\n{pieces}count = [0, {n}]\n"),
                ":6:13:",
                format!("piece d: count {n} is out of range"),
            ),
            (
                format!(
                    "name = \"x\"\nbox = [2, 1, 1]\n[[piece]]\nname = \"d\"\n\
                     cells = [[0,0,0],[1,{n},0]]\n"
                ),
                ":5:21:",
                format!("piece d: coordinate {n} is out of range (at most 1024"),
            ),
            (
                format!("name = \"x\"\ntarget = [[0,0,0],[{n},0,0]]\n{pieces}"),
                ":2:20:",
                format!("target: coordinate {n} is out of range"),
            ),
            (
                format!("name = \"x\"\nbox = [2, 1, 1]\nholes = [[{n},0,0]]\n{pieces}"),
                ":3:11:",
                format!("holes: coordinate {n} is out of range"),
            ),
            (
                format!("name = \"x\"\nbox = [2, 1, 1]\noptional = [[0,{n},0]]\n{pieces}"),
                ":3:16:",
                format!("optional: coordinate {n} is out of range"),
            ),
            (
                format!("name = \"x\"\nbox = [2, 1, 1]\n[colors]\nred = [[{n},0,0]]\n{pieces}"),
                ":4:9:",
                format!("colors.red: coordinate {n} is out of range"),
            ),
            (
                format!(
                    "name = \"x\"\nbox = [2, 1, 1]\n[colors]\nred = [[0,0,0]]\n{pieces}\
                     colors = {{ red = [[0,0,{n}]] }}\n"
                ),
                ":8:24:",
                format!("piece d: coordinate {n} is out of range"),
            ),
        ];
        for (text, at, message) in &cases {
            rejects_text(text, &[at, message]);
        }
    }
}

/// Defect 15a: an `[expect]` count past 2^63 - 1 is told to be written as a string of
/// digits (which `[expect]` reads), at its line.
#[test]
fn a_huge_expect_count_is_told_to_be_a_string() {
    rejects_text(
        "name = \"x\"\nbox = [2, 1, 1]\n[expect]\nrotations = 99999999999999999999\n\
         [[piece]]\nname = \"d\"\ncells = [[0,0,0],[1,0,0]]\n",
        &[
            ":4:13:",
            "[expect] rotations = 99999999999999999999: too large for a TOML integer",
            "rotations = \"99999999999999999999\"",
        ],
    );
}

/// Defect 15a, negative and fractional values: a count range whose max is negative is
/// out of range (not "min is greater than max"), a fractional `box` size is shown, and
/// the most negative TOML integer is no coordinate 0.
#[test]
fn negative_and_fractional_values_get_clear_messages() {
    let pieces = "[[piece]]\nname = \"d\"\ncells = [[0,0,0],[1,0,0]]\n";
    rejects_text(
        &format!("name = \"x\"\nbox = [2, 1, 1]\n{pieces}count = [0, -5]\n"),
        &[
            ":6:",
            "piece d: count must be an integer between 1 and 4096",
            "found [0, -5]",
        ],
    );
    rejects_text(
        &format!("name = \"x\"\nbox = [2, 2.5, 1]\n{pieces}"),
        &[
            ":2:",
            "`box` must be three integers [x, y, z], found [2, 2.5, 1]",
        ],
    );
    rejects_text(
        "name = \"x\"\nbox = [2, 1, 1]\n[[piece]]\nname = \"d\"\n\
         cells = [[0,0,0],[-9223372036854775808,0,0]]\n",
        &[
            ":5:",
            "piece d: coordinate -9223372036854775808 is out of range",
        ],
    );
}

/// The fourth round's small things: a checkpoint in a missing directory is refused before
/// any work with exit 2, as `-o` is; `info`'s `catalog:NAME.toml` is a name `count` takes;
/// a duplicate TOML key is named; `--sat-option =` says the name is missing.
#[test]
fn small_refusals_say_what_is_wrong() {
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("no/such/dir/cp");
    let missing = missing.to_str().unwrap();
    let out_file = tmp.path().join("out.txt");
    for args in [
        vec!["count", "soma", "--checkpoint", missing],
        vec![
            "enumerate",
            "soma",
            "-o",
            out_file.to_str().unwrap(),
            "--checkpoint",
            missing,
        ],
    ] {
        let o = polycover(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("does not exist"), "{}", stderr(&o));
    }
    let o = polycover(&["count", "catalog:soma.toml", "--symmetry", "none"]);
    assert!(stdout(&o).contains("s mc 11520"), "{}", stderr(&o));
    let dup = tmp.path().join("dup.toml");
    std::fs::write(&dup, "name = \"a\"\nname = \"b\"\nbox = [1, 1, 1]\n").unwrap();
    let o = polycover(&["count", dup.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains(":2:1: duplicate key `name`"),
        "{}",
        stderr(&o)
    );
    let o = polycover(&["count", "soma", "--solver", "sat", "--sat-option", "="]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("has no option name before `=`"),
        "{}",
        stderr(&o)
    );
}
