//! The exact-cover matrix: the one interface between puzzle kinds and engines.
//!
//! A puzzle kind compiles into a [`Matrix`]; every engine (DLX, bitset, CNF) reads only
//! this. The matrix knows nothing of what its options mean: option `o` is the kind's
//! option `o`, and only the kind can say what that is. A *solution* is a set of options
//! that covers every item exactly as many times as its multiplicity says.
//!
//! Invariants:
//! - Items `0..n` have a multiplicity of at least 1. An item of multiplicity 1 is a *unit*
//!   item; one of multiplicity k > 1 must be covered k times, by options that are
//!   otherwise interchangeable (k copies of one part).
//! - Each option lists distinct items in increasing order, and contains at least one unit
//!   item. The engines rely on this: they branch only on unit items, so a solution that
//!   differs only in the order its copies were chosen is found once, not k! times.

use std::fmt;

/// A column of the matrix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    pub name: String,
    pub multiplicity: u32,
}

#[derive(Clone, Debug, Default)]
pub struct Matrix {
    items: Vec<Item>,
    // Compressed rows: option o covers `option_items[start[o]..start[o + 1]]`.
    start: Vec<u32>,
    option_items: Vec<u32>,
}

impl Matrix {
    pub fn new(items: Vec<Item>) -> Matrix {
        assert!(
            items.iter().all(|i| i.multiplicity >= 1),
            "multiplicity must be positive"
        );
        Matrix {
            items,
            start: vec![0],
            option_items: Vec::new(),
        }
    }

    /// Appends an option and returns its index. `items` may come in any order.
    pub fn push_option(&mut self, items: &[u32]) -> u32 {
        let mut sorted = items.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), items.len(), "an option lists an item twice");
        assert!(
            sorted.iter().all(|&i| (i as usize) < self.items.len()),
            "item out of range"
        );
        assert!(
            sorted
                .iter()
                .any(|&i| self.items[i as usize].multiplicity == 1),
            "every option needs a unit item"
        );
        self.option_items.extend_from_slice(&sorted);
        self.start.push(self.option_items.len() as u32);
        (self.start.len() - 2) as u32
    }

    pub fn items(&self) -> &[Item] {
        &self.items
    }

    pub fn num_items(&self) -> usize {
        self.items.len()
    }

    pub fn num_options(&self) -> usize {
        self.start.len() - 1
    }

    /// The items of option `o`, in increasing order.
    pub fn option_items(&self, o: u32) -> &[u32] {
        &self.option_items[self.start[o as usize] as usize..self.start[o as usize + 1] as usize]
    }

    pub fn is_unit(&self, item: u32) -> bool {
        self.items[item as usize].multiplicity == 1
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

    /// Checks that `options` is an exact cover: every item covered exactly as often as its
    /// multiplicity.
    pub fn check_solution(&self, options: &[u32]) -> Result<(), CoverError> {
        let mut covered = vec![0u32; self.items.len()];
        for &o in options {
            if o as usize >= self.num_options() {
                return Err(CoverError::NoSuchOption(o));
            }
            for &i in self.option_items(o) {
                covered[i as usize] += 1;
            }
        }
        for (i, item) in self.items.iter().enumerate() {
            if covered[i] != item.multiplicity {
                return Err(CoverError::WrongCover {
                    item: item.name.clone(),
                    wanted: item.multiplicity,
                    got: covered[i],
                });
            }
        }
        Ok(())
    }
}

/// Why a set of options is not an exact cover.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CoverError {
    NoSuchOption(u32),
    WrongCover { item: String, wanted: u32, got: u32 },
}

impl fmt::Display for CoverError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CoverError::NoSuchOption(o) => write!(f, "option {o} does not exist"),
            CoverError::WrongCover { item, wanted, got } => {
                write!(f, "item {item} is covered {got} times instead of {wanted}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(name: &str) -> Item {
        Item {
            name: name.into(),
            multiplicity: 1,
        }
    }

    #[test]
    fn check_solution_counts_multiplicity() {
        let mut m = Matrix::new(vec![
            unit("a"),
            unit("b"),
            Item {
                name: "p".into(),
                multiplicity: 2,
            },
        ]);
        let x = m.push_option(&[2, 0]);
        let y = m.push_option(&[1, 2]);
        assert_eq!(m.option_items(x), &[0, 2]);
        assert!(m.check_solution(&[x, y]).is_ok());
        assert!(matches!(
            m.check_solution(&[x]),
            Err(CoverError::WrongCover { .. })
        ));
        assert_eq!(m.columns()[2], vec![x, y]);
    }
}
