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
/// its text); a schema error is located in `source`. An integer past what an `i64` holds
/// (which the TOML reader reports as "invalid type: integer ... as i128", "u64 value was
/// too large" or "integer number overflowed") is explained by `explain`, which is given
/// the keys that lead to it and says what that key allows, or by a general message.
pub fn deserialize<'i, T: serde::Deserialize<'i>>(
    source: &str,
    text: &str,
    document: Document<'i>,
    explain: &dyn Fn(&Oversized) -> Option<String>,
) -> Result<T> {
    let mut oversized = Vec::new();
    find_oversized(document.get_ref(), &mut Vec::new(), None, &mut oversized);
    T::deserialize(toml::de::Deserializer::from(document)).map_err(|e| {
        let at = e.span().map(|s| s.start);
        match oversized.iter().find(|o| Some(o.span.start) == at) {
            Some(o) => Error::puzzle(
                location(source, text, Some(o.span.clone())),
                explain(o).unwrap_or_else(|| {
                    format!(
                        "`{}` = {}: the number is out of range (an integer in a puzzle file \
                         is between {} and {})",
                        o.key(),
                        o.value,
                        i64::MIN,
                        i64::MAX
                    )
                }),
            ),
            None => error(source, text, &e),
        }
    })
}

/// One step of the way from a document's root to a value: a key, or an array index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// The value of this key of a table.
    Key(String),
    /// This element (from 0) of an array.
    Index(usize),
}

/// An integer of a document that an `i64` cannot hold, with where it is.
#[derive(Clone, Debug)]
pub struct Oversized {
    /// The keys and indexes from the document's root to the integer.
    pub path: Vec<Step>,
    /// The integer as written (`0x` and the like included).
    pub value: String,
    /// Whether it is written in decimal.
    pub decimal: bool,
    /// Its byte span in the text.
    pub span: Range<usize>,
    /// The string `name` of the innermost table around it that has one (a piece's name).
    pub table_name: Option<String>,
}

impl Oversized {
    /// The keys of [`Oversized::path`], dotted, with indexes as `[k]`: `piece[0].count`.
    pub fn key(&self) -> String {
        let mut out = String::new();
        for step in &self.path {
            match step {
                Step::Key(k) if out.is_empty() => out.push_str(k),
                Step::Key(k) => {
                    out.push('.');
                    out.push_str(k);
                }
                Step::Index(k) => out.push_str(&format!("[{k}]")),
            }
        }
        out
    }

    /// The path's keys alone, indexes left out: `["piece", "count"]` for `piece[0].count[1]`.
    pub fn keys(&self) -> Vec<&str> {
        self.path
            .iter()
            .filter_map(|s| match s {
                Step::Key(k) => Some(k.as_str()),
                Step::Index(_) => None,
            })
            .collect()
    }
}

/// Collects into `out` every integer under `table` that does not fit an `i64`.
fn find_oversized(
    table: &toml::de::DeTable<'_>,
    path: &mut Vec<Step>,
    name: Option<&str>,
    out: &mut Vec<Oversized>,
) {
    let name = table
        .get("name")
        .and_then(|n| n.get_ref().as_str())
        .or(name);
    for (key, value) in table.iter() {
        path.push(Step::Key(key.get_ref().to_string()));
        find_oversized_value(value, path, name, out);
        path.pop();
    }
}

fn find_oversized_value(
    value: &toml::Spanned<toml::de::DeValue<'_>>,
    path: &mut Vec<Step>,
    name: Option<&str>,
    out: &mut Vec<Oversized>,
) {
    use toml::de::DeValue;
    match value.get_ref() {
        DeValue::Integer(n) if i64::from_str_radix(n.as_str(), n.radix()).is_err() => {
            out.push(Oversized {
                path: path.clone(),
                value: n.to_string(),
                decimal: n.radix() == 10,
                span: value.span(),
                table_name: name.map(str::to_string),
            });
        }
        DeValue::Array(a) => {
            for (k, v) in a.iter().enumerate() {
                path.push(Step::Index(k));
                find_oversized_value(v, path, name, out);
                path.pop();
            }
        }
        DeValue::Table(t) => find_oversized(t, path, name, out),
        _ => {}
    }
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
    let mut message = e.message().trim().replace('\n', " ");
    // The parser says "duplicate key" without the key: it is the text at the span.
    if message == "duplicate key" {
        let key = e
            .span()
            .and_then(|s| text.get(s))
            .map(|k| k.trim().trim_matches('"'))
            .filter(|k| !k.is_empty() && k.len() <= 80);
        if let Some(key) = key {
            message = format!("duplicate key `{key}`: give each key once");
        }
    }
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
