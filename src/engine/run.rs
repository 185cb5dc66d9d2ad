//! How a run runs and what it did: the options every engine reads, the report every
//! engine writes, and the scope of a split count.
//!
//! Invariant: a [`Report`] with `complete == false` holds a lower bound; callers never
//! present it as a count.

use crate::count::Count;
use crate::parts::Split;
use crate::stop::Stop;
use crate::subproblems::{Progress, Step};

/// The most worker threads a run takes: more only costs memory and start-up time.
pub(crate) const MAX_THREADS: usize = 1024;

/// How a run runs.
#[derive(Clone)]
pub struct RunOptions<'a> {
    /// Worker threads for counts and SAT enumerations; a native enumeration runs on the
    /// caller's thread.
    pub threads: usize,
    /// When to stop: its flag raised (from another thread: Ctrl-C) or its deadline
    /// passed; the report is then incomplete. Every run polls its own.
    pub stop: Stop,
    /// Called as parts of the search finish.
    pub progress: Option<&'a (dyn Fn(&Progress) + Sync)>,
    /// The most bytes a table of subproblem counts may take (a memo); past it, the
    /// engine forgets entries, it never stops.
    pub memory: usize,
}

impl RunOptions<'_> {
    /// The most worker threads a run takes: more only costs memory and start-up time.
    pub const MAX_THREADS: usize = MAX_THREADS;
}

impl Default for RunOptions<'_> {
    fn default() -> Self {
        RunOptions {
            threads: 1,
            stop: Stop::new(),
            progress: None,
            memory: crate::memory::default_table_budget(),
        }
    }
}

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// Distinct solutions found (all of them when `complete`).
    pub solutions: Count,
    /// The search ran to the end.
    pub complete: bool,
    /// Its stop was raised (Ctrl-C in the binary).
    pub interrupted: bool,
    /// The deadline stopped it.
    pub timed_out: bool,
    /// Wall-clock seconds the run took.
    pub seconds: f64,
    /// The engine's own statistics, one line: nodes, or cubes, solver calls, decisions.
    pub statistics: String,
    /// Parts of the search finished, of all (subproblems or cubes; 0 of 0 when the
    /// engine does not split).
    pub parts_done: u64,
    /// All the parts the search was split into (see `parts_done`).
    pub parts: u64,
    /// Worker threads the search ran on: those asked for a native count; for SAT the
    /// solvers that ran (one for a plain search, at most one per cube).
    pub threads: usize,
}

/// Some subproblems of a split, to run instead of the whole search: a part, or what a
/// checkpoint has left of one.
#[derive(Clone, Copy)]
pub struct Scope<'a> {
    /// The split the subproblems belong to; its prefixes are options of the original
    /// matrix.
    pub split: &'a Split,
    /// Indices of the split's subproblems, in the order to run them.
    pub subproblems: &'a [usize],
}

impl Scope<'_> {
    /// `step` of a run over these subproblems, told in the split's numbering: a run
    /// numbers its subproblems by position in [`Scope::subproblems`].
    pub(crate) fn in_split<'s>(&self, step: Step<'s>) -> Step<'s> {
        match step {
            Step::Finished {
                subproblem,
                solutions,
            } => Step::Finished {
                subproblem: self.subproblems[subproblem],
                solutions,
            },
            solution => solution,
        }
    }
}
