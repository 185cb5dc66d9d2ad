//! DIMACS out, solver answers in.
//!
//! Writing: `c` comment lines that name the tool, the puzzle, the encoding, the symmetry
//! mode and the variable counts; a projection line for model counters (`c p show ... 0`
//! with `c t pmc`, or CryptoMiniSat's `c ind ... 0`, never both); the variable map, one
//! `c v` line per primary variable; then the CNF (rustsat's writer). A name ending in
//! `.gz` is gzip-compressed.
//!
//! Reading: SAT-competition output, `s SATISFIABLE` and `v` lines ending in `0`, plain
//! or gzip; gzip is recognised by its magic bytes, whatever the file is called, and may
//! inflate to at most [`Answer::MAX_INFLATED`] (a gzip bomb is refused, not read into
//! memory). Errors carry the file and line.

use std::io::{self, BufRead, Read, Write};
use std::path::Path;

use itertools::Itertools;

use crate::count::Count;
use crate::error::{Error, Result};
use crate::matrix::Matrix;
use crate::sat::cnf::Formula;

/// Which projection line a DIMACS file carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Projection {
    /// `c t pmc` and `c p show 1 .. N 0` (model-counting competition format; d4, ganak).
    Show,
    /// `c ind 1 .. N 0` (CryptoMiniSat, ApproxMC).
    Ind,
    /// No projection line.
    None,
}

/// What the `c` lines say about the puzzle a formula encodes. The caller fills it
/// (`Header::of` in `export/mod.rs` does, from a compiled puzzle, for
/// [`Formula::write`]), so that the CNF side names no puzzle kind: engines know nothing
/// of kinds.
pub(crate) struct Header<'a> {
    /// The puzzle's name.
    pub(crate) puzzle: &'a str,
    /// The symmetry mode's name (`rotations`).
    pub(crate) symmetry: &'a str,
    /// The order of the symmetry group.
    pub(crate) group_order: usize,
    /// The name of the item the reduction pins, if any.
    pub(crate) pinned_item: Option<&'a str>,
    /// What one option is, in a few words (`placement`).
    pub(crate) option: &'a str,
    /// The columns of a `c v` line after `VAR`.
    pub(crate) columns: &'a str,
    /// Option `o` as one line of the variable map, in those columns.
    pub(crate) describe_option: Box<dyn Fn(u32) -> String + 'a>,
}

/// Writes the formula as DIMACS to `w`.
///
/// # Errors
///
/// What writing to `w` returns.
pub(crate) fn write(
    w: &mut dyn Write,
    header: &Header<'_>,
    formula: &Formula,
    projection: Projection,
) -> io::Result<()> {
    write_with_notes(w, header, formula, projection, &[])
}

/// [`write()`], with more `c` lines (without the `c `) after the symmetry line: what part
/// of the search a restricted formula holds.
///
/// # Errors
///
/// What writing to `w` returns.
pub(crate) fn write_with_notes(
    w: &mut dyn Write,
    header: &Header<'_>,
    formula: &Formula,
    projection: Projection,
    notes: &[String],
) -> io::Result<()> {
    let n = formula.num_primary;
    writeln!(w, "c polycover {}", env!("CARGO_PKG_VERSION"))?;
    writeln!(w, "c puzzle {}", header.puzzle)?;
    writeln!(
        w,
        "c encoding at-most-one={} cardinality=totalizer",
        formula.amo.name()
    )?;
    writeln!(
        w,
        "c symmetry {} (group order {}, pinned item {})",
        header.symmetry,
        header.group_order,
        header.pinned_item.unwrap_or("none")
    )?;
    for note in notes {
        writeln!(w, "c {note}")?;
    }
    writeln!(
        w,
        "c variables {} primary (1..{n}, one per {}), {} auxiliary",
        n,
        header.option,
        formula.num_vars - n
    )?;
    writeln!(
        w,
        "c models, projected on the primary variables, are the distinct solutions"
    )?;
    match projection {
        Projection::Show => {
            writeln!(w, "c t pmc")?;
            write_var_list(w, "c p show", n)?;
        }
        Projection::Ind => write_var_list(w, "c ind", n)?,
        Projection::None => {}
    }
    writeln!(w, "c variable map: c v VAR {}", header.columns)?;
    for o in 0..n {
        writeln!(w, "c v {} {}", o + 1, (header.describe_option)(o))?;
    }
    formula.cnf.write_dimacs(&mut &mut *w, formula.num_vars)
}

