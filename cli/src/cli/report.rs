//! The `c` and `s` lines of the searching commands, and the progress bar.
//!
//! Output follows the SAT conventions: diagnostics on `c ` lines, answers on `s ` lines.
//!
//! Invariants:
//! - A count that did not finish is no answer: `c` lines and `s UNKNOWN`, never `s mc`.
//! - `s mc N` of a whole count comes after its `[expect]` verdict; a count that differs
//!   from `[expect]` is a failure (exit 1), after both lines are written.
//! - The lines that say what runs are flushed before the run: a long run says what it
//!   is doing.
//! - The progress bar only ever draws on a terminal's standard error.

use std::io::{self, IsTerminal, Write};

use super::outcome::Outcome;
use crate::checkpoint::Checkpoint;
use crate::engine::Goal;
use crate::engine::{Prepared, Progress};
use crate::part_result::PartResult;
use crate::part_result::PartSpec;
use polycover::Count;
use polycover::Problem;
use polycover::Report;
use polycover::Split;
use polycover::{Error, Result};

/// The `c` lines that say what runs on what.
pub(super) fn header(
    out: &mut dyn Write,
    p: &Problem,
    prepared: &dyn Prepared,
    goal: Goal,
) -> Result<()> {
    header_why(out, p, prepared, goal, None)
}

/// [`header`], with why the engine was chosen (when the command chose it) on the
/// `c solver` line.
pub(super) fn header_why(
    out: &mut dyn Write,
    p: &Problem,
    prepared: &dyn Prepared,
    goal: Goal,
    why: Option<&str>,
) -> Result<()> {
    writeln!(out, "c polycover {}", env!("CARGO_PKG_VERSION"))?;
    // Which file was read: a local file may share its name with a catalog entry.
    writeln!(
        out,
        "c puzzle {} (from {})",
        p.puzzle().name(),
        p.puzzle().source()
    )?;
    writeln!(
        out,
        "c matrix {}, {}; searching {}",
        polycover::Count::plural(p.matrix().num_items(), "item", "items"),
        polycover::Count::plural(p.matrix().num_options(), "option", "options"),
        polycover::Count::plural(p.reduced().num_options(), "option", "options")
    )?;
    let pinned = match (p.symmetries(), p.pinned_item()) {
        (1, _) => "none".to_string(),
        (_, None) => "none (canonical check over the whole group)".to_string(),
        (_, Some(i)) => p.matrix().items()[i as usize].name.clone(),
    };
    writeln!(
        out,
        "c symmetry {} (group order {}), pinned item {pinned}",
        p.mode().as_str(),
        p.symmetries()
    )?;
    for (k, line) in prepared.describe(goal).iter().enumerate() {
        match why {
            Some(why) if k == 0 => writeln!(out, "c {line} ({why})")?,
            _ => writeln!(out, "c {line}")?,
        }
    }
    out.flush()?;
    Ok(())
}

/// `c split K/N: ...` and, when a checkpoint continues, what it had.
pub(super) fn part_header(
    out: &mut dyn Write,
    spec: PartSpec,
    split: &Split,
    mine: &[usize],
    checkpoint: Option<&Checkpoint>,
) -> Result<()> {
    writeln!(
        out,
        "c split {spec}: {} of {} subproblems, fingerprint {}",
        mine.len(),
        split.len(),
        split.fingerprint()
    )?;
    if let Some(cp) = checkpoint {
        let done = mine.iter().filter(|&&j| cp.is_done(j)).count();
        writeln!(
            out,
            "c checkpoint {}: {done} of {} subproblems done before, {} solutions",
            cp.path().display(),
            mine.len(),
            cp.solutions()
        )?;
    }
    out.flush()?;
    Ok(())
}

/// `, peak memory N MiB` where the system says (Linux), else nothing.
pub(super) fn peak_memory() -> String {
    polycover_lab::memory::peak_mib(None)
        .map_or(String::new(), |m| format!(", peak memory {m:.1} MiB"))
}

/// Why a run that did not finish stopped, for its `c stopped...` line.
pub(super) fn stopped_by(report: &Report) -> String {
    if report.interrupted {
        format!(" by {}", crate::signals::cause())
    } else if report.timed_out {
        " by the timeout".into()
    } else {
        String::new()
    }
}

/// What a count covered, for the lines that end it.
pub(super) enum Counted {
    /// The whole search in one run; the engine's cubes are shown when it made some.
    Whole,
    /// A part of a split (`--part`, or a checkpointed run, part 1/1).
    Part {
        spec: PartSpec,
        /// The part's count, with what a checkpoint recorded before this run.
        total: Count,
        /// How to continue a stopped run (a checkpoint's line).
        resume: Option<String>,
        /// The `c part` line for `merge` (with `--part`).
        result: Option<PartResult>,
    },
}

