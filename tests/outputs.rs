//! Outputs and stops: an output never replaces a device, FIFO, symlink or another file's
//! mode; every output path is checked before the work; SIGTERM and SIGHUP stop a run as
//! Ctrl-C does (whole results kept, no temporary file left, exit 143 and 129); a reader
//! closing the pipe ends the run even inside a long SAT call.

use std::io::{BufRead, BufReader, Read};
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::common::{
    bin, collect, file_names, polycover, rest_of_stderr, signal, stderr, stdout, wait_at_most,
    DOMINOES,
};

/// Every command that writes an output file, with `OUT` where the path goes.
fn writers(puzzle: &str) -> Vec<Vec<String>> {
    let s = |v: &[&str]| v.iter().map(|x| x.replace("PUZZLE", puzzle)).collect();
    vec![
        s(&["dimacs", "PUZZLE", "-o", "OUT"]),
        s(&["enumerate", "PUZZLE", "-o", "OUT"]),
        s(&["export", "PUZZLE", "--format", "opb", "-o", "OUT"]),
        s(&["generate", "colored-cubes", "--cubes", "4", "-o", "OUT"]),
        s(&["bench", "PUZZLE", "--solvers", "dlx", "--csv", "OUT"]),
        s(&["bench", "PUZZLE", "--solvers", "dlx", "--svg", "OUT"]),
        s(&["solve", "PUZZLE", "--svg", "OUT"]),
    ]
}

fn with_out(args: &[String], out: &Path) -> Vec<String> {
    args.iter()
        .map(|a| {
            if a == "OUT" {
                out.display().to_string()
            } else {
                a.clone()
            }
        })
        .collect()
}

fn run(args: &[String]) -> std::process::Output {
    bin().args(args).output().unwrap()
}

/// Files in `dir` other than `keep`: temporary files left behind.
fn leftovers(dir: &Path, keep: &[&str]) -> Vec<String> {
    file_names(dir)
        .into_iter()
        .filter(|n| !keep.contains(&n.as_str()))
        .collect()
}

#[test]
fn a_character_device_is_written_through_not_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = dir.path().join("d.toml");
    std::fs::write(&puzzle, DOMINOES).unwrap();
    // As root (CI), a device node of our own, so that a regression cannot replace the
    // system's /dev/null; elsewhere /dev/null itself, which is then safe from us.
    let device = dir.path().join("null");
    let made = Command::new("mknod")
        .args([device.to_str().unwrap(), "c", "1", "3"])
        .status()
        .is_ok_and(|s| s.success());
    let device = if made {
        device
    } else {
        Path::new("/dev/null").to_path_buf()
    };
    for args in writers(puzzle.to_str().unwrap()) {
        let out = run(&with_out(&args, &device));
        assert!(
            out.status.success() || out.status.code() == Some(10),
            "{args:?}: {}",
            stderr(&out)
        );
        let m = std::fs::metadata(&device).unwrap();
        assert!(
            m.file_type().is_char_device(),
            "{args:?} replaced the device {}",
            device.display()
        );
        assert_eq!(
            leftovers(dir.path(), &["d.toml", "null"]),
            Vec::<String>::new()
        );
    }
}

#[test]
fn a_fifo_gets_the_whole_output_as_a_stream() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = dir.path().join("d.toml");
    std::fs::write(&puzzle, DOMINOES).unwrap();
    let fifo = dir.path().join("fifo");
    crate::common::mkfifo(&fifo);
    for args in writers(puzzle.to_str().unwrap()) {
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || {
                let mut bytes = Vec::new();
                std::fs::File::open(fifo)
                    .unwrap()
                    .read_to_end(&mut bytes)
                    .unwrap();
                bytes
            })
        };
        let out = run(&with_out(&args, &fifo));
        if !(out.status.success() || out.status.code() == Some(10)) {
            // Free the reader, which waits for a writer, before failing.
            drop(std::fs::OpenOptions::new().write(true).open(&fifo));
        }
        assert!(
            out.status.success() || out.status.code() == Some(10),
            "{args:?}: {}",
            stderr(&out)
        );
        let got = reader.join().unwrap();
        assert!(!got.is_empty(), "{args:?}: the FIFO's reader got nothing");
        assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
        assert_eq!(
            leftovers(dir.path(), &["d.toml", "fifo"]),
            Vec::<String>::new()
        );
    }
    // What the FIFO's reader gets is what a file gets.
    let file = dir.path().join("d.cnf");
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(fifo).unwrap())
    };
    let p = puzzle.to_str().unwrap();
    assert!(polycover(&["dimacs", p, "-o", fifo.to_str().unwrap()])
        .status
        .success());
    assert!(polycover(&["dimacs", p, "-o", file.to_str().unwrap()])
        .status
        .success());
    assert_eq!(reader.join().unwrap(), std::fs::read(&file).unwrap());
}

