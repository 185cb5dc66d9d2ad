//! `polycover generate`: random puzzle files. Coloured cubes are drawn at once;
//! polycubes are a random cut, and with `--unique` or `--unsat` up to `--draws` random
//! cuts, then the design search (`polycover::kinds::Generator::unique_or_unsat`).
//!
//! Invariants:
//! - the output is checked before any work, and an option of the other kind is refused;
//! - the `c` lines on standard error say which search found the puzzle (`c drew N
//!   puzzles to find this one`, or `c designed this one after N random draws ...`), and
//!   the file's own comment says it too; a long search says how far it got every 10 s;
//! - Ctrl-C stops the search at its next check: no file, exit 130, the draws and moves
//!   made named in the error.

use super::context::Context;
use std::io::Write;
use std::time::Instant;

use super::args::{GenerateArgs, GenerateKind};
use super::outcome::Outcome;
use crate::design::Event;
use crate::output;
use polycover::kinds::Generator;
use polycover::{Error, Result};

/// Seconds between progress lines.
const PROGRESS_SECONDS: f64 = 10.0;

pub(super) fn generate(a: GenerateArgs, ctx: &Context, out: &mut dyn Write) -> Result<Outcome> {
    output::check_writable(&a.output, &[])?;
    // An option of the other kind is a mistake to point out, not to ignore.
    let foreign = match a.kind {
        GenerateKind::ColoredCubes => [
            (a.box_size.is_some(), "--box"),
            (a.pieces.is_some(), "--pieces"),
            (a.sizes.is_some(), "--sizes"),
            (a.unique, "--unique"),
            (a.unsat, "--unsat"),
            (a.draws.is_some(), "--draws"),
        ]
        .into_iter()
        .find(|(given, _)| *given),
        GenerateKind::Polycubes => [
            (a.cubes.is_some(), "--cubes"),
            (a.solvable, "--solvable"),
            (
                a.draws.is_some() && !a.unique && !a.unsat,
                "--draws without --unique or --unsat",
            ),
        ]
        .into_iter()
        .find(|(given, _)| *given),
    };
    if let Some((_, flag)) = foreign {
        let kind = match a.kind {
            GenerateKind::ColoredCubes => "colored-cubes",
            GenerateKind::Polycubes => "polycubes",
        };
        return Err(Error::Usage(format!(
            "generate {kind} does not take {flag} (see `polycover generate --help`)"
        )));
    }
    let text = match a.kind {
        GenerateKind::ColoredCubes => {
            let Some(cubes) = a.cubes else {
                return Err(Error::Usage(
                    "generate colored-cubes needs --cubes H (1 to 26)".into(),
                ));
            };
            Generator::colored_cubes(cubes, a.seed, a.solvable)?
        }
        GenerateKind::Polycubes => polycubes(&a, ctx)?,
    };
    output::write(ctx.stop(), &a.output, out, &[], &mut |w| {
        Ok(w.write_all(text.as_bytes())?)
    })?;
    Ok(Outcome::Done)
}

/// The polycube puzzle `a` asks for, with its `c` lines.
fn polycubes(a: &GenerateArgs, ctx: &Context) -> Result<String> {
    let (Some(size), Some(pieces)) = (a.box_size, a.pieces) else {
        return Err(Error::Usage(
            "generate polycubes needs --box X,Y,Z and --pieces N".into(),
        ));
    };
    let sizes = a
        .sizes
        .unwrap_or_else(|| Generator::default_sizes(size, pieces));
    let request = Generator {
        size,
        pieces,
        sizes,
        seed: a.seed,
        unique: a.unique,
        unsat: a.unsat,
    };
    if !a.unique && !a.unsat {
        let stop = ctx.stop().clone();
        let mut count = |p: &polycover::Puzzle, n| p.count_drawn(n, &stop);
        return Ok(request.generate(&mut count)?.text);
    }
    // A hard request can search for minutes: say how far it got every 10 s, and let
    // Ctrl-C stop it at the next check, saying how far it got.
    let stop = ctx.stop().clone();
    let _listening = stop.listen();
    let start = Instant::now();
    let draws = a.draws.unwrap_or(Generator::DRAWS);
    let mut said = 0.0;
    let mut seeds = 0;
    let mut progress = |event: &Event| {
        let seconds = start.elapsed().as_secs_f64();
        let due = seconds >= said + PROGRESS_SECONDS;
        if due {
            said = seconds - seconds % PROGRESS_SECONDS;
        }
        match *event {
            Event::Drawing { draws } if due => {
                let tries = polycover::Count::plural(draws, "puzzle", "puzzles");
                eprintln!("c drew {tries} in {seconds:.0} s, none kept yet");
            }
            Event::Designing { seed } => {
                seeds += 1;
                if seeds == 1 {
                    let draws = polycover::Count::plural(draws, "puzzle", "puzzles");
                    eprintln!(
                        "c drew {draws} in {seconds:.1} s, none kept: the design \
                         search takes over (seed {seed})"
                    );
                } else {
                    eprintln!(
                        "c no mirrored piece of that design leaves it without a solution: \
                         the design search goes on with seed {seed}"
                    );
                }
            }
            Event::Moved {
                seconds,
                best,
                tried,
                improved,
                ..
            } if improved || due => eprintln!(
                "c design: {seconds:.1} s, best {best}, {} tried",
                super::design::moves(tried)
            ),
            _ => {}
        }
    };
    let found =
        request.unique_or_unsat(draws, &stop, &mut progress, &|p, n| p.count_drawn(n, &stop))?;
    match found.seed {
        None => eprintln!(
            "c drew {} to find this one",
            polycover::Count::plural(found.tries, "puzzle", "puzzles")
        ),
        Some(seed) => eprintln!(
            "c designed this one after {} random draws had none: {} moves of the design \
             search (seed {seed}) in {:.1} s",
            found.tries, found.tried, found.seconds
        ),
    }
    Ok(found.text)
}
