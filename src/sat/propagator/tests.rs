//! The propagator's counts, forward checking and lazy at-most-one, checked on Soma.

use super::*;
use crate::matrix::Matrix;
use crate::puzzle::{Puzzle, SymmetryMode};
use itertools::Itertools;

fn soma() -> (Arc<Groups>, Matrix) {
    let p = Puzzle::load("soma")
        .unwrap()
        .compile(SymmetryMode::Rotations)
        .unwrap();
    let groups = Groups::new(p.matrix(), &p.kept_mask());
    (Arc::new(groups), p.matrix().clone())
}

#[test]
fn counts_follow_assignments_and_backtracks() {
    let (groups, _) = soma();
    let mut mrv = Mrv::new(Arc::clone(&groups), true);
    let before = mrv.live.clone();
    mrv.new_level();
    let o = mrv.decide().expect("a decision at the root");
    mrv.assign_all([o as i32 + 1]);
    // Everything sharing a group with `o` becomes false, as the clauses would say.
    let falsified: Vec<u32> = groups
        .groups_of(o as usize)
        .iter()
        .flat_map(|&g| groups.group_options[g as usize].iter().copied())
        .filter(|&p| p != o)
        .unique()
        .collect();
    mrv.assign_all(falsified.iter().map(|&p| -(p as i32 + 1)));
    for &g in groups.groups_of(o as usize) {
        assert_eq!(mrv.covered[g as usize], 1);
        assert_eq!(mrv.live[g as usize], 1);
    }
    mrv.backtrack(0);
    assert_eq!(mrv.live, before);
    assert!(mrv.trail.is_empty());
    assert_eq!(mrv.anomalies, 0);
}

/// The lazy at-most-one: a true option queues exactly its group mates that are not
/// false, each with it as the reason; a rival already true comes out too (a
/// conflict); a backtrack that undoes the option drops its rivals.
#[test]
fn the_lazy_at_most_one_queues_every_rival_once_and_forgets_undone_ones() {
    let (groups, _) = soma();
    let mut mrv = Mrv::new(Arc::clone(&groups), true);
    mrv.enforce_at_most_one();
    mrv.new_level();
    let o = mrv.decide().unwrap();
    let mates: Vec<u32> = groups
        .groups_of(o as usize)
        .iter()
        .flat_map(|&g| groups.group_options[g as usize].iter().copied())
        .filter(|&p| p != o)
        .unique()
        .sorted()
        .collect();
    // One mate is false already: it is not handed over.
    let (gone, rest) = mates.split_first().unwrap();
    mrv.assign_all([-(*gone as i32 + 1), o as i32 + 1]);
    let mut handed = Vec::new();
    while let Some((q, by)) = mrv.next_rival() {
        assert_eq!(by, o);
        handed.push(q);
        mrv.assign_all([-(q as i32 + 1)]);
    }
    assert_eq!(handed.iter().copied().sorted().collect::<Vec<_>>(), rest);
    assert_eq!(mrv.doubly_covered(), None);

    // A rival that is true already (its own rivals handed over while `o` was
    // unassigned) is handed over when `o` becomes true: a conflict.
    mrv.backtrack(0);
    assert_eq!(
        mrv.next_rival(),
        None,
        "undone options leave no rivals behind"
    );
    mrv.new_level();
    let q = rest[0];
    mrv.assign_all([q as i32 + 1]);
    while mrv.next_rival().is_some() {}
    mrv.assign_all([o as i32 + 1]);
    assert!(mrv.doubly_covered().is_some());
    let mut conflict = false;
    while let Some((r, by)) = mrv.next_rival() {
        conflict |= (r, by) == (q, o);
    }
    assert!(conflict, "the double cover is handed over");
}

#[test]
fn sanity_catches_a_wrong_count() {
    let (groups, _) = soma();
    let mut mrv = Mrv::new(groups, false);
    assert_eq!(mrv.sanity(), Ok(()));
    mrv.corrupt_live(0);
    assert!(mrv.sanity().unwrap_err().contains("group 0"));
}

/// Forward checking finds an option that would empty a group, and its reason clause
/// is all false but for `-o`.
#[test]
fn forward_checking_prunes_with_a_false_reason() {
    let (groups, matrix) = soma();
    let mut mrv = Mrv::new(Arc::clone(&groups), true);
    // Place options greedily until forward checking has something to say.
    let mut chosen = Vec::new();
    let mut pruned = None;
    while pruned.is_none() {
        mrv.new_level();
        let Some(o) = mrv.decide() else { break };
        chosen.push(o);
        let falsified: Vec<u32> = groups
            .groups_of(o as usize)
            .iter()
            .flat_map(|&g| groups.group_options[g as usize].iter().copied())
            .filter(|&p| p != o && mrv.value[p as usize] == UNASSIGNED)
            .unique()
            .collect();
        mrv.assign_all(
            std::iter::once(o as i32 + 1).chain(falsified.iter().map(|&p| -(p as i32 + 1))),
        );
        pruned = mrv.forward_check();
    }
    let (o, reason) = pruned.expect("Soma prunes within a few placements");
    assert_eq!(reason[0], -(o as i32 + 1));
    for &l in &reason[1..] {
        let p = (l.unsigned_abs() - 1) as usize;
        let value = if l > 0 { mrv.value[p] } else { -mrv.value[p] };
        assert_eq!(value, FALSE, "reason literal {l} is not false");
    }
    // And `o` really empties a group: some uncovered group has only options that
    // overlap `o`.
    let h = mrv.empties(o as usize).unwrap();
    assert!(groups.group_options[h]
        .iter()
        .all(|&p| mrv.value[p as usize] == FALSE
            || matrix
                .option_items(p)
                .iter()
                .any(|i| matrix.option_items(o).contains(i))));
}

#[test]
fn decides_the_most_constrained_group() {
    let (groups, _) = soma();
    let mut mrv = Mrv::new(Arc::clone(&groups), true);
    let o = mrv.decide().unwrap();
    let fewest = (0..groups.group_options.len())
        .filter(|&g| groups.is_group[g])
        .map(|g| groups.group_options[g].len())
        .min()
        .unwrap();
    assert!(groups
        .groups_of(o as usize)
        .iter()
        .any(|&g| groups.group_options[g as usize].len() == fewest));
}
