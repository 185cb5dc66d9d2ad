//! One measured run of an in-process engine ([`sample`]: the compile, the first solution
//! on one thread, the count on the plan's threads), in this process or in the fresh
//! process that `isolate` starts, and the repeated runs of one row folded into it
//! ([`Samples`]).
//!
//! Invariants: the peak memory is read after [`memory::reset_peak`], before anything
//! else is built (the CNF's size is counted after it); the CPU time is read just before
//! and just after the count, so it is the count's alone.

use std::time::{Duration, Instant};

use super::{external, interrupted, scaling, CnfSize, Row, Spread};
use crate::memory;
use crate::Stop;
use polycover::Count;
use polycover::Engine;
use polycover::Result;
use polycover::RunOptions;
use polycover::{Puzzle, SymmetryMode};

/// One run of an in-process engine: what a fresh process reports to `bench`.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Sample {
    /// Seconds to compile: the matrix, the reduction, and the CNF of a SAT engine.
    pub compile: f64,
    /// Seconds to the first solution, when there is one.
    pub first: Option<f64>,
    /// Seconds to prove that there is no solution, when there is none.
    pub unsat: Option<f64>,
    /// Seconds the count took (until the timeout, if it stopped it); `None` for an
    /// engine that finds only the first solution (Kissat).
    pub count: Option<f64>,
    /// CPU seconds (user+sys) of the process during the count, where the system tells.
    #[serde(default)]
    pub count_cpu: Option<f64>,
    pub solutions: Count,
    pub complete: bool,
    /// The CNF's size, for a SAT engine.
    pub cnf: Option<CnfSize>,
    /// Peak resident memory of the run, in MiB (Linux only).
    pub peak_mib: Option<f64>,
}

/// One run of an in-process engine in this process. Its peak memory is read after
/// [`memory::reset_peak`]; in a fresh process that is the run's own.
pub(crate) fn sample(
    puzzle: &Puzzle,
    engine: &Engine,
    mode: SymmetryMode,
    threads: usize,
    timeout: Duration,
    stop: &Stop,
) -> Result<Sample> {
    memory::reset_peak();
    let t = Instant::now();
    let problem = puzzle.compile(mode)?;
    let prepared = engine.prepare(&problem)?;
    prepared.build_ahead();
    let mut sample = Sample {
        compile: t.elapsed().as_secs_f64(),
        ..Sample::default()
    };
    // The row's CNF size is counted after the peak is read: counting it compiles the CNF
    // once more, and with the prepared engine's copy alive that second copy made Soma's
    // pairwise row read 59 MiB instead of 44.
    let cnf_size = |sample: &mut Sample| -> Result<()> {
        if let Some(amo) = crate::bench::amo_of(engine) {
            sample.cnf = Some(external::cnf_size(&problem, amo)?);
        }
        Ok(())
    };
    // An engine that only counts has no first solution to time.
    if let Some(finds) = prepared.finds_one() {
        let (first, report) = finds.first(&RunOptions {
            stop: stop.within(timeout),
            ..RunOptions::default()
        })?;
        interrupted(report.interrupted)?;
        if first.is_some() {
            sample.first = Some(report.seconds);
        } else if report.complete {
            // The whole search ran and found nothing: a time to UNSAT, not to a solution.
            sample.unsat = Some(report.seconds);
        }
    }
    // An engine that finds only the first solution has no count to time; its search
    // for the first was complete when it proved that there is none.
    let Ok(counter) = prepared.counter() else {
        sample.complete = sample.unsat.is_some();
        sample.peak_mib = memory::peak_mib(None);
        cnf_size(&mut sample)?;
        return Ok(sample);
    };
    let cpu_before = scaling::process_cpu_seconds();
    let report = counter.count(
        &RunOptions {
            threads,
            stop: stop.within(timeout),
            ..RunOptions::default()
        },
        None,
    )?;
    let cpu_after = scaling::process_cpu_seconds();
    interrupted(report.interrupted)?;
    sample.count = Some(report.seconds);
    sample.count_cpu = cpu_before.zip(cpu_after).map(|(a, b)| (b - a).max(0.0));
    sample.solutions = report.solutions.clone();
    sample.complete = report.complete;
    sample.peak_mib = memory::peak_mib(None);
    cnf_size(&mut sample)?;
    Ok(sample)
}

/// The repeated measurements of one in-process row.
#[derive(Default)]
pub(super) struct Samples {
    compile: Vec<f64>,
    first: Vec<f64>,
    unsat: Vec<f64>,
    count: Vec<f64>,
    cpu: Vec<f64>,
    peak: Option<f64>,
    last: Option<Sample>,
}

impl Samples {
    pub(super) fn add(&mut self, s: Sample) {
        self.compile.push(s.compile);
        self.first.extend(s.first);
        self.unsat.extend(s.unsat);
        self.count.extend(s.count);
        self.cpu.extend(s.count_cpu);
        self.peak = external::higher(self.peak, s.peak_mib.filter(|&p| p > 0.0));
        self.last = Some(s);
    }

    /// Folds the samples into the row (medians with min and max; the count of the last
    /// run).
    pub(super) fn into_row(self, mut row: Row) -> Row {
        row.compile = Spread::of(self.compile);
        row.first = Spread::of(self.first);
        row.unsat = Spread::of(self.unsat);
        row.count = Spread::of(self.count);
        row.cpu = Spread::of(self.cpu);
        row.peak_mib = self.peak;
        if let Some(last) = self.last {
            row.cnf = last.cnf;
            // A first-only row that found a solution counted nothing.
            row.solutions = (last.count.is_some() || last.complete).then(|| last.solutions.clone());
            row.complete = last.complete;
        }
        if !row.complete {
            row.status = if row.count.is_none() && row.first.is_some() {
                "first only".into()
            } else {
                "timeout".into()
            };
        }
        row
    }
}
