//! The exact-cover model as linear constraints, for CP and pseudo-Boolean solvers:
//! MiniZinc (`.mzn`) and the pseudo-Boolean competition's OPB.
//!
//! One 0/1 variable per placement the symmetry reduction keeps, and per item one
//! constraint: the sum of the variables of the options that cover it equals the item's
//! multiplicity (1 for a cell, k for a piece with k copies). No at-most-one encoding is
//! needed: an exactly-one is one linear constraint.
//!
//! Symmetry: as for the DLX export, the reduction's pinning is written as leaving the
//! removed placements out (they are fixed to 0), which is exact only when the pinned item
//! breaks the whole group; a mode that needs a canonical-form check after the search is
//! refused ([`super::dlx::check`]). `--symmetry none` is always exact.
//!
//! Invariant: variable `x[k]` (MiniZinc, from 1) and `xk` (OPB, from 1) is the k-th kept
//! option in polycover's order; the comment header lists each with its meaning.

use std::io::{self, Write};

use crate::engine::Problem;

/// For each item, the positions (from 0) in the kept list of the options covering it.
fn covering(problem: &Problem) -> Vec<Vec<usize>> {
    let matrix = &problem.compiled.matrix;
    let mut by_item = vec![Vec::new(); matrix.num_items()];
    for (k, &o) in problem.reduction.kept().iter().enumerate() {
        for &i in matrix.option_items(o) {
            by_item[i as usize].push(k);
        }
    }
    by_item
}

fn header(
    w: &mut dyn Write,
    problem: &Problem,
    comment: &str,
    var: &dyn Fn(usize) -> String,
) -> io::Result<()> {
    let puzzle = problem.puzzle();
    let kept = problem.reduction.kept();
    writeln!(
        w,
        "{comment} polycover {}: {}",
        env!("CARGO_PKG_VERSION"),
        puzzle.name()
    )?;
    writeln!(w, "{comment} from {}", puzzle.source())?;
    writeln!(
        w,
        "{comment} symmetry {}: {} of {} placements kept, the others fixed to 0{}",
        problem.compiled.mode.as_str(),
        kept.len(),
        problem.compiled.matrix.num_options(),
        match problem.reduction.pinned_item() {
            Some(i) => format!(
                " (item {} pinned: each solution is one symmetry class)",
                problem.compiled.matrix.items()[i as usize].name
            ),
            None => String::new(),
        }
    )?;
    writeln!(
        w,
        "{comment} one 0/1 variable per {}: {}",
        puzzle.variable_map().option,
        puzzle.variable_map().columns
    )?;
    for (k, &o) in kept.iter().enumerate() {
        writeln!(w, "{comment} {} = {}", var(k), puzzle.describe_option(o))?;
    }
    Ok(())
}

/// A self-contained MiniZinc model; each solution prints as `x = [0, 1, ...]`, one 0 or
/// 1 per kept placement.
pub fn write_mzn(w: &mut dyn Write, problem: &Problem) -> io::Result<()> {
    let matrix = &problem.compiled.matrix;
    let kept = problem.reduction.kept();
    header(w, problem, "%", &|k| format!("x[{}]", k + 1))?;
    writeln!(w, "int: n = {};", kept.len())?;
    writeln!(w, "array[1..n] of var 0..1: x;")?;
    for (i, options) in covering(problem).iter().enumerate() {
        let item = &matrix.items()[i];
        let terms: Vec<String> = options.iter().map(|k| format!("x[{}]", k + 1)).collect();
        writeln!(
            w,
            "constraint sum([{}]) = {}; % {}",
            terms.join(", "),
            item.multiplicity,
            item.name
        )?;
    }
    writeln!(w, "solve satisfy;")?;
    writeln!(w, "output [\"x = \", show(x), \"\\n\"];")?;
    Ok(())
}

/// The model in OPB: `* #variable= N #constraint= M`, the variable map as `*` comments,
/// one `= k ;` constraint per item.
pub fn write_opb(w: &mut dyn Write, problem: &Problem) -> io::Result<()> {
    let matrix = &problem.compiled.matrix;
    let kept = problem.reduction.kept();
    writeln!(
        w,
        "* #variable= {} #constraint= {}",
        kept.len().max(1),
        matrix.num_items()
    )?;
    header(w, problem, "*", &|k| format!("x{}", k + 1))?;
    for (i, options) in covering(problem).iter().enumerate() {
        let item = &matrix.items()[i];
        if options.is_empty() {
            // No placement covers the item: a constraint no assignment meets.
            writeln!(
                w,
                "+1 x1 +1 ~x1 >= 2 ; * {} (no placement covers it)",
                item.name
            )?;
            continue;
        }
        let terms: Vec<String> = options.iter().map(|k| format!("+1 x{}", k + 1)).collect();
        writeln!(w, "{} = {} ;", terms.join(" "), item.multiplicity)?;
    }
    Ok(())
}
