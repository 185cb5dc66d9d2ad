//! `Puzzle`: a parsed puzzle, and the searches on it (count, solve, solutions, sample,
//! cnf), each compiled for the symmetry mode asked for and run by [`interruptible`].
//!
//! Invariant: a streaming listing (`Solutions`) runs on a thread of its own that stops at
//! the first solution it cannot hand over (the iterator closed or dropped), or at once
//! through its own [`Stop`] when the iterator is closed or interrupted.

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Mutex;
use std::thread::JoinHandle;

use pyo3::exceptions::{PyRuntimeError, PyTimeoutError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyInt};

use polycover::sat::{Amo, Formula};
use polycover::{Engine, Problem, Report, RunOptions, Setting, Stop, SymmetryMode};
use std::sync::Arc;

use crate::cnf::Cnf;
use crate::numbers::{Seconds, Whole};
use crate::solution::Solution;
use crate::{interrupted, interruptible, to_py, usage, POLL};

/// A packing puzzle: a polycube puzzle (Soma, Bedlam, pentominoes, domino boxes) or a
/// coloured-cube puzzle (Instant Insanity), from the catalog, a file, TOML text or cells.
#[pyclass(frozen, module = "polycover")]
pub struct Puzzle {
    pub(crate) inner: polycover::Puzzle,
}

/// The symmetry mode called `name`, or the puzzle's default.
fn mode(puzzle: &polycover::Puzzle, name: Option<&str>) -> PyResult<SymmetryMode> {
    let Some(name) = name else {
        return Ok(puzzle.default_symmetry());
    };
    let modes = [
        SymmetryMode::Rotations,
        SymmetryMode::Reflections,
        SymmetryMode::None,
        SymmetryMode::Stack,
    ];
    modes
        .into_iter()
        .find(|m| m.as_str() == name)
        .ok_or_else(|| {
            usage(format!(
                "unknown symmetry {name:?}: one of rotations, reflections, none, stack"
            ))
        })
}

/// The at-most-one encoding called `name`.
pub(crate) fn amo(name: &str) -> PyResult<Amo> {
    Amo::from_name(name).ok_or_else(|| {
        let names: Vec<_> = Amo::EVERY.iter().map(|a| a.name()).collect();
        usage(format!(
            "unknown at-most-one encoding {name:?}: one of {}",
            names.join(", ")
        ))
    })
}

/// The engine `solver` names, with the settings given (`amo`, `sweep`: each as its
/// engine declares it); `None` for the default.
fn engine(solver: Option<&str>, given: &[(Setting, Option<&str>)]) -> PyResult<Option<Engine>> {
    let given: Vec<(Setting, &str)> = given
        .iter()
        .filter_map(|&(setting, value)| Some((setting, value?)))
        .collect();
    let Some(name) = solver else {
        return match given.first() {
            Some(&(setting, _)) => {
                // The engines that take the setting, as they declare it (none named here).
                let takers: Vec<String> = Engine::solvers_declaring(setting)
                    .into_iter()
                    .map(|n| format!("solver={n:?}"))
                    .collect();
                Err(usage(format!(
                    "{} applies to {} only, and no solver was given",
                    setting.name(),
                    takers.join(" or ")
                )))
            }
            None => Ok(None),
        };
    };
    let Some(mut engine) = Engine::from_name(name) else {
        return Err(usage(format!(
            "unknown solver {name:?}: one of {}",
            Engine::solver_names().join(", ")
        )));
    };
    engine.available().map_err(usage)?;
    for &(setting, value) in &given {
        if setting == Setting::Amo && engine.declares(Setting::Amo) {
            // An unknown name gets the list of encodings, as `cnf(amo=...)` does.
            amo(value)?;
        }
    }
    if !given.is_empty() {
        engine = engine.configure(given).map_err(crate::to_py)?;
    }
    Ok(Some(engine))
}

/// A run's options: `threads` workers (0: every core), and a stop of the call's own,
/// `timeout` seconds from now (no deadline when `None`, `inf`, or past the clock), by
/// the command line's rules.
fn run_options(threads: &Whole, timeout: Option<&Seconds>) -> PyResult<RunOptions<'static>> {
    let threads = RunOptions::parse_threads(&threads.0).map_err(to_py)?;
    let stop = match timeout {
        Some(t) => Stop::after(RunOptions::parse_timeout(&t.0).map_err(to_py)?),
        None => Stop::new(),
    };
    Ok(RunOptions {
        threads,
        stop,
        ..RunOptions::default()
    })
}

