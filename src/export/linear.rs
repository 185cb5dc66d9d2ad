//! The exact-cover model as linear constraints, for CP and pseudo-Boolean solvers:
//! MiniZinc (`.mzn`) and the pseudo-Boolean competition's OPB.
//!
//! One 0/1 variable per placement, and per item one constraint: the sum of the variables
//! of the options that cover it equals the item's count (1 for a cell, k for a piece
//! with k copies), or lies in its range (at most 1 for an optional cell, between min and
//! max for a piece with a count range). No at-most-one encoding is needed: an
//! exactly-one is one linear constraint.
//!
//! Symmetry: the reduction's pinning becomes unit constraints fixing the placements it
//! removes to 0. That is exact only when the pinned item breaks the whole group; a mode
//! that needs a canonical-form check after the search is refused
//! ([`super::dlx::check`]). `--symmetry none` is always exact.
//!
//! Invariant: variable `x[k]` (MiniZinc) and `xk` (OPB), from 1, is option k-1 in every
//! mode, as DIMACS variable k is: answers decode with one variable map
//! (`polycover decode`). The comment header lists each with its meaning.

use std::io::{self, Write};

use crate::engine::Problem;

/// For each item, the options (from 0) covering it.
fn covering(problem: &Problem) -> Vec<Vec<usize>> {
    let matrix = &problem.compiled.matrix;
    let mut by_item = vec![Vec::new(); matrix.num_items()];
    for o in 0..matrix.num_options() {
        for &i in matrix.option_items(o as u32) {
            by_item[i as usize].push(o);
        }
    }
    by_item
}

/// The options the reduction removes: fixed to 0.
fn removed(problem: &Problem) -> Vec<usize> {
    let kept = problem.reduction.kept_mask();
    (0..kept.len()).filter(|&o| !kept[o]).collect()
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
        "{comment} symmetry {}: {} of {} placements kept, the others fixed to 0 at the end{}",
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
    for o in 0..problem.compiled.matrix.num_options() {
        writeln!(
            w,
            "{comment} {} = {}",
            var(o),
            puzzle.describe_option(o as u32)
        )?;
    }
    Ok(())
}

/// A self-contained MiniZinc model; each solution prints as `x = [0, 1, ...]`, one 0 or
/// 1 per placement.
pub fn write_mzn(w: &mut dyn Write, problem: &Problem) -> io::Result<()> {
    let matrix = &problem.compiled.matrix;
    header(w, problem, "%", &|k| format!("x[{}]", k + 1))?;
    writeln!(w, "int: n = {};", matrix.num_options())?;
    writeln!(w, "array[1..n] of var 0..1: x;")?;
    for (i, options) in covering(problem).iter().enumerate() {
        let item = &matrix.items()[i];
        let terms: Vec<String> = options.iter().map(|k| format!("x[{}]", k + 1)).collect();
        let sum = format!("sum([{}])", terms.join(", "));
        let bound = if item.is_exact() {
            format!("{sum} = {}", item.min)
        } else if item.min == 0 {
            format!("{sum} <= {}", item.max)
        } else {
            format!("{sum} >= {} /\\ {sum} <= {}", item.min, item.max)
        };
        writeln!(w, "constraint {bound}; % {}", item.name)?;
    }
    for o in removed(problem) {
        writeln!(
            w,
            "constraint x[{}] = 0; % removed by the symmetry reduction",
            o + 1
        )?;
    }
    writeln!(w, "solve satisfy;")?;
    writeln!(w, "output [\"x = \", show(x), \"\\n\"];")?;
    Ok(())
}

/// The model in OPB: `* #variable= N #constraint= M`, the variable map as `*` comments,
/// one `= k ;` constraint per item, or a `>=` pair for a range (one `>=` on the negated
/// sum for an optional cell).
pub fn write_opb(w: &mut dyn Write, problem: &Problem) -> io::Result<()> {
    let matrix = &problem.compiled.matrix;
    let mut constraints = Vec::with_capacity(matrix.num_items());
    for (i, options) in covering(problem).iter().enumerate() {
        let item = &matrix.items()[i];
        if options.is_empty() {
            if item.min > 0 {
                // No placement covers the item: a constraint no assignment meets.
                constraints.push(format!(
                    "+1 x1 +1 ~x1 >= 2 ; * {} (no placement covers it)",
                    item.name
                ));
            }
            continue;
        }
        let sum = |sign: &str| {
            options
                .iter()
                .map(|k| format!("{sign}1 x{}", k + 1))
                .collect::<Vec<_>>()
                .join(" ")
        };
        if item.is_exact() {
            constraints.push(format!("{} = {} ;", sum("+"), item.min));
            continue;
        }
        if item.min > 0 {
            constraints.push(format!("{} >= {} ;", sum("+"), item.min));
        }
        if (item.max as usize) < options.len() {
            // "At most" as ">=" of the negated sum, which every OPB reader takes.
            constraints.push(format!("{} >= -{} ;", sum("-"), item.max));
        }
    }
    for o in removed(problem) {
        constraints.push(format!("+1 x{} = 0 ;", o + 1));
    }
    writeln!(
        w,
        "* #variable= {} #constraint= {}",
        matrix.num_options().max(1),
        constraints.len()
    )?;
    header(w, problem, "*", &|k| format!("x{}", k + 1))?;
    for c in constraints {
        writeln!(w, "{c}")?;
    }
    Ok(())
}
