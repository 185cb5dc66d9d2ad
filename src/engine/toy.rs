//! Two toy engines that exist only in the crate's own tests (and, with the feature `toy`,
//! in the binary's test that runs them from the command line, `cli/src/main.rs`): they prove that a new engine
//! is one file and one line in [`super::ENGINES`], and that an engine with only some of
//! the abilities fits the seam without a refusing method. `toy` only counts (with the
//! DLX): its prepared value is [`Counts`] alone. `toy-lister` only lists (with the DLX):
//! its prepared value is [`Lists`] (and so [`FindsOne`]) alone, and a count with it is
//! its listing, counted.
//!
//! Invariant: their counts and solutions are the DLX's.

use std::ops::ControlFlow;

use super::native::Native;
use super::{Algorithm, Counts, FindsOne, Goal, Lists, Problem, Report, RunOptions, Scope, Within};
use crate::error::Result;
use crate::subproblems::Step;

/// The counting-only toy.
#[derive(Debug)]
pub(super) struct Toy;

/// The listing-only toy.
#[derive(Debug)]
pub(super) struct Lister;

/// A toy prepared: the DLX prepared, of which it shows one ability.
struct PreparedToy<'p> {
    name: &'static str,
    dlx: Box<dyn super::Prepared + 'p>,
}

impl Algorithm for Toy {
    fn name(&self) -> &'static str {
        "toy"
    }

    fn prepare<'p>(&self, problem: &'p Problem) -> Result<Box<dyn super::Prepared + 'p>> {
        let dlx = Native::DLX.prepare(problem)?;
        Ok(Box::new(Counter(PreparedToy { name: "toy", dlx })))
    }
}

impl Algorithm for Lister {
    fn name(&self) -> &'static str {
        "toy-lister"
    }

    fn prepare<'p>(&self, problem: &'p Problem) -> Result<Box<dyn super::Prepared + 'p>> {
        let dlx = Native::DLX.prepare(problem)?;
        Ok(Box::new(Listing(PreparedToy {
            name: "toy-lister",
            dlx,
        })))
    }
}

struct Counter<'p>(PreparedToy<'p>);

impl super::Prepared for Counter<'_> {
    fn name(&self) -> &'static str {
        self.0.name
    }

    fn describe(&self, _goal: Goal) -> Vec<String> {
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

struct Listing<'p>(PreparedToy<'p>);

impl super::Prepared for Listing<'_> {
    fn name(&self) -> &'static str {
        self.0.name
    }

    fn describe(&self, _goal: Goal) -> Vec<String> {
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
        scope: Option<Scope<'_>>,
        f: &mut dyn FnMut(Step<'_>) -> ControlFlow<()>,
    ) -> Result<Report> {
        let lists = self.0.dlx.lists().expect("the dlx lists");
        lists.for_each(opts, scope, f)
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
    use crate::stop::Stop;

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
        assert!(matches!(err, crate::error::Error::Usage(_)), "{err}");
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

    /// The abilities past counting and listing are types too: each registered engine
    /// hands out what it can (the memo draws, the dancing links measure their tree,
    /// varisat refutes with a proof), and the others refuse with a reason that names
    /// the engine that can.
    #[test]
    fn sampling_proofs_and_tree_measures_are_abilities() {
        let soma = Problem::load("soma", None).unwrap();
        let prepared = |name: &str| Engine::from_name(name).unwrap();
        for name in Engine::bench_names() {
            let engine = prepared(name);
            if engine.available().is_err() {
                continue;
            }
            let p = engine.prepare(&soma).unwrap();
            let memo = matches!(name, "memo" | "frontier");
            assert_eq!(p.samples().is_some(), memo, "{name}");
            assert_eq!(p.measures().is_some(), name == "dlx", "{name}");
            assert_eq!(p.refutes().is_some(), p.name() == "sat-varisat", "{name}");
            if p.samples().is_none() {
                let why = p.sampler().err().unwrap().to_string();
                assert!(
                    why.ends_with("solver memo does, from its table of counts"),
                    "{why}"
                );
            }
            if p.refutes().is_none() {
                let why = p.refuter().err().unwrap().to_string();
                assert!(
                    why.starts_with(&format!("{} writes no proof: ", p.name())),
                    "{why}"
                );
            }
        }
        let memo = prepared("memo").prepare(&soma).unwrap();
        let never = || false;
        let mut sampler = memo.sampler().unwrap().draws(7, 1 << 26, &never).unwrap();
        assert_eq!(sampler.solutions().to_string(), "480");
        assert!(sampler.draw().unwrap().is_some());
        let varisat = prepared("sat-varisat").prepare(&soma).unwrap();
        let mut proof = Vec::new();
        let answer = varisat
            .refuter()
            .unwrap()
            .refute(&RunOptions::default(), &mut proof)
            .unwrap();
        assert!(matches!(answer, crate::sat::Refutation::Satisfiable(_)));
    }

    /// A certificate's shape is what an engine declares ([`crate::engine::Certifies`]),
    /// not its name (issue 63): the toy engines declare none and are refused, in words
    /// that list the engines that do, read from their declarations.
    #[test]
    fn a_certificate_comes_from_what_an_engine_declares() {
        let soma = Problem::load("soma", Some(crate::puzzle::SymmetryMode::None)).unwrap();
        let dir = std::env::temp_dir().join(format!("polycover-toy-cert-{}", std::process::id()));
        let toy = Engine::from_name("toy").unwrap();
        assert!(toy.algorithm().certifies().is_none());
        let why =
            crate::certify::Certificate::write(&soma, &toy, &Stop::new(), None, &dir, &|_| {})
                .expect_err("refused")
                .to_string();
        assert!(why.contains("memo, frontier"), "{why}");
        assert!(why.ends_with("not toy"), "{why}");
        assert!(!dir.exists());
        for name in Engine::solver_names() {
            let declared = Engine::from_name(name).unwrap().algorithm().certifies();
            assert_eq!(declared.is_some(), !name.starts_with("toy"), "{name}");
        }
    }
}
