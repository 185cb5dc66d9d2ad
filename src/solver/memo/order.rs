//! Which item the memo's search branches on: the fewest options (MRV), or the first
//! uncovered item of a fixed order that keeps the frontier thin (a *sweep*).
//!
//! # Why a sweep
//!
//! The table pays when subproblems recur, and a subproblem is its set of uncovered items.
//! MRV branches on the item with the fewest options wherever it is, so in three
//! dimensions the uncovered region becomes ragged and the number of distinct regions
//! grows with its whole surface. Branching on the first uncovered item of an order in
//! which each item's options reach only a little way ahead keeps every region a prefix
//! covered, a suffix free and a thin frontier between them: the table holds about
//! 2^(frontier) keys per step, as a broken-profile DP does (DXZ and Knuth's `dlx6` branch
//! this way). Measured on one thread (CPU seconds, old binary beside the new one): 4x4x6
//! dominoes, no count in 30 s by MRV, 0.17 s by the sweep (4x4x12: 1.3 s); L-trominoes
//! 3x3x12, none in 30 s against 0.27 s; and the 2-D domino boxes gain too (16x16: 2.53 s
//! against 0.42 s, 12x12: 0.06 s against 0.01 s).
//!
//! # The order
//!
//! Found from the matrix alone (it also serves Burnside's quotients, which have no
//! geometry): two unit items are neighbours when an option covers both. The order is a
//! breadth-first search (Cuthill–McKee: neighbours in order of increasing degree) from a
//! pseudo-peripheral item (George and Liu: start anywhere, restart from the farthest item
//! of least degree while that lengthens the search). On a box of cells that is a sweep
//! from a corner to the farthest corner, its layers the diagonal cross-sections.
//!
//! # The rule
//!
//! The sweep when every option covers an item with copies (or a count range), that is
//! when the unit items are the cells and every piece has copies, as in the boxes of
//! dominoes or trominoes: there identical pieces make the same regions recur. Elsewhere
//! (a distinct piece is a unit item covered by hundreds of options, which the sweep
//! would put first) MRV, whose pruning the exact-cover puzzles of distinct pieces need.
//!
//! Invariant: the sweep ([`cuthill_mckee`], applied by [`renumber`]) only renumbers
//! items (an option keeps its number and its items, listed in increasing order), so
//! counts, option numbers and unranking are unchanged; the sweep's choice is the first
//! item on the header list, which is the first uncovered unit item in the order.

use std::collections::VecDeque;

use crate::solver::backtrack::Branch;
use crate::solver::links::{Hook, Links};

/// How the search picks the item to branch on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Branching {
    /// The unit item with the fewest live options.
    Fewest,
    /// The first uncovered unit item in item order (items renumbered by [`cuthill_mckee`]).
    Sweep,
}

/// Which sweep a count by layers (the `frontier` engine) takes: its states are the
/// patterns of a frontier, so the narrower the sweep's widest frontier, the fewer states.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Sweep {
    /// The narrowest of the orders tried ([`crate::solver::memo::Input`]'s `listed`): the
    /// cells as listed, each raster of a box's axes, and Cuthill-McKee with its ties
    /// broken by each.
    #[default]
    Narrowest,
    /// The memo's own sweep, Cuthill-McKee from a far corner ([`cuthill_mckee`]): a box's
    /// diagonal cross-sections, wider than a raster's where the sides differ.
    CuthillMckee,
}

impl Sweep {
    /// Every sweep, in the order a help text lists them.
    pub const ALL: [Sweep; 2] = [Sweep::Narrowest, Sweep::CuthillMckee];

    /// The sweep's name, as the `sweep` setting takes it.
    pub fn name(self) -> &'static str {
        match self {
            Sweep::Narrowest => "narrowest",
            Sweep::CuthillMckee => "cuthill-mckee",
        }
    }

    /// One line of help.
    pub fn help(self) -> &'static str {
        match self {
            Sweep::Narrowest => {
                "the narrowest of the cells as listed, each raster of a box's axes and                  Cuthill-McKee"
            }
            Sweep::CuthillMckee => {
                "Cuthill-McKee from a far corner (the memo's own sweep): a box's diagonal                  cross-sections"
            }
        }
    }
}

/// The rule (module docs): the sweep when every option covers an item that is not a unit
/// item, and there are unit items to sweep.
pub fn rule(items: &[(u32, u32)], options: &[Vec<(u32, u32)>]) -> Branching {
    let unit = |i: u32| items[i as usize] == (1, 1);
    let cells = items.contains(&(1, 1));
    let copies = options.iter().all(|o| o.iter().any(|&(i, _)| !unit(i)));
    if cells && copies {
        Branching::Sweep
    } else {
        Branching::Fewest
    }
}

