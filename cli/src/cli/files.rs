//! The commands that turn a puzzle into files and back: `dimacs`, `decode`, `export` and
//! `import` (`generate` has a file of its own, `generate.rs`).
//!
//! Invariants:
//! - Every output is checked before any work: it must be writable and must not be one
//!   of the inputs.
//! - A file other than standard output is named on standard error when written (`c
//!   wrote ...`; for `dimacs`, with the CNF's GBD hash), so that standard output carries
//!   the product alone.
//! - `decode` checks a model's size against every formula the puzzle has before its
//!   cover: a model of another formula is told as such.

use super::context::Context;
use std::io::{self, Read, Write};

use super::args::{is_stdio, DecodeArgs, DimacsArgs, ExportArgs, ImportArgs, SymmetryArg};
use super::engines;
use super::outcome::Outcome;
use crate::export::Format as ExportFormat;
use crate::gbd;
use crate::output;
use crate::part_result::PartSpec;
use crate::sat::Answer;
use crate::sat::{Amo, Formula};
use polycover::kinds::BurrTools;
use polycover::Problem;
use polycover::{Error, Result};
use polycover::{Puzzle, SymmetryMode};

pub(super) fn dimacs(a: DimacsArgs, ctx: &Context, out: &mut dyn Write) -> Result<Outcome> {
    output::check_writable(&a.output, &[&a.puzzle.puzzle])?;
    if a.certified {
        return certified_cnf(a, ctx, out);
    }
    let p = a.puzzle.problem(a.symmetry, ctx)?;
    let stop = ctx.stop().clone();
    let mut formula = std::sync::Arc::new(Formula::checked(&p, a.amo.into(), a.force, &stop)?);
    let mut notes = Vec::new();
    if let Some(spec) = a.part {
        let split = p.split(spec.n);
        let mine = split.part(spec.k);
        let prefixes: Vec<&[u32]> = mine.iter().map(|&j| split.prefix(j)).collect();
        formula = std::sync::Arc::new(formula.restricted_to(&prefixes));
        notes.push(format!(
            "part {spec}: {} of {} subproblems, fingerprint {}",
            mine.len(),
            split.len(),
            split.fingerprint()
        ));
        notes.push(
            "the part's subproblems are clauses at the end (units for one subproblem, \
             else one selector variable per subproblem, after the others): \
             the parts' model counts add up to the whole count"
                .into(),
        );
    }
    // The GBD hash of what is written, as it streams by (uncompressed).
    let mut hasher = gbd::Hasher::new();
    output::write(ctx.stop(), &a.output, out, &[&a.puzzle.puzzle], &mut |w| {
        let mut w = output::Deadlined::new(w, ctx.stop());
        Ok(formula.write_with_notes(
            &mut Tee(&mut w, &mut hasher),
            &p,
            a.projection.into(),
            &notes,
        )?)
    })?;
    if !is_stdio(&a.output) {
        eprintln!(
            "c wrote {}: {} variables ({} primary), {} clauses, GBD hash {}",
            a.output.display(),
            formula.num_vars,
            formula.num_primary,
            formula.num_clauses(),
            hasher.finish()
        );
    }
    Ok(Outcome::Done)
}

/// `dimacs --certified`: the CNF a certificate certifies, which counts every solution.
fn certified_cnf(a: DimacsArgs, ctx: &Context, out: &mut dyn Write) -> Result<Outcome> {
    if a.symmetry
        .is_some_and(|s| SymmetryMode::from(s) != SymmetryMode::None)
    {
        return Err(Error::Usage(
            "--certified writes the CNF of every solution: give --symmetry none (count \
             --certify writes one CNF per Burnside term for a count up to symmetry)"
                .into(),
        ));
    }
    let p = a.puzzle.problem(Some(SymmetryArg::None), ctx)?;
    output::write(ctx.stop(), &a.output, out, &[&a.puzzle.puzzle], &mut |w| {
        polycover::certify::Certificate::write_cnf(&p, &mut output::Deadlined::new(w, ctx.stop()))
    })?;
    Ok(Outcome::Done)
}

/// Writes to the output and to the GBD hasher alike.
struct Tee<'a>(&'a mut dyn Write, &'a mut gbd::Hasher);

