//! Hostile inputs a demanding new user tried (odd paths, FIFOs, huge numbers, tiny
//! timeouts, garbage answers), each pinned here after its fix.

use std::time::Duration;

use crate::common::{polycover, rest_of_stderr, signal, spawn, stderr, stdout, wait_at_most, ROOT};

/// Twelve dominoes in a 4x6 box: loads and counts in milliseconds.
const DOMINOES_4X6: &str = "tests/fixtures/dominoes-4x6.toml";

/// `count` and `solve` answer on an `s` line even when `--timeout` passes before the
/// search starts (while the pieces are placed): `s UNKNOWN` and exit 1, as a search the
/// timeout stops, not an error without any `s` line.
#[test]
fn a_timeout_before_the_search_still_ends_on_s_unknown() {
    for command in ["count", "solve"] {
        let o = polycover(&[command, DOMINOES_4X6, "--timeout", "1e-9"]);
        let out = stdout(&o);
        assert_eq!(o.status.code(), Some(1), "{command}: {out}{}", stderr(&o));
        assert_eq!(
            out.lines().last(),
            Some("s UNKNOWN"),
            "{command}: {out}{}",
            stderr(&o)
        );
        assert!(out.contains("c stopped by the timeout"), "{command}: {out}");
        assert!(!out.contains("s mc"), "{command}: {out}");
    }
}

/// `decode` quotes what it could not read, but only the start of it and with control
/// characters escaped: a garbage answer (a megabyte-long token, a line of NUL bytes, a
/// terminal escape) gives a one-line message, not the garbage again on the terminal.
#[test]
fn decode_quotes_a_bad_answer_short_and_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let long = "x".repeat(1 << 20);
    let answers = [
        format!("s SATISFIABLE\nv 1 {long} 0\n"),
        format!("s {long}\n"),
        format!("{long}\n"),
        "\0\0\0\0\n".to_string(),
        "s SATISFIABLE\nv 1 \x1b[31mred 0\n".to_string(),
        "s \x1b]0;title\x07\n".to_string(),
    ];
    for (k, answer) in answers.iter().enumerate() {
        let path = dir.path().join(format!("answer-{k}"));
        std::fs::write(&path, answer).unwrap();
        let o = polycover(&["decode", DOMINOES_4X6, "--model", path.to_str().unwrap()]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "answer {k}: {err}");
        assert!(
            err.len() < 400,
            "answer {k}: {} bytes of message",
            err.len()
        );
        assert!(
            !err.trim_end().chars().any(char::is_control),
            "answer {k}: {err:?}"
        );
    }
}

/// A model of the wrong size is refused with the sizes a model of the puzzle may have:
/// in words that agree with the numbers ("1 variable"), and not as a range that holds
/// the size refused (400 variables refused as "38 to 402 in all").
#[test]
fn decode_names_the_sizes_a_model_may_have() {
    let dir = tempfile::tempdir().unwrap();
    let decode = |name: &str, answer: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, answer).unwrap();
        let o = polycover(&["decode", DOMINOES_4X6, "--model", path.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        stderr(&o)
    };
    let err = decode("one", "s SATISFIABLE\nv 1 0\n");
    assert!(err.contains("the model has 1 variable,"), "{err}");

    // The default CNF of the puzzle has 301 variables: one of the sizes named.
    let err = decode("many", "s SATISFIABLE\nv 400 0\n");
    assert!(err.contains("the model has 400 variables"), "{err}");
    assert!(err.contains("301"), "{err}");
    assert!(!err.contains("38 to 402"), "{err}");
}

/// `design --timeout` bounds the wait for a FIFO output's reader, as `count`, `enumerate`
/// and `sample` do: the design is done in milliseconds, and the run then waited for a
/// reader for ever.
#[test]
fn design_waits_for_a_fifo_reader_only_until_its_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("out.fifo");
    crate::common::mkfifo(&fifo);
    let mut child = spawn(&[
        "design",
        "--box",
        "2,2,3",
        "--pieces",
        "3",
        "--seed",
        "1",
        "-o",
        fifo.to_str().unwrap(),
        "--timeout",
        "2",
    ]);
    let status = wait_at_most(&mut child, Duration::from_secs(30))
        .expect("design -o FIFO --timeout 2 still waited after 30 s");
    let err = rest_of_stderr(&mut child);
    assert_eq!(status.code(), Some(1), "{err}");
    assert!(err.contains("had no reader"), "{err}");
}

