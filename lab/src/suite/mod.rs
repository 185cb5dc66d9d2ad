//! Benchmark families (`polycover suite`): generated polycube puzzles, each written as its
//! puzzle file and as DIMACS in every at-most-one encoding, with a CSV that says what
//! each CNF is (sizes, status, model counts, GBD hash) and a README that describes the
//! family as a SAT Competition benchmark submission is described.
//!
//! # A family
//!
//! One instance per seed of `seeds` (both ends included). The seed `s` gives the puzzle
//! `generate polycubes --box X,Y,Z --pieces P --sizes A-B --seed s` writes, where `P`
//! runs over the `pieces` range with the seed (`P = lo + s mod (hi - lo + 1)`), the
//! sizes are `--sizes` or the generator's default for `P`, and `--unsat` is added for an
//! UNSAT instance: every seed with [`Status::Unsat`], none with [`Status::Sat`], the even
//! seeds with [`Status::Mixed`]. A planted cut is satisfiable by construction; the
//! `--unsat` derivation is a puzzle with one solution, one chiral piece mirrored.
//!
//! Files, in the suite's directory: `NAME-SEED.toml` (the puzzle file),
//! `NAME-SEED-ENC.cnf.gz` for each encoding of [`Amo::ALL`] (what `polycover dimacs
//! NAME-SEED.toml --amo ENC` writes, plus a `c suite` line; the symmetry mode is the
//! puzzle's default, rotations, so the models projected on the primary variables are the
//! solutions up to rotation), `instances.csv` (one row per CNF; [`COLUMNS`], written by `table.rs`) and
//! `README.md`.
//!
//! Invariants:
//! - Every output path is checked before the first instance is generated, and a
//!   directory that holds anything is refused unless `force` is given.
//! - With `force`, every file there of the kinds a suite writes ([`is_suite_file`]: the
//!   puzzle files and CNFs of any family, `instances.csv`, `README.md`) is removed
//!   before the first instance, so that an earlier suite's files never stand beside a
//!   new CSV that does not list them (and a directory with a CSV still holds a complete
//!   suite). Other entries stay, and are counted; links are removed, never followed.
//! - Each file is written through the program's [`Files`] (the command line's writes
//!   atomically); `instances.csv` and `README.md` come last, so a suite with its CSV is
//!   complete.
//! - A row's status is the native engine's (the bitset search, up to rotations), and it
//!   agrees with how the instance was made (a planted cut is SAT, a mirrored unique
//!   puzzle UNSAT), or the run fails; counts the count timeout stopped are empty cells
//!   with a note, never a partial count.
//! - The same family and seeds give the same files, but for the times in the CSV.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::gbd;
use crate::sat::Projection;
use crate::sat::{Amo, Formula};
use crate::Stop;
use polycover::kinds::Generator;
use polycover::Engine;
use polycover::Problem;
use polycover::RunOptions;
use polycover::{Error, Result};
use polycover::{Puzzle, SymmetryMode};

mod files;
mod readme;
mod table;

pub use files::{Env, Files};
use table::Row;
pub use table::COLUMNS;

/// Which instances of a family have no solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Every instance a planted cut: satisfiable.
    Sat,
    /// Every instance the `--unsat` derivation: unsatisfiable.
    Unsat,
    /// Odd seeds planted cuts, even seeds `--unsat`.
    Mixed,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Sat => "sat",
            Status::Unsat => "unsat",
            Status::Mixed => "mixed",
        }
    }

    /// Whether the instance of `seed` is made unsatisfiable.
    pub fn unsat(self, seed: u64) -> bool {
        match self {
            Status::Sat => false,
            Status::Unsat => true,
            Status::Mixed => seed % 2 == 0,
        }
    }
}

