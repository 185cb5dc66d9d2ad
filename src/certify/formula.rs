//! The CNF a certificate is about, and the number of each of its clauses.
//!
//! One variable per option of the matrix (variable `o + 1` is option `o`), nothing else,
//! so that the CNF's models are the solutions one for one and its model count over all
//! variables is the solution count. Clauses, numbered from 1 in the order written:
//!
//! - for each *cell* (an item covered exactly once): at least one of its options;
//! - for each pair of options sharing a cell or an optional cell: not both (once per
//!   pair, however many items they share);
//! - for each *counted* item (a piece with copies or a count range that the cells do not
//!   already decide): at most `max`, as one clause per `max + 1` of its options, and at
//!   least `min`, as one clause per `n - min + 1` of them (no auxiliary variables, so none
//!   needs defining; refused past [`MAX_CARDINALITY_CLAUSES`]);
//! - for a symmetry term: `x_o -> x_g(o)` for every option that `g` moves, so that the
//!   models are the solutions `g` maps onto themselves.
//!
//! An item whose count the cells decide (every option holds it and the same number of
//! cells, and the cells' total divided by that number is in its range: the dominoes'
//! one piece with copies) gets no clauses: they would hold in every model anyway.
//!
//! Invariants: every option has at least one cell (refused otherwise), so that covering
//! every cell ends the search; `amo` holds each conflicting pair once, least option first.

use std::collections::HashMap;

use crate::error::{Error, Result};
use crate::matrix::Matrix;
use crate::symmetry::Symmetry;

/// The most clauses the count ranges of one certificate may take.
pub const MAX_CARDINALITY_CLAUSES: u64 = 2_000_000;

/// A counted item: its options and bounds.
pub(crate) struct Kind {
    pub options: Vec<u32>,
    pub min: u32,
    pub max: u32,
}

/// The certified CNF, with where each clause is.
pub(crate) struct Formula {
    pub num_vars: u32,
    pub clauses: Vec<Vec<i32>>,
    /// Per covered item: whether it must be covered (a cell) and its at-least-one clause.
    pub cover_items: Vec<(u32, Option<u32>)>,
    /// Per option: its covered items (indices into `cover_items`), increasing.
    pub cells: Vec<Vec<u32>>,
    /// Per option: the counted kinds it uses.
    pub kinds_of: Vec<Vec<u32>>,
    pub kinds: Vec<Kind>,
    /// Per covered item: its options.
    pub by_cell: Vec<Vec<u32>>,
    pub amo: HashMap<(u32, u32), u32>,
    pub at_most: HashMap<Vec<u32>, u32>,
    pub at_least: HashMap<Vec<u32>, u32>,
    /// Per option moved by the term's symmetry: the clause `-x_o x_g(o)`.
    pub follows: Vec<Option<u32>>,
    /// Per option: the option `g` maps it to (itself for the identity).
    pub image: Vec<u32>,
    /// Items that got no clauses, because the cells decide their count.
    pub implied: Vec<u32>,
}

fn binomial(n: u64, k: u64) -> u64 {
    let k = k.min(n - k.min(n));
    let mut r: u64 = 1;
    for i in 0..k {
        r = r.saturating_mul(n - i) / (i + 1);
        if r >= u64::MAX / 2 {
            return u64::MAX;
        }
    }
    r
}

/// Every `k`-subset of `of`, in lexicographic order.
fn subsets(of: &[u32], k: usize, mut each: impl FnMut(&[u32])) {
    if k > of.len() {
        return;
    }
    let mut idx: Vec<usize> = (0..k).collect();
    let mut cur = Vec::with_capacity(k);
    loop {
        cur.clear();
        cur.extend(idx.iter().map(|&i| of[i]));
        each(&cur);
        let mut t = k;
        while t > 0 && idx[t - 1] == of.len() - k + t - 1 {
            t -= 1;
        }
        if t == 0 {
            return;
        }
        idx[t - 1] += 1;
        for u in t..k {
            idx[u] = idx[u - 1] + 1;
        }
    }
}

