//! `instances.csv`: one row per CNF of a suite, under [`COLUMNS`], quoted by the `csv`
//! crate (RFC 4180); and the digest of the rows the README shows.
//!
//! Invariant: every row has one cell per column, in the order of [`COLUMNS`]; a count the
//! timeout stopped is an empty cell.

use super::{readme, Family};
use polycover::{Error, Result};

/// The CSV's columns, in order (the README explains each).
pub const COLUMNS: [&str; 17] = [
    "puzzle",
    "cnf",
    "family",
    "seed",
    "box",
    "pieces",
    "sizes",
    "encoding",
    "variables",
    "clauses",
    "status",
    "count_none",
    "count_rotations",
    "native_s",
    "count_s",
    "gbd_hash",
    "note",
];

/// One CSV row: a CNF.
#[derive(Clone, Debug)]
pub(super) struct Row {
    pub(super) puzzle: String,
    pub(super) cnf: String,
    pub(super) seed: u64,
    pub(super) pieces: usize,
    pub(super) sizes: (usize, usize),
    pub(super) encoding: &'static str,
    pub(super) variables: u32,
    pub(super) clauses: usize,
    pub(super) status: &'static str,
    pub(super) count_none: String,
    pub(super) count_rotations: String,
    pub(super) native_s: f64,
    pub(super) count_s: f64,
    pub(super) gbd_hash: String,
    pub(super) note: String,
}

/// The rows as CSV, with the header [`COLUMNS`].
pub(super) fn to_csv(family: &Family, rows: &[Row]) -> Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let box_name = family.box_name();
    let failed = |e: csv::Error| Error::Failed(format!("suite: instances.csv: {e}"));
    w.write_record(COLUMNS).map_err(failed)?;
    for r in rows {
        w.write_record([
            r.puzzle.as_str(),
            &r.cnf,
            &family.name,
            &r.seed.to_string(),
            &box_name,
            &r.pieces.to_string(),
            &format!("{}-{}", r.sizes.0, r.sizes.1),
            r.encoding,
            &r.variables.to_string(),
            &r.clauses.to_string(),
            r.status,
            &r.count_none,
            &r.count_rotations,
            &format!("{:.6}", r.native_s),
            &format!("{:.6}", r.count_s),
            &r.gbd_hash,
            &r.note,
        ])
        .map_err(failed)?;
    }
    w.into_inner()
        .map_err(|e| Error::Failed(format!("suite: instances.csv: {e}")))
}

/// What the README says of the instances written: one line per instance.
pub(super) fn rows_digest(rows: &[Row]) -> Vec<readme::Line> {
    let mut lines: Vec<readme::Line> = Vec::new();
    for r in rows {
        if lines.last().is_some_and(|l| l.puzzle == r.puzzle) {
            continue;
        }
        lines.push(readme::Line {
            puzzle: r.puzzle.clone(),
            seed: r.seed,
            pieces: r.pieces,
            status: r.status,
            count_rotations: r.count_rotations.clone(),
            count_none: r.count_none.clone(),
        });
    }
    lines
}
