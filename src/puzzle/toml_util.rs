//! Small helpers that turn TOML byte spans into `file:line:column` locations.

use std::ops::Range;

use crate::error::Error;

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
    let before = &text[..span.start.min(text.len())];
    format!("{source}:{}", before.matches('\n').count() + 1)
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
