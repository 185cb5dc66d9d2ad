//! The programs on PATH that `bench` measures, each checked against polycover's own
//! answers:
//! - on our DIMACS: `ganak` (time to count the projected models); SAT solvers (the
//!   built-in `cadical` row and `--external`) are `solver.rs`'s;
//! - on our linear models (`polycover export --format mzn` or `opb`): `minizinc` with Gecode (time to
//!   the first solution, then to count all with `--all-solutions`) and OR-Tools CP-SAT
//!   through `tests/cpsat.py` (built into the binary, run by `python3` or
//!   `$POLYCOVER_PYTHON`). Every solution they print is decoded and checked: an exact
//!   cover, one of the reduced problem's placements, the canonical member of its class,
//!   and never printed twice.
//!
//! Their answers are read with the same readers as `decode`.
//!
//! Invariant: a program is stopped at the plan's timeout (its own time limit where it
//! has one, and a kill of its whole process group in any case), and its row then says
//! so; a program that is not installed gives a skipped row, not an error. A program
//! that fails otherwise, or prints a wrong solution, is an error (exit 1).

use std::collections::HashSet;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::{CnfSize, Plan, Row, Spread};
use crate::export::Format;
use crate::memory;
use crate::sat::{Amo, Formula};
use crate::sat::{Answer, Projection};
use crate::Stop;
use polycover::Count;
use polycover::Problem;
use polycover::{Error, Result};

/// The OR-Tools CP-SAT driver, the same file the tests run.
const CPSAT_SCRIPT: &str = include_str!("../../../tests/cpsat.py");

/// A program `bench` can run (besides the SAT solvers of `solver.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Program {
    /// `ganak`: the time to count the projected models.
    Ganak,
    /// `minizinc --solver gecode` on the MiniZinc model: first solution and count.
    Minizinc,
    /// OR-Tools CP-SAT on the OPB model: first solution and count.
    Cpsat,
}

impl Program {
    pub const NAMES: [&'static str; 3] = ["ganak", "minizinc", "cpsat"];

    pub fn from_name(name: &str) -> Option<Program> {
        match name {
            "ganak" => Some(Program::Ganak),
            "minizinc" => Some(Program::Minizinc),
            "cpsat" => Some(Program::Cpsat),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Program::Ganak => "ganak",
            Program::Minizinc => "minizinc",
            Program::Cpsat => "cpsat",
        }
    }

    /// Whether it reads the CNF (one row per encoding) rather than a linear model.
    pub fn uses_cnf(self) -> bool {
        matches!(self, Program::Ganak)
    }
}

/// Counts the bytes written through it.
struct Counter(u64);

impl Write for Counter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The size of the problem's CNF in encoding `amo`, its DIMACS text included.
pub(super) fn cnf_size(p: &Problem, amo: Amo) -> Result<CnfSize> {
    let f = Formula::of(p, amo);
    let mut counter = Counter(0);
    f.write(&mut counter, p, Projection::Show)?;
    Ok(CnfSize {
        vars: f.num_vars,
        clauses: f.num_clauses(),
        literals: f.num_literals(),
        dimacs_bytes: counter.0,
    })
}

/// Whether `program` can be started from PATH.
pub(super) fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
}

/// What one run of a program gave.
pub(super) struct Run {
    pub(super) stdout: String,
    pub(super) stderr: String,
    pub(super) seconds: f64,
    pub(super) peak_mib: Option<f64>,
    pub(super) finished: bool,
    pub(super) success: bool,
}

