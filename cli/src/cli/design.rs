//! `polycover design`: the arguments in, the design search (`polycover::design`) run with
//! the bitset engine as its counter, the best puzzle out.
//!
//! Invariants:
//! - every output path is checked before the search begins;
//! - the puzzle is written however the search ends (unique, `--timeout`, Ctrl-C), with a
//!   header saying how it was made and `[expect]` where its count is exact; the exit code
//!   says how it ended: 0 unique, 1 stopped by `--timeout` before a unique puzzle,
//!   128 + the signal at Ctrl-C (130) or another stop signal;
//! - `--maximize nodes` needs `--timeout` (the climb's end); its puzzle is unique, the
//!   hardest the climb found, and it exits 0 at the deadline like a unique design;
//! - the header's command names every option that changes the search or the file, and
//!   every option another requires (`--timeout` with `--maximize nodes`): it runs again
//!   as written;
//! - `--report` measures the puzzle that is written (`design::difficulty`, up to
//!   rotations), before writing it, into `c difficulty` lines on standard error and a
//!   comment in the file; a stop during the measures writes the puzzle without them.

use super::context::Context;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

use super::args::{DesignArgs, DesignStrategyArg, CAP};
use super::engines;
use super::outcome::Outcome;
use crate::design::{self, Ending, Event, Request, Strategy};
use crate::engine::Difficulty;
use crate::output;
use polycover::RunOptions;
use polycover::{Error, Result};
use polycover::{Puzzle, SymmetryMode};

/// Seconds between progress lines.
const PROGRESS_SECONDS: f64 = 10.0;

pub(super) fn design(a: DesignArgs, ctx: &Context, out: &mut dyn Write) -> Result<Outcome> {
    let inputs: Vec<&Path> = a
        .from
        .iter()
        .chain(a.keep.iter())
        .map(|p| p.as_path())
        .collect();
    check_outputs(&a, &inputs)?;
    let deadline = super::args::deadline(a.started, a.timeout);
    let request = request(&a, ctx, deadline)?;
    let command = command_line(&a, request.size, request.pieces, request.sizes);
    let _listening = request.stop.listen();
    let engine = engines::for_design();
    let count = |puzzle: &Puzzle, at_most: u64| -> Result<Option<u64>> {
        let problem = puzzle.compile(SymmetryMode::Rotations)?;
        let opts = RunOptions {
            stop: request.stop.clone(),
            ..RunOptions::default()
        };
        let (found, report) = problem.count_up_to(&engine, &opts, at_most)?;
        if report.interrupted {
            return Err(Error::Interrupted(format!(
                "after {}",
                polycover::Count::solutions(found)
            )));
        }
        Ok((found >= at_most || report.complete).then_some(found))
    };
    let mut progress = designing();
    let mut designed = request.design(&command, &count, &mut progress)?;
    if let Some(measure) = a.maximize.measure() {
        designed = request.maximize(designed, measure, &count, &mut climbing())?;
    }
    let (text, measured) = report(&a, &designed, ctx)?;
    // Within the deadline: a FIFO output's reader is waited for until then, no longer.
    let narrowed = ctx.narrowed(deadline);
    output::write_records(narrowed.stop(), &a.output, out, &inputs, &mut |w| {
        w.write_all(text.as_bytes())?;
        Ok(output::Ended::Finished)
    })?;
    eprintln!(
        "c design: {} after {} tried ({} accepted) in {:.1} s: {}",
        match designed.ending {
            Ending::Unique => "unique",
            Ending::Deadline => "stopped by --timeout",
            Ending::Interrupted => "interrupted",
        },
        moves(designed.tried),
        designed.accepted,
        designed.seconds,
        designed.score
    );
    if let Some(path) = &a.curve {
        // Written however the search ended, as the puzzle is.
        output::write_records(narrowed.stop(), path, out, &inputs, &mut |w| {
            w.write_all(curve_csv(&designed.curve).as_bytes())?;
            Ok(output::Ended::Finished)
        })?;
    }
    match designed.walks {
        1 => eprintln!("c threads 1: one walk"),
        n => eprintln!("c threads {n}: {n} walks side by side, sharing the best puzzle"),
    }
    match &measured {
        Some(Ok(d)) => eprintln!("c difficulty: {} ({:.1} s)", d.line(), d.seconds),
        Some(Err(why)) => eprintln!("c difficulty: {why}"),
        None => {}
    }
    // A stop during the measures ends the command as a stop during the search does.
    let stop = match measured {
        Some(Err(_)) => Ending::Interrupted,
        _ => designed.ending,
    };
    match &a.svg {
        // A stopped process searches no more: the picture is not drawn.
        Some(_) if stop == Ending::Interrupted => {
            eprintln!("c design: interrupted, no --svg picture drawn");
        }
        Some(svg) => picture(&designed.text, svg, out, ctx, &narrowed)?,
        None => {}
    }
    Ok(match stop {
        Ending::Unique => Outcome::Done,
        Ending::Deadline => Outcome::Stopped,
        Ending::Interrupted => Outcome::Interrupted,
    })
}