/// A stopped run as an exception: Ctrl-C's `KeyboardInterrupt`, or the timeout's
/// `TimeoutError` saying how far it got.
fn stopped(report: &Report) -> PyErr {
    if report.interrupted {
        interrupted()
    } else {
        PyTimeoutError::new_err(format!(
            "stopped by the timeout (the search itself ran {:.3} s of it; reading and \
             preparing the puzzle took the rest), with {} so far",
            report.seconds,
            polycover::Count::solutions(&report.solutions)
        ))
    }
}

/// A library error, as `TimeoutError` where `stop`'s deadline ended the work (the
/// library reports any stop as interrupted), else as [`to_py`] words it.
pub(crate) fn timed_out(e: polycover::Error, stop: &Stop) -> PyErr {
    if e.class() == polycover::ErrorClass::Interrupted && stop.timed_out() && !stop.raised() {
        return PyTimeoutError::new_err(format!("stopped by the timeout: {e}"));
    }
    to_py(e)
}

/// An exact count as a Python `int`.
pub(crate) fn int(py: Python<'_>, count: &polycover::Count) -> PyResult<Py<PyAny>> {
    Ok(py.get_type::<PyInt>().call1((count.to_string(),))?.unbind())
}

/// A TOML basic string (JSON's escapes are TOML's).
fn quoted(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\u{:04x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Cells as a TOML array of `[x, y, z]`: the integers as Python wrote them, for the
/// puzzle format's own checks (as in a puzzle file) to take or refuse.
fn cells_toml(cells: &[[Whole; 3]]) -> String {
    let cells: Vec<String> = cells
        .iter()
        .map(|[x, y, z]| format!("[{}, {}, {}]", x.0, y.0, z.0))
        .collect();
    format!("[{}]", cells.join(", "))
}

impl Puzzle {
    /// The problem in symmetry mode `symmetry` (the puzzle's default when `None`).
    pub(crate) fn problem(&self, py: Python<'_>, symmetry: Option<&str>) -> PyResult<Problem> {
        let mode = mode(&self.inner, symmetry)?;
        let puzzle = self.inner.clone();
        interruptible(py, &Stop::new(), move || puzzle.compile(mode))?.map_err(to_py)
    }
}

#[pymethods]
impl Puzzle {
    /// Loads a catalog puzzle by name (`"soma"`, `"bedlam"`: see `polycover.catalog()`) or
    /// a puzzle file (TOML, gzip, or a BurrTools `.xmpuzzle`), as `polycover count NAME`
    /// does. Raises `PuzzleError` with the file and line of what is wrong.
    #[staticmethod]
    fn load(py: Python<'_>, name_or_path: PathBuf) -> PyResult<Puzzle> {
        let inner = py
            .detach(|| polycover::Puzzle::load(&name_or_path))
            .map_err(to_py)?;
        Ok(Puzzle { inner })
    }

    /// Parses puzzle text in the puzzle-file format (docs/puzzle-format.md); `source` names
    /// it in error messages.
    #[staticmethod]
    #[pyo3(signature = (text, source = "<string>"))]
    fn from_toml(text: &str, source: &str) -> PyResult<Puzzle> {
        let inner = polycover::Puzzle::parse(source, text).map_err(to_py)?;
        Ok(Puzzle { inner })
    }

    /// A polycube puzzle from cells: `pieces` maps each piece's name to its cells
    /// (`(x, y, z)` integers), the target is a `box` `(x, y, z)` of sizes or a list of
    /// `target` cells; `copies` maps a piece's name to its number of identical copies.
    #[staticmethod]
    #[pyo3(signature = (pieces, r#box = None, target = None, copies = None, name = "polycubes"))]
    fn polycubes(
        pieces: &Bound<'_, PyDict>,
        r#box: Option<[Whole; 3]>,
        target: Option<Vec<[Whole; 3]>>,
        copies: Option<&Bound<'_, PyDict>>,
        name: &str,
    ) -> PyResult<Puzzle> {
        let mut text = format!("name = {}\n", quoted(name));
        match (r#box, target) {
            (Some([x, y, z]), None) => text += &format!("box = [{}, {}, {}]\n", x.0, y.0, z.0),
            (None, Some(cells)) => text += &format!("target = {}\n", cells_toml(&cells)),
            _ => return Err(usage("give either box or target")),
        }
        if let Some(copies) = copies {
            for named in copies.keys() {
                if !pieces.contains(&named)? {
                    let named: String = named.extract()?;
                    return Err(usage(format!(
                        "copies names the piece `{named}`, which is not one of the pieces"
                    )));
                }
            }
        }
        for (piece, cells) in pieces.iter() {
            let piece: String = piece.extract()?;
            let cells: Vec<[Whole; 3]> = cells.extract()?;
            text += &format!(
                "\n[[piece]]\nname = {}\ncells = {}\n",
                quoted(&piece),
                cells_toml(&cells)
            );
            if let Some(n) = copies.map(|c| c.get_item(&piece)).transpose()?.flatten() {
                text += &format!("count = {}\n", n.extract::<Whole>()?.0);
            }
        }
        Puzzle::from_toml(&text, name)
    }

    /// The puzzle's name.
    #[getter]
    fn name(&self) -> String {
        self.inner.name().to_string()
    }

    /// The symmetry modes the puzzle takes; the first is its default.
    #[getter]
    fn symmetry_modes(&self) -> Vec<&'static str> {
        self.inner
            .symmetry_modes()
            .iter()
            .map(|m| m.as_str())
            .collect()
    }

    fn __repr__(&self) -> String {
        format!("<polycover.Puzzle {:?}>", self.inner.name())
    }

    /// The number of distinct solutions (up to `symmetry`: the puzzle's default when not
    /// given) as an exact `int`, as `polycover count` prints it. `solver`: an engine of
    /// `polycover.solvers()` (the command line's default choice when not given); `amo`:
    /// the at-most-one encoding of `solver="sat"`; `sweep`: the order of
    /// `solver="frontier"`'s layers (`polycover.settings(solver)` lists what each engine
    /// takes). Raises `TimeoutError` past `timeout` seconds and `KeyboardInterrupt` at
    /// Ctrl-C; the GIL is released meanwhile.
    #[pyo3(signature = (solver = None, symmetry = None, threads = Whole::from(1), timeout = None, amo = None, sweep = None))]
    #[allow(clippy::too_many_arguments)]
    fn count(
        &self,
        py: Python<'_>,
        solver: Option<&str>,
        symmetry: Option<&str>,
        threads: Whole,
        timeout: Option<Seconds>,
        amo: Option<&str>,
        sweep: Option<&str>,
    ) -> PyResult<Py<PyAny>> {
        let engine = engine(solver, &[(Setting::Amo, amo), (Setting::Sweep, sweep)])?;
        let opts = run_options(&threads, timeout.as_ref())?;
        let problem = self.problem(py, symmetry)?;
        let report = interruptible(py, &opts.stop, || {
            let engine =
                engine.unwrap_or_else(|| problem.default_counter(false, &opts.stop, None).0);
            problem.count(&engine, &opts)
        })?
        .map_err(to_py)?;
        if !report.complete {
            return Err(stopped(&report));
        }
        int(py, &report.solutions)
    }

    /// Writes a certificate of the count into directory `path` (made if missing), as
    /// `polycover count --certify` does: per Burnside term a CNF and its CPOG certificate,
    /// a MANIFEST and a README; returns the certified count. `solver`: by default the
    /// engine whose certificate is smallest (the frontier's layers where one piece in
    /// copies fills every cell, else the memo's table), `dlx` or `bits` (the search tree)
    /// or `sat` (the models found, `symmetry="none"` only). Raises `TimeoutError` past
    /// `timeout` seconds. Check it with [`verify`](crate::verify).
    #[pyo3(signature = (path, symmetry = None, solver = None, timeout = None))]
    fn certify(
        &self,
        py: Python<'_>,
        path: PathBuf,
        symmetry: Option<&str>,
        solver: Option<&str>,
        timeout: Option<Seconds>,
    ) -> PyResult<Py<PyAny>> {
        let opts = run_options(&Whole::from(1), timeout.as_ref())?;
        let problem = self.problem(py, symmetry)?;
        let engine = match solver {
            Some(_) => engine(solver, &[])?.ok_or_else(|| usage("certify needs a solver"))?,
            None => polycover::certify::Certificate::engine_for(&problem).0,
        };
        let c = interruptible(py, &opts.stop, || {
            polycover::certify::Certificate::write(
                &problem,
                &engine,
                &opts.stop,
                None,
                &path,
                &|_| {},
            )
        })?
        .map_err(|e| timed_out(e, &opts.stop))?;
        int(py, &c.count)
    }

    /// The first distinct solution the engine finds (`polycover solve`), or `None` when
    /// there is none. `solver` defaults to `bits`, as on the command line.
    #[pyo3(signature = (solver = None, symmetry = None, timeout = None, amo = None))]
    fn solve(
        &self,
        py: Python<'_>,
        solver: Option<&str>,
        symmetry: Option<&str>,
        timeout: Option<Seconds>,
        amo: Option<&str>,
    ) -> PyResult<Option<Solution>> {
        let engine =
            engine(solver.or(Some("bits")), &[(Setting::Amo, amo)])?.expect("a solver is named");
        let opts = run_options(&Whole::from(1), timeout.as_ref())?;
        let problem = self.problem(py, symmetry)?;
        let (first, report) =
            interruptible(py, &opts.stop, || problem.first(&engine, &opts))?.map_err(to_py)?;
        if first.is_none() && !report.complete {
            return Err(stopped(&report));
        }
        Ok(first.map(|options| Solution::new(self.inner.clone(), options)))
    }

    /// The distinct solutions as an iterator that streams them as the search finds them
    /// (`polycover enumerate`); `close()` it (or leave a `with` block) to stop the search.
    /// `solver` defaults to `bits`.
    #[pyo3(signature = (solver = None, symmetry = None, threads = Whole::from(1), timeout = None, amo = None))]
    fn solutions(
        &self,
        py: Python<'_>,
        solver: Option<&str>,
        symmetry: Option<&str>,
        threads: Whole,
        timeout: Option<Seconds>,
        amo: Option<&str>,
    ) -> PyResult<Solutions> {
        let engine =
            engine(solver.or(Some("bits")), &[(Setting::Amo, amo)])?.expect("a solver is named");
        let opts = run_options(&threads, timeout.as_ref())?;
        let problem = self.problem(py, symmetry)?;
        let stop = opts.stop.clone();
        // Up to this many solutions wait for the reader; then the search waits.
        let (found, solutions) = mpsc::sync_channel(256);
        let worker = std::thread::spawn(move || {
            let end = problem.for_each_solution(&engine, &opts, &mut |s| match found
                .send(Message::Solution(s.options().to_vec()))
            {
                Ok(()) => ControlFlow::Continue(()),
                Err(_) => ControlFlow::Break(()),
            });
            let _ = found.send(Message::End(end));
        });
        Ok(Solutions {
            puzzle: self.inner.clone(),
            solutions: Mutex::new(Some(solutions)),
            worker: Mutex::new(Some(worker)),
            stop,
        })
    }

    /// `n` solutions drawn uniformly at random over the distinct solutions, from the
    /// memo's counts, with the generator seeded by `seed`: the draws of
    /// `polycover sample PUZZLE -n N --seed SEED`. With `timeout` (seconds), raises
    /// `TimeoutError` once it passes, saying how many were drawn.
    #[pyo3(signature = (n, seed = Whole::from(0), symmetry = None, timeout = None))]
    fn sample(
        &self,
        py: Python<'_>,
        n: Whole,
        seed: Whole,
        symmetry: Option<&str>,
        timeout: Option<Seconds>,
    ) -> PyResult<Vec<Solution>> {
        let run = match &timeout {
            Some(t) => Stop::after(RunOptions::parse_timeout(&t.0).map_err(to_py)?),
            None => Stop::new(),
        };
        let n = RunOptions::parse_samples(&n.0).map_err(to_py)?;
        let seed = RunOptions::parse_seed(&seed.0).map_err(to_py)?;
        let problem = self.problem(py, symmetry)?;
        let memory = RunOptions::default().memory;
        let memo = Engine::from_name("memo").expect("the registry's memo");
        let prepared = memo.prepare(&problem).map_err(to_py)?;
        let samples = prepared.sampler().map_err(to_py)?;
        samples.fits(memory).map_err(to_py)?;
        let drawn = interruptible(py, &run, || {
            let stop = || run.should_stop();
            let mut sampler = samples.draws(seed, memory, &stop)?;
            // Room for the first draws only: `n` may be as large as 2^64 - 1.
            let mut drawn = Vec::with_capacity(n.min(1024) as usize);
            for _ in 0..n {
                if run.timed_out() && !run.raised() {
                    return Err(polycover::Error::Interrupted(format!(
                        "{} of {n} solutions drawn",
                        drawn.len()
                    )));
                }
                match sampler.draw()? {
                    Some(solution) => drawn.push(solution),
                    None => break,
                }
            }
            if run.timed_out() && !run.raised() && (drawn.len() as u64) < n {
                return Err(polycover::Error::Interrupted(format!(
                    "{} of {n} solutions drawn",
                    drawn.len()
                )));
            }
            Ok::<_, polycover::Error>(drawn)
        })?
        .map_err(|e| {
            if run.timed_out() && !run.raised() {
                PyTimeoutError::new_err(format!("stopped by the timeout: {e}"))
            } else {
                interrupted()
            }
        })?;
        Ok(drawn
            .into_iter()
            .map(|options| Solution::new(self.inner.clone(), options))
            .collect())
    }

    /// The CNF that `polycover dimacs --amo AMO --symmetry SYMMETRY` writes: its models,
    /// projected on the primary variables, are the distinct solutions. Refused past the
    /// command line's size limit unless `force`.
    #[pyo3(signature = (amo = "product", symmetry = None, force = false))]
    fn cnf(&self, py: Python<'_>, amo: &str, symmetry: Option<&str>, force: bool) -> PyResult<Cnf> {
        let encoding = self::amo(amo)?;
        let problem = self.problem(py, symmetry)?;
        let stop = Stop::new();
        let formula = interruptible(py, &stop, || {
            Formula::checked(&problem, encoding, force, &stop).map(Arc::new)
        })?
        .map_err(to_py)?;
        Ok(Cnf::new(problem, formula))
    }
}

/// What the listing thread hands the iterator.
enum Message {
    Solution(Vec<u32>),
    End(polycover::Result<Report>),
}

/// The distinct solutions of `Puzzle.solutions()`, streamed while the search runs.
#[pyclass(module = "polycover")]
pub struct Solutions {
    puzzle: polycover::Puzzle,
    /// `None` once the listing ended or was closed.
    solutions: Mutex<Option<Receiver<Message>>>,
    worker: Mutex<Option<JoinHandle<()>>>,
    /// The listing's own stop, raised when the iterator is closed or interrupted.
    stop: Stop,
}

impl Solutions {
    /// Stops the search (at once, through its stop, when it still runs) and waits for its
    /// thread.
    fn stop(&self, py: Python<'_>) {
        drop(
            self.solutions
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take(),
        );
        let worker = self.worker.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(worker) = worker {
            if !worker.is_finished() {
                self.stop.raise();
            }
            let _ = py.detach(move || worker.join());
        }
    }
}

#[pymethods]
impl Solutions {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Solution>> {
        loop {
            let message = py.detach(|| {
                let solutions = self.solutions.lock().unwrap_or_else(|e| e.into_inner());
                solutions.as_ref().map(|s| s.recv_timeout(POLL))
            });
            match message {
                None => return Ok(None),
                Some(Ok(Message::Solution(options))) => {
                    return Ok(Some(Solution::new(self.puzzle.clone(), options)))
                }
                Some(Ok(Message::End(end))) => {
                    self.stop(py);
                    let report = end.map_err(to_py)?;
                    if !report.complete {
                        return Err(stopped(&report));
                    }
                    return Ok(None);
                }
                Some(Err(RecvTimeoutError::Timeout)) => {
                    if let Err(e) = py.check_signals() {
                        self.stop(py);
                        return Err(e);
                    }
                }
                Some(Err(RecvTimeoutError::Disconnected)) => {
                    self.stop(py);
                    return Err(PyRuntimeError::new_err("the search panicked"));
                }
            }
        }
    }

    /// Stops the search; the iterator then ends.
    fn close(&self, py: Python<'_>) {
        self.stop(py);
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    #[pyo3(signature = (*_args))]
    fn __exit__(&self, py: Python<'_>, _args: &Bound<'_, pyo3::types::PyTuple>) -> bool {
        self.stop(py);
        false
    }
}