impl Write for Tee<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.0.write(buf)?;
        self.1.update(&buf[..n])?;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

pub(super) fn decode(a: DecodeArgs, ctx: &Context, out: &mut dyn Write) -> Result<Outcome> {
    let stdin = |p: &std::path::Path| p.as_os_str() == "-";
    if stdin(&a.model) && stdin(&a.puzzle.puzzle) {
        return Err(Error::Usage(
            "the puzzle and --model cannot both be `-`: standard input is read once".into(),
        ));
    }
    let puzzle = a.puzzle.load(ctx)?;
    // The variable map is the same in every mode: variable `o + 1` is option `o`.
    let c = puzzle.compile(SymmetryMode::None)?;
    // MiniZinc and pseudo-Boolean output first (their answers use the same variable
    // map); anything else is SAT-competition output. The file is read once (gzip by its
    // magic bytes, as `dimacs::open` does); should that fail part way, the streaming
    // DIMACS reader reports where.
    let name = a.model.display().to_string();
    let mut bytes = Vec::new();
    // At most the limit and one byte more: a plain file has the gzip answer's limit too
    // (/dev/zero was read into memory until it ran out).
    let most = Answer::MAX_INFLATED;
    let read = Answer::open(&a.model)?
        .take(most + 1)
        .read_to_end(&mut bytes);
    if bytes.len() as u64 > most {
        return Err(Error::Read {
            path: a.model.clone(),
            source: io::Error::new(
                io::ErrorKind::FileTooLarge,
                format!(
                    "more than {}, polycover's limit for a solver's answer",
                    Error::size_name(most)
                ),
            ),
        });
    }
    let answers = match read {
        Ok(_) => match std::str::from_utf8(&bytes)
            .ok()
            .and_then(|t| Answer::parse_linear(t, &name))
        {
            Some(answers) => answers?,
            None => Answer::parse_all(&bytes[..], &name)?,
        },
        // A gzip bomb is refused at once, not read a second time.
        Err(e) if e.kind() == io::ErrorKind::FileTooLarge => {
            return Err(Error::Read {
                path: a.model.clone(),
                source: e,
            })
        }
        // Standard input cannot be read again: its error is the answer.
        Err(e) if stdin(&a.model) => {
            return Err(Error::Read {
                path: a.model.clone(),
                source: e,
            })
        }
        Err(_) => Answer::read_all(&a.model)?,
    };
    let location = a.model.display().to_string();
    let mut solutions = Vec::new();
    for (k, answer) in answers.iter().enumerate() {
        if let Answer::Satisfiable(lits) = answer {
            let at = if answers.len() > 1 {
                format!("{location} (answer {})", k + 1)
            } else {
                location.clone()
            };
            check_model_size(&puzzle, &c, lits, &at, a.part)?;
            solutions.push(c.matrix().decode_model(lits, &at)?);
        }
    }
    if let [solution] = &solutions[..] {
        writeln!(out, "c the model is a valid solution of {}", puzzle.name())?;
        writeln!(out, "s SATISFIABLE")?;
        write!(out, "{}", puzzle.text(solution))?;
        return Ok(Outcome::Satisfiable);
    }
    if !solutions.is_empty() {
        for (k, solution) in solutions.iter().enumerate() {
            write!(out, "solution {}\n{}\n", k + 1, puzzle.text(solution))?;
        }
        writeln!(
            out,
            "c {} models, each a valid solution of {}",
            solutions.len(),
            puzzle.name()
        )?;
        writeln!(out, "s SATISFIABLE")?;
        return Ok(Outcome::Satisfiable);
    }
    if answers.contains(&Answer::Unsatisfiable) {
        writeln!(out, "s UNSATISFIABLE")?;
        return Ok(Outcome::Unsatisfiable);
    }
    // The solver stopped without an answer (a time or memory limit): no answer is a
    // failure while running, exit 1, as for polycover's own stopped runs.
    writeln!(out, "c the solver stopped without an answer")?;
    writeln!(out, "s UNKNOWN")?;
    Ok(Outcome::Stopped)
}

