//! Knuth's exact-cover input format, as read by his dlx1, dlx2 and dlx3.
//!
//! The first line that is not a comment names the items: the primary ones, then `|` and
//! the secondary ones (optional cells, covered at most once). Every later line is one
//! option: the names of its items. Lines starting with `|` are comments. An item covered
//! more than once (a piece with `count = k`) is written `k|NAME`, and a piece with a
//! count range `min:max|NAME`, dlx3's multiplicity syntax; a file without them reads in
//! dlx1 (and with secondary items, dlx2) as well. Every option names its piece, a
//! primary item, as Knuth's solvers require.
//!
//! Names are short and readable, at most 8 characters as dlx1 wants: the puzzle kind
//! gives them ([`crate::puzzle::Kind::item_names`]): cells as `xyz` in radix 36 from the
//! target's least corner, pieces by their symbols.
//!
//! Symmetry: with `--symmetry none` the file is the whole matrix, and the solvers' count
//! is the raw count. With a mode (the puzzle's default when none is given), only the options the reduction keeps are written; that
//! is only exact when the reduction needs no canonical-form check afterwards (its pinned
//! item breaks the whole group). Otherwise the mode is refused: a DLX solver could not
//! do the check, and its count would not be the distinct count. The refusal must not
//! suggest dividing the `--symmetry none` count by the group's order: that is the
//! distinct count only when no solution is symmetric (dominoes 8x8: 12,988,816 / 8 =
//! 1,623,602, where the distinct count is 1,629,189).
//!
//! Invariant: option line k (counting from 0 after the item line) is the k-th kept
//! option; the comment header maps it back to polycover's option numbers.

use std::io::{self, Write};

use itertools::Itertools;

use crate::error::{Error, Result};
use crate::problem::Problem;

/// Checks that `problem`'s mode can be written exactly (see the module doc).
///
/// # Errors
///
/// [`Error::Usage`] when the problem's symmetry reduction needs a canonical-form check
/// after the search, which a DLX solver cannot do.
pub fn check(problem: &Problem) -> Result<()> {
    if problem.reduction.needs_check() {
        return Err(Error::Usage(format!(
            "{}: {} cannot be written exactly in DLX format for this puzzle (its \
             reduction needs a canonical-form check after the search, which a DLX solver does \
             not do). With {} a DLX solver counts every solution, symmetric \
             ones apart; that count divided by the group's order ({}) is the distinct count \
             only when no solution is symmetric: the distinct count is the number of orbits \
             (Burnside's lemma), which polycover's count gives",
            problem.puzzle().source(),
            crate::setting::Setting::Symmetry.is(problem.compiled.mode.as_str()),
            crate::setting::Setting::Symmetry.is("none"),
            problem.compiled.group.order()
        )));
    }
    Ok(())
}

/// Writes `problem` in DLX format. Call [`check`] first.
///
/// # Errors
///
/// What writing to `w` gives.
pub fn write(w: &mut dyn Write, problem: &Problem) -> io::Result<()> {
    let matrix = &problem.compiled.matrix;
    let puzzle = problem.puzzle();
    let names = puzzle.item_names(matrix);
    let reduction = &problem.reduction;
    let kept = reduction.kept();
    writeln!(
        w,
        "| polycover {}: {}",
        env!("CARGO_PKG_VERSION"),
        puzzle.name()
    )?;
    writeln!(w, "| from {}", puzzle.source())?;
    writeln!(
        w,
        "| symmetry {}: {} of {} options{}",
        problem.compiled.mode.as_str(),
        kept.len(),
        matrix.num_options(),
        match reduction.pinned_item() {
            Some(i) => format!(
                " (item {} pinned to one option per symmetry class, so each solution is one class)",
                names[i as usize]
            ),
            None => String::new(),
        }
    )?;
    writeln!(w, "| items: {}", puzzle.variable_map().option)?;
    writeln!(w, "| {}", puzzle.item_legend())?;
    if kept.len() == matrix.num_options() {
        writeln!(
            w,
            "| option line k (from 0, after the item line) is polycover option k, DIMACS \
             variable k+1 of `polycover dimacs`"
        )?;
    } else {
        writeln!(
            w,
            "| option lines are the options the reduction keeps, in polycover's order; \
             `polycover export --symmetry none` writes them all"
        )?;
    }
    // Primary items first (with dlx3's `min:max|` bounds where they are not 1), then `|`
    // and the secondary items. An item covered at most once (an optional cell) is
    // secondary, unless that would leave an option without a primary item, which
    // Knuth's solvers refuse: then the option's last such item (its piece, listed after
    // the cells) is primary with bounds `0:1|`.
    let mut secondary: Vec<bool> = matrix
        .items()
        .iter()
        .map(|i| (i.min, i.max) == (0, 1))
        .collect();
    for &o in kept {
        let items = matrix.option_items(o);
        if items.iter().all(|&i| secondary[i as usize]) {
            secondary[*items.last().expect("options cover items") as usize] = false;
        }
    }
    let mut primary = Vec::new();
    let mut secondaries = Vec::new();
    for ((item, name), &is_secondary) in matrix.items().iter().zip(&names).zip(&secondary) {
        match (item.min, item.max) {
            _ if is_secondary => secondaries.push(name.clone()),
            (1, 1) => primary.push(name.clone()),
            (a, b) if a == b => primary.push(format!("{a}|{name}")),
            (a, b) => primary.push(format!("{a}:{b}|{name}")),
        }
    }
    let mut line = primary.join(" ");
    if !secondaries.is_empty() {
        line += " | ";
        line += &secondaries.join(" ");
    }
    writeln!(w, "{line}")?;
    for &o in kept {
        let line = matrix
            .option_items(o)
            .iter()
            .map(|&i| &names[i as usize])
            .join(" ");
        writeln!(w, "{line}")?;
    }
    Ok(())
}
