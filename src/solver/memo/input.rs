//! What the memo counts: items with bounds, and options that cover items, each some number
//! of times (its *weight*).
//!
//! An exact-cover [`Matrix`] is the case where every weight is 1. Weights above 1 come
//! from Burnside's quotients ([`crate::burnside::Quotient`]): an orbit of placements under
//! a symmetry uses several copies of a piece at once.
//!
//! Invariants: an option lists distinct items in increasing order, each with a weight of
//! at least 1; an item with `max == 1` has weight 1 wherever it appears; `min <= max`.

use super::order::{self, Branching, Sweep};
use crate::burnside::Quotient;
use crate::matrix::Matrix;

/// Items with bounds, and options as (item, weight) lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    /// Each item's bounds: how often, in all, a solution covers it.
    pub(super) items: Vec<(u32, u32)>,
    pub(super) options: Vec<Vec<(u32, u32)>>,
    /// How the search picks the item to branch on; with [`Branching::Sweep`] the items
    /// are numbered in the sweep's order ([`order::cuthill_mckee`]).
    pub(super) branching: Branching,
    /// Under a sweep, the reach of its options ([`order::reach`]): the search keys its
    /// table on the frontier where that is shorter (`frontier`). `None`: on every item.
    pub(super) frontier: Option<u32>,
    /// Under a sweep, the same input with the cells in another order, where it is
    /// narrower ([`order::breadth`]: the widest frontier, then the summed width) than the
    /// sweep's: the order the layers take (`profile`). The narrowest of the cells as the
    /// matrix lists them and, where the cells' coordinates are known, of the six rasters
    /// of their axes ([`order::raster`]) and the sweep with its ties broken by each
    /// ([`order::cuthill_mckee_by`]), else of the graph's Fiedler order
    /// ([`order::spectral`]). The rasters sweep a box a cross-section at a time, where a
    /// diagonal sweep from a corner can be wider (L-trominoes 3x3x6: 925 states at most,
    /// against 93,180); the ties make a box cost the same however it is written. Any
    /// order of the cells counts alike; only the work differs.
    pub(super) listed: Option<Box<Input>>,
}

impl Input {
    pub(super) fn num_items(&self) -> usize {
        self.items.len()
    }

    pub(super) fn num_entries(&self) -> usize {
        self.options.iter().map(Vec::len).sum()
    }

    /// Every item is covered an exact number of times.
    pub(super) fn is_exact(&self) -> bool {
        self.items.iter().all(|&(min, max)| min == max)
    }

    /// Some option covers an item more than once.
    pub(super) fn is_weighted(&self) -> bool {
        self.options.iter().flatten().any(|&(_, w)| w > 1)
    }
}

impl Input {
    /// The input of these items and options, its branching chosen by [`order::rule`]
    /// (and its items renumbered for a sweep).
    pub(super) fn new(items: Vec<(u32, u32)>, options: Vec<Vec<(u32, u32)>>) -> Input {
        Input::placed(items, options, None)
    }

    /// [`Input::new`], with the coordinates of the unit items' cells where they are known
    /// (`cells[i]` for item `i`): the layers may then sweep a box along its axes.
    pub(super) fn placed(
        mut items: Vec<(u32, u32)>,
        mut options: Vec<Vec<(u32, u32)>>,
        cells: Option<&[[i32; 3]]>,
    ) -> Input {
        let branching = order::rule(&items, &options);
        let mut frontier = None;
        let mut listed = None;
        if branching == Branching::Sweep {
            let (sweep, other) = sweeps(&items, &options, cells);
            if let Some(other) = other {
                let layers = Input::swept(items.clone(), options.clone(), &other);
                listed = Some(Box::new(layers));
            }
            order::renumber(&mut items, &mut options, &sweep);
            frontier = Some(order::reach(&items, &options));
        }
        Input {
            items,
            options,
            branching,
            frontier,
            listed,
        }
    }