/// `export --solution N` stopped by Ctrl-C while it lists the solutions up to N says it
/// was interrupted (exit 130), not that the puzzle has only the solutions seen so far
/// (a usage error, exit 2: "Bedlam cube has only 86 solutions").
#[test]
fn export_solution_interrupted_is_not_a_short_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("pieces.3mf");
    let args = [
        "export",
        "bedlam",
        "--symmetry",
        "none",
        "--format",
        "3mf",
        "--solution",
        "400000",
        "-o",
        out.to_str().unwrap(),
    ];
    let mut child = spawn(&args);
    // Bedlam is read in milliseconds; its 400,000th solution takes a minute to reach.
    std::thread::sleep(Duration::from_millis(1000));
    signal(&child, "INT");
    let status = wait_at_most(&mut child, Duration::from_secs(30)).expect("Ctrl-C ends it");
    let err = rest_of_stderr(&mut child);
    assert_eq!(status.code(), Some(130), "{err}");
    assert!(!err.contains("has only"), "{err}");
    assert!(!out.exists());
}

/// `check` stopped by Ctrl-C during the reference count prints no row for it: its
/// partial count is no count (it printed `c dlx 156`, as if Bedlam had 156 solutions).
#[test]
fn check_interrupted_prints_no_partial_reference_row() {
    let mut child = spawn(&["check", "bedlam"]);
    let out = crate::common::collect(&mut child);
    // Bedlam's reference count takes the DLX seconds.
    std::thread::sleep(Duration::from_millis(700));
    signal(&child, "INT");
    let status = wait_at_most(&mut child, Duration::from_secs(30)).expect("Ctrl-C ends it");
    let out = out.join().unwrap();
    let err = rest_of_stderr(&mut child);
    assert_eq!(status.code(), Some(130), "{out}{err}");
    assert!(!out.contains("c dlx "), "{out}{err}");
}

/// `bench --csv F --svg F` is refused before any run, as `solve --svg F --html F` is: the
/// chart replaced the table in the one file, and the run exited 0.
#[test]
fn bench_refuses_one_file_for_the_table_and_the_chart() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("out");
    let file = file.to_str().unwrap();
    let o = polycover(&[
        "bench",
        DOMINOES_4X6,
        "--solvers",
        "dlx",
        "--csv",
        file,
        "--svg",
        file,
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("the same file"), "{}", stderr(&o));
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
}

/// An output that is the file standard input was redirected from (`enumerate - -o p.toml
/// < p.toml`) is the input too: refused before any work, as `-o` naming the input file
/// is. The puzzle file was replaced by its solutions.
#[test]
fn an_output_that_is_the_redirected_standard_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = dir.path().join("p.toml");
    std::fs::copy(format!("{ROOT}/{DOMINOES_4X6}"), &puzzle).unwrap();
    let before = std::fs::read(&puzzle).unwrap();
    for args in [
        vec!["enumerate", "-", "-o"],
        vec!["dimacs", "-", "-o"],
        vec!["export", "-", "--format", "opb", "-o"],
    ] {
        let mut args: Vec<&str> = args;
        args.push(puzzle.to_str().unwrap());
        let o = crate::common::bin()
            .args(&args)
            .stdin(std::fs::File::open(&puzzle).unwrap())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("is the input"), "{}", stderr(&o));
        assert_eq!(std::fs::read(&puzzle).unwrap(), before, "{args:?}");
    }
}