/// Refuses, before the search, an output that would overwrite an input or the other
/// output, and `--maximize` without the deadline that ends its climb.
fn check_outputs(a: &DesignArgs, inputs: &[&Path]) -> Result<()> {
    output::check_writable(&a.output, inputs)?;
    if let Some(svg) = &a.svg {
        output::check_writable(svg, inputs)?;
        output::check_not_same(&a.output, svg, "-o", "--svg")?;
    }
    if let Some(curve) = &a.curve {
        output::check_writable(curve, inputs)?;
        output::check_not_same(&a.output, curve, "-o", "--curve")?;
        if let Some(svg) = &a.svg {
            output::check_not_same(svg, curve, "--svg", "--curve")?;
        }
    }
    if let (Some(measure), None) = (a.maximize.measure(), a.timeout) {
        return Err(Error::Usage(format!(
            "design --maximize {} needs --timeout SECONDS: the climb to a harder unique \
             puzzle goes on until then",
            measure.name()
        )));
    }
    Ok(())
}

/// The design search `a` asks for: the box and pieces (from `--from`'s puzzle, or
/// `--box` and `--pieces`), the pieces' sizes, the pieces to keep and the rules.
fn request(a: &DesignArgs, ctx: &Context, deadline: Option<Instant>) -> Result<Request> {
    let (size, start) = match &a.from {
        Some(path) => {
            let (size, pieces) = first_cut(path, ctx)?;
            (size, Some(pieces))
        }
        None => {
            let Some(size) = a.box_size else {
                return Err(Error::Usage(
                    "design needs --box X,Y,Z and --pieces N, or --from FILE".into(),
                ));
            };
            if a.pieces.is_none() {
                return Err(Error::Usage("design needs --pieces N with --box".into()));
            };
            (size, None)
        }
    };
    let pieces = start.as_ref().map_or(a.pieces.unwrap_or(0), Vec::len);
    let sizes = a.sizes.unwrap_or_else(|| match &start {
        // A puzzle's own pieces set the bounds: no piece is out of them.
        Some(cut) => (
            cut.iter().map(Vec::len).min().unwrap_or(1),
            cut.iter().map(Vec::len).max().unwrap_or(1),
        ),
        None => polycover::kinds::Generator::default_sizes(size, pieces),
    });
    let keep = match &a.keep {
        Some(path) => piece_cells(&Puzzle::load(path)?, path)?,
        None => Vec::new(),
    };
    Ok(Request {
        size,
        pieces,
        sizes,
        seed: a.seed,
        allow_duplicates: a.allow_duplicates,
        chiral: a.chiral,
        flat: a.flat_pieces,
        start,
        keep,
        stop: ctx.stop().until(deadline),
        strategy: match a.strategy {
            DesignStrategyArg::Climb => Strategy::Climb,
            DesignStrategyArg::Anneal => Strategy::Anneal,
        },
        cap: a.cap,
        prefer_placements: !a.uniform_moves,
        threads: threads(a),
    })
}

/// The curve of the best score, as `--curve` writes it.
fn curve_csv(curve: &[(f64, design::Score)]) -> String {
    let mut csv = String::from("seconds,faults,solutions,kind\n");
    for (seconds, s) in curve {
        let kind = if s.estimated {
            "about"
        } else if s.capped {
            "at-least"
        } else {
            "exact"
        };
        csv.push_str(&format!(
            "{seconds:.3},{},{},{kind}\n",
            s.faults, s.solutions
        ));
    }
    csv
}

