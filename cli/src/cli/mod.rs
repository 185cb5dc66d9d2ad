//! The command line: parse the arguments, run one command, map how it ended to the exit
//! code. Not the library's API: the binary's own (hidden from the docs).
//!
//! - `args`: the clap types, the only ones in the crate;
//! - `engines`: the one door to the engines (the engine the options name, the runs);
//! - `report`: the `c`/`s` lines and the progress bar; `records`: solution records, and
//!   the one loop that writes them;
//! - one file per command or small group: `search` (count, solve, enumerate), `sample`, `parts`
//!   (their `--part` and `--checkpoint` runs), `merge`, `files` (dimacs, decode, export,
//!   import), `generate`, `suite`, `inspect` (info, list, check), `bench`; `completions`
//!   and `man` are here;
//! - `outcome`: how a command ended, and the one mapping to exit codes;
//! - `context`: what every command is handed once (its stop); `wording`: a setting as
//!   its flag.
//!
//! Invariants:
//! - Every command writes its product to the `Write` it is given (standard output, line
//!   buffered), diagnostics to standard error, and returns `Result<Outcome>`.
//! - Errors go to standard error as `polycover: error: ...`, with the exit code
//!   `outcome::exit_code` gives.

use std::io::{self, Write};

use clap::{CommandFactory, Parser};

use args::{Cli, Command};
use outcome::Outcome;
#[cfg(test)]
pub(crate) use wording::flag;

use polycover::Result;

mod args;
mod bench;
mod certify;
mod context;
mod design;
mod engines;
mod files;
mod generate;
mod inspect;
mod merge;
mod outcome;
mod parts;
mod records;
mod report;
mod sample;
mod search;
mod suite;
mod wording;

/// Parses the arguments and runs; returns the exit code.
pub fn main() -> i32 {
    // The handlers go first, before the arguments are parsed, so that a signal in the
    // first milliseconds finds them; whether the command answers on an `s` line is read
    // from its name, said before the handlers exist (an immediate exit of `count`,
    // `solve` or `verify` prints `s UNKNOWN`).
    let command = std::env::args_os()
        .skip(1)
        .find(|a| !a.to_string_lossy().starts_with('-'));
    crate::signals::answer_expected(
        command.is_some_and(|c| matches!(c.to_str(), Some("count" | "solve" | "verify" | "check"))),
    );
    let stop = crate::signals::install();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return clap_message(&e),
    };
    if cli.command.product_on_stdout() {
        crate::signals::watch_stdout();
    }
    // Line buffered: each `c` line reaches a pipe or file when it is printed (a run
    // killed later keeps it), and so does each solution record, written with one write.
    let mut out = Stdout(io::stdout().lock());
    let result = run(cli, &stop, &mut out)
        .and_then(|outcome| Ok(out.flush().map(|_| outcome)?))
        .map_err(on_stdout);
    crate::signals::answer_expected(false);
    match &result {
        Err(e) if !e.is_broken_pipe() => {
            eprintln!("polycover: error: {}", e.render(&wording::flag))
        }
        _ => {}
    }
    outcome::exit_code(&result)
}

/// What a failed write to standard output is called in messages: `cannot write standard
/// output: No space left on device`, whichever command wrote.
pub(crate) const STDOUT: &str = "standard output";

/// Standard output, whose failed writes are marked ([`OnStdout`]) so that the error
/// they become, wherever it passes, is named as a failed write to standard output
/// ([`on_stdout`]). The error's kind stays (a closed pipe is still one).
struct Stdout<W>(W);

impl<W: Write> Write for Stdout<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf).map_err(OnStdout::mark)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush().map_err(OnStdout::mark)
    }
}

/// A failed write to standard output, inside the `io::Error` it travels in.
#[derive(Debug)]
struct OnStdout(io::Error);

impl OnStdout {
    fn mark(e: io::Error) -> io::Error {
        io::Error::new(e.kind(), OnStdout(e))
    }

    /// The error `e` carries, when it is a marked failure of standard output.
    fn unmark(e: io::Error) -> std::result::Result<io::Error, io::Error> {
        if !e.get_ref().is_some_and(|inner| inner.is::<OnStdout>()) {
            return Err(e);
        }
        let inner = e.into_inner().expect("checked above");
        Ok(inner.downcast::<OnStdout>().expect("checked above").0)
    }
}

impl std::fmt::Display for OnStdout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for OnStdout {}

/// A command's error, with a failed write to standard output named as one: `cannot write
/// standard output: ...` (a bare `No space left on device` said nothing of where).
fn on_stdout(e: polycover::Error) -> polycover::Error {
    use polycover::Error;
    match e {
        Error::Io(e) => match OnStdout::unmark(e) {
            Ok(source) => Error::Write {
                path: STDOUT.into(),
                source,
            },
            Err(e) => Error::Io(e),
        },
        Error::Write { path, source } => match OnStdout::unmark(source) {
            Ok(source) => Error::Write {
                path: STDOUT.into(),
                source,
            },
            Err(source) => Error::Write { path, source },
        },
        other => other,
    }
}

/// Runs the command line `args` (the program's name first) in this process, as `main`
/// would but without signal handlers: its exit code and standard output. For the crate's
/// own tests, which run engines that only they register.
#[cfg(test)]
pub(crate) fn run_in_process(args: &[&str]) -> (i32, String) {
    let mut out = Vec::new();
    let code = match Cli::try_parse_from(args) {
        Ok(cli) => outcome::exit_code(&run(cli, &polycover::Stop::new(), &mut out)),
        Err(e) => e.exit_code(),
    };
    (code, String::from_utf8_lossy(&out).into_owned())
}

