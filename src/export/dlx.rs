//! Knuth's exact-cover input format, as read by his dlx1, dlx2 and dlx3.
//!
//! The first line that is not a comment names the items: the primary ones, then `|` and
//! the secondary ones (none today). Every later line is one option: the names of its
//! items. Lines starting with `|` are comments. An item covered more than once (a piece
//! with `count = k`) is written `k|NAME`, dlx3's multiplicity syntax; a file without
//! copies reads in dlx1 as well.
//!
//! Names are short and readable, at most 8 characters as dlx1 wants: the puzzle kind
//! gives them ([`crate::puzzle::Kind::item_names`]): cells as `xyz` in radix 36 from the
//! target's least corner, pieces by their symbols.
//!
//! Symmetry: with `--symmetry none` the file is the whole matrix, and the solvers' count
//! is the raw count. With a mode (the puzzle's default when none is given), only the options the reduction keeps are written; that
//! is only exact when the reduction needs no canonical-form check afterwards (its pinned
//! item breaks the whole group). Otherwise the mode is refused: a DLX solver could not
//! do the check, and its count would not be the distinct count.
//!
//! Invariant: option line k (counting from 0 after the item line) is the k-th kept
//! option; the comment header maps it back to polycover's option numbers.

use std::io::{self, Write};

use crate::engine::Problem;
use crate::error::{Error, Result};

/// Checks that `problem`'s mode can be written exactly (see the module doc).
pub fn check(problem: &Problem) -> Result<()> {
    if problem.reduction.needs_check() {
        return Err(Error::Usage(format!(
            "{}: --symmetry {} cannot be written exactly in DLX format for this puzzle (its \
             reduction needs a canonical-form check after the search, which a DLX solver does \
             not do); export with --symmetry none and divide, or count with polycover",
            problem.puzzle().source(),
            problem.compiled.mode.as_str()
        )));
    }
    Ok(())
}

/// Writes `problem` in DLX format. Call [`check`] first.
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
    let items: Vec<String> = matrix
        .items()
        .iter()
        .zip(&names)
        .map(|(item, name)| match item.multiplicity {
            1 => name.clone(),
            k => format!("{k}|{name}"),
        })
        .collect();
    writeln!(w, "{}", items.join(" "))?;
    for &o in kept {
        let line: Vec<&str> = matrix
            .option_items(o)
            .iter()
            .map(|&i| names[i as usize].as_str())
            .collect();
        writeln!(w, "{}", line.join(" "))?;
    }
    Ok(())
}