/// A family of generated instances.
#[derive(Clone, Debug)]
pub struct Family {
    /// The family's name: the files' prefix (letters, digits, `_`, `-`, `.`).
    pub name: String,
    pub size: [usize; 3],
    /// Pieces per instance, from `.0` to `.1`, chosen by the seed.
    pub pieces: (usize, usize),
    /// Each piece's cell count, `.0` to `.1`; `None`: the generator's default.
    pub sizes: Option<(usize, usize)>,
    /// Seeds, from `.0` to `.1` (both included): one instance each.
    pub seeds: (u64, u64),
    pub status: Status,
    /// How long each native count may run before it is given up (its cells left empty).
    pub count_timeout: Duration,
    /// Certify each instance's count of every solution into `certificates/NAME-SEED`.
    pub certify: bool,
}

/// One instance of a family.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    pub seed: u64,
    pub pieces: usize,
    pub sizes: (usize, usize),
    pub unsat: bool,
}

/// The most instances one family holds.
pub const MAX_INSTANCES: u64 = 10_000;

impl Family {
    /// Refuses a family that cannot be written: a name unfit for file names, an empty or
    /// huge seed range, pieces that the box cannot hold.
    pub fn check(&self) -> Result<()> {
        let usage = |s: String| Err(Error::Usage(format!("suite: {s}")));
        let name_ok = !self.name.is_empty()
            && self.name.len() <= 64
            && !self.name.starts_with(['.', '-'])
            && self
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
        if !name_ok {
            return usage(format!(
                "--family `{}`: a name of 1 to 64 letters, digits, `_`, `-` or `.`, not \
                 starting with `.` or `-` (it begins every file name)",
                self.name
            ));
        }
        let (a, b) = self.seeds;
        if a > b || b - a >= MAX_INSTANCES {
            return usage(format!(
                "--seeds {a}-{b}: expected A-B with A <= B and at most {MAX_INSTANCES} seeds"
            ));
        }
        let (lo, hi) = self.pieces;
        if lo == 0 || lo > hi {
            return usage(format!("--pieces {lo}-{hi}: expected A-B with 1 <= A <= B"));
        }
        let volume: usize = self.size.iter().product();
        for i in self.instances() {
            let (s, t) = i.sizes;
            if volume < i.pieces * s || volume > i.pieces * t {
                return usage(format!(
                    "{} pieces of {s} to {t} cells cannot fill the {} box ({volume} cells)",
                    i.pieces,
                    self.box_name()
                ));
            }
        }
        Ok(())
    }

    /// The instances, in seed order.
    pub fn instances(&self) -> Vec<Instance> {
        let (lo, hi) = self.pieces;
        let span = (hi - lo + 1) as u64;
        (self.seeds.0..=self.seeds.1)
            .map(|seed| {
                let pieces = lo + (seed % span) as usize;
                Instance {
                    seed,
                    pieces,
                    sizes: self
                        .sizes
                        .unwrap_or_else(|| Generator::default_sizes(self.size, pieces)),
                    unsat: self.status.unsat(seed),
                }
            })
            .collect()
    }

    /// `XxYxZ`.
    pub fn box_name(&self) -> String {
        let [x, y, z] = self.size;
        format!("{x}x{y}x{z}")
    }

    /// The instance's name, `NAME-SEED`.
    pub fn stem(&self, i: &Instance) -> String {
        format!("{}-{}", self.name, i.seed)
    }

    pub fn puzzle_file(&self, i: &Instance) -> String {
        format!("{}.toml", self.stem(i))
    }

    pub fn cnf_file(&self, i: &Instance, amo: Amo) -> String {
        format!("{}-{}.cnf.gz", self.stem(i), amo.name())
    }

