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
//! removes to 0, and its canonical-form check ([`Reduction::lex_leaders`]) becomes
//! lex-leader constraints: MiniZinc's `lex_lesseq` global under the implication
//! `x[r] = 1 -> ...`, and in OPB the same clausal chain as the CNF's, one `>= 1`
//! constraint per clause, over auxiliary variables numbered after the placements. Each
//! auxiliary variable is a function of the placements, so a solver that counts every
//! assignment still counts solutions. So every symmetry mode is written exactly, and a
//! solver that knows nothing of the symmetry finds one solution per class.
//!
//! [`Reduction::lex_leaders`]: crate::symmetry::Reduction::lex_leaders
//!
//! Invariant: variable `x[k]` (MiniZinc) and `xk` (OPB), from 1, is option k-1 in every
//! mode, as DIMACS variable k is: answers decode with one variable map
//! (`polycover decode`). The comment header lists each with its meaning.

use std::io::{self, Write};

use itertools::Itertools;
use rustsat::instances::{BasicVarManager, Cnf, ManageVars};
use rustsat::types::Var;

use crate::problem::Problem;

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

/// The comment header; `leaders` is the number of lex-leader constraints written.
fn header(
    w: &mut dyn Write,
    problem: &Problem,
    leaders: usize,
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
    if leaders > 0 {
        writeln!(
            w,
            "{comment} and {leaders} lex-leader constraint{} (x[r] = 1 -> h(x) <=lex x, 1 > 0): \
             of the solutions a symmetry h fixing placement r relates, only the one with the \
             least placement numbers is kept",
            if leaders == 1 { "" } else { "s" }
        )?;
    }
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
///
/// # Errors
///
/// What writing to `w` gives.
pub fn write_mzn(w: &mut dyn Write, problem: &Problem) -> io::Result<()> {
    let matrix = &problem.compiled.matrix;
    let leaders = problem.reduction.lex_leaders();
    header(w, problem, leaders.len(), "%", &|k| format!("x[{}]", k + 1))?;
    writeln!(w, "include \"lex_lesseq.mzn\";")?;
    writeln!(w, "int: n = {};", matrix.num_options())?;
    writeln!(w, "array[1..n] of var 0..1: x;")?;
    for (i, options) in covering(problem).iter().enumerate() {
        let item = &matrix.items()[i];
        let terms = options.iter().map(|k| format!("x[{}]", k + 1)).join(", ");
        let sum = format!("sum([{terms}])");
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
    let group = problem.reduction.group();
    for leader in &leaders {
        let list = |options: &[u32]| {
            let terms = options.iter().map(|o| format!("x[{}]", o + 1)).join(", ");
            format!("[{terms}]")
        };
        let lex = format!(
            "lex_lesseq({}, {})",
            list(&leader.lesser),
            list(&leader.greater)
        );
        let name = &group.elements()[leader.symmetry as usize].name;
        match leader.condition {
            Some(r) => writeln!(
                w,
                "constraint x[{}] = 1 -> {lex}; % least of its class under {name}",
                r + 1
            )?,
            None => writeln!(w, "constraint {lex}; % least of its class under {name}")?,
        }
    }
    writeln!(w, "solve satisfy;")?;
    writeln!(w, "output [\"x = \", show(x), \"\\n\"];")?;
    Ok(())
}

/// The lex-leader chains of the OPB model as clauses, and the number of its variables
/// (placements, then the chains' auxiliary variables; at least 1, as OPB wants), and how
/// many chains there are.
fn lex_chains(problem: &Problem) -> (Cnf, u32, usize) {
    let n = problem.compiled.matrix.num_options() as u32;
    let mut vars = BasicVarManager::from_next_free(Var::new(n));
    let mut chains = Cnf::new();
    let leaders = crate::sat::lex::add_lex_leaders(&problem.reduction, &mut chains, &mut vars);
    (chains, vars.n_used().max(n).max(1), leaders)
}

/// How many variables the OPB model has, so that `decode` knows an answer to it.
pub fn opb_num_vars(problem: &Problem) -> u32 {
    lex_chains(problem).1
}

/// The model in OPB: `* #variable= N #constraint= M`, the variable map as `*` comments,
/// one `= k ;` constraint per item, or a `>=` pair for a range (one `>=` on the negated
/// sum for an optional cell), then `= 0` units and the lex-leader clauses.
///
/// # Errors
///
/// What writing to `w` gives.
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
    // The lex-leader chains, as the CNF has them: a clause is "at least one literal".
    let n = matrix.num_options() as u32;
    let (chains, num_vars, leaders) = lex_chains(problem);
    for clause in chains.iter() {
        let terms = clause
            .iter()
            .map(|l| {
                let sign = if l.is_neg() { "~" } else { "" };
                format!("+1 {sign}x{}", l.var().idx() + 1)
            })
            .join(" ");
        constraints.push(format!("{terms} >= 1 ;"));
    }
    writeln!(
        w,
        "* #variable= {num_vars} #constraint= {}",
        constraints.len()
    )?;
    header(w, problem, leaders, "*", &|k| format!("x{}", k + 1))?;
    if num_vars > n.max(1) {
        writeln!(
            w,
            "* x{}..x{}: the lex-leader chains' prefix-equal variables, each a function of \
             the placements",
            n + 1,
            num_vars
        )?;
    }
    for c in constraints {
        writeln!(w, "{c}")?;
    }
    Ok(())
}
