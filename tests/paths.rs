//! Paths a new user gives: a FIFO with no reader, a full disk, an output file a stop must
//! not empty, directories of pictures, pieces or a suite that hold an earlier run's
//! files, a missing directory, a gzipped puzzle file, a process substitution, `-` as the
//! model, a setuid file replaced.
//!
//! Time bounds here are generous guards that prove a run ends, never that it is fast.

use std::io::Write;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{
    bin, file_names, mkfifo, model_literals, polycover, signal, stderr, stdout, MUTILATED,
};

/// Waits for `child` at most `limit` (a guard against a hang, not a timing check); kills
/// it past that. Its exit code, or `None` when it had to be killed or was signalled.
fn ended_within(child: &mut std::process::Child, limit: Duration) -> Option<Option<i32>> {
    crate::common::wait_at_most(child, limit).map(|s| s.code())
}

/// Polls until `cond` holds, at most `limit` (a guard); whether it came to hold.
fn eventually(limit: Duration, cond: impl Fn() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if cond() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    cond()
}

/// Defect 3: `-o FIFO` with nobody reading it waited in `open()` for ever, deaf to
/// SIGTERM. Now the wait listens: the first SIGTERM ends it with 143, nothing left behind.
#[test]
fn a_fifo_without_a_reader_ends_at_the_first_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("f");
    mkfifo(&fifo);
    let mut child = bin()
        .args(["enumerate", "soma", "--limit", "3", "-o"])
        .arg(&fifo)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Long enough to be waiting for a reader (Soma loads in milliseconds); were it still
    // loading, the signal would end it at once with the same code.
    std::thread::sleep(Duration::from_millis(1500));
    signal(&child, "TERM");
    // 30 s: a guard against the hang, far above the 1 s the fix takes.
    let code = ended_within(&mut child, Duration::from_secs(30));
    assert_eq!(code, Some(Some(143)), "a first SIGTERM must end the wait");
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    assert_eq!(file_names(dir.path()), ["f"]);
}

/// And a FIFO that gets its reader late is written as before.
#[test]
fn a_fifo_whose_reader_comes_late_gets_the_records() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("f");
    mkfifo(&fifo);
    let mut child = bin()
        .args(["enumerate", "soma", "--limit", "2", "-o"])
        .arg(&fifo)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let read = std::fs::read_to_string(&fifo).unwrap();
    assert_eq!(
        ended_within(&mut child, Duration::from_secs(60)),
        Some(Some(0))
    );
    assert_eq!(read.matches("solution ").count(), 2, "{read}");
}