/// Runs a program, killing it (and whatever it started) at the timeout, sampling its
/// peak memory meanwhile. The peak is the started process's own: for `minizinc` that is
/// the driver, not the solver it starts, so that row has none.
pub(super) fn run(program: &str, args: &[&str], timeout: Duration, stop: &Stop) -> Result<Run> {
    let t = Instant::now();
    let mut command = Command::new(program);
    command
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // Its own process group, so that a kill reaches the solver `minizinc` starts.
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let mut child = command.spawn()?;
    // At most the limit of an answer is kept; the rest is read and dropped, so that the
    // program is not blocked on a full pipe (`yes` as a solver filled 4 GB in 3 s).
    let most = Answer::MAX_INFLATED;
    let read = move |pipe: Box<dyn io::Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let mut pipe = pipe;
            let _ = io::Read::read_to_end(&mut io::Read::take(&mut pipe, most + 1), &mut bytes);
            let over = bytes.len() as u64 > most;
            if over {
                let _ = io::copy(&mut pipe, &mut io::sink());
            }
            (String::from_utf8(bytes).unwrap_or_default(), over)
        })
    };
    let stdout = read(Box::new(child.stdout.take().expect("piped")));
    let stderr = read(Box::new(child.stderr.take().expect("piped")));
    let mut peak: Option<f64> = None;
    let (finished, success) = loop {
        if let Some(status) = child.try_wait()? {
            break (true, status.success());
        }
        if t.elapsed() >= timeout {
            kill_group(&mut child);
            let _ = child.wait();
            break (false, false);
        }
        // A stop (SIGTERM, Ctrl-C) ends the program and the bench, which keeps the rows
        // measured so far.
        if stop.raised() {
            kill_group(&mut child);
            let _ = child.wait();
            return Err(Error::Interrupted("bench stopped".into()));
        }
        // A process caught before or after its run reports 0; that is no sample.
        if let Some(p) = memory::peak_mib(Some(child.id())).filter(|&p| p > 0.0) {
            peak = Some(peak.map_or(p, |q: f64| q.max(p)));
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let seconds = t.elapsed().as_secs_f64();
    let (stdout, stdout_over) = stdout.join().unwrap_or_default();
    let (stderr, stderr_over) = stderr.join().unwrap_or_default();
    if stdout_over || stderr_over {
        return Err(Error::Failed(format!(
            "{program} printed more than {} on its {}, polycover's limit for a solver's \
             answer",
            Error::size_name(most),
            if stdout_over {
                "standard output"
            } else {
                "standard error"
            }
        )));
    }
    Ok(Run {
        stdout,
        stderr,
        seconds,
        peak_mib: peak,
        finished,
        success,
    })
}

/// The higher of two peak-memory readings, either of which may be missing.
pub(super) fn higher(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    }
}

/// Writes a file of the bench's scratch directory (a temporary directory of its own, which
/// nobody else reads while it is written).
fn scratch(path: &Path, body: &mut dyn FnMut(&mut dyn Write) -> Result<()>) -> Result<()> {
    let write = |source| Error::Write {
        path: path.to_path_buf(),
        source,
    };
    let mut w = io::BufWriter::new(std::fs::File::create(path).map_err(write)?);
    body(&mut w)?;
    w.flush().map_err(write)
}

fn kill_group(child: &mut std::process::Child) {
    #[cfg(unix)]
    // Safety: kill(2) with a negative pid signals the process group the child leads
    // (made by process_group(0) above); it touches no memory of ours.
    unsafe {
        libc::kill(-(child.id() as libc::pid_t), libc::SIGKILL);
    }
    let _ = child.kill();
}

/// The start of a row for the program `name` on the problem's DIMACS in encoding `amo`:
/// the row with its CNF's size, the DIMACS written into `dir`, and the time to compile
/// the formula. Returns the row, the file's path and that time.
pub(super) fn dimacs_row(
    label: &str,
    name: &str,
    amo: Amo,
    p: &Problem,
    dir: &Path,
) -> Result<(Row, String, f64)> {
    let mut row = Row::new(label, name, Some(amo));
    let t = Instant::now();
    let formula = Formula::of(p, amo);
    let compile = t.elapsed().as_secs_f64();
    row.cnf = Some(cnf_size(p, amo)?);
    let path = dir.join(format!(
        "{}-{}.cnf",
        p.puzzle().name().replace(' ', "_"),
        amo.name()
    ));
    scratch(&path, &mut |w| Ok(formula.write(w, p, Projection::Show)?))?;
    Ok((row, path.display().to_string(), compile))
}

/// Measures `ganak` ([`Program::uses_cnf`]) on the problem's DIMACS in encoding `amo`,
/// written into `dir`: the time to count the projected models.
pub(super) fn row(
    label: &str,
    program: Program,
    amo: Amo,
    p: &Problem,
    plan: &Plan,
    dir: &Path,
) -> Result<Row> {
    let name = program.name();
    if !on_path(name) {
        return Ok(Row::skipped(label, name, Some(amo), "not on PATH"));
    }
    let (mut row, path_str, compile) = dimacs_row(label, name, amo, p, dir)?;
    // Times to a model, to UNSAT, and to a count; a run stopped by the timeout gives
    // none of them (its row says `timeout`).
    let mut counts = Vec::new();
    let mut peak = None::<f64>;
    for _ in 0..plan.repeat.max(1) {
        let r = run(name, &[&path_str], plan.timeout, &plan.stop)?;
        peak = higher(peak, r.peak_mib);
        if !r.finished {
            row.status = "timeout".into();
            row.complete = false;
            continue;
        }
        counts.push(r.seconds);
        row.solutions = Answer::parse_count(&r.stdout);
        row.complete = row.solutions.is_some();
    }
    row.compile = Spread::of(vec![compile]);
    row.count = Spread::of(counts);
    row.peak_mib = peak;
    Ok(row)
}

