//! A puzzle file's TOML, parsed once into a [`Document`] that keeps the byte span of
//! every key and value, and helpers that turn those spans into `file:line:column`
//! locations.
//!
//! Invariant: every span is a byte range of the text the document was parsed from, so
//! that text is passed along with the document to place messages.

use std::ops::Range;

use crate::error::{Error, Result};

/// A parsed TOML document: its tables and values with their spans in the text.
pub type Document<'i> = toml::Spanned<toml::de::DeTable<'i>>;

/// Parses `text`; a syntax error is located in `source`.
pub fn parse<'i>(source: &str, text: &'i str) -> Result<Document<'i>> {
    toml::de::DeTable::parse(text).map_err(|e| error(source, text, &e))
}

/// Reads a kind's file format out of a parsed document (as `toml::from_str` would out of
/// its text); a schema error is located in `source`.
pub fn deserialize<'i, T: serde::Deserialize<'i>>(
    source: &str,
    text: &str,
    document: Document<'i>,
) -> Result<T> {
    T::deserialize(toml::de::Deserializer::from(document)).map_err(|e| error(source, text, &e))
}

/// `file:line:column` for the start of `span` in `text` (1-based).
pub fn location(source: &str, text: &str, span: Option<Range<usize>>) -> String {
    match span {
        None => source.to_string(),
        Some(span) => {
            let before = &text[..span.start.min(text.len())];
            let line = before.matches('\n').count() + 1;
            let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            format!("{source}:{line}:{column}")
        }
    }
}

/// `file:line` for the start of `span`.
pub fn line(source: &str, text: &str, span: Range<usize>) -> String {
    let before = &text.as_bytes()[..span.start.min(text.len())];
    // Counted as bytes, which the compiler vectorises: pieces ask for their line as they
    // are read, so a file of 4096 pieces scans its text 12,000 times (`str::matches`
    // made that 4 s).
    let newlines = before.iter().filter(|&&b| b == b'\n').count();
    format!("{source}:{}", newlines + 1)
}

/// A TOML syntax or schema error, located, on one line.
pub fn error(source: &str, text: &str, e: &toml::de::Error) -> Error {
    let message = e.message().trim().replace('\n', " ");
    Error::puzzle(location(source, text, e.span()), message)
}

/// `file:line` of `key = ...` inside the `[table]` section, or just `file` when it cannot
/// be found by a plain scan (an inline table, say).
pub fn key_line(source: &str, text: &str, table: &str, key: &str) -> String {
    let header = format!("[{table}]");
    let mut inside = false;
    for (k, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.starts_with('[') {
            inside = t == header;
        } else if inside && t.split('=').next().is_some_and(|name| name.trim() == key) {
            return format!("{source}:{}", k + 1);
        }
    }
    source.to_string()
}
