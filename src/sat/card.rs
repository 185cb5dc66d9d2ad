//! Cardinality constraints: "between `min` and `max` of these literals are true", for an
//! item covered more than once (k copies of a piece, a count range).
//!
//! Two encodings, chosen by the largest count the constraint must tell apart:
//!
//! - up to [`TOTALIZER_MAX_COUNT`]: rustsat's totalizer, both bounds. Its size grows as
//!   n·k (n options, bound k), so for small k it is linear, and it propagates fully
//!   (unit propagation alone keeps any assignment within the bounds);
//! - above: a binary adder (Warners 1998): full and half adders sum the options into a
//!   binary number of about log2(n) bits, which is then compared with `min` and `max`.
//!   About 14 clauses per option whatever k is. Where a totalizer of 2,048 dominoes in a
//!   16x16x16 box took 40 M clauses, this takes 0.2 M; it propagates less, but the cells
//!   force the options of such pieces anyway.
//!
//! Invariants:
//! - Only fresh auxiliary variables from the variable manager are added, after the
//!   primary ones.
//! - Every auxiliary variable of the adder is defined in both directions (a function of
//!   the options), so model counts are the same projected or not.
//! - The encoding's shape depends only on n, `min` and `max`, never on which literals
//!   they are: the compiler's `size` counts it once per shape.
//!
//! # References
//!
//! - O. Bailleux, Y. Boufkhad, *Efficient CNF Encoding of Boolean Cardinality
//!   Constraints*, CP 2003 (the totalizer).
//! - J. P. Warners, *A linear-time transformation of linear inequalities into conjunctive
//!   normal form*, Information Processing Letters 68, 1998 (the adder).
//! - N. Eén, N. Sörensson, *Translating Pseudo-Boolean Constraints into SAT*, JSAT 2, 2006.

use std::collections::VecDeque;

use rustsat::encodings::card::{BoundBoth, BoundLower, BoundUpper, Totalizer};
use rustsat::encodings::CollectClauses;
use rustsat::instances::ManageVars;
use rustsat::types::{Clause, Lit};
use rustsat::OutOfMemory;

/// The largest count (the upper bound, or the lower one when there is no upper bound)
/// encoded by a totalizer; larger ones get the binary adder.
pub const TOTALIZER_MAX_COUNT: usize = 8;

/// Adds "between `min` and `max` of `lits` are true" (`max >= lits.len()`: no upper
/// bound). The caller handles the cases without a cardinality constraint: fewer than
/// `min` literals, `max == 1`, and no bound at all.
pub(super) fn encode<C: CollectClauses>(
    lits: Vec<Lit>,
    min: usize,
    max: usize,
    sink: &mut C,
    vars: &mut dyn ManageVars,
) -> Result<(), OutOfMemory> {
    let n = lits.len();
    let largest = if max < n { max } else { min };
    if largest <= TOTALIZER_MAX_COUNT {
        totalizer(lits, min, max, sink, vars)
    } else {
        adder(lits, min, max, sink, vars)
    }
}

fn totalizer<C: CollectClauses>(
    lits: Vec<Lit>,
    min: usize,
    max: usize,
    sink: &mut C,
    vars: &mut dyn ManageVars,
) -> Result<(), OutOfMemory> {
    let n = lits.len();
    let mut totalizer: Totalizer = lits.into_iter().collect();
    totalizer.encode_both(min..=max, sink, vars)?;
    let mut units = Vec::new();
    if min > 0 {
        units.extend(totalizer.enforce_lb(min).expect("encoded for min"));
    }
    if max < n {
        units.extend(totalizer.enforce_ub(max).expect("encoded for max"));
    }
    sink.extend_clauses(units.into_iter().map(|u| Clause::from([u])))
}

