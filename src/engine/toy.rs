//! A toy engine that exists only in the crate's own tests: it proves that a new engine is
//! one file and one line in [`super::ENGINES`], and that an engine which only counts (it
//! never sees a solution) fits the seam. It counts with the DLX and declines to list
//! solutions.
//!
//! Invariant: its counts are the DLX's.

use std::ops::ControlFlow;

use super::native::Native;
use super::{Declines, Problem, Report, RunOptions, Scope, Search, Within};
use crate::error::Result;
use crate::sat::Strategy;
use crate::subproblems::Step;

#[derive(Debug)]
pub(super) struct Toy;

impl Search for Toy {
    fn name(&self) -> &'static str {
        "toy"
    }

    fn describe(&self, _problem: &Problem, _strategy: Strategy) -> Vec<String> {
        vec!["solver toy: counts with the dlx, lists nothing".into()]
    }

    fn count(
        &self,
        problem: &Problem,
        opts: &RunOptions,
        within: Option<Within<'_>>,
    ) -> Result<Report> {
        Native::DLX.count(problem, opts, within)
    }

    fn for_each(
        &self,
        _problem: &Problem,
        _opts: &RunOptions,
        _strategy: Strategy,
        _scope: Option<Scope<'_>>,
        _f: &mut dyn FnMut(Step<'_>) -> ControlFlow<()>,
    ) -> Result<Report> {
        Err(super::counts_only(self.name()))
    }

    fn declines(&self) -> Option<Declines> {
        Some(Declines {
            everything: false,
            solutions: true,
            all: false,
            why: "it counts without listing solutions",
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::{Engine, Problem, RunOptions};

    #[test]
    fn the_registry_line_makes_it_an_engine() {
        assert!(Engine::solver_names().contains(&"toy"));
        assert!(Engine::bench_names().contains(&"toy"));
        let toy = Engine::from_name("toy").expect("registered");
        let soma = Problem::load("soma", None).unwrap();
        assert_eq!(
            soma.count(&toy, &RunOptions::default()).unwrap().solutions,
            480
        );
        // Listing solutions is declined with a usage error, before any work.
        let err = soma.first(&toy, &RunOptions::default()).unwrap_err();
        assert_eq!(err.exit_code(), 2, "{err}");
        assert!(err
            .to_string()
            .contains("counts solutions without listing them"));
    }

    /// `--solver toy` runs from the command line, `bench --solvers toy` measures it (a
    /// count, with no first-solution time), and `check` cross-checks it.
    #[cfg(feature = "cli")]
    #[test]
    fn it_appears_in_solver_bench_and_check() {
        let run = crate::cli::run_in_process;
        let (code, out) = run(&[
            "polycover",
            "count",
            "soma",
            "--solver",
            "toy",
            "--threads",
            "1",
        ]);
        assert_eq!(code, 0, "{out}");
        assert!(out.contains("c solver toy: counts with the dlx"), "{out}");
        assert!(out.ends_with("s mc 480\n"), "{out}");

        let (code, _) = run(&["polycover", "enumerate", "soma", "--solver", "toy"]);
        assert_eq!(code, 2);

        let entrant = crate::bench::Entrant::parse("toy").unwrap();
        let plan = crate::bench::Plan {
            puzzles: vec!["soma".into()],
            amos: vec![crate::sat::Amo::Product],
            entrants: vec![entrant],
            symmetry: None,
            repeat: 1,
            timeout: std::time::Duration::from_secs(60),
            threads: 1,
            isolate: None,
        };
        let rows = crate::bench::run(&plan, &mut |_| {}).unwrap();
        let toy = rows.iter().find(|r| r.engine == "toy").expect("a toy row");
        assert_eq!(toy.solutions, Some(480u64.into()));

        let (code, out) = run(&["polycover", "check", "soma"]);
        assert_eq!(code, 0, "{out}");
        assert!(
            out.lines()
                .any(|l| l.starts_with("c toy ") && l.contains(" 480 ")),
            "{out}"
        );
    }
}
