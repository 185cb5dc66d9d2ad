//! Certified counts: a count with a certificate that an independent checker verifies.
//!
//! The certificate is in the CPOG format (Bryant, Nawrocki, Avigad, Heule: "Certified
//! Knowledge Compilation with Application to Verified Model Counting", SAT 2023): a CNF
//! whose models are the puzzle's solutions one for one ([`formula`](self) explains its
//! clauses), and a partitioned-operation graph with the clausal proof that the graph and
//! the CNF are equivalent. A checker (the prototype `cpog-check`, or the one verified in
//! Lean) reads both, checks every step, and computes the model count from the graph.
//! Nothing polycover says is taken on trust but the step from the puzzle file to the CNF,
//! which the CNF's comments make readable.
//!
//! The graph is the record of an exact-cover search: the memo's table of
//! subproblems with shared subproblems shared, or the search tree of the DLX and the
//! bitset engine. For SAT enumeration, the models found are the tree's leaves, and a
//! model missing or extra stops the certificate.
//!
//! A count up to symmetry is certified through Burnside's lemma: one certificate per
//! conjugacy class of the group, of the solutions its element fixes (the CNF gets
//! `x_o -> x_g(o)`), and the arithmetic in the README and `MANIFEST`, which
//! `polycover verify` redoes from the checked terms.
//!
//! # References
//!
//! - R. E. Bryant, W. Nawrocki, J. Avigad, M. J. H. Heule, *Certified Knowledge
//!   Compilation with Application to Verified Model Counting*, SAT 2023.
//!
//! Invariants: files are written under `.partial` names and renamed only when every term
//! is complete, so a stopped or failed run leaves nothing that could pass for a
//! certificate; the certified count is the graph's, computed by the search as it writes.

mod audit;
mod chains;
mod emit;
mod formula;
mod hints;
mod layers;
mod orbits;
mod out;
mod reverse;
mod search;
mod term;
mod verify;

use std::collections::HashSet;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use num_bigint::BigUint;

pub(crate) use self::search::Shape;
pub(crate) use self::verify::verify;
use crate::burnside;
use crate::count::Count;
use crate::engine::{names, Certifies, Engine, Problem, RunOptions};
use crate::error::{Error, Result};
use crate::stop::Stop;

/// One term of Burnside's sum, as written or as checked: the solutions one symmetry fixes
/// (all of them for the identity).
///
/// The fields that only one side knows are options: the symmetry's name and the search's
/// size are known where the term was written, the checker's own figure where it was
/// checked.
#[derive(Clone, Debug)]
pub struct Term {
    /// `identity`, or `g` and the element's index.
    pub name: String,
    /// How many elements of the group fix as many solutions (its conjugacy class).
    pub multiplicity: usize,
    /// The count of the term's CNF, as the graph gives it (evaluated exactly).
    pub count: Count,
    /// The CNF's file name in the directory.
    pub cnf: String,
    /// The certificate's file name in the directory.
    pub cpog: String,
    /// The CNF's size in bytes.
    pub cnf_bytes: u64,
    /// The certificate's size in bytes.
    pub cpog_bytes: u64,
    /// Seconds to write the term, or to check it.
    pub seconds: f64,
    /// Written: the symmetry's own name.
    pub symmetry: Option<String>,
    /// Written: the graph's operations.
    pub nodes: Option<usize>,
    /// Written: the search states visited.
    pub states: Option<u64>,
    /// Checked: the count the checker printed, where it differs from the graph's exact
    /// value (the prototype checker's arithmetic goes wrong on the 12x12 dominoes'
    /// 5.3e16).
    pub checker_count: Option<Count>,
}

/// A certificate directory, as written or as checked: its terms, and the count they give.
#[derive(Clone, Debug)]
pub struct Certificate {
    /// The terms, identity first (in the manifest's order).
    pub terms: Vec<Term>,
    /// The group's order: the sum of the terms, each times its multiplicity, over it.
    pub order: usize,
    /// That quotient.
    pub count: Count,
    /// The puzzle the CNFs name (as checked, their `c puzzle` line).
    pub puzzle: Option<String>,
    /// The symmetry mode: as written, the problem's; as checked, the `MANIFEST`'s
    /// `symmetry` line, which the terms' group was checked against.
    pub mode: Option<crate::puzzle::SymmetryMode>,
}