/// `c p show 1 2 ... n 0`, wrapped so that no line is very long (the formats allow
/// several lines; each ends in 0).
fn write_var_list(w: &mut dyn Write, prefix: &str, n: u32) -> io::Result<()> {
    for chunk in &(1..=n).chunks(1000) {
        writeln!(w, "{prefix} {} 0", chunk.format(" "))?;
    }
    Ok(())
}

/// The most bytes a gzip answer file (`decode --model`, `merge`'s `c part` files) may
/// inflate to: 1 GiB, the model of a formula with some hundred million variables. A
/// small file that inflates past it is refused (a gzip bomb) instead of filling memory.
pub(crate) const MAX_INFLATED_ANSWER: u64 = 1 << 30;

/// The longest line of a solver's answer [`parse_answers`] reads: a `v` line of a
/// model on one line (minisat's) with tens of millions of variables, far more than the
/// largest CNF polycover writes.
pub(crate) const MAX_ANSWER_LINE: u64 = 256 << 20;

/// Opens an answer file for reading, decompressing gzip when its first two bytes are the
/// gzip magic number (1f 8b). A gzip stream that inflates past [`MAX_INFLATED_ANSWER`]
/// fails with [`io::ErrorKind::FileTooLarge`] (the message says the limit).
///
/// # Errors
///
/// [`Error::Read`] when the file cannot be opened or its first bytes read; the size
/// limit and a broken gzip stream show only as errors of the reader's lines.
pub(crate) fn open(path: &Path) -> Result<Box<dyn BufRead>> {
    open_capped(path, MAX_INFLATED_ANSWER, "a gzip answer")
}

// Gzip recognition and the caps live with the other input readers.
use crate::input::open_capped;

/// A solver's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// `s SATISFIABLE`, with the model's literals as DIMACS integers (the final 0 left
    /// out); it may assign auxiliary variables too.
    Satisfiable(Vec<i64>),
    /// `s UNSATISFIABLE`: the formula has no model.
    Unsatisfiable,
    /// `s UNKNOWN`: the solver gave up (a time limit, say).
    Unknown,
}

/// [`Answer::read`] on a solver's output already in hand; `name` says where it came from
/// in messages.
///
/// # Errors
///
/// As [`parse_answers`], and [`Error::Model`] when the output holds more than one answer.
pub(crate) fn parse_answer(reader: impl BufRead, name: &str) -> Result<Answer> {
    let mut answers = parse_answers(reader, name)?;
    if answers.len() > 1 {
        return Err(Error::Model {
            location: name.to_string(),
            reason: format!("{} answers where one was expected", answers.len()),
        });
    }
    Ok(answers.remove(0))
}