    /// This input in `sweep`, which the layers take: for the narrowest, the narrower one
    /// [`Input::listed`] keeps where it does, else this one; `None` when it is not a sweep.
    pub(super) fn layered(&self, sweep: Sweep) -> Option<&Input> {
        (self.branching == Branching::Sweep).then(|| match sweep {
            Sweep::Narrowest => self.listed.as_deref().unwrap_or(self),
            Sweep::CuthillMckee => self,
        })
    }

    /// The sweep of these items and options in `order` (item `order[k]` numbered `k`,
    /// the unit items first), with no other order kept.
    pub(super) fn swept(
        mut items: Vec<(u32, u32)>,
        mut options: Vec<Vec<(u32, u32)>>,
        order: &[u32],
    ) -> Input {
        order::renumber(&mut items, &mut options, order);
        Input {
            frontier: Some(order::reach(&items, &options)),
            items,
            options,
            branching: Branching::Sweep,
            listed: None,
        }
    }

    /// This input, keyed on every item if some prefix (options to be pushed before a
    /// count, from a split that need not be the sweep's) would break the frontier key's
    /// condition: a cell covered at or past the first uncovered one plus the reach (see
    /// `frontier`).
    pub(super) fn for_prefixes(mut self, prefixes: &[Vec<u32>]) -> Input {
        let Some(reach) = self.frontier else {
            return self;
        };
        let units = self.items.iter().take_while(|&&b| b == (1, 1)).count();
        let mut covered = vec![false; units];
        let fits = |prefix: &Vec<u32>, covered: &mut Vec<bool>| {
            covered.fill(false);
            let cells = prefix
                .iter()
                .flat_map(|&o| &self.options[o as usize])
                .map(|e| e.0 as usize)
                .filter(|&i| i < units);
            let mut top = None;
            for i in cells {
                covered[i] = true;
                top = top.max(Some(i));
            }
            let first = covered.iter().position(|&c| !c);
            match (first, top) {
                (Some(h), Some(top)) => top < h + reach as usize,
                _ => true,
            }
        };
        if !prefixes.iter().all(|p| fits(p, &mut covered)) {
            self.frontier = None;
        }
        self
    }

    /// How the search branches, and why, for the `c solver` line.
    pub fn branching(&self) -> (Branching, &'static str) {
        (self.branching, order::reason(self.branching))
    }
}

/// The size of a sweep's table at its widest step: at the position of the first uncovered
/// cell where the most cells after it may be covered (by options begun before it:
/// [`order::widest`]), every pattern of those cells may be a subproblem of its own. That
/// one step may then hold `2^cells` keys; the whole table holds those of every step.
/// An estimate, not a bound: not every pattern is met (a 16x16 box of dominoes, 17
/// cells, needs 357,000 entries in all), but where one step's patterns alone pass the
/// budget the table forgets and recounts without end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableEstimate {
    /// Cells of the widest frontier.
    pub cells: u32,
    /// `2^cells` (saturating).
    pub keys: u64,
    /// Bytes of one table entry.
    pub entry_bytes: u64,
    /// `keys × entry_bytes` (saturating).
    pub bytes: u64,
}

impl From<&Matrix> for Input {
    fn from(matrix: &Matrix) -> Input {
        let (items, options) = parts(matrix);
        Input::placed(items, options, cells(matrix).as_deref())
    }
}

/// Each way of naming a box's axes, so that a choice of order does not depend on how the
/// box is written (a turned box is offered the same orders).
const AXES: [[usize; 3]; 6] = [
    [2, 1, 0],
    [2, 0, 1],
    [1, 2, 0],
    [1, 0, 2],
    [0, 2, 1],
    [0, 1, 2],
];

