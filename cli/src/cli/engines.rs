//! The command line's one door to the engines: the engine its options name, its
//! preparation for a problem, and the runs its commands ask for. A command prepares the
//! engine once ([`prepare`]), describes it and runs it; what the prepared engine can do
//! (count, list, find one) it asks the prepared value, never the engine's name.
//!
//! Invariants:
//! - `--solver` is checked by clap against [`Engine::solver_names`] and made into an
//!   engine here, once; the SAT options change that engine's own defaults, so the
//!   defaults (`product`, `mrv`, the build's backend) are the engine's, never restated.
//! - An option the chosen engine would ignore is refused before any work.

use std::io::Write;
use std::ops::ControlFlow;
use std::time::Duration;

use super::context::Context;
use crate::engine::{Counts, FindsOne, Lists, Prepared, Refutes, Within};
use crate::sat::Amo;
use crate::Stop;
use polycover::Count;
use polycover::Engine;
use polycover::Problem;
use polycover::Report;
use polycover::RunOptions;
use polycover::Scope;
use polycover::Setting;
use polycover::Step;
use polycover::{Error, Result};

/// The engine that `--solver` names (`bits` when none is named), with the SAT options
/// given: the engine takes them as (setting, value) pairs ([`Engine::configure`]) and
/// refuses those it does not declare.
pub(super) fn chosen(solver: Option<&str>, sat: &[(Setting, String)]) -> Result<Engine> {
    let Some(engine) = named_or_default(solver) else {
        unreachable!("clap accepts only Engine::solver_names()")
    };
    engine.configure(
        sat.iter()
            .map(|(setting, value)| (*setting, value.as_str())),
    )
}

/// Whether the engine `--solver` names (the default's, when none is named) declares
/// `setting`, so that the flag is the engine's (`--force` is the CNF's size limit for an
/// engine that declares it, and a directory's overwrite for every other).
pub(super) fn declares(solver: Option<&str>, setting: Setting) -> bool {
    named_or_default(solver).is_some_and(|e| e.declares(setting))
}

/// The engine `--solver` names, or `bits` when none is named.
fn named_or_default(solver: Option<&str>) -> Option<Engine> {
    solver.map_or(Some(Engine::bits()), Engine::from_name)
}

/// Whether `engine` runs on the CNF: it declares an at-most-one encoding.
fn reads_cnf(engine: &Engine) -> bool {
    engine.declares(Setting::Amo)
}

/// `count`'s engine: the one `--solver` names, or when none is named the default for
/// this problem ([`polycover::Problem::default_counter_within`]) with the reason for the
/// `c solver` line. SAT options without `--solver sat` are refused before the puzzle is
/// read. The default's estimate takes at most a tenth of the time to `deadline` (and a
/// second), stops at Ctrl-C, and says so on `out` when it takes a noticeable time.
pub(super) fn for_count(solver: Option<&str>, sat: &[(Setting, String)]) -> Result<ForCount> {
    match solver {
        Some(_) => Ok(ForCount(Some(chosen(solver, sat)?))),
        None => match sat.first() {
            Some((setting, _)) => Err(Error::Usage(format!(
                "{} applies to {} only, and no --solver was given",
                super::wording::flag(*setting, None),
                declaring(*setting).join(", ")
            ))),
            None => Ok(ForCount(None)),
        },
    }
}

/// The options of a command's one-thread run (a first solution, an enumeration in
/// order, `check`'s counts): the command's stop, with its `--timeout`.
pub(super) fn run_options(ctx: &Context) -> RunOptions<'static> {
    RunOptions {
        stop: ctx.stop().clone(),
        ..RunOptions::default()
    }
}

/// `count`'s engine before the puzzle is read: the one named, or `None` for the default.
pub(super) struct ForCount(Option<Engine>);

impl ForCount {
    /// The engine `--solver` named, if one was.
    pub(super) fn named(&self) -> Option<&Engine> {
        self.0.as_ref()
    }

