//! The exact-cover matrix: the one interface between puzzle kinds and engines.
//!
//! A puzzle kind compiles into a [`Matrix`]; every engine (DLX, bitset, CNF) reads only
//! this. The matrix knows nothing of what its options mean: option `o` is the kind's
//! option `o`, and only the kind can say what that is. A *solution* is a set of options
//! that covers every item between its `min` and `max` times (Knuth's Algorithm M).
//!
//! Invariants:
//! - Every item has `min <= max` and `max >= 1`. An item with `min = max = 1` is a *unit*
//!   item (a cell that must be filled, a one-copy piece); `min = max = k > 1` means k
//!   interchangeable copies; `min = 0, max = 1` is a *secondary* item (an optional cell,
//!   covered at most once); other ranges are pieces used between min and max times.
//! - Each option lists distinct items in increasing order. In an *exact* matrix (every
//!   item has `min = max`) each option contains at least one unit item. The engines rely
//!   on this: they branch only on unit items, so a solution that differs only in the
//!   order its copies were chosen is found once, not k! times. A matrix that is not exact
//!   may have options without a unit item; the engines that take such matrices complete
//!   the search over those options as sets (see the DLX).

use std::fmt;

/// A column of the matrix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// The item's name in messages and exports: a cell's coordinates
    /// (`x,y,z`), a piece's name, a side showing a colour (`left=A`).
    pub name: String,
    /// The fewest times a solution covers the item.
    pub min: u32,
    /// The most times a solution covers the item.
    pub max: u32,
}

impl Item {
    /// An item covered exactly `k` times (a cell: 1; a piece with k copies: k).
    pub fn exact(name: impl Into<String>, k: u32) -> Item {
        Item::range(name, k, k)
    }

    /// A secondary item: covered at most once (an optional cell).
    pub fn optional(name: impl Into<String>) -> Item {
        Item::range(name, 0, 1)
    }

    /// An item covered between `min` and `max` times.
    pub fn range(name: impl Into<String>, min: u32, max: u32) -> Item {
        Item {
            name: name.into(),
            min,
            max,
        }
    }

    /// Whether every solution covers the item the same number of times (`min == max`).
    pub fn is_exact(&self) -> bool {
        self.min == self.max
    }
}

/// The exact-cover matrix: its items (columns) and its options (rows, each a sorted set
/// of items), stored as compressed rows. Options are numbered from 0 in the order they
/// were pushed; the module documentation gives the invariants every matrix keeps. Two
/// matrices are equal when they have the same items and the same options in the same
/// order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Matrix {
    items: Vec<Item>,
    // Compressed rows: option o covers `option_items[start[o]..start[o + 1]]`.
    start: Vec<u32>,
    option_items: Vec<u32>,
}

impl Matrix {
    /// A matrix with these items and no options yet; add options with
    /// [`push_option`](Matrix::push_option).
    ///
    /// # Panics
    ///
    /// If an item has `min > max` or `max == 0`.
    pub fn new(items: Vec<Item>) -> Matrix {
        assert!(
            items.iter().all(|i| i.min <= i.max && i.max >= 1),
            "an item needs 0 <= min <= max and max >= 1"
        );
        Matrix {
            items,
            start: vec![0],
            option_items: Vec::new(),
        }
    }