/// A model must have as many variables as the puzzle has primary ones (MiniZinc, a
/// projected model), or as one of its CNFs (some encoding, some symmetry mode; with
/// `--part`, also that part's formula) or OPB models: otherwise it answers another
/// formula, which is the thing to say, before any complaint about its cover. A model
/// with fewer variables may also be cut short; the message says both.
fn check_model_size(
    puzzle: &Puzzle,
    c: &Problem,
    lits: &[i64],
    at: &str,
    part: Option<PartSpec>,
) -> Result<()> {
    let primary = c.matrix().num_options() as u64;
    let most = lits.iter().map(|l| l.unsigned_abs()).max().unwrap_or(0);
    if most == primary {
        return Ok(());
    }
    let mut sizes = Vec::new();
    if most > primary {
        for &mode in puzzle.symmetry_modes() {
            let p = puzzle.compile(mode)?;
            // What `Formula::restricted_to` adds for the part `dimacs --part` writes:
            // nothing for units or the whole search, a selector per subproblem for
            // several, one variable for an empty part.
            let added = part.map_or(0, |spec| {
                let split = p.split(spec.n);
                let mine = split.part(spec.k);
                match mine.len() {
                    _ if mine.iter().any(|&j| split.prefix(j).is_empty()) => 0,
                    0 => 1,
                    1 => 0,
                    k => k as u64,
                }
            });
            let opb = crate::export::Format::opb_num_vars(&p) as u64;
            for vars in Amo::ALL
                .iter()
                .map(|&amo| Formula::of(&p, amo).num_vars as u64 + added)
                .chain([opb])
            {
                if vars == most {
                    return Ok(());
                }
                sizes.push(vars);
            }
        }
    }
    sizes.sort_unstable();
    sizes.dedup();
    let formulas = match part {
        Some(spec) => format!("the DIMACS of {} part {spec}", puzzle.name()),
        None => format!("the DIMACS of {}", puzzle.name()),
    };
    let has = polycover::Count::plural(most, "variable", "variables");
    let reason = if most < primary {
        format!(
            "the model has {has}, but {formulas} has {primary} primary \
             variables: it is a model of another formula (another puzzle?), or a partial \
             model (cut short)"
        )
    } else {
        // Each size is named: a range would hold sizes no formula has.
        let sizes: Vec<String> = sizes.iter().map(u64::to_string).collect();
        format!(
            "the model has {has}, but {formulas} has {primary} primary \
             variables and {} in all (by encoding, symmetry mode and format): it is a \
             model of another formula ({})",
            sizes.join(", "),
            if part.is_none() {
                "another puzzle, or a part: an answer to `dimacs --part K/N` decodes \
                 with `decode --part K/N`"
            } else {
                "another puzzle, or another part?"
            }
        )
    };
    Err(Error::Model {
        location: at.to_string(),
        reason,
    })
}

pub(super) fn export(a: ExportArgs, ctx: &Context, out: &mut dyn Write) -> Result<Outcome> {
    let format = ExportFormat::from(a.format);
    if matches!(format, ExportFormat::Stl | ExportFormat::ThreeMf) {
        return export_pieces(a, format, ctx, out);
    }
    let print_only = [
        (a.unit.is_some(), "--unit"),
        (a.gap.is_some(), "--gap"),
        (a.solution.is_some(), "--solution"),
        (a.force, "--force"),
    ];
    if let Some((_, flag)) = print_only.iter().find(|(given, _)| *given) {
        return Err(Error::Usage(format!(
            "{flag} is for the pieces to print (--format stl or 3mf)"
        )));
    }
    output::check_writable(&a.output, &[&a.puzzle.puzzle])?;
    let p = a.puzzle.problem(a.symmetry, ctx)?;
    match format {
        ExportFormat::Stl | ExportFormat::ThreeMf => unreachable!("written above"),
        ExportFormat::Burrtools
            if a.symmetry
                .is_some_and(|m| SymmetryMode::from(m) != SymmetryMode::None) =>
        {
            return Err(Error::Usage(
                "--symmetry: a BurrTools file holds the puzzle, not a reduced matrix; \
                 BurrTools removes symmetric assemblies itself"
                    .into(),
            ));
        }
        format => {
            format.check(&p)?;
            output::write(ctx.stop(), &a.output, out, &[&a.puzzle.puzzle], &mut |w| {
                format.write(&mut output::Deadlined::new(w, ctx.stop()), &p)
            })?;
        }
    }
    if !is_stdio(&a.output) {
        eprintln!(
            "c wrote {}: {}, {}",
            a.output.display(),
            polycover::Count::plural(p.matrix().num_items(), "item", "items"),
            polycover::Count::plural(p.reduced().num_options(), "option", "options")
        );
    }
    Ok(Outcome::Done)
}

