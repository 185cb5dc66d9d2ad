//! A toy engine that exists only in the crate's own tests (and with the feature `toy`,
//! for the binary's test that runs it from the command line, `src/main.rs`): it proves that a new engine is
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
        assert!(matches!(err, crate::Error::Usage(_)), "{err}");
        assert!(err
            .to_string()
            .contains("counts solutions without listing them"));
    }
}