    /// The command line that writes this family (into `DIR`).
    pub fn command(&self) -> String {
        let [x, y, z] = self.size;
        let mut c = format!(
            "polycover suite DIR --family {} --box {x},{y},{z} --pieces {}-{}",
            self.name, self.pieces.0, self.pieces.1
        );
        if let Some((a, b)) = self.sizes {
            c.push_str(&format!(" --sizes {a}-{b}"));
        }
        c.push_str(&format!(
            " --seeds {}-{} --status {} --count-timeout {}",
            self.seeds.0,
            self.seeds.1,
            self.status.name(),
            self.count_timeout.as_secs_f64()
        ));
        c
    }
}

/// What was written.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub instances: usize,
    pub sat: usize,
    pub unsat: usize,
    /// Counts the timeout stopped.
    pub capped: usize,
    /// Entries of the directory that are not the suite's files (left as they were).
    pub others: usize,
    /// Files of an earlier suite removed (with `force`).
    pub removed: usize,
    pub files: usize,
    pub seconds: f64,
}

/// Whether `name` is a file of the kinds a suite writes, of any family: `NAME-SEED.toml`,
/// `NAME-SEED-ENC.cnf.gz` (ENC one of [`Amo::ALL`]), `instances.csv` or `README.md`.
pub fn is_suite_file(name: &str) -> bool {
    // `NAME-SEED`, NAME as `Family::check` allows it.
    let instance = |stem: &str| {
        stem.rsplit_once('-').is_some_and(|(family, seed)| {
            !family.is_empty()
                && family
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
                && !seed.is_empty()
                && seed.bytes().all(|b| b.is_ascii_digit())
        })
    };
    if name == "instances.csv" || name == "README.md" {
        return true;
    }
    if let Some(stem) = name.strip_suffix(".toml") {
        return instance(stem);
    }
    name.strip_suffix(".cnf.gz").is_some_and(|rest| {
        Amo::ALL.iter().any(|amo| {
            rest.strip_suffix(amo.name())
                .and_then(|r| r.strip_suffix('-'))
                .is_some_and(instance)
        })
    })
}

/// Checks `dir` and every file the family will write there, before any work: `dir` is
/// created when missing; one that holds anything is refused unless `force`, which
/// removes an earlier suite's files first (the number is returned).
pub fn check_directory(
    family: &Family,
    dir: &Path,
    force: bool,
    files: &dyn Files,
) -> Result<(Vec<PathBuf>, usize)> {
    let removed = files.check_directory(
        dir,
        force,
        "suite writes a family of files into an empty or new directory",
        &is_suite_file,
    )?;
    let mut paths = Vec::new();
    for i in family.instances() {
        paths.push(dir.join(family.puzzle_file(&i)));
        for amo in Amo::ALL {
            paths.push(dir.join(family.cnf_file(&i, amo)));
        }
    }
    paths.push(dir.join("instances.csv"));
    paths.push(dir.join("README.md"));
    for p in &paths {
        files.check_writable(p)?;
    }
    Ok((paths, removed))
}