/// `export --format stl|3mf`: the pieces as solids to print. Every output is checked (or
/// its directory made) before any mesh; an STL directory that holds anything is refused
/// unless --force, as `suite` does.
fn export_pieces(
    a: ExportArgs,
    format: ExportFormat,
    ctx: &Context,
    out: &mut dyn Write,
) -> Result<Outcome> {
    use crate::export::{Mesh, Print};
    let opts = Print::new(
        a.unit.unwrap_or(Print::DEFAULT_UNIT),
        a.gap.unwrap_or(Print::DEFAULT_GAP),
    )?;
    if a.symmetry.is_some() && a.solution.is_none() {
        return Err(Error::Usage(
            "--symmetry numbers the solutions for --solution N; the pieces alone need none".into(),
        ));
    }
    if a.solution == Some(0) {
        return Err(Error::Usage("--solution counts from 1".into()));
    }
    // The puzzle (and its problem, for --solution) first: a wrong kind of puzzle is
    // refused before any directory is made; the search and the meshes come after the
    // outputs are checked.
    let problem = match a.solution {
        None => None,
        Some(_) => Some(a.puzzle.problem(a.symmetry, ctx)?),
    };
    let puzzle = match &problem {
        Some(problem) => problem.puzzle().clone(),
        None => a.puzzle.load(ctx)?,
    };
    Print::printable(&puzzle)?;
    let one_file = format == ExportFormat::ThreeMf
        || a.output
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("stl"));
    let mut made_dir = false;
    if one_file {
        if a.force {
            return Err(Error::Usage(
                "--force is for an STL directory; a file is replaced as it is".into(),
            ));
        }
        output::check_writable(&a.output, &[&a.puzzle.puzzle])?;
    } else {
        made_dir = !a.output.exists();
        piece_directory(&a.output, a.force)?;
    }
    let solution = match (&problem, a.solution) {
        (Some(problem), Some(n)) => Some(nth_solution(problem, n, ctx)?),
        _ => None,
    };
    let solids = match &solution {
        None => opts.laid_out(&puzzle)?,
        Some(s) => opts.assembled(&puzzle, s)?,
    };
    let stem = puzzle.stem();
    let triangles: usize = solids.iter().map(|s| s.mesh.triangles.len()).sum();
    let inputs = [a.puzzle.puzzle.as_path()];
    if format == ExportFormat::ThreeMf {
        let named: Vec<(&str, &Mesh)> =
            solids.iter().map(|s| (s.title.as_str(), &s.mesh)).collect();
        output::write(ctx.stop(), &a.output, out, &inputs, &mut |w| {
            let mut w = output::Deadlined::new(w, ctx.stop());
            Ok(Mesh::write_3mf(&mut w, puzzle.name(), &named)?)
        })?;
    } else if one_file {
        let meshes: Vec<_> = solids.iter().map(|s| &s.mesh).collect();
        output::write(ctx.stop(), &a.output, out, &inputs, &mut |w| {
            Ok(Mesh::write_stl(
                &mut output::Deadlined::new(w, ctx.stop()),
                &meshes,
            )?)
        })?;
    } else {
        // One file per piece: all of them or none. A stop or a failure part way removes
        // the files this export wrote, and the directory where it made it.
        let mut written = Vec::with_capacity(solids.len());
        // Listening throughout, so that a signal between two files stops the next write
        // (and the files go) rather than ending the process at once.
        let _listening = ctx.stop().listen();
        let all = solids.iter().try_for_each(|s| {
            let path = a.output.join(format!("{stem}-{}.stl", s.tag));
            output::write(ctx.stop(), &path, out, &inputs, &mut |w| {
                Ok(Mesh::write_stl(
                    &mut output::Deadlined::new(w, ctx.stop()),
                    &[&s.mesh],
                )?)
            })?;
            written.push(path);
            Ok::<(), Error>(())
        });
        if let Err(e) = all {
            written.iter().for_each(|p| drop(std::fs::remove_file(p)));
            if made_dir {
                let _ = std::fs::remove_dir(&a.output);
            }
            return Err(e);
        }
    }
    if !is_stdio(&a.output) {
        eprintln!(
            "c wrote {}: {}, {triangles} triangles, {opts}, {}",
            a.output.display(),
            polycover::Count::plural(solids.len(), "piece", "pieces"),
            match a.solution {
                Some(n) => format!("placed as in solution {n}"),
                None => "laid out on the plate".into(),
            }
        );
    }
    Ok(Outcome::Done)
}

