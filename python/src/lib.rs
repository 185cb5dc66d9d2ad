//! The Python module `polycover`: puzzles, exact counts, streamed solutions, uniform
//! samples, the CNF for PySAT, and solutions that draw themselves in a notebook.
//!
//! Invariants:
//! - Every search runs with the GIL released, on a thread of its own, while the calling
//!   thread runs Python's signal handlers every [`POLL`] ([`interruptible`]): Ctrl-C
//!   raises `KeyboardInterrupt` in the caller within about that time, after the search
//!   has stopped. Each call makes a [`Stop`] of its own and raises only that one, so two
//!   searches running at once (two threads of one interpreter) stop one at a time, and
//!   the next search runs with a fresh stop.
//! - Errors are the library's own messages, the command line's (`file:line: reason` for
//!   a bad puzzle file) but for the settings they name, written as keyword arguments
//!   (`symmetry="none"`, [`keyword`]), as `PuzzleError` (the input is at fault, the command line's exit
//!   2) or `PolycoverError` (a failure while running, exit 1).
//! - Counts are exact: a `Count` goes to Python as its decimal digits, made into an `int`.

mod cnf;
mod numbers;
mod puzzle;
mod solution;

use std::sync::{mpsc, Mutex};
use std::time::Duration;

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyKeyboardInterrupt, PyRuntimeError};
use pyo3::prelude::*;

use polycover::{Error, ErrorClass, Setting, Stop};

create_exception!(
    polycover,
    PolycoverError,
    PyException,
    "A failure while running on good input (the command line's exit 1)."
);
create_exception!(
    polycover,
    PuzzleError,
    PolycoverError,
    "A puzzle, option or model that cannot be used (the command line's exit 2): the \
     message names the file and line where it can."
);

/// How often a running search lets Python look at its signals.
const POLL: Duration = Duration::from_millis(50);

/// The library's error as a Python exception, the settings it names worded as this
/// module's keyword arguments ([`keyword`]).
pub(crate) fn to_py(e: Error) -> PyErr {
    let message = e.render(&keyword);
    match e.class() {
        ErrorClass::Input => PuzzleError::new_err(message),
        ErrorClass::Failure => PolycoverError::new_err(message),
        ErrorClass::Interrupted => PyKeyboardInterrupt::new_err(message),
    }
}

/// A wrong argument (an unknown solver or encoding name): the input's fault. A setting
/// the message names is worded as a keyword argument ([`keyword`]).
pub(crate) fn usage(message: impl Into<String>) -> PyErr {
    PuzzleError::new_err(Setting::render(&message.into(), &keyword))
}

/// A setting a library message names, as this module's keyword arguments spell it:
/// `symmetry="none"`, `force=True`; a setting named without a value, one the module does
/// not take (the command line's `--memory`, say), and a value of several words, plainly
/// (`amo`, `memory`, `solver memo, dlx or bits`).
pub(crate) fn keyword(setting: Setting, value: Option<&str>) -> String {
    let name = setting.name();
    let takes = matches!(
        setting,
        Setting::Amo
            | Setting::Force
            | Setting::Seed
            | Setting::Solver
            | Setting::Sweep
            | Setting::Symmetry
    );
    match value {
        _ if !takes => match value {
            Some(v) => format!("{name} {v}"),
            None => name.into(),
        },
        None if setting == Setting::Force => "force=True".into(),
        None => name.into(),
        Some(v) if v.contains(' ') => format!("{name} {v}"),
        Some(v) if v.parse::<u64>().is_ok() => format!("{name}={v}"),
        Some(v) => format!("{name}=\"{v}\""),
    }
}

/// Runs `work` on a thread of its own with the GIL released, and Python's signal handlers
/// on this one every [`POLL`]. When a handler raises (Ctrl-C: `KeyboardInterrupt`),
/// `stop` (the one `work` polls) is raised, `work` is waited for, and the exception
/// returned.
pub(crate) fn interruptible<T: Send>(
    py: Python<'_>,
    stop: &Stop,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    std::thread::scope(|scope| {
        let (done, finished) = mpsc::channel::<()>();
        let worker = scope.spawn(move || {
            let result = work();
            let _ = done.send(());
            result
        });
        // The receiver is not Sync; the lock lends it to the thread without the GIL.
        let finished = Mutex::new(finished);
        let mut raised = None;
        loop {
            let over = py.detach(|| {
                let finished = finished.lock().unwrap_or_else(|e| e.into_inner());
                // Disconnected: the worker panicked, and join says so below.
                !matches!(
                    finished.recv_timeout(POLL),
                    Err(mpsc::RecvTimeoutError::Timeout)
                )
            });
            if over {
                break;
            }
            if let Err(e) = py.check_signals() {
                stop.raise();
                raised = Some(e);
                break;
            }
        }
        let result = py.detach(move || worker.join());
        if let Some(e) = raised {
            return Err(e);
        }
        result.map_err(|_| PyRuntimeError::new_err("the search panicked"))
    })
}

