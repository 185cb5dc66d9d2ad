//! Symmetry of an exact-cover problem, computed once and handed to every engine.
//!
//! A puzzle kind describes its symmetry group as permutations of the matrix: each
//! [`Symmetry`] maps every item to an item and every option to an option, so that the
//! items of `g(o)` are the images of the items of `o`. A symmetry therefore maps
//! solutions to solutions, and "distinct solutions" means orbits of solutions.
//!
//! [`Reduction`] turns the group into two things every engine can use:
//!
//! 1. **A pinned item.** Choose a unit item `i` that every symmetry fixes (a piece with
//!    one copy, or a cell on every axis of symmetry). Every solution covers `i` with
//!    exactly one option, and `g` maps that option to the option covering `i` in `g(S)`.
//!    So the options covering `i` split into orbits, and every orbit of solutions has
//!    members whose `i`-option is the chosen representative of exactly one option orbit.
//!    All other options covering `i` are removed from the matrix.
//! 2. **A canonical-form check.** The members of one solution orbit whose `i`-option is
//!    the representative `r` form one orbit of the stabiliser `Stab(r)`: if `T = g(S)`
//!    and both use `r`, then `g(r) = r`. The check accepts a solution iff its sorted
//!    option list is lexicographically no greater than that of each image under
//!    `Stab(r)`; exactly one member of each `Stab(r)`-orbit, its least, passes.
//!
//! Together: exactly one accepted solution per orbit, whatever the solutions' own
//! stabilisers are. When every representative has a trivial stabiliser (a piece whose
//! orientations are all distinct) the check is empty and the search shrinks |G|-fold.
//! When no item is fixed by the whole group the pinning is skipped and the check runs
//! over the whole group; still exact, only slower.
//!
//! Invariants: `Group::elements()[0]` is the identity; every element is a permutation
//! consistent with the matrix (checked by [`Group::validate`]).

use crate::matrix::Matrix;

/// One symmetry of a matrix, as permutations of its items and of its options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symmetry {
    /// The image of each item: item `i` maps to `items[i]`; a permutation of the items.
    pub items: Vec<u32>,
    /// The image of each option: option `o` maps to `options[o]`, whose items are the
    /// images of the items of `o`; a permutation of the options.
    pub options: Vec<u32>,
    /// A short human name, e.g. "rot(x->y,y->-x,z->z)".
    pub name: String,
}

impl Symmetry {
    /// The symmetry that fixes every item and every option of `matrix`.
    pub fn identity(matrix: &Matrix) -> Symmetry {
        Symmetry {
            items: (0..matrix.num_items() as u32).collect(),
            options: (0..matrix.num_options() as u32).collect(),
            name: "identity".into(),
        }
    }

    /// Whether the symmetry fixes every item and every option.
    pub fn is_identity(&self) -> bool {
        self.options.iter().enumerate().all(|(i, &o)| i as u32 == o)
            && self.items.iter().enumerate().all(|(i, &o)| i as u32 == o)
    }

    /// The image of a solution, as a sorted option list.
    pub fn apply_sorted(&self, solution: &[u32], out: &mut Vec<u32>) {
        out.clear();
        out.extend(solution.iter().map(|&o| self.options[o as usize]));
        out.sort_unstable();
    }
}

/// A group of symmetries of one matrix, identity first.
#[derive(Clone, Debug)]
pub struct Group {
    elements: Vec<Symmetry>,
}

impl Group {
    /// The group with only the identity of `matrix`: no symmetry is used, every
    /// solution counts.
    pub fn trivial(matrix: &Matrix) -> Group {
        Group {
            elements: vec![Symmetry::identity(matrix)],
        }
    }

    /// Builds a group from its elements; the identity must be first. Closure under
    /// composition is not checked; [`Group::validate`] checks each element.
    ///
    /// # Panics
    ///
    /// If `elements` is empty or its first element is not the identity.
    pub fn new(elements: Vec<Symmetry>) -> Group {
        assert!(
            !elements.is_empty() && elements[0].is_identity(),
            "identity must come first"
        );
        Group { elements }
    }

    /// The group's elements, the identity first; engines and checks refer to a symmetry
    /// by its index here.
    pub fn elements(&self) -> &[Symmetry] {
        &self.elements
    }

    /// The number of elements, |G|; 1 for the trivial group.
    pub fn order(&self) -> usize {
        self.elements.len()
    }