/// What to certify and how.
pub(crate) struct Request<'a> {
    /// The puzzle and its symmetry mode.
    pub problem: &'a Problem,
    /// The graph's shape: the memo's (shared) or a search tree.
    pub shape: Shape,
    /// The engine's name, for the README.
    pub engine: &'a str,
    /// With SAT enumeration: its models (sorted option lists), the tree's leaves.
    pub models: Option<HashSet<Vec<u32>>>,
    /// The count the engine gave, if any: a certificate of another count is not kept.
    pub expected: Option<&'a Count>,
    /// When to give up (the search and the deletions poll it); nothing is then kept.
    pub stop: &'a Stop,
    /// Hears the bytes written so far.
    pub written: &'a dyn Fn(u64),
}

impl Shape {
    /// The shape that fits an engine: the memo's table (the frontier's too: its layers
    /// are the memo's subproblems, and the certificate is built by the memo's search), or
    /// the search tree of the DLX, the bitset engine and SAT enumeration.
    ///
    /// # Errors
    ///
    /// [`Error::Usage`] for an engine that cannot certify.
    pub(crate) fn of(engine: &Engine) -> Result<Shape> {
        match engine.algorithm().certifies() {
            Some(Certifies::Table) => Ok(Shape::Shared),
            Some(Certifies::SearchTree | Certifies::Models) => Ok(Shape::Tree),
            None => {
                let able = Engine::solvers_that(|e| e.algorithm().certifies().is_some());
                Err(Error::Usage(format!(
                    "a certificate comes from {}, not {}",
                    crate::setting::Setting::Solver.is(able.join(", ")),
                    engine.name()
                )))
            }
        }
    }
}

/// What a certificate would take, in bytes: where its size follows the solutions.
#[derive(Clone, Copy, Debug)]
struct Estimate {
    /// Its files.
    disk: f64,
    /// The memory that writing it holds (the graph and the added clauses' hints).
    memory: f64,
    /// The frontier's states, for a sweep's certificate (its size follows them, not the
    /// solutions).
    states: Option<u64>,
}

/// What the certificate of a count of `solutions` (up to the problem's symmetry) would
/// take, where the solutions decide it: a search tree, or the memo's proof where it follows
/// the search's paths (a puzzle it does not sweep). `None` for the memo's sweep of one
/// piece with copies, whose graph and proof are shared.
///
/// The graph: about a quarter of the pieces (at least one) of operations per solution of
/// the whole group, 250 bytes of file and 60 of memory each (the 8x8 dominoes' DLX tree:
/// 63 M operations, 24.5 GB, 6.1 GB). The deletions: per pair of placements on one cell,
/// a twentieth of the operations as hints of 8 bytes (Soma: 1.4 GB measured; the 6x10
/// pentominoes, 35 GB, run three times over it). Calibrated on the memo's search; the
/// layers that now certify pieces without copies write less (Soma 838 MB), so this is an
/// upper bound for them.
///
/// # Errors
///
/// An engine that cannot certify.
fn estimate(problem: &Problem, engine: &Engine, solutions: &Count) -> Result<Option<Estimate>> {
    let shape = Shape::of(engine)?;
    let m = &problem.compiled.matrix;
    if shape == Shape::Shared && formula::Formula::is_sweep(m) {
        return Ok(layers_estimate(m));
    }
    let counted: Vec<u32> = (0..m.num_items() as u32)
        .filter(|&i| m.items()[i as usize].max > 1)
        .collect();
    let columns = m.columns();
    if shape == Shape::Shared
        && counted.len() == 1
        && columns[counted[0] as usize].len() == m.num_options()
    {
        return Ok(None);
    }
    let leaves = solutions.to_f64() * problem.compiled.group.order() as f64;
    // The pieces in a solution: what must be covered over what one placement covers.
    let covered: f64 = m.items().iter().map(|i| i.min as f64).sum();
    let pieces = covered / (m.num_entries() as f64 / m.num_options().max(1) as f64);
    let nodes = leaves * (pieces / 4.0).max(1.0);
    let pairs: f64 = columns
        .iter()
        .zip(m.items())
        .filter(|(_, item)| item.max == 1)
        .map(|(c, _)| c.len() as f64 * (c.len() as f64 - 1.0) / 2.0)
        .sum();
    Ok(Some(Estimate {
        disk: nodes * 250.0 + pairs * nodes * 0.05 * 8.0,
        memory: nodes * 60.0,
        states: None,
    }))
}

