//! The GBD hash of a DIMACS CNF: the name the Global Benchmark Database gives a formula,
//! an MD5 of its clauses written in one normal form.
//!
//! # The definition
//!
//! As `CNF::gbdhash` in gbdc (`src/identify/GBDHash.h`) computes it, read byte by byte:
//!
//! - whitespace (C's `isspace`: space, tab, newline, vertical tab, form feed, carriage
//!   return) is skipped between clauses and between literals, so line breaks and runs of
//!   spaces do not matter, and a clause may span lines;
//! - where a clause could start, a line that starts with `c` or `p` (after whitespace)
//!   is skipped to its end (`\n` or `\r`): comments and the header are not hashed, so
//!   the header's counts may be anything;
//! - each literal is hashed as its text, a `-` kept, a `+` dropped, digits as written
//!   (no leading zeros are removed: `007` stays `007`), followed by one space; the token
//!   `0` ends the clause and is hashed as `0`; clauses are joined by one space. So
//!   `p cnf 3 2` / `1 -2 0` / `2 3 0` hashes the bytes `1 -2 0 2 3 0`;
//! - a last clause without its `0` is closed by one at the end of the input;
//! - any other character where a literal could start is an error (gbdc throws).
//!
//! The hash is the MD5 of those bytes, as 32 lowercase hexadecimal digits. The order of
//! clauses and of literals within a clause is kept: the hash names the file's formula as
//! written, not the formula up to reordering (that is gbdc's separate ISO hash).
//!
//! Checked against the hashes GBD publishes as file names (gbdc's test files
//! `<hash>-<name>.cnf.xz`): `tests/suite.rs` hashes one of them.
//!
//! Invariant: [`Hasher`] gives the same hash however the input is cut into writes.
//!
//! # References
//!
//! - M. Iser and C. Jabs, *Global Benchmark Database*, SAT 2024, LIPIcs 305, 18:1-18:10.
//! - M. Iser and C. Sinz, *A Problem Meta-Data Library for Research in SAT*, Pragmatics
//!   of SAT 2018 (PoS 2018), EPiC Series in Computing 59, 144-152.
//! - gbdc, the GBD tools in C++ (`Udopia/gbdc` on GitHub): `src/identify/GBDHash.h`,
//!   `CNF::gbdhash`.

use std::io::{self, Read, Write};

use md5::{Digest, Md5};

/// Where the reader is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Between clauses: whitespace, then a comment or header line, or a clause.
    Between,
    /// In a `c` or `p` line, up to its end.
    Line,
    /// In a clause, between literals.
    Clause,
    /// After a literal's sign, before its first digit (whitespace may come between).
    Sign,
    /// In a literal's digits.
    Digits,
}

/// The GBD hash of DIMACS text written to it, in any pieces; [`Hasher::finish`] gives
/// the hash. Keeps one literal at a time, so a file of any size hashes in little memory.
#[derive(Clone)]
pub struct Hasher {
    md5: Md5,
    state: State,
    /// The literal being read (its `-` and digits).
    token: Vec<u8>,
    /// A clause was hashed already (the next one is preceded by a space).
    started: bool,
    /// Where the reader is, for errors: line (from 1) and bytes read.
    line: u64,
}

impl Default for Hasher {
    fn default() -> Self {
        Hasher::new()
    }
}

impl Hasher {
    /// A hasher at the start of a DIMACS text, nothing read yet.
    pub fn new() -> Hasher {
        Hasher {
            md5: Md5::new(),
            state: State::Between,
            token: Vec::new(),
            started: false,
            line: 1,
        }
    }

    /// Reads `bytes`, the next piece of the DIMACS text. An error names the line of a
    /// character that cannot start a literal.
    ///
    /// # Errors
    ///
    /// [`io::ErrorKind::InvalidData`], naming the line, for a byte in a clause that is
    /// neither a digit, a sign nor white space.
    pub fn update(&mut self, bytes: &[u8]) -> io::Result<()> {
        for &b in bytes {
            self.byte(b)?;
            if b == b'\n' {
                self.line += 1;
            }
        }
        Ok(())
    }

    fn byte(&mut self, b: u8) -> io::Result<()> {
        let space = is_space(b);
        match self.state {
            State::Between => {
                if space {
                    return Ok(());
                }
                if b == b'c' || b == b'p' {
                    self.state = State::Line;
                    return Ok(());
                }
                if self.started {
                    self.md5.update(b" ");
                }
                self.started = true;
                self.state = State::Clause;
                self.byte(b)
            }
            State::Line => {
                if b == b'\n' || b == b'\r' {
                    self.state = State::Between;
                }
                Ok(())
            }
            State::Clause => {
                if space {
                    return Ok(());
                }
                match b {
                    b'-' => {
                        self.token.push(b'-');
                        self.state = State::Sign;
                    }
                    b'+' => self.state = State::Sign,
                    b'0'..=b'9' => {
                        self.token.push(b);
                        self.state = State::Digits;
                    }
                    _ => return Err(self.unexpected(b)),
                }
                Ok(())
            }
            State::Sign => {
                if space {
                    return Ok(());
                }
                if !b.is_ascii_digit() {
                    return Err(self.unexpected(b));
                }
                self.token.push(b);
                self.state = State::Digits;
                Ok(())
            }
            State::Digits => {
                if b.is_ascii_digit() {
                    self.token.push(b);
                    return Ok(());
                }
                self.end_literal();
                self.byte(b)
            }
        }
    }

    /// The literal just read: `0` ends the clause, anything else is a literal and a space.
    fn end_literal(&mut self) {
        if self.token == b"0" {
            self.md5.update(b"0");
            self.state = State::Between;
        } else {
            self.md5.update(&self.token);
            self.md5.update(b" ");
            self.state = State::Clause;
        }
        self.token.clear();
    }

    fn unexpected(&self, b: u8) -> io::Error {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "line {}: unexpected character {:?} in a clause (DIMACS CNF expected)",
                self.line,
                char::from(b)
            ),
        )
    }

    /// The hash: 32 lowercase hexadecimal digits. A clause left open at the end is closed,
    /// as gbdc closes it (a sign with no digits after it is dropped).
    pub fn finish(mut self) -> String {
        if self.state == State::Digits {
            self.end_literal();
        }
        if matches!(self.state, State::Clause | State::Sign) {
            self.md5.update(b"0");
        }
        self.md5
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }
}

impl Write for Hasher {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.update(buf)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// C's `isspace` in the "C" locale.
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r')
}

/// The GBD hash of the DIMACS text `r` reads (plain text: decompress first).
///
/// # Errors
///
/// What reading `r` gives, and [`io::ErrorKind::InvalidData`] as [`Hasher::update`].
pub fn hash_reader(r: &mut dyn Read) -> io::Result<String> {
    let mut hasher = Hasher::new();
    io::copy(r, &mut hasher)?;
    Ok(hasher.finish())
}

/// The GBD hash of DIMACS text in memory.
///
/// # Errors
///
/// [`io::ErrorKind::InvalidData`] as [`Hasher::update`].
pub fn hash(text: &[u8]) -> io::Result<String> {
    let mut hasher = Hasher::new();
    hasher.update(text)?;
    Ok(hasher.finish())
}
