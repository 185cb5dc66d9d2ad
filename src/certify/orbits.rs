//! The options of a symmetry term, grouped: a solution that a symmetry `g` maps onto
//! itself is a union of orbits of options under `g`, so the certifying search chooses
//! whole orbits (*super-options*). An orbit whose options overlap on a cell is in no such
//! solution: its options are *bad*, false in every model of the term's CNF.
//!
//! Invariants: for the identity, super-option `s` is option `s` (the count ranges rely on
//! it); the members of a super-option are listed in the order `g` visits them, and their
//! cells are disjoint.

use super::formula::Formula;

/// Not in any super-option: a bad option.
pub(crate) const BAD: u32 = u32::MAX;

pub(crate) struct Orbits {
    pub members: Vec<Vec<u32>>,
    /// The union of the members' covered items, increasing.
    pub sup_cells: Vec<Vec<u32>>,
    pub sup_of: Vec<u32>,
    pub sup_by_cell: Vec<Vec<u32>>,
    pub bad: Vec<u32>,
    /// The option `g` maps onto each option.
    pub preimage: Vec<u32>,
}

impl Orbits {
    pub fn new(f: &Formula) -> Orbits {
        let n = f.num_vars as usize;
        let mut preimage = vec![0u32; n];
        for o in 0..n {
            preimage[f.image[o] as usize] = o as u32;
        }
        let mut sup_of = vec![BAD; n];
        let mut members = Vec::new();
        let mut sup_cells = Vec::new();
        let mut bad = Vec::new();
        let mut seen = vec![false; n];
        for o in 0..n {
            if seen[o] {
                continue;
            }
            let mut orbit = vec![o as u32];
            seen[o] = true;
            let mut cur = f.image[o] as usize;
            while cur != o {
                seen[cur] = true;
                orbit.push(cur as u32);
                cur = f.image[cur] as usize;
            }
            let mut cells: Vec<u32> = orbit
                .iter()
                .flat_map(|&m| f.cells[m as usize].iter().copied())
                .collect();
            cells.sort_unstable();
            let total = cells.len();
            cells.dedup();
            if cells.len() < total {
                bad.extend(orbit.iter().copied());
                continue;
            }
            for &m in &orbit {
                sup_of[m as usize] = members.len() as u32;
            }
            members.push(orbit);
            sup_cells.push(cells);
        }
        bad.sort_unstable();
        let mut sup_by_cell = vec![Vec::new(); f.cover_items.len()];
        for (s, cells) in sup_cells.iter().enumerate() {
            for &c in cells {
                sup_by_cell[c as usize].push(s as u32);
            }
        }
        Orbits {
            members,
            sup_cells,
            sup_of,
            sup_by_cell,
            bad,
            preimage,
        }
    }
}