/// The end of a count: the `c threads` line, then `c stopped` and `s UNKNOWN` for a run
/// that did not finish, or the part's `c part` line and, for the whole search, `s mc`.
pub(super) fn count_end(
    out: &mut dyn Write,
    p: &Problem,
    report: &Report,
    asked_threads: usize,
    counted: &Counted,
) -> Result<Outcome> {
    let cubes = matches!(counted, Counted::Whole) && report.parts > 0;
    let total = match counted {
        Counted::Whole => &report.solutions,
        Counted::Part { total, .. } => total,
    };
    writeln!(
        out,
        "c threads {}, time {:.3} s, {}{}{}",
        threads_used(report.threads, asked_threads),
        report.seconds,
        if cubes {
            format!("cubes {} of {}, ", report.parts_done, report.parts)
        } else {
            String::new()
        },
        report.statistics,
        peak_memory()
    )?;
    if !report.complete {
        let place = match counted {
            Counted::Whole if cubes => {
                format!(", in {} of {} cubes", report.parts_done, report.parts)
            }
            Counted::Whole => String::new(),
            Counted::Part { spec, .. } => format!(" in part {spec}"),
        };
        writeln!(
            out,
            "c stopped{}: {} so far{place}",
            stopped_by(report),
            polycover::Count::solutions(total)
        )?;
        if let Counted::Part {
            resume: Some(line), ..
        } = counted
        {
            writeln!(out, "{line}")?;
        }
        writeln!(out, "s UNKNOWN")?;
        return Ok(Outcome::unfinished(report));
    }
    match counted {
        Counted::Whole => whole_count(out, p, total),
        Counted::Part { spec, result, .. } => {
            if let Some(result) = result {
                writeln!(out, "{result}")?;
            }
            if spec.n == 1 {
                whole_count(out, p, total)
            } else {
                Ok(Outcome::Done)
            }
        }
    }
}

/// The end of a whole count: the `[expect]` verdict and `s mc N`.
fn whole_count(out: &mut dyn Write, p: &Problem, solutions: &Count) -> Result<Outcome> {
    let expected = p.puzzle().expected(p.mode());
    if let Some(expected) = expected {
        let verdict = if expected == solutions {
            "matches"
        } else {
            "DIFFERS"
        };
        writeln!(out, "c expected {expected} ({verdict})")?;
    }
    writeln!(out, "s mc {solutions}")?;
    match expected {
        Some(e) if e != solutions => Err(Error::Failed(format!(
            "{}: {}: counted {}, but the puzzle file's [expect] says {e} ({})",
            p.puzzle()
                .expected_at(p.mode())
                .unwrap_or(p.puzzle().source()),
            p.puzzle().name(),
            polycover::Count::solutions(solutions),
            p.mode().as_str()
        ))),
        _ => Ok(Outcome::Done),
    }
}

/// The threads that ran, for the `c threads` line: a plain SAT search runs one solver,
/// whatever was asked, and the line must not claim more.
fn threads_used(ran: usize, asked: usize) -> String {
    if ran == asked {
        format!("{ran}")
    } else {
        format!("{ran} (of {asked} asked)")
    }
}

/// Steps of the bar: it moves by the estimated work done, so that its ETA follows the work
/// and not the count of subproblems, whose sizes differ by orders of magnitude.
const BAR_STEPS: u64 = 10_000;

/// A progress bar on a terminal's standard error, or nothing elsewhere. It stays hidden
/// until the first report gives it a length: an empty total would draw as a full bar
/// ("0/0").
pub(super) struct Bar(Option<indicatif::ProgressBar>);

impl Bar {
    pub(super) fn new() -> Bar {
        Bar(io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::hidden();
            bar.set_style(
                indicatif::ProgressStyle::with_template(
                    "c {bar:30} {prefix}, {msg}, {elapsed} elapsed, eta {eta}",
                )
                .expect("a valid template"),
            );
            bar
        }))
    }

    /// Moves the bar to where `q` says the run stands, with `message(q)` after the part
    /// counts.
    pub(super) fn show(&self, q: &Progress, message: impl FnOnce(&Progress) -> String) {
        let Some(bar) = &self.0 else { return };
        if q.parts == 0 {
            return;
        }
        bar.set_length(BAR_STEPS);
        bar.set_position((q.work.clamp(0.0, 1.0) * BAR_STEPS as f64) as u64);
        bar.set_prefix(format!("{}/{} {}", q.parts_done, q.parts, q.unit));
        bar.set_message(message(q));
        if bar.is_hidden() {
            bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
        }
    }

    /// Whether the bar draws at all (standard error is a terminal): runs without one
    /// need no progress reports, nor the estimate of work behind them.
    pub(super) fn draws(&self) -> bool {
        self.0.is_some()
    }

    pub(super) fn finish(self) {
        if let Some(bar) = self.0 {
            bar.finish_and_clear();
        }
    }
}