/// Why [`rule`] chose as it did, for the `c solver` line.
pub fn reason(branching: Branching) -> &'static str {
    match branching {
        Branching::Fewest => {
            "branching on the item with the fewest options (some piece has no copies)"
        }
        Branching::Sweep => {
            "branching on the first uncovered cell of a sweep from a corner (every piece \
             has copies, so regions recur)"
        }
    }
}

/// The unit items in the order of the graph's Fiedler vector (ties in the order they are
/// listed), then the others in theirs.
///
/// # Why
///
/// On a box, the eigenvector of the second smallest eigenvalue of the cells' graph
/// Laplacian (two cells joined when an option covers both) is, for the box's longest
/// side, a cosine of that coordinate alone: the cells of one cross-section share its
/// value. Sorted by it (and within a cross-section by the listed order, a raster), the
/// cells are swept a cross-section at a time along the longest side, whichever way the
/// box was written: the layers' narrowest order where the sides differ (L-trominoes
/// 3x3x6: a window of 10 cells, where the diagonal sweep from a corner needs 17). Found
/// by power iteration on `2·degree·I − L` with the constant vector projected out.
pub fn spectral(items: &[(u32, u32)], graph: &Graph) -> Vec<u32> {
    let n = items.len();
    let units: Vec<u32> = (0..n as u32)
        .filter(|&i| items[i as usize] == (1, 1))
        .collect();
    let index: std::collections::HashMap<u32, usize> =
        units.iter().enumerate().map(|(k, &i)| (i, k)).collect();
    let neighbours: Vec<Vec<usize>> = units
        .iter()
        .map(|&i| {
            graph.neighbours[i as usize]
                .iter()
                .map(|j| index[j])
                .collect()
        })
        .collect();
    let m = units.len();
    let top = 2.0 * neighbours.iter().map(Vec::len).max().unwrap_or(0) as f64 + 1.0;
    // A start with no symmetry of its own: the position, bent.
    let mut v: Vec<f64> = (0..m).map(|k| (k as f64 + 0.5).sqrt()).collect();
    for _ in 0..2000 {
        let mean = v.iter().sum::<f64>() / m.max(1) as f64;
        v.iter_mut().for_each(|x| *x -= mean);
        let mut w: Vec<f64> = (0..m)
            .map(|a| {
                let degree = neighbours[a].len() as f64;
                let around: f64 = neighbours[a].iter().map(|&b| v[b]).sum();
                (top - degree) * v[a] + around
            })
            .collect();
        let norm = w.iter().map(|x| x * x).sum::<f64>().sqrt();
        if norm == 0.0 {
            break;
        }
        w.iter_mut().for_each(|x| *x /= norm);
        v = w;
    }
    let (lo, hi) = v
        .iter()
        .fold((f64::MAX, f64::MIN), |(lo, hi), &x| (lo.min(x), hi.max(x)));
    // One cross-section's cells share a value up to rounding: a millionth of the range.
    let step = ((hi - lo) * 1e-6).max(f64::MIN_POSITIVE);
    let mut cells: Vec<usize> = (0..m).collect();
    cells.sort_by_key(|&k| (((v[k] - lo) / step).round() as i64, k));
    then_the_rest(items, cells.iter().map(|&k| units[k]))
}

/// The unit items in the raster of their cells from a `corner` of the box (`corner[a]`:
/// from the far end of axis `a`) along `axes` (the slowest first, the fastest last:
/// `[2, 1, 0]` from the corner `[false; 3]` is the raster with `x` fastest), then the
/// other items in their order. `cells[i]` is unit item `i`'s cell.
///
/// The layers try each raster as it is, and each as the ties of [`cuthill_mckee`]: a box
/// then costs the same however it is written, where the search's own order follows the
/// listing (6x6x4 dominoes stepped 28.0 million states by it, 4x6x6 19.5 million). Of a
/// box's sweeps the diagonal ones are the narrowest: 4x6x6 dominoes by rasters step 242
/// million states.
pub fn raster(
    items: &[(u32, u32)],
    cells: &[[i32; 3]],
    corner: [bool; 3],
    axes: [usize; 3],
) -> Vec<u32> {
    let n = items.len() as u32;
    let mut units: Vec<u32> = (0..n).filter(|&i| items[i as usize] == (1, 1)).collect();
    units.sort_by_key(|&i| {
        let c = cells[i as usize];
        axes.map(|a| if corner[a] { -c[a] } else { c[a] })
    });
    then_the_rest(items, units)
}