/// Option `o`'s variable as a positive literal.
fn lit(o: u32) -> i32 {
    o as i32 + 1
}

/// Per covered item: its item, and its at-least-one clause (none until written).
type CoverItems = Vec<(u32, Option<u32>)>;

/// The covered items (those an option holds at most once), in item order: each item's
/// place among them, and the list of (item, its at-least-one clause, none yet).
fn cover_items(matrix: &Matrix) -> (Vec<Option<u32>>, CoverItems) {
    let items = matrix.items();
    let mut cover_index = vec![None; items.len()];
    let mut cover_items = Vec::new();
    for (i, item) in items.iter().enumerate() {
        if item.max == 1 {
            cover_index[i] = Some(cover_items.len() as u32);
            cover_items.push((i as u32, None));
        }
    }
    (cover_index, cover_items)
}

/// The matrix read by option: per option, its covered items (indices into
/// `cover_items`); per item, the options that count toward it.
struct ByOption {
    cells: Vec<Vec<u32>>,
    counted: Vec<Vec<u32>>,
}

/// Reads the matrix by option (see [`ByOption`]); refuses an option without a cell (see
/// the invariants).
fn option_items(
    matrix: &Matrix,
    cover_index: &[Option<u32>],
    cover_items: &[(u32, Option<u32>)],
) -> Result<ByOption> {
    let items = matrix.items();
    let n = matrix.num_options();
    let mut cells = vec![Vec::new(); n];
    let mut counted: Vec<Vec<u32>> = vec![Vec::new(); items.len()];
    for o in 0..n as u32 {
        for &i in matrix.option_items(o) {
            match cover_index[i as usize] {
                Some(c) => cells[o as usize].push(c),
                None => counted[i as usize].push(o),
            }
        }
        if !cells[o as usize]
            .iter()
            .any(|&c| items[cover_items[c as usize].0 as usize].min == 1)
        {
            let names: Vec<&str> = matrix
                .option_items(o)
                .iter()
                .map(|&i| items[i as usize].name.as_str())
                .collect();
            return Err(Error::Usage(format!(
                "cannot certify: placement {} (option {o}, items {}) fills only optional \
                 cells; a certificate needs every placement to fill at least one cell that \
                 must be filled",
                o + 1,
                names.join(" ")
            )));
        }
    }
    Ok(ByOption { cells, counted })
}

/// The counted items whose count the cells decide (the module doc's condition): they
/// get no clauses.
fn implied_items(
    matrix: &Matrix,
    cells: &[Vec<u32>],
    counted: &[Vec<u32>],
    counted_items: &[u32],
) -> Vec<u32> {
    let items = matrix.items();
    let num_cells = items.iter().filter(|i| i.min == 1 && i.max == 1).count() as u64;
    let has_optional = items.iter().any(|i| i.min == 0 && i.max == 1);
    let mut implied = Vec::new();
    if counted_items.len() == 1 && !has_optional {
        let i = counted_items[0] as usize;
        let size = cells[0].len() as u64;
        let all = counted[i].len() == matrix.num_options()
            && cells.iter().all(|c| c.len() as u64 == size);
        if all && size > 0 && num_cells % size == 0 {
            let pieces = num_cells / size;
            if items[i].min as u64 <= pieces && pieces <= items[i].max as u64 {
                implied.push(i as u32);
            }
        }
    }
    implied
}