/// What the certificate of a sweep takes, from the frontier's own count of its states
/// (milliseconds to seconds): per state about 1.2 KB of file and 0.7 KB of memory while it
/// is written (the 4x5x6 dominoes: 3.3 million states, 3.8 GB, 2.2 GB). `None` where the
/// frontier does not count it layer by layer.
fn layers_estimate(matrix: &crate::matrix::Matrix) -> Option<Estimate> {
    let never = || false;
    let settings = crate::solver::memo::Settings {
        threads: 1,
        memory: 1 << 30,
        shared: true,
        stop: &never,
        layers: Some(crate::solver::memo::Sweep::Narrowest),
    };
    let input = crate::solver::memo::Input::from(matrix);
    let counted = crate::solver::memo::count_input(&input, &settings);
    let states = counted.stats.layers.states as f64;
    (counted.count.is_ok() && states > 0.0).then_some(Estimate {
        disk: states * 1200.0,
        memory: states * 700.0,
        states: Some(counted.stats.layers.states),
    })
}

/// Certificates, written and verified: a CPOG proof of a count that an independent
/// checker verifies.
impl Certificate {
    /// Whether `dir` can take a certificate, before any work: a directory, or a name to
    /// make inside a directory that exists (a mistyped path would otherwise make a chain
    /// of directories and write gigabytes there). [`Certificate::write`] asks it too.
    ///
    /// # Errors
    ///
    /// [`Error::Usage`] for a file, or a missing directory whose parent is missing too.
    pub fn check_dir(dir: &Path) -> Result<()> {
        if dir.exists() && !dir.is_dir() {
            return Err(Error::Usage(format!(
                "{} is not a directory: a certificate is a directory of files",
                dir.display()
            )));
        }
        let parent = match dir.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        if !dir.exists() && !parent.is_dir() {
            return Err(Error::Usage(format!(
                "cannot make the certificate directory {}: {} does not exist",
                dir.display(),
                parent.display()
            )));
        }
        Ok(())
    }

    /// Writes into `dir` (made if missing) the certificate of the problem's count, in
    /// the way that fits `engine` (the memo's table, or the search tree of the DLX, the
    /// bitset engine and SAT enumeration): per term of Burnside's sum a CNF and its CPOG
    /// proof, a `MANIFEST` and a `README`. For SAT the models are enumerated first (they
    /// are the tree's leaves). `expected`: the count the engine gave; a certificate of
    /// another count is not kept. `written` hears the bytes written so far, about every
    /// megabyte and at the end of each file (a front end's progress line).
    ///
    /// # Errors
    ///
    /// An engine that cannot certify, a puzzle the certificate cannot express
    /// ([`Error::Usage`]), a directory that cannot be written, a stop
    /// ([`Error::Interrupted`], and nothing is kept), or SAT models that are not the
    /// solutions.
    pub fn write(
        problem: &Problem,
        engine: &Engine,
        stop: &Stop,
        expected: Option<&Count>,
        dir: &Path,
        written: &dyn Fn(u64),
    ) -> Result<Certificate> {
        let shape = Shape::of(engine)?;
        let models = if engine.algorithm().certifies() == Some(Certifies::Models) {
            // Refused before the enumeration, which `certify` would refuse after.
            if problem.compiled.group.order() > 1 {
                return Err(sat_up_to_symmetry());
            }
            let mut models = HashSet::new();
            let opts = RunOptions {
                threads: 1,
                stop: stop.clone(),
                progress: None,
                memory: 0,
            };
            let listed = problem.for_each_solution(engine, &opts, &mut |s| {
                models.insert(s.options().to_vec());
                std::ops::ControlFlow::Continue(())
            })?;
            if !listed.complete {
                return Err(Error::Interrupted(
                    "SAT enumeration for the certificate was stopped".into(),
                ));
            }
            Some(models)
        } else {
            None
        };
        certify(
            Request {
                problem,
                shape,
                engine: engine.name(),
                models,
                expected,
                stop,
                written,
            },
            dir,
        )
    }

    /// The engine whose certificate of `problem` is smallest, for a `--certify` that
    /// names none, and why: the frontier where the certificate follows a sweep's layers
    /// (one piece in copies and every cell to fill: a node per state of the frontier),
    /// else the memo (its table, shared), never a search tree.
    pub fn engine_for(problem: &Problem) -> (Engine, String) {
        let (name, why) = if formula::Formula::is_sweep(&problem.compiled.matrix) {
            (
                names::FRONTIER,
                "the certificate's graph is the frontier's layers, a node per state",
            )
        } else {
            (
                names::MEMO,
                "the certificate's graph is the memo's table, shared; a search tree's grows \
                 with the solutions",
            )
        };
        let engine = Engine::from_name(name).expect("a registered engine");
        (engine, format!("the default for a certificate: {why}"))
    }

