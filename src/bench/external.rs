//! The programs on PATH that `bench` measures on polycover's DIMACS: `cadical` (time to
//! the first model, which must decode into a solution) and `ganak` (time to count the
//! projected models). Their answers are read with the same readers as `decode`.
//!
//! Invariant: a program is killed at the plan's timeout, and its row then says so; a
//! program that is not on PATH gives a skipped row, not an error.

use std::io::{self, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::{CnfSize, Plan, Row, Spread};
use crate::engine::Problem;
use crate::error::Result;
use crate::memory;
use crate::sat::dimacs::{self, Answer, Projection};
use crate::sat::Amo;

/// A program `bench` can run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Program {
    /// `cadical`: the time to the first model of the DIMACS.
    Cadical,
    /// `ganak`: the time to count the projected models.
    Ganak,
}

impl Program {
    pub const NAMES: [&'static str; 2] = ["cadical", "ganak"];

    pub fn from_name(name: &str) -> Option<Program> {
        match name {
            "cadical" => Some(Program::Cadical),
            "ganak" => Some(Program::Ganak),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Program::Cadical => "cadical",
            Program::Ganak => "ganak",
        }
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
    let f = p.formula(amo);
    let mut counter = Counter(0);
    dimacs::write(
        &mut counter,
        &p.compiled,
        &p.reduction,
        &f,
        Projection::Show,
    )?;
    Ok(CnfSize {
        vars: f.num_vars,
        clauses: f.num_clauses(),
        literals: f.num_literals(),
        dimacs_bytes: counter.0,
    })
}

/// Whether `program` can be started from PATH.
fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
}

/// What one run of a program gave.
struct Run {
    stdout: String,
    seconds: f64,
    peak_mib: Option<f64>,
    finished: bool,
}

/// Runs a program, killing it at the timeout, sampling its peak memory meanwhile.
fn run(program: &str, args: &[&str], timeout: Duration) -> Result<Run> {
    let t = Instant::now();
    let mut child = Command::new(program)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let mut stdout = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = io::Read::read_to_string(&mut stdout, &mut s);
        s
    });
    let mut peak: Option<f64> = None;
    let finished = loop {
        if child.try_wait()?.is_some() {
            break true;
        }
        if t.elapsed() >= timeout {
            let _ = child.kill();
            let _ = child.wait();
            break false;
        }
        // A process caught before or after its run reports 0; that is no sample.
        if let Some(p) = memory::peak_mib(Some(child.id())).filter(|&p| p > 0.0) {
            peak = Some(peak.map_or(p, |q: f64| q.max(p)));
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let seconds = t.elapsed().as_secs_f64();
    let stdout = reader.join().unwrap_or_default();
    Ok(Run {
        stdout,
        seconds,
        peak_mib: peak,
        finished,
    })
}

/// Measures `program` on the problem's DIMACS in encoding `amo`, written into `dir`.
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
    let mut row = Row::new(label, name, Some(amo));
    let t = Instant::now();
    let formula = p.formula(amo);
    let compile = t.elapsed().as_secs_f64();
    row.cnf = Some(cnf_size(p, amo)?);
    let path = dir.join(format!(
        "{}-{}.cnf",
        p.puzzle().name().replace(' ', "_"),
        amo.name()
    ));
    let path_str = path.display().to_string();
    crate::output::write(&path, &mut io::sink(), &[], &mut |w| {
        Ok(dimacs::write(
            w,
            &p.compiled,
            &p.reduction,
            &formula,
            Projection::Show,
        )?)
    })?;
    let (mut times, mut peak) = (Vec::new(), None::<f64>);
    for _ in 0..plan.repeat.max(1) {
        let args: Vec<&str> = match program {
            Program::Cadical => vec!["-q", &path_str],
            Program::Ganak => vec![&path_str],
        };
        let r = run(name, &args, plan.timeout)?;
        peak = match (peak, r.peak_mib) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        times.push(r.seconds);
        if !r.finished {
            row.status = "timeout".into();
            row.complete = false;
            continue;
        }
        let source = format!("{name} on {path_str}");
        match program {
            Program::Cadical => {
                // The answer must decode into a solution, or the row is an error.
                if let Answer::Satisfiable(lits) =
                    dimacs::parse_answer(r.stdout.as_bytes(), &source)?
                {
                    dimacs::decode_model(&p.compiled.matrix, &lits, &source)?;
                }
                // A first-model figure: one model (or none) is all it finds.
                row.complete = false;
            }
            Program::Ganak => {
                row.solutions = dimacs::parse_count(&r.stdout);
                row.complete = row.solutions.is_some();
            }
        }
    }
    row.compile = Spread::of(vec![compile]);
    let spread = Spread::of(times);
    match program {
        Program::Cadical => row.first = spread,
        Program::Ganak => row.count = spread,
    }
    row.peak_mib = peak;
    Ok(row)
}