#[test]
fn a_symlink_is_followed_and_a_file_keeps_its_mode() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = dir.path().join("d.toml");
    std::fs::write(&puzzle, DOMINOES).unwrap();
    for args in writers(puzzle.to_str().unwrap()) {
        let target = dir.path().join("target");
        let link = dir.path().join("link");
        std::fs::write(&target, "old").unwrap();
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o640)).unwrap();
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink("target", &link).unwrap();
        let out = run(&with_out(&args, &link));
        assert!(
            out.status.success() || out.status.code() == Some(10),
            "{args:?}: {}",
            stderr(&out)
        );
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_ne!(std::fs::read(&target).unwrap(), b"old", "{args:?}");
        let mode = std::fs::metadata(&target).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640, "{args:?}");
        assert_eq!(
            leftovers(dir.path(), &["d.toml", "target", "link"]),
            Vec::<String>::new()
        );
    }
    // A dangling link makes the file it names.
    let link = dir.path().join("dangling");
    std::os::unix::fs::symlink("made.cnf", &link).unwrap();
    let out = polycover(&[
        "dimacs",
        puzzle.to_str().unwrap(),
        "-o",
        link.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::read_to_string(dir.path().join("made.cnf"))
        .unwrap()
        .starts_with("c "));
}

/// A directory, a name ending in `/`, and a FIFO for a checkpointed enumeration are
/// refused before the search: the Bedlam enumeration below would run for minutes.
#[test]
fn outputs_are_checked_before_the_work() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    let with_slash = format!("{}/", dir.path().join("new").display());
    for (args, says) in [
        (
            vec![
                "enumerate",
                "bedlam",
                "--symmetry",
                "none",
                "-o",
                sub.to_str().unwrap(),
            ],
            "is a directory",
        ),
        (
            vec![
                "dimacs",
                "bedlam",
                "--amo",
                "pairwise",
                "-o",
                sub.to_str().unwrap(),
            ],
            "is a directory",
        ),
        (
            vec!["dimacs", "bedlam", "-o", &with_slash],
            "names a directory",
        ),
        (
            vec![
                "export",
                "bedlam",
                "--format",
                "opb",
                "-o",
                sub.to_str().unwrap(),
            ],
            "is a directory",
        ),
    ] {
        let mut child = bin()
            .args(&args)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let status = wait_at_most(&mut child, Duration::from_secs(60))
            .unwrap_or_else(|| panic!("{args:?} worked instead of refusing the output"));
        let err = rest_of_stderr(&mut child);
        assert_eq!(status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn one_file_cannot_be_both_output_and_checkpoint_or_a_merge_input() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("f.txt");
    let out = polycover(&[
        "enumerate",
        "soma",
        "-o",
        f.to_str().unwrap(),
        "--checkpoint",
        f.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("same file"), "{}", stderr(&out));
    assert!(!f.exists());

    // merge -o one of its own result files.
    let mut results = Vec::new();
    for k in 1..=2 {
        let r = dir.path().join(format!("r{k}.txt"));
        let part = format!("{k}/2");
        let e = dir.path().join(format!("e{k}.txt"));
        let out = polycover(&[
            "enumerate",
            "soma",
            "--part",
            &part,
            "-o",
            e.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        std::fs::write(&r, out.stdout).unwrap();
        results.push(r);
    }
    let before = std::fs::read(&results[0]).unwrap();
    let out = polycover(&[
        "merge",
        results[0].to_str().unwrap(),
        results[1].to_str().unwrap(),
        "-o",
        results[0].to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(std::fs::read(&results[0]).unwrap(), before);
}

/// SIGTERM and SIGHUP stop a count as Ctrl-C does: `c` lines, the partial count,
/// `s UNKNOWN`, and 128 + the signal.
#[test]
fn sigterm_and_sighup_stop_a_count_cleanly() {
    for (name, code) in [("TERM", 143), ("HUP", 129)] {
        let mut child = bin()
            .args([
                "count",
                "bedlam",
                "--symmetry",
                "none",
                "--solver",
                "dlx",
                "--threads",
                "1",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let text = collect(&mut child);
        std::thread::sleep(Duration::from_millis(800));
        signal(&child, name);
        let status = wait_at_most(&mut child, Duration::from_secs(60)).expect("it stops");
        let text = text.join().unwrap();
        assert_eq!(status.code(), Some(code), "SIG{name}: {text}");
        assert!(text.starts_with("c polycover"), "{text}");
        assert!(
            text.contains(&format!("c stopped by SIG{name}: ")),
            "{text}"
        );
        assert_eq!(text.lines().last(), Some("s UNKNOWN"), "{text}");
        assert!(!text.contains("s mc"), "{text}");
    }
}

/// `timeout 5 polycover enumerate bedlam -o x.txt`: no `.partial` file is left, and
/// the whole solutions found are kept (each a whole record).
#[test]
fn timeout_1_keeps_an_enumerations_whole_solutions() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("x.txt");
    let out = Command::new("timeout")
        .arg("2")
        .arg(bin().get_program())
        .args(["enumerate", "bedlam", "--symmetry", "none", "-o"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(124), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("c stopped by SIGTERM: "),
        "{}",
        stderr(&out)
    );
    assert_eq!(leftovers(dir.path(), &["x.txt"]), Vec::<String>::new());
    let text = std::fs::read_to_string(&file).unwrap();
    let records: Vec<&str> = text.split_terminator("\n\n").collect();
    assert!(!records.is_empty());
    assert!(text.ends_with("\n\n"), "a cut record at the end");
    for (k, r) in records.iter().enumerate() {
        assert!(r.starts_with(&format!("solution {}\n", k + 1)), "{r}");
    }
    let said = stderr(&out);
    assert!(
        said.contains(&format!("{} solutions written", records.len())),
        "{said}"
    );
}

/// SIGTERM while `dimacs` writes a large gzip: no temporary file, the target absent.
#[test]
fn sigterm_abandons_a_dimacs_file_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("big.cnf.gz");
    let mut child = bin()
        .args(["dimacs", "bedlam", "--amo", "pairwise", "-o"])
        .arg(&file)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(400));
    signal(&child, "TERM");
    let status = wait_at_most(&mut child, Duration::from_secs(60)).expect("it stops");
    // Finished before the signal (a fast machine), or stopped by it.
    if status.code() != Some(0) {
        assert_eq!(status.code(), Some(143));
        assert_eq!(leftovers(dir.path(), &[]), Vec::<String>::new());
    }
}

/// A reader that closes the pipe ends the run, even while a SAT call runs for long and
/// nothing is written (a count prints only at the end): here varisat, which cannot be
/// interrupted inside a call, counting Bedlam (an hour and more).
#[test]
fn a_closed_pipe_ends_even_a_long_sat_call() {
    let mut child = bin()
        .args([
            "count",
            "bedlam",
            "--solver",
            "sat",
            "--backend",
            "varisat",
            "--threads",
            "1",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    lines.read_line(&mut first).unwrap();
    assert!(first.starts_with("c polycover"), "{first}");
    drop(lines);
    let status = wait_at_most(&mut child, Duration::from_secs(90))
        .expect("the count ends once nobody reads its output");
    assert_eq!(status.code(), Some(0), "a broken pipe exits quietly");

    // And `enumerate | head -1`.
    let mut child = bin()
        .args(["enumerate", "bedlam", "--solver", "sat"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    lines.read_line(&mut first).unwrap();
    assert_eq!(first, "solution 1\n");
    drop(lines);
    let status = wait_at_most(&mut child, Duration::from_secs(90)).expect("it ends");
    assert_eq!(status.code(), Some(0));
}

/// Output written before a run is killed outright stays: the `c` lines of a count are
/// on its standard output line by line, not held in a buffer.
#[test]
fn c_lines_reach_a_pipe_before_the_long_work() {
    let mut child = bin()
        .args([
            "count",
            "bedlam",
            "--symmetry",
            "none",
            "--solver",
            "dlx",
            "--threads",
            "1",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let text = collect(&mut child);
    std::thread::sleep(Duration::from_millis(800));
    signal(&child, "KILL");
    let _ = child.wait();
    let text = text.join().unwrap();
    assert!(text.contains("c solver dlx"), "{text}");
    assert!(stdout(&polycover(&["count", "soma"])).ends_with("s mc 480\n"));
}
