//! The benchmark harness behind `polycover bench`: every requested engine on every
//! requested puzzle, each row measured against the DLX of the same run.
//!
//! One file per job: this one plans and runs the rows; `one_run` measures one run of an
//! in-process engine (`crate::memory` reads its peak memory), and `isolate` runs that in
//! a fresh polycover process;
//! `external` runs the programs on PATH (SAT solvers and counters on the DIMACS, CP
//! solvers on the linear models); `table` writes the text and CSV lines;
//! `chart` draws the SVG; `scaling` runs each engine at several thread counts
//! (`--threads 1,2,4`).
//!
//! Invariants:
//! - Every engine runs on the plan's number of threads, the DLX included, so the ratios
//!   compare engines, not core counts (a scaling run compares each thread count's rows). The time to the first solution is always measured
//!   on one thread.
//! - A row's solution count is checked against the DLX's when both finished; a mismatch
//!   is an error (exit 1), not a row.
//! - The timeout is checked at each solution for the native engines, inside the solve
//!   call for CaDiCaL, and between solver calls for varisat, where one long call can
//!   overrun it. External programs get it as their own time limit where they have one,
//!   and are killed a little after it in any case.
//! - `count_vs_dlx` compares time *per solution*, so a row stopped by the timeout still
//!   has a ratio; `first_vs_dlx` compares the times to the first solution.
//! - A time to the first solution is only ever the time to a solution: a search that
//!   proved there is none gives a time to UNSAT (`unsat`), and one stopped by the timeout
//!   gives neither.
//! - A row's peak memory does not depend on the rows before it: with [`Plan::isolate`]
//!   every run of an in-process engine is measured in a fresh process (as the external
//!   programs are); without it, in this process after `memory::reset_peak`, which may
//!   still include memory the allocator kept from earlier rows.
//! - A row's CPU time is the user+sys time of the process that ran its count, read with
//!   `getrusage` just before and after the count: the fresh process's with
//!   [`Plan::isolate`], else this one's (where other threads could add to it).

mod chart;
mod external;
mod isolate;
mod one_run;
mod scaling;
mod solver;
mod table;

use std::time::Duration;

use crate::sat::Amo;
use crate::Stop;
use polycover::Count;
use polycover::Engine;
use polycover::Setting;
use polycover::{Error, Result};
use polycover::{Puzzle, SymmetryMode};

pub use chart::svg;
pub use external::Program;
pub use isolate::{measure_child, polycover_executable};
pub use one_run::Sample;
use one_run::{sample, Samples};
pub use scaling::run as run_scaling;
pub use solver::DimacsSolver;
pub use table::{table_line, write_csv};

/// What `bench --solvers` names: an in-process engine, or a program on PATH; and what
/// `--external` adds: a SAT solver on the DIMACS.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entrant {
    Engine(Engine),
    Program(Program),
    Solver(DimacsSolver),
}

impl Entrant {
    /// The names of `--solvers`: the engines of [`Engine::bench_names`] (`sat` is the
    /// build's default SAT engine, as `count --solver sat` runs it) and the programs of
    /// [`Program::NAMES`].
    pub fn names() -> Vec<&'static str> {
        let mut names = Engine::bench_names();
        names.push("cadical");
        names.extend(Program::NAMES);
        names
    }

    /// Parses one name of `--solvers` ([`Entrant::names`]). `sat` means what it means to
    /// `count --solver sat`: the build's default backend (CaDiCaL, with the MRV
    /// decisions), so its rows are named `sat-cadical` (`sat-varisat` in a build without
    /// the cadical feature).
    pub fn parse(name: &str) -> std::result::Result<Entrant, String> {
        let name = name.trim();
        if let Some(e) = Engine::from_name(name) {
            return Ok(Entrant::Engine(e));
        }
        if name == "cadical" {
            return Ok(Entrant::Solver(DimacsSolver::cadical()));
        }
        if let Some(p) = Program::from_name(name) {
            return Ok(Entrant::Program(p));
        }
        let known = Entrant::names();
        Err(format!(
            "unknown solver `{name}` (known: {}){}",
            known.join(", "),
            polycover::Error::did_you_mean(name, known.iter().copied())
        ))
    }

    /// The row's name.
    pub fn name(&self) -> String {
        match self {
            Entrant::Engine(e) => e.name().to_string(),
            Entrant::Program(p) => p.name().to_string(),
            Entrant::Solver(s) => s.name.clone(),
        }
    }

    fn uses_cnf(&self) -> bool {
        match self {
            Entrant::Engine(e) => e.declares(Setting::Amo),
            Entrant::Program(p) => p.uses_cnf(),
            Entrant::Solver(_) => true,
        }
    }
}

