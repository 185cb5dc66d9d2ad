//! The propagator's counts, forward checking and lazy at-most-one, checked on Soma.

use super::*;
use crate::matrix::Matrix;
use crate::puzzle::{Puzzle, SymmetryMode};
use itertools::Itertools;

fn soma_problem() -> crate::problem::Problem {
    Puzzle::load("soma")
        .unwrap()
        .compile(SymmetryMode::Rotations)
        .unwrap()
}

fn soma() -> (Arc<Groups>, Matrix) {
    let p = soma_problem();
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
    mrv.assign_all([q as i32 + 1, o as i32 + 1]);
    assert!(mrv.doubly_covered().is_some());
    // The rivals come one by one, each until it is set false; the true one among them
    // is the conflict, and it ends the node.
    let conflict = loop {
        let (r, by) = mrv.next_rival().expect("the double cover is handed over");
        if mrv.value[r as usize] == TRUE {
            break (r, by);
        }
        mrv.assign_all([-(r as i32 + 1)]);
    };
    assert!(conflict == (q, o) || conflict == (o, q), "{conflict:?}");
    assert!(mrv.rival_ends_node(conflict.0));
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
        let mut reason = Vec::new();
        pruned = mrv
            .forward_check(&mut reason)
            .filter(|&o| mrv.value[o as usize] == UNASSIGNED)
            .map(|o| (o, reason));
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

/// What a run of the propagator ends in, as the solver would see it.
enum Stop {
    /// A group lost its last live option (the solver's own conflict).
    Empty,
    /// The propagator's dead end: backtrack below the level of this decision, and set
    /// it false.
    DeadEnd(u32),
}

/// The solver's side, played by hand: unit propagation of the at-least-one clauses
/// (a group with one live option takes it, one with none is a conflict), then the
/// propagator's rivals, prunes and dead ends until nothing is left. Every clause the
/// propagator hands over is checked: all false but the literal it propagates, and a
/// dead end's with exactly one literal of its decision's level.
fn propagate(mrv: &mut Mrv, groups: &Groups) -> Result<(), Stop> {
    loop {
        let unit = (0..groups.is_group.len())
            .filter(|&g| groups.is_group[g] && mrv.covered[g] == 0)
            .find(|&g| mrv.live[g] <= 1);
        if let Some(g) = unit {
            if mrv.live[g] == 0 {
                return Err(Stop::Empty);
            }
            let o = groups.group_options[g]
                .iter()
                .copied()
                .find(|&o| mrv.value[o as usize] == UNASSIGNED)
                .expect("the live option of an uncovered group is unassigned");
            mrv.assign_all([o as i32 + 1]);
            continue;
        }
        let mut clause = Vec::new();
        if let Some((q, o)) = mrv.next_rival() {
            assert_eq!(mrv.value[o as usize], TRUE);
            if mrv.rival_ends_node(q) {
                return match mrv.dead_end(&mut clause) {
                    Some(d) => Err(dead_end(mrv, d, &clause)),
                    None => Err(Stop::Empty),
                };
            }
            mrv.assign_all([-(q as i32 + 1)]);
            continue;
        }
        let Some(o) = mrv.forward_check(&mut clause) else {
            return Ok(());
        };
        if mrv.value[o as usize] == TRUE {
            return Err(dead_end(mrv, o, &clause));
        }
        assert_eq!(clause[0], -(o as i32 + 1));
        assert!(clause[1..].iter().all(|&l| is_false(mrv, l)), "{clause:?}");
        mrv.assign_all([-(o as i32 + 1)]);
    }
}

fn is_false(mrv: &Mrv, l: i32) -> bool {
    let v = mrv.value[(l.unsigned_abs() - 1) as usize];
    if l > 0 {
        v == FALSE
    } else {
        v == TRUE
    }
}

fn dead_end(mrv: &Mrv, d: u32, clause: &[i32]) -> Stop {
    assert_eq!(clause[0], -(d as i32 + 1));
    assert!(clause.iter().all(|&l| is_false(mrv, l)), "{clause:?}");
    // The level an option was assigned on: how many levels start at or before it on
    // the trail.
    let level = |l: i32| {
        let o = l.unsigned_abs() - 1;
        let at = mrv
            .trail
            .iter()
            .position(|&t| t == o)
            .expect("on the trail");
        mrv.level_start.iter().filter(|&&s| s <= at).count()
    };
    assert!(
        clause[1..].iter().all(|&l| level(l) < level(clause[0])),
        "one literal of the top level: {clause:?}"
    );
    Stop::DeadEnd(d)
}

/// What one search saw: its dead ends, the solver's own conflicts, and those among them
/// on an assumption's level (a dead end the propagator left to conflict analysis).
#[derive(Default)]
struct Seen {
    dead_ends: usize,
    conflicts: usize,
    assumption_conflicts: usize,
}

/// A chronological solver's search under `cube`, played by hand: it opens a level for
/// each assumption in order (an empty one for an assumption already true, as CaDiCaL
/// does), then branches where MRV says, and backtracks where the propagator's dead
/// ends say, until an assumption is false or, with no assumption, the search is over.
/// A model is blocked as the CaDiCaL backend blocks it: by the dead end's clause. Each
/// solution, checked to be an exact cover, goes to `solutions`, which must not have it.
fn search(
    mrv: &mut Mrv,
    groups: &Groups,
    matrix: &Matrix,
    cube: &[u32],
    solutions: &mut std::collections::BTreeSet<Vec<u32>>,
    seen: &mut Seen,
) {
    mrv.assume(cube);
    // Set decision `d` false one level below its own, and go on from there.
    let flip = |mrv: &mut Mrv, d: u32| {
        let level = mrv
            .level_decision
            .iter()
            .rposition(|&x| x == d)
            .expect("a decision")
            + 1;
        mrv.backtrack(level - 1);
        mrv.assign_all([-(d as i32 + 1)]);
    };
    loop {
        let top = mrv.level_decision.len();
        let stop = match propagate(mrv, groups) {
            Ok(()) if top < cube.len() => {
                let a = cube[top];
                if mrv.value[a as usize] == FALSE {
                    break;
                }
                let assumed = mrv.value[a as usize] == TRUE;
                mrv.new_level();
                if !assumed {
                    mrv.assign_all([a as i32 + 1]);
                }
                continue;
            }
            Ok(()) => match mrv.decide() {
                Some(o) => {
                    mrv.new_level();
                    mrv.assign_all([o as i32 + 1]);
                    continue;
                }
                None => {
                    let chosen: Vec<u32> = mrv
                        .trail
                        .iter()
                        .copied()
                        .filter(|&o| mrv.value[o as usize] == TRUE)
                        .sorted()
                        .collect();
                    assert!(matrix.check_solution(&chosen).is_ok(), "{chosen:?}");
                    assert!(solutions.insert(chosen), "a solution twice");
                    let mut clause = Vec::new();
                    match mrv.dead_end(&mut clause) {
                        Some(d) => dead_end(mrv, d, &clause),
                        None => {
                            assert_eq!(top, 0, "a model under a level nobody decided");
                            break;
                        }
                    }
                }
            },
            Err(stop) => stop,
        };
        match stop {
            Stop::DeadEnd(d) => {
                seen.dead_ends += 1;
                flip(mrv, d);
            }
            Stop::Empty => {
                seen.conflicts += 1;
                // Backtrack to the highest level that has a decision.
                let Some(level) = mrv
                    .level_decision
                    .iter()
                    .rposition(|&d| d != NO_DECISION_NEEDED)
                else {
                    break;
                };
                if level < cube.len() {
                    seen.assumption_conflicts += 1;
                }
                flip(mrv, mrv.level_decision[level]);
            }
        }
    }
    if !mrv.level_start.is_empty() {
        mrv.backtrack(0);
    }
}

/// The propagator's dead ends and forward checking, driven through a whole
/// enumeration of Soma as a chronological solver would drive them, find the 480
/// solutions, every one an exact cover, each once.
#[test]
fn dead_ends_and_forward_checking_enumerate_soma_exactly() {
    let (groups, matrix) = soma();
    let mut mrv = Mrv::new(Arc::clone(&groups), true);
    mrv.enforce_at_most_one();
    let mut solutions = std::collections::BTreeSet::new();
    let mut seen = Seen::default();
    search(&mut mrv, &groups, &matrix, &[], &mut solutions, &mut seen);
    assert_eq!(solutions.len(), 480);
    assert!(seen.dead_ends > 0, "no dead end met");
    assert_eq!(mrv.anomalies, 0);
    // The propagator sees the dead ends before the clauses do (the solver's conflicts
    // are what is left).
    assert!(
        seen.dead_ends > 10 * seen.conflicts,
        "{} dead ends, {} conflicts",
        seen.dead_ends,
        seen.conflicts
    );
}

/// The same under cubes, the way `count` runs CaDiCaL: the native split's disjoint
/// cubes, each searched under assumptions by one solver in turn, find the 480
/// solutions between them. Each cube repeats its first placement last, so its top
/// assumption level is one CaDiCaL opens empty. A cube ends where the propagator
/// hands back an assumption as a dead end: never in a conflict on an assumption's
/// level, which CaDiCaL would analyse, learning clauses from its reasons that then
/// fire on their own in the cubes after it (53,800 conflicts on the 6x10 pentominoes,
/// where a plain search has none).
#[test]
fn cubes_end_in_dead_ends_at_their_assumptions() {
    let p = soma_problem();
    let (groups, matrix) = soma();
    let mut engine = crate::solver::bits::build(p.reduced());
    let cubes: Vec<Vec<u32>> = crate::solver::split::split(engine.as_mut(), 16)
        .into_iter()
        .map(|cube| {
            let mut cube: Vec<u32> = cube.into_iter().map(|o| p.original(o)).collect();
            cube.push(cube[0]);
            cube
        })
        .collect();
    assert!(
        cubes.len() > 4 && cubes.iter().all(|c| c.len() >= 3),
        "{cubes:?}"
    );
    let mut mrv = Mrv::new(Arc::clone(&groups), true);
    mrv.enforce_at_most_one();
    let mut solutions = std::collections::BTreeSet::new();
    let mut seen = Seen::default();
    for cube in &cubes {
        let before = seen.dead_ends;
        search(&mut mrv, &groups, &matrix, cube, &mut solutions, &mut seen);
        assert!(
            seen.dead_ends > before,
            "cube {cube:?} ended without a dead end"
        );
    }
    assert_eq!(solutions.len(), 480);
    assert_eq!(
        seen.assumption_conflicts, 0,
        "conflicts on assumption levels"
    );
    assert_eq!(mrv.anomalies, 0);
}