/// [`Answer::read_all`] on output already in hand.
///
/// # Errors
///
/// [`Error::Model`], at the line concerned, for a line that is not `c`, `s` or `v`, a `v`
/// line before any `s` line or after the terminating 0, a token that is not an integer,
/// an unknown status, a model that does not end with 0, or no `s` line at all;
/// [`Error::Read`] when a line cannot be read.
pub(crate) fn parse_answers(reader: impl BufRead, name: &str) -> Result<Vec<Answer>> {
    let name = name.to_string();
    let at = |line: usize, reason: String| Error::Model {
        location: format!("{name}:{line}"),
        reason,
    };
    // (status, line of the `s` line, literals, ended by 0)
    let mut open: Vec<(String, usize, Vec<i64>, bool)> = Vec::new();
    let mut reader = reader;
    let mut bytes = Vec::new();
    let mut line_no = 0;
    loop {
        line_no += 1;
        let not_text = || {
            at(
                line_no,
                "the file is not text (or a broken gzip stream)".into(),
            )
        };
        bytes.clear();
        // One line at most MAX_ANSWER_LINE long: a file without line ends (/dev/zero)
        // would otherwise be read into memory until it ran out.
        let read = (&mut reader)
            .take(MAX_ANSWER_LINE + 1)
            .read_until(b'\n', &mut bytes)
            .map_err(|e| match e.kind() {
                io::ErrorKind::InvalidData => not_text(),
                _ => Error::Read {
                    path: name.clone().into(),
                    source: e,
                },
            })?;
        if read == 0 {
            break;
        }
        if bytes.len() as u64 > MAX_ANSWER_LINE {
            return Err(at(
                line_no,
                format!(
                    "a line longer than {}: not a SAT solver's answer",
                    crate::input::size_name(MAX_ANSWER_LINE)
                ),
            ));
        }
        let line = std::str::from_utf8(&bytes).map_err(|_| not_text())?;
        let line = line.trim();
        if line.is_empty() || line.starts_with('c') {
            continue;
        }
        if let Some(s) = line.strip_prefix("s ") {
            open.push((s.trim().to_string(), line_no, Vec::new(), false));
        } else if let Some(v) = line.strip_prefix('v') {
            let Some((_, _, lits, ended)) = open.last_mut() else {
                return Err(at(line_no, "a `v` line before any `s` line".into()));
            };
            if *ended {
                return Err(at(line_no, "`v` line after the terminating 0".into()));
            }
            for token in v.split_whitespace() {
                let lit: i64 = token.parse().map_err(|_| {
                    let token = excerpt(token);
                    at(line_no, format!("`{token}` is not a literal (an integer)"))
                })?;
                if lit == 0 {
                    *ended = true;
                } else if *ended {
                    return Err(at(line_no, "literal after the terminating 0".into()));
                } else {
                    lits.push(lit);
                }
            }
        } else {
            let shown = excerpt(line);
            return Err(at(
                line_no,
                format!("expected a `c`, `s` or `v` line, found `{shown}`"),
            ));
        }
    }
    if open.is_empty() {
        return Err(Error::Model {
            location: name,
            reason: "no `s` line: not SAT-competition output".into(),
        });
    }
    answers(open, &name)
}

/// The answers of [`parse_answers`], each `s` line with its literals checked: a model
/// that ends with 0, a status that is known.
fn answers(open: Vec<(String, usize, Vec<i64>, bool)>, name: &str) -> Result<Vec<Answer>> {
    let next_s: Vec<Option<usize>> = (0..open.len())
        .map(|k| open.get(k + 1).map(|o| o.1))
        .collect();
    open.into_iter()
        .zip(next_s)
        .map(
            |((status, line, lits, ended), next)| match status.as_str() {
                "SATISFIABLE" if !ended && lits.is_empty() => Err(Error::Model {
                    location: format!("{name}:{line}"),
                    reason: match next {
                        Some(next) => format!(
                            "`s SATISFIABLE` has no model: no `v` line comes before the next `s` \
                         line (line {next})"
                        ),
                        None => "`s SATISFIABLE` has no model: no `v` line follows it".into(),
                    },
                }),
                "SATISFIABLE" if !ended => Err(Error::Model {
                    location: format!("{name}:{line}"),
                    reason: "the model does not end with 0 (truncated output?)".into(),
                }),
                "SATISFIABLE" => Ok(Answer::Satisfiable(lits)),
                "UNSATISFIABLE" => Ok(Answer::Unsatisfiable),
                "UNKNOWN" => Ok(Answer::Unknown),
                other => Err(Error::Model {
                    location: format!("{name}:{line}"),
                    reason: format!("unknown status `s {}`", excerpt(other)),
                }),
            },
        )
        .collect()
}

/// A piece of an answer's text to quote in a message: its first 40 characters, control
/// characters escaped (a NUL, a terminal's escape sequence), `...` when it goes on.
fn excerpt(text: &str) -> String {
    const SHOWN: usize = 40;
    let mut shown: String = text
        .chars()
        .take(SHOWN)
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect();
    if text.chars().nth(SHOWN).is_some() {
        shown.push_str("...");
    }
    shown
}