    /// The engine for `p` (`split`: a part or a checkpoint runs), with why when it is the
    /// default.
    pub(super) fn pick(
        self,
        p: &Problem,
        split: bool,
        stop: &Stop,
        out: &mut dyn Write,
    ) -> (Engine, Option<String>) {
        if let Some(engine) = self.0 {
            return (engine, None);
        }
        let out = std::cell::RefCell::new(out);
        let notice = |left: Duration| {
            let mut out = out.borrow_mut();
            let _ = writeln!(
                out,
                "c choosing the engine: estimating the search's size (at most {:.1} s; \
                 --solver skips it)",
                left.as_secs_f64()
            );
            let _ = out.flush();
        };
        let (engine, why) = p.default_counter(split, stop, Some(&notice));
        (engine, Some(why))
    }
}

/// The values of `--solver` that declare `setting`, as flags: `--solver sat`.
fn declaring(setting: Setting) -> Vec<String> {
    Engine::solvers_declaring(setting)
        .into_iter()
        .map(|name| format!("--solver {name}"))
        .collect()
}

/// The engine `check` compares the others with.
pub(super) fn reference() -> Engine {
    Engine::dlx()
}

/// `check`'s other engines that do not run on the CNF: every one of the registry this
/// build can run, but the reference.
pub(super) fn check_native() -> Vec<Engine> {
    let reference = reference();
    Engine::bench_names()
        .into_iter()
        .filter_map(Engine::from_name)
        .filter(|e| *e != reference && !reads_cnf(e) && e.available().is_ok())
        .collect()
}

/// The values the first engine of `--solver` that declares `setting` takes for it (none
/// for a setting no engine declares, or one that takes any text).
pub(crate) fn declared_values(setting: Setting) -> Vec<&'static str> {
    declared_with_help(setting)
        .into_iter()
        .map(|(name, _)| name)
        .collect()
}

/// [`declared_values`], each with its line of help.
pub(crate) fn declared_with_help(setting: Setting) -> Vec<(&'static str, &'static str)> {
    declared(setting).map(|d| d.values).unwrap_or_default()
}

/// That engine's default for `setting` (`--solver sat` with no option).
#[cfg(test)]
pub(crate) fn declared_default(setting: Setting) -> Option<&'static str> {
    declared(setting).and_then(|d| d.default)
}

/// The declaration of `setting` by the first engine of `--solver` that has it: the
/// engines that share a setting (the SAT backends) declare the same values (their
/// defaults may differ: the at-most-one encoding follows the backend).
fn declared(setting: Setting) -> Option<polycover::engine::Declared> {
    let first = *Engine::solvers_declaring(setting).first()?;
    Engine::from_name(first)?
        .settings()
        .into_iter()
        .find(|d| d.setting == setting)
}

/// The values of `--solver`, each with its line of help.
pub(crate) fn solvers() -> Vec<(&'static str, &'static str)> {
    Engine::solver_names()
        .into_iter()
        .map(|name| (name, Engine::about(name).unwrap_or_default()))
        .collect()
}

/// `check`'s SAT engine in encoding `amo`, `backend` (the build's default when not
/// given) with its defaults otherwise, and its name in `check`'s table.
pub(super) fn check_sat(backend: Option<&str>, amo: Amo, force: bool) -> Result<(Engine, String)> {
    let sat = cnf_engine();
    let mut pairs = vec![(Setting::Amo, amo.name())];
    if let Some(backend) = backend {
        pairs.push((Setting::Backend, backend));
    }
    if force {
        pairs.push((Setting::Force, "true"));
    }
    let engine = sat.configure(pairs)?;
    let backend = engine.setting(Setting::Backend).unwrap_or_default();
    let name = format!("sat {backend} {}", amo.name());
    Ok((engine, name))
}

/// The first engine of `--solver` that runs on the CNF (declares an at-most-one
/// encoding), with its defaults: `check`'s and `--proof`'s.
fn cnf_engine() -> Engine {
    Engine::solvers_declaring(Setting::Amo)
        .first()
        .and_then(|name| Engine::from_name(name))
        .expect("an engine of the registry runs on the CNF")
}