/// A search that the library reports as interrupted, without Python having raised
/// (another thread's Ctrl-C stopped it): `KeyboardInterrupt` all the same.
pub(crate) fn interrupted() -> PyErr {
    PyKeyboardInterrupt::new_err("interrupted")
}

/// The names of the puzzles shipped in the catalog (`polycover list`), sorted.
#[pyfunction]
fn catalog() -> Vec<&'static str> {
    polycover::CatalogEntry::all()
        .iter()
        .map(|e| e.name)
        .collect()
}

/// The engines `solver=` takes (`polycover count --help`).
#[pyfunction]
fn solvers() -> Vec<&'static str> {
    polycover::Engine::solver_names()
}

/// The settings the engine `solver` takes, as it declares them (`polycover count --help`
/// lists the same): one dict per setting, with its `name` (the keyword argument, where
/// `count` takes it), `values` (a list of (value, help) pairs; empty when it takes any
/// text of its own form), `default` (`None` when the run chooses) and `help`.
#[pyfunction]
fn settings(py: Python<'_>, solver: &str) -> PyResult<Vec<Py<PyAny>>> {
    let engine = polycover::Engine::named(solver).map_err(to_py)?;
    engine
        .settings()
        .into_iter()
        .map(|d| {
            let dict = pyo3::types::PyDict::new(py);
            dict.set_item("name", d.setting.name())?;
            dict.set_item("values", d.values)?;
            dict.set_item("default", d.default)?;
            dict.set_item("help", d.help)?;
            Ok(dict.into_any().unbind())
        })
        .collect()
}

/// The at-most-one encodings `amo=` takes (`polycover dimacs --help`).
#[pyfunction]
fn encodings() -> Vec<&'static str> {
    polycover::sat::Amo::EVERY
        .iter()
        .map(|a| a.name())
        .collect()
}

/// Checks the certificate in directory `path` as `polycover verify` does: what it sums
/// is derived from its CNFs, each term is run through the CPOG checker (`checker`, else
/// `cpog-check` on PATH), and with `puzzle` its CNF and group are compared with the
/// puzzle's. Returns the certified count; raises `PolycoverError` naming what does not
/// hold, `PuzzleError` for a directory or checker that cannot be used, `TimeoutError`
/// past `timeout` seconds.
#[pyfunction]
#[pyo3(signature = (path, checker = None, puzzle = None, timeout = None))]
fn verify(
    py: Python<'_>,
    path: std::path::PathBuf,
    checker: Option<std::path::PathBuf>,
    puzzle: Option<PyRef<'_, puzzle::Puzzle>>,
    timeout: Option<numbers::Seconds>,
) -> PyResult<Py<PyAny>> {
    let stop = match &timeout {
        Some(t) => Stop::after(polycover::RunOptions::parse_timeout(&t.0).map_err(to_py)?),
        None => Stop::new(),
    };
    let checker = checker.unwrap_or_else(|| "cpog-check".into());
    let inner = puzzle.map(|p| p.inner.clone());
    let v = interruptible(py, &stop, || {
        polycover::certify::Certificate::verify(&path, &checker, inner.as_ref(), &stop, |_| {})
    })?
    .map_err(|e| puzzle::timed_out(e, &stop))?;
    puzzle::int(py, &v.count)
}

/// Packing puzzles as exact cover: exact counts, streamed solutions, uniform samples, the
/// CNF for PySAT, and solutions drawn as SVG in notebooks.
#[pymodule(name = "polycover")]
fn polycover_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("PolycoverError", m.py().get_type::<PolycoverError>())?;
    m.add("PuzzleError", m.py().get_type::<PuzzleError>())?;
    m.add_class::<puzzle::Puzzle>()?;
    m.add_class::<puzzle::Solutions>()?;
    m.add_class::<solution::Solution>()?;
    m.add_class::<cnf::Cnf>()?;
    m.add_function(wrap_pyfunction!(catalog, m)?)?;
    m.add_function(wrap_pyfunction!(solvers, m)?)?;
    m.add_function(wrap_pyfunction!(settings, m)?)?;
    m.add_function(wrap_pyfunction!(encodings, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    Ok(())
}
