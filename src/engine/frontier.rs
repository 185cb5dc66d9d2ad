//! The frontier engine (`--solver frontier`): the memo's count of a sweep made layer by
//! layer, a broken-profile DP ([`crate::solver::memo`]'s `profile`). A layer's state is
//! which cells of the frontier are covered and how many copies of each piece are left,
//! so the count's work grows with the widest frontier's patterns, not with the
//! solutions.
//!
//! Its one setting is the sweep ([`Sweep`]): the order the layers take the cells in.
//! Where the layers do not apply (some piece has no copies, or a state does not fit a
//! word) it counts with the memo's search, and its `describe` says so.
//!
//! Invariants: it counts what the memo counts (the same plan, Burnside classes
//! included), and its certificate is the memo's table shape ([`super::Certifies::Table`]).

use super::memo::{Memo, PreparedMemo};
use super::{Algorithm, Declared, Engine, Prepared, Problem};
use crate::error::Result;
use crate::setting::Setting;
use crate::solver::memo::Sweep;

/// The frontier engine, with the sweep its layers take.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Frontier {
    sweep: Sweep,
}

impl Algorithm for Frontier {
    fn name(&self) -> &'static str {
        super::names::FRONTIER
    }

    /// Its layers' states, shared: the certificate follows the layers.
    fn certifies(&self) -> Option<super::Certifies> {
        Some(super::Certifies::Table)
    }

    fn settings(&self) -> Vec<Declared> {
        vec![Declared {
            setting: Setting::Sweep,
            values: Sweep::ALL.iter().map(|s| (s.name(), s.help())).collect(),
            default: Some(self.sweep.name()),
            help: "the order the layers take the cells in: the narrower its widest \
                   frontier, the fewer states a layer holds",
        }]
    }

    fn configure(&self, pairs: &[(Setting, &str)]) -> Result<Engine> {
        let mut sweep = self.sweep;
        for &(setting, value) in pairs {
            debug_assert_eq!(setting, Setting::Sweep, "the one setting declared");
            sweep = *Sweep::ALL
                .iter()
                .find(|s| s.name() == value)
                .expect("a declared value");
        }
        Ok(Engine::new(Frontier { sweep }))
    }

    fn setting(&self, setting: Setting) -> Option<String> {
        (setting == Setting::Sweep).then(|| self.sweep.name().to_string())
    }

    /// Its layers are one sweep, not subproblems that end one by one: the memo's search
    /// is.
    fn instead_for_checkpoint(&self) -> Option<Engine> {
        Some(Engine::new(Memo))
    }

    fn prepare<'p>(&self, problem: &'p Problem) -> Result<Box<dyn Prepared + 'p>> {
        Ok(Box::new(PreparedMemo::new(
            problem,
            self.name(),
            Some(self.sweep),
        )))
    }
}