/// The unit items in the order they are listed, then the others in theirs: the order the
/// layers may take instead of the sweep's (`profile`).
pub fn units_first(items: &[(u32, u32)]) -> Vec<u32> {
    let n = items.len() as u32;
    then_the_rest(items, (0..n).filter(|&i| items[i as usize] == (1, 1)))
}

/// An order of all the items: `units` (the unit items, in an order), then the other
/// items in theirs.
pub fn then_the_rest(items: &[(u32, u32)], units: impl IntoIterator<Item = u32>) -> Vec<u32> {
    let n = items.len() as u32;
    units
        .into_iter()
        .chain((0..n).filter(|&i| items[i as usize] != (1, 1)))
        .collect()
}

/// The unit items' graph: two are neighbours when an option covers both.
pub struct Graph {
    unit: Vec<bool>,
    /// Each item's neighbours, in increasing order (none for an item not a unit item).
    neighbours: Vec<Vec<u32>>,
}

impl Graph {
    pub fn of(items: &[(u32, u32)], options: &[Vec<(u32, u32)>]) -> Graph {
        let n = items.len();
        let unit: Vec<bool> = items.iter().map(|&b| b == (1, 1)).collect();
        let mut neighbours: Vec<Vec<u32>> = vec![Vec::new(); n];
        for o in options {
            for &(i, _) in o.iter().filter(|e| unit[e.0 as usize]) {
                for &(j, _) in o.iter().filter(|e| unit[e.0 as usize] && e.0 != i) {
                    neighbours[i as usize].push(j);
                }
            }
        }
        for list in &mut neighbours {
            list.sort_unstable();
            list.dedup();
        }
        Graph { unit, neighbours }
    }

    /// The same graph with item `order[k]` numbered `k`.
    fn renumbered(&self, order: &[u32]) -> Graph {
        let mut new_of = vec![0u32; order.len()];
        for (new, &old) in order.iter().enumerate() {
            new_of[old as usize] = new as u32;
        }
        let neighbours = order
            .iter()
            .map(|&old| {
                let mut list: Vec<u32> = self.neighbours[old as usize]
                    .iter()
                    .map(|&j| new_of[j as usize])
                    .collect();
                list.sort_unstable();
                list
            })
            .collect();
        let unit = order.iter().map(|&old| self.unit[old as usize]).collect();
        Graph { unit, neighbours }
    }
}

/// The sweep's order of the items (module docs): each connected part of the unit items
/// in turn, breadth first from a pseudo-peripheral item of it, neighbours in order of
/// increasing degree and ties by item number; then the other items in their order.
pub fn cuthill_mckee(graph: &Graph) -> Vec<u32> {
    let (unit, neighbours) = (&graph.unit, &graph.neighbours);
    let n = unit.len();
    let mut order: Vec<u32> = Vec::with_capacity(n);
    let mut placed = vec![false; n];
    for start in 0..n as u32 {
        if !unit[start as usize] || placed[start as usize] {
            continue;
        }
        let mut root = start;
        let mut depth = 0;
        loop {
            let (levels, far) = bfs(neighbours, root, &placed);
            if levels <= depth {
                break;
            }
            depth = levels;
            root = far;
        }
        let from = order.len();
        order.push(root);
        placed[root as usize] = true;
        let mut k = from;
        while k < order.len() {
            let mut next: Vec<u32> = neighbours[order[k] as usize]
                .iter()
                .copied()
                .filter(|&j| !placed[j as usize])
                .collect();
            next.sort_by_key(|&j| (neighbours[j as usize].len(), j));
            for j in next {
                placed[j as usize] = true;
                order.push(j);
            }
            k += 1;
        }
    }
    order.extend((0..n as u32).filter(|&i| !unit[i as usize]));
    order
}

/// [`cuthill_mckee`] with its ties broken by the position of the items in `rank` (an
/// order of all the items) instead of by their numbers.
pub fn cuthill_mckee_by(graph: &Graph, rank: &[u32]) -> Vec<u32> {
    cuthill_mckee(&graph.renumbered(rank))
        .into_iter()
        .map(|k| rank[k as usize])
        .collect()
}

/// Gives item `order[k]` the number `k`, in the items and in every option (whose
/// entries are then sorted).
pub fn renumber(items: &mut Vec<(u32, u32)>, options: &mut [Vec<(u32, u32)>], order: &[u32]) {
    let mut new_of = vec![0u32; items.len()];
    for (new, &old) in order.iter().enumerate() {
        new_of[old as usize] = new as u32;
    }
    *items = order.iter().map(|&old| items[old as usize]).collect();
    for o in options.iter_mut() {
        for e in o.iter_mut() {
            e.0 = new_of[e.0 as usize];
        }
        o.sort_unstable();
    }
}