    /// Appends an option and returns its index. `items` may come in any order.
    ///
    /// # Panics
    ///
    /// If `items` is empty, lists an item twice or names an item out of range, or if the
    /// matrix is exact and `items` holds no unit item.
    pub fn push_option(&mut self, items: &[u32]) -> u32 {
        let mut sorted = items.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), items.len(), "an option lists an item twice");
        assert!(
            sorted.iter().all(|&i| (i as usize) < self.items.len()),
            "item out of range"
        );
        assert!(!sorted.is_empty(), "an option covers no item");
        assert!(
            !self.is_exact() || sorted.iter().any(|&i| self.is_unit(i)),
            "every option of an exact matrix needs a unit item"
        );
        self.option_items.extend_from_slice(&sorted);
        self.start.push(self.option_items.len() as u32);
        (self.start.len() - 2) as u32
    }

    /// The items (columns), indexed by item number.
    pub fn items(&self) -> &[Item] {
        &self.items
    }

    /// How many items (columns) the matrix has.
    pub fn num_items(&self) -> usize {
        self.items.len()
    }

    /// How many options (rows) the matrix has; options are numbered `0..num_options()`.
    pub fn num_options(&self) -> usize {
        self.start.len() - 1
    }

    /// The items of option `o`, in increasing order.
    ///
    /// # Panics
    ///
    /// If `o` is not an option of the matrix.
    pub fn option_items(&self, o: u32) -> &[u32] {
        &self.option_items[self.start[o as usize] as usize..self.start[o as usize + 1] as usize]
    }

    /// Whether `item` is covered exactly once by every solution.
    pub fn is_unit(&self, item: u32) -> bool {
        let i = &self.items[item as usize];
        i.min == 1 && i.max == 1
    }

    /// Whether every item is covered an exact number of times (no optional cells, no
    /// count ranges): then every option has a unit item (see the module invariants).
    pub fn is_exact(&self) -> bool {
        self.items.iter().all(Item::is_exact)
    }

    /// The total number of item entries over all options.
    pub fn num_entries(&self) -> usize {
        self.option_items.len()
    }

    /// For each item, the options that contain it, in increasing order.
    pub fn columns(&self) -> Vec<Vec<u32>> {
        let mut cols = vec![Vec::new(); self.items.len()];
        for o in 0..self.num_options() as u32 {
            for &i in self.option_items(o) {
                cols[i as usize].push(o);
            }
        }
        cols
    }

    /// The sub-matrix with only the options `keep` (in that order); items are unchanged.
    pub fn restricted(&self, keep: &[u32]) -> Matrix {
        let mut m = Matrix::new(self.items.clone());
        for &o in keep {
            m.push_option(self.option_items(o));
        }
        m
    }

    /// Checks that `options` is a solution: distinct options, every item covered between
    /// its `min` and `max` times.
    ///
    /// # Errors
    ///
    /// [`crate::error::Error::Model`] (at `solution`) for an option number past the last option,
    /// an option listed twice, and the first item covered too few or too many times.
    pub fn check_solution(&self, options: &[u32]) -> crate::error::Result<()> {
        self.cover_fault(options)
            .map_err(|fault| crate::error::Error::Model {
                location: "solution".into(),
                reason: fault.to_string(),
            })
    }

    /// [`Matrix::check_solution`], the fault typed.
    pub(crate) fn cover_fault(&self, options: &[u32]) -> Result<(), CoverError> {
        let mut covered = vec![0u32; self.items.len()];
        let mut seen = std::collections::HashSet::with_capacity(options.len());
        for &o in options {
            if o as usize >= self.num_options() {
                return Err(CoverError::NoSuchOption(o));
            }
            if !seen.insert(o) {
                return Err(CoverError::Repeated(o));
            }
            for &i in self.option_items(o) {
                covered[i as usize] += 1;
            }
        }
        for (i, item) in self.items.iter().enumerate() {
            if covered[i] < item.min || covered[i] > item.max {
                return Err(CoverError::WrongCover {
                    item: item.name.clone(),
                    min: item.min,
                    max: item.max,
                    got: covered[i],
                });
            }
        }
        Ok(())
    }
}

/// Why a set of options is not an exact cover.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum CoverError {
    /// The option number is not below [`Matrix::num_options`].
    NoSuchOption(u32),
    /// The option is listed more than once.
    Repeated(u32),
    /// An item is covered outside its range.
    WrongCover {
        /// The item's name.
        item: String,
        /// The fewest covers the item allows.
        min: u32,
        /// The most covers the item allows.
        max: u32,
        /// How many of the chosen options cover it.
        got: u32,
    },
}

impl fmt::Display for CoverError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CoverError::NoSuchOption(o) => write!(f, "option {o} does not exist"),
            CoverError::Repeated(o) => write!(f, "option {o} is chosen twice"),
            CoverError::WrongCover {
                item,
                min,
                max,
                got,
            } if min == max => {
                write!(f, "item {item} is covered {got} times instead of {min}")
            }
            CoverError::WrongCover {
                item,
                min,
                max,
                got,
            } => write!(
                f,
                "item {item} is covered {got} times, not between {min} and {max}"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(name: &str) -> Item {
        Item::exact(name, 1)
    }

    #[test]
    fn check_solution_counts_multiplicity() {
        let mut m = Matrix::new(vec![unit("a"), unit("b"), Item::exact("p", 2)]);
        let x = m.push_option(&[2, 0]);
        let y = m.push_option(&[1, 2]);
        assert_eq!(m.option_items(x), &[0, 2]);
        assert!(m.cover_fault(&[x, y]).is_ok());
        assert!(matches!(
            m.cover_fault(&[x]),
            Err(CoverError::WrongCover { .. })
        ));
        assert_eq!(m.columns()[2], vec![x, y]);
    }
}