/// The interpreter that runs the CP-SAT script.
fn python() -> String {
    std::env::var("POLYCOVER_PYTHON").unwrap_or_else(|_| "python3".into())
}

/// Why a linear-model program cannot run here, if it cannot.
fn unavailable(program: Program) -> Option<String> {
    let quiet = |cmd: &mut Command| {
        cmd.stdin(Stdio::null())
            .stderr(Stdio::null())
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
    };
    match program {
        Program::Minizinc => {
            if !on_path("minizinc") {
                return Some("minizinc not on PATH".into());
            }
            // The driver lists the solvers it can start; Gecode comes in Debian's
            // `flatzinc` package, not in `minizinc`.
            let solvers = quiet(Command::new("minizinc").arg("--solvers")).unwrap_or_default();
            (!solvers.contains("org.gecode.gecode"))
                .then(|| "minizinc has no Gecode solver (Debian package flatzinc)".into())
        }
        Program::Cpsat => {
            let py = python();
            quiet(Command::new(&py).args(["-c", "import ortools.sat.python.cp_model"]))
                .is_none()
                .then(|| {
                    format!(
                        "{py} cannot import ortools (pip install ortools or set POLYCOVER_PYTHON)"
                    )
                })
        }
        Program::Ganak => None,
    }
}

/// Checks one solution a linear-model solver printed: an exact cover (`decode`'s check),
/// made of placements the reduction kept, the canonical member of its class, and not
/// printed before. A wrong answer fails the bench.
pub(super) fn check_answer(
    p: &Problem,
    kept: &[bool],
    lits: &[i64],
    source: &str,
    seen: &mut HashSet<Vec<u32>>,
) -> Result<()> {
    let bad = |reason: String| Error::Failed(format!("{source}: {reason}"));
    let solution =
        // The reader's error names `source` already.
        p.matrix().decode_model(lits, source)
            .map_err(|e| Error::Failed(e.to_string()))?;
    if let Some(&o) = solution.iter().find(|&&o| !kept[o as usize]) {
        return Err(bad(format!(
            "placement {} is one the symmetry reduction fixed to 0",
            o + 1
        )));
    }
    if !p.is_canonical(&solution) {
        return Err(bad(
            "the solution is not the canonical member of its symmetry class".into(),
        ));
    }
    if !seen.insert(solution) {
        return Err(bad("the same solution was printed twice".into()));
    }
    Ok(())
}

/// The answers in a linear-model solver's output, read as `decode` reads them; empty
/// when it printed nothing (stopped before its first line).
fn answers_in(text: &str, source: &str) -> Result<Vec<Answer>> {
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    match Answer::parse_linear(text, source) {
        Some(parsed) => parsed,
        None => Answer::parse_all(text.as_bytes(), source),
    }
    .map_err(|e| Error::Failed(e.to_string()))
}

/// A program that stopped with an error of its own (not the timeout) fails the bench.
fn failed(name: &str, r: &Run) -> Error {
    let why = r
        .stderr
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("no message");
    Error::Failed(format!("{name} failed: {why}"))
}

