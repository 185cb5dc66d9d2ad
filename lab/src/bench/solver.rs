//! Any SAT-competition-style solver on our DIMACS: `bench --external NAME=COMMAND`, and
//! the built-in `cadical` row (`cadical -q`), which is one case of it.
//!
//! The command is split into words as a POSIX shell would (quotes, escapes; no
//! expansion), and the DIMACS file's path replaces a `{}` word, or is appended when
//! there is none. The solver's answer (`s SATISFIABLE` with `v` lines, or `s
//! UNSATISFIABLE`; exit codes 10 and 20 are answers, not failures) is read with
//! `decode`'s reader.
//!
//! Invariants:
//! - A model is checked before its time counts: an exact cover, of placements the
//!   symmetry reduction kept, the canonical member of its class. A wrong model is a
//!   failure of the whole bench (exit 1), naming the solver and what was wrong; so is a
//!   solver that ends without an answer. An UNSAT answer to a puzzle with a solution is
//!   caught by the comparison with the DLX's row (`compare` in `bench/mod.rs`).
//! - A solver named by `--external` that cannot be started (not on PATH, no such file)
//!   is refused before the first run ([`DimacsSolver::check`], exit 2): the user asked
//!   for it by name. The built-in `cadical` row, asked for with the other `--solvers`,
//!   is a skipped row when Debian's `cadical` is not installed; a solver stopped by the
//!   timeout gives a `timeout` row.

use std::collections::HashSet;
use std::path::Path;

use super::external::{check_answer, dimacs_row, higher, on_path, run};
use super::{Plan, Row, Spread};
use crate::sat::Amo;
use crate::sat::Answer;
use polycover::Problem;
use polycover::{Error, Result};

/// A SAT solver that `bench` runs on the DIMACS, by name and command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DimacsSolver {
    pub name: String,
    /// The program and its arguments; `{}` stands for the DIMACS file.
    pub command: Vec<String>,
}

impl DimacsSolver {
    /// The built-in `cadical` row: the `cadical` binary (Debian's package), quiet.
    pub fn cadical() -> DimacsSolver {
        DimacsSolver {
            name: "cadical".into(),
            command: vec!["cadical".into(), "-q".into()],
        }
    }

    /// Parses `NAME=COMMAND` (`--external`). `taken` are the names already meaning
    /// something to `--solvers`.
    pub fn parse(spec: &str, taken: &[&str]) -> std::result::Result<DimacsSolver, String> {
        let Some((name, command)) = spec.split_once('=') else {
            return Err(format!(
                "`{spec}`: --external takes NAME=COMMAND, for example \
                 kissat='kissat -q'"
            ));
        };
        let name = name.trim();
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
        {
            return Err(format!(
                "`{name}`: an --external name is letters, digits, `-`, `_` and `.`"
            ));
        }
        if taken.contains(&name) {
            return Err(format!(
                "`{name}` already names an engine or program of --solvers: give the \
                 external solver another name"
            ));
        }
        let command = shell_words::split(command)
            .map_err(|e| format!("`{command}`: cannot split the command into words: {e}"))?;
        if command.is_empty() {
            return Err(format!("--external {name}: the command is empty"));
        }
        Ok(DimacsSolver {
            name: name.to_string(),
            command,
        })
    }

    /// `--external NAME=COMMAND`: [`DimacsSolver::parse`] against the names of
    /// `--solvers`.
    pub fn parse_arg(spec: &str) -> std::result::Result<DimacsSolver, String> {
        DimacsSolver::parse(spec, &super::Entrant::names())
    }

    /// Refuses a solver whose program cannot be started, naming it: `--external`'s
    /// check before any run.
    pub fn check(&self) -> Result<()> {
        let program = &self.command[0];
        if startable(program) {
            return Ok(());
        }
        let where_ = if program.contains('/') {
            "no such file"
        } else {
            "not found on PATH"
        };
        Err(Error::Usage(format!(
            "--external {}: `{program}` cannot be started ({where_}); give a program on \
             PATH or a path to one",
            self.name
        )))
    }

    /// The command line for the DIMACS file `path`.
    fn args_for(&self, path: &str) -> (String, Vec<String>) {
        let mut words: Vec<String> = self
            .command
            .iter()
            .map(|w| {
                if w == "{}" {
                    path.to_string()
                } else {
                    w.clone()
                }
            })
            .collect();
        if !self.command.iter().any(|w| w == "{}") {
            words.push(path.to_string());
        }
        let program = words.remove(0);
        (program, words)
    }
}

/// Whether `program` can be started: a path to a file, or a name on PATH.
fn startable(program: &str) -> bool {
    if program.contains('/') {
        Path::new(program).is_file()
    } else {
        on_path(program)
    }
}

/// Measures `solver` on the problem's DIMACS in encoding `amo`, written into `dir`: the
/// time to a checked model, or to UNSAT.
pub(super) fn row(
    label: &str,
    solver: &DimacsSolver,
    amo: Amo,
    p: &Problem,
    plan: &Plan,
    dir: &Path,
) -> Result<Row> {
    let name = solver.name.as_str();
    if !startable(&solver.command[0]) {
        return Ok(Row::skipped(
            label,
            name,
            Some(amo),
            &format!("{} not on PATH", solver.command[0]),
        ));
    }
    let (mut row, path_str, compile) = dimacs_row(label, name, amo, p, dir)?;
    let kept = p.kept_mask();
    let (program, args) = solver.args_for(&path_str);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let source = format!("{name} ({}) on {path_str}", solver.command.join(" "));
    let (mut firsts, mut unsats) = (Vec::new(), Vec::new());
    let mut peak = None::<f64>;
    for _ in 0..plan.repeat.max(1) {
        let r = run(&program, &args, plan.timeout, &plan.stop)?;
        peak = higher(peak, r.peak_mib);
        if !r.finished {
            row.status = "timeout".into();
            continue;
        }
        let last_words = || {
            r.stderr
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("no message")
                .to_string()
        };
        // The reader's error names `source` already.
        let answer = Answer::parse(r.stdout.as_bytes(), &source).map_err(|e| {
            Error::Failed(format!(
                "{e}: it ended without an answer ({})",
                last_words()
            ))
        })?;
        match answer {
            Answer::Satisfiable(lits) => {
                // The model must be a solution, or the bench fails.
                check_answer(p, &kept, &lits, &source, &mut HashSet::new())?;
                firsts.push(r.seconds);
            }
            // No solution: a time to UNSAT, never a first solution.
            Answer::Unsatisfiable => unsats.push(r.seconds),
            Answer::Unknown => {
                return Err(Error::Failed(format!(
                    "{source}: it ended without an answer (`s UNKNOWN`): {}",
                    last_words()
                )));
            }
        }
    }
    // A first-model figure: one model (or none) is all it finds.
    row.complete = false;
    row.compile = Spread::of(vec![compile]);
    row.first = Spread::of(firsts);
    row.unsat = Spread::of(unsats);
    row.peak_mib = peak;
    Ok(row)
}
