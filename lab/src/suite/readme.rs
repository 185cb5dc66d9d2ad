//! The suite's `README.md`: the family described as a SAT Competition benchmark
//! submission describes its instances (what they encode, how they were generated and
//! with which parameters, the command that regenerates them, their expected status, the
//! encodings, the CSV's columns and the hash that names each CNF).
//!
//! Invariant: the text depends on the family and the instances' results alone (no
//! times, no paths), so the same family gives the same README.

use super::{Family, Summary, COLUMNS};
use crate::sat::Amo;

/// One instance, as the README's table shows it.
#[derive(Clone, Debug)]
pub(super) struct Line {
    pub(super) puzzle: String,
    pub(super) seed: u64,
    pub(super) pieces: usize,
    pub(super) status: &'static str,
    pub(super) count_rotations: String,
    pub(super) count_none: String,
}

/// What each at-most-one encoding is, for the README (the match fails to compile when an
/// encoding is added without a line here).
fn describe(amo: Amo) -> &'static str {
    match amo {
        Amo::Pairwise => "one binary clause per pair of placements; no auxiliary variables",
        Amo::Ladder => {
            "a ladder (order encoding) of n-1 auxiliary variables (Gent and Nightingale 2004)"
        }
        Amo::Bitwise => "the chosen placement's index in binary (Prestwich 2007)",
        Amo::Commander => {
            "groups of 4 with a commander variable each, recursively (Klieber and Kwon 2007)"
        }
        Amo::Bimander => "groups of 4 with bitwise-encoded commanders (Nguyen and Mai 2015)",
        Amo::Product => "Chen's 2-product: a grid of row and column variables (Chen 2010)",
        // Not in Amo::ALL: a lazy CNF is no CNF of the problem, and no suite has one.
        Amo::Lazy => "no clauses: a propagator's (never written to a file)",
    }
}

/// What a CSV column holds.
fn column(name: &str) -> &'static str {
    match name {
        "puzzle" => "the instance's puzzle file, `NAME-SEED.toml`, in this directory",
        "cnf" => "the CNF file, `NAME-SEED-ENC.cnf.gz` (gzip)",
        "family" => "the family's name",
        "seed" => "the generator's seed",
        "box" => "the box packed, `XxYxZ` cells",
        "pieces" => "pieces the box was cut into (pieces of one shape are one piece with copies in the puzzle file)",
        "sizes" => "each piece's cell count lay within `A-B`",
        "encoding" => "the at-most-one encoding of the CNF",
        "variables" => "variables of the CNF (its `p cnf` line): primary (one per placement) and auxiliary",
        "clauses" => "clauses of the CNF (its `p cnf` line)",
        "status" => "`SAT` or `UNSAT`, decided by polycover's native engine (the bitset exact-cover search, up to rotations), and checked against how the instance was made",
        "count_none" => "solutions counted by the native engine with every placement distinct (`polycover count PUZZLE --symmetry none`); empty when the count timeout stopped it (see `note`)",
        "count_rotations" => "solutions up to rotation of the box (`polycover count PUZZLE`), which is the model count of every CNF projected on its primary variables (`c p show`); empty when the count timeout stopped it",
        "native_s" => "seconds the native engine took to decide the status (a first solution, or the end of the search)",
        "count_s" => "seconds the two native counts took together",
        "gbd_hash" => "the GBD hash of the CNF (below)",
        "note" => "why a count cell is empty, else empty",
        _ => "",
    }
}

/// The README of `family`: what its instances encode, how they were made, their
/// expected status and counts, and what its files hold.
pub(super) fn text(family: &Family, summary: &Summary, lines: &[Line]) -> String {
    [
        encoding(family, summary),
        generation(family),
        expected(family, lines),
        files(),
    ]
    .concat()
}