    /// Checks that every element is a permutation that respects the matrix. Puzzle kinds
    /// call this in debug builds; tests call it always.
    ///
    /// # Errors
    ///
    /// A message naming the first element that is not a permutation of the items and
    /// options, maps some option `o` to an option whose items are not the images of the
    /// items of `o`, or maps an item to one with a different `min`/`max`.
    pub fn validate(&self, matrix: &Matrix) -> Result<(), String> {
        for g in &self.elements {
            if !is_permutation(&g.items, matrix.num_items())
                || !is_permutation(&g.options, matrix.num_options())
            {
                return Err(format!("{} is not a permutation", g.name));
            }
            for o in 0..matrix.num_options() as u32 {
                let mut image: Vec<u32> = matrix
                    .option_items(o)
                    .iter()
                    .map(|&i| g.items[i as usize])
                    .collect();
                image.sort_unstable();
                if image != matrix.option_items(g.options[o as usize]) {
                    return Err(format!("{} does not map option {o} consistently", g.name));
                }
            }
            for i in 0..matrix.num_items() {
                let j = g.items[i] as usize;
                let (a, b) = (&matrix.items()[i], &matrix.items()[j]);
                if (a.min, a.max) != (b.min, b.max) {
                    return Err(format!(
                        "{} maps item {} to {}, which is covered a different number of times",
                        g.name, a.name, b.name
                    ));
                }
            }
        }
        Ok(())
    }
}

fn is_permutation(p: &[u32], n: usize) -> bool {
    if p.len() != n {
        return false;
    }
    let mut seen = vec![false; n];
    for &x in p {
        if x as usize >= n || seen[x as usize] {
            return false;
        }
        seen[x as usize] = true;
    }
    true
}

/// The matrix an engine should search, and the check its solutions must pass, so that
/// each orbit of solutions is reported exactly once. See the module docs for the argument.
#[derive(Clone, Debug)]
pub struct Reduction {
    /// The options kept, as indices into the original matrix, in increasing order.
    kept: Vec<u32>,
    /// The reduced matrix: option `k` of it is option `kept[k]` of the original.
    matrix: Matrix,
    /// The pinned item, if one was found.
    pinned: Option<u32>,
    /// For each original option, the symmetries a solution using it must be checked
    /// against (indices into the group). Empty for most options.
    checks: Vec<Vec<u32>>,
    /// When nothing could be pinned: check every solution against the whole group.
    check_all: bool,
    group: Group,
}

impl Reduction {
    /// No symmetry: every solution counts.
    pub fn none(matrix: &Matrix) -> Reduction {
        Reduction::new(matrix, Group::trivial(matrix))
    }

    /// Computes the reduction of `matrix` under `group`: picks the pinned item (a unit
    /// item every symmetry fixes, with the fewest orbits per option covering it), keeps one
    /// representative option of each orbit on it, and records each representative's
    /// stabiliser for the canonical-form check. With the trivial group the matrix is kept
    /// whole and nothing is checked.
    ///
    /// `group` must be a group of symmetries of `matrix` (see [`Group::validate`]).
    pub fn new(matrix: &Matrix, group: Group) -> Reduction {
        let n = matrix.num_options();
        let mut checks = vec![Vec::new(); n];
        if group.order() == 1 {
            return Reduction {
                kept: (0..n as u32).collect(),
                matrix: matrix.clone(),
                pinned: None,
                checks,
                check_all: false,
                group,
            };
        }
        let columns = matrix.columns();
        let candidate = (0..matrix.num_items() as u32)
            .filter(|&i| matrix.is_unit(i))
            .filter(|&i| group.elements().iter().all(|g| g.items[i as usize] == i))
            .filter(|&i| !columns[i as usize].is_empty())
            .map(|i| (i, orbits(&columns[i as usize], &group)))
            // Fewest representatives per option searched; then the smallest column,
            // which makes the root of the search narrowest.
            .min_by(|(a, oa), (b, ob)| {
                let fa = oa.len() as f64 / columns[*a as usize].len() as f64;
                let fb = ob.len() as f64 / columns[*b as usize].len() as f64;
                fa.partial_cmp(&fb)
                    .unwrap()
                    .then(columns[*a as usize].len().cmp(&columns[*b as usize].len()))
                    .then(a.cmp(b))
            });
        let Some((pinned, reps)) = candidate else {
            return Reduction {
                kept: (0..n as u32).collect(),
                matrix: matrix.clone(),
                pinned: None,
                checks,
                check_all: true,
                group,
            };
        };
        let mut removed = vec![false; n];
        for &o in &columns[pinned as usize] {
            removed[o as usize] = true;
        }
        for &r in &reps {
            removed[r as usize] = false;
            checks[r as usize] = group
                .elements()
                .iter()
                .enumerate()
                .skip(1)
                .filter(|(_, g)| g.options[r as usize] == r)
                .map(|(k, _)| k as u32)
                .collect();
        }
        let kept: Vec<u32> = (0..n as u32).filter(|&o| !removed[o as usize]).collect();
        Reduction {
            matrix: matrix.restricted(&kept),
            kept,
            pinned: Some(pinned),
            checks,
            check_all: false,
            group,
        }
    }

    /// The matrix engines search.
    pub fn matrix(&self) -> &Matrix {
        &self.matrix
    }