/// How far an option reaches along the sweep (items numbered by [`cuthill_mckee`], the unit
/// items first): the most, over the options, of its last unit item less its first. An
/// option taken while its first unit item is the first uncovered one covers nothing
/// past that item plus the reach: the frontier key's window (`frontier`).
pub fn reach(items: &[(u32, u32)], options: &[Vec<(u32, u32)>]) -> u32 {
    let unit = |i: u32| items[i as usize] == (1, 1);
    options
        .iter()
        .filter_map(|o| {
            let mut units = o.iter().map(|e| e.0).filter(|&i| unit(i));
            let first = units.next()?;
            Some(units.next_back().unwrap_or(first) - first)
        })
        .max()
        .unwrap_or(0)
}

/// The widest frontier of the sweep (items numbered by [`cuthill_mckee`]): the most, over
/// the positions `p` of the first uncovered cell, of the cells after `p` that an option
/// whose first cell comes before `p` covers. Only those may be covered when the sweep
/// stands at `p` (every option taken began at an earlier first uncovered cell), so at
/// most 2 to that many patterns of covered cells are ever met there: what a profile DP
/// along this order keeps per step, and the measure of the memo's table
/// (`engine/memo.rs`).
pub fn widest(items: &[(u32, u32)], options: &[Vec<(u32, u32)>]) -> u32 {
    breadth(items, options).0
}

/// The [`widest`] frontier of the sweep, and the sum of the frontier's width over every
/// position: of two orders equally wide at their widest, the one narrower elsewhere
/// steps fewer states.
pub fn breadth(items: &[(u32, u32)], options: &[Vec<(u32, u32)>]) -> (u32, u64) {
    let order: Vec<u32> = (0..items.len() as u32).collect();
    breadth_of(items, options, &order)
}

/// The [`breadth`] of the items renumbered by `order` (item `order[k]` numbered `k`),
/// without renumbering them.
pub fn breadth_of(items: &[(u32, u32)], options: &[Vec<(u32, u32)>], order: &[u32]) -> (u32, u64) {
    let mut new_of = vec![0usize; order.len()];
    for (new, &old) in order.iter().enumerate() {
        new_of[old as usize] = new;
    }
    let units = order
        .iter()
        .take_while(|&&i| items[i as usize] == (1, 1))
        .count();
    // lowest[u]: the first cell of the options that cover cell u (u itself at most).
    let mut lowest: Vec<usize> = (0..units).collect();
    for o in options {
        let cells = o
            .iter()
            .map(|e| new_of[e.0 as usize])
            .filter(|&i| i < units);
        let Some(first) = cells.clone().min() else {
            continue;
        };
        for u in cells {
            lowest[u] = lowest[u].min(first);
        }
    }
    // Cell u is in the frontier of the positions strictly between lowest[u] and u.
    let mut change = vec![0i64; units + 1];
    for (u, &low) in lowest.iter().enumerate() {
        if low + 1 < u {
            change[low + 1] += 1;
            change[u] -= 1;
        }
    }
    let mut width = 0i64;
    let mut most = 0i64;
    let mut sum = 0i64;
    for c in change {
        width += c;
        most = most.max(width);
        sum += width;
    }
    (most as u32, sum as u64)
}

/// A breadth-first search from `root` over the items not `placed`: its number of levels,
/// and an item of its last level with the fewest neighbours.
fn bfs(neighbours: &[Vec<u32>], root: u32, placed: &[bool]) -> (usize, u32) {
    let mut level = vec![usize::MAX; neighbours.len()];
    level[root as usize] = 0;
    let mut queue = VecDeque::from([root]);
    let mut last = (0, root);
    while let Some(i) = queue.pop_front() {
        let l = level[i as usize];
        let better = l > last.0
            || (l == last.0 && neighbours[i as usize].len() < neighbours[last.1 as usize].len());
        if better {
            last = (l, i);
        }
        for &j in &neighbours[i as usize] {
            if level[j as usize] == usize::MAX && !placed[j as usize] {
                level[j as usize] = l + 1;
                queue.push_back(j);
            }
        }
    }
    (last.0 + 1, last.1)
}

/// The sweep's choice: the first uncovered unit item (the first on the header list), or
/// what MRV says where that item has no option left or none is uncovered (a dead end, a
/// solution).
#[inline]
pub(super) fn first<H: Hook>(links: &Links<H>) -> Branch<u32> {
    let h = links.right[0];
    if h == 0 || links.len(h) == 0 {
        return links.choose();
    }
    // As MRV does: a piece that needs more copies than it has options left is a dead end.
    if !links.hook.weighted() && links.bounded.iter().any(|&b| links.len(b) < links.need(b)) {
        return Branch::Dead;
    }
    Branch::On(h)
}