/// The walks `a` asks for: `--threads`, or every core.
fn threads(a: &DesignArgs) -> usize {
    a.threads.unwrap_or_else(RunOptions::default_threads)
}

/// The design search's progress lines: each better score, and every
/// [`PROGRESS_SECONDS`] the state of the search.
fn designing() -> impl FnMut(&Event) {
    let mut said = 0.0;
    move |event: &Event| {
        let Event::Moved {
            seconds,
            best,
            tried,
            accepted,
            improved,
        } = *event
        else {
            return;
        };
        if improved {
            eprintln!(
                "c design: {seconds:.1} s, best {best}, {} tried",
                moves(tried)
            );
        }
        if seconds >= said + PROGRESS_SECONDS {
            said = seconds - seconds % PROGRESS_SECONDS;
            eprintln!(
                "c design: {seconds:.0} s, best {best}, {} tried, {accepted} accepted",
                moves(tried)
            );
        }
    }
}

/// `n moves`, or `1 move`.
pub(super) fn moves(n: impl std::fmt::Display) -> String {
    polycover::Count::plural(n, "move", "moves")
}

/// The progress lines of `--maximize`: at each harder puzzle, and every 10 s.
fn climbing() -> impl FnMut(&Event) {
    let mut said = 0.0;
    move |event: &Event| {
        let Event::Climbed {
            seconds,
            measure,
            best,
            first,
            tried,
            accepted,
            improved,
        } = *event
        else {
            return;
        };
        if improved || seconds >= said + PROGRESS_SECONDS {
            said = seconds - seconds % PROGRESS_SECONDS;
            eprintln!(
                "c design --maximize: {seconds:.1} s, most {} {best} (first {first}), {} \
                 tried, {accepted} accepted",
                measure.words(),
                moves(tried)
            );
        }
    }
}

/// The text to write, and with `--report` the measures of the designed puzzle (or why
/// there are none): a stopped design is not measured, and a stop during the measures
/// leaves the text as it was.
fn report(
    a: &DesignArgs,
    designed: &design::Designed,
    ctx: &Context,
) -> Result<(String, Option<std::result::Result<Difficulty, String>>)> {
    if !a.report {
        return Ok((designed.text.clone(), None));
    }
    if designed.ending == Ending::Interrupted {
        let why = "interrupted, not measured".to_string();
        return Ok((designed.text.clone(), Some(Err(why))));
    }
    let puzzle = Puzzle::parse("the designed puzzle", &designed.text)?;
    let problem = puzzle.compile(SymmetryMode::Rotations)?;
    match engines::difficulty(&problem, ctx.stop()) {
        Ok(Some(d)) => Ok((d.annotated(&designed.text), Some(Ok(d)))),
        Ok(None) | Err(Error::Interrupted(_)) => {
            let why = "interrupted, the puzzle is written without its measures".to_string();
            Ok((designed.text.clone(), Some(Err(why))))
        }
        Err(e) => Err(e),
    }
}

/// The pieces of the polycube puzzle in `puzzle`, each as its cells, or a usage error
/// naming `path`.
fn piece_cells(puzzle: &Puzzle, path: &Path) -> Result<Vec<Vec<Cell>>> {
    puzzle.piece_cells().ok_or_else(|| {
        Error::Usage(format!(
            "design: {} is not a polycube puzzle",
            path.display()
        ))
    })
}

/// A cell: its x, y and z.
type Cell = [i32; 3];