/// Models read back, as solutions of the matrix they encode.
impl Matrix {
    /// Turns a SAT model (DIMACS literals, variable `o + 1` being option `o`) into a
    /// solution: the options whose primary variables are true. Every primary variable
    /// must be assigned, once.
    ///
    /// # Errors
    ///
    /// [`Error::Model`] at `location` when a literal is 0, a variable is both true and
    /// false, a primary variable is unassigned, or the true options are not a solution
    /// of this matrix.
    pub fn decode_model(&self, lits: &[i64], location: &str) -> Result<Vec<u32>> {
        let matrix = self;
        let n = matrix.num_options() as u64;
        let mut value: Vec<Option<bool>> = vec![None; n as usize];
        for &l in lits {
            // `unsigned_abs`: `i64::MIN` has no `abs`.
            let v = l.unsigned_abs();
            if v == 0 {
                return Err(Error::Model {
                    location: location.into(),
                    reason: "0 is not a literal (variables count from 1)".into(),
                });
            }
            if v > n {
                continue; // auxiliary variable
            }
            let slot = &mut value[(v - 1) as usize];
            if slot.is_some_and(|old| old != (l > 0)) {
                return Err(Error::Model {
                    location: location.into(),
                    reason: format!("variable {v} is both true and false"),
                });
            }
            *slot = Some(l > 0);
        }
        if let Some(missing) = value.iter().position(|v| v.is_none()) {
            let count = value.iter().filter(|v| v.is_none()).count();
            return Err(Error::Model {
                location: location.into(),
                reason: format!(
                    "partial model: {count} primary variables unassigned, the first is {}",
                    missing + 1
                ),
            });
        }
        let solution: Vec<u32> = (0..n as u32)
            .filter(|&o| value[o as usize] == Some(true))
            .collect();
        matrix.cover_fault(&solution).map_err(|e| Error::Model {
            location: location.into(),
            reason: format!("the model is not a solution: {e}"),
        })?;
        Ok(solution)
    }
}

/// Reading solvers' answers.
impl Answer {
    /// The most bytes a gzip answer file (`decode --model`, `merge`'s `c part` files)
    /// may inflate to: 1 GiB. A small file that inflates past it is refused (a gzip
    /// bomb) instead of filling memory.
    pub const MAX_INFLATED: u64 = MAX_INFLATED_ANSWER;

    /// Opens an answer file for reading, decompressing gzip when its first two bytes are
    /// the gzip magic number (1f 8b); a gzip stream that inflates past
    /// [`Answer::MAX_INFLATED`] fails with [`io::ErrorKind::FileTooLarge`].
    ///
    /// # Errors
    ///
    /// [`Error::Read`] when the file cannot be opened or its first bytes read.
    pub fn open(path: &Path) -> Result<Box<dyn BufRead>> {
        open(path)
    }

    /// Reads SAT-competition output: `c` lines are ignored, one `s` line, `v` lines with
    /// literals, the last ending in 0.
    ///
    /// # Errors
    ///
    /// A file that cannot be read, output that is not an answer ([`Error::Model`], with
    /// the file and line), or more than one answer.
    pub fn read(path: &Path) -> Result<Answer> {
        parse_answer(open(path)?, &path.display().to_string())
    }

    /// [`Answer::read`] on a solver's output already in hand; `name` says where it came
    /// from in messages.
    ///
    /// # Errors
    ///
    /// As [`Answer::read`].
    pub fn parse(reader: impl BufRead, name: &str) -> Result<Answer> {
        parse_answer(reader, name)
    }

    /// Every answer in a file: each `s` line starts one, and the `v` lines after it are
    /// its model (CryptoMiniSat's `--maxsol` prints many). At least one answer, or an
    /// error.
    ///
    /// # Errors
    ///
    /// A file that cannot be read, or output that is not answers.
    pub fn read_all(path: &Path) -> Result<Vec<Answer>> {
        parse_answers(open(path)?, &path.display().to_string())
    }

    /// [`Answer::read_all`] on output already in hand.
    ///
    /// # Errors
    ///
    /// Output that is not answers ([`Error::Model`], with `name` and the line).
    pub fn parse_all(reader: impl BufRead, name: &str) -> Result<Vec<Answer>> {
        parse_answers(reader, name)
    }

    /// The count in a model counter's output: the model-counting competition's `s mc
    /// N`, or ganak's `c s exact arb int N`. `None` when there is neither.
    pub fn parse_count(output: &str) -> Option<Count> {
        output.lines().find_map(|l| {
            l.strip_prefix("c s exact arb int ")
                .or_else(|| l.strip_prefix("s mc "))
                .and_then(|n| n.trim().parse().ok())
        })
    }
}