/// The binary adder: the sum's bits, least significant first, then the comparisons.
fn adder<C: CollectClauses>(
    lits: Vec<Lit>,
    min: usize,
    max: usize,
    sink: &mut C,
    vars: &mut dyn ManageVars,
) -> Result<(), OutOfMemory> {
    let n = lits.len();
    let bits = sum_bits(lits, sink, vars)?;
    // The sum is at most n < 2^bits.len(), so every bound below fits in the bits.
    let bit = |k: usize, i: usize| k >> i & 1 == 1;
    if min == max {
        // Exactly min: each bit of the sum is min's.
        return sink.extend_clauses(
            bits.iter()
                .enumerate()
                .map(|(i, &o)| Clause::from([if bit(min, i) { o } else { !o }])),
        );
    }
    if max < n {
        // The sum exceeds max iff, at some bit i where max has 0, the sum has 1 and has
        // 1 too at every higher bit where max has 1.
        for i in (0..bits.len()).filter(|&i| !bit(max, i)) {
            let mut clause = Clause::from([!bits[i]]);
            for j in (i + 1..bits.len()).filter(|&j| bit(max, j)) {
                clause.add(!bits[j]);
            }
            sink.add_clause(clause)?;
        }
    }
    if min > 0 {
        // The sum is below min iff, at some bit i where min has 1, the sum has 0 and has
        // 0 too at every higher bit where min has 0.
        for i in (0..bits.len()).filter(|&i| bit(min, i)) {
            let mut clause = Clause::from([bits[i]]);
            for j in (i + 1..bits.len()).filter(|&j| !bit(min, j)) {
                clause.add(bits[j]);
            }
            sink.add_clause(clause)?;
        }
    }
    Ok(())
}

/// The bits of the number of true `lits` (at least one literal), least significant
/// first: literals of weight 2^i wait in queue i; three of them make a full adder (sum
/// back to queue i, carry to queue i + 1), two a half adder, until each queue holds one.
/// First in, first out, so the adders form a balanced tree and the shape depends on the
/// number of literals only.
fn sum_bits<C: CollectClauses>(
    lits: Vec<Lit>,
    sink: &mut C,
    vars: &mut dyn ManageVars,
) -> Result<Vec<Lit>, OutOfMemory> {
    let mut queues: Vec<VecDeque<Lit>> = vec![lits.into()];
    let mut i = 0;
    while i < queues.len() {
        while queues[i].len() >= 2 {
            let a = queues[i].pop_front().expect("two or more");
            let b = queues[i].pop_front().expect("two or more");
            let c = if queues[i].is_empty() {
                None
            } else {
                queues[i].pop_front()
            };
            let (sum, carry) = (vars.new_lit(), vars.new_lit());
            match c {
                Some(c) => full_adder(a, b, c, sum, carry, sink)?,
                None => half_adder(a, b, sum, carry, sink)?,
            }
            queues[i].push_back(sum);
            if queues.len() == i + 1 {
                queues.push(VecDeque::new());
            }
            queues[i + 1].push_back(carry);
        }
        i += 1;
    }
    Ok(queues
        .into_iter()
        .filter_map(|mut q| q.pop_front())
        .collect())
}

/// `sum <-> a xor b xor c`, `carry <-> at least two of a, b, c`.
fn full_adder<C: CollectClauses>(
    a: Lit,
    b: Lit,
    c: Lit,
    sum: Lit,
    carry: Lit,
    sink: &mut C,
) -> Result<(), OutOfMemory> {
    let mut clauses = Vec::with_capacity(14);
    for pattern in 0..8u32 {
        // The clause that rules out (a, b, c) = pattern with the wrong sum.
        let pick = |l: Lit, k: u32| if pattern >> k & 1 == 1 { !l } else { l };
        let odd = pattern.count_ones() % 2 == 1;
        clauses.push(Clause::from([
            pick(a, 0),
            pick(b, 1),
            pick(c, 2),
            if odd { sum } else { !sum },
        ]));
    }
    for (x, y) in [(a, b), (a, c), (b, c)] {
        clauses.push(Clause::from([!carry, x, y]));
        clauses.push(Clause::from([!x, !y, carry]));
    }
    sink.extend_clauses(clauses)
}