/// The box of the polycube puzzle at `path` and its first solution as a cut (the cells of
/// each piece copy); refused unless the target is a whole box from the origin, every
/// cell covered, and the puzzle has a solution.
fn first_cut(path: &Path, ctx: &Context) -> Result<([usize; 3], Vec<Vec<Cell>>)> {
    let puzzle = Puzzle::load(path)?;
    piece_cells(&puzzle, path)?;
    let Some(size) = puzzle.filled_box() else {
        return Err(Error::Usage(format!(
            "design --from {}: the puzzle must fill a box from [0,0,0] (no holes, no \
             optional cells, no mirror)",
            path.display()
        )));
    };
    let problem = puzzle.compile(SymmetryMode::Rotations)?;
    let prepared = engines::prepare(&problem, &engines::for_design())?;
    let (first, _) = engines::first(prepared.finder()?, &engines::run_options(ctx))?;
    let Some(solution) = first else {
        return Err(Error::Usage(format!(
            "design --from {}: the puzzle has no solution to start from",
            path.display()
        )));
    };
    let cut = puzzle.placed_cells(&solution).expect("a polycube puzzle");
    Ok((size, cut))
}

/// The command line named in the puzzle's header: every option that shapes the puzzle
/// or the file, or that another requires, so that the line runs again as it stands
/// (only the outputs, `-o` and `--svg`, are left out).
fn command_line(a: &DesignArgs, size: [usize; 3], pieces: usize, sizes: (usize, usize)) -> String {
    let [x, y, z] = size;
    let mut line = match &a.from {
        Some(path) => format!("polycover design --from {}", path.display()),
        None => format!("polycover design --box {x},{y},{z} --pieces {pieces}"),
    };
    line.push_str(&format!(
        " --sizes {}-{} --seed {}",
        sizes.0, sizes.1, a.seed
    ));
    for (on, flag) in [
        (a.allow_duplicates, " --allow-duplicates"),
        (a.chiral, " --chiral"),
        (a.flat_pieces, " --flat-pieces"),
        (
            a.strategy == DesignStrategyArg::Anneal,
            " --strategy anneal",
        ),
    ] {
        if on {
            line.push_str(flag);
        }
    }
    if let Some(measure) = a.maximize.measure() {
        line.push_str(&format!(" --maximize {}", measure.name()));
    }
    // The cap changes which candidates are refused, so the moves; the default is left
    // out, as the files written before it was recorded have it.
    if a.cap != CAP {
        line.push_str(&format!(" --cap {}", a.cap));
    }
    if a.uniform_moves {
        line.push_str(" --uniform-moves");
    }
    // One walk runs again as written; more make another puzzle on another machine.
    line.push_str(&format!(" --threads {}", threads(a)));
    // Where the search ends (and `--maximize nodes` needs it): without it the command
    // would run another search, or none.
    if let Some(t) = a.timeout {
        // A timeout past any clock (`1e300`) is recorded as the number it was, in
        // exponent form, not as the 20 digits of the longest duration.
        let secs = t.as_secs_f64();
        if secs >= 1e12 {
            line.push_str(&format!(" --timeout {secs:e}"));
        } else {
            line.push_str(&format!(" --timeout {secs}"));
        }
    }
    if a.report {
        line.push_str(" --report");
    }
    if let Some(keep) = &a.keep {
        line.push_str(&format!(" --keep {}", keep.display()));
    }
    line
}

/// Draws the first solution of the puzzle `text` into `path`, a FIFO's reader waited for
/// until `narrowed`'s deadline at most (the search for the solution runs on `unbounded`,
/// the command's stop: a design the timeout stopped is drawn too).
fn picture(
    text: &str,
    path: &Path,
    out: &mut dyn Write,
    unbounded: &Context,
    narrowed: &Context,
) -> Result<()> {
    let puzzle = Puzzle::parse("the designed puzzle", text)?;
    let problem = puzzle.compile(SymmetryMode::Rotations)?;
    let started = Instant::now();
    let prepared = engines::prepare(&problem, &engines::for_design())?;
    // The command's stop before its deadline was narrowed: Ctrl-C, not the timeout.
    let opts = RunOptions {
        stop: unbounded.stop().clone(),
        ..RunOptions::default()
    };
    let (first, _) = engines::first(prepared.finder()?, &opts)?;
    let Some(solution) = first else {
        return Err(Error::Failed(format!(
            "design: no solution to draw found in {:.1} s",
            started.elapsed().as_secs_f64()
        )));
    };
    let svg = puzzle.svg(&solution)?;
    output::write(narrowed.stop(), path, out, &[], &mut |w| {
        Ok(w.write_all(svg.as_bytes())?)
    })?;
    Ok(())
}