    /// Maps an option of the reduced matrix back to the original matrix.
    pub fn original(&self, reduced_option: u32) -> u32 {
        self.kept[reduced_option as usize]
    }

    /// The options of the original matrix that the reduced matrix keeps.
    pub fn kept(&self) -> &[u32] {
        &self.kept
    }

    /// For each option of the original matrix, whether the reduced matrix keeps it.
    pub fn kept_mask(&self) -> Vec<bool> {
        let mut mask = vec![false; self.checks.len()];
        for &o in &self.kept {
            mask[o as usize] = true;
        }
        mask
    }

    /// The item whose options were cut down to one per orbit, or `None` when the group
    /// is trivial or no unit item is fixed by every symmetry.
    pub fn pinned_item(&self) -> Option<u32> {
        self.pinned
    }

    /// The symmetry group the reduction was computed from.
    pub fn group(&self) -> &Group {
        &self.group
    }

    /// Whether the check is empty for every solution, so engines may skip it.
    pub fn needs_check(&self) -> bool {
        self.check_all || self.checks.iter().any(|c| !c.is_empty())
    }

    /// The canonical-form check as constraints on a solution's 0/1 vector `x` (one entry
    /// per original option), for engines that cannot run [`Reduction::is_canonical`]
    /// after the search: the CNF compiler and the linear exports. Empty when the
    /// reduction needs no check.
    ///
    /// Each element `h` of a representative's stabiliser (or of the whole group, when
    /// nothing was pinned) gives one [`LexLeader`]. The vector of `h(S)` is
    /// `h(x)_j = x[h^-1(j)]`; for two solutions of the same size, the sorted option list
    /// of `S` is the smaller exactly when `x` has the 1 at the first position where the
    /// vectors differ. So "`S` is no greater than `h(S)`" reads `h(x) <=lex x` with
    /// `0 < 1`, and these constraints keep exactly the solutions `is_canonical` keeps.
    /// Positions that `h` fixes compare equal and are left out.
    pub(crate) fn lex_leaders(&self) -> Vec<LexLeader> {
        let n = self.checks.len();
        let leader = |k: u32, condition: Option<u32>| {
            let g = &self.group.elements()[k as usize];
            let mut inverse = vec![0u32; n];
            for (o, &image) in g.options.iter().enumerate() {
                inverse[image as usize] = o as u32;
            }
            let (lesser, greater) = (0..n as u32)
                .filter(|&j| inverse[j as usize] != j)
                .map(|j| (inverse[j as usize], j))
                .unzip();
            LexLeader {
                condition,
                lesser,
                greater,
                symmetry: k,
            }
        };
        let mut out: Vec<LexLeader> = (0..n as u32)
            .flat_map(|r| self.checks[r as usize].iter().map(move |&k| (k, Some(r))))
            .map(|(k, r)| leader(k, r))
            .collect();
        if self.check_all {
            out.extend((1..self.group.order() as u32).map(|k| leader(k, None)));
        }
        out
    }

    /// Whether a solution (original option indices, any order) is the one member of its
    /// orbit to report.
    pub fn is_canonical(&self, solution: &[u32]) -> bool {
        let mut sorted = solution.to_vec();
        sorted.sort_unstable();
        let mut image = Vec::with_capacity(sorted.len());
        let mut against = |k: usize| {
            self.group.elements()[k].apply_sorted(&sorted, &mut image);
            image >= sorted
        };
        if self.check_all {
            return (1..self.group.order()).all(&mut against);
        }
        sorted
            .iter()
            .flat_map(|&o| self.checks[o as usize].iter())
            .all(|&k| against(k as usize))
    }
}

/// One canonical-form check as a lexicographic constraint on a solution's 0/1 vector `x`
/// over the original options: when `condition` is `None` or option `condition` is in the
/// solution, the sequence `x[lesser[0]], x[lesser[1]], ...` is lexicographically no
/// greater than `x[greater[0]], x[greater[1]], ...`, with `0 < 1`.
/// See [`Reduction::lex_leaders`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LexLeader {
    /// The representative option whose presence switches the constraint on, or `None`
    /// when it always holds (nothing was pinned).
    pub condition: Option<u32>,
    /// The original options read for `h(x)`: `lesser[j]` is `h^-1(greater[j])`.
    pub lesser: Vec<u32>,
    /// The original options read for `x`, in increasing order; only those `h` moves.
    pub greater: Vec<u32>,
    /// The group element behind it (an index into [`Group::elements`]).
    pub symmetry: u32,
}

/// One representative (the least index) of each orbit of `options` under `group`.
/// `options` must be closed under the group.
fn orbits(options: &[u32], group: &Group) -> Vec<u32> {
    let mut reps = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for &o in options {
        if seen.contains(&o) {
            continue;
        }
        reps.push(o);
        for g in group.elements() {
            seen.insert(g.options[o as usize]);
        }
    }
    reps
}