/// `sum <-> a xor b`, `carry <-> a and b`.
fn half_adder<C: CollectClauses>(
    a: Lit,
    b: Lit,
    sum: Lit,
    carry: Lit,
    sink: &mut C,
) -> Result<(), OutOfMemory> {
    sink.extend_clauses([
        Clause::from([!a, !b, !sum]),
        Clause::from([a, b, !sum]),
        Clause::from([!a, b, sum]),
        Clause::from([a, !b, sum]),
        Clause::from([!carry, a]),
        Clause::from([!carry, b]),
        Clause::from([!a, !b, carry]),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustsat::instances::{BasicVarManager, Cnf};
    use rustsat::types::Var;

    /// For every assignment of n options, the constraint with the options fixed has
    /// exactly one model (every auxiliary variable defined) when the number true lies in
    /// [min, max], and none otherwise: the adder for every bound, and `encode` (the
    /// totalizer for small bounds) satisfiable exactly then.
    #[test]
    #[cfg_attr(debug_assertions, ignore = "heavy: runs in release builds")]
    fn the_encodings_count_exactly() {
        use varisat::ExtendFormula;
        for n in 2..=8usize {
            for min in 0..=n {
                for max in min.max(2)..=n + 1 {
                    for forced in [false, true] {
                        let lits: Vec<Lit> = (0..n as u32).map(Lit::positive).collect();
                        let mut vars = BasicVarManager::from_next_free(Var::new(n as u32));
                        let mut cnf = Cnf::new();
                        if forced {
                            adder(lits, min, max, &mut cnf, &mut vars).unwrap();
                        } else {
                            encode(lits, min, max, &mut cnf, &mut vars).unwrap();
                        }
                        let total = vars.n_used() as isize;
                        let lit = |l: isize| varisat::Lit::from_dimacs(l);
                        let mut solver = varisat::Solver::new();
                        for c in cnf.iter() {
                            let c: Vec<_> = c.iter().map(|l| lit(l.to_ipasir() as isize)).collect();
                            solver.add_clause(&c);
                        }
                        let mut next = total;
                        for x in 0..1u32 << n {
                            let mut assume: Vec<_> = (0..n as isize)
                                .map(|v| lit(if x >> v & 1 == 1 { v + 1 } else { -(v + 1) }))
                                .collect();
                            let within = (min..=max).contains(&(x.count_ones() as usize));
                            solver.assume(&assume);
                            let sat = solver.solve().unwrap();
                            assert_eq!(sat, within, "forced {forced} n {n} [{min}, {max}] {x:b}");
                            if !(sat && forced) {
                                continue;
                            }
                            // A second model must differ in an auxiliary variable.
                            let model = solver.model().unwrap();
                            next += 1;
                            let mut block = vec![lit(-next)];
                            block.extend(model.iter().filter(|l| l.index() >= n).map(|&l| !l));
                            solver.add_clause(&block);
                            assume.push(lit(next));
                            solver.assume(&assume);
                            assert!(!solver.solve().unwrap(), "two models: n {n} {x:b}");
                            solver.add_clause(&[lit(-next)]);
                        }
                    }
                }
            }
        }
    }

    /// The adder's size grows linearly with the number of options, whatever the bound.
    #[test]
    fn the_adder_is_linear() {
        let size = |n: usize| {
            let lits: Vec<Lit> = (0..n as u32).map(Lit::positive).collect();
            let mut vars = BasicVarManager::from_next_free(Var::new(n as u32));
            let mut cnf = Cnf::new();
            encode(lits, n / 4, n / 4, &mut cnf, &mut vars).unwrap();
            cnf.len()
        };
        let (small, large) = (size(1000), size(8000));
        // 8 times the options, 8 times the clauses (and a few more bits to compare).
        assert!(large * 100 <= 820 * small, "{small} -> {large}");
        assert!(large <= 15 * 8000, "{large}");
    }
}
