//! Counting through the library: load a puzzle, prepare it for a symmetry mode (its
//! matrix and symmetry reduction), and count with an engine.
//!
//! `cargo run --release --example count -- soma`

use polycover::{Engine, Puzzle, RunOptions};

fn main() -> Result<(), polycover::Error> {
    let name = std::env::args().nth(1).unwrap_or_else(|| "soma".into());
    let puzzle = Puzzle::load(&name)?;
    for &mode in puzzle.symmetry_modes() {
        let problem = match puzzle.compile(mode) {
            Ok(problem) => problem,
            Err(e) => {
                println!("{:<12} not available: {e}", mode.as_str());
                continue;
            }
        };
        let report = problem.count(
            &Engine::bits(),
            &RunOptions {
                threads: 2,
                ..RunOptions::default()
            },
        )?;
        println!(
            "{:<12} {:>8} solutions (group order {})",
            mode.as_str(),
            report.solutions,
            problem.symmetries()
        );
    }
    Ok(())
}