/// Runs a parsed command line, writing standard output to `out`.
fn run(cli: Cli, stop: &polycover::Stop, out: &mut dyn Write) -> Result<Outcome> {
    crate::memory::advise(match cli.command {
        Command::Count(_) => crate::memory::Advice::Count,
        Command::Solve(_) | Command::Enumerate(_) => crate::memory::Advice::Search,
        Command::Sample(_) => crate::memory::Advice::Sample,
        _ => crate::memory::Advice::Machine,
    });
    // The command's stop: its `--timeout` for every step that waits (reading the
    // puzzle, a FIFO's other end, the search), raised by a signal.
    let ctx = context::Context::new(stop.until(cli.command.deadline()));
    dispatch(cli, &ctx, out)
}

/// The command's body.
fn dispatch(cli: Cli, ctx: &context::Context, out: &mut dyn Write) -> Result<Outcome> {
    match cli.command {
        Command::Count(a) => search::count(a, ctx, out),
        Command::Solve(a) => search::solve(a, ctx, out),
        Command::Enumerate(a) => search::enumerate(a, ctx, out),
        Command::Sample(a) => sample::sample(a, ctx, out),
        Command::Info(a) => inspect::info(a, ctx, out),
        Command::List => inspect::list(out),
        Command::Dimacs(a) => files::dimacs(a, ctx, out),
        Command::Decode(a) => files::decode(a, ctx, out),
        Command::Check(a) => inspect::check(a, ctx, out),
        Command::Verify(a) => certify::verify(a, ctx, out),
        Command::Bench(a) => bench::bench(a, ctx, out),
        Command::Generate(a) => generate::generate(a, ctx, out),
        Command::Design(a) => design::design(a, ctx, out),
        Command::Suite(a) => suite::suite(a, ctx, out),
        Command::Completions { shell } => {
            // Into memory first: clap_complete panics when its writer fails (a full disk).
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "polycover", &mut script);
            write_stdout(out, &script)
        }
        Command::Man { dir } => man(dir.as_deref(), ctx, out),
        Command::Merge(a) => merge::merge(a, ctx, out),
        Command::Import(a) => files::import(a, ctx, out),
        Command::Export(a) => files::export(a, ctx, out),
    }
}

/// `polycover man`: the main page on `out`, or with `dir` every page into it: the main
/// page, whose list of commands names `polycover-COMMAND(1)`, and each of those pages,
/// with the command's synopsis and options. Every page the main one names is written.
fn man(
    dir: Option<&std::path::Path>,
    ctx: &context::Context,
    out: &mut dyn Write,
) -> Result<Outcome> {
    // No `help` command: its page would only repeat `--help`.
    let mut cli = Cli::command().disable_help_subcommand(true);
    // Built, so that each command knows its page's name (`polycover-count`).
    cli.build();
    let main_page = |w: &mut dyn Write| -> Result<()> {
        clap_mangen::Man::new(cli.clone()).render(w)?;
        // Where the pages the list of commands names come from.
        w.write_all(
            b".SH \"SEE ALSO\"\nEach command's page, with its options, is written by \
              \\fBpolycover man \\-\\-dir\\fR \\fIDIR\\fR (polycover\\-count.1, ...).\n",
        )?;
        Ok(())
    };
    let Some(dir) = dir else {
        // Into memory first, so that a failed write (a full disk) is an error, exit 1.
        let mut page = Vec::new();
        main_page(&mut page)?;
        return write_stdout(out, &page);
    };
    if args::is_stdio(dir) || (dir.exists() && !dir.is_dir()) {
        return Err(polycover::Error::Usage(format!(
            "--dir {}: not a directory (without --dir the main page goes to standard output)",
            dir.display()
        )));
    }
    std::fs::create_dir_all(dir).map_err(|source| polycover::Error::Write {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut written = 1;
    crate::output::write(ctx.stop(), &dir.join("polycover.1"), out, &[], &mut |w| {
        main_page(w)
    })?;
    for command in cli.get_subcommands().filter(|c| !c.is_hide_set()) {
        let page = clap_mangen::Man::new(command.clone());
        crate::output::write(
            ctx.stop(),
            &dir.join(page.get_filename()),
            out,
            &[],
            &mut |w| Ok(page.render(w)?),
        )?;
        written += 1;
    }
    eprintln!("c wrote {written} manual pages to {}", dir.display());
    Ok(Outcome::Done)
}

/// Writes a generated text (completions, man page) to standard output, flushed, so that a
/// failed write (a full disk) is an error here, exit 1, not a lost output.
fn write_stdout(out: &mut dyn Write, text: &[u8]) -> Result<Outcome> {
    out.write_all(text)
        .and_then(|()| out.flush())
        .map_err(|source| polycover::Error::Write {
            path: STDOUT.into(),
            source,
        })?;
    Ok(Outcome::Done)
}

/// What clap has to say instead of a command: help or version on standard output (exit
/// 0), a usage error on standard error (exit 2). clap's own `exit` drops a failed write;
/// here help that cannot be written (a full disk) is an error, exit 1, but for a reader
/// that went away (a broken pipe), which stays quiet.
fn clap_message(e: &clap::Error) -> i32 {
    let written = e.print().and_then(|()| {
        io::stdout().flush()?;
        io::stderr().flush()
    });
    match written {
        Err(w) if !e.use_stderr() && w.kind() != io::ErrorKind::BrokenPipe => {
            eprintln!("polycover: error: cannot write {STDOUT}: {w}");
            1
        }
        _ => e.exit_code(),
    }
}
