//! The benchmark harness behind `polycover bench`: every requested engine on every
//! requested puzzle, each row measured against the DLX in the same process.
//!
//! Invariants:
//! - Every engine runs on the plan's number of threads, the DLX included, so the ratios
//!   compare engines, not core counts. The time to the first solution is always measured
//!   on one thread.
//! - A row's solution count is checked against the DLX's when both finished; a mismatch
//!   is an error, not a row.
//! - The timeout is checked between solutions for the native engines on one thread (a
//!   native count on several threads runs to the end), inside the solve call for CaDiCaL,
//!   and between solver calls for varisat, where one long call can overrun it. External
//!   tools are killed at the timeout.
//! - `count_vs_dlx` compares time *per solution*, so a row stopped by the timeout still
//!   has a ratio; `first_vs_dlx` compares the times to the first solution.

use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::error::{Error, Result};
use crate::puzzle::{Compiled, Puzzle, SymmetryMode};
use crate::sat::dimacs::{self, Projection};
use crate::sat::{self, cnf, Amo, Backend, Decide, SatOptions, Strategy};
use crate::solver::{self, Solver};
use crate::symmetry::Reduction;

/// An engine `bench` can measure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EngineKind {
    /// The dancing-links reference (always measured: every ratio is against it).
    Dlx,
    /// The bitset engine.
    Bits,
    /// The embedded varisat, once per selected at-most-one encoding.
    #[value(alias = "sat")]
    SatVarisat,
    /// Embedded CaDiCaL with MRV decisions, once per encoding.
    SatCadical,
    /// Embedded CaDiCaL with its own decisions, once per encoding.
    SatCadicalSolver,
    /// The `cadical` program on PATH: time to the first model of our DIMACS.
    Cadical,
    /// The `ganak` program on PATH: time to count the projected models.
    Ganak,
}

impl EngineKind {
    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Dlx => "dlx",
            EngineKind::Bits => "bits",
            EngineKind::SatVarisat => "sat-varisat",
            EngineKind::SatCadical => "sat-cadical",
            EngineKind::SatCadicalSolver => "sat-cadical-solver",
            EngineKind::Cadical => "cadical",
            EngineKind::Ganak => "ganak",
        }
    }

    /// Whether the engine reads the CNF (one row per encoding).
    fn uses_cnf(self) -> bool {
        !matches!(self, EngineKind::Dlx | EngineKind::Bits)
    }
}

/// What to measure.
#[derive(Clone, Debug)]
pub struct Plan {
    pub puzzles: Vec<String>,
    pub amos: Vec<Amo>,
    pub engines: Vec<EngineKind>,
    /// `None`: each puzzle kind's default.
    pub symmetry: Option<SymmetryMode>,
    pub repeat: usize,
    pub timeout: Duration,
    /// Threads for every count (the DLX's too).
    pub threads: usize,
}

/// Median, minimum and maximum of repeated timings, in seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spread {
    pub median: f64,
    pub min: f64,
    pub max: f64,
}

impl Spread {
    fn of(mut xs: Vec<f64>) -> Option<Spread> {
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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
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
    pub first: Option<Spread>,
    /// Time to count every solution, or until the timeout stopped the count.
    pub count: Option<Spread>,
    pub solutions: Option<u64>,
    pub complete: bool,
    /// Peak resident memory during the row, in MiB (Linux only).
    pub peak_mib: Option<f64>,
    pub first_vs_dlx: Option<f64>,
    pub count_vs_dlx: Option<f64>,
}

impl Row {
    fn new(puzzle: &str, engine: &str, amo: Option<Amo>) -> Row {
        Row {
            puzzle: puzzle.to_string(),
            engine: engine.to_string(),
            amo,
            threads: 1,
            status: "ok".into(),
            cnf: None,
            compile: None,
            first: None,
            count: None,
            solutions: None,
            complete: false,
            peak_mib: None,
            first_vs_dlx: None,
            count_vs_dlx: None,
        }
    }

    /// The engine with its encoding, as the chart and the table label it.
    pub fn label(&self) -> String {
        match self.amo {
            Some(a) => format!("{}/{}", self.engine, a.name()),
            None => self.engine.clone(),
        }
    }

    fn skipped(puzzle: &str, engine: &str, amo: Option<Amo>, why: &str) -> Row {
        let mut r = Row::new(puzzle, engine, amo);
        r.status = format!("skipped: {why}");
        r
    }