/// The title and what the family's instances encode (and their certificates).
fn encoding(family: &Family, summary: &Summary) -> String {
    let name = &family.name;
    let box_name = family.box_name();
    let mut t = String::new();
    let mut line = |s: &str| {
        t.push_str(s);
        t.push('\n');
    };
    line(&format!(
        "# Benchmark family `{name}`: polycube packings of a {box_name} box"
    ));
    line("");
    line(&format!(
        "Written by polycover {} (`polycover suite`). {} instances: {} satisfiable, {} \
         unsatisfiable; each as a puzzle file and as a CNF in {} at-most-one encodings ({} \
         CNF files).",
        env!("CARGO_PKG_VERSION"),
        summary.instances,
        summary.sat,
        summary.unsat,
        Amo::ALL.len(),
        summary.instances * Amo::ALL.len()
    ));
    line("");
    line("## What the instances encode");
    line("");
    line(&format!(
        "Each instance asks whether a set of polycube pieces (face-connected sets of unit \
         cubes) packs the {box_name} box exactly: every cell covered once, every piece \
         used (as often as its `count`), pieces turned by any of the 24 rotations of the \
         cube but not mirrored. This is exact cover. The CNF has one primary variable per \
         placement of a piece (a rotation and a position inside the box), listed with its \
         meaning on the `c v` lines; for every cell, and every piece without copies, at \
         least one of its placements (one clause) and at most one (the file's at-most-one \
         encoding); for a piece with copies, a totalizer that takes exactly that many of \
         its placements."
    ));
    line("");
    line(
        "Symmetry is broken in the formula: two packings that a rotation of the box maps \
         onto each other are one solution. Where a piece can be pinned, it keeps one \
         placement per orbit (unit clauses forbid the rest), and lex-leader chains keep \
         only the canonical member of each class that remains. So the models projected on \
         the primary variables (the `c p show` line; `c t pmc` marks the file for \
         projected model counters) are exactly the solutions up to rotation: their number \
         is the CSV's `count_rotations`, and a SAT solver's answer is UNSAT exactly when \
         the puzzle has no packing.",
    );
    if family.certify {
        line("");
        line("## Certified counts");
        line("");
        line(
            "`certificates/NAME-SEED/` holds, per instance, a CNF with one variable per \
             placement and no symmetry breaking, whose model count is the CSV's \
             `count_none`, with a CPOG certificate of it (Bryant, Nawrocki, Avigad, Heule, \
             SAT 2023) that an independent checker verifies: `cpog-check` on its `.cnf` and \
             `.cpog`, or `polycover verify certificates/NAME-SEED`, which also redoes the \
             count from the checked graph (ground truth for model counters). An instance whose certificate the count timeout stopped \
             has none; its CSV note says so.",
        );
    }
    t
}

/// How the instances were generated, and how to make them again.
fn generation(family: &Family) -> String {
    let (lo, hi) = family.pieces;
    let mut t = String::new();
    let mut line = |s: &str| {
        t.push_str(s);
        t.push('\n');
    };
    line("");
    line("## How they were generated");
    line("");
    line(&format!(
        "One instance per seed, from {} to {}. Seed `s` cuts the box into \
         `P = {lo} + s mod {}` pieces{}, drawn by `polycover generate polycubes` with a PCG \
         generator seeded by `s`:",
        family.seeds.0,
        family.seeds.1,
        hi - lo + 1,
        match family.sizes {
            Some((a, b)) => format!(" of {a} to {b} cells"),
            None => " of one cell below to one above the mean size (volume / P)".into(),
        }
    ));
    line("");
    line(
        "- **SAT** (a planted solution): the piece sizes are drawn, then the pieces are \
         grown one at a time from a free cell with the fewest free neighbours, by random \
         free face-neighbours whose taking leaves the free cells connected. The cut is a \
         solution of the puzzle it makes.",
    );
    line(
        "- **UNSAT** (`--unsat`): cuts are drawn until the puzzle has exactly one solution \
         up to rotations (each draw's check stops after 2 s); then one chiral piece is \
         replaced by its mirror image, and the result is kept when the native engine \
         finds no solution (else the next chiral piece, then a new draw). The volume is \
         the box's and every piece still fits, so the instance is not trivially \
         unsatisfiable.",
    );
    line("");
    line(&format!(
        "Which seeds are UNSAT: `--status {}` ({}).",
        family.status.name(),
        match family.status {
            super::Status::Sat => "none: every instance is a planted cut",
            super::Status::Unsat => "all of them",
            super::Status::Mixed => "the even seeds; the odd seeds are planted cuts",
        }
    ));
    line("");
    line("To regenerate the family (the same files, but for the times in the CSV):");
    line("");
    line("```sh");
    line(&family.command());
    line("```");
    line("");
    line(
        "and one instance: its puzzle file's first line is its `generate` command; its CNF \
         in encoding ENC is what `polycover dimacs NAME-SEED.toml --amo ENC -o \
         NAME-SEED-ENC.cnf.gz` writes, but for one `c suite` comment line (so the GBD \
         hash is the same).",
    );
    t
}

