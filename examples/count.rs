//! Counting through the library: load a puzzle, compile it for a symmetry mode, reduce
//! by its group, and count with an engine.
//!
//! `cargo run --release --example count -- soma`

use polycover::solver::{self, RunOptions, Solver};
use polycover::{Puzzle, Reduction, SymmetryMode};

fn main() -> Result<(), polycover::Error> {
    let name = std::env::args().nth(1).unwrap_or_else(|| "soma".into());
    let puzzle = Puzzle::load(&name)?;
    for mode in [
        SymmetryMode::None,
        SymmetryMode::Rotations,
        SymmetryMode::Reflections,
    ] {
        let compiled = match puzzle.compile(mode) {
            Ok(c) => c,
            Err(e) => {
                println!("{:<12} not available: {e}", mode.as_str());
                continue;
            }
        };
        let reduction = Reduction::new(&compiled.matrix, compiled.group.clone());
        let stats = solver::count(
            &reduction,
            RunOptions {
                solver: Solver::Bits,
                threads: 2,
                progress: None,
            },
        );
        println!(
            "{:<12} {:>8} solutions (group order {})",
            mode.as_str(),
            stats.solutions,
            compiled.group.order()
        );
    }
    Ok(())
}
