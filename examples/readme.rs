use polycover::{Engine, Problem, RunOptions};

fn main() -> Result<(), polycover::Error> {
    // The catalog's Soma cube, counted up to rotations (its default).
    let soma = Problem::load("soma", None)?;
    let report = soma.count(&Engine::bits(), &RunOptions::default())?;
    assert!(report.complete);
    println!("{} solutions", report.solutions); // 480
    Ok(())
}