/// Compiles `engine` for `p`: what `describe` and the runs share.
pub(super) fn prepare<'p>(p: &'p Problem, engine: &Engine) -> Result<Box<dyn Prepared + 'p>> {
    engine.prepare(p)
}

/// Called with a subproblem's index in the split and its count as it ends, on any
/// thread.
pub(super) type Finished<'a> = &'a (dyn Fn(usize, Count) + Sync);

/// Counts the whole search, or only the subproblems of a scope, calling its
/// [`Finished`] as each one ends.
pub(super) fn count(
    counter: Box<dyn Counts + '_>,
    opts: &RunOptions,
    scope: Option<(Scope, Finished)>,
) -> Result<Report> {
    let within = scope.map(|(scope, finished)| Within { scope, finished });
    counter.count(opts, within)
}

/// The engine `design` counts and draws with: the bitset search, the fastest to stop at
/// a few solutions.
pub(super) fn for_design() -> Engine {
    Engine::bits()
}

/// The first solution (or none, with the run's report): `solve`'s one search.
pub(super) fn first(
    finder: &dyn FindsOne,
    opts: &RunOptions,
) -> Result<(Option<Vec<u32>>, Report)> {
    finder.first(opts)
}

/// Calls `f` with each distinct solution of the whole search, or with each solution and
/// the end of each subproblem of `scope`; `f` returns `Break` to stop. The engine
/// chooses how ([`Lists::for_each`]).
pub(super) fn solutions(
    lists: &dyn Lists,
    opts: &RunOptions,
    scope: Option<Scope>,
    f: &mut dyn FnMut(Step<'_>) -> ControlFlow<()>,
) -> Result<Report> {
    lists.for_each(opts, scope, f)
}

/// `solve --proof`'s engine: `--solver sat`, with the varisat backend unless another is
/// named. Varisat is the one backend that writes a proof: another is refused here,
/// before any work (its prepared engine would refuse too, saying why:
/// [`Prepared::refuter`]).
pub(super) fn for_proof(solver: Option<&str>, sat: &[(Setting, String)]) -> Result<Engine> {
    let engine = chosen(solver, sat)?;
    if !reads_cnf(&engine) {
        return Err(Error::Usage(format!(
            "--proof goes with {}: the proof is of the CNF's unsatisfiability",
            declaring(Setting::Amo).join(", ")
        )));
    }
    // Varisat writes the proof: the backend when none is given, set in the same call as
    // the other settings, so that a chosen encoding is checked against it (the lazy
    // at-most-one, CaDiCaL's default, is refused when asked for, and followed when not).
    let engine = if sat.iter().any(|(s, _)| *s == Setting::Backend) {
        engine
    } else {
        let with_varisat: Vec<(Setting, String)> =
            std::iter::once((Setting::Backend, "varisat".to_string()))
                .chain(sat.iter().cloned())
                .collect();
        chosen(solver, &with_varisat)?
    };
    match engine.setting(Setting::Backend) {
        Some(backend) if backend != "varisat" => Err(Error::Usage(format!(
            "--proof: the {backend} backend writes no proof here (varisat is the one that \
             does); use --backend varisat, the default with --proof"
        ))),
        _ => Ok(engine),
    }
}

/// `sample`'s engine, prepared: the memo, which draws from its table of counts
/// ([`crate::engine::Samples`]).
pub(super) fn for_samples(p: &Problem) -> Result<Box<dyn Prepared + '_>> {
    Engine::named("memo")?.prepare(p)
}

/// One solve that writes a DRAT proof to `proof` (see [`crate::engine::Refutes`]).
pub(super) fn refute(
    refuter: &dyn Refutes,
    proof: &mut dyn std::io::Write,
    ctx: &Context,
) -> Result<crate::sat::Refutation> {
    refuter.refute(&run_options(ctx), proof)
}

/// The difficulty measures of `problem` (the DLX's search tree; `design::difficulty`):
/// `None` when `stop`'s deadline came first.
pub(super) fn difficulty(
    problem: &Problem,
    stop: &Stop,
) -> Result<Option<crate::engine::Difficulty>> {
    let dlx = Engine::dlx().prepare(problem)?;
    dlx.measurer()?.measure(stop)
}
