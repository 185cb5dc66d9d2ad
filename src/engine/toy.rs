//! Two toy engines that exist only in the crate's own tests: they prove that a new engine
//! is one file and one line in [`super::ENGINES`], and that an engine with only some of
//! the abilities fits the seam without a refusing method. `toy` only counts (with the
//! DLX): its prepared value is [`Counts`] alone. `toy-lister` only lists (with the DLX):
//! its prepared value is [`Lists`] (and so [`FindsOne`]) alone, and a count with it is
//! its listing, counted.
//!
//! Invariant: their counts and solutions are the DLX's.

use std::ops::ControlFlow;

use super::native::Native;
use super::{Counts, FindsOne, Lists, Problem, Report, RunOptions, Scope, Search, Within};
use crate::error::Result;
use crate::sat::Strategy;
use crate::subproblems::Step;

/// The counting-only toy.
#[derive(Debug)]
pub(super) struct Toy;

/// The listing-only toy.
#[derive(Debug)]
pub(super) struct Lister;

/// A toy prepared: the DLX prepared, of which it shows one ability.
struct Prepared<'p> {
    name: &'static str,
    dlx: Box<dyn super::Prepared + 'p>,
}

impl Search for Toy {
    fn name(&self) -> &'static str {
        "toy"
    }

    fn prepare<'p>(&self, problem: &'p Problem) -> Result<Box<dyn super::Prepared + 'p>> {
        let dlx = Native::DLX.prepare(problem)?;
        Ok(Box::new(Counter(Prepared { name: "toy", dlx })))
    }
}

impl Search for Lister {
    fn name(&self) -> &'static str {
        "toy-lister"
    }

    fn prepare<'p>(&self, problem: &'p Problem) -> Result<Box<dyn super::Prepared + 'p>> {
        let dlx = Native::DLX.prepare(problem)?;
        Ok(Box::new(Listing(Prepared {
            name: "toy-lister",
            dlx,
        })))
    }
}

struct Counter<'p>(Prepared<'p>);

impl super::Prepared for Counter<'_> {
    fn name(&self) -> &'static str {
        self.0.name
    }

    fn describe(&self, _strategy: Strategy) -> Vec<String> {
        vec!["solver toy: counts with the dlx, lists nothing".into()]
    }

    fn counts(&self) -> Option<&dyn Counts> {
        Some(self)
    }
}

impl Counts for Counter<'_> {
    fn count(&self, opts: &RunOptions, within: Option<Within<'_>>) -> Result<Report> {
        let counts = self.0.dlx.counts().expect("the dlx counts");
        counts.count(opts, within)
    }
}

struct Listing<'p>(Prepared<'p>);

impl super::Prepared for Listing<'_> {
    fn name(&self) -> &'static str {
        self.0.name
    }

    fn describe(&self, _strategy: Strategy) -> Vec<String> {
        vec!["solver toy-lister: lists with the dlx, counts nothing itself".into()]
    }

    fn lists(&self) -> Option<&dyn Lists> {
        Some(self)
    }
}

impl Lists for Listing<'_> {
    fn for_each(
        &self,
        opts: &RunOptions,
        strategy: Strategy,
        scope: Option<Scope<'_>>,
        f: &mut dyn FnMut(Step<'_>) -> ControlFlow<()>,
    ) -> Result<Report> {
        let lists = self.0.dlx.lists().expect("the dlx lists");
        lists.for_each(opts, strategy, scope, f)
    }
}

impl FindsOne for Listing<'_> {
    fn first(&self, opts: &RunOptions) -> Result<(Option<Vec<u32>>, Report)> {
        super::first_listed(self, opts)
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::{Engine, Problem, RunOptions};

    #[test]
    fn the_registry_lines_make_them_engines() {
        let soma = Problem::load("soma", None).unwrap();
        for name in ["toy", "toy-lister"] {
            assert!(Engine::solver_names().contains(&name));
            assert!(Engine::bench_names().contains(&name));
            let engine = Engine::from_name(name).expect("registered");
            assert_eq!(
                soma.count(&engine, &RunOptions::default())
                    .unwrap()
                    .solutions,
                480,
                "{name}"
            );
        }
        // The counter has no listing: asking for one is a usage error, before any work.
        let toy = Engine::from_name("toy").unwrap();
        let prepared = toy.prepare(&soma).unwrap();
        assert!(prepared.lists().is_none() && prepared.finds_one().is_none());
        let err = soma.first(&toy, &RunOptions::default()).unwrap_err();
        assert_eq!(err.exit_code(), 2, "{err}");
        assert!(err
            .to_string()
            .contains("counts solutions without listing them"));
        // The lister has no counting of its own: a count is its listing, counted.
        let lister = Engine::from_name("toy-lister").unwrap();
        let prepared = lister.prepare(&soma).unwrap();
        assert!(prepared.counts().is_none());
        assert!(soma
            .first(&lister, &RunOptions::default())
            .unwrap()
            .0
            .is_some());
    }

    /// `--solver toy` and `--solver toy-lister` run from the command line, `bench
    /// --solvers` measures them (the counter with no first-solution time), and `check`
    /// cross-checks them.
    #[cfg(feature = "cli")]
    #[test]
    fn they_appear_in_solver_bench_and_check() {
        let run = crate::cli::run_in_process;
        for (name, says) in [
            ("toy", "c solver toy: counts with the dlx"),
            ("toy-lister", "c solver toy-lister: lists with the dlx"),
        ] {
            let (code, out) = run(&[
                "polycover",
                "count",
                "soma",
                "--solver",
                name,
                "--threads",
                "1",
            ]);
            assert_eq!(code, 0, "{out}");
            assert!(out.contains(says), "{out}");
            assert!(out.ends_with("s mc 480\n"), "{out}");
        }

        let (code, _) = run(&["polycover", "enumerate", "soma", "--solver", "toy"]);
        assert_eq!(code, 2);
        let (code, out) = run(&["polycover", "solve", "soma", "--solver", "toy-lister"]);
        assert_eq!(code, 10, "{out}");

        let entrants = ["toy", "toy-lister"]
            .map(|n| crate::bench::Entrant::parse(n).unwrap())
            .to_vec();
        let plan = crate::bench::Plan {
            puzzles: vec!["soma".into()],
            amos: vec![crate::sat::Amo::Product],
            entrants,
            symmetry: None,
            repeat: 1,
            timeout: std::time::Duration::from_secs(60),
            threads: 1,
            isolate: None,
        };
        let rows = crate::bench::run(&plan, &mut |_| {}).unwrap();
        let toy = rows.iter().find(|r| r.engine == "toy").expect("a toy row");
        assert_eq!(toy.solutions, Some(480u64.into()));
        assert!(toy.first.is_none());
        let lister = rows
            .iter()
            .find(|r| r.engine == "toy-lister")
            .expect("a lister row");
        assert_eq!(lister.solutions, Some(480u64.into()));
        assert!(lister.first.is_some());

        let (code, out) = run(&["polycover", "check", "soma"]);
        assert_eq!(code, 0, "{out}");
        for name in ["toy", "toy-lister"] {
            assert!(
                out.lines()
                    .any(|l| l.starts_with(&format!("c {name} ")) && l.contains(" 480 ")),
                "{out}"
            );
        }
    }
}