/// The at-most-one encoding of an engine that runs on the CNF (its `amo` setting).
pub(crate) fn amo_of(engine: &Engine) -> Option<Amo> {
    engine
        .setting(Setting::Amo)
        .and_then(|name| Amo::from_name(&name))
}

/// What to measure.
#[derive(Clone, Debug)]
pub struct Plan {
    pub puzzles: Vec<std::path::PathBuf>,
    /// Empty: each entrant's own encoding.
    pub amos: Vec<Amo>,
    pub entrants: Vec<Entrant>,
    /// `None`: each puzzle kind's default.
    pub symmetry: Option<SymmetryMode>,
    pub repeat: usize,
    pub timeout: Duration,
    /// Threads for every count (the DLX's too).
    pub threads: usize,
    /// The polycover executable ([`polycover_executable`]) that measures each run of an
    /// in-process engine in a fresh process, so that its peak memory owes nothing to
    /// earlier rows. `None`: every run is measured in this process.
    pub isolate: Option<std::path::PathBuf>,
    /// The bench's stop: raised (Ctrl-C, SIGTERM), it ends the bench, which keeps the rows
    /// measured so far; each run adds its `timeout` to it.
    pub stop: Stop,
    /// How the front end words a setting the library's messages name (a skipped row's
    /// reason): the command line's `--NAME VALUE` ([`polycover::Error::render`]).
    pub words: fn(Setting, Option<&str>) -> String,
}

/// Median, minimum and maximum of repeated timings, in seconds.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Spread {
    pub median: f64,
    pub min: f64,
    pub max: f64,
}

impl Spread {
    pub(crate) fn of(mut xs: Vec<f64>) -> Option<Spread> {
        if xs.is_empty() {
            return None;
        }
        xs.sort_by(f64::total_cmp);
        Some(Spread {
            median: xs[xs.len() / 2],
            min: xs[0],
            max: xs[xs.len() - 1],
        })
    }
}

/// The size of a CNF.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CnfSize {
    pub vars: u32,
    pub clauses: usize,
    pub literals: usize,
    pub dimacs_bytes: u64,
}

/// One measured (puzzle, engine, encoding).
#[derive(Clone, Debug)]
pub struct Row {
    pub puzzle: String,
    pub engine: String,
    pub amo: Option<Amo>,
    /// Threads of the count.
    pub threads: usize,
    /// `ok`, `timeout`, or `skipped: reason`.
    pub status: String,
    pub cnf: Option<CnfSize>,
    pub compile: Option<Spread>,
    /// Time to the first solution (only of runs that found one).
    pub first: Option<Spread>,
    /// Time to prove that there is no solution (UNSAT), of the runs that did.
    pub unsat: Option<Spread>,
    /// Time to count every solution, or until the timeout stopped the count.
    pub count: Option<Spread>,
    /// CPU seconds (user+sys) of the process during the count (not on every system).
    pub cpu: Option<Spread>,
    pub solutions: Option<Count>,
    pub complete: bool,
    /// Peak resident memory during the row, in MiB (Linux only).
    pub peak_mib: Option<f64>,
    pub first_vs_dlx: Option<f64>,
    pub count_vs_dlx: Option<f64>,
    /// With several thread counts (`--threads 1,2,4`): the smallest, that this row's
    /// speed-up is measured against; `None` in a run on one thread count.
    pub base_threads: Option<usize>,
    /// The count's speed-up over the same engine's on [`Row::base_threads`].
    pub speedup: Option<f64>,
}