/// Measures `minizinc` (Gecode) or CP-SAT on the problem's linear model, written into
/// `dir`: the time to the first solution (one thread), then the time to count them all
/// (Gecode on the plan's threads; CP-SAT enumerates on one worker only).
pub(super) fn linear_row(
    label: &str,
    program: Program,
    p: &Problem,
    plan: &Plan,
    dir: &Path,
) -> Result<Row> {
    let name = program.name();
    if let Some(why) = unavailable(program) {
        return Ok(Row::skipped(label, name, None, &why));
    }
    let mut row = Row::new(label, name, None);
    let cpsat = program == Program::Cpsat;
    let t = Instant::now();
    let (model, script) = write_linear_model(cpsat, p, dir)?;
    let compile = t.elapsed().as_secs_f64();
    let model_str = model.display().to_string();
    let script_str = script.map(|s| s.display().to_string()).unwrap_or_default();
    // The solver's own limit first, so that it stops cleanly and says what it found; the
    // kill, a little later, catches one that does not (start-up, MiniZinc's flattening).
    let limit_ms = (plan.timeout.as_secs_f64() * 1000.0).ceil().min(1e12) as u64;
    let limit_ms_str = limit_ms.to_string();
    let limit_s_str = format!("{:.3}", limit_ms as f64 / 1000.0);
    let kill_after = plan.timeout.saturating_add(Duration::from_secs(10));
    let threads_str = plan.threads.to_string();
    let command = if cpsat { python() } else { "minizinc".into() };
    // The command line for the first solution, or for the count of all of them.
    let args = |count: bool| -> Vec<&str> {
        if cpsat {
            let task = if count { "count" } else { "solve" };
            return vec![&script_str, task, &model_str, "--time-limit", &limit_s_str];
        }
        let mut args = vec!["--solver", "gecode", "--time-limit", &limit_ms_str];
        if count {
            args.push("--all-solutions");
            if plan.threads > 1 {
                args.extend(["-p", &threads_str]);
            }
        }
        args.push(&model_str);
        args
    };
    let kept = p.kept_mask();
    let source = format!("{name} on {model_str}");
    row.threads = if cpsat { 1 } else { plan.threads };
    let (mut firsts, mut unsats, mut counts) = (Vec::new(), Vec::new(), Vec::new());
    let mut peak = None::<f64>;
    let mut note_peak = |r: &Run| {
        if cpsat {
            peak = higher(peak, r.peak_mib);
        }
    };
    for _ in 0..plan.repeat.max(1) {
        // The first solution.
        let r = run(&command, &args(false), kill_after, &plan.stop)?;
        note_peak(&r);
        let answers = answers_in(&r.stdout, &source)?;
        match answers.first() {
            Some(Answer::Satisfiable(lits)) => {
                check_answer(p, &kept, lits, &source, &mut HashSet::new())?;
                firsts.push(r.seconds);
            }
            // No solution: a time to UNSAT, never a first solution.
            Some(Answer::Unsatisfiable) => unsats.push(r.seconds),
            // Nothing to read from a program that ended by itself: it failed.
            None if r.finished => return Err(failed(name, &r)),
            // Stopped by its own time limit (`UNKNOWN`) or killed: no time to anything.
            Some(Answer::Unknown) | None => row.status = "timeout".into(),
        }
        // The count.
        let r = run(&command, &args(true), kill_after, &plan.stop)?;
        note_peak(&r);
        counts.push(r.seconds);
        let (solutions, complete) = if cpsat {
            cpsat_count(name, &r)?
        } else {
            gecode_count(name, p, &kept, &r, &source)?
        };
        row.solutions = solutions;
        row.complete = complete;
        if !complete {
            row.status = "timeout".into();
        }
    }
    row.compile = Spread::of(vec![compile]);
    row.first = Spread::of(firsts);
    row.unsat = Spread::of(unsats);
    row.count = Spread::of(counts);
    row.peak_mib = peak;
    Ok(row)
}

/// Writes the problem's linear model into `dir` (OPB for CP-SAT, with the script that
/// runs it; MiniZinc otherwise): the model's path and the script's.
fn write_linear_model(cpsat: bool, p: &Problem, dir: &Path) -> Result<(PathBuf, Option<PathBuf>)> {
    let stem = p.puzzle().name().replace(' ', "_");
    let (model, script) = if cpsat {
        let script = dir.join("cpsat.py");
        std::fs::write(&script, CPSAT_SCRIPT)?;
        (dir.join(format!("{stem}.opb")), Some(script))
    } else {
        (dir.join(format!("{stem}.mzn")), None)
    };
    let format = if cpsat { Format::Opb } else { Format::Mzn };
    scratch(&model, &mut |w| format.write(w, p))?;
    Ok((model, script))
}

/// CP-SAT's count from its output (`s mc`), or the partial count it printed when its
/// time limit stopped it: (solutions, complete).
fn cpsat_count(name: &str, r: &Run) -> Result<(Option<Count>, bool)> {
    let partial = r.stdout.lines().find_map(|l| {
        l.strip_prefix("c partial count ")
            .and_then(|n| n.trim().parse::<u64>().ok())
    });
    match (Answer::parse_count(&r.stdout), partial) {
        (Some(n), _) => Ok((Some(n), true)),
        (None, Some(n)) => Ok((Some(Count::from(n)), false)),
        (None, None) if r.finished => Err(failed(name, r)),
        (None, None) => Ok((None, false)),
    }
}

/// Gecode's count: the solutions it printed, each checked, even of a count cut short;
/// complete when MiniZinc says the search space was exhausted.
fn gecode_count(
    name: &str,
    p: &Problem,
    kept: &[bool],
    r: &Run,
    source: &str,
) -> Result<(Option<Count>, bool)> {
    if r.finished && !r.success {
        return Err(failed(name, r));
    }
    // Every solution Gecode printed is checked, even of a count cut short.
    let mut seen = HashSet::new();
    let counted = answers_in(&r.stdout, source)?;
    for answer in &counted {
        if let Answer::Satisfiable(lits) = answer {
            check_answer(p, kept, lits, source, &mut seen)?;
        }
    }
    // MiniZinc's `==========`: the search space was exhausted.
    let done = r.finished
        && (r.stdout.lines().any(|l| l.trim() == "==========")
            || counted.contains(&Answer::Unsatisfiable));
    Ok((Some(Count::from(seen.len() as u64)), done))
}