/// The kinds of the counted items that are not `implied`, and per option the kinds it
/// uses; refused when their clauses would pass [`MAX_CARDINALITY_CLAUSES`].
fn counted_kinds(
    matrix: &Matrix,
    counted: &[Vec<u32>],
    counted_items: &[u32],
    implied: &[u32],
) -> Result<(Vec<Kind>, Vec<Vec<u32>>)> {
    let items = matrix.items();
    let mut kinds = Vec::new();
    let mut kinds_of = vec![Vec::new(); matrix.num_options()];
    let mut cardinality: u64 = 0;
    for &i in counted_items {
        if implied.contains(&i) {
            continue;
        }
        let item = &items[i as usize];
        let options = counted[i as usize].clone();
        let len = options.len() as u64;
        if (item.max as u64) < len {
            cardinality = cardinality.saturating_add(binomial(len, item.max as u64 + 1));
        }
        if item.min > 0 && item.min as u64 <= len {
            cardinality = cardinality.saturating_add(binomial(len, len - item.min as u64 + 1));
        }
        for &o in &options {
            kinds_of[o as usize].push(kinds.len() as u32);
        }
        kinds.push(Kind {
            options,
            min: item.min,
            max: item.max,
        });
    }
    if cardinality > MAX_CARDINALITY_CLAUSES {
        return Err(Error::Usage(format!(
            "cannot certify: the pieces' counts need {cardinality} clauses (a clause per \
             max + 1 and per n - min + 1 of a piece's n placements, with no auxiliary \
             variables), more than the {MAX_CARDINALITY_CLAUSES} a certificate takes"
        )));
    }
    Ok((kinds, kinds_of))
}

/// Adds each pair of options sharing a covered item's clause, once per pair: the
/// pairs and their clauses.
fn amo_clauses(by_cell: &[Vec<u32>], clauses: &mut Vec<Vec<i32>>) -> HashMap<(u32, u32), u32> {
    let mut amo = HashMap::new();
    for options in by_cell {
        for (k, &a) in options.iter().enumerate() {
            for &b in &options[k + 1..] {
                amo.entry((a, b)).or_insert_with(|| {
                    clauses.push(vec![-lit(a), -lit(b)]);
                    clauses.len() as u32
                });
            }
        }
    }
    amo
}

/// The at-most and at-least clauses of the kinds: each clause's options, and its
/// number.
type Cardinality = (HashMap<Vec<u32>, u32>, HashMap<Vec<u32>, u32>);

/// Adds each kind's at-most and at-least clauses (see the module doc): for each, its
/// options and its clause, the at-most clauses first.
fn cardinality_clauses(kinds: &[Kind], clauses: &mut Vec<Vec<i32>>) -> Cardinality {
    let mut at_most = HashMap::new();
    let mut at_least = HashMap::new();
    for kind in kinds {
        let len = kind.options.len();
        if (kind.max as usize) < len {
            subsets(&kind.options, kind.max as usize + 1, |s| {
                clauses.push(s.iter().map(|&o| -lit(o)).collect());
                at_most.insert(s.to_vec(), clauses.len() as u32);
            });
        }
        if kind.min > 0 && kind.min as usize <= len {
            subsets(&kind.options, len - kind.min as usize + 1, |s| {
                clauses.push(s.iter().map(|&o| lit(o)).collect());
                at_least.insert(s.to_vec(), clauses.len() as u32);
            });
        }
    }
    (at_most, at_least)
}