impl Row {
    /// A row with nothing measured yet: status `ok`, one thread.
    pub fn new(puzzle: &str, engine: &str, amo: Option<Amo>) -> Row {
        Row {
            puzzle: puzzle.to_string(),
            engine: engine.to_string(),
            amo,
            threads: 1,
            status: "ok".into(),
            cnf: None,
            compile: None,
            first: None,
            unsat: None,
            count: None,
            cpu: None,
            solutions: None,
            complete: false,
            peak_mib: None,
            first_vs_dlx: None,
            count_vs_dlx: None,
            base_threads: None,
            speedup: None,
        }
    }

    /// The engine with its encoding, as the chart and the table label it.
    pub fn label(&self) -> String {
        match self.amo {
            Some(a) => format!("{}/{}", self.engine, a.name()),
            None => self.engine.clone(),
        }
    }

    pub(crate) fn skipped(puzzle: &str, engine: &str, amo: Option<Amo>, why: &str) -> Row {
        let mut r = Row::new(puzzle, engine, amo);
        r.status = format!("skipped: {why}");
        r
    }

    /// Seconds per solution of the count (median), when anything was counted.
    pub fn seconds_per_solution(&self) -> Option<f64> {
        let s = self.solutions.as_ref().filter(|n| !n.is_zero())?;
        Some(self.count?.median / s.to_f64())
    }

    /// Cores busy on average during the count: its CPU time over its wall time.
    pub fn cpu_use(&self) -> Option<f64> {
        let wall = self.count?.median;
        (wall > 0.0).then(|| self.cpu.map(|c| c.median / wall))?
    }

    /// The speed-up per thread, against [`Row::base_threads`] (1 where the engine
    /// scales perfectly).
    pub fn efficiency(&self) -> Option<f64> {
        let ratio = self.threads as f64 / self.base_threads? as f64;
        Some(self.speedup? / ratio)
    }
}

/// Runs the plan; `log` gets a line as each row finishes. A stop (SIGTERM, Ctrl-C, with
/// the caller listening) ends it with [`Error::Interrupted`] at the next row, or inside
/// the row's run; the rows logged before are whole.
pub fn run(plan: &Plan, log: &mut dyn FnMut(&Row)) -> Result<Vec<Row>> {
    let mut rows = Vec::new();
    let (_stdin_dir, puzzles) = load(plan)?;
    for (spec, puzzle) in &puzzles {
        let measured = Measured::new(spec, puzzle, plan);
        interrupted(plan.stop.raised())?;
        let dlx = engine_row(&measured, &Engine::dlx(), plan)?;
        log(&dlx);
        let reference = dlx.clone();
        rows.push(dlx);
        let mut cnf_dir = None;
        for (entrant, amo) in entries(plan) {
            // The reference row is measured above.
            if *entrant == Entrant::Engine(Engine::dlx()) {
                continue;
            }
            // A stop between rows ends the bench; the caller keeps the rows logged.
            interrupted(plan.stop.raised())?;
            let mut row = entrant_row(&measured, entrant, amo, plan, &mut cnf_dir)?;
            compare(&mut row, &reference)?;
            log(&row);
            rows.push(row);
        }
    }
    Ok(rows)
}

