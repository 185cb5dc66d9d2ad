//! Damaged inputs and runs that must not change the answer silently (issue 34, defects 5,
//! 6, 11 and 20): a cut part file or `c part` line, a checkpoint with a repeated or
//! foreign subproblem, a checkpoint that changed the engine, `bench` with a missing
//! external solver or stopped by SIGTERM, and a range piece that fits nowhere.
//! Each test takes a few seconds at most.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::common::*;

/// Runs `enumerate soma --part K/2` for both parts into `dir`, returning the files that
/// hold each part's `c part` line, and the parts' solution files.
fn soma_parts(dir: &Path, format: &str) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let mut results = Vec::new();
    let mut files = Vec::new();
    for k in 1..=2 {
        let file = dir.join(format!("part{k}.{format}"));
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
        let result = dir.join(format!("part{k}.{format}.result"));
        std::fs::write(&result, out.stdout).unwrap();
        results.push(result);
        files.push(file);
    }
    (results, files)
}

/// Defect 5: a part's file whose last record is cut (anywhere: in a line, after a line,
/// after its `solution N`) is refused, naming the file and line, with exit 2 and no
/// joined file; so is a `c part` line cut short. Before, `merge` printed `s mc 480`.
#[test]
fn merge_refuses_a_part_whose_last_record_is_cut() {
    let dir = tempfile::tempdir().unwrap();
    for format in ["text", "jsonl"] {
        let (results, files) = soma_parts(dir.path(), format);
        let whole = std::fs::read(&files[1]).unwrap();
        let joined = dir.path().join(format!("all.{format}"));
        let out = merge(&results, Some(&joined));
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert!(stdout(&out).ends_with("s mc 480\n"));
        std::fs::remove_file(&joined).unwrap();

        let text = String::from_utf8(whole.clone()).unwrap();
        // Where the last record starts, and cuts inside it.
        let last = match format {
            "text" => text.rfind("solution ").unwrap(),
            _ => text[..text.len() - 1].rfind('\n').unwrap() + 1,
        };
        let header_end = last + text[last..].find('\n').unwrap() + 1;
        let mut cuts = vec![whole.len() - 1, whole.len() - 5, (last + whole.len()) / 2];
        if format == "text" {
            // Cut to its header alone, and just before the empty line that ends it.
            cuts.extend([header_end, whole.len() - 1]);
        }
        for cut in cuts {
            std::fs::write(&files[1], &whole[..cut]).unwrap();
            for output in [Some(joined.as_path()), None] {
                let out = merge(&results, output);
                let err = stderr(&out);
                assert_eq!(out.status.code(), Some(2), "{format} cut at {cut}: {err}");
                assert!(!stdout(&out).contains("s mc"), "{}", stdout(&out));
                let name = files[1].display().to_string();
                assert!(err.contains(&format!("{name}:")), "{err}");
                assert!(err.contains("damaged"), "{err}");
                assert!(
                    !joined.exists(),
                    "a damaged merge wrote {}",
                    joined.display()
                );
            }
        }
        std::fs::write(&files[1], &whole).unwrap();

        // A `c part` line without its newline: cut somewhere, perhaps in its path.
        let result = std::fs::read_to_string(&results[1]).unwrap();
        std::fs::write(&results[1], result.trim_end()).unwrap();
        let out = merge(&results, None);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(stderr(&out).contains("cut short"), "{}", stderr(&out));
        std::fs::write(&results[1], result).unwrap();
    }
    // A count's `c part` line cut short: `solutions 242` cut to `solutions 24` still
    // reads as a number.
    let mut results = Vec::new();
    for k in 1..=2 {
        let part = format!("{k}/2");
        let out = polycover(&["count", "soma", "--part", &part]);
        let line = stdout(&out)
            .lines()
            .find(|l| l.starts_with("c part "))
            .unwrap()
            .to_string();
        let path = dir.path().join(format!("count{k}.result"));
        let text = if k == 2 {
            &line[..line.len() - 1]
        } else {
            &line
        };
        std::fs::write(&path, format!("{text}{}", if k == 2 { "" } else { "\n" })).unwrap();
        results.push(path);
    }
    let out = merge(&results, None);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("count2.result:1:"),
        "{}",
        stderr(&out)
    );
}