/// `design`'s progress lines agree with their numbers: "1 move tried", not "1 moves".
#[test]
fn design_says_1_move() {
    let o = polycover(&[
        "design",
        "--box",
        "4,4,4",
        "--pieces",
        "10",
        "--seed",
        "1",
        "--timeout",
        "30",
        // One walk: its progress lines are the same from run to run.
        "--threads",
        "1",
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains(" 1 move tried"), "{err}");
    assert!(!err.contains(" 1 moves"), "{err}");
}

/// Whole-number options past their range say the range, in the words of `--threads` and
/// `--seed` (src/limits.rs), not clap's "number too large to fit in target type" or
/// "is not a whole number" for one that is.
#[test]
fn whole_number_options_name_their_range() {
    let cases: [(&[&str], &str); 5] = [
        (&["enumerate", DOMINOES_4X6, "--limit"], "from 1 to"),
        (&["bench", DOMINOES_4X6, "--repeat"], "from 1 to"),
        (
            &["design", "--box", "2,2,2", "--pieces", "2", "--cap"],
            "from 2 to",
        ),
        (
            &[
                "generate",
                "polycubes",
                "--box",
                "3,3,3",
                "--pieces",
                "5",
                "--unique",
                "--draws",
            ],
            "from 0 to",
        ),
        (
            &["count", DOMINOES_4X6, "--solver", "sat", "--sat-option"],
            "from",
        ),
    ];
    for (args, range) in cases {
        let big = if args.last() == Some(&"--sat-option") {
            "seed=99999999999999999999"
        } else {
            "99999999999999999999"
        };
        let mut args = args.to_vec();
        args.push(big);
        let o = polycover(&args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("whole number") && err.contains(range),
            "{args:?}: {err}"
        );
        assert!(!err.contains("target type"), "{args:?}: {err}");
        assert!(!err.contains("is not a whole number"), "{args:?}: {err}");
    }
}

/// A BurrTools shape whose grid has more cells than a number holds (x = y = 2^32) is
/// refused at its line, exit 2: the coordinate of its first voxel divided by x * y,
/// which had wrapped to 0, and the program panicked. A grid past the 64-bit range is
/// said to be so, not shown with its volume wrapped (4294967295^3 as 12884901887).
#[test]
fn burrtools_grid_past_64_bits_is_refused_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    for (x, y, z) in [
        ("4294967296", "4294967296", "1"),
        ("4294967295", "4294967295", "4294967295"),
    ] {
        let path = dir.path().join("big.xmpuzzle");
        std::fs::write(
            &path,
            format!(
                "<?xml version=\"1.0\"?><puzzle version=\"2\"><gridType type=\"0\"/><colors/>\
                 <shapes><voxel x=\"{x}\" y=\"{y}\" z=\"{z}\" type=\"0\">#</voxel></shapes>\
                 <problems><problem><shapes><shape id=\"0\" count=\"1\"/></shapes>\
                 <result id=\"0\"/></problem></problems></puzzle>"
            ),
        )
        .unwrap();
        for command in ["import", "count"] {
            let o = polycover(&[command, path.to_str().unwrap()]);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{command} {x}x{y}x{z}: {err}");
            assert!(err.contains("big.xmpuzzle:1: shape 1"), "{err}");
            assert!(!err.contains("12884901887"), "{err}");
        }
    }
}

/// `decode --model /dev/zero` (or a plain answer of any size) is read up to the limit a
/// gzip answer has, 1 GiB, and refused past it: it was read into memory until memory ran
/// out (7.8 GB in 6 s here).
#[test]
fn decode_refuses_an_endless_answer() {
    let mut child = crate::common::bin()
        .args(["decode", DOMINOES_4X6, "--model", "/dev/zero"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let status = wait_at_most(&mut child, Duration::from_secs(20))
        .expect("decode --model /dev/zero still read after 20 s");
    let err = rest_of_stderr(&mut child);
    assert_eq!(status.code(), Some(2), "{err}");
    assert!(err.contains("1 GiB"), "{err}");
}

/// `bench -` reads standard input with the 256 MiB limit of every puzzle input: it read
/// /dev/zero into memory until memory ran out (10 GB in 20 s here).
#[test]
fn bench_reads_standard_input_within_the_puzzle_limit() {
    let mut child = crate::common::bin()
        .args(["bench", "-", "--solvers", "dlx"])
        .stdin(std::fs::File::open("/dev/zero").unwrap())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let status = wait_at_most(&mut child, Duration::from_secs(20))
        .expect("bench - < /dev/zero still read after 20 s");
    let err = rest_of_stderr(&mut child);
    assert_eq!(status.code(), Some(2), "{err}");
    assert!(err.contains("256 MiB"), "{err}");
}

/// An external solver that prints without end (`yes`) is read up to the 1 GiB limit of
/// an answer and the bench fails, naming it: its output was kept in memory until the
/// timeout (4 GB in 3 s here, so the default 60 s would fill any machine). The timeout
/// is far above the second `yes` takes to print 1 GiB, so that a loaded machine (where
/// 5 s once ran out first) still reaches the limit; the run ends at the limit.
#[test]
fn bench_keeps_at_most_an_answer_of_an_external_solver() {
    let o = polycover(&[
        "bench",
        DOMINOES_4X6,
        "--solvers",
        "dlx",
        "--external",
        "endless=yes",
        "--timeout",
        "60",
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("printed more than 1 GiB"), "{err}");
}