/// The directory for one STL file per piece: made if missing; one that holds anything is
/// refused unless `force`, which removes the STL files there (an earlier export's, maybe
/// of another puzzle, whose pieces would otherwise be printed with these).
fn piece_directory(dir: &std::path::Path, force: bool) -> Result<()> {
    if is_stdio(dir) {
        return Err(Error::Usage(
            "--format stl writes one file per piece: give -o DIR, or -o FILE.stl for all \
             pieces in one file"
                .into(),
        ));
    }
    let stl = |name: &str| {
        std::path::Path::new(name)
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("stl"))
    };
    let removed = output::check_directory(
        dir,
        force,
        "--format stl writes one file per piece into a directory; a name ending in .stl \
         gets all pieces in one file",
        &stl,
    )?;
    if removed > 0 {
        eprintln!(
            "c {}: removed {removed} STL file{} of an earlier export (--force)",
            dir.display(),
            if removed == 1 { "" } else { "s" }
        );
    }
    Ok(())
}

/// Solution `n` (from 1) of `p`, as the DLX lists them on one thread.
fn nth_solution(p: &Problem, n: u64, ctx: &Context) -> Result<Vec<u32>> {
    let mut seen = 0u64;
    let mut found = None;
    let run = engines::run_options(ctx);
    let prepared = engines::prepare(p, &engines::reference())?;
    let report = engines::solutions(prepared.lister()?, &run, None, &mut |step| {
        step.solution_to(&mut |s| {
            seen += 1;
            if seen == n {
                found = Some(s.to_vec());
                std::ops::ControlFlow::Break(())
            } else {
                std::ops::ControlFlow::Continue(())
            }
        })
    })?;
    // A listing a signal or the deadline stopped has not seen every solution: the puzzle
    // may have more.
    if found.is_none() && !report.complete {
        let how_far = format!(
            "while looking for solution {n}, after {}",
            polycover::Count::solutions(seen)
        );
        return Err(match report.interrupted {
            true => Error::Interrupted(how_far),
            false => Error::Failed(format!("stopped by the timeout {how_far}")),
        });
    }
    found.ok_or_else(|| {
        Error::Usage(format!(
            "--solution {n}: {} has only {} (in this symmetry mode)",
            p.puzzle().name(),
            polycover::Count::solutions(seen)
        ))
    })
}

pub(super) fn import(a: ImportArgs, ctx: &Context, out: &mut dyn Write) -> Result<Outcome> {
    // `-` reads standard input, as every command's puzzle does.
    let Some((source, bytes)) = Puzzle::read_input(&a.file, ctx.stop())? else {
        let why = if a.file.exists() {
            io::Error::other("not a file")
        } else {
            io::Error::new(io::ErrorKind::NotFound, "no such file")
        };
        return Err(Error::Read {
            path: a.file.clone(),
            source: why,
        });
    };
    if !BurrTools::is_burrtools(&bytes) {
        return Err(Error::puzzle(
            source,
            "not a BurrTools file (XML with a <puzzle> root, plain or gzipped)",
        ));
    }
    let file = BurrTools::read(&source, &bytes, a.problem.as_deref())?;
    let toml = file.toml();
    // What is written must read back: the same checks as any puzzle file.
    let puzzle = Puzzle::parse(&source, &toml)?;
    output::write(ctx.stop(), &a.output, out, &[&a.file], &mut |w| {
        Ok(w.write_all(toml.as_bytes())?)
    })?;
    if !is_stdio(&a.output) {
        eprintln!(
            "c wrote {}: problem {} \"{}\", {}",
            a.output.display(),
            file.problem().number,
            file.problem().name,
            polycover::Count::plural(puzzle.pieces(), "piece", "pieces")
        );
    }
    Ok(Outcome::Done)
}