/// The sweeps of a sweep's items and options: the memo's (Cuthill-McKee), and the
/// narrower one the layers take instead where one of the others beats it (the unit items
/// first, then each raster of the cells' axes and its Cuthill-McKee, or a spectral order
/// without coordinates; the first of the narrowest).
fn sweeps(
    items: &[(u32, u32)],
    options: &[Vec<(u32, u32)>],
    cells: Option<&[[i32; 3]]>,
) -> (Vec<u32>, Option<Vec<u32>>) {
    let graph = order::Graph::of(items, options);
    let mut others = vec![order::units_first(items)];
    match cells {
        Some(cells) => {
            for axes in AXES {
                let raster = order::raster(items, cells, [false; 3], axes);
                others.push(order::cuthill_mckee_by(&graph, &raster));
                others.push(raster);
            }
        }
        None => others.push(order::spectral(items, &graph)),
    }
    let sweep = order::cuthill_mckee(&graph);
    let breadth = order::breadth_of(items, options, &sweep);
    let best = others
        .into_iter()
        .map(|o| (order::breadth_of(items, options, &o), o))
        .min_by_key(|(b, _)| *b);
    let other = best.filter(|(b, _)| *b < breadth).map(|(_, o)| o);
    (sweep, other)
}

/// The order in which the frontier's layers sweep `matrix`'s items (item `order[k]`
/// at step `k`), where its branching is a sweep.
pub(crate) fn layer_order(matrix: &Matrix) -> Option<Vec<u32>> {
    let (items, options) = parts(matrix);
    if order::rule(&items, &options) != Branching::Sweep {
        return None;
    }
    let cells = cells(matrix);
    let (sweep, other) = sweeps(&items, &options, cells.as_deref());
    Some(other.unwrap_or(sweep))
}

/// Items by their bounds, and options as (item, weight) lists: what [`Input::new`] takes.
type Parts = (Vec<(u32, u32)>, Vec<Vec<(u32, u32)>>);

/// An order for a certificate's layers where the memo does not sweep (pieces without
/// copies): the cells by the raster of the narrowest sweep, then every other item (the
/// pieces, whose use the layers' states then hold). `None` without cells named `x,y,z`.
pub(crate) fn cells_first_order(matrix: &Matrix) -> Option<Vec<u32>> {
    let (items, options) = parts(matrix);
    let named: Vec<Option<[i32; 3]>> = matrix
        .items()
        .iter()
        .map(|item| coordinates(&item.name))
        .collect();
    if named.iter().all(Option::is_none) {
        return None;
    }
    AXES.iter()
        .map(|axes| {
            let mut cells: Vec<u32> = (0..items.len() as u32)
                .filter(|&i| named[i as usize].is_some())
                .collect();
            cells.sort_by_key(|&i| {
                let c = named[i as usize].expect("a cell");
                axes.map(|a| c[a])
            });
            let rest = (0..items.len() as u32).filter(|&i| named[i as usize].is_none());
            let order: Vec<u32> = cells.into_iter().chain(rest).collect();
            (order::breadth_of(&items, &options, &order), order)
        })
        .min_by_key(|(b, _)| *b)
        .map(|(_, order)| order)
}

/// A matrix's items (their bounds) and options (each item once), in its numbering.
pub(super) fn parts(matrix: &Matrix) -> Parts {
    let items = matrix.items().iter().map(|i| (i.min, i.max)).collect();
    let options = (0..matrix.num_options() as u32)
        .map(|o| matrix.option_items(o).iter().map(|&i| (i, 1)).collect())
        .collect();
    (items, options)
}

/// The cells' coordinates, by item, where every unit item names its cell (`x,y,z`, as
/// the polycube kind names them); any other item may be anything (and is given
/// `[0; 3]`).
pub(super) fn cells(matrix: &Matrix) -> Option<Vec<[i32; 3]>> {
    matrix
        .items()
        .iter()
        .map(|item| match (item.min, item.max) {
            (1, 1) => coordinates(&item.name),
            _ => Some([0; 3]),
        })
        .collect()
}

/// The cell a name `x,y,z` gives, if it is one.
fn coordinates(name: &str) -> Option<[i32; 3]> {
    let mut parts = name.split(',').map(|p| p.trim().parse::<i32>().ok());
    let cell = [parts.next()??, parts.next()??, parts.next()??];
    parts.next().is_none().then_some(cell)
}

impl From<&Quotient> for Input {
    fn from(q: &Quotient) -> Input {
        Input::new(q.items.clone(), q.options.clone())
    }
}