/// Reads every puzzle of the plan before the first run, so that a bad name fails at once.
/// A puzzle read from standard input is kept in a file in the directory returned, so
/// that the fresh processes that measure its rows can read it too.
fn load(plan: &Plan) -> Result<(tempfile::TempDir, Vec<(std::path::PathBuf, Puzzle)>)> {
    let stdin_dir = tempfile::tempdir()?;
    let mut specs = plan.puzzles.clone();
    if plan.isolate.is_some() {
        for spec in specs.iter_mut().filter(|s| s.as_os_str() == "-") {
            // Capped as every puzzle input is (/dev/zero filled memory).
            let bytes = polycover::Puzzle::read_input(spec, &plan.stop)?
                .map(|(_, bytes)| bytes)
                .unwrap_or_default();
            *spec = stdin_dir.path().join("stdin");
            std::fs::write(&*spec, bytes)?;
        }
    }
    let puzzles = specs.iter().map(Puzzle::load).collect::<Result<Vec<_>>>()?;
    Ok((stdin_dir, specs.into_iter().zip(puzzles).collect()))
}

/// Every entrant of the plan with each encoding it is measured in: the plan's encodings
/// for one that reads the CNF, none for the others.
fn entries(plan: &Plan) -> Vec<(&Entrant, Option<Amo>)> {
    let mut entries = Vec::new();
    for entrant in &plan.entrants {
        if !entrant.uses_cnf() {
            entries.push((entrant, None));
        } else if plan.amos.is_empty() {
            // Each entrant's own: an engine's default, the eager default for a program
            // or solver that reads the CNF file.
            let own = match entrant {
                Entrant::Engine(engine) => amo_of(engine),
                Entrant::Program(_) | Entrant::Solver(_) => None,
            };
            entries.push((entrant, Some(own.unwrap_or(Amo::CNF_DEFAULT))));
        } else {
            entries.extend(plan.amos.iter().map(|&a| (entrant, Some(a))));
        }
    }
    entries
}

/// One row of an entrant other than the reference DLX, on the plan's threads. `cnf_dir`
/// is made at the first row that writes a CNF or a model, and kept for the puzzle's
/// other rows.
fn entrant_row(
    m: &Measured,
    entrant: &Entrant,
    amo: Option<Amo>,
    plan: &Plan,
    cnf_dir: &mut Option<tempfile::TempDir>,
) -> Result<Row> {
    let label = m.label;
    let dir = |cnf_dir: &mut Option<tempfile::TempDir>| -> Result<std::path::PathBuf> {
        Ok(match cnf_dir {
            Some(d) => d.path().to_path_buf(),
            None => cnf_dir.insert(tempfile::tempdir()?).path().to_path_buf(),
        })
    };
    Ok(match (entrant, amo) {
        (Entrant::Engine(engine), a) => {
            let engine = match a {
                Some(a) => match engine.configure([(Setting::Amo, a.name())]) {
                    Ok(engine) => engine,
                    // The lazy at-most-one with a backend that has no propagator.
                    Err(why) => {
                        let why = why.render(&plan.words);
                        return Ok(Row::skipped(label, engine.name(), Some(a), &why));
                    }
                },
                None => engine.clone(),
            };
            // A backend this build lacks, or one without the propagator that the lazy
            // at-most-one needs.
            match engine.available() {
                Err(why) => Row::skipped(
                    label,
                    engine.name(),
                    a,
                    &polycover::Setting::render(&why, &plan.words),
                ),
                Ok(()) => engine_row(m, &engine, plan)?,
            }
        }
        (Entrant::Program(_) | Entrant::Solver(_), Some(a)) if !a.is_eager() => Row::skipped(
            label,
            &entrant.name(),
            Some(a),
            "a program reads the CNF, and the lazy at-most-one is none on its own",
        ),
        (Entrant::Solver(solver), Some(a)) => {
            let dir = dir(cnf_dir)?;
            let problem = m.puzzle.compile(m.mode)?;
            solver::row(label, solver, a, &problem, plan, &dir)?
        }
        (Entrant::Solver(_), None) => unreachable!("a SAT solver reads the CNF"),
        (Entrant::Program(program), Some(a)) => {
            let dir = dir(cnf_dir)?;
            let problem = m.puzzle.compile(m.mode)?;
            external::row(label, *program, a, &problem, plan, &dir)?
        }
        (Entrant::Program(program), None) => {
            let dir = dir(cnf_dir)?;
            let problem = m.puzzle.compile(m.mode)?;
            external::linear_row(label, *program, &problem, plan, &dir)?
        }
    })
}