impl Formula {
    /// The CNF of `matrix`, or of the solutions `g` fixes.
    pub fn new(matrix: &Matrix, g: Option<&Symmetry>) -> Result<Formula> {
        let items = matrix.items();
        let n = matrix.num_options();
        let (cover_index, mut cover_items) = cover_items(matrix);
        let ByOption { cells, counted } = option_items(matrix, &cover_index, &cover_items)?;
        let counted_items: Vec<u32> = (0..items.len() as u32)
            .filter(|&i| items[i as usize].max > 1)
            .collect();
        let implied = implied_items(matrix, &cells, &counted, &counted_items);
        let (kinds, kinds_of) = counted_kinds(matrix, &counted, &counted_items, &implied)?;
        if g.is_some_and(|g| !g.is_identity()) && !kinds.is_empty() {
            return Err(Error::Usage(format!(
                "cannot certify a count up to symmetry of a puzzle whose piece counts are \
                 ranges: certify it with {}",
                crate::setting::Setting::Symmetry.is("none")
            )));
        }
        let mut by_cell = vec![Vec::new(); cover_items.len()];
        for (o, cs) in cells.iter().enumerate() {
            for &c in cs {
                by_cell[c as usize].push(o as u32);
            }
        }
        // Clauses in the module doc's order: their numbers are the certificate's.
        let mut clauses: Vec<Vec<i32>> = Vec::new();
        for (c, (item, alo)) in cover_items.iter_mut().enumerate() {
            if items[*item as usize].min == 1 {
                clauses.push(by_cell[c].iter().map(|&o| lit(o)).collect());
                *alo = Some(clauses.len() as u32);
            }
        }
        let amo = amo_clauses(&by_cell, &mut clauses);
        let (at_most, at_least) = cardinality_clauses(&kinds, &mut clauses);
        let image: Vec<u32> = match g {
            Some(g) => g.options.clone(),
            None => (0..n as u32).collect(),
        };
        let mut follows = vec![None; n];
        for o in 0..n as u32 {
            let to = image[o as usize];
            if to != o {
                clauses.push(vec![-lit(o), lit(to)]);
                follows[o as usize] = Some(clauses.len() as u32);
            }
        }
        Ok(Formula {
            num_vars: n as u32,
            clauses,
            cover_items,
            cells,
            kinds_of,
            kinds,
            by_cell,
            amo,
            at_most,
            at_least,
            follows,
            image,
            implied,
        })
    }

    /// Whether the certified CNF of `matrix` is a sweep's: one piece in copies whose count
    /// the cells decide, and every cell to fill (the items the module doc says get no
    /// clauses, and nothing else counted or optional). Found from the matrix alone,
    /// without writing a clause.
    pub fn is_sweep(matrix: &Matrix) -> bool {
        let items = matrix.items();
        let (cover_index, cover_items) = cover_items(matrix);
        let Ok(ByOption { cells, counted }) = option_items(matrix, &cover_index, &cover_items)
        else {
            return false;
        };
        let counted_items: Vec<u32> = (0..items.len() as u32)
            .filter(|&i| items[i as usize].max > 1)
            .collect();
        !implied_items(matrix, &cells, &counted, &counted_items).is_empty()
    }

    /// The clause that says options `a` and `b` (which share a covered item) are not both
    /// chosen.
    pub fn amo_clause(&self, a: u32, b: u32) -> u32 {
        self.amo[&(a.min(b), a.max(b))]
    }

    /// Whether two options share a covered item.
    pub fn conflict(&self, a: u32, b: u32) -> bool {
        a != b && self.amo.contains_key(&(a.min(b), a.max(b)))
    }

    /// Writes the DIMACS text, after `comments` (each without its `c `).
    pub fn write_dimacs(
        &self,
        w: &mut dyn std::io::Write,
        comments: &[String],
    ) -> std::io::Result<()> {
        for c in comments {
            writeln!(w, "c {c}")?;
        }
        writeln!(w, "p cnf {} {}", self.num_vars, self.clauses.len())?;
        let mut line = Vec::new();
        for clause in &self.clauses {
            line.clear();
            for &l in clause {
                super::out::push_int(&mut line, l as i64);
            }
            line.extend_from_slice(b"0\n");
            w.write_all(&line)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsets_are_all_there_once() {
        let mut seen = Vec::new();
        subsets(&[1, 2, 3, 4], 2, |s| seen.push(s.to_vec()));
        assert_eq!(seen.len(), 6);
        assert_eq!(seen[0], vec![1, 2]);
        assert_eq!(seen[5], vec![3, 4]);
        assert_eq!(binomial(24, 4), 10626);
        assert_eq!(binomial(5, 5), 1);
    }
}