    /// Writes the CNF that a certificate of `problem` certifies, the identity's: one
    /// variable per placement (its `c v` lines name them), per cell at least one, per
    /// pair of placements on one cell not both, piece counts as plain clauses, no
    /// symmetry breaking and no auxiliary variable, with a `c p show` line of every
    /// variable. Its model count is the count of every solution, whatever the problem's
    /// symmetry mode; exact model counters count it far faster than the SAT encodings
    /// (`dimacs --certified`).
    ///
    /// # Errors
    ///
    /// A puzzle the certificate cannot express ([`Error::Usage`]); a failed write.
    pub fn write_cnf(problem: &Problem, w: &mut dyn Write) -> Result<()> {
        let formula = formula::Formula::new(&problem.compiled.matrix, None)?;
        let mut comments = term::cnf_comments(problem, &formula, None);
        let show: Vec<String> = (1..=formula.num_vars).map(|v| v.to_string()).collect();
        comments.push(format!("p show {} 0", show.join(" ")));
        formula.write_dimacs(w, &comments)?;
        Ok(())
    }

    /// Whether `engine` can certify a count (the memo, dlx, bits and sat do): checked
    /// before any work.
    ///
    /// # Errors
    ///
    /// [`Error::Usage`] for an engine that cannot.
    pub fn check_engine(engine: &Engine) -> Result<()> {
        Shape::of(engine).map(|_| ())
    }

    /// Refuses, before anything is written, a certificate of a count of `solutions`
    /// that would not fit: where the solutions decide its size (a search tree, not the
    /// memo's sweep of one piece with copies, whose graph is shared), the memory writing
    /// it holds past `memory` bytes, or its files past `free_disk` bytes (`None`: the
    /// free space is not known, and only the memory is checked).
    ///
    /// # Errors
    ///
    /// [`Error::Usage`] naming both sizes, the solver and the memory allowed; an engine
    /// that cannot certify.
    pub fn check_room(
        problem: &Problem,
        engine: &Engine,
        solutions: &Count,
        memory: u64,
        free_disk: Option<u64>,
    ) -> Result<()> {
        let Some(e) = estimate(problem, engine, solutions)? else {
            return Ok(());
        };
        let size = |b: f64| {
            if b >= 1e9 {
                format!("{:.1} GB", b / 1e9)
            } else {
                format!("{:.0} MB", (b / 1e6).round().max(1.0))
            }
        };
        let free = free_disk.map(|f| f as f64);
        if e.memory <= memory as f64 && !free.is_some_and(|f| e.disk > f) {
            return Ok(());
        }
        let (what, hint) = match e.states {
            Some(states) => (
                format!("the certificate of the frontier's {states} states"),
                "",
            ),
            None => (
                format!("the search tree's certificate of {solutions} solutions"),
                "; the memo's table, and the frontier's layers where one piece in copies \
                 fills every cell, follow their states instead",
            ),
        };
        Err(Error::Usage(format!(
            "cannot certify with {}: {what} would take about {} of disk ({}) and {} of \
             memory ({} allows {}){hint}",
            crate::setting::Setting::Solver.is(engine.name()),
            size(e.disk),
            free.map(|f| format!("{} free", size(f)))
                .unwrap_or_else(|| "free space unknown".into()),
            size(e.memory),
            crate::setting::Setting::Memory.mark(),
            size(memory as f64)
        )))
    }

    /// Verifies the certificate in `dir`: derives from its CNFs, never from `MANIFEST`,
    /// that the terms are the conjugacy classes of a group of symmetries of the identity's
    /// CNF, with their sizes and the group's order; with `puzzle`, that the identity's CNF
    /// and the group are the ones polycover builds from it in the certificate's mode;
    /// then runs the CPOG checker at `checker` on each term (`progress` hears each term's
    /// name) and sums the checked counts.
    ///
    /// # Errors
    ///
    /// A missing or malformed `MANIFEST` ([`Error::Puzzle`]); terms that do not hold
    /// together or are not of `puzzle`, or a term the checker rejects ([`Error::Failed`],
    /// naming what differs); a checker that cannot be run ([`Error::Usage`]); a stop.
    pub fn verify(
        dir: &Path,
        checker: &Path,
        puzzle: Option<&crate::puzzle::Puzzle>,
        stop: &Stop,
        progress: impl FnMut(&str),
    ) -> Result<Certificate> {
        verify(dir, checker, puzzle, stop, progress)
    }
}