/// Issue 46, 10: a part whose content was edited is refused by its checksum, exit 2,
/// naming its file: a count's figure (5742 made 15742 merged into `s mc 21520`), and one
/// piece letter in a record, which still reads as a whole record of the right number
/// (the part's file was joined and written as it was).
#[test]
fn merge_refuses_a_part_whose_content_was_edited() {
    let dir = tempfile::tempdir().unwrap();
    let mut results = Vec::new();
    for k in 1..=2 {
        let part = format!("{k}/2");
        let out = polycover(&["count", "soma", "--symmetry", "none", "--part", &part]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let path = dir.path().join(format!("count{k}.result"));
        std::fs::write(&path, out.stdout).unwrap();
        results.push(path);
    }
    let out = merge(&results, None);
    assert!(stdout(&out).ends_with("s mc 11520\n"), "{}", stdout(&out));
    let text = std::fs::read_to_string(&results[0]).unwrap();
    let line = text.find("c part ").unwrap();
    let at = line + text[line..].find(" solutions ").unwrap() + " solutions ".len();
    let edited = format!("{}1{}", &text[..at], &text[at..]);
    std::fs::write(&results[0], edited).unwrap();
    let out = merge(&results, None);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(!stdout(&out).contains("s mc"), "{}", stdout(&out));
    let name = results[0].display().to_string();
    assert!(
        err.contains(&format!("{name}:")) && err.contains("checksum"),
        "{err}"
    );

    for format in ["jsonl", "text"] {
        let (results, files) = soma_parts(dir.path(), format);
        let joined = dir.path().join(format!("all.{format}"));
        let whole = std::fs::read_to_string(&files[0]).unwrap();
        // One piece's letter in the first record: a `"piece":"V"` of JSON lines, a cell
        // of a text record's layers.
        let edited = match format {
            "jsonl" => {
                let at = whole.find("\"piece\":\"").unwrap() + "\"piece\":\"".len();
                let letter = &whole[at..at + 1];
                let other = if letter == "A" { "B" } else { "A" };
                format!("{}{other}{}", &whole[..at], &whole[at + 1..])
            }
            _ => {
                let at = whole.find('\n').unwrap() + 1;
                let letter = &whole[at..at + 1];
                let other = if letter == "A" { "B" } else { "A" };
                format!("{}{other}{}", &whole[..at], &whole[at + 1..])
            }
        };
        assert_ne!(edited, whole);
        std::fs::write(&files[0], edited).unwrap();
        for output in [Some(joined.as_path()), None] {
            let out = merge(&results, output);
            let err = stderr(&out);
            assert_eq!(out.status.code(), Some(2), "{format}: {err}");
            assert!(!stdout(&out).contains("s mc"), "{}", stdout(&out));
            let name = files[0].display().to_string();
            assert!(
                err.contains(&format!("{name}: ")) && err.contains("checksum"),
                "{format}: {err}"
            );
            assert!(
                !joined.exists(),
                "an edited part was joined into {}",
                joined.display()
            );
        }
    }
}

/// Defect 6: a checkpoint with a subproblem twice (`done 0 5` appended to Soma's
/// `--symmetry none` checkpoint gave `s mc 11525`, not 11520), a subproblem of another
/// part, an output offset in a count's checkpoint, or a cut last line is refused,
/// naming the line, with exit 2.
#[test]
fn a_damaged_checkpoint_is_refused_naming_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let cp = dir.path().join("soma.cp");
    let cp_arg = cp.to_str().unwrap();
    let args = [
        "count",
        "soma",
        "--symmetry",
        "none",
        "--part",
        "1/2",
        "--checkpoint",
        cp_arg,
    ];
    let out = polycover(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let good = std::fs::read_to_string(&cp).unwrap();
    let lines = good.lines().count();
    let first_done = good.lines().position(|l| l.starts_with("done ")).unwrap() + 1;
    let damages: [(&str, String, usize, &str); 5] = [
        (
            "a subproblem twice",
            good.clone() + "done 0 5\n",
            lines + 1,
            "recorded twice",
        ),
        (
            "the same line twice",
            good.clone() + good.lines().last().unwrap() + "\n",
            lines + 1,
            "recorded twice",
        ),
        (
            "a subproblem of part 2/2",
            good.clone() + "done 1 5\n",
            lines + 1,
            "not in part 1/2",
        ),
        (
            "an offset in a count",
            good.replacen("done 0 0\n", "done 0 0 17\n", 1),
            first_done,
            "offset",
        ),
        (
            "a cut last line",
            good[..good.len() - 1].to_string(),
            lines,
            "cut",
        ),
    ];
    for (what, text, line, says) in damages {
        assert_ne!(text, good, "{what}: the damage changes the file");
        std::fs::write(&cp, &text).unwrap();
        let out = polycover(&args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{what}: {}{err}", stdout(&out));
        assert!(
            !stdout(&out).contains("c part 1/2"),
            "{what}: {}",
            stdout(&out)
        );
        assert!(err.contains(&format!("{cp_arg}:{line}:")), "{what}: {err}");
        assert!(err.contains(says), "{what}: {err}");
        // Refused, and left as it was.
        assert_eq!(std::fs::read_to_string(&cp).unwrap(), text, "{what}");
    }
    std::fs::write(&cp, &good).unwrap();
    let out = polycover(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// Defect 11: `--checkpoint` keeps the engine a plain count takes. The 12x12 dominoes up
/// to rotation are counted by the memo (Burnside's lemma, at once) in a fraction of a
/// second; with a checkpoint the old code took the bitset engine, which does not end
/// (`--timeout` only keeps this test from hanging on it). Then parts of the 8x8 and
/// 12x12 dominoes without symmetry, by the memo, add up to the plain count, and a
/// checkpoint cut back (as by `kill -9`) is finished by the memo.
#[test]
fn checkpoints_and_parts_count_with_the_memo_as_a_plain_count_does() {
    let dir = tempfile::tempdir().unwrap();
    let cp = dir.path().join("d12.cp");
    let cp_arg = cp.to_str().unwrap();
    let plain = polycover(&["count", "dominoes-12x12"]);
    assert!(
        stdout(&plain).contains("c solver frontier"),
        "{}",
        stdout(&plain)
    );
    let want = stdout(&plain)
        .lines()
        .find(|l| l.starts_with("s mc "))
        .unwrap()
        .to_string();
    for _ in 0..2 {
        // The second run finds the count in the checkpoint.
        let out = polycover(&[
            "count",
            "dominoes-12x12",
            "--checkpoint",
            cp_arg,
            "--timeout",
            "30",
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let text = stdout(&out);
        assert!(text.ends_with(&format!("{want}\n")), "{text}");
    }
    let text = std::fs::read_to_string(&cp).unwrap();
    assert!(text.contains("\ntotal 6632560613086062\n"), "{text}");

    for (puzzle, expect) in [
        ("dominoes-8x8", 12_988_816u128),
        ("dominoes-12x12", 53_060_477_521_960_000),
    ] {
        let mut sum = 0u128;
        for k in 1..=3 {
            let part = format!("{k}/3");
            let out = polycover(&["count", puzzle, "--symmetry", "none", "--part", &part]);
            assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
            let text = stdout(&out);
            assert!(text.contains("c solver frontier"), "{text}");
            let line = text.lines().find(|l| l.starts_with("c part ")).unwrap();
            sum += line.rsplit(' ').next().unwrap().parse::<u128>().unwrap();
        }
        assert_eq!(sum, expect, "{puzzle}");
    }

    // A checkpoint of half the subproblems, as a killed run leaves it: the memo
    // counts the rest, and the total is the plain count.
    let cp = dir.path().join("d12-none.cp");
    let cp_arg = cp.to_str().unwrap();
    let args = [
        "count",
        "dominoes-12x12",
        "--symmetry",
        "none",
        "--checkpoint",
        cp_arg,
    ];
    let out = polycover(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(&cp).unwrap();
    let done = text.lines().filter(|l| l.starts_with("done ")).count();
    assert!(done > 100, "{text}");
    let mut kept = 0;
    let half: String = text
        .lines()
        .filter(|l| {
            !l.starts_with("done ") || {
                kept += 1;
                kept <= done / 2
            }
        })
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&cp, half).unwrap();
    let out = polycover(&args);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // The default with a checkpoint is the memo: the frontier's layers are not
    // subproblems a checkpoint records.
    assert!(text.contains("c solver memo"), "{text}");
    assert!(
        text.contains(&format!("{} of {done} subproblems done before", done / 2)),
        "{text}"
    );
    assert!(text.ends_with("s mc 53060477521960000\n"), "{text}");
}

/// Defect 20: an `--external` solver that cannot be started is an error before any
/// measuring (exit 2), not a skipped row with exit 0.
#[test]
fn bench_refuses_an_external_solver_that_cannot_start() {
    for command in ["bad=polycover-no-such-solver", "bad=/no/such/solver -q"] {
        let out = polycover(&["bench", "soma", "--solvers", "dlx", "--external", command]);
        let err = stderr(&out);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{command}: {}{err}",
            stdout(&out)
        );
        assert!(
            err.contains("--external bad") && err.contains("cannot be started"),
            "{err}"
        );
        assert_eq!(stdout(&out), "", "nothing measured");
    }
}

/// Defect 20: SIGTERM during `bench` writes the CSV of the rows measured so far (the
/// DLX's), atomically, and ends with 143; the running external solver (a `sleep`) is
/// stopped with it. Before, every row was lost. The limit only guards against a hang.
#[test]
fn sigterm_during_bench_keeps_the_rows_measured() {
    use std::io::BufRead;
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("rows.csv");
    let mut child = spawn(&[
        "bench",
        "soma",
        "--solvers",
        "dlx",
        "--external",
        "slow=sh -c 'sleep 60' sh",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    // The DLX's row comes first; the external solver then sleeps.
    let row = lines
        .by_ref()
        .map(|l| l.unwrap())
        .find(|l| l.starts_with("Soma cube") && l.contains("dlx"))
        .expect("the DLX row");
    assert!(row.contains("solutions 480"), "{row}");
    std::thread::sleep(Duration::from_millis(300));
    signal(&child, "TERM");
    let status = wait_at_most(&mut child, Duration::from_secs(20)).expect("bench ends");
    let rest: Vec<String> = lines.map(|l| l.unwrap()).collect();
    assert_eq!(status.code(), Some(143), "{rest:?}");
    assert!(
        rest.iter().any(|l| l.contains("stopped by SIGTERM")),
        "{rest:?}"
    );
    let rows = csv_rows(&csv);
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["engine"], "dlx");
    assert_eq!(rows[0]["solutions"], "480");
    assert_eq!(
        file_names(dir.path()),
        ["rows.csv"],
        "no temporary file left"
    );
}

/// Defect 20: a piece with `count = [0, k]` that fits nowhere (a tromino in a 2x2
/// square) is left out of every solution, not refused.
#[test]
fn a_range_piece_that_fits_nowhere_is_left_out() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("square.toml");
    let puzzle = "name = \"square\"\nbox = [2, 2, 1]\n\n\
                  [[piece]]\nname = \"D\"\ncells = [[0,0,0], [1,0,0]]\ncount = 2\n\n\
                  [[piece]]\nname = \"I\"\ncells = [[0,0,0], [1,0,0], [2,0,0]]\n\
                  count = [0, 2]\n";
    std::fs::write(&file, puzzle).unwrap();
    let path = file.to_str().unwrap();
    for (solver, mode, want) in [
        ("bits", "rotations", "1"),
        ("dlx", "none", "2"),
        ("sat", "rotations", "1"),
    ] {
        let out = polycover(&["count", path, "--solver", solver, "--symmetry", mode]);
        assert_eq!(out.status.code(), Some(0), "{solver}: {}", stderr(&out));
        assert!(
            stdout(&out).ends_with(&format!("s mc {want}\n")),
            "{}",
            stdout(&out)
        );
    }
    // A piece that must be used and fits nowhere is still refused (one optional cell
    // lets the tromino pass the volume check).
    let must = "name = \"square\"\nbox = [2, 2, 1]\noptional = [[1, 1, 0]]\n\n\
                [[piece]]\nname = \"D\"\ncells = [[0,0,0], [1,0,0]]\ncount = [0, 2]\n\n\
                [[piece]]\nname = \"I\"\ncells = [[0,0,0], [1,0,0], [2,0,0]]\n";
    std::fs::write(&file, must).unwrap();
    let out = polycover(&["count", path]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(stderr(&out).contains("fits nowhere"), "{}", stderr(&out));
}