/// Defect 4: completions panicked on a full disk (exit 101 and a backtrace), and help
/// was lost with exit 0. Every generated text now reports the failed write, exit 1.
#[test]
fn generated_texts_on_a_full_disk_fail_with_exit_1() {
    for args in [
        &["completions", "bash"][..],
        &["completions", "zsh"],
        &["man"],
        &["--help"],
        &["count", "--help"],
        &["--version"],
    ] {
        // Opening /dev/full for writing is all this does with it: its writes fail.
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = bin().args(args).stdout(full).output().unwrap();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("cannot write standard output") && err.contains("No space left"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    // A reader that goes away stays quiet, as for any output.
    let mut child = bin()
        .args(["completions", "bash"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
}

/// Issue 46, 13: a full disk on standard output is named the same by every command,
/// `cannot write standard output: No space left on device`. Before, `count`, `solve`,
/// `info`, `list`, `merge` and `check` said only `No space left on device`, and
/// `generate`, `export`, `dimacs`, `sample` and `enumerate` `cannot write -`.
#[test]
fn a_full_disk_on_standard_output_is_named_alike_by_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let mut parts = Vec::new();
    for k in ["1/2", "2/2"] {
        let out = polycover(&["count", "soma", "--part", k]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let path = dir.path().join(format!("part-{}.txt", &k[..1]));
        std::fs::write(&path, out.stdout).unwrap();
        parts.push(path.to_str().unwrap().to_string());
    }
    let merge = ["merge", &parts[0], &parts[1]];
    for args in [
        &["count", "soma"][..],
        &["solve", "soma"],
        &["enumerate", "soma", "--limit", "1"],
        &["sample", "soma"],
        &["info", "soma"],
        &["list"],
        &["check", "soma"],
        &merge,
        &["man"],
        &["completions", "bash"],
        &["generate", "colored-cubes", "--cubes", "4"],
        &["export", "soma", "--format", "dlx"],
        &["export", "soma", "--format", "dlx", "-o", "-"],
        &["dimacs", "soma"],
    ] {
        // Opening /dev/full for writing is all this does with it: its writes fail.
        let full = std::fs::File::create("/dev/full").unwrap();
        let out = bin().args(args).stdout(full).output().unwrap();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        let says = "polycover: error: cannot write standard output: No space left";
        let error = err.lines().find(|l| l.starts_with("polycover: error: "));
        assert!(
            error.is_some_and(|l| l.starts_with(says)),
            "{args:?}: {err}"
        );
    }
}

/// Starts `enumerate MUTILATED -o out` in `dir` and stops it with SIGTERM once the search
/// runs (its temporary output exists); the finished process's output.
fn stopped_before_any_solution(dir: &Path, out: &Path) -> std::process::Output {
    let puzzle = dir.join("mutilated.toml");
    std::fs::write(&puzzle, MUTILATED).unwrap();
    let child = bin()
        .args(["enumerate", "--solver", "dlx"])
        .arg(&puzzle)
        .arg("-o")
        .arg(out)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let running = eventually(Duration::from_secs(30), || {
        file_names(dir).iter().any(|n| n.ends_with(".partial"))
    });
    signal(&child, "TERM");
    let out = child.wait_with_output().unwrap();
    assert!(running, "the search never started: {}", stderr(&out));
    out
}

/// Defect 7: a stopped `enumerate` that found nothing emptied an existing `-o` file,
/// though a stop leaves the target as it was. It does now; a new target is not made.
#[test]
fn a_stop_before_the_first_solution_leaves_the_output_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let out_file = dir.path().join("solutions.txt");
    std::fs::write(&out_file, "an earlier run's solutions\n").unwrap();
    let out = stopped_before_any_solution(dir.path(), &out_file);
    assert_eq!(out.status.code(), Some(143), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("0 solutions written; "),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("left as it was"), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(&out_file).unwrap(),
        "an earlier run's solutions\n"
    );
    assert_eq!(file_names(dir.path()), ["mutilated.toml", "solutions.txt"]);

    let fresh = tempfile::tempdir().unwrap();
    let new_file = fresh.path().join("new.txt");
    let out = stopped_before_any_solution(fresh.path(), &new_file);
    assert_eq!(out.status.code(), Some(143), "{}", stderr(&out));
    assert!(
        !new_file.exists(),
        "a stop with nothing to keep made the file"
    );
}

/// Defect 10: `--svg DIR` and `--html DIR` wrote into a directory that held files,
/// leaving an earlier run's pictures beside the new ones, and `sample` took no `--force`.
/// Now they refuse it (exit 2) unless `--force`, which removes the earlier pictures and
/// nothing else (a user's file stays; a link is removed, never what it points to).
#[test]
fn picture_directories_refuse_what_they_hold_unless_forced() {
    let tmp = tempfile::tempdir().unwrap();
    let outside = tmp.path().join("outside.svg");
    std::fs::write(&outside, "not ours to remove").unwrap();
    for (command, flag, ext) in [
        ("enumerate", "--svg", "svg"),
        ("enumerate", "--html", "html"),
        ("sample", "--svg", "svg"),
    ] {
        let dir = tmp.path().join(format!("{command}-{ext}"));
        let d = dir.to_str().unwrap();
        let run = |n: &str, force: bool| {
            let mut args = vec![command, "soma", flag, d];
            if command == "enumerate" {
                args.extend(["--limit", n]);
            } else {
                args.extend(["--seed", "7", "-n", n]);
            }
            if force {
                args.push("--force");
            }
            polycover(&args)
        };
        let first = run("3", false);
        assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
        assert_eq!(file_names(&dir).len(), 3);
        std::fs::write(dir.join("notes.txt"), "mine").unwrap();
        std::os::unix::fs::symlink(&outside, dir.join(format!("solution-000009.{ext}"))).unwrap();

        let refused = run("1", false);
        assert_eq!(refused.status.code(), Some(2), "{command} {flag}");
        assert!(
            stderr(&refused).contains("not empty"),
            "{}",
            stderr(&refused)
        );
        assert!(stderr(&refused).contains("--force"), "{}", stderr(&refused));
        assert_eq!(file_names(&dir).len(), 5, "a refusal changes nothing");

        let forced = run("1", true);
        assert_eq!(forced.status.code(), Some(0), "{}", stderr(&forced));
        assert_eq!(
            file_names(&dir),
            ["notes.txt".to_string(), format!("solution-000001.{ext}")],
            "{command} {flag} --force"
        );
        assert_eq!(
            std::fs::read_to_string(&outside).unwrap(),
            "not ours to remove"
        );
    }
}

/// Defect 10, the STL side: `export --format stl --force` replaced files of the same
/// names only, so another puzzle's pieces stayed beside the new ones to be printed with
/// them. `--force` now removes the STL files there first; other files stay.
#[test]
fn a_forced_stl_export_removes_an_earlier_exports_pieces() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("pieces");
    let d = dir.to_str().unwrap();
    let first = polycover(&["export", "soma", "--format", "stl", "-o", d]);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    let soma = file_names(&dir);
    assert!(soma.len() >= 7, "{soma:?}");
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    let puzzle = tmp.path().join("dominoes.toml");
    std::fs::write(&puzzle, crate::common::DOMINOES).unwrap();
    let p = puzzle.to_str().unwrap();
    let refused = polycover(&["export", p, "--format", "stl", "-o", d]);
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    let forced = polycover(&["export", p, "--format", "stl", "-o", d, "--force"]);
    assert_eq!(forced.status.code(), Some(0), "{}", stderr(&forced));
    let now = file_names(&dir);
    assert!(now.contains(&"notes.txt".to_string()), "{now:?}");
    for name in &soma {
        assert!(
            !now.contains(name),
            "{name} of the earlier export survived: {now:?}"
        );
    }
    assert!(now.iter().any(|n| n.ends_with(".stl")), "{now:?}");
}

/// Defect 19: `suite --force` left the old suite's files beside a smaller new CSV. Now it
/// removes every file of the kinds a suite writes first; the user's other files stay.
#[test]
fn a_forced_suite_leaves_no_file_of_the_earlier_suite() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("fam");
    let d = dir.to_str().unwrap();
    let small = ["--box", "2,2,2", "--pieces", "2-3", "--count-timeout", "5"];
    let run = |extra: &[&str]| {
        let mut args = vec!["suite", d];
        args.extend_from_slice(&small);
        args.extend_from_slice(extra);
        polycover(&args)
    };
    let first = run(&["--family", "old", "--seeds", "1-3"]);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    assert!(file_names(&dir).iter().any(|n| n == "old-3.toml"));
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    let second = run(&["--family", "new", "--seeds", "1-1", "--force"]);
    assert_eq!(second.status.code(), Some(0), "{}", stderr(&second));
    let names = file_names(&dir);
    assert!(
        !names.iter().any(|n| n.starts_with("old-")),
        "the earlier suite's files survived: {names:?}"
    );
    assert!(names.iter().any(|n| n == "new-1.toml"), "{names:?}");
    assert!(names.iter().any(|n| n == "notes.txt"), "{names:?}");
    // Every file but the user's is one the new CSV lists, or the CSV and README.
    let csv = std::fs::read_to_string(dir.join("instances.csv")).unwrap();
    for n in &names {
        let listed = csv.contains(n.as_str()) || ["instances.csv", "README.md"].contains(&&n[..]);
        assert!(
            listed || n == "notes.txt",
            "{n} is not the new suite's: {names:?}"
        );
    }
    assert!(stderr(&second).contains("removed"), "{}", stderr(&second));
}

/// Defect 14: `-o missing-dir/x` exited 1 (a failure while running) where `-o adir/`
/// exits 2; a directory that is missing, or a file, is the user's to fix, found before
/// the work.
#[test]
fn an_output_in_a_missing_directory_is_a_usage_error() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("a-file");
    std::fs::write(&file, "x").unwrap();
    for (out, says) in [
        (tmp.path().join("missing/x.txt"), "does not exist"),
        (file.join("x.txt"), "is not a directory"),
    ] {
        for args in [
            vec!["enumerate", "soma", "--limit", "1", "-o"],
            vec!["dimacs", "soma", "-o"],
        ] {
            let o = bin().args(&args).arg(&out).output().unwrap();
            assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
            assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
            assert!(stdout(&o).is_empty(), "{args:?}: worked before refusing");
        }
    }
}