/// Each instance's expected status and counts.
fn expected(family: &Family, lines: &[Line]) -> String {
    let mut t = String::new();
    let mut line = |s: &str| {
        t.push_str(s);
        t.push('\n');
    };
    line("");
    line("## Expected status");
    line("");
    line("| puzzle | seed | pieces | status | solutions up to rotation | all solutions |");
    line("|---|---|---|---|---|---|");
    for l in lines {
        let or_capped = |c: &str| {
            if c.is_empty() {
                "not counted (timeout)".to_string()
            } else {
                c.to_string()
            }
        };
        line(&format!(
            "| {} | {} | {} | {} | {} | {} |",
            l.puzzle,
            l.seed,
            l.pieces,
            l.status,
            or_capped(&l.count_rotations),
            or_capped(&l.count_none)
        ));
    }
    line("");
    line(&format!(
        "Counts are the native engine's (`polycover count`), each stopped after {} s; a \
         stopped count is an empty CSV cell with a note, never a partial figure.",
        family.count_timeout.as_secs_f64()
    ));
    t
}

/// The encodings, the files, the CSV's columns and the GBD hash.
fn files() -> String {
    let mut t = String::new();
    let mut line = |s: &str| {
        t.push_str(s);
        t.push('\n');
    };
    line("");
    line("## Encodings");
    line("");
    line("The at-most-one constraints of cells and pieces are encoded as:");
    line("");
    for amo in Amo::ALL {
        line(&format!("- `{}`: {}", amo.name(), describe(amo)));
    }
    line("");
    line(
        "Every other clause (at-least-one, the totalizers, the symmetry breaking) is the \
         same in all encodings, and the primary variables keep their numbers, so a model \
         decodes the same way in all of them (`polycover decode PUZZLE --model ANSWER`).",
    );
    line("");
    line("## Files");
    line("");
    line("- `NAME-SEED.toml`: the puzzle (polycover's puzzle format, `docs/puzzle-format.md`);");
    line(
        "- `NAME-SEED-ENC.cnf.gz`: the CNF, gzip-compressed DIMACS, with `c` lines naming \
          the puzzle, the encoding, the symmetry mode and each primary variable;",
    );
    line("- `instances.csv`: one row per CNF;");
    line("- `README.md`: this file.");
    line("");
    line("## instances.csv");
    line("");
    line("| column | meaning |");
    line("|---|---|");
    for c in COLUMNS {
        line(&format!("| `{c}` | {} |", column(c)));
    }
    line("");
    line("## The GBD hash");
    line("");
    line(
        "The Global Benchmark Database (Iser and Jabs, SAT 2024) names a CNF by the MD5 of \
         its clauses in a normal form, as gbdc's `CNF::gbdhash` computes it: `c` and `p` \
         lines are skipped, whitespace between literals is not hashed, each literal is \
         written as read (a `+` sign dropped) followed by one space, each clause ends in \
         `0`, and clauses are joined by one space; the hash is the MD5 of that text, in \
         lowercase hexadecimal. Comments, the header and line breaks do not change it; \
         the order of clauses and of their literals does. `gbd_hash` is this hash of the \
         decompressed CNF.",
    );
    t
}