/// Entries of `dir` that are not among `planned`.
fn others(dir: &Path, planned: &[PathBuf]) -> Result<usize> {
    let names: std::collections::HashSet<_> =
        planned.iter().filter_map(|p| p.file_name()).collect();
    let entries = std::fs::read_dir(dir).map_err(|source| Error::Read {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut n = 0;
    for e in entries {
        let e = e.map_err(|source| Error::Read {
            path: dir.to_path_buf(),
            source,
        })?;
        if !names.contains(e.file_name().as_os_str()) {
            n += 1;
        }
    }
    Ok(n)
}

/// Writes the family into `dir` (checked by [`check_directory`] first); `progress`
/// receives one line per instance.
pub fn write(
    family: &Family,
    dir: &Path,
    force: bool,
    env: &Env<'_>,
    progress: &mut dyn FnMut(&str),
) -> Result<Summary> {
    family.check()?;
    let (planned, removed) = check_directory(family, dir, force, env.files)?;
    let start = Instant::now();
    let instances = family.instances();
    let mut summary = Summary {
        others: others(dir, &planned)?,
        removed,
        ..Summary::default()
    };
    let mut rows = Vec::new();
    for (k, i) in instances.iter().enumerate() {
        let made = instance(family, i, dir, env, &mut rows)?;
        summary.instances += 1;
        summary.files += 1 + Amo::ALL.len();
        if made.sat {
            summary.sat += 1;
        } else {
            summary.unsat += 1;
        }
        summary.capped += made.capped;
        progress(&format!(
            "instance {}/{} {}: {} pieces, {}, rotations {}, none {}, {:.3} s",
            k + 1,
            instances.len(),
            family.stem(i),
            i.pieces,
            if made.sat { "SAT" } else { "UNSAT" },
            made.rotations,
            made.none,
            made.seconds
        ));
    }
    let csv = table::to_csv(family, &rows)?;
    env.files.write(&dir.join("instances.csv"), &csv)?;
    let text = readme::text(family, &summary, &table::rows_digest(&rows));
    env.files.write(&dir.join("README.md"), text.as_bytes())?;
    summary.files += 2;
    summary.seconds = start.elapsed().as_secs_f64();
    Ok(summary)
}

/// What one instance came to, for the progress line.
struct Made {
    sat: bool,
    rotations: String,
    none: String,
    capped: usize,
    seconds: f64,
}

/// Generates, decides, counts and writes one instance; pushes its rows.
fn instance(
    family: &Family,
    i: &Instance,
    dir: &Path,
    env: &Env<'_>,
    rows: &mut Vec<Row>,
) -> Result<Made> {
    let start = Instant::now();
    let request = Generator {
        size: family.size,
        pieces: i.pieces,
        sizes: i.sizes,
        seed: i.seed,
        unique: false,
        unsat: i.unsat,
    };
    let text = request
        .generate(&mut |p, n| p.count_drawn(n, &env.stop))?
        .text;
    let puzzle_file = family.puzzle_file(i);
    let puzzle = Puzzle::parse(&puzzle_file, &text)?;
    let problem = puzzle.compile(SymmetryMode::Rotations)?;
    let (sat, native_s) = decide(family, i, &problem, &env.stop)?;
    let t = Instant::now();
    let mut notes = Vec::new();
    let rotations = count(
        &problem,
        family.count_timeout,
        "rotations",
        &env.stop,
        &mut notes,
    )?;
    let unreduced = puzzle.compile(SymmetryMode::None)?;
    let none = count(
        &unreduced,
        family.count_timeout,
        "none",
        &env.stop,
        &mut notes,
    )?;
    let count_s = t.elapsed().as_secs_f64();
    let capped = [&rotations, &none].iter().filter(|c| c.is_none()).count();
    env.files.write(&dir.join(&puzzle_file), text.as_bytes())?;
    if family.certify {
        certify(
            family,
            i,
            &unreduced,
            none.as_deref(),
            dir,
            &env.stop,
            &mut notes,
        )?;
    }
    let suite_note = vec![format!(
        "suite {} instance {} ({puzzle_file}), status {}",
        family.name,
        family.stem(i),
        if sat { "SAT" } else { "UNSAT" }
    )];
    for amo in Amo::ALL {
        let formula = Arc::new(Formula::checked(&problem, amo, false, &env.stop)?);
        let mut cnf = Vec::new();
        formula.write_with_notes(&mut cnf, &problem, Projection::Show, &suite_note)?;
        let hash = gbd::hash(&cnf)?;
        let name = family.cnf_file(i, amo);
        env.files.write(&dir.join(&name), &cnf)?;
        rows.push(Row {
            puzzle: puzzle_file.clone(),
            cnf: name,
            seed: i.seed,
            pieces: i.pieces,
            sizes: i.sizes,
            encoding: amo.name(),
            variables: formula.num_vars,
            clauses: formula.num_clauses(),
            status: if sat { "SAT" } else { "UNSAT" },
            count_none: none.clone().unwrap_or_default(),
            count_rotations: rotations.clone().unwrap_or_default(),
            native_s,
            count_s,
            gbd_hash: hash,
            note: notes.join("; "),
        });
    }
    let shown = |c: &Option<String>| c.clone().unwrap_or_else(|| "?".into());
    Ok(Made {
        sat,
        rotations: shown(&rotations),
        none: shown(&none),
        capped,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// The instance's status, by the bitset search's first solution or its proof that there
/// is none, and the seconds it took; an instance that is not what it was made to be fails.
fn decide(family: &Family, i: &Instance, problem: &Problem, stop: &Stop) -> Result<(bool, f64)> {
    let t = Instant::now();
    let opts = RunOptions {
        stop: stop.clone(),
        ..RunOptions::default()
    };
    let (first, report) = problem.first(&Engine::bits(), &opts)?;
    if report.interrupted {
        return Err(Error::Interrupted(format!("at {}", family.stem(i))));
    }
    let native_s = t.elapsed().as_secs_f64();
    let sat = first.is_some();
    if sat == i.unsat {
        return Err(Error::Failed(format!(
            "suite: {} was made {} but the native engine finds it {}",
            family.stem(i),
            if i.unsat {
                "unsatisfiable"
            } else {
                "satisfiable"
            },
            if sat { "SAT" } else { "UNSAT" }
        )));
    }
    Ok((sat, native_s))
}

/// Certifies the instance's count of every solution with the memo, within the count
/// timeout, into `certificates/NAME-SEED`; a stop is a note, a count that differs from the
/// native one a failure.
fn certify(
    family: &Family,
    i: &Instance,
    unreduced: &Problem,
    none: Option<&str>,
    dir: &Path,
    stop: &Stop,
    notes: &mut Vec<String>,
) -> Result<()> {
    // The certificates' folder is the suite's; each certificate makes its own in it.
    let certificates = dir.join("certificates");
    std::fs::create_dir_all(&certificates).map_err(|source| Error::Write {
        path: certificates.clone(),
        source,
    })?;
    let target = certificates.join(family.stem(i));
    let memo = Engine::from_name("memo").expect("the memo is an engine");
    let expected = none.map(|n| {
        n.parse::<polycover::Count>()
            .expect("a count the suite printed")
    });
    match polycover::certify::Certificate::write(
        unreduced,
        &memo,
        &stop.within(family.count_timeout),
        expected.as_ref(),
        &target,
        &|_| {},
    ) {
        Ok(_) => Ok(()),
        Err(Error::Failed(why)) => Err(Error::Failed(format!("suite: {}: {why}", family.stem(i)))),
        Err(Error::Interrupted(_)) if !stop.raised() => {
            notes.push(format!(
                "certificate stopped by the {} s count timeout",
                family.count_timeout.as_secs_f64()
            ));
            Ok(())
        }
        Err(e) => Err(e),
    }
}

/// The native count of `problem` by the engine `count` picks by default, or `None` with a
/// note when the timeout stopped it.
fn count(
    problem: &Problem,
    timeout: Duration,
    mode: &str,
    stop: &Stop,
    notes: &mut Vec<String>,
) -> Result<Option<String>> {
    let stop = stop.within(timeout);
    let (engine, _) = problem.default_counter(false, &stop, None);
    let opts = RunOptions {
        stop,
        ..RunOptions::default()
    };
    let report = problem.count(&engine, &opts)?;
    if report.interrupted {
        return Err(Error::Interrupted(format!(
            "{} counted so far",
            polycover::Count::solutions(&report.solutions)
        )));
    }
    if report.complete {
        return Ok(Some(report.solutions.to_string()));
    }
    notes.push(format!(
        "count_{mode} stopped by the {} s count timeout ({} engine, {} so far)",
        timeout.as_secs_f64(),
        engine.name(),
        polycover::Count::solutions(&report.solutions)
    ));
    Ok(None)
}