fn soma_text() -> String {
    polycover::CatalogEntry::find("soma")
        .unwrap()
        .text
        .to_string()
}

fn gzipped(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

/// Defect 14: a gzipped puzzle file was taken for a BurrTools file and called "not
/// valid XML". Gzip is only the wrapping: what it holds decides.
#[test]
fn a_gzipped_puzzle_file_is_a_puzzle_file() {
    let tmp = tempfile::tempdir().unwrap();
    let gz = tmp.path().join("soma.toml.gz");
    std::fs::write(&gz, gzipped(soma_text().as_bytes())).unwrap();
    let o = bin().arg("count").arg(&gz).output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("s mc 480"), "{}", stdout(&o));
    let o = bin().arg("info").arg(&gz).output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // From standard input too, and a broken one says what it is.
    let mut child = bin()
        .args(["count", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let bytes = gzipped(soma_text().as_bytes());
    child.stdin.take().unwrap().write_all(&bytes).unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(stdout(&o).contains("s mc 480"), "{}", stderr(&o));
    let mut cut = bytes.clone();
    cut.truncate(bytes.len() / 2);
    std::fs::write(&gz, cut).unwrap();
    let o = bin().arg("count").arg(&gz).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(!stderr(&o).contains("XML"), "{}", stderr(&o));
    assert!(stderr(&o).contains("gzip"), "{}", stderr(&o));
}

/// Defect 15: a FIFO as the puzzle (`count <(cat soma.toml)`, whose `/dev/fd/N` is a
/// pipe, or a `mkfifo`) was refused as "a directory (or device)". It is read once.
#[test]
fn a_fifo_or_process_substitution_is_read_as_a_puzzle() {
    let tmp = tempfile::tempdir().unwrap();
    let fifo = tmp.path().join("puzzle");
    mkfifo(&fifo);
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::write(fifo, soma_text()).unwrap())
    };
    let o = bin().arg("count").arg(&fifo).output().unwrap();
    if !writer.is_finished() {
        // Nobody opened the FIFO: free the writer waiting for a reader before failing.
        let _ = std::fs::read(&fifo);
    }
    writer.join().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("s mc 480"), "{}", stdout(&o));

    let file = tmp.path().join("soma.toml");
    std::fs::write(&file, soma_text()).unwrap();
    let o = Command::new("bash")
        .args(["-c", "\"$0\" count <(cat \"$1\")"])
        .arg(crate::common::bin_path())
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("s mc 480"), "{}", stdout(&o));
}