/// Fills the ratios, and refuses a count that disagrees with the DLX.
fn compare(row: &mut Row, dlx: &Row) -> Result<()> {
    // A program's UNSAT answer to a puzzle with a solution (its models are checked one
    // by one; a missing model is caught here).
    if row.unsat.is_some() && dlx.first.is_some() {
        return Err(Error::Failed(format!(
            "{}: {} answered UNSATISFIABLE, but the DLX found a solution",
            row.puzzle,
            row.label()
        )));
    }
    if row.complete && dlx.complete && row.solutions != dlx.solutions {
        return Err(Error::Failed(format!(
            "{}: {} counted {:?} solutions, the DLX {:?}",
            row.puzzle,
            row.label(),
            row.solutions,
            dlx.solutions
        )));
    }
    if let (Some(a), Some(b)) = (row.first, dlx.first) {
        row.first_vs_dlx = Some(a.median / b.median.max(1e-9));
    }
    // Per solution where both counted something; a counter that reports only a total
    // (ganak) compares whole counting times against a finished DLX count.
    row.count_vs_dlx = match (row.seconds_per_solution(), dlx.seconds_per_solution()) {
        (Some(a), Some(b)) => Some(a / b.max(1e-12)),
        _ => None,
    };
    Ok(())
}

/// The puzzle a row measures: its label, how it was named (for a fresh process), and
/// the puzzle read.
struct Measured<'a> {
    label: &'a str,
    spec: &'a std::path::Path,
    puzzle: &'a Puzzle,
    mode: SymmetryMode,
}

impl<'a> Measured<'a> {
    /// The puzzle named `spec`, in the plan's symmetry mode or its own default.
    fn new(spec: &'a std::path::Path, puzzle: &'a Puzzle, plan: &Plan) -> Measured<'a> {
        Measured {
            label: puzzle.name(),
            spec,
            puzzle,
            mode: plan.symmetry.unwrap_or(puzzle.default_symmetry()),
        }
    }
}

/// Measures an in-process engine: the compile (matrix, reduction, and the CNF for a SAT
/// engine), the first solution on one thread, and the count on the plan's threads; each
/// run in a fresh process when the plan can start one.
fn engine_row(m: &Measured, engine: &Engine, plan: &Plan) -> Result<Row> {
    let mut row = Row::new(m.label, engine.name(), amo_of(engine));
    row.threads = plan.threads;
    let mut samples = Samples::default();
    for _ in 0..plan.repeat.max(1) {
        let sample = match &plan.isolate {
            Some(exe) => isolate::sample(exe, m.spec, m.label, engine, m.mode, plan)?,
            None => sample(
                m.puzzle,
                engine,
                m.mode,
                plan.threads,
                plan.timeout,
                &plan.stop,
            )?,
        };
        samples.add(sample);
    }
    Ok(samples.into_row(row))
}

/// Ctrl-C ends the whole bench, not just the row.
fn interrupted(yes: bool) -> Result<()> {
    if yes {
        return Err(Error::Interrupted("bench stopped".into()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two engines that finish with different counts make the bench fail while running
    /// (exit 1), not a row and not a usage error.
    #[test]
    fn a_count_that_differs_from_the_dlx_is_a_failure() {
        let mut dlx = Row::new("p", "dlx", None);
        dlx.solutions = Some(3u64.into());
        dlx.complete = true;
        let mut other = Row::new("p", "bits", None);
        other.solutions = Some(4u64.into());
        other.complete = true;
        let err = compare(&mut other, &dlx).unwrap_err();
        assert_eq!(err.class(), polycover::ErrorClass::Failure, "{err}");
        // A row stopped by its timeout is a lower bound, not a disagreement.
        other.complete = false;
        assert!(compare(&mut other, &dlx).is_ok());
    }
}