    /// Seconds per solution of the count (median), when anything was counted.
    pub fn seconds_per_solution(&self) -> Option<f64> {
        let s = self.solutions.filter(|&n| n > 0)?;
        Some(self.count?.median / s as f64)
    }
}

/// Runs the plan; `log` gets a line as each row finishes.
pub fn run(plan: &Plan, log: &mut dyn FnMut(&Row)) -> Result<Vec<Row>> {
    let mut rows = Vec::new();
    for name in &plan.puzzles {
        let puzzle = Puzzle::load(name)?;
        let label = puzzle.name().to_string();
        let mode = plan.symmetry.unwrap_or(puzzle.default_symmetry());
        let compiled = puzzle.compile(mode)?;
        let reduction = Reduction::new(&compiled.matrix, compiled.group.clone());
        let dlx = native_row(&label, Solver::Dlx, &puzzle, mode, plan)?;
        log(&dlx);
        let reference = dlx.clone();
        rows.push(dlx);
        let mut cnf_dir: Option<tempfile::TempDir> = None;
        for &engine in &plan.engines {
            let amos: Vec<Option<Amo>> = if engine.uses_cnf() {
                plan.amos.iter().copied().map(Some).collect()
            } else {
                vec![None]
            };
            for amo in amos {
                let mut row = match (engine, amo) {
                    (EngineKind::Dlx, _) => continue,
                    (EngineKind::Bits, _) => native_row(&label, Solver::Bits, &puzzle, mode, plan)?,
                    (EngineKind::SatVarisat, Some(a)) => {
                        sat_row(&label, engine, a, &compiled, &reduction, plan)?
                    }
                    (EngineKind::SatCadical | EngineKind::SatCadicalSolver, Some(a))
                        if cfg!(feature = "cadical") =>
                    {
                        sat_row(&label, engine, a, &compiled, &reduction, plan)?
                    }
                    (EngineKind::SatCadical | EngineKind::SatCadicalSolver, a) => Row::skipped(
                        &label,
                        engine.name(),
                        a,
                        "built without the cadical feature",
                    ),
                    (EngineKind::Cadical | EngineKind::Ganak, Some(a)) => {
                        let dir = match &cnf_dir {
                            Some(d) => d,
                            None => cnf_dir.insert(tempfile::tempdir()?),
                        };
                        external_row(&label, engine, a, &compiled, &reduction, plan, dir.path())?
                    }
                    (_, None) => unreachable!("CNF engines get an encoding"),
                };
                compare(&mut row, &reference)?;
                log(&row);
                rows.push(row);
            }
        }
    }
    Ok(rows)
}

/// Fills the ratios, and refuses a count that disagrees with the DLX.
fn compare(row: &mut Row, dlx: &Row) -> Result<()> {
    if row.complete && dlx.complete && row.solutions != dlx.solutions {
        return Err(Error::Usage(format!(
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

/// Resets the process's peak-memory mark (Linux: `/proc/self/clear_refs`). The allocator
/// first hands freed memory back, or the mark would start at what earlier rows left.
fn reset_peak() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // Safety: malloc_trim only releases free heap pages; it has no preconditions.
    unsafe {
        libc::malloc_trim(0);
    }
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// The peak resident memory of process `pid` (or this one) since the last reset, in MiB.
fn peak_mib(pid: Option<u32>) -> Option<f64> {
    let path = match pid {
        Some(p) => format!("/proc/{p}/status"),
        None => "/proc/self/status".into(),
    };
    let status = std::fs::read_to_string(path).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

fn native_row(
    label: &str,
    solver: Solver,
    puzzle: &Puzzle,
    mode: SymmetryMode,
    plan: &Plan,
) -> Result<Row> {
    let mut row = Row::new(label, solver.name(), None);
    row.threads = plan.threads;
    let mut samples = Samples::default();
    for _ in 0..plan.repeat.max(1) {
        reset_peak();
        let t = Instant::now();
        let compiled = puzzle.compile(mode)?;
        let reduction = Reduction::new(&compiled.matrix, compiled.group.clone());
        samples.compile.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        if solver::first(&reduction, solver).is_some() {
            samples.first.push(t.elapsed().as_secs_f64());
        }
        let t = Instant::now();
        if plan.threads > 1 {
            let stats = solver::count(
                &reduction,
                solver::RunOptions {
                    solver,
                    threads: plan.threads,
                    progress: None,
                },
            );
            samples.count.push(t.elapsed().as_secs_f64());
            row.solutions = Some(stats.solutions);
            row.complete = true;
            samples.note_peak();
            continue;
        }
        let deadline = t + plan.timeout;
        let mut stopped = false;
        let stats = solver::for_each(&reduction, solver, &mut |_| {
            if Instant::now() >= deadline {
                stopped = true;
                return ControlFlow::Break(());
            }
            ControlFlow::Continue(())
        });
        samples.count.push(t.elapsed().as_secs_f64());
        row.solutions = Some(stats.solutions - stopped as u64);
        row.complete = !stopped;
        samples.note_peak();
    }
    Ok(samples.into_row(row))
}

/// The repeated measurements of one in-process row.
#[derive(Default)]
struct Samples {
    compile: Vec<f64>,
    first: Vec<f64>,
    count: Vec<f64>,
    peak: f64,
}

impl Samples {
    fn note_peak(&mut self) {
        self.peak = self.peak.max(peak_mib(None).unwrap_or(0.0));
    }

    /// Folds the samples into the row (medians with min and max).
    fn into_row(self, mut row: Row) -> Row {
        row.compile = Spread::of(self.compile);
        row.first = Spread::of(self.first);
        row.count = Spread::of(self.count);
        row.peak_mib = (self.peak > 0.0).then_some(self.peak);
        if !row.complete {
            row.status = "timeout".into();
        }
        row
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

fn cnf_size(c: &Compiled, r: &Reduction, f: &cnf::Formula) -> Result<CnfSize> {
    let mut counter = Counter(0);
    dimacs::write(&mut counter, c, r, f, Projection::Show)?;
    Ok(CnfSize {
        vars: f.num_vars,
        clauses: f.num_clauses(),
        literals: f.num_literals(),
        dimacs_bytes: counter.0,
    })
}

fn sat_row(
    label: &str,
    engine: EngineKind,
    amo: Amo,
    c: &Compiled,
    r: &Reduction,
    plan: &Plan,
) -> Result<Row> {
    let (backend, decide) = match engine {
        EngineKind::SatCadical => (Backend::Cadical, Decide::Mrv),
        EngineKind::SatCadicalSolver => (Backend::Cadical, Decide::Solver),
        _ => (Backend::Varisat, Decide::Mrv),
    };
    let mut row = Row::new(label, engine.name(), Some(amo));
    row.threads = plan.threads;
    let mut samples = Samples::default();
    for _ in 0..plan.repeat.max(1) {
        reset_peak();
        let t = Instant::now();
        let formula = cnf::compile(&c.matrix, r, amo);
        samples.compile.push(t.elapsed().as_secs_f64());
        if row.cnf.is_none() {
            row.cnf = Some(cnf_size(c, r, &formula)?);
        }
        let mut opts = SatOptions {
            backend,
            decide,
            strategy: Strategy::Plain,
            threads: 1,
            deadline: Some(Instant::now() + plan.timeout),
            ..SatOptions::default()
        };
        let t = Instant::now();
        let stats = sat::for_each_model(&c.matrix, r, &formula, &opts, None, &mut |_| {
            ControlFlow::Break(())
        })?;
        if stats.models > 0 {
            samples.first.push(t.elapsed().as_secs_f64());
        }
        interrupted(stats.interrupted)?;
        // The enumeration itself stops at the deadline (CaDiCaL inside its solve call).
        opts.strategy = Strategy::Cubes;
        opts.threads = plan.threads;
        let t = Instant::now();
        opts.deadline = Some(t + plan.timeout);
        let stats = sat::for_each_model(&c.matrix, r, &formula, &opts, None, &mut |_| {
            ControlFlow::Continue(())
        })?;
        interrupted(stats.interrupted)?;
        samples.count.push(t.elapsed().as_secs_f64());
        row.solutions = Some(stats.models);
        row.complete = !stats.stopped;
        samples.note_peak();
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

/// Whether `program` can be started from PATH.
fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
}

/// Runs an external tool on a DIMACS file, killing it at the timeout: its standard
/// output, its wall time, its sampled peak memory, and whether it finished.
fn run_external(
    program: &str,
    args: &[&str],
    timeout: Duration,
) -> Result<(String, f64, Option<f64>, bool)> {
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
        if let Some(p) = peak_mib(Some(child.id())).filter(|&p| p > 0.0) {
            peak = Some(peak.map_or(p, |q: f64| q.max(p)));
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let secs = t.elapsed().as_secs_f64();
    let out = reader.join().unwrap_or_default();
    Ok((out, secs, peak, finished))
}

fn external_row(
    label: &str,
    engine: EngineKind,
    amo: Amo,
    c: &Compiled,
    r: &Reduction,
    plan: &Plan,
    dir: &Path,
) -> Result<Row> {
    let program = engine.name();
    if !on_path(program) {
        return Ok(Row::skipped(label, program, Some(amo), "not on PATH"));
    }
    let mut row = Row::new(label, program, Some(amo));
    let t = Instant::now();
    let formula = cnf::compile(&c.matrix, r, amo);
    let compile = t.elapsed().as_secs_f64();
    row.cnf = Some(cnf_size(c, r, &formula)?);
    let path = dir.join(format!(
        "{}-{}.cnf",
        c.puzzle.name().replace(' ', "_"),
        amo.name()
    ));
    let path_str = path.display().to_string();
    dimacs::create(&path_str, &mut io::sink(), &mut |w| {
        dimacs::write(w, c, r, &formula, Projection::Show)
    })?;
    let (mut times, mut peak) = (Vec::new(), None::<f64>);
    for _ in 0..plan.repeat.max(1) {
        let args: Vec<&str> = match engine {
            EngineKind::Cadical => vec!["-q", &path_str],
            _ => vec![&path_str],
        };
        let (out, secs, p, finished) = run_external(program, &args, plan.timeout)?;
        peak = match (peak, p) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        if !finished {
            row.status = "timeout".into();
            row.complete = false;
            times.push(secs);
            continue;
        }
        times.push(secs);
        row.complete = true;
        match engine {
            EngineKind::Cadical => {
                let answer = out.lines().find(|l| l.starts_with("s "));
                if answer == Some("s SATISFIABLE") {
                    // The answer must decode into a solution, or the row is an error.
                    let lits: Vec<i64> = out
                        .lines()
                        .filter_map(|l| l.strip_prefix("v "))
                        .flat_map(|l| l.split_whitespace().filter_map(|x| x.parse().ok()))
                        .filter(|&x: &i64| x != 0)
                        .collect();
                    dimacs::decode_model(&c.matrix, &lits, &format!("{program} on {path_str}"))?;
                }
                // A first-model figure: one model (or none) is all it finds.
                row.complete = false;
            }
            _ => {
                let n = out.lines().find_map(|l| {
                    l.strip_prefix("c s exact arb int ")
                        .or_else(|| l.strip_prefix("s mc "))
                        .and_then(|n| n.trim().parse::<u64>().ok())
                });
                row.solutions = n;
                row.complete = n.is_some();
            }
        }
    }
    row.compile = Spread::of(vec![compile]);
    let spread = Spread::of(times);
    match engine {
        EngineKind::Cadical => row.first = spread,
        _ => row.count = spread,
    }
    row.peak_mib = peak;
    Ok(row)
}

/// The CSV header; [`csv_line`] writes the fields in this order.
pub const CSV_HEADER: &str = "puzzle,engine,amo,threads,status,vars,clauses,literals,dimacs_bytes,\
compile_s,first_s,first_min_s,first_max_s,count_s,count_min_s,count_max_s,solutions,\
complete,solutions_per_s,peak_mib,first_vs_dlx,count_vs_dlx";

fn opt<T: std::fmt::Display>(x: Option<T>) -> String {
    x.map_or(String::new(), |v| v.to_string())
}

fn secs(x: Option<f64>) -> String {
    x.map_or(String::new(), |v| format!("{v:.6}"))
}

/// Quotes a CSV field when it needs it.
fn field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

pub fn csv_line(r: &Row) -> String {
    let cnf = r.cnf;
    let rate = match (r.solutions, r.count) {
        (Some(n), Some(c)) if c.median > 0.0 => Some(format!("{:.3}", n as f64 / c.median)),
        _ => None,
    };
    [
        field(&r.puzzle),
        r.engine.clone(),
        r.amo.map_or(String::new(), |a| a.name().into()),
        r.threads.to_string(),
        field(&r.status),
        opt(cnf.map(|c| c.vars)),
        opt(cnf.map(|c| c.clauses)),
        opt(cnf.map(|c| c.literals)),
        opt(cnf.map(|c| c.dimacs_bytes)),
        secs(r.compile.map(|s| s.median)),
        secs(r.first.map(|s| s.median)),
        secs(r.first.map(|s| s.min)),
        secs(r.first.map(|s| s.max)),
        secs(r.count.map(|s| s.median)),
        secs(r.count.map(|s| s.min)),
        secs(r.count.map(|s| s.max)),
        opt(r.solutions),
        r.complete.to_string(),
        opt(rate),
        r.peak_mib.map_or(String::new(), |m| format!("{m:.1}")),
        r.first_vs_dlx.map_or(String::new(), |x| format!("{x:.2}")),
        r.count_vs_dlx.map_or(String::new(), |x| format!("{x:.2}")),
    ]
    .join(",")
}

pub fn write_csv(w: &mut dyn Write, rows: &[Row]) -> io::Result<()> {
    writeln!(w, "{CSV_HEADER}")?;
    for r in rows {
        writeln!(w, "{}", csv_line(r))?;
    }
    Ok(())
}

/// A human-readable line for a row.
pub fn table_line(r: &Row) -> String {
    let t = |s: Option<Spread>| match s {
        Some(s) if s.min != s.max => format!("{:.3} s ({:.3}..{:.3})", s.median, s.min, s.max),
        Some(s) => format!("{:.3} s", s.median),
        None => "-".into(),
    };
    let ratio = |x: Option<f64>| x.map_or("-".into(), |x| format!("{x:.1}x"));
    let size = r.cnf.map_or("-".into(), |c| {
        format!(
            "{} vars, {} clauses, {} lits, {} bytes",
            c.vars, c.clauses, c.literals, c.dimacs_bytes
        )
    });
    format!(
        "{:<18} {:<28} {}t first {:<24} {} count {:<24} {} solutions {:<8} {:<9} peak {:>7} MiB  compile {}  {}",
        r.puzzle,
        r.label(),
        r.threads,
        t(r.first),
        ratio(r.first_vs_dlx),
        t(r.count),
        ratio(r.count_vs_dlx),
        opt(r.solutions),
        r.status,
        r.peak_mib.map_or("-".into(), |m| format!("{m:.1}")),
        t(r.compile),
        size,
    )
}

/// Draws the time to the first solution and the time per counted solution, per engine
/// and encoding, on log scales: one series per puzzle.
pub fn write_svg(path: &Path, rows: &[Row]) -> Result<()> {
    use plotters::prelude::*;
    let werr = |e: String| Error::Write {
        path: path.to_path_buf(),
        source: io::Error::other(e),
    };
    let mut labels: Vec<String> = Vec::new();
    let mut puzzles: Vec<String> = Vec::new();
    for r in rows.iter().filter(|r| !r.status.starts_with("skipped")) {
        if !labels.contains(&r.label()) {
            labels.push(r.label());
        }
        if !puzzles.contains(&r.puzzle) {
            puzzles.push(r.puzzle.clone());
        }
    }
    let root = SVGBackend::new(path, (1200, 560)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| werr(e.to_string()))?;
    let panels = root.split_evenly((1, 2));
    type Metric = fn(&Row) -> Option<f64>;
    let metrics: [(&str, Metric); 2] = [
        ("time to the first solution (s)", |r| {
            r.first.map(|s| s.median)
        }),
        ("time per solution, counting (s)", |r| {
            r.seconds_per_solution()
        }),
    ];
    for (panel, (title, metric)) in panels.iter().zip(metrics) {
        let values: Vec<f64> = rows
            .iter()
            .filter_map(metric)
            .filter(|v| *v > 0.0)
            .collect();
        let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = values.iter().copied().fold(0.0, f64::max);
        let (lo, hi) = if values.is_empty() {
            (1e-6, 1.0)
        } else {
            (lo / 2.0, hi * 2.0)
        };
        let n = labels.len().max(1);
        let mut chart = ChartBuilder::on(panel)
            .caption(title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(110)
            .y_label_area_size(70)
            .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), (lo..hi).log_scale())
            .map_err(|e| werr(e.to_string()))?;
        let names = labels.clone();
        chart
            .configure_mesh()
            .x_labels(n)
            .x_label_formatter(&|x| {
                let k = x.round();
                if (x - k).abs() < 1e-6 && k >= 0.0 {
                    names.get(k as usize).cloned().unwrap_or_default()
                } else {
                    String::new()
                }
            })
            .x_label_style(
                ("sans-serif", 12)
                    .into_font()
                    .transform(FontTransform::Rotate90),
            )
            .y_desc("seconds (log scale)")
            .draw()
            .map_err(|e| werr(e.to_string()))?;
        for (k, puzzle) in puzzles.iter().enumerate() {
            let color = Palette99::pick(k).to_rgba();
            let points: Vec<(f64, f64)> = rows
                .iter()
                .filter(|r| &r.puzzle == puzzle)
                .filter_map(|r| {
                    let x = labels.iter().position(|l| *l == r.label())? as f64;
                    metric(r).filter(|v| *v > 0.0).map(|v| (x, v))
                })
                .collect();
            chart
                .draw_series(points.iter().map(|&p| Circle::new(p, 5, color.filled())))
                .map_err(|e| werr(e.to_string()))?
                .label(puzzle.as_str())
                .legend(move |(x, y)| Circle::new((x + 10, y), 5, color.filled()));
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|e| werr(e.to_string()))?;
    }
    root.present().map_err(|e| werr(e.to_string()))?;
    Ok(())
}