/// Defect 15: `decode --model -` failed ("cannot read -") though `-` is standard input
/// everywhere else. Both the puzzle and the model from it is refused: it is read once.
#[test]
fn decode_reads_the_model_from_standard_input() {
    let p = polycover::Problem::load("soma", None).unwrap();
    let (first, _) = p
        .first(&polycover::Engine::dlx(), &polycover::RunOptions::default())
        .unwrap();
    let lits = model_literals(p.matrix().num_options(), &first.unwrap());
    let answer = format!("s SATISFIABLE\nv {lits} 0\n");
    for model in [answer.as_bytes().to_vec(), gzipped(answer.as_bytes())] {
        let mut child = bin()
            .args(["decode", "soma", "--model", "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(&model).unwrap();
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(10), "{}", stderr(&o));
        assert!(stdout(&o).contains("valid solution"), "{}", stdout(&o));
    }
    let o = polycover(&["decode", "-", "--model", "-"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("read once"), "{}", stderr(&o));
}

/// Defect 18: a replaced setuid file lost the bit (the owner was set after the mode, and
/// `fchown` clears setuid). A replaced file keeps its mode bits, setuid and setgid
/// included, where its owner and group are kept.
#[test]
fn a_replaced_file_keeps_its_setuid_and_setgid_bits() {
    let tmp = tempfile::tempdir().unwrap();
    for mode in [0o4755, 0o2750, 0o6711, 0o600] {
        let out: PathBuf = tmp.path().join(format!("out-{mode:o}"));
        std::fs::write(&out, "old").unwrap();
        std::fs::set_permissions(&out, std::fs::Permissions::from_mode(mode)).unwrap();
        let o = bin()
            .args(["enumerate", "soma", "--limit", "1", "-o"])
            .arg(&out)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let m = std::fs::metadata(&out).unwrap();
        assert_eq!(m.permissions().mode() & 0o7777, mode, "{mode:o}");
        assert!(std::fs::read_to_string(&out)
            .unwrap()
            .contains("solution 1"));
    }
}

/// A checkpoint is a regular file, replaced by a rename as the run goes (issue 62, the
/// fifth round's sweep): a FIFO is refused up front (it used to be replaced by a file,
/// or to hang past `--timeout`, as a device was replaced), a symlink's target is written
/// and the link stays, and a name that is not under /dev is never made there, for a
/// checkpoint as for `-o` (a mistyped `/dev/stdot` used to become a file).
#[test]
fn a_checkpoint_is_a_regular_file_and_nothing_new_is_made_under_dev() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    crate::common::mkfifo(&fifo);
    let fifo = fifo.to_str().unwrap();
    let mut child =
        crate::common::spawn(&["count", "soma", "--checkpoint", fifo, "--timeout", "5"]);
    let status = crate::common::wait_at_most(&mut child, Duration::from_secs(30)).expect("it ends");
    let err = std::io::read_to_string(child.stderr.take().unwrap()).unwrap();
    assert_eq!(status.code(), Some(2), "{err}");
    assert!(err.contains("not a regular file"), "{err}");
    assert!(std::fs::metadata(fifo).unwrap().file_type().is_fifo());

    let real = dir.path().join("real");
    std::fs::write(&real, "").unwrap();
    let link = dir.path().join("cp");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let out = polycover(&["count", "soma", "--checkpoint", link.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    let written = std::fs::read_to_string(&real).unwrap();
    assert!(written.contains("\ndone "), "{written}");

    let missing = format!("/dev/polycover-no-such-device-{}", std::process::id());
    for args in [
        vec!["enumerate", "soma", "--limit", "1", "-o", &missing],
        vec!["dimacs", "soma", "-o", &missing],
        vec!["count", "soma", "--checkpoint", &missing],
    ] {
        let out = polycover(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("no such device"), "{args:?}: {err}");
        assert!(!Path::new(&missing).exists(), "{args:?} made {missing}");
    }
}