fn sat_up_to_symmetry() -> Error {
    Error::Usage(format!(
        "cannot certify a SAT count up to symmetry: certify it with {}, or with {}, which \
         certify the Burnside terms",
        crate::setting::Setting::Symmetry.is("none"),
        crate::setting::Setting::Solver.is("memo, dlx or bits")
    ))
}

/// A file name from a puzzle name: lower case, letters and digits, `-` between.
fn stem(name: &str) -> String {
    let mut out = String::new();
    for ch in name.chars() {
        if ch.is_ascii_alphanumeric() {
            out.push(ch.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-').to_string();
    if out.is_empty() {
        "puzzle".into()
    } else {
        out
    }
}

/// Files under `.partial` names, removed unless kept.
struct Partials(Vec<(PathBuf, PathBuf)>);

impl Partials {
    fn add(&mut self, dir: &Path, name: &str) -> PathBuf {
        let partial = dir.join(format!("{name}.partial"));
        self.0.push((partial.clone(), dir.join(name)));
        partial
    }

    fn keep(mut self) -> Result<()> {
        for (partial, path) in std::mem::take(&mut self.0) {
            fs::rename(&partial, &path).map_err(|source| Error::Write { path, source })?;
        }
        Ok(())
    }
}

impl Drop for Partials {
    fn drop(&mut self) {
        for (partial, _) in &self.0 {
            let _ = fs::remove_file(partial);
        }
    }
}

/// The group as it acts on the placements: one element per permutation of the options.
/// A flat target's mirror image through its own plane moves no placement, so under
/// `reflections` two elements act alike; Burnside's sum over the distinct actions is the
/// same count, and it is the group `verify` derives from the terms' CNFs.
pub(super) fn faithful(group: &crate::symmetry::Group) -> crate::symmetry::Group {
    let mut seen = HashSet::new();
    crate::symmetry::Group::new(
        group
            .elements()
            .iter()
            .filter(|g| seen.insert(g.options.clone()))
            .cloned()
            .collect(),
    )
}

/// Writes the certificate of the problem's count into `dir` (made if missing, in a
/// directory that exists): per term a CNF and its CPOG certificate, a `MANIFEST` and a
/// `README`. A directory it made is removed again when no certificate is kept.
///
/// # Errors
///
/// A puzzle the certificate cannot express or a directory whose parent is missing
/// ([`Error::Usage`]), a directory that cannot be written, a stop
/// ([`Error::Interrupted`]), or SAT models that are not the solutions.
pub(crate) fn certify(request: Request<'_>, dir: &Path) -> Result<Certificate> {
    Certificate::check_dir(dir)?;
    let made = !dir.exists();
    if made {
        fs::create_dir(dir).map_err(|source| Error::Write {
            path: dir.into(),
            source,
        })?;
    }
    let written = write_terms(request, dir);
    if written.is_err() && made {
        // Its partial files are gone (`Partials`): only an empty directory is removed.
        let _ = fs::remove_dir(dir);
    }
    written
}

/// [`certify`] into the directory `dir`, which exists.
fn write_terms(request: Request<'_>, dir: &Path) -> Result<Certificate> {
    let problem = request.problem;
    let compiled = &problem.compiled;
    // The search and the deletions poll the stop: a signal raises it, and the partial
    // files go as `partials` does.
    let _listening = request.stop.listen();
    let group = &faithful(&compiled.group);
    if request.models.is_some() && group.order() > 1 {
        return Err(sat_up_to_symmetry());
    }
    let name = stem(compiled.puzzle.name());
    let mut partials = Partials(Vec::new());
    let mut terms = Vec::new();
    let classes = if group.order() > 1 {
        burnside::classes(group)
    } else {
        vec![(0, 1)]
    };
    let mut models = request.models;
    // The bytes of the terms written before this one.
    let mut done = 0;
    for (k, size) in classes {
        let g = &group.elements()[k];
        let (label, file) = if k == 0 {
            ("identity".to_string(), name.clone())
        } else {
            (format!("g{k}"), format!("{name}-g{k}"))
        };
        let cnf = format!("{file}.cnf");
        let cpog = format!("{file}.cpog");
        let cnf_path = partials.add(dir, &cnf);
        let cpog_path = partials.add(dir, &cpog);
        let term = term::write_term(
            problem,
            (k > 0).then_some(g),
            request.shape,
            models.take(),
            request.stop,
            &cnf_path,
            &cpog_path,
            &|bytes| (request.written)(done + bytes),
        )?;
        done += term.cnf_bytes + term.cpog_bytes;
        terms.push(Term {
            name: label,
            symmetry: Some(g.name.clone()),
            multiplicity: size,
            cnf,
            cpog,
            ..term
        });
    }
    let mut sum = BigUint::default();
    for t in &terms {
        sum += t.count.as_biguint() * BigUint::from(t.multiplicity);
    }
    let count = burnside::divide(Count::from(sum), group.order())?;
    if let Some(expected) = request.expected.filter(|&e| *e != count) {
        // The partial files are removed as `partials` goes.
        return Err(Error::Failed(format!(
            "the certificate counts {count} but the {} engine counted {expected}: no \
             certificate is kept",
            request.engine
        )));
    }
    let certificate = Certificate {
        terms,
        order: group.order(),
        count,
        puzzle: Some(compiled.puzzle.name().to_string()),
        mode: Some(compiled.mode),
    };
    let manifest = partials.add(dir, "MANIFEST");
    write_file(&manifest, &verify::manifest(&certificate, compiled))?;
    let readme = partials.add(dir, "README");
    write_file(
        &readme,
        &readme_text(&certificate, compiled, request.engine),
    )?;
    partials.keep()?;
    Ok(certificate)
}

fn write_file(path: &Path, text: &str) -> Result<()> {
    let mut file = fs::File::create(path).map_err(|source| Error::Write {
        path: path.into(),
        source,
    })?;
    file.write_all(text.as_bytes())
        .and_then(|_| file.sync_all())
        .map_err(|source| Error::Write {
            path: path.into(),
            source,
        })
}

fn readme_text(c: &Certificate, compiled: &crate::puzzle::Compiled, engine: &str) -> String {
    let mut t = String::new();
    let puzzle = compiled.puzzle.name();
    t.push_str(&format!("Certified count of {puzzle}\n\n"));
    t.push_str(&format!(
        "polycover {} counted {} solutions ({} symmetry, group order {}) with the {} engine \
         and wrote this certificate.\n\n",
        env!("CARGO_PKG_VERSION"),
        c.count,
        compiled.mode.as_str(),
        c.order,
        engine
    ));
    t.push_str(
        "What is proved: each .cpog file is a CPOG certificate (Bryant, Nawrocki, Avigad, \
         Heule, SAT 2023) that a decomposable, deterministic graph is equivalent to the CNF \
         beside it; the checker computes the CNF's model count over all its variables from \
         that graph. Each CNF has one variable per placement (its `c v` lines name them), \
         so its models are the solutions one for one.\n\n\
         What is not proved: that the CNF says what the puzzle file says. Read its clauses \
         (per cell at least one placement, per pair of placements on one cell not both), or \
         decode its models with `polycover decode`.\n\n",
    );
    t.push_str("Terms (Burnside's lemma: the count is the sum of fixed solutions over the group, divided by its order):\n\n");
    for term in &c.terms {
        t.push_str(&format!(
            "  {} ({}): {} x {} fixed solutions; {} and {}\n",
            term.name,
            term.symmetry.as_deref().unwrap_or(""),
            term.multiplicity,
            term.count,
            term.cnf,
            term.cpog
        ));
    }
    let sum: Vec<String> = c
        .terms
        .iter()
        .map(|x| format!("{} x {}", x.multiplicity, x.count))
        .collect();
    t.push_str(&format!(
        "\n  ({}) / {} = {}\n\n",
        sum.join(" + "),
        c.order,
        c.count
    ));
    t.push_str(
        "Check one term with the CPOG checker (it prints FULL-PROOF SUCCESS and the count, \
         among two debug lines for every clause it looks up):\n\n",
    );
    let first = &c.terms[0];
    t.push_str(&format!(
        "  cpog-check {} {} | grep CHECK\n\n",
        first.cnf, first.cpog
    ));
    t.push_str(
        "Check them all and redo the arithmetic from the checked counts (MANIFEST lists the \
         terms):\n\n  polycover verify .\n",
    );
    t
}
